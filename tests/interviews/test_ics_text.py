"""Calendar text over every code point: no control character RFC 5545 forbids reaches the file.

RFC 5545 TEXT holds tab and the escaped newline; every other control (CONTROL: C0 but tab, and
DEL) is forbidden, and so, here, are C1 controls and the Unicode line and paragraph separators.
Line breaks of any kind become the escaped newline; the other controls are dropped.
"""

from __future__ import annotations

import datetime as dt
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from interviews.ics import CalendarEvent, calendar_text, escape_text

NOW = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def forbidden(char: str) -> bool:
    """Return whether a character may not appear in RFC 5545 content (tab aside)."""
    return char != "\t" and (unicodedata.category(char) in ("Cc", "Cs") or char in "\u2028\u2029")


def allowed_text(value: str) -> str:
    """Return what a reader should get back: line breaks as "\\n", other controls gone."""
    value = "".join(c for c in value if c in BREAKS or not forbidden(c))
    value = value.replace("\r\n", "\n")
    return "".join("\n" if c in BREAKS else c for c in value)


def unescape(value: str) -> str:
    out, chars = [], iter(value)
    for char in chars:
        if char == "\\":
            following = next(chars)
            out.append("\n" if following in "nN" else following)
        else:
            out.append(char)
    return "".join(out)


def unfold(text: str) -> list[str]:
    return text.replace("\r\n ", "").split("\r\n")


# Every code point, surrogates included, with the troublesome ones drawn often.
ANY_CHAR = st.one_of(
    st.integers(min_value=0, max_value=0x10FFFF).map(chr),
    st.sampled_from("\x00\x07\t\n\x0b\x0c\r\x1c\x1f\x7f\x85\x9f\u2028\u2029\ud800\udfff,;\\"),
)


@settings(max_examples=300, deadline=None)
@given(st.text(ANY_CHAR, max_size=200))
def test_calendar_text_has_no_forbidden_control_and_unfolds_to_the_allowed_text(value):
    event = CalendarEvent(
        uid="round-1@offerdesk",
        start=NOW,
        end=NOW + dt.timedelta(hours=1),
        summary=value,
        description=value,
        location=value,
    )
    raw = calendar_text([event], now=NOW, name=value).encode("utf-8")  # encodable: no surrogates
    text = raw.decode("utf-8")
    assert all(len(line) <= 75 for line in raw.split(b"\r\n"))
    lines = unfold(text)
    assert lines[-1] == ""
    for line in lines[:-1]:
        assert not any(forbidden(c) for c in line), repr(line)
    expected = allowed_text(value)
    for prop in ("SUMMARY", "DESCRIPTION", "LOCATION", "X-WR-CALNAME"):
        found = [line for line in lines if line.startswith(f"{prop}:")]
        if prop in ("DESCRIPTION", "LOCATION") and not value:
            assert found == []
            continue
        assert [unescape(line.split(":", 1)[1]) for line in found] == [expected]


def test_each_kind_of_line_break_is_the_escaped_newline():
    for brk in ("\r\n", "\n", "\r", "\x0b", "\x0c", "\x85", "\u2028", "\u2029"):
        assert escape_text(f"a{brk}b") == "a\\nb", repr(brk)


def test_other_controls_are_dropped_and_tab_is_kept():
    assert escape_text("a\x00b\x07c\x1fd\x7fe\x9ff\tg\ud800h") == "abcdef\tgh"
