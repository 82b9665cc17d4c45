"""The interface in Traditional Chinese: navigation and headings of every main page are translated."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import NoReverseMatch, resolve, reverse
from django.utils import translation

ROOT = Path(__file__).resolve().parent.parent
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# Codes that stay as they are in any language: currencies, IANA zones, percentiles, level codes.
CODES = re.compile(
    r"\b[A-Z]{3}\b|\b[A-Z][a-z]+/[A-Za-z_]+\b|\bP\d{1,2}\b|\b[A-Z]{1,4}\d+\b|\b\d+-\d+\b|\.ics\b"
)


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class HeadingParser(HTMLParser):
    """Collect the text of h1, h2 and of the links in nav.mainnav."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []
        self._stack: list[list] = []  # [tag, text parts]
        self._in_mainnav = 0
        self._tags: list[tuple[str, bool]] = []  # open tags, and whether each is rule output

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag not in VOID:
            self._tags.append((tag, "data-rule" in attributes))
        if tag == "nav" and "mainnav" in classes:
            self._in_mainnav = 1
        elif tag == "nav" and self._in_mainnav:
            self._in_mainnav += 1
        if tag in ("h1", "h2") or (tag == "a" and self._in_mainnav):
            self._stack.append(["nav a" if tag == "a" else tag, []])

    def handle_endtag(self, tag: str) -> None:
        while self._tags:
            if self._tags.pop()[0] == tag:
                break
        if tag == "nav" and self._in_mainnav:
            self._in_mainnav -= 1
        if self._stack and (
            tag == self._stack[-1][0] or (tag == "a" and self._stack[-1][0] == "nav a")
        ):
            name, parts = self._stack.pop()
            self.found.append((name, " ".join("".join(parts).split())))

    def handle_data(self, data: str) -> None:
        for entry in self._stack:
            entry[1].append(data)


def headings(html: str) -> list[tuple[str, str]]:
    parser = HeadingParser()
    parser.feed(html)
    return parser.found


def data_names(user) -> set[str]:
    """Return the names the user (or the shared reference data) entered: they stay as typed."""
    from compensation.models import Company, Level, LocationPreset, Package
    from interviews.models import Process
    from offers.models import Offer

    names = {"Offerdesk"}
    names |= set(Company.objects.values_list("name", flat=True))
    names |= set(Company.objects.values_list("ticker", flat=True))
    names |= set(LocationPreset.objects.values_list("name", flat=True))
    names |= set(Package.objects.filter(owner=user).values_list("name", flat=True))
    names |= set(Level.objects.values_list("code", flat=True))
    names |= set(Level.objects.values_list("title", flat=True))
    names |= set(Offer.objects.filter(owner=user).values_list("name", flat=True))
    for role, team in Process.objects.filter(owner=user).values_list("role", "team"):
        names |= {role, team}
    try:
        from offers.models import Scenario

        names |= set(Scenario.objects.filter(owner=user).values_list("name", flat=True))
    except ImportError:  # pragma: no cover
        pass
    return {n for n in names if n}


def untranslated(text: str, names: set[str]) -> bool:
    """Return True when a text has no CJK and is more than data, codes and punctuation."""
    if not text or CJK.search(text):
        return False
    rest = text
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    rest = CODES.sub(" ", rest)
    return bool(re.search(r"[A-Za-z]{2,}", rest))


def built(name: str, **kwargs) -> str | None:
    """Return the URL of a page that exists (not a placeholder pointing at the dashboard)."""
    try:
        url = reverse(name, kwargs=kwargs or None)
    except NoReverseMatch:
        return None
    if name != "offers:dashboard" and resolve(url).func.__name__ == "dashboard":
        return None
    return url


@pytest.fixture
def demo(db, client):
    from django.contrib.auth import get_user_model

    call_command("seed_demo", force=True, stdout=io.StringIO())
    user = get_user_model().objects.get(username="demo")
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    return user


