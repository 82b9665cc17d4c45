"""A scenario's stock amounts are in the grant's price currency, and say so where typed.

The offer: paid in SGD, its grant priced in USD (a US-listed company); the user's home
currency is TWD. 1 USD = 1.35 SGD = 32 TWD. The share price is flat (no growth, no
volatility) at USD 100, the grant price too, so a grant's value is its shares x USD 100.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.urls import reverse

from compensation.package_parts import EquityGrant
from offers.export.backup import backup_build
from offers.export.restore import backup_restore
from offers.logic.plan import Ask
from offers.logic.rules.base import NegotiationPoint
from offers.models import Scenario
from offers.scenarios.evaluation import scenario_evaluation
from offers.scenarios.flip import flip_find
from offers.scenarios.points import plan_adjustments, point_adjustments
from offers.selectors import offer_get
from offers.services import scenario_accept, scenario_clone, scenario_create
from tests.factories import (
    CompanyFactory,
    EquityGrantFactory,
    FxRateFactory,
    OfferFactory,
    PreferencesFactory,
    ScenarioFactory,
)
from tests.offers.flip_helpers import flip_apply
from tests.rendered_forms import form_values

pytestmark = pytest.mark.django_db

START = dt.date(2027, 1, 4)
# Meta's 2025 new-hire schedule shape, with year-by-year frequencies: the weights are even, so
# each year vests a quarter; the frequencies and fixed dates show the schedule is copied.
SCHEDULE = {
    "weights": [25, 25, 25, 25],
    "cliff_months": 0,
    "frequency_months": 3,
    "year_frequencies": [12, 3, 3, 3],
    "vest_dates": None,
}


@pytest.fixture
def sgd_offer(alice):
    PreferencesFactory(
        owner=alice, home_currency="TWD", decision_date=START, horizon_years=4, basis="gross"
    )
    FxRateFactory(owner=None, currency="USD", to_currency="SGD", rate=Decimal("1.35"))
    FxRateFactory(owner=None, currency="USD", to_currency="TWD", rate=Decimal("32"))
    company = CompanyFactory(
        owner=alice,
        currency="USD",
        share_price=Decimal("100"),
        growth_pct=Decimal("0"),
        volatility_pct=Decimal("0"),
    )
    offer = OfferFactory(
        owner=alice,
        name="Acme Singapore",
        package__company=company,
        package__currency="SGD",
        package__base=Decimal("300000"),
        package__start_date=START,
    )
    EquityGrantFactory(
        package=offer.package,
        label="New-hire grant",
        value=Decimal("200000"),
        grant_price=Decimal("100"),
        price_currency="USD",
        vest_start=START,
        **SCHEDULE,
    )
    return offer_get(user=alice, pk=offer.pk)


def _valued(user, scenario):
    from offers.board import board_build

    board = board_build(user=user, mc_paths=0)
    scenario = Scenario.objects.select_related("offer__package").get(pk=scenario.pk)
    ev = scenario_evaluation(
        scenario, board.prefs, board.fx, today=START, basis=board.basis, current=board.current
    )
    assert not ev.error, ev.error
    return board.evaluation(str(scenario.offer_id)), ev


def test_a_new_scenario_is_in_the_grants_currency(alice, sgd_offer):
    scenario = scenario_create(user=alice, offer=sgd_offer, data={"name": "More stock"})
    assert scenario.stock_currency == "USD"
    copy = scenario_clone(user=alice, scenario=scenario)
    assert copy.stock_currency == "USD"


def test_extra_stock_in_usd_adds_its_usd_value_and_accepting_writes_a_usd_grant(alice, sgd_offer):
    scenario = scenario_create(
        user=alice,
        offer=sgd_offer,
        data={"name": "More stock", "extra_stock_yearly": Decimal("40000")},
    )
    original, shown = _valued(alice, scenario)
    # USD 40,000 a year x 32 TWD a USD = TWD 1,280,000 more in each window year (the new
    # grant vests like the first: a quarter a year, at a flat USD 100 a share). Before, the
    # 40,000 were SGD: 40,000 / 1.35 x 32 = TWD 948,148 a year.
    gains = [s - o for s, o in zip(shown.yearly["equity"], original.yearly["equity"], strict=True)]
    assert gains == pytest.approx([1_280_000.0] * 4)
    assert shown.value - original.value == pytest.approx(4 * 1_280_000.0)

    scenario_accept(user=alice, scenario=scenario, expected_version=scenario.version)
    grants = list(EquityGrant.objects.filter(package=sgd_offer.package).order_by("id"))
    assert len(grants) == 2
    added = grants[1]
    # USD 40,000 x 4 vesting years = USD 160,000, at the first grant's USD 100.
    assert (added.price_currency, added.value, added.grant_price) == (
        "USD",
        Decimal("160000.00"),
        Decimal("100.0000"),
    )
    assert added.vest_start == START
    for name, value in SCHEDULE.items():
        assert getattr(added, name) == value, name
    # The value accepting wrote is the value the scenario showed.
    from offers.board import board_build

    accepted = board_build(user=alice, mc_paths=0).evaluation(str(sgd_offer.pk))
    assert accepted.value == pytest.approx(shown.value, rel=1e-12)


def test_refreshers_a_year_are_in_the_grants_currency(alice, sgd_offer):
    scenario = ScenarioFactory(
        owner=alice, offer=sgd_offer, extra_stock_yearly=0, refresher_yearly=Decimal("30000")
    )
    assert scenario.stock_currency == "USD"
    scenario_accept(user=alice, scenario=scenario, expected_version=scenario.version)
    # USD 30,000 of USD-priced stock stays USD 30,000 (was 30,000 SGD = USD 22,222.22).
    assert sgd_offer.package.refreshers.get().yearly_value == Decimal("30000.00")


def test_an_older_scenario_in_the_pay_currency_keeps_its_meaning(alice, sgd_offer):
    scenario = ScenarioFactory(
        owner=alice, offer=sgd_offer, extra_stock_yearly=Decimal("54000"), stock_currency="SGD"
    )
    in_usd = ScenarioFactory(
        owner=alice, offer=sgd_offer, extra_stock_yearly=Decimal("40000"), stock_currency="USD"
    )
    # SGD 54,000 / 1.35 = USD 40,000: the same scenario, stated in either currency.
    assert _valued(alice, scenario)[1].value == pytest.approx(_valued(alice, in_usd)[1].value)


def test_the_form_says_usd_beside_the_stock_fields_and_keeps_what_is_typed(
    client_alice, alice, sgd_offer
):
    scenario = scenario_create(user=alice, offer=sgd_offer, data={"name": "More stock"})
    url = reverse("offers:scenario_detail", args=[scenario.pk])
    save = reverse("offers:scenario_update", args=[scenario.pk])
    page = client_alice.get(url).content.decode()

    def label(name: str) -> str:
        found = re.search(rf'<label[^>]*for="id_{name}"[^>]*>(.*?)</label>', page, re.S)
        assert found, name
        return " ".join(found.group(1).split("<")[0].split())  # the text, before any mark

    assert label("extra_stock_yearly") == "Extra stock a year (USD)"
    assert label("refresher_yearly") == "Refreshers a year (USD)"
    assert label("base") == "Base salary (SGD)"
    assert label("extra_sign_on") == "Extra sign-on (SGD)"
    data = form_values(page.encode(), action=save, page=url)
    data["extra_stock_yearly"] = "40,000"
    assert client_alice.post(save, data).status_code == 302
    scenario.refresh_from_db()
    assert (scenario.extra_stock_yearly, scenario.stock_currency) == (Decimal("40000"), "USD")
    listed = client_alice.get(reverse("offers:scenario_list")).content.decode()
    assert "USD 40,000" in listed


def test_play_it_out_lands_the_plans_stock_ask_unchanged(alice, sgd_offer):
    # The plan says "USD 40,000 a year in stock"; its point carries the same in the offer's
    # currency (40,000 x 1.35 = SGD 54,000), which the scenario used to take as it was.
    point = NegotiationPoint(
        rule="top_of_band",
        title="Base capped: move the ask to stock",
        trigger="base at the band's top",
        ask_amount=54_000.0,
        ask_currency="SGD",
        ask_term="USD 40,000 a year",
        priority=2,
        evidence="",
        figures={},
        component="stock",
    )
    ask = Ask(
        component="stock",
        rule="top_of_band",
        title=point.title,
        amount=40_000.0,
        per_year=True,
        counted=216_000.0,
        currency="USD",
        term="USD 40,000 a year",
        script="",
        evidence=(),
        leverage=(),
        point=point,
        offer_amount=54_000.0,
    )
    data = plan_adjustments(SimpleNamespace(asks=(ask,)), sgd_offer)
    assert (data["extra_stock_yearly"], data["stock_currency"]) == (Decimal("40000"), "USD")
    scenario = scenario_create(user=alice, offer=sgd_offer, data=data)
    assert (scenario.extra_stock_yearly, scenario.stock_currency) == (Decimal("40000"), "USD")
    # One rule's point played out alone: its SGD 54,000 is USD 40,000 of the grant's stock.
    played = point_adjustments(point, sgd_offer)
    assert (played["extra_stock_yearly"], played["stock_currency"]) == (Decimal("40000"), "USD")


def test_the_flip_finders_stock_ask_is_in_the_stock_currency(alice, sgd_offer):
    scenario = ScenarioFactory(owner=alice, offer=sgd_offer, extra_stock_yearly=Decimal("10000"))
    # The answer is said in the currency of the field it lands in: stock USD, base SGD.
    assert flip_find(user=alice, scenario=scenario, component="stock").currency == "USD"
    assert flip_find(user=alice, scenario=scenario, component="base").currency == "SGD"
    assert flip_apply(scenario, "stock", 5000.0) == {"extra_stock_yearly": Decimal("15000")}


def test_an_older_backup_restores_its_scenario_stock_in_the_pay_currency(alice, bob, sgd_offer):
    ScenarioFactory(owner=alice, offer=sgd_offer, extra_stock_yearly=Decimal("54000"))
    doc = json.loads(json.dumps(backup_build(user=alice), default=str))
    (row,) = doc["scenarios"]
    assert row["stock_currency"] == "USD"
    del row["stock_currency"]  # written before scenarios named it: typed in the pay currency
    backup_restore(user=bob, raw=json.dumps(doc))
    restored = Scenario.objects.get(owner=bob)
    assert (restored.extra_stock_yearly, restored.stock_currency) == (Decimal("54000"), "SGD")


BEFORE = [("offers", "0014_preferences_reminders_and_reminder_sent")]
AFTER = [("offers", "0015_scenario_stock_currency")]


def test_the_migration_converts_older_scenarios_at_the_rate_the_app_used(migrate_to):
    apps = migrate_to(BEFORE)
    User = apps.get_model("auth", "User")
    Company = apps.get_model("compensation", "Company")
    Package = apps.get_model("compensation", "Package")
    Grant = apps.get_model("compensation", "EquityGrant")
    FxRate = apps.get_model("compensation", "FxRate")
    OldOffer = apps.get_model("offers", "Offer")
    OldScenario = apps.get_model("offers", "Scenario")
    user = User.objects.create(username="migrant")
    company = Company.objects.create(owner=user, name="Acme", currency="USD")
    # The shared rate and the user's own, newer one: the app read the user's (1.35).
    FxRate.objects.create(currency="USD", to_currency="SGD", rate=Decimal("1.30"), as_of=START)
    FxRate.objects.create(
        owner=user, currency="USD", to_currency="SGD", rate=Decimal("1.35"), as_of=START
    )
    made = {}
    for pay in ("SGD", "HKD"):  # no rate reaches HKD
        package = Package.objects.create(
            owner=user, name=pay, base=Decimal("1"), start_date=START, currency=pay, company=company
        )
        Grant.objects.create(
            package=package,
            value=Decimal("100000"),
            grant_price=Decimal("100"),
            price_currency="USD",
            vest_start=START,
        )
        offer = OldOffer.objects.create(owner=user, name=pay, kind="external", package=package)
        made[pay] = OldScenario.objects.create(
            owner=user,
            offer=offer,
            name="More stock",
            extra_stock_yearly=Decimal("54000"),
            refresher_yearly=Decimal("27000"),
        )
    made["none"] = OldScenario.objects.create(
        owner=user, offer=offer, name="Remote", extra_stock_yearly=Decimal("0")
    )
    apps = migrate_to(AFTER)
    NewScenario = apps.get_model("offers", "Scenario")

    def got(key):
        s = NewScenario.objects.get(pk=made[key].pk)
        return (s.extra_stock_yearly, s.refresher_yearly, s.stock_currency)

    # SGD 54,000 x (1 / 1.35) = USD 40,000; SGD 27,000 = USD 20,000: the value they had.
    assert got("SGD") == (Decimal("40000.00"), Decimal("20000.00"), "USD")
    # No rate from HKD to USD: the amounts stay, and the scenario says they are HKD.
    assert got("HKD") == (Decimal("54000.00"), Decimal("27000.00"), "HKD")
    # Nothing to convert: in the grant's currency, as a new scenario.
    assert got("none") == (Decimal("0.00"), None, "USD")


def test_the_rules_judge_a_usd_stock_ask_in_the_offers_currency(alice, sgd_offer):
    from offers.scenarios.points import scenario_outcome

    scenario = ScenarioFactory(owner=alice, offer=sgd_offer, extra_stock_yearly=Decimal("40000"))
    original, ev = _valued(alice, scenario)
    # The rules' asks are in the offer's currency: USD 40,000 x 1.35 = SGD 54,000 a year.
    outcome = scenario_outcome(scenario, ev, original)
    assert outcome.extra_stock_yearly == pytest.approx(54_000.0)
