"""Two hashed locks: requirements.lock (runtime, what a server installs) and requirements-dev.lock
(runtime, tests and tools: `make install`), each as the requirement files and constraints say."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)")
RUNTIME, DEV = "requirements.lock", "requirements-dev.lock"
# Test and development tools (and what only they bring): never on a server.
DEV_ONLY = {
    "pytest",
    "pytest-django",
    "pytest-xdist",
    "factory-boy",
    "faker",
    "hypothesis",
    "ruff",
    "mypy",
    "playwright",
    "greenlet",
    "pre-commit",
    "virtualenv",
    "import-linter",
    "pandas-stubs",
    "jsonschema",
    "honcho",
}


def name(raw: str) -> str:
    return re.sub(r"[-_.]+", "-", raw).lower()


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line.strip())
        if match:
            found[name(match.group(1))] = match.group(2)
    return found


def lock_entries(lock: str) -> dict[str, tuple[str, list[str]]]:
    """Return each locked package's version and hashes."""
    entries: dict[str, tuple[str, list[str]]] = {}
    current = ""
    for line in (ROOT / lock).read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            current = name(match.group(1))
            entries[current] = (match.group(2), [])
        elif current and line.strip().startswith("--hash=sha256:"):
            entries[current][1].append(line.strip().removeprefix("--hash=sha256:").rstrip(" \\"))
    return entries


@pytest.mark.parametrize(
    ("lock", "files"),
    [
        (RUNTIME, ("requirements.txt",)),
        (DEV, ("requirements.txt", "requirements-dev.txt", "constraints.txt")),
    ],
)
def test_every_pinned_requirement_is_locked_at_its_version(lock, files):
    locked = lock_entries(lock)
    for file in files:
        for package, version in pins(ROOT / file).items():
            assert package in locked, f"{package} ({file}) is not in {lock}: make lock"
            assert locked[package][0] == version, (
                f"{package}: {file} pins {version}, {lock} {locked[package][0]}: make lock"
            )


def test_the_dev_lock_holds_what_the_constraints_do():
    assert set(lock_entries(DEV)) == set(pins(ROOT / "constraints.txt"))


def test_the_runtime_lock_is_the_dev_locks_runtime_part_and_no_tool():
    runtime, dev = lock_entries(RUNTIME), lock_entries(DEV)
    assert set(runtime) <= set(dev)
    for package, entry in runtime.items():
        assert entry == dev[package], f"{package}: the two locks differ: make lock"
    assert set(pins(ROOT / "requirements.txt")) <= set(runtime)
    assert set(dev) >= DEV_ONLY
    assert not DEV_ONLY & set(runtime), "a test or lint tool in the runtime lock"


@pytest.mark.parametrize("lock", [RUNTIME, DEV])
def test_every_locked_package_has_a_sha256_hash(lock):
    for package, (_version, hashes) in lock_entries(lock).items():
        assert hashes, f"{package} has no hash"
        assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), package


def make_dry_run(target: str) -> str:
    out = subprocess.run(
        ["make", "--dry-run", "--always-make", target],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_make_install_installs_the_dev_lock_checking_hashes():
    commands = make_dry_run("install")
    assert "pip install -q --require-hashes -r requirements-dev.lock" in commands
    assert "-r requirements.lock" not in commands


def test_make_lock_writes_both_locks_from_their_requirement_files():
    commands = make_dry_run("lock")
    assert re.search(r"--output-file requirements\.lock requirements\.txt$", commands, re.M)
    assert re.search(r"--output-file requirements-dev\.lock requirements-dev\.txt$", commands, re.M)
    assert commands.count("--generate-hashes") == 2
    assert commands.count("--constraint constraints.txt") == 2


def test_the_server_installs_the_runtime_lock_only():
    """The Dockerfile and the README's production commands install requirements.lock alone."""
    install = re.compile(r"pip install [^\n]*--require-hashes -r \S*?(requirements[\w.-]*\.lock)")
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert install.findall(dockerfile) == [RUNTIME]
    from tests.deploy.readme import production_block

    assert install.findall(production_block()) == [RUNTIME]
