"""`make messages` leaves the tree as it is: the catalogue is what makemessages writes, all of it
translated, and the compiled catalogue is compiled from it."""

from __future__ import annotations

import shutil
import subprocess
import sys

from tests.conftest import ROOT
from tools.messages import CATALOGUE, unstamped

# What makemessages reads (the apps, config, templates, manage.py) and the catalogue itself.
SKIPPED = shutil.ignore_patterns(
    ".*", "__pycache__", "node_modules", "media", "staticfiles", "docs", "static", "*.sqlite3"
)


def _entries(text: str) -> list[str]:
    return [block for block in text.split("\n\n") if "msgid" in block]


def test_make_messages_changes_nothing(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=SKIPPED)
    subprocess.run([sys.executable, "tools/messages.py", str(tree)], cwd=ROOT, check=True)

    written = (tree / CATALOGUE).read_text(encoding="utf-8")
    kept = (ROOT / CATALOGUE).read_text(encoding="utf-8")
    assert written == kept, "run `make messages` and translate what it adds"
    # Every entry translated, none fuzzy (the header is the first entry, msgid "").
    entries = _entries(unstamped(written))[1:]
    assert entries
    assert not [e for e in entries if "#, fuzzy" in e or e.rstrip().endswith('msgstr ""')]
    mo = CATALOGUE.with_suffix(".mo")
    assert (tree / mo).read_bytes() == (ROOT / mo).read_bytes(), "the .mo is out of date"


def test_the_stamp_is_the_only_line_kept_from_before():
    catalogue = 'msgid ""\nmsgstr ""\n"POT-Creation-Date: 2026-11-30 15:17+0000\\n"\n"Language: zh_Hant\\n"\n'
    assert unstamped(catalogue) == 'msgid ""\nmsgstr ""\n"Language: zh_Hant\\n"\n'
