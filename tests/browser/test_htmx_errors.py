"""In a real browser: htmx shows form errors answered with 400, and an ended session logs in."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.browser.conftest import signup
from tests.interviews.factories import ProcessFactory

pytestmark = [pytest.mark.browser]


def test_dst_gap_error_appears_and_ended_session_goes_to_log_in(
    page: Any, live_server: Any, settings: Any
) -> None:
    signup(page, "htmx-errors")
    user = get_user_model().objects.get(username="htmx-errors")
    process = ProcessFactory(owner=user)
    detail = reverse("interviews:process_detail", kwargs={"pk": process.pk})
    page.goto(detail)

    # 02:30 on 14 March 2027 does not exist in Los Angeles: the server answers 400 with the form.
    quick = page.locator("#quick-add")
    quick.locator("[name=interviewer_name]").fill("Ada Gap")
    quick.locator("[name=scheduled_at]").fill("2027-03-14T02:30")
    quick.locator("[name=timezone]").fill("America/Los_Angeles")
    with page.expect_response(lambda r: "/rounds/new/" in r.url and r.status == 400):
        quick.locator("button[type=submit]").click()
    error = page.locator("#rounds-section >> text=does not exist in America/Los_Angeles")
    error.wait_for()
    assert error.is_visible()
    assert page.url.endswith(detail)

    # The session ends while the page is open: the next htmx request goes to the log-in page.
    settings.SESSION_IDLE_SECONDS = -1
    page.locator("#quick-add [name=scheduled_at]").fill("2027-03-15T10:00")
    page.locator("#quick-add button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/login/\?next="))
    assert page.locator("text=Your session ended").is_visible()
    assert page.locator("form input[name=username]").count() == 1  # the page, not a section
    assert not process.rounds.exists()
    assert not page.js_errors
