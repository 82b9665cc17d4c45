"""Every template filter the apps register is used by some template (no dead filters)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interviews.templatetags import interviews_extras
from offers.templatetags import offerdesk

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@pytest.mark.parametrize("library", [offerdesk.register, interviews_extras.register])
def test_every_registered_filter_is_used(library):
    text = "\n".join(p.read_text() for p in TEMPLATES.rglob("*.html"))
    unused = [name for name in library.filters if not re.search(rf"\|\s*{name}\b", text)]
    assert unused == []
