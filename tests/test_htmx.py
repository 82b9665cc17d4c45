"""htmx through django-htmx: request.htmx, and an ended session sends the whole page to log in."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from tests.interviews.factories import ProcessFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def htmx_from(page: str) -> dict[str, str]:
    return {**HTMX, "HTTP_HX_CURRENT_URL": f"http://testserver{page}"}


def test_anonymous_htmx_request_gets_hx_redirect_to_log_in(client, alice):
    process = ProcessFactory(owner=alice)
    page = reverse("interviews:process_detail", kwargs={"pk": process.pk})
    response = client.post(
        reverse("interviews:round_create", kwargs={"pk": process.pk}),
        {"quick": "1"},
        **htmx_from(page),
    )
    assert response.status_code == 200
    assert response.content == b""  # no log-in page inside the rounds section
    target = urlsplit(response["HX-Redirect"])
    assert target.path == reverse("login")
    assert parse_qs(target.query)["next"] == [page]  # back to the page, not the partial


def test_expired_session_htmx_request_gets_hx_redirect_and_the_message(
    client_alice, alice, settings
):
    process = ProcessFactory(owner=alice)
    page = reverse("interviews:process_detail", kwargs={"pk": process.pk})
    assert client_alice.get(page).status_code == 200
    settings.SESSION_IDLE_SECONDS = -1  # every session has now been idle too long
    response = client_alice.post(
        reverse("interviews:round_create", kwargs={"pk": process.pk}),
        {"quick": "1", "interviewer_name": "Too Late"},
        **htmx_from(page),
    )
    assert response.status_code == 200
    assert urlsplit(response["HX-Redirect"]).path == reverse("login")
    assert not process.rounds.exists()
    settings.SESSION_IDLE_SECONDS = 1800
    login_page = client_alice.get(response["HX-Redirect"]).content.decode()
    assert "Your session ended" in login_page


def test_htmx_from_another_site_keeps_the_original_next(client, alice):
    process = ProcessFactory(owner=alice)
    url = reverse("interviews:round_create", kwargs={"pk": process.pk})
    response = client.post(
        url, {"quick": "1"}, HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL="https://evil.example/x"
    )
    target = urlsplit(response["HX-Redirect"])
    assert parse_qs(target.query)["next"] == [url]


def test_plain_request_still_gets_a_redirect(client, alice):
    process = ProcessFactory(owner=alice)
    response = client.get(reverse("interviews:process_detail", kwargs={"pk": process.pk}))
    assert response.status_code == 302
    assert "HX-Redirect" not in response
    assert urlsplit(response["Location"]).path == reverse("login")


def test_htmx_redirects_elsewhere_are_left_alone(client_alice):
    response = client_alice.get(reverse("signup"), **HTMX)
    assert response.status_code == 302
    assert "HX-Redirect" not in response


def test_htmx_dst_gap_answers_400_with_the_error_in_the_section(client_alice, alice):
    process = ProcessFactory(owner=alice)
    response = client_alice.post(
        reverse("interviews:round_create", kwargs={"pk": process.pk}),
        {
            "quick": "1",
            "kind": "phone_screen",
            "scheduled_at": "2027-03-14T02:30",
            "timezone": "America/Los_Angeles",
            "duration_minutes": "45",
            "mode": "video",
            "interviewer_name": "Ada",
        },
        **HTMX,
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="rounds-section"' in html
    assert "does not exist in America/Los_Angeles" in html
    assert "<html" not in html


def test_app_js_swaps_form_error_answers():
    """htmx 2 drops non-2xx answers unless told: app.js must keep 400, 409 and 422."""
    import re
    from pathlib import Path

    js = (Path(__file__).resolve().parent.parent / "static" / "js" / "app.js").read_text()
    rule = re.search(r'code: "\^\(400\|409\|422\)\$", swap: true, error: false', js)
    assert rule, "app.js no longer swaps 400/409/422 answers"
