"""The board's Monte Carlo band: simulated when a page reads it, and after an edit only for
the options the edit changed, with the figures of a simulation from scratch."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest

from compensation.engine import window
from offers.board import board_build
from offers.board_paths import DASHBOARD_MC_PATHS, DASHBOARD_MC_SEED
from tests.factories import EquityGrantFactory, OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def simulated(monkeypatch):
    """Record the options each run of the window Monte Carlo values."""
    calls: list[list[str]] = []
    real = window.window_paths

    def spy(options, **kw):
        calls.append(sorted(kw["only"]) if kw.get("only") is not None else sorted(options))
        return real(options, **kw)

    monkeypatch.setattr("offers.board_paths.window_paths", spy)
    return calls


def two_options(user):
    PreferencesFactory(owner=user)
    offers = [OfferFactory(owner=user, name=name) for name in ("A", "B")]
    for offer in offers:
        EquityGrantFactory(package=offer.package)
    return offers


def test_a_board_runs_no_monte_carlo_until_its_band_is_read(alice, client_alice, simulated):
    a, _b = two_options(alice)
    assert client_alice.get(f"/offers/{a.pk}/").status_code == 200  # the option page: no band
    assert simulated == []
    board = board_build(user=alice)
    assert simulated == []
    assert board.mc is not None and board.mc.paths == DASHBOARD_MC_PATHS
    assert len(simulated) == 1
    assert board.spread(board.evaluations[0].key) is not None
    assert len(simulated) == 1  # read once, kept with the board


def test_after_an_edit_only_the_changed_option_is_simulated_again(alice, simulated):
    a, b = two_options(alice)
    assert board_build(user=alice).mc is not None
    assert simulated == [sorted([str(a.pk), str(b.pk)])]
    b.package.base += Decimal("1000")
    b.package.save()
    board = board_build(user=alice)
    assert board.mc is not None
    assert simulated[1:] == [[str(b.pk)]]
    # The same figures as simulating every option from scratch with the board's seed.
    fresh = window.summarise_paths(
        window.window_paths(
            {e.key: e.segments for e in board.evaluations},
            window_start=board.basis.start,
            years=board.basis.years,
            paths=DASHBOARD_MC_PATHS,
            rng=np.random.default_rng(DASHBOARD_MC_SEED),
            column=board.basis.column,
        )
    )
    for key in (str(a.pk), str(b.pk)):
        assert np.array_equal(board.mc.cumulative[key], fresh.cumulative[key])
        assert np.array_equal(board.mc.yearly[key], fresh.yearly[key])
    assert board.mc.prob_beats == fresh.prob_beats
