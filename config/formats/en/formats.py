"""English: Django's formats, with the short weekday dates the interview pages use."""

from django.conf.locale.en.formats import *  # noqa: F403

# A day with its weekday, short (Sat 5 Dec), and with the time (Sat 5 Dec 14:00).
WEEKDAY_DATE_FORMAT = "D j M"
WEEKDAY_DATETIME_FORMAT = "D j M H:i"
WEEKDAY_YEAR_DATE_FORMAT = "D Y-m-d"
WEEKDAY_YEAR_DATETIME_FORMAT = "D Y-m-d H:i"