def main_pages(user) -> list[str]:
    from compensation.models import Company
    from interviews.models import Process
    from offers.models import Offer

    offer = Offer.objects.filter(owner=user).order_by("pk").first()
    process = Process.objects.filter(owner=user).order_by("pk").first()
    company = Company.objects.order_by("pk").first()
    candidates = [
        ("offers:dashboard", {}),
        ("offers:offer_list", {}),
        ("offers:offer_detail", {"pk": offer.pk}),
        ("offers:offer_create", {}),
        ("offers:offer_compare", {}),
        ("offers:preferences", {}),
        ("offers:trash", {}),
        ("interviews:board", {}),
        ("interviews:process_detail", {"pk": process.pk}),
        ("interviews:analytics", {}),
        ("interviews:question_log", {}),
        ("compensation:company_list", {}),
        ("compensation:company_detail", {"pk": company.pk}),
        ("compensation:package_list", {}),
        ("compensation:package_detail", {"pk": offer.package_id}),
        ("compensation:fx_list", {}),
        ("compensation:location_list", {}),
        ("offers:scenario_list", {}),
        ("offers:negotiation", {"pk": offer.pk}),
        ("offers:export", {}),
    ]
    try:
        from offers.models import Scenario

        scenario = Scenario.objects.filter(owner=user).order_by("pk").first()
        if scenario is not None:
            candidates.append(("offers:scenario_detail", {"pk": scenario.pk}))
    except ImportError:  # pragma: no cover
        pass
    return [url for name, kw in candidates if (url := built(name, **kw))]


@pytest.mark.django_db
def test_main_pages_in_traditional_chinese_have_no_english_headings(demo, client):
    names = data_names(demo)
    problems = []
    pages = main_pages(demo)
    assert len(pages) >= 11
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert '<html lang="zh-Hant">' in html, url
        found = headings(html)
        assert any(kind == "nav a" for kind, _ in found), f"{url}: no nav.mainnav links"
        problems += [
            f"{url} <{kind}> {text!r}" for kind, text in found if untranslated(text, names)
        ]
    assert not problems, "untranslated headings:\n" + "\n".join(problems)


@pytest.mark.django_db
def test_login_page_in_traditional_chinese(client):
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="zh-Hant,zh;q=0.9")
    html = response.content.decode()
    assert "登入" in html
    assert not [t for _, t in headings(html) if untranslated(t, {"Offerdesk"})]


@pytest.mark.django_db
def test_switching_language_through_set_language(client_alice):
    response = client_alice.post(
        reverse("set_language"), {"language": "zh-hant", "next": reverse("offers:dashboard")}
    )
    assert response.status_code == 302
    page = client_alice.get(reverse("offers:dashboard")).content.decode()
    assert "儀表板" in page and "您的選項排名" in page
    client_alice.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "Your options, ranked" in client_alice.get(reverse("offers:dashboard")).content.decode()


def test_numbers_and_dates_follow_the_locale():
    from datetime import date

    from django.utils import formats

    from offers.templatetags.offerdesk import money

    with translation.override("zh-hant"):
        assert formats.date_format(date(2026, 12, 8), "DATE_FORMAT") == "2026年12月8日"
        assert money(1234567, "SGD") == "SGD 1,234,567"
    with translation.override("en"):
        assert formats.date_format(date(2026, 12, 8), "DATE_FORMAT") == "8 Dec 2026"


def test_compiled_catalogue_is_present_and_complete():
    """A clean clone works without gettext: the .mo sits next to a fully translated .po."""
    po = ROOT / "locale" / "zh_Hant" / "LC_MESSAGES" / "django.po"
    mo = po.with_suffix(".mo")
    assert mo.exists() and mo.stat().st_size > 10_000
    text = po.read_text(encoding="utf-8")
    entries = text.split("\n\n")[1:]
    fuzzy = [e for e in entries if "#, fuzzy" in e and not e.startswith("#~")]
    assert not fuzzy, f"{len(fuzzy)} fuzzy entries"
    with translation.override("zh-hant"):
        assert translation.gettext("Dashboard") == "儀表板"
        assert translation.gettext("Scenarios") == "情境"
        assert translation.gettext("Export") == "匯出"
