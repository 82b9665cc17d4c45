"""Every page of the demo, read as a person reads it (issue 28): in Traditional Chinese no
English words outside names, codes and figures, and every date in the house format of each
language (config/formats/en: 15 Dec 2026, Sat 5 Dec 2026; config/formats/zh_Hant:
2026年11月13日, 2026年12月5日（六）).

The demo is seeded once for the module; each page is fetched once per language, its visible
text extracted (script and style dropped; title, aria-label, placeholder and alt kept, as a
person or a screen reader meets them), and each page's findings are one test.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tests.url_matrix import PUBLIC, all_routes, url_objects

# The module reads the database (its tests only read what the module fixture walked).
pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "zh-hant")


# --- Visible text -------------------------------------------------------------------------

VISIBLE_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
HIDDEN_TAGS = {"script", "style", "template"}
VOID_TAGS = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class VisibleText(HTMLParser):
    """Collect the text a person sees: text nodes and the attributes read out or shown."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0
        self.stack: list[tuple[str, bool]] = []  # open tags, and whether each hides its text
        self.page_language = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.page_language = (values.get("lang") or "").lower()
            return
        # Text the page declares to be in another language (a message drafted for an
        # English-speaking recruiter, say) is read in that language, not this one.
        other_language = bool(
            values.get("lang")
            and self.page_language
            and values["lang"].lower() != self.page_language
        )
        hides = tag in HIDDEN_TAGS or other_language
        if tag not in VOID_TAGS:
            self.stack.append((tag, hides))
        if hides:
            self.hidden += 1
            return
        if self.hidden:
            return
        for name in VISIBLE_ATTRIBUTES:
            if values.get(name):
                self.parts.append(str(values[name]))
        # A button written as an input shows its value.
        if tag == "input" and values.get("type") in ("submit", "button", "reset"):
            self.parts.append(str(values.get("value") or ""))

    def handle_endtag(self, tag: str) -> None:
        if all(open_tag != tag for open_tag, _ in self.stack):
            return  # a void element written as <br/>, or a stray end tag
        while self.stack:
            open_tag, hides = self.stack.pop()
            self.hidden -= hides
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.hidden and data.strip():
            self.parts.append(data)


def visible_text(html: str) -> list[str]:
    """Return the visible pieces of text of an HTML page, whitespace collapsed."""
    parser = VisibleText()
    parser.feed(html)
    parser.close()
    return [" ".join(p.split()) for p in parser.parts if p.strip()]


# --- The pages ----------------------------------------------------------------------------


def _demo_objects(demo: Any) -> dict[str, Callable[[], list[dict[str, Any]]]]:
    """Return, for each page that shows one object, the demo's objects it is walked with.

    The pages that show an object walk every object of the demo (each offer, scenario,
    process...); the forms that edit one walk the first (they show the same labels for all).
    """
    from compensation.models import Band, Company, FxRate, LocationPreset, Package
    from interviews.models import Process, Round, TeamMatch
    from offers.models import NegotiationEntry, Offer, Scenario

    def every(qs: Any) -> Callable[[], list[dict[str, Any]]]:
        return lambda: [{"pk": pk} for pk in qs.order_by("pk").values_list("pk", flat=True)]

    def first(qs: Any) -> Callable[[], list[dict[str, Any]]]:
        return lambda: every(qs)()[:1]

    offers = Offer.objects.filter(owner=demo)
    scenarios = Scenario.objects.filter(owner=demo)
    processes = Process.objects.filter(owner=demo)
    rounds = Round.objects.filter(owner=demo)
    companies = Company.objects.filter(owner=demo)
    packages = Package.objects.filter(owner=demo)
    return {
        "compensation:company_detail": every(companies),
        "compensation:company_edit": first(companies),
        "compensation:band_edit": first(Band.objects.filter(owner=demo)),
        "compensation:fx_edit": first(FxRate.objects.filter(owner=demo)),
        "compensation:location_edit": first(LocationPreset.objects.filter(owner=demo)),
        "compensation:package_detail": every(packages),
        "compensation:package_edit": first(packages),
        "interviews:process_detail": every(processes),
        "interviews:process_edit": first(processes),
        "interviews:round_create": first(processes),
        "interviews:debrief_edit": every(processes),
        "interviews:team_match_create": first(processes),
        "interviews:round_edit": first(rounds),
        "interviews:round_brief": every(rounds),
        "interviews:team_match_edit": first(TeamMatch.objects.filter(owner=demo)),
        "offers:offer_detail": every(offers),
        "offers:offer_edit": first(offers),
        "offers:offer_delete": first(offers),
        "offers:offer_history": every(offers),
        "offers:negotiation": every(offers),
        "offers:negotiation_log": every(offers),
        "offers:negotiation_entry_answer": every(NegotiationEntry.objects.filter(owner=demo)),
        "offers:scenario_detail": every(scenarios),
    }


