"""Traditional Chinese (Taiwan): Django's formats, with amounts grouped by thousands (1,234,567)."""

from django.conf.locale.zh_Hant.formats import *  # noqa: F403

# Taiwan writes amounts with a comma every three digits (薪資 NT$1,234,567), not Django's
# default for zh-Hant (no separator, groups of four).
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
