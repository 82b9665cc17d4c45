"""Forms that know the user: levels of the chosen company, home-zone pickers, rounds numbered on."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from interviews.forms import RoundForm, TeamMatchForm
from interviews.models import Process, Round
from offers.models import Offer
from tests.factories import CompanyFactory, LevelFactory
from tests.interviews.factories import ProcessFactory
from tests.interviews.test_views import round_post
from tests.offers.test_views_offers import offer_post

pytestmark = pytest.mark.django_db


def _options(html: str, name: str) -> dict[str, str]:
    """Return {level id: data-company} of the options of the select `name`."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, name
    return dict(re.findall(r'<option value="(\d+)" data-company="(\d+)"', select.group(1)))


@pytest.fixture
def two_ladders():
    google, meta = (
        CompanyFactory(owner=None, name="Google"),
        CompanyFactory(owner=None, name="Meta"),
    )
    return {
        "google": google,
        "meta": meta,
        "L5": LevelFactory(company=google, code="L5"),
        "E5": LevelFactory(company=meta, code="E5"),
    }


# Levels of the chosen company ------------------------------------------------------------


def test_process_form_level_options_carry_their_company_and_the_filter_script(
    client_alice, two_ladders
):
    html = client_alice.get(reverse("interviews:process_create")).content.decode()
    for name in ("target_level", "offered_level"):
        options = _options(html, name)
        assert options[str(two_ladders["L5"].pk)] == str(two_ladders["google"].pk)
        assert options[str(two_ladders["E5"].pk)] == str(two_ladders["meta"].pk)
        assert re.search(rf'<select name="{name}"[^>]*data-levels-of="company"', html)
    assert "js/forms.js" in html


def test_offer_form_level_options_carry_their_company(client_alice, two_ladders):
    html = client_alice.get(reverse("offers:offer_create")).content.decode()
    for name in ("level", "target_level"):
        assert _options(html, name)[str(two_ladders["E5"].pk)] == str(two_ladders["meta"].pk)
    assert "js/forms.js" in html


@pytest.mark.parametrize("field", ["level", "target_level"])
def test_offer_form_refuses_a_level_of_another_company(client_alice, alice, two_ladders, field):
    response = client_alice.post(
        reverse("offers:offer_create"),
        offer_post(company=two_ladders["google"].pk, **{field: two_ladders["E5"].pk}),
    )
    assert response.status_code == 400  # the form again, with its errors
    assert "not the chosen company" in response.context["form"].errors[field][0]
    assert not Offer.objects.filter(owner=alice).exists()


def test_offer_form_accepts_the_companys_own_level(client_alice, alice, two_ladders):
    response = client_alice.post(
        reverse("offers:offer_create"),
        offer_post(company=two_ladders["google"].pk, level=two_ladders["L5"].pk, currency="USD"),
    )
    assert response.status_code == 302
    assert Offer.objects.get(owner=alice).level == two_ladders["L5"]


def test_process_edit_refuses_an_offered_level_of_another_company(client_alice, alice, two_ladders):
    process = ProcessFactory(owner=alice, company=two_ladders["google"])
    response = client_alice.post(
        reverse("interviews:process_edit", args=[process.pk]),
        {"company": two_ladders["google"].pk, "role": "x", "source": "inbound",
         "offered_level": two_ladders["E5"].pk, "first_contact": "2026-01-05",
         "priority": "2", "version": process.version},
    )  # fmt: skip
    assert response.status_code == 200
    assert "offered_level" in response.context["form"].errors
    assert Process.objects.get(pk=process.pk).offered_level is None


# Time zones: searchable, the home zone first ----------------------------------------------


def test_round_form_defaults_to_the_home_zone_with_a_searchable_list(client, alice_taipei):
    client.force_login(alice_taipei)
    process = ProcessFactory(owner=alice_taipei)
    html = client.get(reverse("interviews:round_create", args=[process.pk])).content.decode()
    field = re.search(r'<input type="text" name="timezone"[^>]*>', html).group(0)
    assert 'value="Asia/Taipei"' in field and 'list="id_timezone-zones"' in field
    datalist = re.search(r'<datalist id="id_timezone-zones">(.*?)</datalist>', html, re.S)
    zones = re.findall(r'<option value="([^"]+)">', datalist.group(1))
    assert "Asia/Taipei" in zones and "America/Los_Angeles" in zones and len(zones) > 300
    # The quick form on the process page defaults to the home zone too.
    detail = client.get(reverse("interviews:process_detail", args=[process.pk])).content.decode()
    assert re.search(r'name="timezone"[^>]*value="Asia/Taipei"', detail)


