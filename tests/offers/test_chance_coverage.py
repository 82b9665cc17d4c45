"""The chance of being the best choice: its standard error is honest (issue #34, item 7).

The board (`offers.choice.board_choice`: its own futures, controls and surrogate) shows each
option's chance with a standard error. On a small board with one option still in process
(offered in 60 % of the futures) and weights unsure by 20 %, each seed's estimate lands within
1.96 of its standard errors of the truth in about 95 % of the seeds, for every option, in
process or not, with each job able to end (a public company's 3 % a year: issue 38's new
draws). The truth is the board's own estimate over 100 times the futures.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import numpy as np
import pytest

from interviews.models import Process, Stage
from offers.board import board_build
from offers.choice import board_choice
from offers.models import Offer
from tests.factories import CompanyFactory, EquityGrantFactory, OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db

SEEDS = 300
FUTURES = 400  # per seed: few, to keep the test fast (the dashboard runs 2,000)
TRUTH_FUTURES = 100 * FUTURES  # the truth's own error: well under a seed's (checked below)


def option(owner, name: str, *, volatility: int, base: int, grant: int, **kw) -> Offer:
    """Return an option with its own stock (ticker from its name) and one equity grant; with
    ``stage``, a draft still in process at that interview stage."""
    company = CompanyFactory(
        owner=owner, name=f"{name} Inc", ticker=name[:4].upper(), volatility_pct=volatility
    )
    if stage := kw.pop("stage", None):
        kw["status"] = Offer.Status.DRAFT
        kw["process"] = Process.objects.create(
            owner=owner, company=company, role="MLE", stage=stage
        )
    offer = OfferFactory(
        owner=owner, name=name, package__company=company, package__base=Decimal(base), **kw
    )
    EquityGrantFactory(package=offer.package, value=Decimal(grant))
    return offer


def test_the_standard_error_of_each_chance_covers_the_truth_95_percent_of_the_time(alice):
    # Weights unsure by 20 %; Steady has the better team (rated 5), so the weights matter too.
    PreferencesFactory(owner=alice, uncertainty_of_weights=20)
    option(alice, "Steady", volatility=20, base=300_000, grant=300_000, rating_team=5)
    option(alice, "Rocket", volatility=50, base=200_000, grant=900_000)
    # Still in process (onsite), at the user's own 60 % chance of an offer: when it comes,
    # it nearly always ranks first (as TikTok does in the demo).
    option(
        alice,
        "Draft",
        volatility=30,
        base=360_000,
        grant=800_000,
        stage=Stage.ONSITE,
        offer_probability_override=60,
    )
    board = board_build(user=alice)

    truth = board_choice(board, futures=TRUTH_FUTURES, seed=1)
    assert truth is not None
    true = {o.name: o.chance for o in truth.options}
    # A real contest for every option, and the one in process offered in 60 % of futures.
    assert all(0.1 < chance.value < 0.7 for chance in true.values()), true
    assert next(o.offer.probability for o in truth.options if o.name == "Draft") == 0.6
    assert all(o.job_loss == 0.03 for o in truth.options)  # every job can end in a future

    covered: Counter[str] = Counter()
    shown: dict[str, list[float]] = {name: [] for name in true}
    for seed in range(SEEDS):
        choice = board_choice(board, futures=FUTURES, seed=1000 + seed)
        assert choice is not None
        for o in choice.options:
            covered[o.name] += abs(o.chance.value - true[o.name].value) <= 1.96 * o.chance.se
            shown[o.name].append(o.chance.se)
    coverage = {name: covered[name] / SEEDS for name in true}
    for name, chance in true.items():
        # The truth's own error is small against a seed's (else the test would measure it).
        assert chance.se < 0.15 * float(np.median(shown[name])), name
    # 300 seeds at 95 %: 285 covered, give or take sqrt(300 x 0.95 x 0.05) = 3.8 seeds. At
    # least 273 (91 %, 3.2 of those below) and at most 297 (99 %: not merely wide).
    assert all(0.91 <= share <= 0.99 for share in coverage.values()), coverage
