"""The chance each option is the right choice, on the user's board.

Reads the board's options (their window segments, ranking facts and the user's preferences),
the chance each option still in process becomes an offer (`offers.logic.likelihood`, from its
interview stage and signals, or the user's own figure), simulates futures
(`compensation.engine.futures`) and ranks the options in each (`offers.logic.choice`). Also the
risk view: the share of each option's value in one stock, and its certainty equivalent under
the user's risk aversion.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
from django.utils.translation import gettext as _

from compensation.engine.futures import FutureValues, stock_values, window_futures
from interviews.models import Debrief, Round
from offers.board import Board, Evaluation, option_facts, ranking_prefs
from offers.logic.choice import (
    Estimate,
    Futures,
    Regret,
    certainty_equivalent,
    choice_chances,
    estimate_mean,
    job_loss_values,
    largest_stock_share,
    weight_factors,
)
from offers.logic.criteria import money
from offers.logic.likelihood import OfferChance, offer_chance
from offers.models import Offer

CHOICE_FUTURES = 2000
CHOICE_SEED = 20261201
# Above this share of an option's value in one stock, the page warns of the concentration.
CONCENTRATION_SHARE = 0.5
# An option still in process has terms not yet offered: in each future its value lies within
# this share either side of the value of the terms expected (uniformly; twins mirrored).
EXPECTED_TERMS_SPREAD = 0.10
# A job can end in a future (`job_loss_values`): its yearly chance unless the option sets one,
# a rough figure for the kind of employer (big public tech cut 5 to 10 % of staff in 2023, a
# rare year; a private company's includes itself failing), and the severance it pays, weeks
# of base (Google's and Meta's 2023 layoffs: 16, plus 2 a year of service).
JOB_LOSS_PUBLIC = 0.03
JOB_LOSS_PRIVATE = 0.08
SEVERANCE_WEEKS = 16


@dataclasses.dataclass(frozen=True)
class OptionChance:
    """One option's chance of being the best choice, and its risk view."""

    key: str
    name: str
    chance: Estimate
    offer: OfferChance
    value: Estimate
    certainty: Estimate | None
    stock_name: str
    stock_share: float
    job_loss: float = 0.0  # its yearly chance of the job ending (`job_loss`)
    # Why the ranking puts the option after those meeting the hard constraints ('' if it meets them).
    excluded_because: str = ""

    @property
    def concentrated(self) -> bool:
        """Return whether more than the threshold share of the value is in one stock."""
        return self.stock_share > CONCENTRATION_SHARE


@dataclasses.dataclass(frozen=True)
class BoardChoice:
    """Every option's chance of ranking first over simulated futures, and the regret."""

    options: list[OptionChance]
    regret: Regret | None
    futures: int
    correlation: float
    weight_uncertainty: float
    risk_aversion: float
    currency: str

    def name(self, key: str) -> str:
        """Return an option's name by key."""
        return next(o.name for o in self.options if o.key == key)