# Routes that are not a page to read, each with why.
NOT_PAGES = {
    # Files, not pages (the report, an HTML export, is walked as a page).
    "compensation:band_import_example": "a CSV file",
    "interviews:calendar": "an iCalendar file",
    "interviews:calendar_feed": "an iCalendar file",
    "offers:backup_download": "a JSON file",
    "offers:offer_import_columns": "a CSV file",
    "offers:offer_import_template_csv": "a CSV file",
    "offers:offer_import_template_xlsx": "an XLSX file",
    "offers:offer_ledger_csv": "a CSV file",
    "offers:export_job_download": "a file",
    "healthz": "a health check for the load balancer",
    # Actions: POST only, or a GET that redirects.
    "logout": "POST only",
    "set_language": "POST only",
    "offers:export_start": "POST only",
    "offers:scenario_flip": "POST only",
    "offers:scenario_mc_start": "POST only",
    "offers:scenario_mc_cancel": "POST only",
    "offers:scenario_mc_restart": "POST only",
    "offers:export_job_restart": "POST only",
    "offers:scenario_clone": "POST only",
    "offers:scenario_accept": "POST only",
    "offers:scenario_update": "POST only",
    "offers:scenario_mc_status": "an htmx fragment polled while a Monte Carlo runs",
    "interviews:process_move": "POST only",
    "compensation:level_create": "POST only (the form is on the company's page)",
    "offers:revision_restore": "POST only",
    "offers:scenario_create": "POST only",
    # Confirmations of a delete: the same template for every kind of object, walked once
    # through the offer's.
    "compensation:band_delete": "the shared delete confirmation (walked for an offer)",
    "interviews:process_delete": "the shared delete confirmation (walked for an offer)",
    "interviews:round_delete": "the shared delete confirmation (walked for an offer)",
    "interviews:team_match_delete": "the shared delete confirmation (walked for an offer)",
    "offers:scenario_delete": "the shared delete confirmation (walked for an offer)",
    "offers:negotiation_entry_delete": "the shared delete confirmation (walked for an offer)",
    # Jobs: the demo has none; their pages are walked by the export tests.
    "offers:export_job": "the demo has no export or restore job",
    # A reset link's token page: needs a mailed token.
    "password_reset_confirm": "needs a token from a mailed link",
}
# Open pages walked logged out.
ANONYMOUS_PAGES = (
    "login",
    "signup",
    "password_reset",
    "password_reset_done",
    "password_reset_complete",
)

ROUTES = all_routes()


def _page_urls(demo: Any) -> Iterator[tuple[str, str]]:
    """Yield (route name, URL) for every page the demo user can read."""
    objects = _demo_objects(demo)
    for route in ROUTES:
        if route.name in NOT_PAGES or route.name in PUBLIC:
            continue
        if not route.kwargs:
            yield route.name, reverse(route.name)
            continue
        found = objects[route.name]()
        if not found:
            # The demo uses the shared companies, rates and places: one of its own, as the
            # URL matrix builds it, stands for the page.
            found = [url_objects()[route.name](demo)]
        for kwargs in found:
            yield route.name, reverse(route.name, kwargs=kwargs)


