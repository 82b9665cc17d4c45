"""Names a person reads for the engine's vesting presets: "Google: 33/33/22/12, monthly"."""

from __future__ import annotations

import datetime as dt

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from compensation.engine import VESTING_PRESETS
from compensation.engine.vesting import VestingSchedule

# The first word of a preset key names the company whose schedule it is ("even" none).
COMPANIES = {
    "google": "Google",
    "meta": "Meta",
    "amazon": "Amazon",
    "microsoft": "Microsoft",
    "snap": "Snap",
    "nvidia": "Nvidia",
    "bytedance": "ByteDance/TikTok",
    "apple": "Apple",
}


def _cadence(months: int) -> str:
    words = {1: _("monthly"), 3: _("quarterly"), 6: _("every 6 months"), 12: _("yearly")}
    return words[months]


def schedule_words(schedule: VestingSchedule) -> str:
    """Return "33/33/22/12, monthly" (with the cliff and a cadence that changes by year)."""
    weights = "/".join(f"{w:g}" for w in schedule.year_weights)
    freqs = schedule.year_frequencies
    if freqs is None or len(set(freqs)) == 1:
        cadence = _cadence(schedule.frequency_in_year(1))
    else:
        first, last = freqs[0], freqs[-1]
        switch = freqs.index(last) + 1
        cadence = _("%(first)s, then %(last)s from year %(year)s") % {
            "first": _cadence(first),
            "last": _cadence(last),
            "year": switch,
        }
    clauses = [weights, cadence]
    cliff = schedule.cliff_months
    if cliff and cliff % 12 == 0:
        clauses.append(_("%(years)s-year cliff") % {"years": cliff // 12})
    elif cliff:
        clauses.append(_("%(months)s-month cliff") % {"months": cliff})
    return pgettext("between clauses", ", ").join(clauses)


def _month_day(month: int, day: int) -> str:
    """Return "15 Feb" (the house day-month order) / "二月 15 日"."""
    return _("%(day)s %(name)s") % {"name": _month_name(month), "day": day}


def _month_name(month: int) -> str:
    """Return the month's short name in the active language ("Feb", "二月")."""
    return formats.date_format(dt.date(2000, month, 1), "M")


def schedule_description(schedule: VestingSchedule) -> str:
    """Return the schedule in one line, in the active language.

    English reads as the engine's `describe_schedule` ("4 years: 25/25/25/25% per year, vesting
    quarterly on 15 Feb/May/Aug/Nov, no cliff"); the engine's stays English for its JSON.
    """
    weights = "/".join(f"{w:g}" for w in schedule.year_weights)
    separator = pgettext("between items of a list", ", ")
    freqs = schedule.year_frequencies
    if freqs is None or len(set(freqs)) == 1:
        cadence = _cadence(schedule.frequency_in_year(1))
    else:
        parts: list[str] = []
        start = 1
        for y in range(2, len(freqs) + 2):
            if y > len(freqs) or freqs[y - 1] != freqs[start - 1]:
                words = _cadence(freqs[start - 1])
                if y - 1 == start:
                    parts.append(
                        _("%(cadence)s in year %(year)s") % {"cadence": words, "year": start}
                    )
                else:
                    parts.append(
                        _("%(cadence)s in years %(first)s-%(last)s")
                        % {"cadence": words, "first": start, "last": y - 1}
                    )
                start = y
        cadence = separator.join(parts)
    months = schedule.total_months
    if months % 12 == 0:
        length = _("%(years)s years") % {"years": months // 12}
    else:
        length = _("%(months)s months") % {"months": months}
    cliff_months = schedule.cliff_months
    if cliff_months:
        cliff = _(", %(months)s-month cliff") % {"months": cliff_months}
    else:
        cliff = _(", no cliff")
    on = ""
    if schedule.vest_dates is not None:
        days = {day for _month, day in schedule.vest_dates}
        if len(days) == 1:
            on = _(" on %(day)s %(names)s") % {
                "names": "/".join(_month_name(m) for m, _day in schedule.vest_dates),
                "day": days.pop(),
            }
        else:
            on = _(" on %(days)s") % {
                "days": separator.join(_month_day(m, d) for m, d in schedule.vest_dates)
            }
    return _("%(length)s: %(weights)s%% per year, vesting %(cadence)s%(on)s%(cliff)s") % {
        "length": length,
        "weights": weights,
        "cadence": cadence,
        "on": on,
        "cliff": cliff,
    }


def preset_label(name: str) -> str:
    """Return a preset's readable name: "Google: 33/33/22/12, monthly", "Even: 25/25/25/25, ..."."""
    schedule = VESTING_PRESETS[name]
    parts = name.split("_")
    who = COMPANIES.get(parts[0])
    if who is None:
        who = _("Even split")
    elif len(parts) > 1 and parts[1].isdigit() and len(parts[1]) == 4:
        # nvidia_2025_...: the year the schedule started
        who = _("%(company)s (%(year)s)") % {"company": who, "year": parts[1]}
    return _("%(who)s: %(schedule)s") % {"who": who, "schedule": schedule_words(schedule)}


def preset_choices(*, empty_label: str) -> list[tuple[str, str]]:
    """Return the presets as form choices, companies alphabetically, the even splits last."""
    names = sorted(VESTING_PRESETS, key=lambda n: (n.split("_")[0] not in COMPANIES, n))
    return [("", empty_label), *[(n, preset_label(n)) for n in names]]
