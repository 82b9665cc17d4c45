"""Dates with their weekday follow the language's own order (config/formats/<lang>)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template import Context, Template
from django.utils import timezone, translation

SATURDAY = dt.date(2026, 12, 5)
TEMPLATE = Template(
    "{% load local_dates %}{{ d|weekday_date }}|{{ d|weekday_date:'year' }}|"
    "{{ t|weekday_datetime }}|{{ d|date:'DATE_FORMAT' }}"
)


def _render(lang: str) -> list[str]:
    moment = dt.datetime(2026, 12, 5, 6, 30, tzinfo=dt.UTC)  # 14:30 in Taipei
    with translation.override(lang), timezone.override("Asia/Taipei"):
        return TEMPLATE.render(Context({"d": SATURDAY, "t": moment})).split("|")


def test_zh_hant_dates_read_year_month_day_then_the_weekday():
    short, long, with_time, plain = _render("zh-hant")
    # With its year, the weekday's one character in full-width brackets (issue 35).
    assert short == "2026年12月5日（六）"
    assert long == "2026年12月5日（六）"
    assert with_time == "2026年12月5日（六）14:30"
    assert plain == "2026年12月5日"
    assert "十二月" not in "".join((short, long, with_time))  # not "星期六 5 十二月"


def test_english_dates_are_one_house_format_with_the_weekday_in_front():
    # One format for a day (5 Dec 2026), the weekday in front where one is shown: never
    # Django's "Dec. 5, 2026", "12/05/2026" or an ISO day beside them.
    assert _render("en") == [
        "Sat 5 Dec 2026",
        "Sat 5 Dec 2026",
        "Sat 5 Dec 2026 14:30",
        "5 Dec 2026",
    ]


@pytest.mark.parametrize("empty", [None, ""])
def test_no_date_renders_nothing(empty):
    with translation.override("en"):
        assert (
            Template("{% load local_dates %}[{{ d|weekday_date }}]").render(Context({"d": empty}))
            == "[]"
        )


@pytest.mark.django_db
def test_pages_in_zh_hant_write_dates_the_taiwanese_way(client_alice, alice, settings):
    from tests.interviews.factories import ProcessFactory

    process = ProcessFactory(owner=alice, deadline=SATURDAY)
    client_alice.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    board = client_alice.get("/interviews/").content.decode()
    assert "2026年12月5日（六）" in board and "星期六 5 十二月" not in board
    detail = client_alice.get(f"/interviews/{process.pk}/").content.decode()
    assert "2026年12月5日（六）" in detail