def _client(language: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@dataclass(frozen=True)
class Walk:
    """What the walk read: {(language, route): {url: visible text}}, and the demo's own words."""

    pages: dict[tuple[str, str], dict[str, list[str]]]
    data: re.Pattern[str]


@pytest.fixture(scope="module")
def walked(django_db_setup, django_db_blocker) -> Walk:
    """Seed the demo once, read every page in each language."""
    from accounts.reauth import REAUTH_KEY
    from accounts.services import calendar_feed_reset
    from tests.offers.scenario_demo import seed_demo_user

    pages: dict[tuple[str, str], dict[str, list[str]]] = {}
    with django_db_blocker.unblock(), transaction.atomic():
        demo = seed_demo_user()
        calendar_feed_reset(user=demo)  # the calendar page then says since when
        urls = list(_page_urls(demo))
        for language in LANGUAGES:
            client = _client(language)
            client.force_login(demo)
            session = client.session
            session[REAUTH_KEY] = __import__("time").time()  # the report asks for the password
            session.save()
            for name, url in urls:
                response = client.get(url)
                if response.status_code != 200 or not response["Content-Type"].startswith(
                    "text/html"
                ):
                    print(
                        "NOTPAGE",
                        language,
                        name,
                        url,
                        response.status_code,
                        response.get("Content-Type"),
                    )
                    continue
                pages.setdefault((language, name), {})[url] = visible_text(
                    response.content.decode()
                )
            anonymous = _client(language)
            for name in ANONYMOUS_PAGES:
                url = reverse(name)
                response = anonymous.get(url)
                assert response.status_code == 200, (language, url, response.status_code)
                pages[(language, name)] = {url: visible_text(response.content.decode())}
        data = _data_strings(demo)
        transaction.set_rollback(True)
    # Whole words only: "level" (a stored name) leaves "re-levelling" a word to read.
    alternatives = "|".join(re.escape(t) for t in data)
    return Walk(pages, re.compile(rf"(?<![A-Za-z])(?:{alternatives})(?![A-Za-z])"))


# --- Dates --------------------------------------------------------------------------------

MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
FULL_MONTHS = "January|February|March|April|June|July|August|September|October|November|December"
WEEKDAYS = "Mon|Tue|Wed|Thu|Fri|Sat|Sun"
# Forms no page writes in either language.
OTHER_DATES = {
    "ISO 2026-12-15": re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),
    "12/15/2026 or 2026/12/15": re.compile(r"\b\d{1,2}/\d{1,2}/\d{4}\b|\b\d{4}/\d{1,2}/\d{1,2}\b"),
    "Dec 15, Dec. 15, 2026": re.compile(rf"\b(?:{MONTHS})[a-z]*\.? \d{{1,2}}\b(?!:)"),
    "a.m./p.m.": re.compile(r"\b[ap]\.m\."),
}
# English: 15 Dec 2026, 15 Dec (MONTH_DAY_FORMAT), Dec 2026, Sat 5 Dec 2026; never the month
# written out nor a weekday without its year.
ENGLISH_OTHER_DATES = {
    "15 December, December 2026": re.compile(
        rf"\d{{1,2}} (?:{FULL_MONTHS})\b|\b(?:{FULL_MONTHS}) \d"
    ),
    "Sat 5 Dec (no year)": re.compile(
        rf"\b(?:{WEEKDAYS})[a-z]*,? \d{{1,2}} (?:{MONTHS})\b(?! \d{{4}})"
    ),
}
# Traditional Chinese: 2026年11月13日, 11月13日, 2026年12月5日（六）; never an English order with
# Chinese month names, nor an English month.
CHINESE_OTHER_DATES = {
    "13 十一月 2026": re.compile(r"\d{1,2} ?[一二三四五六七八九十]+月"),
    "English month": re.compile(rf"\b\d{{1,2}} (?:{MONTHS})\b|\b(?:{MONTHS}) \d{{1,4}}\b"),
}
# Pages that show a date in another form on purpose, with why.
DATE_EXCEPTIONS: dict[str, dict[str, str]] = {
    # The column guide shows what to type in the file: the import reads ISO dates.
    "offers:offer_import": {"ISO 2026-12-15": "the file's own date format, typed by the person"},
}


