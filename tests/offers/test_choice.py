"""The dashboard's chance of being the best choice: offer chances, the section, its owner."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse

from interviews.models import Debrief, Process, Round, Stage
from offers.board import board_build
from offers.choice import board_choice, offer_chances
from offers.logic.likelihood import offer_chance
from offers.models import Offer
from tests.factories import CompanyFactory, EquityGrantFactory, OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db


def in_process(owner, name: str, stage: str, signals: list[str], **kw) -> Offer:
    """Return a draft option linked to a process at ``stage`` with rounds of ``signals``."""
    company = CompanyFactory(owner=owner, name=f"{name} Inc", ticker=name[:4].upper())
    process = Process.objects.create(owner=owner, company=company, role="MLE", stage=stage)
    for i, signal in enumerate(signals, start=1):
        Round.objects.create(owner=owner, process=process, order=i, signal=signal)
    return OfferFactory(
        owner=owner,
        name=name,
        status=Offer.Status.DRAFT,
        process=process,
        package__company=company,
        **kw,
    )


def test_every_interview_stage_has_a_chance() -> None:
    """The table in offers.logic.likelihood knows every stage of the interviews app."""
    for stage in Stage.values:
        assert 0.0 <= offer_chance(offer_status="draft", stage=stage).probability <= 1.0


def test_offer_chances_read_the_stage_signals_debrief_and_override(alice):
    onsite = in_process(alice, "Tiktok", Stage.ONSITE, ["hire", "strong_hire", "no_hire"])
    decided = in_process(alice, "Decided", Stage.DEBRIEF, ["no_hire"])
    Debrief.objects.create(owner=alice, process=decided.process, decision="hire")
    mine = in_process(alice, "Mine", Stage.APPLIED, [], offer_probability_override=40)
    received = OfferFactory(owner=alice, name="Meta")
    got = offer_chances([onsite, decided, mine, received])
    # Onsite, 2 of 3 known signals Hire or better (two thirds: "mostly"): 0.6.
    assert got[onsite.pk].probability == 0.60
    assert got[onsite.pk].reason == "onsite stage, 2 of 3 signals so far Hire or better"
    assert got[decided.pk].probability == 0.85  # the debrief's decision wins over the signals
    assert (got[mine.pk].probability, got[mine.pk].overridden) == (0.40, True)
    assert got[received.pk].probability == 1.0


def test_option_in_process_at_zero_is_never_best_on_the_board(alice):
    PreferencesFactory(owner=alice)
    rich = in_process(alice, "Rich", Stage.ONSITE, ["hire"], offer_probability_override=0)
    EquityGrantFactory(package=rich.package, value=Decimal("4000000"))
    OfferFactory(owner=alice, name="Modest")
    choice = board_choice(board_build(user=alice), futures=400)
    assert choice is not None
    chances = {o.name: o.chance.value for o in choice.options}
    assert chances == {"Modest": 1.0, "Rich": 0.0}
    # At 50 %, the far richer option wins in about half the futures: those it is offered in.
    Offer.objects.filter(pk=rich.pk).update(offer_probability_override=50)
    again = board_choice(board_build(user=alice), futures=2000)
    rich_chance = next(o.chance for o in again.options if o.name == "Rich")
    assert abs(rich_chance.value - 0.5) <= 4 * rich_chance.se + 0.02


def test_section_shows_chances_regret_concentration_and_certainty(client_alice, alice):
    PreferencesFactory(owner=alice, risk_aversion=Decimal("2"), market_correlation=30)
    heavy = OfferFactory(owner=alice, name="Stock heavy", package__base=Decimal("150000"))
    EquityGrantFactory(package=heavy.package, value=Decimal("1600000"))
    OfferFactory(owner=alice, name="Cash rich", package__base=Decimal("420000"))
    dashboard = client_alice.get(reverse("offers:dashboard")).content.decode()
    assert f'hx-get="{reverse("offers:dashboard_chance")}"' in dashboard
    response = client_alice.get(reverse("offers:dashboard_chance"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Chance of being the best choice" in html and 'data-chart="fig-chance"' in html
    assert "at a correlation of 30 %" in html
    assert "Regret:" in html and "would have been the better choice in" in html
    # More than half of the stock-heavy option's value is in its one stock: warned.
    assert "Stock heavy: " in html and "of its value before tax is in one stock (ACME)" in html
    assert "Cash rich: " not in html
    assert "Certainty equivalent" in html
    assert "ranked after the options that meet your hard constraints" not in html


def test_section_is_the_users_own(client, alice, bob):
    OfferFactory(owner=alice, name="Alice's secret offer")
    OfferFactory(owner=bob, name="Bob's offer")
    client.force_login(bob)
    html = client.get(reverse("offers:dashboard_chance")).content.decode()
    assert "Bob&#x27;s offer" in html and "Alice" not in html


def test_section_without_options(client_alice):
    html = client_alice.get(reverse("offers:dashboard_chance")).content.decode()
    assert "Add an option to see how often each would be the right choice." in html


def test_override_is_saved_by_the_offer_form_and_refused_out_of_range(client_alice, alice):
    offer = in_process(alice, "Draft", Stage.ONSITE, ["hire"])
    page = client_alice.get(reverse("offers:offer_edit", args=[offer.pk]))
    assert 'name="offer_probability_override"' in page.content.decode()
    form = page.context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, list)}
    for name in form.fields:
        value = form[name].value()
        if value is not None and name not in data:
            data[name] = value
    data["offer_probability_override"] = "130"
    bad = client_alice.post(reverse("offers:offer_edit", args=[offer.pk]), data)
    assert bad.status_code == 400 and "offer_probability_override" in bad.context["form"].errors
    data["offer_probability_override"] = "35"
    client_alice.post(reverse("offers:offer_edit", args=[offer.pk]), data)
    offer.refresh_from_db()
    assert offer.offer_probability_override == 35


def test_preferences_save_the_assumptions_and_keep_them_when_a_post_lacks_them(client_alice, alice):
    from offers.logic.criteria import CRITERIA
    from offers.models import Preferences

    url = reverse("offers:preferences")
    data = {
        "home_timezone": "Asia/Taipei",
        "day_start": "08:00",
        "day_end": "23:00",
        "horizon_years": "4",
        "home_currency": "USD",
        "basis": "gross",
        "reminder_days": "3",
        "risk_percentile": "50",
        "required_remote_weeks": "0",
        "market_correlation": "20",
        "uncertainty_of_weights": "15",
        "risk_aversion": "1.5",
        **{c.weight_field: "1" for c in CRITERIA},
    }
    assert client_alice.post(url, data).status_code == 302
    prefs = Preferences.objects.get(owner=alice)
    assert (prefs.market_correlation, prefs.uncertainty_of_weights) == (20, 15)
    assert prefs.risk_aversion == Decimal("1.5")
    # A page opened before these fields existed posts without them: what is saved stays.
    old_page = {k: v for k, v in data.items() if k not in ("market_correlation", "risk_aversion")}
    old_page["version"] = str(prefs.version)
    assert client_alice.post(url, old_page).status_code == 302
    prefs.refresh_from_db()
    assert (prefs.market_correlation, prefs.risk_aversion) == (20, Decimal("1.5"))
    bad = client_alice.post(url, dict(data, risk_aversion="11", version=str(prefs.version)))
    assert bad.status_code == 400 and "risk_aversion" in bad.context["form"].errors


def test_an_excluded_option_says_why_it_is_never_first(client_alice, alice):
    PreferencesFactory(owner=alice, required_remote_weeks=8)
    OfferFactory(owner=alice, name="Onsite rich", package__base=Decimal("900000"))
    OfferFactory(owner=alice, name="Remote", remote_weeks_per_year=10)
    html = client_alice.get(reverse("offers:dashboard_chance")).content.decode()
    assert (
        "ranked after the options that meet your hard constraints: allows 4 remote weeks a "
        "year; you need 8" in html
    )


def test_demo_story_tiktok_in_process_against_the_transfer(client, django_user_model, monkeypatch):
    """The demo: TikTok still in process (onsite, one Hire so far: 60 %), the transfer and
    Meta on the table; Meta needs remote weeks it does not allow, so it is never first.

    TikTok's terms are drawn within 10 % of those expected, its first year with its value: at
    its expected first year (about USD 201,124) it is just above the USD 200,000 floor, so a
    future drawing it below f = 200,000 / 201,124 = 0.9944 excludes it: it is offered and
    kept in 60 % x (1.1 - 0.9944) / 0.2 = 31.7 % of the futures, and first in all of those.
    """
    call_command("seed_demo", force=True, stdout=io.StringIO())
    demo = django_user_model.objects.get(username="demo")
    board = board_build(user=demo)
    # The jobs apart: none ends in these futures (job loss: tests/offers/test_job_loss.py).
    monkeypatch.setattr("offers.choice.job_loss", lambda offer: 0.0)
    choice = board_choice(board)
    assert choice is not None
    by_name = {o.name: o for o in choice.options}
    tiktok = by_name["TikTok Singapore (expected)"]
    transfer = by_name["Internal transfer: Northwind Taipei"]
    assert tiktok.offer.probability == 0.60 and tiktok.offer.in_process
    first_year = next(ev.first_year for ev in board.evaluations if ev.key == tiktok.key)
    kept = (1.1 - max(float(board.prefs.min_first_year_total) / first_year, 0.9)) / 0.2
    assert 0.25 < 0.60 * kept < 0.40
    assert abs(tiktok.chance.value - 0.60 * kept) <= 4 * tiktok.chance.se + 0.01
    assert tiktok.chance.value + transfer.chance.value == pytest.approx(1.0)
    assert by_name["Meta E5 (Menlo Park)"].chance.value == 0.0
    assert transfer.concentrated and transfer.stock_name == "NWND"
    assert choice.regret is not None and choice.regret.top_key == transfer.key
    client.force_login(demo)
    html = client.get(reverse("offers:dashboard_chance")).content.decode()
    assert "onsite stage, 1 of 1 signals so far Hire or better" in html
    assert "Certainty equivalent" in html


def test_the_reason_names_the_signal_by_its_translated_label(alice):
    from django.utils import translation

    onsite = in_process(alice, "Tiktok", Stage.ONSITE, ["hire", "strong_hire", "no_hire"])
    with translation.override("zh-hant"):
        reason = offer_chances([onsite])[onsite.pk].reason
    # The interviews app's label of `hire` (建議錄用), not the code's English word.
    assert "「建議錄用」以上" in reason and "Hire" not in reason, reason


def test_expected_terms_draw_an_option_in_process_within_its_spread():
    import numpy as np

    from offers.choice import EXPECTED_TERMS_SPREAD, expected_terms

    values = np.full((1000, 2), 100.0)
    drawn = values * expected_terms(values, np.array([True, False]), np.random.default_rng(3))
    # The offer in hand keeps its value; the one in process lies within ± 10 % of 100.
    assert np.array_equal(drawn[:, 1], values[:, 1])
    assert drawn[:, 0].min() >= 100 * (1 - EXPECTED_TERMS_SPREAD)
    assert drawn[:, 0].max() <= 100 * (1 + EXPECTED_TERMS_SPREAD)
    assert drawn[:, 0].std() > 100 * EXPECTED_TERMS_SPREAD / 3  # spread out, not a constant
    # Twins mirror each other: their average is the expected value, so the mean is unbiased.
    assert np.allclose(drawn[:500, 0] + drawn[500:, 0], 200.0)
    assert drawn[:, 0].mean() == pytest.approx(100.0)
    # Nothing in process: every factor is 1.
    factor = expected_terms(values, np.array([False, False]), np.random.default_rng(3))
    assert np.array_equal(factor, np.ones(values.shape))


def test_an_option_in_process_comes_in_with_terms_drawn_on_the_board(alice, monkeypatch):
    """Two options worth the same, one of them in process (60 % from an onsite with a Hire):
    with its terms fixed it wins every tie it is offered in (the tie-break), 60 %; with its
    terms drawn either side of those expected it is above the other in half of those futures:
    0.6 x 0.5 = 30 %."""
    PreferencesFactory(owner=alice)
    draft = in_process(alice, "Rich", Stage.ONSITE, ["hire"])
    OfferFactory(owner=alice, name="Modest")
    board = board_build(user=alice)
    values = {ev.offer.name: ev.value for ev in board.evaluations}
    assert values["Rich"] == pytest.approx(values["Modest"])  # the same terms
    monkeypatch.setattr("offers.choice.job_loss", lambda offer: 0.0)  # no job ends here
    drawn = {o.key: o for o in board_choice(board, futures=2000).options}[str(draft.pk)]
    monkeypatch.setattr("offers.choice.EXPECTED_TERMS_SPREAD", 0.0)
    fixed = {o.key: o for o in board_choice(board, futures=2000).options}[str(draft.pk)]
    assert fixed.chance.value == pytest.approx(0.6, abs=3 * fixed.chance.se + 0.02)
    assert drawn.chance.value == pytest.approx(0.3, abs=3 * drawn.chance.se + 0.02)
    # The mean is the expected terms' either way (twins mirror their draws).
    assert drawn.value.value == pytest.approx(fixed.value.value, rel=1e-9)
