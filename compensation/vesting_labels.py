"""Names a person reads for the engine's vesting presets: "Google: 33/33/22/12, monthly"."""

from __future__ import annotations

from django.utils.translation import gettext as _

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
    text = f"{weights}, {cadence}"
    cliff = schedule.cliff_months
    if cliff and cliff % 12 == 0:
        text += ", " + _("%(years)s-year cliff") % {"years": cliff // 12}
    elif cliff:
        text += ", " + _("%(months)s-month cliff") % {"months": cliff}
    return text


def preset_label(name: str) -> str:
    """Return a preset's readable name: "Google: 33/33/22/12, monthly", "Even: 25/25/25/25, ..."."""
    schedule = VESTING_PRESETS[name]
    parts = name.split("_")
    who = COMPANIES.get(parts[0])
    if who is None:
        who = _("Even split")
    elif len(parts) > 1 and parts[1].isdigit() and len(parts[1]) == 4:
        who = f"{who} ({parts[1]})"  # nvidia_2025_...: the year the schedule started
    return f"{who}: {schedule_words(schedule)}"


def preset_choices(*, empty_label: str) -> list[tuple[str, str]]:
    """Return the presets as form choices, companies alphabetically, the even splits last."""
    names = sorted(VESTING_PRESETS, key=lambda n: (n.split("_")[0] not in COMPANIES, n))
    return [("", empty_label), *[(n, preset_label(n)) for n in names]]
