"""Every main page of the demo on a 390 px phone, and in Traditional Chinese, in Chromium.

At 390 px: the page never scrolls sideways (wide tables scroll inside their own box), and no
form control is cut off or squeezed. In zh-Hant: no label, heading, button, table header,
navigation link, legend or option is left in English (codes and the user's own data aside,
with the allowlist of tests/test_i18n.py).
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import NoReverseMatch, reverse

from tests.test_i18n import data_names, untranslated

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
# A text field narrower than this cuts off what the user types.
MIN_TEXT_WIDTH = 120

# Form controls that reach outside the viewport or outside any box around them (a control
# wider than its column is drawn under the next one, or clipped), and text fields too narrow
# to read what is typed in them.
CONTROLS_JS = """(minWidth) => {
  const vw = document.documentElement.clientWidth;
  const textual = new Set(['text', 'number', 'date', 'datetime-local', 'time', 'email', 'url',
                           'search', 'password', 'tel', 'month', 'week']);
  const name = (el) => {
    const label = el.labels && el.labels[0] ? el.labels[0].innerText.trim() : '';
    return `${el.tagName.toLowerCase()}#${el.id || el.name || '?'}` +
      (label ? ` "${label.slice(0, 40)}"` : '');
  };
  const problems = [];
  for (const el of document.querySelectorAll('input, select, textarea')) {
    if (el.type === 'hidden' || !el.checkVisibility()) continue;
    if (el.closest('.visually-hidden, .topbar')) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 && r.height < 2) continue;  // a visually hidden control
    let outside = r.left < -1 || r.right > vw + 1 ? 'the viewport' : '';
    for (let p = el.parentElement; p && p !== document.body && !outside; p = p.parentElement) {
      const box = p.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1) {
        outside = `${p.tagName.toLowerCase()}.${p.className} ` +
          `(${Math.round(box.left)}..${Math.round(box.right)})`;
      }
    }
    if (outside) {
      problems.push(`${name(el)} cut off: ${Math.round(r.left)}..${Math.round(r.right)}` +
                    ` reaches outside ${outside}`);
    }
    const kind = el.tagName === 'INPUT' ? el.type : el.tagName.toLowerCase();
    if ((textual.has(kind) || kind === 'textarea') && r.width < minWidth) {
      problems.push(`${name(el)} only ${Math.round(r.width)}px wide`);
    }
  }
  return problems;
}"""

# Visible texts of labels, headings, buttons, table headers, navigation, legends and
# summaries, and the texts of options (a closed select shows one, the user reads them all).
LABELS_JS = """() => {
  const selector = 'label, h1, h2, h3, h4, h5, h6, button, th, nav, legend, summary, caption';
  const texts = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.parentElement && el.parentElement.closest(selector)) continue;  // counted with it
    if (!el.checkVisibility() || el.closest('[lang]:not(html)')) continue;
    const clone = el.cloneNode(true);
    clone.querySelectorAll('select, textarea, script, [lang]').forEach((n) => n.remove());
    const kind = el.tagName.toLowerCase();
    for (const part of (clone.textContent || '').split(/\\n/)) {
      const text = part.replace(/\\s+/g, ' ').trim();
      if (text) texts.push([kind, text]);
    }
  }
  for (const el of document.querySelectorAll('select option')) {
    if (el.closest('#lang-select, [lang]:not(html)')) continue;
    const text = (el.textContent || '').replace(/\\s+/g, ' ').trim();
    if (text) texts.push(['option', text]);
  }
  return texts;
}"""

# Beyond test_i18n's codes: time zones with more than one slash, clock times, amounts with
# units such as "1.5x" or "12k", acronyms and file formats (XLSX, JSON) and product names.
ZONES = re.compile(r"\b[A-Z][A-Za-z_]+(?:/[A-Za-z_+-]+){1,2}\b")
MORE_CODES = re.compile(
    r"\bUTC[+−-]?\d*(?::\d\d)?\b|\bGMT\b|"
    r"\b\d+(?:[.,]\d+)?\s?[kKMx]\b|\b\d{1,2}:\d\d\b|\b[A-Z]{2,5}\b|\bExcel\b"
)


def english(text: str, names: set[str]) -> bool:
    """Return True when a text is untranslated (test_i18n's rule, with the codes above)."""
    text = ZONES.sub(" ", text)  # first: a zone holds a city's name ("Asia/Shanghai")
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return untranslated(MORE_CODES.sub(" ", text), set())


def login(page: Any) -> None:
    page.goto(reverse("login"))
    page.fill("#id_username", "demo")
    page.fill("#id_password", "offerdesk-demo")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))


