"""Dates with their weekday in the active language's own order (config/formats/<lang>)."""

from __future__ import annotations

from datetime import date, datetime

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils import formats

from config.formats.en import formats as english

register = template.Library()


def weekday_format(*, with_time: bool, with_year: bool) -> str:
    """Return the active language's weekday date format (with the time, with the year), or
    English's for a language whose format module names none."""
    name = "WEEKDAY_" + ("YEAR_" if with_year else "") + ("DATETIME" if with_time else "DATE")
    name += "_FORMAT"
    found = formats.get_format(name)
    return str(getattr(english, name) if found == name else found)


def weekday_words(value: date | datetime, fmt: str) -> str:
    """Return value in fmt, its weekday (D) in the language's own short name where its formats
    name them (WEEKDAY_SHORT_NAMES: 六 in 2026年12月5日（六）), else Django's ("Sat")."""
    names = str(formats.get_format("WEEKDAY_SHORT_NAMES"))
    if names != "WEEKDAY_SHORT_NAMES":
        fmt = fmt.replace("D", "\\" + names[value.weekday()])
    return str(date_filter(value, fmt))


@register.filter(expects_localtime=True, is_safe=False)
def weekday_date(value: date | datetime | None, arg: str = "") -> str:
    """Return a day with its weekday: "Sat 5 Dec 2026" in English, "2026年12月5日（六）" in
    zh-Hant (`|weekday_date:"year"`: the same, both formats say the year)."""
    if value in (None, ""):
        return ""
    return weekday_words(value, weekday_format(with_time=False, with_year=arg == "year"))


@register.filter(expects_localtime=True, is_safe=False)
def weekday_datetime(value: datetime | None, arg: str = "") -> str:
    """Return a day with its weekday and time: "Sat 5 Dec 2026 14:00" / "2026年12月5日（六）14:00"."""
    if value in (None, ""):
        return ""
    return weekday_words(value, weekday_format(with_time=True, with_year=arg == "year"))


@register.filter(is_safe=False)
def house_date(value: date | str | None) -> str:
    """Return a day, or an ISO day as an export carries it, in the language's DATE_FORMAT."""
    if value in (None, ""):
        return ""
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value[:10])
        except ValueError:
            return value
    return formats.date_format(value, "DATE_FORMAT")
