"""The deployment files say one thing: the Procfile's commands are the README's, the Makefile's,
the Dockerfile's and compose.yaml's; the README's production block has every step, in order.

Docker is not run here (no daemon on this project's machines): compose.yaml and the Dockerfile
are read and checked as text. tests/deploy/check.py (CI, pass 2) runs the README's block and
the Procfile for real.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import yaml

from tests.deploy.readme import (
    ROOT,
    SETTING,
    SETTINGS_FILE,
    procfile,
    production_block,
    settings,
    settings_file,
    shell_defaults,
    start_commands,
    with_values,
)

ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")


def argv(command: str | list[str]) -> list[str]:
    """Return a command's words without leading VAR=value, a venv's bin/ or --bind's address."""
    words = shlex.split(shell_defaults(command)) if isinstance(command, str) else list(command)
    while words and ASSIGNMENT.match(words[0]):
        words.pop(0)
    words[0] = re.sub(r"^(\S*/)?\.?venv/bin/", "", words[0])
    for i, word in enumerate(words[:-1]):
        if word == "--bind":
            words[i + 1] = "ADDRESS"
    return words


def make_commands(*targets: str) -> list[str]:
    out = subprocess.run(
        [
            "make",
            "--dry-run",
            "--always-make",
            *targets,
            "PORT=8000",
            "BEAT_SCHEDULE=celerybeat-schedule",
            "VENV=.venv",  # the default, whatever venv the make running the tests was given
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        # Not the variables of a make that runs these tests (CI's `make test VENV=...`).
        env={k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")},
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def recipe_line(lines: list[str], program: str) -> str:
    found = [line for line in lines if re.search(rf"(^|\s|/){program} ", line)]
    assert len(found) == 1, (program, lines)
    return found[0]


def test_the_procfile_runs_web_worker_and_beat():
    assert list(procfile()) == ["web", "worker", "beat"]
    web = shlex.split(shell_defaults(procfile()["web"]))
    assert web[web.index("--bind") + 1] == "127.0.0.1:8000"  # behind the proxy, never public


def test_the_readme_starts_the_procfiles_commands():
    readme = start_commands()
    assert [argv(c) for c in readme] == [argv(c) for c in procfile().values()]
    assert all(c.startswith("venv/bin/") for c in readme)  # the runtime venv of the block
    assert shlex.split(readme[0])[-1] == "127.0.0.1:8000"


def test_the_makefile_runs_the_procfiles_commands():
    lines = make_commands("serve", "worker", "beat")
    processes = procfile()
    assert argv(recipe_line(lines, "gunicorn")) == argv(processes["web"])
    worker, beat = [line for line in lines if "celery" in line]
    assert argv(worker) == argv(processes["worker"])
    assert argv(beat) == argv(processes["beat"])


def test_make_serve_is_production_and_serve_local_plain_http():
    serve = make_commands("serve")
    assert not any("SECURE_SSL=0" in line for line in serve)
    assert "DEBUG=0" in recipe_line(serve, "gunicorn")
    makefile = (ROOT / "Makefile").read_text("utf-8")
    assert "serve: export SECRET_KEY" not in makefile  # no throw-away key in production mode
    local = recipe_line(make_commands("serve-local"), "gunicorn")
    assert "DEBUG=0 SECURE_SSL=0" in local
    assert argv(local) == argv(procfile()["web"])
    assert "serve-local: export SECRET_KEY ?=" in makefile


def test_the_production_block_has_every_step_in_order():
    block = production_block()
    steps = [
        r"^python3 -m venv venv$",
        r"^venv/bin/pip install --require-hashes -r requirements\.lock$",
        r"^touch offerdesk\.env && chmod 600 offerdesk\.env$",
        r"^cat > offerdesk\.env <<'EOF'$",
        r"^SECRET_KEY=",
        r"^EOF$",
        r"^set -a; \. \./offerdesk\.env; set \+a$",
        r"^venv/bin/python manage\.py migrate --noinput$",
        r"^venv/bin/python manage\.py check --deploy --fail-level WARNING$",
        r"^venv/bin/python manage\.py load_reference$",
        r"^venv/bin/python manage\.py create_user \S+",
        r"^venv/bin/python manage\.py collectstatic --noinput$",
    ]
    positions = []
    for step in steps:
        match = re.search(step, block, re.MULTILINE)
        assert match, f"the README's production block lacks {step}"
        positions.append(match.start())
    assert positions == sorted(positions)
    named = settings(block)
    assert {
        "SECRET_KEY",
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "CACHE_URL",
        "ALLOWED_HOSTS",
        "SITE_URL",
        "TRUST_X_FORWARDED_PROTO",
        "AXES_IPWARE_PROXY_COUNT",
        "EMAIL_URL",
    } == set(named)
    listed = (ROOT / ".env.example").read_text("utf-8")
    for name in named:
        assert re.search(rf"^#?\s*{name}=", listed, re.MULTILINE), name
    # The first account needs no shell: its password comes from the prompt or the environment.
    assert "shell" not in block and "createsuperuser" not in block


def test_the_check_replaces_the_settings_values_only():
    block = production_block()
    values = {name: f"value of {name}" for name in settings(block)}
    replaced = with_values(block, values)
    assert settings(replaced) == {name: shlex.quote(v) for name, v in values.items()}
    kept = [line for line in block.splitlines() if not SETTING.match(line)]
    assert kept == [line for line in replaced.splitlines() if not SETTING.match(line)]
    with pytest.raises(AssertionError):
        with_values(block, {"SECRET_KEY": "x"})  # a setting the check does not know fails


SYSTEMD_SAFE = re.compile(r"^[A-Z][A-Z0-9_]*=([\w.,:/@%+=-]*|'[^'\\$`]*')$")


def test_the_settings_file_is_key_value_lines_the_shell_and_service_managers_read_alike():
    block = production_block()
    text = settings_file(block)
    assert "export " not in text  # systemd's EnvironmentFile= ignores `export NAME=` lines
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert lines and all(SYSTEMD_SAFE.match(line) for line in lines), lines
    commented = [line[2:] for line in text.splitlines() if line.startswith("# ")]
    assert all(SYSTEMD_SAFE.match(line) for line in commented if SETTING.match(line)), commented
    # CI's values (tests/deploy/check.py: shlex-quoted) and values with spaces, as the file holds
    # them, read the same by bash's `set -a; . ./offerdesk.env; set +a` and by honcho (the
    # check's Procfile runner); systemd takes bare and single-quoted values as they are.
    values = {name: f"v-{name.lower()}@x:1/2" for name in settings(block)}
    values["ALLOWED_HOSTS"] = "a.example.com,b.example.com"
    values["SECRET_KEY"] = "with spaces <and> % signs"
    written = settings_file(with_values(block, values))
    assert all(SYSTEMD_SAFE.match(line) for line in written.splitlines() if SETTING.match(line))
    from honcho.environ import parse

    assert parse(written) == values
    script = f"set -a; . ./{SETTINGS_FILE}; set +a; " + "; ".join(
        f'printf "%s\\0" "${name}"' for name in values
    )
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, SETTINGS_FILE).write_text(written, "utf-8")
        out = subprocess.run(
            ["bash", "-c", script], cwd=folder, capture_output=True, timeout=30, env={}
        )
    assert out.returncode == 0, out.stderr
    assert dict(zip(values, out.stdout.decode().split("\0")[:-1], strict=True)) == values


def unit(name: str) -> dict[str, dict[str, str]]:
    """Return a systemd unit of deploy/ as section -> key -> value (each key once)."""
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in (ROOT / "deploy" / name).read_text("utf-8").splitlines():
        if not line.strip() or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, value = line.split("=", 1)
        assert key not in current, (name, key)
        current[key] = value
    return sections


UNITS = {process: f"offerdesk-{process}.service" for process in ("web", "worker", "beat")}


def test_the_systemd_units_run_the_procfiles_processes_with_the_settings_file():
    assert sorted(p.name for p in (ROOT / "deploy").glob("*.service")) == sorted(UNITS.values())
    assert set(UNITS) == set(procfile())
    folders = set()
    for process, name in UNITS.items():
        service = unit(name)["Service"]
        folder = service["WorkingDirectory"]
        folders.add(folder)
        assert service["EnvironmentFile"] == f"{folder}/{SETTINGS_FILE}", name
        start = shlex.split(service["ExecStart"])
        assert start[0] == f"{folder}/venv/bin/{argv(procfile()[process])[0]}", name
        assert argv(start) == argv(procfile()[process]), name
        assert service["User"] not in ("root", "0")
        assert unit(name)["Install"]["WantedBy"] == "multi-user.target"
    assert len(folders) == 1  # one clone, one settings file
    web = shlex.split(unit(UNITS["web"])["Service"]["ExecStart"])
    assert web[web.index("--bind") + 1] == "127.0.0.1:8000"  # behind the proxy, never public
    beat = shlex.split(unit(UNITS["beat"])["Service"]["ExecStart"])
    assert beat[-1] == "--schedule=celerybeat-schedule"  # the Procfile's default, in the clone
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "deploy/offerdesk-*.service" in readme


def test_systemd_accepts_the_units():
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    with tempfile.TemporaryDirectory() as folder:
        clone = Path(folder)
        (clone / "venv" / "bin").mkdir(parents=True)
        for program in ("gunicorn", "celery"):
            (clone / "venv" / "bin" / program).write_text("#!/bin/sh\n", "utf-8")
            (clone / "venv" / "bin" / program).chmod(0o755)
        (clone / SETTINGS_FILE).write_text("", "utf-8")
        folder_of_units = unit(UNITS["web"])["Service"]["WorkingDirectory"]
        for name in UNITS.values():
            text = (ROOT / "deploy" / name).read_text("utf-8")
            (clone / name).write_text(text.replace(folder_of_units, str(clone)), "utf-8")
        out = subprocess.run(
            [analyze, "verify", *(str(clone / name) for name in UNITS.values())],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert out.returncode == 0 and not out.stderr.strip(), out.stderr


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text("utf-8"))


def test_compose_runs_the_procfiles_processes_with_postgres_and_redis():
    services = compose()["services"]
    assert {"web", "worker", "beat", "db", "redis"} <= set(services)
    assert re.fullmatch(r"postgres:16\.\d+", services["db"]["image"])  # pinned releases
    assert re.fullmatch(r"redis:7\.\d+\.\d+", services["redis"]["image"])
    processes = procfile()
    for name in ("web", "worker", "beat"):
        command = services[name]["command"]
        if name == "beat":  # its schedule file in the container's /tmp
            command = [w for w in command if not w.startswith("--schedule=")]
            expected = [w for w in argv(processes[name]) if not w.startswith("--schedule=")]
        else:
            expected = argv(processes[name])
        assert argv(command) == expected, name
    assert services["web"]["command"][-1] == "0.0.0.0:8000"  # inside the container
    assert services["web"]["ports"] == ["127.0.0.1:8000:8000"]  # the host's proxy only
    for name in ("web", "worker", "beat"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in env["DATABASE_URL"]
        assert env["CELERY_BROKER_URL"] == "redis://redis:6379/0"
        assert env["CACHE_URL"] == "redis://redis:6379/1"
        assert env["TRUST_X_FORWARDED_PROTO"] == "1"
        assert "${SECRET_KEY:?" in env["SECRET_KEY"]
        assert {"db", "redis", "migrate"} <= set(services[name]["depends_on"])
    assert services["migrate"]["command"] == [
        "sh",
        "-c",
        "python manage.py migrate --noinput && python manage.py load_reference",
    ]


def test_compose_gives_every_setting_of_the_env_file_to_each_offerdesk_process():
    services = compose()["services"]
    for name in ("web", "worker", "beat", "migrate"):
        assert services[name]["env_file"] == ".env", name
    # The fixed values are compose's own network (and the container's paths); every other
    # setting, EMAIL_URL, DEFAULT_FROM_EMAIL and SENTRY_DSN among them, comes from the file.
    fixed = set(services["web"]["environment"])
    assert not {"EMAIL_URL", "DEFAULT_FROM_EMAIL", "SENTRY_DSN", "DEBUG"} & fixed
    assert "env_file" not in services["db"] and "env_file" not in services["redis"]


def test_compose_shares_the_media_volume_between_web_and_worker():
    data = compose()
    services = data["services"]
    media = services["web"]["environment"]["MEDIA_ROOT"]
    for name in ("web", "worker"):
        assert f"media:{media}" in services[name]["volumes"], name
    assert "media" in data["volumes"]


def test_compose_health_checks():
    services = compose()["services"]
    web = " ".join(services["web"]["healthcheck"]["test"])
    assert "/healthz" in web and "json.load" in web and "'status'] == 'ok'" in web
    assert "ALLOWED_HOSTS" in web  # Django answers only its own host names
    assert "pg_isready" in " ".join(services["db"]["healthcheck"]["test"])
    assert "ping" in " ".join(services["redis"]["healthcheck"]["test"])
    assert "inspect ping" in " ".join(services["worker"]["healthcheck"]["test"])
    for name in ("web", "worker", "beat", "migrate"):
        for dependency in ("db", "redis"):
            if dependency in services[name]["depends_on"]:
                assert services[name]["depends_on"][dependency]["condition"] == "service_healthy"


def dockerfile() -> list[str]:
    """Return the Dockerfile's instructions, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text("utf-8")
    text = re.sub(r"\\\n\s*", " ", text)
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def test_dockerfile_slim_python_311_non_root_runtime_lock():
    lines = dockerfile()
    # A pinned base: one Python release on one Debian release, not a moving tag.
    assert re.fullmatch(r"FROM python:3\.11\.\d+-slim-bookworm", lines[0]), lines[0]
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    cmd_at = next(i for i, line in enumerate(lines) if line.startswith("CMD "))
    user_at = max(i for i, line in enumerate(lines) if line.startswith("USER "))
    assert user_at < cmd_at
    installs = [line for line in lines if "pip install" in line]
    assert len(installs) == 1 and "--require-hashes -r /tmp/requirements.lock" in installs[0]
    assert "requirements-dev" not in "\n".join(lines)
    cmd = yaml.safe_load(lines[cmd_at].removeprefix("CMD "))  # a JSON list
    assert argv(cmd) == argv(procfile()["web"]) and cmd[-1] == "0.0.0.0:8000"
    # The bytecode compiled at build, after the sources are copied in (and before the non-root
    # user, who cannot write to /app): no start compiles again.
    copy_at = lines.index("COPY . /app")
    compile_at = next(i for i, line in enumerate(lines) if "python -m compileall" in line)
    assert copy_at < compile_at < user_at and "/app" in lines[compile_at].split()
    health = next(line for line in lines if line.startswith("HEALTHCHECK "))
    assert "/healthz" in health and "'status'] == 'ok'" in health
    ignored = (ROOT / ".dockerignore").read_text("utf-8").split()
    assert {".git", ".venv", "venv", ".env", "media"} <= set(ignored)


def test_caddyfile_proxies_to_gunicorn_with_the_forwarded_protocol():
    text = (ROOT / "deploy" / "Caddyfile").read_text("utf-8")
    assert "reverse_proxy 127.0.0.1:8000" in text
    assert re.search(r"^\s*header_up X-Forwarded-Proto \{scheme\}$", text, re.MULTILINE)
    assert not re.search(r"^\s*log\b", text, re.MULTILINE)  # it would keep feed tokens
    assert re.search(r"^\s*encode zstd gzip$", text, re.MULTILINE)  # BREACH: docs/security.md
    assert "encode zstd gzip" in (ROOT / "docs" / "security.md").read_text("utf-8")
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed (.ci/run installs Debian's)")
    out = subprocess.run(
        [caddy, "adapt", "--config", str(ROOT / "deploy" / "Caddyfile")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert '"X-Forwarded-Proto":["{http.request.scheme}"]' in out.stdout
    assert '"dial":"127.0.0.1:8000"' in out.stdout
    assert '"handler":"encode"' in out.stdout and '"zstd"' in out.stdout


def test_ci_runs_the_deployment_check_in_its_second_pass():
    run = (ROOT / ".ci" / "run").read_text("utf-8")
    second = run.split("== pass 2", 1)[1]
    assert "tests.deploy.check" in second
