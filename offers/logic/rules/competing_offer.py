"""A better alternative: cite an offer in hand the user would take and ask to close the gap."""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.leverage import leverage_of
from offers.logic.rules.base import (
    EVIDENCE_STRENGTH,
    EXTERNAL,
    OPTION_KINDS,
    RETENTION,
    SIGN_ON,
    AlternativeFacts,
    GapAsk,
    NegotiationContext,
    NegotiationPoint,
    about,
    money,
    offer_value_home,
    stock_said,
    to_offer,
)

EVIDENCE_PRIORITY = {"offer_in_hand": 1, "active_process": 2, "band_median": 3}


def _by_strength(alternatives: tuple[AlternativeFacts, ...]) -> list[AlternativeFacts]:
    """Return alternatives strongest evidence first, then highest value, then name."""
    return sorted(
        alternatives, key=lambda a: (-EVIDENCE_STRENGTH[a.evidence_kind], -a.value, a.name)
    )


def _evidence_kind_label(kind: str) -> str:
    """Return an evidence kind as words in the active language."""
    labels = {
        "offer_in_hand": _("offer in hand"),
        "active_process": _("active process"),
        "band_median": _("band median"),
    }
    return labels.get(kind, kind.replace("_", " "))


class CompetingOffer(GapAsk):
    """Cite the strongest alternative worth more than this offer."""

    key = "competing_offer"
    # An outside offer is leverage everywhere: for a transfer or staying it asks for retention.
    kinds = OPTION_KINDS

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        offer_value = offer_value_home(ctx)
        # Only an offer in hand the user would take (retention: another employer's).
        better = _by_strength(tuple(a for a in leverage_of(ctx) if a.value > offer_value))
        if not better:
            return None
        lead = better[0]
        home = ctx.prefs.home_currency
        gap_home = lead.value - offer_value
        ask = to_offer(ctx, gap_home)
        kind = _evidence_kind_label(lead.evidence_kind)
        # Values on the user's own basis (after tax, home currency) stay private: the script
        # names the competing company, not the figure.
        if lead.shareable:
            say = _(
                "I have an offer in hand from {company} that is worth more over {years} years"
            ).format(company=lead.company, years=ctx.prefs.horizon_years)
        else:
            say = _("I have a competing offer in hand that is worth more over the same period")
        figures: dict[str, float | str] = {
            "offer_value_home": offer_value,
            "alternative_value_home": lead.value,
            "gap_home": gap_home,
            "alternative": lead.name,
            "evidence_kind": lead.evidence_kind,
        }
        for position, other in enumerate(better[1:], start=2):
            figures[f"alternative_{position}"] = f"{other.name} ({other.evidence_kind})"
        return NegotiationPoint(
            rule=self.key,
            title=_("Competing {kind}: {name}").format(kind=kind, name=lead.name),
            trigger=_("{name} ({kind}) worth {value} vs this offer {offer_value}").format(
                name=lead.name,
                kind=kind,
                value=money(lead.value, home),
                offer_value=money(offer_value, home),
            ),
            ask_amount=ask,
            ask_currency=ctx.offer.currency,
            ask_term=(
                _("match in stock or sign-on")
                if ctx.offer.kind == EXTERNAL
                else _("a retention grant in stock to close the gap")
            ),
            priority=EVIDENCE_PRIORITY[lead.evidence_kind],
            evidence=_("{say}. Closing the {ask} gap would make this an easy yes.").format(
                say=say,
                # A retention grant is stock: said in the grant's own currency.
                ask=about(ask, ctx.offer.currency)
                if ctx.offer.kind == EXTERNAL
                else stock_said(ctx, ask),
            ),
            figures=figures,
            component=SIGN_ON if ctx.offer.kind == EXTERNAL else RETENTION,
            reason=_("{say}.").format(say=say),
        )


RULE = CompetingOffer()
