"""What each option's letter guarantees, valued on the board's basis beside its headline.

The headline assumes refreshers, raises, share-price growth and a bonus multiplier; the letter
value keeps only the terms written (`PackageSpec.letter`), for the option and for the current
job it leaves or keeps (a transfer's held grants, the months before a start), through the same
valuation as the headline (`evaluate_offer`), once per board and option.
"""

from __future__ import annotations

from compensation.selectors import fx_table
from offers.board import Board, Evaluation, evaluate_offer, own_spec
from offers.board_cache import board_derived


def letter_value(board: Board, ev: Evaluation) -> float | None:
    """Return the option's letter value (home currency, the basis's column; None: not valued)."""
    if ev.error or ev.spec is None:
        return None
    known: dict[str, float | None] = board_derived(board, "letter", lambda _b: {})
    if ev.key not in known:  # one slot per board, filled an option at a time
        known[ev.key] = _letter_value(board, ev)
    return known[ev.key]


def _letter_value(board: Board, ev: Evaluation) -> float | None:
    fx = board.fx or fx_table(user=board.prefs.owner)
    current = board.current.letter() if board.current else None
    spec = own_spec(ev, fx).letter()
    letter = evaluate_offer(
        ev.offer, board.prefs, fx, basis=board.basis, current=current, spec=spec
    )
    return None if letter.error else letter.value
