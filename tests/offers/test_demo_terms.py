"""The demo shows the real offer terms: Meta's fixed vest dates, a sign-on in instalments
with a clawback, and a current-job bonus paid in March only to those still employed."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command

from compensation.engine import forfeited_on_leave, vest_events
from offers.board import board_build
from offers.models import Offer

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 11, 30)  # the decision date of docs/valuation.md's worked example


@pytest.fixture
def demo(django_user_model, monkeypatch):
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *a, **k: TODAY)
    call_command("seed_demo", force=True)
    return django_user_model.objects.get(username="demo")


def test_demo_meta_offer_uses_the_terms(demo):
    meta = Offer.objects.get(owner=demo, name="Meta E5 (Menlo Park)")
    grant = meta.package.grants.get()
    assert grant.vest_dates == [[2, 15], [5, 15], [8, 15], [11, 15]]
    assert meta.package.refreshers.get().vest_dates == grant.vest_dates
    sign_on = meta.package.sign_ons.get()
    assert sign_on.instalments == [[0, 0.5], [6, 0.5]] and sign_on.clawback_kind == "prorated"
    current = Offer.objects.get(owner=demo, kind=Offer.Kind.STAY).package
    assert (current.bonus_cycle, current.bonus_payout_month) == ("calendar", 3)


def test_demo_board_places_the_terms_by_date(demo):
    board = board_build(user=demo, today=TODAY, mc_paths=0)
    meta = next(ev for ev in board.evaluations if ev.offer.name == "Meta E5 (Menlo Park)")
    stay = next(ev for ev in board.evaluations if ev.offer.kind == Offer.Kind.STAY)
    start = meta.offer.start_date
    assert start == TODAY + dt.timedelta(days=75)  # 13 Feb 2027
    # Meta's grant vests 1/16 on 15 Feb (two days after the start), 15 May, 15 Aug and
    # 15 Nov 2027 inside year 1; both sign-on halves (13 Feb and 13 Aug 2027) too.
    spec = meta.spec
    assert spec is not None
    assert spec.grants[0].schedule.vest_dates == ((2, 15), (5, 15), (8, 15), (11, 15))
    events = vest_events(spec)
    first_year = events[(events["source"] == "grant_0") & (events["date"] <= dt.date(2027, 11, 30))]
    assert list(first_year["date"]) == [dt.date(2027, m, 15) for m in (2, 5, 8, 11)]
    assert meta.component("sign_on")[0] == pytest.approx(50_000)
    # Northwind's 2026 bonus is paid on 15 Mar 2027, after Meta's start: not in Meta's
    # window; staying is paid 205,000 x 15 % x 1.1 = 33,825 that March.
    assert meta.component("bonus")[0] == 0
    assert stay.component("bonus")[0] == pytest.approx(33_825)
    # Leaving forfeits that bonus too.
    lost = forfeited_on_leave(stay.spec, start, price=1.0)
    # and 43 days of 2027's, on the base after the 3 % raise of 30 Nov 2027.
    assert lost["bonus_unpaid"] == pytest.approx(33_825 + 33_825 * 1.03 * 43 / 365)


def test_the_demo_s_current_job_is_entered_as_a_person_holds_it(demo):
    # Hired four years before the decision date, today's base 205,000 and grants on their own
    # dates: the board pays that base for the whole first year (its next raise is the fifth
    # anniversary, 30 Nov 2027, the window's last day) and the unvested stock is the grants'.
    stay = Offer.objects.get(owner=demo, kind=Offer.Kind.STAY)
    assert stay.package.start_date == dt.date(2022, 11, 30)
    assert min(g.vest_start for g in stay.package.grants.all()) == dt.date(2022, 12, 1)
    board = board_build(user=demo, today=TODAY, mc_paths=0)
    held = next(ev for ev in board.evaluations if ev.offer.kind == Offer.Kind.STAY)
    assert held.spec.raises_held == 4
    assert held.component("base")[:2] == pytest.approx([205_000, 205_000 * 1.03])
