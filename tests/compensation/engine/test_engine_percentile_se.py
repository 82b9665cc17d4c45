"""The standard error of a simulated percentile, against the normal distribution's theory."""

from __future__ import annotations

import math

import numpy as np
import pytest

from compensation.engine.errors import EngineInputError
from compensation.engine.window import percentile_standard_error


@pytest.mark.parametrize(
    ("percentile", "density"),
    [
        # The q-quantile of n draws has SE sqrt(q (1 - q) / n) / f(x_q); for the standard
        # normal f(0) = 1 / sqrt(2 pi) = 0.398942 and f(1.281552) = 0.175498 (P10 and P90).
        (50, 1 / math.sqrt(2 * math.pi)),
        (10, 0.175498),
        (90, 0.175498),
    ],
)
def test_the_percentile_s_standard_error_is_the_theory_s(percentile, density):
    n = 200_000
    values = np.random.default_rng(7).standard_normal(n) * 1_000.0
    q = percentile / 100
    theory = 1_000.0 * math.sqrt(q * (1 - q) / n) / density  # 2.80 at the median, 3.82 at P10
    assert percentile_standard_error(values, percentile) == pytest.approx(theory, rel=0.1)


def test_it_shrinks_as_one_over_the_root_of_the_paths():
    rng = np.random.default_rng(11)
    small = percentile_standard_error(rng.standard_normal(10_000), 50)
    large = percentile_standard_error(rng.standard_normal(160_000), 50)
    assert small / large == pytest.approx(4.0, rel=0.15)  # sqrt(160,000 / 10,000)


def test_it_refuses_what_has_no_standard_error():
    with pytest.raises(EngineInputError):
        percentile_standard_error(np.array([1.0]), 50)
    with pytest.raises(EngineInputError):
        percentile_standard_error(np.arange(10.0), 100)
