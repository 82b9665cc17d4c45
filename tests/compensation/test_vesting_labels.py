"""Vesting presets by names a person reads, in the offer and company forms."""

from __future__ import annotations

import pytest

from compensation.engine import VESTING_PRESETS
from compensation.forms import CompanyForm
from compensation.vesting_labels import preset_label
from offers.forms import OfferForm


@pytest.mark.parametrize(
    ("key", "label"),
    [
        ("google_33_33_22_12", "Google: 33/33/22/12, monthly"),
        ("amazon_5_15_40_40", "Amazon: 5/15/40/40, yearly, then every 6 months from year 3"),
        ("bytedance_20_25_25_30", "ByteDance/TikTok: 20/25/25/30, quarterly, 1-year cliff"),
        ("nvidia_2025_40_30_20_10", "Nvidia (2025): 40/30/20/10, quarterly"),
        ("even_4y_quarterly", "Even split: 25/25/25/25, quarterly"),
    ],
)
def test_preset_labels_read_like_a_schedule(key, label):
    assert preset_label(key) == label


@pytest.mark.django_db
def test_forms_list_every_preset_by_its_label_and_no_key(alice):
    for form in (OfferForm(user=alice), CompanyForm()):
        choices = dict(form.fields["vesting_preset"].choices)
        assert set(VESTING_PRESETS) <= set(choices)
        assert choices["google_33_33_22_12"] == "Google: 33/33/22/12, monthly"
        assert not any("_" in str(label) for key, label in choices.items() if key)
