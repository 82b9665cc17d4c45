"""Text a database column can hold: PostgreSQL text takes neither NUL nor a lone surrogate."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

# NUL (PostgreSQL text and jsonb refuse it) and UTF-16 surrogates (not encodable in UTF-8).
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def text_refusal(text: str) -> str:
    """Return why ``text`` cannot be stored ("" when it can), naming its first bad character."""
    found = UNSTORABLE.search(text)
    if found is None:
        return ""
    return _("contains U+%(code)04X, a character that cannot be stored; remove it") % {
        "code": ord(found.group())
    }
