"""Traditional Chinese (Taiwan): Django's formats, with amounts grouped by thousands (1,234,567)."""

from django.conf.locale.zh_Hant.formats import *  # noqa: F403

# Taiwan writes amounts with a comma every three digits (薪資 NT$1,234,567), not Django's
# default for zh-Hant (no separator, groups of four).
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3

# One way to write a day: 2026年11月13日, never "13 十一月 2026" (an English order with Chinese
# month names) nor Django's short "2026/11/13".
DATE_FORMAT = "Y年n月j日"
SHORT_DATE_FORMAT = "Y年n月j日"
DATETIME_FORMAT = "Y年n月j日 H:i"
SHORT_DATETIME_FORMAT = "Y年n月j日 H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "n月j日"
YEAR_MONTH_FORMAT = "Y年n月"

# A day with its weekday, read the way Taiwan writes it: 2026年12月5日（六）, with its year and
# the weekday's one character in full-width brackets, not "12月5日 (星期六)" nor "星期六 5 十二月"
# (which word-for-word English formats give). Used by the `weekday_date` filters, which write
# D as WEEKDAY_SHORT_NAMES[weekday] (Monday first).
WEEKDAY_DATE_FORMAT = "Y年n月j日（D）"
WEEKDAY_DATETIME_FORMAT = "Y年n月j日（D）H:i"
WEEKDAY_YEAR_DATE_FORMAT = "Y年n月j日（D）"
WEEKDAY_YEAR_DATETIME_FORMAT = "Y年n月j日（D）H:i"
WEEKDAY_SHORT_NAMES = "一二三四五六日"
