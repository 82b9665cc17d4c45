"""The board's winner sentence, derived once per board and read by the dashboard and the exports."""

from __future__ import annotations

from offers import board as valuation
from offers.board_cache import board_derived
from offers.logic.criteria import label as criterion_label
from offers.logic.errors import LogicInputError
from offers.logic.verdict import Verdict, VerdictBasis, winner_verdict


def _verdict(board: valuation.Board) -> Verdict | None:
    if len(board.ranking) < 2:
        return None
    facts = [valuation.option_facts(ev) for _r, ev in board.ranked]
    basis = board.basis
    try:
        return winner_verdict(
            board.ranking,
            facts,
            valuation.ranking_prefs(board.prefs),
            VerdictBasis(basis.currency, basis.years, basis.tax_words()),
            board.sensitivity,
            # Criterion names inside a sentence: "ahead of Meta on remote work and time zone".
            labels={c: criterion_label(c).lower() for c in board.ranking[0].criteria},
        )
    except LogicInputError:  # the facts ranked already; never fail the page over the sentence
        return None


def board_verdict(board: valuation.Board) -> Verdict | None:
    """Return why the board's top option wins, in one sentence (None with fewer than two)."""
    return board_derived(board, "verdict", _verdict)
