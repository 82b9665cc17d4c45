"""The dashboard's chance of being the best choice: loaded after the page, kept per board."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from accounts.charts import figure_json
from offers.board import Board
from offers.board_cache import board_derived, board_get
from offers.charts import chance_of_best
from offers.choice import (
    CHOICE_FUTURES,
    CHOICE_SEED,
    EXPECTED_TERMS_SPREAD,
    SEVERANCE_WEEKS,
    board_choice,
    pct,
    regret_sentence,
    share,
)


def chance_html(board: Board) -> str:
    """Return the chance section rendered from the board alone."""
    choice = board_choice(board, futures=CHOICE_FUTURES, seed=CHOICE_SEED)
    context = {"choice": choice}
    if choice is not None:
        context.update(
            {
                "fig_chance": figure_json(chance_of_best(choice)),
                "regret": regret_sentence(choice),
                # Each option with its chance, its chance of an offer, its largest stock's
                # share and its job's yearly chance of ending, as the table shows them.
                "rows": [
                    (
                        o,
                        pct(o.chance),
                        *map(share, (o.offer.probability, o.stock_share, o.job_loss)),
                    )
                    for o in choice.options
                ],
                "severance_weeks": SEVERANCE_WEEKS,
                "correlation_pct": round(100 * choice.correlation),
                "uncertainty_pct": round(100 * choice.weight_uncertainty),
                "terms_pct": round(100 * EXPECTED_TERMS_SPREAD),
                "any_in_process": any(o.offer.in_process for o in choice.options),
            }
        )
    return render_to_string("offers/partials/dashboard_chance.html", context)


@require_GET
def dashboard_chance(request: HttpRequest) -> HttpResponse:
    """Show how often each option would be the right choice (htmx: the section only)."""
    board = board_get(user=request.user)
    return HttpResponse(board_derived(board, f"chance-html:{CHOICE_FUTURES}", chance_html))
