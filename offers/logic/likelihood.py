"""The chance that an option still in process becomes an offer: one table, with its reason.

The chance of being the best choice puts an option on the table in a simulated future with
this probability. An option whose offer has arrived is certain (1); one declined or expired,
or whose process ended without an offer, is 0. For an option still in process (a draft) the
table below reads its interview stage and the signals of its rounds so far; the user can
override it per option. Stages, signals and debrief decisions are the interviews app's values
(strings here: no model reaches this module).

| Where the process stands                          | Chance |
| ------------------------------------------------- | ------ |
| offer made (offer, negotiating, accepted stage)   | 0.95   |
| debrief decided hire (or hire at a lower level)   | 0.85   |
| team match                                        | 0.70   |
| onsite or debrief, signals mostly Hire or better  | 0.60   |
| onsite or debrief, signals mixed                  | 0.35   |
| onsite or debrief, no signal known yet            | 0.30   |
| debrief asked for more interviews                 | 0.35   |
| phone screen, signals mostly Hire or better       | 0.25   |
| phone screen otherwise                            | 0.15   |
| onsite or debrief, signals mostly No Hire         | 0.10   |
| recruiter screen                                  | 0.10   |
| applied                                           | 0.05   |
| debrief decided no hire                           | 0.02   |
| rejected, withdrawn, declined or ghosted          | 0      |
| no interview process linked                       | 0.50   |

"Mostly" is two thirds of the rounds with a known signal (Strong Hire, Hire or Lean Hire
against Lean No Hire, No Hire or Strong No Hire).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from offers.logic.errors import LogicInputError
from offers.logic.i18n import gettext as _
from offers.logic.i18n import gettext_noop

POSITIVE = ("strong_hire", "hire", "lean_hire")
NEGATIVE = ("lean_no_hire", "no_hire", "strong_no_hire")
MOSTLY = 2 / 3
OFFER_IN_HAND = ("received", "negotiating", "accepted")
OFFER_GONE = ("declined", "expired")
ENDED = ("rejected", "withdrawn", "declined", "ghosted")
OFFER_MADE = ("offer", "negotiating", "accepted")
INTERVIEWED = ("onsite", "debrief")
NO_PROCESS = 0.5
# The signal the reason measures against, by the interviews app's label of `hire` (the same
# message id, so the reason names the signal as the round's page does).
HIRE_LABEL = gettext_noop("Hire")


@dataclass(frozen=True)
class OfferChance:
    """The probability that the option becomes an offer, and why."""

    probability: float
    reason: str
    overridden: bool = False
    in_process: bool = False


def _signal_words(positive: int, known: int) -> str:
    return _("{positive} of {known} signals so far {hire} or better").format(
        positive=positive, known=known, hire=_(HIRE_LABEL)
    )


def offer_chance(
    *,
    offer_status: str,
    stage: str | None,
    signals: Sequence[str] = (),
    debrief: str | None = None,
    override_pct: int | None = None,
) -> OfferChance:
    """Return the chance an option becomes an offer from its status, stage and signals.

    ``stage`` is its process's stage (None: no process linked), ``signals`` its rounds'
    signals, ``debrief`` the debrief's decision (None: none held), ``override_pct`` the
    user's own figure in percent, which wins for an option still in process.
    """
    if offer_status in OFFER_IN_HAND:
        return OfferChance(1.0, _("the offer is on the table"))
    if offer_status in OFFER_GONE:
        return OfferChance(0.0, _("the offer was declined or has expired"))
    if offer_status != "draft":
        raise LogicInputError("offer_status", f"unknown offer status {offer_status!r}")
    if override_pct is not None:
        if not 0 <= override_pct <= 100:
            raise LogicInputError("override_pct", "a chance is from 0 to 100 %")
        return OfferChance(
            override_pct / 100.0, _("your own estimate"), overridden=True, in_process=True
        )
    probability, reason = _from_stage(stage, signals, debrief)
    return OfferChance(probability, reason, in_process=True)


def _from_stage(
    stage: str | None, signals: Sequence[str], debrief: str | None
) -> tuple[float, str]:
    """Return the table's chance and reason for a process at ``stage``."""
    if stage is None:
        return NO_PROCESS, _("no interview process linked: an even chance")
    if stage in ENDED:
        return 0.0, _("the process ended without an offer")
    if stage in OFFER_MADE:
        return 0.95, _("the company has made the offer")
    if debrief in ("hire", "hire_lower"):
        return 0.85, _("the debrief decided to hire")
    if debrief == "no_hire":
        return 0.02, _("the debrief decided not to hire")
    if debrief == "more_interviews":
        return 0.35, _("the debrief asked for more interviews")
    if stage == "team_match":
        return 0.70, _("passed the interviews; in team matching")
    positive = sum(1 for s in signals if s in POSITIVE)
    known = positive + sum(1 for s in signals if s in NEGATIVE)
    share = positive / known if known else None
    if stage in INTERVIEWED:
        if share is None:
            return 0.30, _("onsite stage, no signal known yet")
        words = _signal_words(positive, known)
        if share >= MOSTLY:
            return 0.60, _("onsite stage, {signals}").format(signals=words)
        if share <= 1 - MOSTLY:
            return 0.10, _("onsite stage, {signals}").format(signals=words)
        return 0.35, _("onsite stage, {signals}").format(signals=words)
    if stage == "phone_screen":
        if share is not None and share >= MOSTLY:
            return 0.25, _("phone screen, {signals}").format(signals=_signal_words(positive, known))
        return 0.15, _("phone screen stage")
    if stage == "recruiter_screen":
        return 0.10, _("recruiter screen stage")
    if stage == "applied":
        return 0.05, _("applied, no interview yet")
    raise LogicInputError("stage", f"unknown stage {stage!r}")
