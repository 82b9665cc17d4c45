"""RFC 5545 calendar text for interview rounds: CRLF lines folded at 75 octets, UTC times."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

CRLF = "\r\n"
MAX_OCTETS = 75
# What Python reads as a line break (CR LF, LF, CR, VT, FF, FS, GS, RS, NEL, U+2028, U+2029):
# written as the escaped newline "\n", the one line break RFC 5545 text carries.
LINE_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
# Every other control character (C0 but tab, DEL, C1) and lone surrogates: RFC 5545 text
# cannot hold them (CONTROL, and NON-US-ASCII is UTF-8, which a surrogate cannot be in).
FORBIDDEN = re.compile("[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f\ud800-\udfff]")


@dataclass(frozen=True)
class CalendarEvent:
    """One VEVENT: instants are aware datetimes, written in UTC with a trailing Z."""

    uid: str
    start: datetime
    end: datetime
    summary: str
    description: str = ""
    location: str = ""
    url: str = ""  # a page about the event (the round's prep brief)


def escape_text(value: str) -> str:
    """Escape a TEXT value: backslash, semicolon, comma and line breaks; drop other controls."""
    value = FORBIDDEN.sub("", value)
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return LINE_BREAK.sub("\\\\n", value)


def fold_line(line: str) -> str:
    """Fold a content line so that no physical line exceeds 75 octets (UTF-8 safe)."""
    out: list[str] = []
    current = ""
    current_len = 0
    for char in line:
        size = len(char.encode("utf-8"))
        if current_len + size > MAX_OCTETS:
            out.append(current)
            current, current_len = " ", 1  # continuation lines start with one space
        current += char
        current_len += size
    out.append(current)
    return CRLF.join(out)


def utc_stamp(moment: datetime) -> str:
    """Return an aware datetime as a UTC DATE-TIME value (YYYYMMDDTHHMMSSZ)."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime: calendar times must be aware")
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def calendar_text(
    events: Iterable[CalendarEvent], *, now: datetime, name: str = "Interviews"
) -> str:
    """Return a VCALENDAR with one VEVENT an event."""
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Offerdesk//Interviews//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    stamp = utc_stamp(now)
    for event in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{event.uid}",
            f"DTSTAMP:{stamp}",
            f"DTSTART:{utc_stamp(event.start)}",
            f"DTEND:{utc_stamp(event.end)}",
            f"SUMMARY:{escape_text(event.summary)}",
        ]
        texts = (("DESCRIPTION", event.description), ("LOCATION", event.location))
        lines += [f"{key}:{escape_text(text)}" for key, text in texts if text]
        if event.url:
            lines.append(f"URL:{event.url}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(fold_line(line) + CRLF for line in lines)