def date_findings(language: str, name: str, parts: list[str]) -> list[str]:
    """Return each date written in a form the language does not use, with its form."""
    patterns = dict(OTHER_DATES)
    patterns.update(ENGLISH_OTHER_DATES if language == "en" else CHINESE_OTHER_DATES)
    allowed = DATE_EXCEPTIONS.get(name, {})
    return [
        f"{form}: …{text[max(0, m.start() - 40) : m.end() + 20]}…"
        for text in parts
        for form, pattern in patterns.items()
        if form not in allowed
        for m in pattern.finditer(text)
    ]


# --- English words in Traditional Chinese -------------------------------------------------

# Words a Traditional Chinese page keeps in Latin letters, each with why.
LATIN_WORDS = {
    "Offerdesk": "the product's name",
    "English": "the language picker names each language in its own words",
    # Not "Offer": the catalogue says 錄取通知 for an offer everywhere (issue 35).
    # Abbreviations read as they are in Taiwan.
    "ISO": "ISO 4217, the standard's name",
    "IANA": "the time zone database's name",
    "CSV": "a file type",
    "JSON": "a file type",
    "XLSX": "a file type",
    "xlsx": "a file extension",
    "csv": "a file extension",
    "json": "a file extension",
    "ics": "a file extension",
    "PDF": "a file type",
    "Ctrl": "a key on the keyboard",
    "P": "a key on the keyboard (Ctrl+P)",
    "UTC": "a time standard",
    "DST": "daylight saving time, as Taiwan abbreviates it too",
    "YA": "Singapore's Year of Assessment, as IRAS writes it",
    "CPF": "Singapore's Central Provident Fund, as it is called in Singapore",
    "MPF": "Hong Kong's Mandatory Provident Fund",
    "RSU": "restricted stock units, as Taiwan's tech industry says",
    "CI": "continuous integration, as Taiwan's engineers say (beside 持續整合)",
    "GPU": "a graphics processor, as Taiwan says",
    "LLM": "a large language model, as Taiwan's engineers say (beside 大型語言模型)",
    "TC": "total compensation, as Taiwan's tech industry says",
    "Monte": "Monte Carlo, a method's name",
    "Carlo": "Monte Carlo, a method's name",
    "Excel": "a program's name",
    "HTML": "a file type",
    "MB": "a unit",
    "UTF": "UTF-8, an encoding's name",
    "pandas": "a library's name",
}
LATIN_RUN = re.compile(r"[A-Za-z]+")
CODES = (
    re.compile(r"\b[A-Z]{1,4}\d+(?:-\d+)?\b"),  # levels: E5, L5, ICT3
    re.compile(r"\b[A-Z][A-Za-z]+(?:/[A-Za-z_+-]+)+\b"),  # time zones: Asia/Taipei
    re.compile(r"\b[A-Z][a-z]+(?:_[A-Z][a-z]+)+\b"),  # a zone's city: Los_Angeles
    re.compile(r"https?://\S+"),  # links
    re.compile(r"(?<=\d)[KMkm]\b"),  # figures: 400K, 1M
)
# English words still on a Chinese page, by page: each a leftover to translate, with what it
# is. The walk fails on any other word, so nothing new joins them.
KNOWN_ENGLISH: dict[str, dict[str, str]] = {}
# Pages that show codes on purpose: a file's column names and choice values, typed there.
CODE_PAGES = {
    "offers:export": "the JSON file's own keys (schema_version)",
    "offers:offer_import": "the file's columns and codes, typed by the person",
    "compensation:band_import": "the file's columns and codes, typed by the person",
}


