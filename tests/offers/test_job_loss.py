"""A job can end in the futures of the chance of the best choice (issue 38, item 4).

A job ending at a constant yearly rate lambda = -ln(1 - p) pays V a year until it ends and S
severance when it does within the window's Y years. Its expected window value is closed form:
V (1 - e^(-lambda Y)) / lambda + S (1 - e^(-lambda Y)). At p = 3 %, V = 120,000 and Y = 2:
lambda = 0.0304592, E = 120,000 x 1.940300 = 232,836.00, plus S x 0.0591 with S = 16/52 of
120,000 = 36,923.08: 2,182.15; in all 235,018.15 (240,000 if the job could not end).
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pytest
from django.urls import reverse

from offers.board import board_build
from offers.choice import JOB_LOSS_PRIVATE, JOB_LOSS_PUBLIC, board_choice, job_loss
from offers.logic.choice import job_loss_values
from tests.factories import CompanyFactory, OfferFactory
from tests.offers.test_discount_rate import cash_option
from tests.rendered_forms import form_values, post_as_rendered


def closed_form(value: float, severance: float, chance: float, years: int) -> float:
    rate = -math.log1p(-chance)
    ends = 1.0 - math.exp(-rate * years)
    return value * ends / rate + severance * ends


def test_the_hand_figure():
    assert closed_form(120_000, 36_923.08, 0.03, 2) == pytest.approx(235_018.15, abs=0.01)


@pytest.mark.parametrize("chance", [0.03, 0.08, 0.25])
def test_the_futures_mean_is_the_closed_form_within_its_standard_error(chance):
    futures, years, value, severance = 200_000, 4, 100_000.0, 30_000.0
    yearly = np.full((futures, 1, years), value)
    out = job_loss_values(
        yearly,
        np.array([chance]),
        np.full((1, years), severance),
        np.array([0]),
        np.random.default_rng(7),
        pairs=True,
    )[:, 0]
    # Antithetic twins: the standard error of the mean of the pairs' means.
    pairs = 0.5 * (out[: futures // 2] + out[futures // 2 :])
    se = pairs.std(ddof=1) / math.sqrt(len(pairs))
    expected = closed_form(value, severance, chance, years)
    assert abs(out.mean() - expected) < 4 * se
    # A job that lasts the window pays every year of it, as often as it lasts: (1 - p)^Y.
    lasts = out == years * value
    assert lasts.mean() == pytest.approx((1 - chance) ** years, abs=0.005)
    assert out.min() >= 0.0


def test_one_employer_ends_together_and_a_zero_chance_never_ends():
    yearly = np.full((1_000, 3, 4), 50_000.0)
    out = job_loss_values(
        yearly,
        np.array([0.2, 0.2, 0.0]),
        np.zeros((3, 4)),
        np.array([0, 0, 1]),
        np.random.default_rng(1),
        pairs=True,
    )
    assert np.array_equal(out[:, 0], out[:, 1])  # staying and a transfer: one draw
    assert (out[:, 0] < 200_000).any()
    assert np.all(out[:, 2] == 200_000)


@pytest.mark.django_db
def test_the_default_follows_the_employer_and_an_option_may_set_its_own(alice):
    public = OfferFactory(owner=alice, package__company=CompanyFactory(owner=alice))
    private = OfferFactory(
        owner=alice, package__company=CompanyFactory(owner=alice, is_private=True)
    )
    own = OfferFactory(owner=alice, job_loss_pct=Decimal("12.5"))
    assert (JOB_LOSS_PUBLIC, JOB_LOSS_PRIVATE) == (0.03, 0.08)
    assert [job_loss(o) for o in (public, private, own)] == [0.03, 0.08, 0.125]


@pytest.mark.django_db
def test_the_chance_values_a_job_that_can_end_and_says_so(alice, client_alice):
    # USD 120,000 a year of base, gross, over 2 years, at a public company's 3 %.
    cash_option(alice, rate="0")
    choice = board_choice(board_build(user=alice, mc_paths=0), futures=2_000)
    assert choice is not None
    (option,) = choice.options
    assert option.job_loss == 0.03
    expected = closed_form(120_000, 16 / 52 * 120_000, 0.03, 2)
    assert expected == pytest.approx(235_018.15, abs=0.01)
    assert abs(option.value.value - expected) < 4 * option.value.se
    assert option.value.value < 240_000
    html = client_alice.get(reverse("offers:dashboard_chance")).content.decode()
    assert "Job lost a year" in html and "<td data-job-loss-pct>3 %</td>" in html
    assert "with 16 weeks of base as severance" in html


@pytest.mark.django_db
def test_the_offer_form_saves_a_chance_and_refuses_one_above_50(alice, client_alice):
    # Posted as the page renders it (every field it sends), after an edit of the same option.
    offer = OfferFactory(owner=alice)
    url = reverse("offers:offer_edit", args=[offer.pk])
    post_as_rendered(client_alice, url, notes="first edit")
    data = form_values(client_alice.get(url).content, action=url, page=url)
    assert data["job_loss_pct"] == ""  # empty: the employer kind's default
    response = client_alice.post(url, {**data, "job_loss_pct": "51"})
    assert response.status_code == 400 and "job_loss_pct" in response.context["form"].errors
    offer.refresh_from_db()
    assert offer.job_loss_pct is None and offer.notes == "first edit"
    assert client_alice.post(url, {**data, "job_loss_pct": "12.5"}).status_code == 302
    offer.refresh_from_db()
    assert offer.job_loss_pct == Decimal("12.5")
