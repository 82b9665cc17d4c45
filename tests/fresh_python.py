"""A fresh Python process for a test, for a fifth of the CPU: `run()`.

A test that reads the settings under given environment variables, or runs `manage.py check`,
needs a new process for each environment. Starting Python and importing Django, numpy, pandas
and Celery costs about a second of CPU each time; the project's own modules a quarter of it.
So each test process keeps one helper process (`python tests/fresh_python.py`) that imports the
third-party packages once, with no settings configured (no DJANGO_SETTINGS_MODULE: a package
that read the settings at import would fail there), and forks a child for each run. The child
takes the run's environment, folder, arguments and standard streams, imports the project's
modules itself and exits as Python does (non-daemon threads joined, atexit functions, flushed
streams, the exit code of SystemExit, or 1 and the traceback for an exception), so the test
sees what a new `python` would give it.

A run whose environment sets Python's start-up variables (PYTHONPATH, PYTHONHASHSEED...)
otherwise than the helper's gets a real process. Tests that check what a module imports from
third parties (the pure cores import no Django) start a real `sys.executable` themselves.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import types
from collections.abc import Mapping, Sequence
from pathlib import Path

# Imported once by the helper: packages that read neither the settings nor the project's
# environment at import. The project's own modules (config, accounts, ...) never are.
PRELOAD = (
    "numpy",
    "pandas",
    "openpyxl",
    "celery",
    "celery.app",
    "kombu",
    "redis",
    "django.core.management",
    "django.db.models",
    "django.forms",
    "django.http",
    "django.template",
    "django.test",
    "django.urls",
    "django.views.generic",
    "django.contrib.admin",
)


class _Helper:
    """The forking helper process of this test process, started on first use."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.pending = b""
        self.start_env: dict[str, str] | None = None

    def start(self) -> subprocess.Popen[bytes]:
        if self.proc is None or self.proc.poll() is not None:
            env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
            self.proc = subprocess.Popen(
                [sys.executable, __file__],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
                cwd=Path(__file__).resolve().parent.parent,
            )
            self.pending = b""
            self.start_env = env
            atexit.register(self.stop)
        return self.proc

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def answer(self, timeout: float | None) -> dict | None:
        """The helper's next line, or None when `timeout` seconds pass first."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.pending:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(fd, 4096)
            if not chunk:
                raise RuntimeError("the fresh-Python helper stopped")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return json.loads(line)

    def ask(self, request: dict, timeout: float | None) -> int:
        """Run `request` in a forked child; its exit code (-N for signal N, as subprocess)."""
        proc = self.start()
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(request).encode() + b"\n")
        proc.stdin.flush()
        started = self.answer(None)
        assert started is not None
        done = self.answer(timeout)
        if done is None:
            os.kill(started["pid"], signal.SIGKILL)
            self.answer(None)
            raise subprocess.TimeoutExpired(request["argv"], timeout or 0)
        return int(done["returncode"])


_HELPER = _Helper()


def run(
    args: Sequence[str],
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
    check: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run `[sys.executable, *args]` as a new Python would: `-c code`, `-m module` or a script.

    Answers as `subprocess.run(..., capture_output=True, text=True)`.
    """
    args = list(args)
    if args[:1] == [sys.executable]:
        args = args[1:]
    run_env = dict(os.environ if env is None else env)
    if _startup_differs(run_env):
        # Variables Python reads at start-up (PYTHONPATH, PYTHONHASHSEED...): a real process.
        return subprocess.run(
            [sys.executable, *args],
            cwd=cwd,
            env=run_env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=check,
        )
    with tempfile.TemporaryDirectory(prefix="fresh-python-") as folder:
        out, err = Path(folder) / "out", Path(folder) / "err"
        request = {
            "argv": args,
            "cwd": str(cwd or os.getcwd()),
            "env": run_env,
            "stdout": str(out),
            "stderr": str(err),
        }
        returncode = _HELPER.ask(request, timeout)
        done = subprocess.CompletedProcess(
            [sys.executable, *args],
            returncode,
            out.read_text(encoding="utf-8", errors="replace"),
            err.read_text(encoding="utf-8", errors="replace"),
        )
    if check:
        done.check_returncode()
    return done


def _startup_differs(env: Mapping[str, str]) -> bool:
    """Whether `env` sets Python's start-up variables (PYTHON*) otherwise than the helper's."""
    started = _HELPER.start_env if _HELPER.start_env is not None else os.environ
    return any(
        env.get(name) != started.get(name) for name in {*env, *started} if name.startswith("PYTHON")
    )


# The helper process ---------------------------------------------------------------------


def _serve() -> dict | None:
    """Preload, then fork a child per request; return the request in the child, None at EOF."""
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    requests = sys.stdin.buffer
    for line in requests:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            return request
        os.write(1, json.dumps({"pid": pid}).encode() + b"\n")
        _, status = os.waitpid(pid, 0)
        os.write(1, json.dumps({"returncode": os.waitstatus_to_exitcode(status)}).encode() + b"\n")
    return None


def _become(request: dict) -> None:
    """In the child: take the run's streams, folder, environment and arguments, and run it."""
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(handle, fd)
        os.close(handle)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as Python sets it at start-up
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main
    try:
        _run(request["argv"], main)
        code = 0
    except SystemExit as stop:
        code = _exit_code(stop.code)
    except BaseException:
        sys.excepthook(*sys.exc_info())
        code = 1
    # Python's own exit, less freeing the heap object by object (a third of a second in a
    # child that shares the helper's): the threads joined, the atexit functions, the streams.
    import atexit
    import threading

    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120  # as Python when it cannot flush its standard streams
    os._exit(code)


def _exit_code(code: object) -> int:
    """SystemExit's code as the process's exit code, as Python does."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _run(argv: list[str], main: types.ModuleType) -> None:
    import runpy

    if argv[0] == "-c":
        sys.argv = ["-c", *argv[2:]]
        sys.path[0] = ""
        exec(compile(argv[1], "<string>", "exec"), main.__dict__)
    elif argv[0] == "-m":
        sys.argv = [argv[1], *argv[2:]]
        sys.path[0] = os.getcwd()
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        script = os.path.abspath(argv[0])
        sys.argv = [argv[0], *argv[1:]]
        sys.path[0] = os.path.dirname(script)
        runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    _request = _serve()
    if _request is not None:
        _become(_request)
