"""Every aria-describedby on every form page names an element that exists (help text, errors)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.security.helpers import offer_post, route_urls

pytestmark = pytest.mark.django_db

# Routes whose POST logs out, deletes or asks for something else than a form to re-render.
NO_POST = {"logout", "delete_account", "set_language", "reauth"}


class AriaScanner(HTMLParser):
    """Collect every id, every aria-describedby reference and the post forms' actions."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.refs: list[tuple[str, str]] = []  # (tag#name, referenced id)
        self.post_actions: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"] or "")
        for ref in (a.get("aria-describedby") or "").split():
            self.refs.append((f"{tag}[name={a.get('name')}]", ref))
        if tag == "form" and (a.get("method") or "").lower() == "post":
            self.post_actions.append(a.get("action") or "")


def dangling(html: str) -> list[str]:
    scan = AriaScanner()
    scan.feed(html)
    return [f"{where} -> #{ref}" for where, ref in scan.refs if ref not in scan.ids]


def scanned(html: str) -> AriaScanner:
    scan = AriaScanner()
    scan.feed(html)
    return scan


def test_every_form_page_resolves_its_aria_references(client_alice, alice):
    problems: list[str] = []
    described = 0
    with_errors = 0
    for name, url in route_urls(alice):
        response = client_alice.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        scan = scanned(html)
        described += len(scan.refs)
        problems += [f"GET {url}: {p}" for p in dangling(html)]
        if name in NO_POST or not any(a in ("", url) for a in scan.post_actions):
            continue
        # An empty post re-renders the form with its errors (or succeeds: then nothing to check).
        posted = client_alice.post(url, {})
        if posted.status_code in (200, 400, 409, 422) and "text/html" in posted.get(
            "Content-Type", ""
        ):
            body = posted.content.decode()
            with_errors += body.count("_error")
            problems += [f"POST {url}: {p}" for p in dangling(body)]
    assert described > 20, "the scan found almost no described inputs"
    assert with_errors > 5, "the scan found almost no field errors"
    assert not problems, "aria-describedby names missing ids:\n" + "\n".join(problems)


def test_help_text_and_errors_are_linked_to_their_input(client_alice):
    response = client_alice.post(reverse("offers:offer_create"), offer_post(base="-5"))
    html = response.content.decode()
    scan = scanned(html)
    assert scan.refs, "no aria-describedby at all"
    base_refs = {ref for where, ref in scan.refs if where == "input[name=base]"}
    assert "id_base_error" in base_refs
    assert "id_base_error" in scan.ids
    assert 'aria-invalid="true"' in html
    assert not dangling(html)


def test_anonymous_forms_resolve_their_aria_references(client):
    for url in (reverse("login"), reverse("signup")):
        assert not dangling(client.get(url).content.decode()), url
        assert not dangling(client.post(url, {}).content.decode()), url
