"""The ranking criteria: one registry entry per criterion, read by every other layer.

Each entry says what the criterion is called, its default weight and how an option is
scored on it (0..1, with an explanation). The ranking loops over ``CRITERIA``; the Django
side generates Preferences' ``weight_<key>`` fields (and Offer's ``rating_<key>`` fields for
1-5 ratings) from it, and forms, charts, templates and exports read it. Labels are stored
as message ids and translated when read, so they follow the active language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

import numpy as np

from offers.logic.i18n import gettext as _
from offers.logic.i18n import gettext_noop

LEVEL_PENALTY_PER_STEP = 0.25

Figures = dict[str, float | str | None]


@dataclass(frozen=True)
class OptionFacts:
    """Facts about one option, already reduced to home-currency figures by the caller.

    A 1-5 rating criterion reads the field named like its key (``None``: not rated).
    """

    key: str
    name: str
    kind: str
    comp_value: float
    first_year_total: float
    remote_weeks_allowed: float
    remote_policy: str
    overlap_hours: float
    office_hours: float = 8.0
    level_order: int | None = None
    target_level_order: int | None = None
    relocation_required: bool = False
    # An offer in hand (staying is); a draft's terms are expected, not offered.
    in_hand: bool = True
    scope: int | None = None
    growth: int | None = None
    team: int | None = None
    learning: int | None = None


@dataclass(frozen=True)
class RankingPrefs:
    """The user's raw criterion weights and hard constraints."""

    weights: Mapping[str, float]
    required_remote_weeks: float = 0.0
    min_first_year_total: float | None = None
    relocation_ok: bool = True
    currency: str = "USD"
    # A hard constraint: only offers in hand rank ahead (Preferences.rank_in_hand_only).
    in_hand_only: bool = False


@dataclass(frozen=True)
class ScoreContext:
    """What scoring one option needs beyond its own facts."""

    prefs: RankingPrefs
    best_comp: float


class Scored(NamedTuple):
    """One criterion's 0..1 score for one option, why, and the figures behind it."""

    score: float
    explanation: str
    figures: Figures


Scorer = Callable[["Criterion", OptionFacts, ScoreContext], Scored]
# The score of many options in many futures at once, from their pay and the best pay of each
# future: (futures, options) arrays in, (futures, options) scores out.
BestCompScorer = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Criterion:
    """One ranking criterion. Texts are message ids; read them through the functions below.

    ``label`` names it in headings, charts and legends; ``noun`` inside explanation
    sentences; ``weight_label`` is the preferences field's label; ``rating_label`` (set only
    for 1-5 ratings the user enters on the option) is the option field's label.
    ``reads_best_comp`` says the scorer reads ``ScoreContext.best_comp`` (the best pay among
    the options): a score without it depends on the option's own facts and the preferences
    only, so a search that varies one option's pay scores the others once
    (:class:`offers.logic.ranking.RankProbe`).
    """

    key: str
    label: str
    noun: str
    weight_label: str
    default_weight: Decimal
    scorer: Scorer
    rating_label: str | None = None
    reads_best_comp: bool = False
    # For a criterion that reads the best pay, the same rule on arrays (offers.logic.choice
    # scores thousands of simulated futures with it).
    scores_of_pay: BestCompScorer | None = None

    @property
    def weight_field(self) -> str:
        """Return the name of the Preferences field holding this criterion's weight."""
        return f"weight_{self.key}"

    @property
    def is_rating(self) -> bool:
        """Return whether the criterion is a 1-5 rating entered on the option."""
        return self.rating_label is not None

    @property
    def rating_field(self) -> str:
        """Return the name of the Offer field holding this rating."""
        return f"rating_{self.key}"

    def score(self, option: OptionFacts, context: ScoreContext) -> Scored:
        """Return the option's score on this criterion."""
        return self.scorer(self, option, context)


def money(amount: float, currency: str) -> str:
    """Return an amount formatted like 'USD 120,000'."""
    return f"{currency} {amount:,.0f}"


