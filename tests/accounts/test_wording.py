"""One helper for ordinals and band wording, right in English and neutral in zh-Hant."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from accounts.wording import band_position, choice_label, duration, ordinal, points_from_target


@pytest.mark.parametrize(
    ("n", "text"),
    [(0, "0th"), (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"),
     (13, "13th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th"),
     (171, "171st")],
)  # fmt: skip
def test_english_ordinals(n, text):
    with translation.override("en"):
        assert ordinal(n) == text


@pytest.mark.parametrize("n", [1, 2, 3, 11, 21, 171])
def test_zh_hant_ordinals_are_neutral(n):
    with translation.override("zh-hant"):
        assert ordinal(n) == f"第{n}"


@pytest.mark.parametrize(
    ("pct", "text"),
    [
        (50.0, "50th percentile"),
        (0.4, "0th percentile"),
        (51.2, "51st percentile"),
        (72.6, "73rd percentile"),
        (100.0, "100th percentile"),
        (171.0, "above the top of the band"),
        (100.4, "above the top of the band"),
        (-12.0, "below the bottom of the band"),
        (None, "—"),
    ],
)
def test_band_position_never_says_a_percentile_outside_the_band(pct, text):
    with translation.override("en"):
        assert band_position(pct) == text


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (0.0, "on target"),
        (0.01, "on target"),
        (1.0, "1 percentage point above target"),
        (2.5, "2.5 percentage points above target"),
        (-3.0, "3 percentage points below target"),
        (-1.0, "1 percentage point below target"),
    ],
)
def test_points_from_target_reads_as_a_sentence(delta, text):
    with translation.override("en"):
        assert points_from_target(delta) == text


def test_filters_render_in_templates():
    template = Template("{% load wording %}{{ p|band_position }}|{{ d|points_from_target }}")
    with translation.override("en"):
        assert template.render(Context({"p": 171.0, "d": 0})) == (
            "above the top of the band|on target"
        )


def test_choice_label_is_the_display_label_in_the_active_language():
    from interviews.models import Process

    process = Process(stage="onsite")
    for language in ("en", "zh-hant", "en"):  # each language's labels, not the first one seen
        with translation.override(language):
            assert choice_label(Process, "stage", "onsite") == process.get_stage_display()
    with translation.override("zh-hant"):
        assert choice_label(Process, "stage", "onsite") != "Onsite"
    assert choice_label(Process, "stage", "no_such_stage") == "no_such_stage"
    assert choice_label(Process, "stage", "") == "" and choice_label(Process, "stage", None) is None


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(3600, "1 hour"), (7200, "2 hours"), (5400, "90 minutes"), (60, "1 minute"),
     (86400, "1 day"), (172800, "2 days"), (90000, "25 hours"), (45, "45 seconds"),
     (1, "1 second"), (90, "90 seconds")],
)  # fmt: skip
def test_a_duration_in_its_largest_whole_unit(seconds, text):
    with translation.override("en"):
        assert duration(seconds) == text


def test_a_duration_in_zh_hant():
    with translation.override("zh-hant"):
        assert duration(7200) == "2 小時"
        assert duration(5400) == "90 分鐘"
        assert duration(86400) == "1 天"
