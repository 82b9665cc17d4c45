"""The plan's sentences: what each ask says, the leverage it draws on, the notes for the user.

A script is read aloud to a recruiter: the lead point's reason and one more, then the ask in
its term's own currency, after thanks for what the log says came back. The user's private
reasoning (the gap, the walk-away, weights and verdicts) stays in the notes, never in a script.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce

from offers.logic.answers import thanks
from offers.logic.criteria import label as criterion_label
from offers.logic.i18n import gettext as _
from offers.logic.i18n import gettext_noop
from offers.logic.plan_figures import Candidate, MoneyGap, WalkAway
from offers.logic.ranking import OptionFacts, RankingPrefs, rank_options
from offers.logic.rules.base import (
    BASE,
    CASH,
    EXTERNAL,
    INTERNAL,
    PER_YEAR_COMPONENTS,
    RETENTION,
    SIGN_ON,
    STOCK,
    NegotiationContext,
    NegotiationPoint,
    about,
    money,
)


def unique(items: Sequence[str]) -> tuple[str, ...]:
    """Return the non-empty items, each once, in order."""
    return tuple(dict.fromkeys(i for i in items if i))


def sentences(parts: Sequence[str]) -> str:
    """Return sentences run together as the language writes them (a space, or none)."""
    found = [p for p in parts if p]
    joined = _("{first} {second}")
    return reduce(lambda text, part: joined.format(first=text, second=part), found) if found else ""


# The sentence that asks for an amount of each money component (message ids).
ASK_SENTENCES = {
    STOCK: gettext_noop("Could we add {amount} a year in stock?"),
    SIGN_ON: gettext_noop("Could you add a sign-on bonus of {amount}?"),
    RETENTION: gettext_noop("Could we agree a retention grant of {amount} in stock?"),
    CASH: gettext_noop("Could {amount} of the package move into cash (base, bonus or sign-on)?"),
    BASE: gettext_noop("Could the base move up by {amount} a year?"),
}


def ask_sentence(component: str, amount: float, currency: str) -> str:
    """Return the sentence that asks for an amount of one component, in the offer's terms."""
    return _(ASK_SENTENCES.get(component, ASK_SENTENCES[BASE])).format(
        amount=money(amount, currency)
    )


def cites_current_pay(point: NegotiationPoint) -> bool:
    """Return whether a point draws on what leaving costs (current pay, unvested stock)."""
    return any(
        k in point.figures for k in ("unvested_total_home", "stay_value_home", "clawback_home")
    )


def leverage_words(point: NegotiationPoint) -> list[str]:
    """Return the leverage a point draws on, in words."""
    figures = point.figures
    found: list[str] = []
    if cites_current_pay(point):
        found.append(_("current pay and unvested stock"))
    if "alternative" in figures:
        found.append(_("a competing offer ({name})").format(name=figures["alternative"]))
    if "days_left" in figures or "next_vest_value_home" in figures:
        found.append(_("deadlines and dates"))
    if any(k in figures for k in ("band_base_max", "next_level_stock_per_year")):
        found.append(_("band data"))
    if "loop_quoted" in figures:
        found.append(_("interview feedback"))
    return found


def script(candidate: Candidate) -> str:
    """Return what the user says for one ask, in the term's currency, after the log's answer."""
    point = candidate.lead
    opening = thanks(candidate.state)
    if candidate.amount is None or candidate.currency is None:
        # A money point asked as a term (its stock comes with the level): its reason alone.
        return sentences([opening, (point.ask_amount and point.reason) or point.evidence])
    # The lead's reason and one more: a script is read aloud, not a list of every rule.
    merged = [p.reason for p in candidate.merged if p.reason][:1]
    support = candidate.support.reason if candidate.support else ""
    reasons = unique([opening, point.reason or point.evidence, *merged, candidate.why, support])
    return sentences(
        [*reasons, ask_sentence(candidate.component, candidate.amount, candidate.currency)]
    )


def term_words(candidate: Candidate) -> str | None:
    """Return the ask's term as shown: the amount said (a year for stock and base), or the term."""
    if candidate.amount is None or candidate.currency is None:
        return candidate.lead.ask_term
    amount = money(candidate.amount, candidate.currency)
    if candidate.component in PER_YEAR_COMPONENTS:
        return _("{amount} a year").format(amount=amount)
    return amount


