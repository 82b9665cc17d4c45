"""The offer page renders every field of OfferForm: a new field cannot be silently dropped.

templates/offers/offer_form.html lays the fields out in groups, each group naming its fields;
a field of the form that no group names would never reach the page (and a value it holds
would be posted empty). Rendered through the test client, as the pages show the form.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.factories import OfferFactory

pytestmark = pytest.mark.django_db


class InputNames(HTMLParser):
    """Collect the name of every input, select and textarea of the page's forms."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = dict(attrs).get("name")
        if tag in ("input", "select", "textarea") and name:
            self.names.append(name)


def rendered(response) -> tuple[list[str], list[str], list[str]]:
    """Return the form's visible and hidden field names, and the names the page holds."""
    assert response.status_code == 200
    form = response.context["form"]
    parser = InputNames()
    parser.feed(response.content.decode())
    return (
        [f.html_name for f in form.visible_fields()],
        [f.html_name for f in form.hidden_fields()],
        parser.names,
    )


def assert_every_field_rendered_once(response) -> None:
    visible, hidden, names = rendered(response)
    missing = [n for n in visible + hidden if n not in names]
    assert not missing, f"offer_form.html does not render {missing}: add them to a group"
    twice = [n for n in visible if names.count(n) > 1]
    assert not twice, f"offer_form.html renders {twice} twice"


def test_the_new_offer_page_renders_every_field_of_the_form(client_alice):
    assert_every_field_rendered_once(client_alice.get(reverse("offers:offer_create")))


def test_the_edit_page_renders_every_field_of_the_form(client_alice, alice):
    offer = OfferFactory(owner=alice)
    response = client_alice.get(reverse("offers:offer_edit", args=[offer.pk]))
    assert_every_field_rendered_once(response)
    visible, hidden, _names = rendered(response)
    assert {"version", "package_version"} <= set(hidden)
