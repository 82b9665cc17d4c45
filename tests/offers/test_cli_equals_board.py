"""The command line and the board agree after tax on the same spec (issue 25): the board's
current job counts the first tax year's months before the decision date (`Segment.current`);
the CLI does the same for a package marked ``"current_job": true``."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from decimal import Decimal

import pytest

from compensation.engine import cli
from compensation.engine.io import package_from_dict
from offers.board import board_build
from offers.models import Offer, Preferences
from tests.factories import EquityGrantFactory, FxRateFactory, OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db

# A 1 July decision date: the first tax year (2026) holds six months before the window, the
# months the board counts at the current job's pay and the CLI used to leave out.
DECISION = dt.date(2026, 7, 1)


def stay_board(user):
    # USD-priced shares (the company's), 1 USD = 1.35 SGD.
    FxRateFactory(owner=user, currency="USD", to_currency="SGD", rate=Decimal("1.35"))
    PreferencesFactory(
        owner=user,
        decision_date=DECISION,
        horizon_years=4,
        home_currency="SGD",
        basis=Preferences.Basis.NET,
    )
    offer = OfferFactory(
        owner=user,
        kind=Offer.Kind.STAY,
        package__owner=user,
        package__is_current_job=True,
        package__currency="SGD",
        package__base=Decimal("180000"),
        package__start_date=DECISION,
        package__tax_regime="sg-cpf",
    )
    EquityGrantFactory(
        package=offer.package,
        value=Decimal("200000"),
        grant_price=Decimal("100"),
        vest_start=DECISION,
    )
    board = board_build(user=user, today=DECISION, mc_paths=0)
    (ev,) = board.evaluations
    assert not ev.error
    return ev


def as_json(spec) -> dict:
    """Return the board's spec as the CLI reads it (each field the spec uses)."""
    (grant,) = spec.grants
    stock = spec.stock
    return {
        "name": spec.name,
        "start": spec.start.isoformat(),
        "horizon_years": spec.horizon_years,
        "currency": spec.currency,
        "base": spec.base,
        "raise_pct": spec.raise_pct,
        "bonus_target_pct": spec.bonus_target_pct,
        "bonus_multiplier": spec.bonus_multiplier,
        "grants": [
            {
                "value": grant.value,
                "grant_price": grant.grant_price,
                "weights": list(grant.schedule.year_weights),
                "total_months": grant.schedule.total_months,
                "cliff_months": grant.schedule.cliff_months,
                "frequency_months": grant.schedule.frequency_months,
                "vest_start": grant.vest_start.isoformat(),
            }
        ],
        "stock": {
            "price": stock.price,
            "growth_pct": stock.growth_pct,
            "volatility_pct": stock.volatility_pct,
            "ticker": stock.ticker,
            "currency": stock.currency,
            "fx_to_package": stock.fx_to_package,
        },
        "fx_to_home": spec.fx_to_home,
        "tax_regime": spec.tax_regime,
        "fx_to_tax": spec.fx_to_tax,
        "current_job": True,
        "as_of": spec.as_of.isoformat(),
    }


def test_the_cli_prints_the_board_s_figures_after_tax_for_the_current_job(alice, tmp_path, capsys):
    ev = stay_board(alice)
    (segment,) = ev.segments
    assert segment.current
    data = as_json(segment.spec)
    # The same spec: what the CLI reads is the board's, marked as the job held.
    assert package_from_dict(data) == dataclasses.replace(segment.spec, current_job=True)
    path = tmp_path / "stay.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert cli.main(["project", str(path)]) == 0
    years = json.loads(capsys.readouterr().out)["years"]
    assert [round(y["total_home"]) for y in years] == [round(v) for v in ev.component("total")]
    assert [round(y["total_net_home"]) for y in years] == [round(v) for v in ev.component("net")]
    assert round(sum(y["total_net_home"] for y in years)) == round(ev.value)
    # Without the mark the CLI taxes 2026 as if the window's six months were all its income.
    path.write_text(json.dumps({**data, "current_job": False}), encoding="utf-8")
    assert cli.main(["project", str(path)]) == 0
    new_job = json.loads(capsys.readouterr().out)["years"]
    assert new_job[0]["total_net_home"] > years[0]["total_net_home"] + 1.0


def test_the_cli_refuses_a_current_job_mark_that_is_not_true_or_false(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({"start": "2026-07-01", "base": 100000, "current_job": "yes"}),
        encoding="utf-8",
    )
    assert cli.main(["project", str(path)]) == 2
    assert "current_job" in capsys.readouterr().err