def _data_strings(demo: Any) -> list[str]:
    """Return every text the demo user (or shared reference data) stored: names, notes..."""
    from django.apps import apps
    from django.db import models

    texts: set[str] = {demo.username}
    for model in apps.get_models():
        if model._meta.app_label not in ("accounts", "compensation", "interviews", "offers"):
            continue
        fields = [
            f.name
            for f in model._meta.get_fields()
            if isinstance(f, (models.CharField, models.TextField, models.JSONField))
            and not f.choices
        ]
        owner = {f.name for f in model._meta.get_fields()} & {"owner"}
        if not fields:
            continue
        rows = model.objects.all()
        if owner:
            rows = rows.filter(models.Q(owner=demo) | models.Q(owner__isnull=True))
        for values in rows.values_list(*fields):
            for text in (t for v in values for t in _strings(v)):
                # A list typed in one field (tags, questions) is shown an item at a time.
                pieces = [text, *re.split(r"\s*[,;#\n]\s*", text)]
                # A sentence quoting it ends it in the page's full stop ("…four years。").
                pieces += [p.strip().rstrip(".") for p in pieces]
                texts.update(p.strip() for p in pieces if LATIN_RUN.search(p))
    # The companies the vesting presets are named after ("Nvidia (2025): 40/30/20/10").
    from compensation.vesting_labels import COMPANIES

    texts.update(COMPANIES.values())
    return sorted(texts, key=len, reverse=True)


def _strings(value: Any) -> Iterator[str]:
    """Yield every string of a stored value (a JSON field's lists and objects included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def latin_findings(
    name: str, parts: list[str], data: re.Pattern[str], codes: frozenset[str]
) -> list[str]:
    """Return the Latin words of a Chinese page that are neither data, a code nor allowed."""
    found = []
    for text in parts:
        rest = data.sub(" ", text)
        for pattern in CODES:
            rest = pattern.sub(" ", rest)
        for m in LATIN_RUN.finditer(rest):
            word = m.group(0)
            if word in LATIN_WORDS or word in codes:
                continue
            if name in CODE_PAGES and (word.islower() or word.isupper()):
                continue
            found.append(f"{word}: …{rest[max(0, m.start() - 30) : m.end() + 30]}…")
    return found


# --- The tests ----------------------------------------------------------------------------

PAGE_ROUTES = sorted(
    {r.name for r in ROUTES if r.name not in NOT_PAGES and r.name not in PUBLIC}
    | set(ANONYMOUS_PAGES)
)


def test_every_route_is_walked_or_said_not_to_be_a_page():
    names = {r.name for r in ROUTES}
    assert sorted(set(NOT_PAGES) - names) == [], "NOT_PAGES names a route that no longer exists"
    objects = _demo_objects(None)
    with_objects = [r.name for r in ROUTES if r.kwargs and r.name in PAGE_ROUTES]
    assert sorted(set(with_objects) - set(objects)) == []


@pytest.mark.parametrize("name", PAGE_ROUTES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_date_reads_the_languages_one_way(walked, language, name):
    pages = walked.pages.get((language, name))
    assert pages, f"{name} was not walked in {language}"
    if language != "en":
        # A name the demo stored in English ("Deadline too early: extend the deadline to
        # 15 Dec 2026") is the person's own words: it is not read as a date of this page.
        pages = {url: [walked.data.sub(" ", t) for t in parts] for url, parts in pages.items()}
    found = {url: date_findings(language, name, parts) for url, parts in pages.items()}
    assert {url: f for url, f in found.items() if f} == {}


@pytest.mark.parametrize("name", PAGE_ROUTES)
def test_chinese_pages_have_no_english_words(walked, name):
    from compensation.engine.currencies import ISO_4217

    pages = walked.pages.get(("zh-hant", name))
    assert pages, f"{name} was not walked"
    known = KNOWN_ENGLISH.get(name, {})
    found = {
        url: [
            f
            for f in latin_findings(name, parts, walked.data, ISO_4217)
            if f.split(":")[0] not in known
        ]
        for url, parts in pages.items()
    }
    assert {url: f for url, f in found.items() if f} == {}
