"""English: one house style for dates (15 Dec 2026), times on the 24-hour clock (14:30)."""

from django.conf.locale.en.formats import *  # noqa: F403

# One way to write a day on every page, export and sentence: "15 Dec 2026", never Django's
# "Dec. 15, 2026" (DATE_FORMAT) beside "12/15/2026" (SHORT_DATE_FORMAT) on the same page.
# Times on the 24-hour clock: "p.m." ends in a full stop, which a sentence then doubles.
DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y H:i"
SHORT_DATETIME_FORMAT = "j M Y H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j M"
YEAR_MONTH_FORMAT = "M Y"

# A day with its weekday: the same date with the weekday in front (Sat 5 Dec 2026), and with
# the time (Sat 5 Dec 2026 14:00).
WEEKDAY_DATE_FORMAT = "D j M Y"
WEEKDAY_DATETIME_FORMAT = "D j M Y H:i"
WEEKDAY_YEAR_DATE_FORMAT = "D j M Y"
WEEKDAY_YEAR_DATETIME_FORMAT = "D j M Y H:i"
