"""`make messages`: the zh-Hant catalogue exactly as makemessages writes it, then compiled.

makemessages stamps the catalogue with the time it ran (POT-Creation-Date); when nothing else
changed, the old stamp is kept, so a run on a tree whose every string is in the catalogue leaves
`git status` clean (tests/test_messages.py runs the same command on a copy of the tree).
Locations name the file alone: a line moved in a module does not rewrite the catalogue.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = Path("locale/zh_Hant/LC_MESSAGES/django.po")
MAKEMESSAGES = [
    "makemessages",
    "--locale=zh_Hant",
    "--add-location=file",
    "--no-obsolete",
    "--ignore=.venv",
    "--ignore=tests",
    "--ignore=bench",
    "--ignore=tools",
]
COMPILEMESSAGES = ["compilemessages", "--locale=zh_Hant", "--ignore=.venv"]
STAMP = re.compile(r'^"POT-Creation-Date: [^"]*"\n', re.MULTILINE)


def unstamped(text: str) -> str:
    """Return the catalogue without the time makemessages ran."""
    return STAMP.sub("", text)


def manage(root: Path, *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args, "--verbosity=0"],
        cwd=root,
        check=True,
        env={**os.environ, "DEBUG": "1"},
    )


def messages(root: Path = ROOT) -> None:
    """Rewrite the catalogue under ``root`` from its sources and compile it."""
    catalogue = root / CATALOGUE
    before = catalogue.read_text(encoding="utf-8")
    manage(root, *MAKEMESSAGES)
    if unstamped(catalogue.read_text(encoding="utf-8")) == unstamped(before):
        catalogue.write_text(before, encoding="utf-8")
    manage(root, *COMPILEMESSAGES)


if __name__ == "__main__":
    messages(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