def ranking_reason(options: Sequence[OptionFacts], prefs: RankingPrefs, key: str) -> str | None:
    """Return what most puts the option ahead of the others, or behind the first, in words."""
    if len(options) < 2:
        return None
    ranking = rank_options(list(options), prefs)
    me = next((r for r in ranking if r.key == key), None)
    if me is None:
        return None
    others = [r for r in ranking if r.key != key]
    rival = others[0]
    if me.rank == 1:
        # Ahead of the field: against the other options on average, not only the runner-up.
        diffs = {
            c: s.contribution - sum(o.criteria[c].contribution for o in others) / len(others)
            for c, s in me.criteria.items()
        }
        lead = max(diffs, key=lambda c: diffs[c])
        if diffs[lead] <= 0:
            return None
        text = _("{name} ranks first by your own preferences mostly on {criterion}: {why}.")
    else:
        diffs = {c: s.contribution - rival.criteria[c].contribution for c, s in me.criteria.items()}
        lead = min(diffs, key=lambda c: diffs[c])
        if diffs[lead] >= 0:
            return None
        text = _("What keeps {name} behind {rival} most is {criterion}: {why}.")
    return text.format(
        name=me.name,
        rival=rival.name,
        criterion=criterion_label(lead).lower(),
        why=me.criteria[lead].explanation,
    )


def _walk_notes(name: str, walk: WalkAway) -> list[str]:
    """Return what the walk-away point says to the user: the value, today's margin, conditions."""
    if walk.value_home is None:
        return [_("{name}: {reason}.").format(name=name, reason=walk.reason)]
    margin = walk.margin_home or 0.0
    today = (
        _("Today it is {margin} above that.")
        if margin >= 0
        else _("Today it is {margin} short of it.")
    )
    notes = [
        _("Walk away below {value} (the board's headline value): {reason}.").format(
            value=money(walk.value_home, walk.home_currency), reason=walk.reason
        ),
        today.format(margin=about(abs(margin), walk.home_currency)),
    ]
    if walk.conditions:
        notes.append(_("Only with: {conditions}.").format(conditions=_("; ").join(walk.conditions)))
    return notes


def private_notes(
    ctx: NegotiationContext,
    points: Sequence[NegotiationPoint],
    gap: MoneyGap,
    walk: WalkAway | None,
    asked: float,
    held: float = 0.0,
    rest: float = 0.0,
) -> tuple[str, ...]:
    """Return the reasoning for the user only: the gap, the walk-away, weights and verdicts.

    ``asked`` is what the money asks add up to over the horizon (offer currency, gross);
    ``held`` what those held for later or closed would, ``rest`` stock beyond the band unasked.
    """
    notes: list[str] = []
    if not ctx.offer.in_hand:
        notes.append(
            _(
                "The offer is not in hand yet: its figures are expected, not offered. Ask "
                "nothing before it arrives; the message below is for that day."
            )
        )
    if gap.amount > 0:
        notes.append(
            _(
                "The money gap is {gap} over {years} years (gross, {currency}): what it takes to "
                "match {against}. Your money asks add up to {asked}."
            ).format(
                gap=money(gap.amount, gap.currency),
                years=gap.horizon_years,
                currency=gap.currency,
                against=gap.against,
                asked=money(asked, gap.currency),
            )
        )
    if gap.amount - asked >= 1 and (held > 0 or rest > 0):
        short = _("They are {short} short of it: {why}.")
        why = _("{held} of it is in asks held for later or already answered")
        if held <= 0:
            why = _("beyond the top of its band, stock comes only with the level")
        why = why.format(held=money(held, gap.currency))
        notes.append(short.format(short=money(gap.amount - asked, gap.currency), why=why))
    if walk is not None:
        notes.extend(_walk_notes(ctx.offer.name, walk))
    notes.extend(p.private for p in points if p.private)
    notes.extend(
        _("{title}: {why}").format(title=p.title, why=p.trigger)
        for p in points
        if p.component is None
    )
    if ctx.offer.kind == INTERNAL:
        notes.append(
            _(
                "An internal transfer: your own employer pays no sign-on, relocation or make-whole; "
                "negotiate level, remote terms, start date and how the pay is localised."
            )
        )
    elif ctx.offer.kind != EXTERNAL:
        notes.append(_("Staying: ask your manager for a retention grant or a remote arrangement."))
    return unique(notes)
