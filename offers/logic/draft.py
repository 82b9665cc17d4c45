"""The draft message of a plan: what the next message to the recruiter (or manager) says.

It asks what is still to ask (a next step opens with thanks for what came back), answers a
counter not replied to yet (thanks for what came, then one different ask or its acceptance),
follows up the asks waiting past their follow-up day, and never repeats an ask still waiting.
"""

from __future__ import annotations

from offers.logic.answers import NEXT_STEP, counter_thanks, follow_up_sentence, thanks
from offers.logic.i18n import date_words
from offers.logic.i18n import gettext as _
from offers.logic.plan import Ask, Plan
from offers.logic.rules.base import DEADLINE, EXTERNAL, INTERNAL


def message_note(plan: Plan) -> str:
    """Return when to send the draft, for the user ("" when it can go today)."""
    if not plan.in_hand:
        return _(
            "The offer is not in hand yet: send nothing before it arrives. This message is for that day."
        )
    if not plan.to_send and not plan.follow_ups and plan.waiting and not plan.counters:
        day = min(w.follow_up_on for w in plan.waiting if w.follow_up_on is not None)
        return _(
            "Your asks are waiting for an answer: nothing to send today. If nothing comes, send "
            "this follow-up on {day}."
        ).format(day=date_words(day))
    return ""


def _opening(plan: Plan) -> str:
    if plan.kind == EXTERNAL:
        return _(
            "Thank you for the offer from {company}. I'm excited about it, and there are a few "
            "things I'd like to settle before I sign."
        ).format(company=plan.company)
    if plan.kind == INTERNAL:
        # One's own manager: the option's label ("Internal transfer: ...") is the user's, not
        # something to say.
        return _(
            "Thank you for supporting my transfer. Before I confirm, there are a few things I'd "
            "like to agree."
        )
    return _(
        "Thank you for making time to talk about my role. There are a few things I'd like to "
        "agree so that I can stay."
    )


def _reply(plan: Plan, sending: tuple[Ask, ...]) -> list[str]:
    """Return the answer to the counters: thanks for what came, once, then the asks or a yes.

    A next step's script opens with thanks for the counter it follows: that counter joins the
    one sentence of thanks instead, so nothing is thanked for twice.
    """
    steps = [a.state.logged for a in sending if a.state.status == NEXT_STEP and a.state.logged]
    came = [*(c for c in plan.counters if c not in steps), *steps]
    lines = [counter_thanks(*came), ""] if came else []
    scripts = [_after(thanks(a.state), a.script) for a in sending]
    if len(scripts) > 1:
        scripts = [
            _("{number}. {script}").format(number=n, script=s) for n, s in enumerate(scripts, 1)
        ]
    lines.extend(scripts or [_("I'm happy to accept this.")])
    return [*lines, ""]


def _after(opening: str, script: str) -> str:
    """Return ``script`` without its ``opening`` (its thanks, said once before)."""
    return script[len(opening) :].lstrip() if opening and script.startswith(opening) else script


def _asks(plan: Plan, sending: tuple[Ask, ...], follow: bool) -> list[str]:
    """Return the new asks after the opening (or the terms accepted as they are)."""
    if sending:
        numbered = [
            _("{number}. {script}").format(number=number, script=ask.script)
            for number, ask in enumerate(sending, start=1)
        ]
        return [_opening(plan), "", *numbered, ""]
    if not follow:
        return [_opening(plan), "", _("I'm happy with the terms as they are."), ""]
    return []


def draft_message(plan: Plan) -> str:
    """Return an editable message to the recruiter (or manager) with the plan's asks.

    With nothing new to ask, it is the follow-up for the day it is due.
    """
    sending = plan.to_send
    follow = plan.follow_ups or (() if sending or plan.counters else plan.waiting)
    lines = [_("Hi,"), ""]
    if plan.counters:
        lines.extend(_reply(plan, sending))
    else:
        lines.extend(_asks(plan, sending, bool(follow)))
    for state in follow:
        lines.append(follow_up_sentence(state, also=bool(sending)))
    if follow:
        lines.append("")
    deadline_open = any(a.component == DEADLINE for a in plan.asks) or any(
        w.logged is not None and w.logged.topic == DEADLINE for w in plan.waiting
    )
    if plan.in_hand and sending and plan.target.deadline is not None and not deadline_open:
        lines.append(
            _("I'll get back to you before {date}.").format(date=date_words(plan.target.deadline))
        )
    if not sending:
        lines.append(_("Thank you."))
    elif len(sending) == 1:
        lines.append(_("Could we talk about it this week? Thank you again."))
    else:
        lines.append(_("Could we talk about these this week? Thank you again."))
    lines.extend(["", _("Best regards,")])
    return "\n".join(lines)