@pytest.fixture
def demo_page(page: Any) -> Any:
    """Seed the demo story and log in through the log-in form."""
    call_command("seed_demo", force=True, stdout=io.StringIO())
    login(page)
    return page


def main_pages() -> list[str]:
    """Return the URLs of the demo's main pages (those built so far)."""
    from compensation.models import Company
    from interviews.models import Process
    from offers.models import Offer, Scenario

    offers = Offer.objects.filter(owner__username="demo").order_by("pk")
    offer = offers.exclude(kind="stay").first() or offers.first()
    process = (
        Process.objects.filter(owner__username="demo", rounds__isnull=False).order_by("pk").first()
    )
    scenario = Scenario.objects.filter(owner__username="demo").order_by("pk").first()
    company = Company.objects.order_by("pk").first()
    round_ = process.rounds.order_by("pk").first() if process else None
    names: list[tuple[str, dict[str, int]]] = [
        ("offers:dashboard", {}),
        ("offers:offer_list", {}),
        ("offers:offer_detail", {"pk": offer.pk}),
        ("offers:offer_create", {}),
        ("offers:offer_edit", {"pk": offer.pk}),
        ("offers:offer_compare", {}),
        ("offers:offer_history", {"pk": offer.pk}),
        ("offers:preferences", {}),
        ("offers:trash", {}),
        ("offers:negotiation", {"pk": offer.pk}),
        ("offers:negotiation_log", {"pk": offer.pk}),
        ("offers:timeline", {}),
        ("offers:scenario_list", {}),
        ("offers:export", {}),
        ("offers:offer_import", {}),
        ("interviews:board", {}),
        ("interviews:process_create", {}),
        ("interviews:question_log", {}),
        ("interviews:analytics", {}),
        ("interviews:calendar_settings", {}),
        ("compensation:company_list", {}),
        ("compensation:company_detail", {"pk": company.pk}),
        ("compensation:package_list", {}),
        ("compensation:package_detail", {"pk": offer.package_id}),
        ("compensation:package_edit", {"pk": offer.package_id}),
        ("compensation:fx_list", {}),
        ("compensation:location_list", {}),
    ]
    first = offers.first()  # the current job: its package has the longest tax line
    if first is not None and first.package_id != offer.package_id:
        names.append(("compensation:package_detail", {"pk": first.package_id}))
    if process is not None:
        names += [
            ("interviews:process_detail", {"pk": process.pk}),
            ("interviews:process_edit", {"pk": process.pk}),
            ("interviews:round_create", {"pk": process.pk}),
            ("interviews:debrief_edit", {"pk": process.pk}),
        ]
    if round_ is not None:
        names.append(("interviews:round_edit", {"pk": round_.pk}))
    if scenario is not None:
        names.append(("offers:scenario_detail", {"pk": scenario.pk}))
    urls = []
    for name, kwargs in names:
        try:
            urls.append(reverse(name, kwargs=kwargs or None))
        except NoReverseMatch:  # a page not built yet
            continue
    return urls


def settle(page: Any) -> None:
    """Wait until the page's charts are drawn: they change the page's width."""
    if page.locator("[data-chart]").count():
        page.wait_for_selector('.chart[data-drawn="1"]', timeout=20_000)


