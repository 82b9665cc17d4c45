"""What each option's letter guarantees, valued on the board's basis beside its headline.

The headline assumes refreshers, raises, share-price growth and a bonus multiplier; the letter
value keeps only the terms written (`PackageSpec.letter`), for the option and for the current
job it leaves or keeps (a transfer's held grants, the months before a start), through the same
valuation as the headline (`evaluate_offer`), once per board.
"""

from __future__ import annotations

from compensation.selectors import fx_table
from offers.board import Board, evaluate_offer, package_spec
from offers.board_cache import board_derived


def letter_values(board: Board) -> dict[str, float]:
    """Return each valued option's letter value (home currency, the basis's column) by key."""
    return board_derived(board, "letter", _letter_values)


def _letter_values(board: Board) -> dict[str, float]:
    fx = board.fx or fx_table(user=board.prefs.owner)
    current = board.current.letter() if board.current else None
    out: dict[str, float] = {}
    for ev in board.evaluations:
        if ev.error or ev.spec is None:
            continue
        spec = package_spec(ev.offer.package, ev.key, board.basis, fx).letter()
        letter = evaluate_offer(
            ev.offer, board.prefs, fx, basis=board.basis, current=current, spec=spec
        )
        if not letter.error:
            out[ev.key] = letter.value
    return out
