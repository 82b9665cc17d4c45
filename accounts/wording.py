"""Wording shared by every page: ordinals, a fit, a position in a band, a gap in points, a
length of time, a quotation and an aside in the language's own marks.

One helper per idea, so "171th" or "0 points" cannot come back from a template of its own.
Ordinals go through Django's humanize (English 1st/2nd/3rd/11th, zh-Hant 第1).
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

from django.contrib.humanize.templatetags.humanize import ordinal as humanize_ordinal
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

if TYPE_CHECKING:
    from django.db import models


def ordinal(n: int) -> str:
    """Return n as an ordinal in the active language: 1st, 2nd, 3rd, 11th, 21st (第21)."""
    return str(humanize_ordinal(int(n)))


def fit_percent(score: float) -> int:
    """Return a 0..1 score as the whole percentage of fit every page and export shows.

    Rounded once, half up (0.845 -> 85), after dropping float noise below a millionth of a
    point (100 * 0.845 is 84.49999999999999): an option reads the same fit on the dashboard,
    its page, the report and the spreadsheet.
    """
    return math.floor(round(100.0 * float(score), 6) + 0.5)


def fit_words(score: float | None) -> str:
    """Return a 0..1 score as its fit in words, e.g. 'fit 85%' ('—' without a score)."""
    if score is None:
        return "—"
    return _("fit %(pct)s%%") % {"pct": fit_percent(score)}


def band_position(percentile: float | None) -> str:
    """Return where a value sits in its band: "51st percentile", or outside it in words.

    0 is the band's minimum, 100 its maximum; beyond them there is no percentile to speak of.
    """
    if percentile is None or math.isnan(percentile):
        return "—"
    rounded = round(percentile)
    if percentile > 100:
        return _("above the top of the band")
    if percentile < 0:
        return _("below the bottom of the band")
    return _("%(ordinal)s percentile") % {"ordinal": ordinal(rounded)}


def points_from_target(delta: float) -> str:
    """Return a gap to a target in percentage points: "on target", "2.5 points above target"."""
    if abs(delta) < 0.05:
        return _("on target")
    size = abs(round(delta, 1))
    shown = f"{size:g}"
    count = 1 if size == 1 else 2  # the plural form follows the number shown
    if delta > 0:
        return ngettext(
            "%(n)s percentage point above target", "%(n)s percentage points above target", count
        ) % {"n": shown}
    return ngettext(
        "%(n)s percentage point below target", "%(n)s percentage points below target", count
    ) % {"n": shown}


def quoted(text: object) -> str:
    """Return text in the active language's quotation marks: “text”, 「text」 in zh-Hant."""
    # Translators: quotation marks around someone's words (Taiwan: 「」).
    return _("“%(text)s”") % {"text": text}


def aside(text: object) -> str:
    """Return text as an aside after the words it qualifies: " (text)", or "（text）" in zh-Hant
    (full-width brackets, no space before them)."""
    # Translators: an aside in round brackets after the words it qualifies (Taiwan: （）, no
    # space before).
    return _(" (%(text)s)") % {"text": text}


def duration(seconds: int) -> str:
    """Return a length of time in its largest whole unit: "1 hour", "90 minutes", "2 days".

    A number of seconds that is no whole number of minutes is said in seconds; settings such as
    PASSWORD_RESET_TIMEOUT are said as set, never rounded to "an hour".
    """
    seconds = int(seconds)
    if seconds and seconds % 86400 == 0:
        n = seconds // 86400
        return ngettext("%(count)d day", "%(count)d days", n) % {"count": n}
    if seconds and seconds % 3600 == 0:
        n = seconds // 3600
        return ngettext("%(count)d hour", "%(count)d hours", n) % {"count": n}
    if seconds and seconds % 60 == 0:
        n = seconds // 60
        return ngettext("%(count)d minute", "%(count)d minutes", n) % {"count": n}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


@functools.cache
def _labels(model: type[models.Model], field: str, language: str | None) -> dict[Any, str]:
    """Return the labels of a field's choices in one language."""
    with translation.override(language):
        return {code: str(label) for code, label in model._meta.get_field(field).flatchoices}


def choice_label(model: type[models.Model], field: str, code: Any) -> Any:
    """Return the label the model's choices give ``code`` (empty stays empty; unknown stays).

    What ``get_FOO_display()`` shows, translated once per language rather than per call (a
    thousand-option export asks for tens of thousands).
    """
    if code is None or code == "":
        return code
    label = _labels(model, field, translation.get_language()).get(code)
    return label if label is not None else str(code)
