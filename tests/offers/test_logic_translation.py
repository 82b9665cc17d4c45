"""Texts from the pure decision logic follow the active language once Django installs gettext."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.utils import translation

from offers.logic.negotiation import negotiation_points
from offers.logic.ranking import OptionFacts, RankingPrefs, rank_options
from offers.logic.rules.base import (
    CurrentJobFacts,
    NegotiationContext,
    NegotiationPrefs,
    OfferFacts,
)

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")

OPTIONS = (
    OptionFacts(
        key="office",
        name="Office Co",
        kind="external",
        comp_value=500_000,
        first_year_total=130_000,
        remote_weeks_allowed=4,
        remote_policy="onsite",
        overlap_hours=8,
    ),
    OptionFacts(
        key="remote",
        name="Remote Co",
        kind="external",
        comp_value=450_000,
        first_year_total=110_000,
        remote_weeks_allowed=20,
        remote_policy="remote",
        overlap_hours=6,
    ),
)
PREFS = RankingPrefs(weights={"comp": 3, "remote": 1}, required_remote_weeks=8)

OFFER = OfferFacts(
    key="office",
    name="Office Co E5",
    company="Office Co",
    currency="USD",
    yearly_totals=(400_000.0,) * 4,
    yearly_home=(400_000.0,) * 4,
    base=200_000,
    stock_per_year=150_000,
    remote_weeks_allowed=4,
    overlap_hours=8,
)
CONTEXT = NegotiationContext(
    offer=OFFER,
    current=CurrentJobFacts(yearly_totals_if_stay=(300_000.0,) * 4),
    prefs=NegotiationPrefs(required_remote_weeks=8),
    today=date(2026, 1, 10),
)


def exclusion_reason() -> str:
    ranked = {r.key: r for r in rank_options(OPTIONS, PREFS)}
    assert ranked["office"].excluded and not ranked["remote"].excluded
    (reason,) = ranked["office"].exclusion_reasons
    return reason


def remote_gap_title() -> str:
    points = {p.rule: p for p in negotiation_points(CONTEXT)}
    return points["remote_gap"].title


@pytest.mark.django_db
def test_logic_texts_are_chinese_under_zh_hant():
    with translation.override("zh-hant"):
        reason = exclusion_reason()
        title = remote_gap_title()
    assert CJK.search(reason), reason
    assert "4" in reason and "8" in reason
    assert CJK.search(title), title


@pytest.mark.django_db
def test_logic_texts_stay_english_under_en():
    with translation.override("en"):
        reason = exclusion_reason()
        title = remote_gap_title()
    assert reason == "allows 4 remote weeks a year; you need 8"
    assert title == "Remote work short of what you need"
    assert not CJK.search(reason + title)