def phone_problems(page: Any, urls: list[str]) -> list[str]:
    """Visit each page at 390 px; return what scrolls sideways and what is cut off."""
    page.set_viewport_size(PHONE)
    problems = []
    for url in urls:
        response = page.goto(url)
        assert response is not None and response.ok, f"{url}: {response and response.status}"
        settle(page)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            wide = page.evaluate(
                """(vw) => Array.from(document.querySelectorAll('main *'))
                    .filter((el) => el.getBoundingClientRect().right > vw + 1)
                    .filter((el) => !el.parentElement.closest('.table-wrap, .board, .iv-board'))
                    .slice(0, 3)
                    .map((el) => el.tagName.toLowerCase() + '.' + el.className)""",
                PHONE["width"],
            )
            problems.append(f"{url}: the page is {width}px wide at 390px ({', '.join(wide)})")
        problems += [f"{url}: {p}" for p in page.evaluate(CONTROLS_JS, MIN_TEXT_WIDTH)]
    return problems


def english_labels(page: Any, urls: list[str], names: set[str]) -> dict[str, list[str]]:
    """Visit each page; return each untranslated text with the pages that show it."""
    found: dict[str, list[str]] = {}
    for url in urls:
        page.goto(url)
        assert page.evaluate("() => document.documentElement.lang") == "zh-Hant", url
        for kind, text in page.evaluate(LABELS_JS):
            if english(text, names):
                pages = found.setdefault(f"<{kind}> {text}", [])
                if url not in pages:
                    pages.append(url)
    return found


def test_every_main_page_fits_a_phone(demo_page: Any) -> None:
    urls = main_pages()
    assert len(urls) >= 25, urls
    problems = phone_problems(demo_page, urls)
    assert not problems, f"{len(problems)} problems at 390px:\n" + "\n".join(problems)


IN_VIEW_JS = """(selector) => Array.from(document.querySelectorAll(selector)).map((el) => {
  const r = el.getBoundingClientRect();
  const vw = document.documentElement.clientWidth;
  return [el.innerText.trim(), el.checkVisibility() && r.width > 0 && r.left >= 0 && r.right <= vw];
})"""


def test_the_phone_ranking_shows_the_money_and_the_exclusion_reasons(demo_page: Any) -> None:
    """At 390 px each option's value, first year and exclusion reason is on screen, unscrolled."""
    from django.contrib.auth import get_user_model

    from offers.board_cache import board_get

    page = demo_page
    page.set_viewport_size(PHONE)
    page.goto(reverse("offers:dashboard"))
    board = board_get(user=get_user_model().objects.get(username="demo"))
    values = page.evaluate(IN_VIEW_JS, "#ranking td[data-headline]")
    assert len(values) == len(board.ranked) >= 3
    assert all(shown and re.search(r"\d{3},\d{3}", text) for text, shown in values), values
    reasons = page.evaluate(IN_VIEW_JS, "#ranking tr.excluded td:last-child")
    expected = [reason for r, _ in board.ranked for reason in r.exclusion_reasons]
    assert expected, "the demo excludes at least one option"
    shown_text = " ".join(text for text, shown in reasons if shown)
    for reason in expected:
        assert str(reason) in shown_text, (reason, reasons)


def test_every_main_page_is_translated_to_traditional_chinese(demo_page: Any) -> None:
    from django.contrib.auth import get_user_model

    page = demo_page
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "zh-hant", "url": page.url}]
    )
    urls = main_pages()
    names = data_names(get_user_model().objects.get(username="demo"))
    found = english_labels(page, urls, names)
    # One message with every string, so that they can all be translated at once.
    if found:
        pytest.fail(
            f"{len(found)} untranslated texts in zh-Hant:\n"
            + "\n".join(
                f"  {text}   ({', '.join(pages[:3])}{' …' if len(pages) > 3 else ''})"
                for text, pages in sorted(found.items())
            ),
            pytrace=False,
        )


