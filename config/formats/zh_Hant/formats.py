"""Traditional Chinese (Taiwan): Django's formats, with amounts grouped by thousands (1,234,567)."""

from django.conf.locale.zh_Hant.formats import *  # noqa: F403

# Taiwan writes amounts with a comma every three digits (薪資 NT$1,234,567), not Django's
# default for zh-Hant (no separator, groups of four).
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3

# A day with its weekday, read the way Taiwan writes it: 12月5日 (星期六), not "星期六 5 十二月"
# (which word-for-word English formats give). Used by the `weekday_date` filters.
WEEKDAY_DATE_FORMAT = "n月j日 (D)"
WEEKDAY_DATETIME_FORMAT = "n月j日 (D) H:i"
WEEKDAY_YEAR_DATE_FORMAT = "Y年n月j日 (D)"
WEEKDAY_YEAR_DATETIME_FORMAT = "Y年n月j日 (D) H:i"
