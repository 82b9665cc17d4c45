"""In a real browser: a level list shows only the chosen company's levels."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.browser.conftest import select_containing, signup

pytestmark = [pytest.mark.browser]

VISIBLE_LEVELS = """sel => Array.from(sel.options)
    .filter(o => o.value && !o.hidden && !o.disabled).map(o => o.textContent.trim())"""


@pytest.mark.parametrize("url_name", ["interviews:process_create", "offers:offer_create"])
def test_level_list_follows_the_company(
    page: Any, live_server: Any, reference_data: None, url_name: str
) -> None:
    signup(page, f"levels-{url_name.split(':')[0]}")
    page.goto(reverse(url_name))
    level = "#id_target_level"
    select_containing(page, "#id_company", "Google")
    shown = page.eval_on_selector(level, VISIBLE_LEVELS)
    assert shown and all(name.startswith("Google ") for name in shown)
    select_containing(page, level, "Google L5")

    # Another company: Google's levels go, and the picked one is cleared.
    select_containing(page, "#id_company", "Meta")
    shown = page.eval_on_selector(level, VISIBLE_LEVELS)
    assert shown and all(name.startswith("Meta ") for name in shown)
    assert page.eval_on_selector(level, "sel => sel.value") == ""
    assert page.js_errors == []
