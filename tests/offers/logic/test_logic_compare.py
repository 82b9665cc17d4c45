"""Side by side, by hand: each year's figures, the difference and the running totals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from offers.logic.compare import column_totals, side_by_side


def test_side_by_side_by_hand():
    rows = side_by_side([300.0, 320.0, 250.0], [280.0, 330.0, 260.0, 999.0])
    assert [(r.year, r.a, r.b, r.difference) for r in rows] == [
        (1, 300.0, 280.0, 20.0),
        (2, 320.0, 330.0, -10.0),
        (3, 250.0, 260.0, -10.0),
    ]  # the fourth year of B has no counterpart
    assert [(r.a_cumulative, r.b_cumulative, r.cumulative_difference) for r in rows] == [
        (300.0, 280.0, 20.0),
        (620.0, 610.0, 10.0),
        (870.0, 870.0, 0.0),
    ]


def test_column_totals_sum_the_shared_years():
    assert column_totals([[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]], 2) == [3.0, 30.0]


finite = st.floats(min_value=-1e7, max_value=1e7, allow_nan=False)


@settings(deadline=None)  # a shared, busy machine: time is not the property
@given(st.lists(finite, max_size=12), st.lists(finite, max_size=12))
def test_the_last_cumulative_difference_is_the_sum_of_the_differences(a, b):
    rows = side_by_side(a, b)
    assert len(rows) == min(len(a), len(b))
    if rows:
        assert rows[-1].cumulative_difference == pytest.approx(
            sum(r.difference for r in rows), abs=1e-3
        )
        assert rows[-1].a_cumulative == pytest.approx(sum(a[: len(rows)]), abs=1e-3)