def comp_shares(values: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Return each pay as a share of the best pay; 0 when either is not positive (arrays)."""
    values, best = np.broadcast_arrays(np.asarray(values, float), np.asarray(best, float))
    ok = (best > 0) & (values > 0)
    return np.asarray(np.divide(values, best, out=np.zeros(values.shape), where=ok))


def _score_comp(criterion: Criterion, option: OptionFacts, context: ScoreContext) -> Scored:
    """Score pay as a share of the best option's pay (``comp_shares`` for arrays)."""
    cur, best = context.prefs.currency, context.best_comp
    if best > 0 and option.comp_value > 0:
        comp = option.comp_value / best
        text = _("{amount} is {share} of the best option ({best})").format(
            amount=money(option.comp_value, cur), share=f"{comp:.0%}", best=money(best, cur)
        )
    else:
        comp = 0.0
        text = _("{amount} is not positive, or no option has positive pay").format(
            amount=money(option.comp_value, cur)
        )
    return Scored(
        comp, text, {"comp_value": option.comp_value, "best_comp_value": best, "currency": cur}
    )


def _score_remote(criterion: Criterion, option: OptionFacts, context: ScoreContext) -> Scored:
    """Score the remote weeks allowed as a share of the weeks needed."""
    required = context.prefs.required_remote_weeks
    allowed = option.remote_weeks_allowed
    if required <= 0:
        remote, text = 1.0, _("you need no remote weeks")
    else:
        remote = max(0.0, min(1.0, allowed / required))
        text = _("{allowed} remote weeks a year allowed ({policy}); you need {required}").format(
            allowed=f"{allowed:g}", required=f"{required:g}", policy=option.remote_policy
        )
    return Scored(
        remote, text, {"remote_weeks_allowed": allowed, "required_remote_weeks": required}
    )


def _score_timezone(criterion: Criterion, option: OptionFacts, context: ScoreContext) -> Scored:
    """Score the share of office hours that fall in the user's working hours."""
    timezone = max(0.0, min(1.0, option.overlap_hours / option.office_hours))
    return Scored(
        timezone,
        _("{overlap} of {office} office hours a day fall in your working hours at home").format(
            overlap=f"{option.overlap_hours:.1f}", office=f"{option.office_hours:g}"
        ),
        {"overlap_hours": option.overlap_hours, "office_hours": option.office_hours},
    )


def _score_level(criterion: Criterion, option: OptionFacts, context: ScoreContext) -> Scored:
    """Score 1 at or above the target level, less a penalty per step below it."""
    if option.level_order is None or option.target_level_order is None:
        level, text = 1.0, _("level or target level unknown; not penalised")
    elif option.level_order >= option.target_level_order:
        level, text = 1.0, _("at or above your target level")
    else:
        steps = option.target_level_order - option.level_order
        level = max(0.0, 1.0 - LEVEL_PENALTY_PER_STEP * steps)
        text = (
            _("{steps} levels below your target")
            if steps > 1
            else _("{steps} level below your target")
        ).format(steps=steps)
    return Scored(
        level,
        text,
        {"level_order": option.level_order, "target_level_order": option.target_level_order},
    )


def rating_of(criterion: Criterion, option: OptionFacts) -> int | None:
    """Return the option's 1-5 rating on a rating criterion (None when not rated)."""
    rating: int | None = getattr(option, criterion.key)
    return rating


def _score_rating(criterion: Criterion, option: OptionFacts, context: ScoreContext) -> Scored:
    """Score a 1-5 rating linearly from 0 to 1; a missing rating is neutral (0.5)."""
    rating = rating_of(criterion, option)
    name = _(criterion.noun)
    if rating is None:
        return Scored(
            0.5,
            _("no {criterion} rating; scored as neutral").format(criterion=name),
            {"rating": None},
        )
    return Scored(
        (rating - 1) / 4,
        _("rated {rating}/5 on {criterion}").format(rating=rating, criterion=name),
        {"rating": float(rating)},
    )


# The registry. Order is display order (forms, charts, tables) and the order of ties in
# the sensitivity analysis. Adding a criterion: see docs/architecture.md.
CRITERIA: tuple[Criterion, ...] = (
    Criterion(
        key="comp",
        label=gettext_noop("Compensation"),
        noun=gettext_noop("comp"),
        weight_label=gettext_noop("weight: compensation"),
        default_weight=Decimal("3"),
        scorer=_score_comp,
        reads_best_comp=True,
        scores_of_pay=comp_shares,
    ),
    Criterion(
        key="remote",
        label=gettext_noop("Remote work"),
        noun=gettext_noop("remote"),
        weight_label=gettext_noop("weight: remote work"),
        default_weight=Decimal("2"),
        scorer=_score_remote,
    ),
    Criterion(
        key="timezone",
        label=gettext_noop("Time zone"),
        noun=gettext_noop("timezone"),
        weight_label=gettext_noop("weight: time zone"),
        default_weight=Decimal("2"),
        scorer=_score_timezone,
    ),
    Criterion(
        key="level",
        label=gettext_noop("Level"),
        noun=gettext_noop("level"),
        weight_label=gettext_noop("weight: level"),
        default_weight=Decimal("1"),
        scorer=_score_level,
    ),
    Criterion(
        key="scope",
        label=gettext_noop("Scope"),
        noun=gettext_noop("scope"),
        weight_label=gettext_noop("weight: scope"),
        default_weight=Decimal("1"),
        scorer=_score_rating,
        rating_label=gettext_noop("scope (1-5)"),
    ),
    Criterion(
        key="growth",
        label=gettext_noop("Growth"),
        noun=gettext_noop("growth"),
        weight_label=gettext_noop("weight: growth"),
        default_weight=Decimal("1"),
        scorer=_score_rating,
        rating_label=gettext_noop("growth (1-5)"),
    ),
    Criterion(
        key="team",
        label=gettext_noop("Team"),
        noun=gettext_noop("team"),
        weight_label=gettext_noop("weight: team"),
        default_weight=Decimal("1"),
        scorer=_score_rating,
        rating_label=gettext_noop("team (1-5)"),
    ),
    Criterion(
        key="learning",
        label=gettext_noop("Learning"),
        noun=gettext_noop("learning"),
        weight_label=gettext_noop("weight: learning"),
        default_weight=Decimal("1"),
        scorer=_score_rating,
        rating_label=gettext_noop("learning (1-5)"),
    ),
)

BY_KEY: dict[str, Criterion] = {c.key: c for c in CRITERIA}
KEYS: tuple[str, ...] = tuple(BY_KEY)
RATINGS: tuple[Criterion, ...] = tuple(c for c in CRITERIA if c.is_rating)


def label(key: str) -> str:
    """Return a criterion's translated heading label (the key itself when unknown)."""
    criterion = BY_KEY.get(key)
    return _(criterion.label) if criterion else key


def noun(key: str) -> str:
    """Return a criterion's translated name for use in a sentence (the key when unknown)."""
    criterion = BY_KEY.get(key)
    return _(criterion.noun) if criterion else key
