"""requirements.lock pins every package with its hashes, as the requirement files and constraints say."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)")


def name(raw: str) -> str:
    return re.sub(r"[-_.]+", "-", raw).lower()


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line.strip())
        if match:
            found[name(match.group(1))] = match.group(2)
    return found


def lock_entries() -> dict[str, tuple[str, list[str]]]:
    """Return each locked package's version and hashes."""
    entries: dict[str, tuple[str, list[str]]] = {}
    current = ""
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            current = name(match.group(1))
            entries[current] = (match.group(2), [])
        elif current and line.strip().startswith("--hash=sha256:"):
            entries[current][1].append(line.strip().removeprefix("--hash=sha256:").rstrip(" \\"))
    return entries


def test_every_pinned_requirement_is_locked_at_its_version():
    locked = lock_entries()
    for file in ("requirements.txt", "requirements-dev.txt", "constraints.txt"):
        for package, version in pins(ROOT / file).items():
            assert package in locked, f"{package} ({file}) is not in requirements.lock: make lock"
            assert locked[package][0] == version, (
                f"{package}: {file} pins {version}, requirements.lock {locked[package][0]}: make lock"
            )


def test_the_lock_holds_nothing_the_constraints_do_not():
    assert set(lock_entries()) == set(pins(ROOT / "constraints.txt"))


def test_every_locked_package_has_a_sha256_hash():
    for package, (_version, hashes) in lock_entries().items():
        assert hashes, f"{package} has no hash"
        assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), package


def test_make_install_installs_from_the_lock_checking_hashes():
    import subprocess

    out = subprocess.run(
        ["make", "--dry-run", "--always-make", "install"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "pip install -q --require-hashes -r requirements.lock" in out.stdout
