"""The deployment's commands as the README and the Procfile give them, read from those files.

Read by the CI check that runs them (tests/deploy/check.py) and by the tests that hold the
Procfile, the Makefile, the README and the Dockerfile to the same commands, so none can drift.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_MARK = "<!-- production-commands:"
START_MARK = "<!-- start-commands:"
SETTING = re.compile(r"^([A-Z][A-Z0-9_]*)=(.*)$")  # a line of the settings file
SETTINGS_FILE = "offerdesk.env"
HEREDOC_START = f"cat > {SETTINGS_FILE} <<'EOF'"
DEFAULT = re.compile(r"\$\{([A-Z_]+):-([^}]*)\}")


def fenced_after(mark: str, text: str | None = None) -> str:
    """Return the fenced code block that follows the line starting with `mark` in the README."""
    lines = (text if text is not None else (ROOT / "README.md").read_text("utf-8")).splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(mark)]
    assert len(starts) == 1, f"README.md must hold one {mark!r} line, not {len(starts)}"
    opening = starts[0] + 1
    assert lines[opening].startswith("```"), f"a fenced block must follow {mark!r}"
    closing = next(i for i in range(opening + 1, len(lines)) if lines[i].startswith("```"))
    return "\n".join(lines[opening + 1 : closing]) + "\n"


def production_block() -> str:
    """Return the README's production commands (install, settings, migrate, reference data,
    account, static)."""
    return fenced_after(PRODUCTION_MARK)


def start_commands() -> list[str]:
    """Return the README's three start commands (web, worker, beat), as written."""
    return [line for line in fenced_after(START_MARK).splitlines() if line.strip()]


def settings_file(block: str) -> str:
    """Return the settings file the block writes (its here-document), as the file holds it."""
    lines = block.splitlines()
    assert lines.count(HEREDOC_START) == 1, f"the block must write {SETTINGS_FILE} once"
    start = lines.index(HEREDOC_START) + 1
    end = lines.index("EOF", start)
    return "\n".join(lines[start:end]) + "\n"


def settings(block: str) -> dict[str, str]:
    """Return the names and values of the settings file's KEY=value lines, in order."""
    found = {}
    for line in block.splitlines():
        match = SETTING.match(line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def with_values(block: str, values: dict[str, str]) -> str:
    """Return the block with each `NAME=...` line taking values[NAME]; nothing else changes.

    Every name the settings file sets must be given, and nothing else: a setting added to the README
    fails the check until the check knows what value it takes here.
    """
    assert set(settings(block)) == set(values), (set(settings(block)), set(values))
    out = []
    for line in block.splitlines():
        match = SETTING.match(line)
        out.append(f"{match.group(1)}={shlex.quote(values[match.group(1)])}" if match else line)
    return "\n".join(out) + "\n"


def procfile() -> dict[str, str]:
    """Return the Procfile's processes: name -> command."""
    processes = {}
    for line in (ROOT / "Procfile").read_text("utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, command = line.split(":", 1)
            processes[name.strip()] = command.strip()
    return processes


def shell_defaults(command: str) -> str:
    """Return the command with each ${NAME:-default} replaced by its default."""
    return DEFAULT.sub(lambda m: m.group(2), command)