def expected_terms(
    values: np.ndarray, in_process: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """Return the factor (futures, options) each option's terms are drawn at: 1 for an offer
    in hand; for an option still in process within ``EXPECTED_TERMS_SPREAD`` of its expected
    terms, 1 + s u, u uniform on [-1, 1], the second half of the futures the antithetic twins
    (-u) of the first. Its value and its first-year total are both drawn at the factor."""
    if not in_process.any():
        return np.ones(values.shape)
    half = rng.uniform(-1.0, 1.0, (values.shape[0] // 2, values.shape[1]))
    factor = 1.0 + EXPECTED_TERMS_SPREAD * np.concatenate([half, -half])
    return np.asarray(np.where(in_process, factor, 1.0))


def offer_chances(offers: Sequence[Offer]) -> dict[int, OfferChance]:
    """Return the chance each option becomes an offer (two queries for all of them)."""
    process_ids = [o.process_id for o in offers if o.process_id]
    signals: dict[int, list[str]] = {}
    for process_id, signal in (
        Round.objects.filter(process_id__in=process_ids)
        .order_by("order", "id")
        .values_list("process_id", "signal")
    ):
        signals.setdefault(process_id, []).append(signal)
    debriefs = dict(
        Debrief.objects.filter(process_id__in=process_ids).values_list("process_id", "decision")
    )
    out = {}
    for offer in offers:
        process = offer.process if offer.process_id else None
        decision = debriefs.get(offer.process_id) if offer.process_id else None
        out[offer.pk] = offer_chance(
            offer_status=offer.status,
            stage=process.stage if process is not None else None,
            signals=signals.get(offer.process_id or 0, []),
            debrief=None if decision == Debrief.Decision.PENDING else decision,
            override_pct=offer.offer_probability_override,
        )
    return out


def _largest_stock(ev: Evaluation) -> tuple[str, float]:
    """Return the stock holding the largest share of an option's gross value, and that share."""
    basis = ev.basis
    stocks = stock_values(
        ev.segments,
        window_start=basis.start,
        years=basis.years,
        prices=basis.segment_prices(ev.segments),
    )
    gross = float(ev.yearly["total"].sum()) if ev.yearly is not None else 0.0
    name, share = largest_stock_share(stocks, gross) or ("", 0.0)
    return name or _("its own stock"), share


def job_loss(offer: Offer) -> float:
    """Return an option's yearly chance of its job ending: its own, or its employer kind's."""
    if offer.job_loss_pct is not None:
        return float(offer.job_loss_pct) / 100.0
    company = offer.package.company
    return JOB_LOSS_PRIVATE if company is not None and company.is_private else JOB_LOSS_PUBLIC


def _jobs(evs: Sequence[Evaluation]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return how each option's job can end (`job_loss_values`): its yearly chance
    (`job_loss`), what ending in each window year pays (SEVERANCE_WEEKS of the year's base, its
    after-tax share after tax) and its employer (one draw an employer)."""
    losses = np.array([job_loss(ev.offer) for ev in evs])
    severance = np.array([SEVERANCE_WEEKS / 52 * _kept(ev, "base") for ev in evs])
    employers = [ev.offer.package.company_id or -ev.offer.pk for ev in evs]
    return losses, severance, np.unique(employers, return_inverse=True)[1]


def _kept(ev: Evaluation, component: str) -> np.ndarray:
    """Return a pay component by window year as the basis keeps it (after tax: its share of
    the year's net by gross)."""
    if ev.yearly is None:
        return np.zeros(ev.basis.years)
    gross, kept = ev.yearly["total"].to_numpy(), ev.yearly[ev.basis.column].to_numpy()
    return np.asarray(
        ev.yearly[component] * np.divide(kept, gross, where=gross != 0, out=np.ones_like(gross))
    )


def _futures(
    drawn: FutureValues,
    chances: Sequence[OfferChance],
    first_year: np.ndarray,
    uncertainty: float,
    seed: int,
    jobs: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> Futures:
    """Return the futures the options are ranked in, all antithetic: the values and first-year
    totals drawn (terms expected for options in process, each job able to end: ``jobs``, from
    `_jobs`), whether each is offered (a control of exact mean: its chance of an offer) and
    the weights' factors."""
    probability = np.array([c.probability for c in chances])
    factor = expected_terms(
        drawn.values, np.array([c.in_process for c in chances]), np.random.default_rng([seed, 2])
    )
    yearly = drawn.yearly * factor[..., None]
    money = job_loss_values(yearly, *jobs, np.random.default_rng([seed, 3]), pairs=True)
    draws = np.random.default_rng([seed, 1])
    half = draws.random((money.shape[0] // 2, len(chances)))
    exists = np.concatenate([half, 1.0 - half]) < probability
    factors = weight_factors(len(money), uncertainty, draws, pairs=True) if uncertainty else None
    unsure = (probability > 0) & (probability < 1)
    return Futures(
        money=money,
        exists=exists,
        weight_factors=factors,
        pairs=True,
        controls=exists[:, unsure],
        control_means=probability[unsure],
        features=drawn.features,
        feature_sample=drawn.feature_sample,
        first_year=first_year[None, :] * factor,
    )


def board_choice(
    board: Board, *, futures: int = CHOICE_FUTURES, seed: int = CHOICE_SEED
) -> BoardChoice | None:
    """Return each option's chance of being the best choice over ``futures`` futures."""
    evs = [ev for _r, ev in board.ranked if ev.segments]
    reasons = {r.key: _("; ").join(r.exclusion_reasons) for r in board.ranking}
    if not evs:
        return None
    prefs, basis = board.prefs, board.basis
    correlation = float(prefs.market_correlation) / 100.0
    uncertainty = float(prefs.uncertainty_of_weights) / 100.0
    aversion = float(prefs.risk_aversion)
    drawn = window_futures(
        {ev.key: ev.segments for ev in evs},
        window_start=basis.start,
        years=basis.years,
        paths=futures,
        rng=np.random.default_rng(seed),
        column=basis.column,
        correlation=correlation,
        year_weights=basis.year_factors,
    )
    chances = offer_chances([ev.offer for ev in evs])
    facts = [option_facts(ev) for ev in evs]
    first_year = np.array([o.first_year_total for o in facts])
    jobs = _jobs(evs)
    paths = _futures(
        drawn, [chances[ev.offer.pk] for ev in evs], first_year, uncertainty, seed, jobs
    )
    result = choice_chances(facts, ranking_prefs(prefs), paths)
    money = paths.money
    means, ses = estimate_mean(
        money, pairs=True, controls=drawn.controls, control_means=drawn.control_means
    )
    options = []
    for i, ev in enumerate(evs):
        stock_name, stock_share = _largest_stock(ev)
        options.append(
            OptionChance(
                key=ev.key,
                name=ev.offer.name,
                chance=result.chances[ev.key],
                offer=chances[ev.offer.pk],
                value=Estimate(float(means[i]), float(ses[i])),
                certainty=certainty_equivalent(money[:, i], aversion, pairs=True)
                if aversion
                else None,
                stock_name=stock_name,
                stock_share=stock_share,
                job_loss=float(jobs[0][i]),
                excluded_because=reasons.get(ev.key, ""),
            )
        )
    options.sort(key=lambda o: -o.chance.value)
    return BoardChoice(
        options=options,
        regret=result.regret,
        futures=futures,
        correlation=correlation,
        weight_uncertainty=uncertainty,
        risk_aversion=aversion,
        currency=basis.currency,
    )


def pct(estimate: Estimate) -> str:
    """Return a chance with its standard error, e.g. '62 % ± 1.1'."""
    return _("%(value)s %% ± %(se)s") % {
        "value": f"{100 * estimate.value:.0f}",
        "se": f"{100 * estimate.se:.1f}",
    }


def share(value: float) -> str:
    """Return a share as a percentage, e.g. '60 %' (one decimal below 1 %: '0.3 %')."""
    return f"{100 * value:.1f} %" if 0 < value < 0.01 else f"{100 * value:.0f} %"


def regret_sentence(choice: BoardChoice) -> str:
    """Return the regret between the top two options in one sentence."""
    regret = choice.regret
    if regret is None:
        return ""
    top, other = choice.name(regret.top_key), choice.name(regret.other_key)
    better = regret.other_better
    if better.value == 0:
        return _(
            "Choosing %(top)s, you would not regret it: %(other)s was better in none of the "
            "futures in which both were offered."
        ) % {"top": top, "other": other}
    sentence = _(
        "Choosing %(top)s, %(other)s would have been the better choice in %(share)s of the "
        "futures in which both were offered (± %(se)s), by %(points)s points of fit at the "
        "median and %(p90)s in the worst tenth"
    ) % {
        "top": top,
        "other": other,
        "share": share(better.value),
        "se": f"{100 * better.se:.1f}",
        "points": f"{regret.points_median or 0:.1f}",
        "p90": f"{regret.points_p90 or 0:.1f}",
    }
    if regret.money_median is not None and regret.money_p90 is not None:
        sentence += _(" (worth %(median)s of pay at the median, %(p90)s in the worst tenth)") % {
            "median": money(regret.money_median, choice.currency),
            "p90": money(regret.money_p90, choice.currency),
        }
    return sentence + "."