def test_the_chinese_check_catches_english_and_spares_codes_and_data() -> None:
    """The filter itself: English words are caught, codes and the user's data are not."""
    names = {"Google", "Staff ML Engineer", "Northwind AI"}
    for text in ("Target level", "Company", "Save", "Team match"):
        assert english(text, names), text
    for text in (
        "公司",
        "USD",
        "Asia/Taipei",
        "America/Argentina/Buenos_Aires",
        "UTC+08:00",
        "Google L5",
        "Northwind AI E5",
        "Asia/Shanghai",
        "Staff ML Engineer",
        "P50",
        "09:30",
        "1.5x",
        "2026-12-05",
        "Excel（XLSX）",
        "JSON",
    ):
        assert not english(text, names), text


# Every option of each select wider than the room its closed box leaves for text (its width
# less its padding and about 20 px of drop-down arrow), measured in the select's own font: a
# closed select cannot wrap, so a longer option is cut off once chosen. With `only` (select
# names, a formset's prefix left out), only those selects: "all" their options, or "empty"
# the one chosen when nothing is (the form's own words beside a registry's names).
SELECT_CUT_JS = """(only) => {
  const ctx = document.createElement('canvas').getContext('2d');
  const cut = [];
  for (const el of document.querySelectorAll('main select')) {
    if (!el.checkVisibility()) continue;
    const which = only ? only[el.name.replace(/^[a-z]+-\\d+-/, '')] : 'all';
    if (!which) continue;
    const s = getComputedStyle(el);
    ctx.font = s.font;
    const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 20;
    for (const o of el.options) {
      if (which === 'empty' && o.value !== '') continue;
      const w = ctx.measureText(o.text).width;
      if (w > room) cut.push(`${el.name}: "${o.text}" needs ${Math.round(w)}px of ${Math.round(room)}px`);
    }
  }
  return cut;
}"""


def _select_pages() -> list[tuple[str, str, dict[str, str] | None]]:
    """Return the form pages whose selects are measured: each with a select it must show and
    which selects' options are measured (None: every select's)."""
    from compensation.models import Package

    package = Package.objects.filter(owner__username="demo").order_by("pk").first()
    # The vesting presets' and tax tables' own names are the registries' (not measured here).
    return [
        (reverse("offers:preferences"), "risk_percentile", None),
        (
            reverse("offers:offer_create"),
            "vesting_preset",
            {"vesting_preset": "empty", "tax_regime": "empty"},
        ),
        (
            reverse("compensation:package_edit", args=[package.pk]),
            "bonus_cycle",
            {
                "bonus_cycle": "all",
                "clawback_kind": "all",
                "preset": "empty",
                "tax_regime": "empty",
            },
        ),
        (reverse("compensation:location_list"), "tax_regime", {"tax_regime": "empty"}),
    ]


def test_the_preferences_selects_show_every_choice_whole(demo_page: Any) -> None:
    """The stock price basis read "Assumed price: today's price grown at the growt" at 1280 px;
    the offer form's "Company default / even quarterly", the package form's "Pro-rated by the
    months not served" and a location's "No tax table: the effective tax % as a flat rate"
    were cut off too."""
    page = demo_page
    # The dashboard's own requests end first: a request that overlaps one writing to the
    # shared in-memory test database finds its table locked.
    page.wait_for_load_state("networkidle")
    cut = []
    for language in ("en", "zh-hant"):
        # For the whole site: a cookie set from a page's address holds for its folder only.
        site = "/".join(page.url.split("/")[:3]) + "/"
        page.context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": site}]
        )
        for url, select, only in _select_pages():
            for width in (1280, 390):
                page.set_viewport_size({"width": width, "height": 900})
                response = page.goto(url, wait_until="networkidle")
                assert response is not None and response.ok, (language, url, width, response)
                assert page.locator(f"main select[name={select}]").count() >= 1, (url, select)
                assert page.evaluate("document.documentElement.lang.toLowerCase()") == language, url
                found = page.evaluate(SELECT_CUT_JS, only)
                cut += [f"{language} {url} {width}px: {c}" for c in found]
    page.goto("about:blank")  # no request in flight while the test database is flushed
    assert not cut, "\n".join(cut)