def test_round_form_refuses_an_unknown_zone(client_alice, alice):
    process = ProcessFactory(owner=alice)
    response = client_alice.post(
        reverse("interviews:round_create", args=[process.pk]), round_post(timezone="Mars/Base")
    )
    assert "timezone" in response.context["form"].errors
    assert not Round.objects.exists()


def test_team_match_form_defaults_to_the_home_zone(client, alice_taipei):
    client.force_login(alice_taipei)
    process = ProcessFactory(owner=alice_taipei)
    html = client.get(reverse("interviews:team_match_create", args=[process.pk])).content.decode()
    field = re.search(r'<input type="text" name="time_zone"[^>]*>', html).group(0)
    assert 'value="Asia/Taipei"' in field and 'list="id_time_zone-zones"' in field
    assert '<datalist id="id_time_zone-zones">' in html


def test_team_match_form_keeps_a_saved_zone_and_takes_a_typed_one(alice):
    process = ProcessFactory(owner=alice)
    form = TeamMatchForm(process=process, default_timezone="Asia/Taipei")
    assert form["time_zone"].value() == "Asia/Taipei"
    bound = TeamMatchForm(
        {"team": "Recs", "remote_openness": "unknown", "status": "proposed",
         "time_zone": "Asia/Singapore"},
        process=process,
    )  # fmt: skip
    assert bound.is_valid(), bound.errors
    assert bound.cleaned_data["time_zone"] == "Asia/Singapore"


# Rounds numbered on ----------------------------------------------------------------------


def test_three_full_rounds_in_a_row_are_numbered_1_2_3(client_alice, alice):
    process = ProcessFactory(owner=alice)
    url = reverse("interviews:round_create", args=[process.pk])
    for expected in (1, 2, 3):
        html = client_alice.get(url).content.decode()
        shown = re.search(r'<input type="number" name="order" value="(\d+)"', html).group(1)
        assert shown == str(expected)
        assert client_alice.post(url, round_post(order=shown)).status_code == 302
    assert list(process.rounds.values_list("order", flat=True)) == [1, 2, 3]


def test_three_quick_rounds_in_a_row_are_numbered_1_2_3(client_alice, alice):
    process = ProcessFactory(owner=alice)
    url = reverse("interviews:round_create", args=[process.pk])
    for _ in range(3):
        client_alice.post(
            url,
            {"quick": "1", "kind": "coding", "timezone": "Asia/Taipei", "duration_minutes": "45",
             "mode": "virtual"},
        )  # fmt: skip
    assert list(process.rounds.values_list("order", flat=True)) == [1, 2, 3]


def test_round_form_numbers_after_the_highest_even_with_gaps(alice):
    process = ProcessFactory(owner=alice)
    for order in (1, 4):
        Round.objects.create(owner=alice, process=process, order=order)
    assert RoundForm(process=process).initial["order"] == 5
    existing = process.rounds.get(order=1)
    assert RoundForm(instance=existing, process=process)["order"].value() == 1


def test_without_saved_preferences_a_round_starts_in_the_proposed_home_zone(client_alice, alice):
    # No preferences yet: the preferences page proposes Asia/Taipei, so new rounds start there.
    process = ProcessFactory(owner=alice)
    html = client_alice.get(reverse("interviews:round_create", args=[process.pk])).content.decode()
    field = re.search(r'<input type="text" name="timezone"[^>]*>', html).group(0)
    assert 'value="Asia/Taipei"' in field


def test_scenario_level_list_is_its_offers_ladder(alice, two_ladders):
    from offers.forms import ScenarioForm
    from offers.models import Scenario
    from tests.factories import OfferFactory, PackageFactory

    package = PackageFactory(owner=alice, company=two_ladders["google"])
    offer = OfferFactory(owner=alice, package=package)
    form = ScenarioForm(instance=Scenario(owner=alice, offer=offer), user=alice)
    assert list(form.fields["level"].queryset) == [two_ladders["L5"]]
