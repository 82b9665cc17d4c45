"""Words, dates and numbers (issue 28): one date style per language, generated sentences
translated, the catalogue's Chinese punctuation, the report's time, the clocks sentence."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from compensation.models import Package
from offers.models import NegotiationEntry, Offer
from offers.templatetags.offerdesk import basis_words

pytestmark = pytest.mark.django_db

PO = Path(__file__).resolve().parents[2] / "locale" / "zh_Hant" / "LC_MESSAGES" / "django.po"
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# 12/15/2026, Dec. 15, 2026, December 15, 2026: the American forms the house style replaced.
US_DATE = re.compile(
    r"\b\d{1,2}/\d{1,2}/\d{4}\b|\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)"
    r"[a-z]*\.? \d{1,2}, \d{4}\b"
)
# "13 十一月 2026": an English order with Chinese month names.
ZH_WORD_DATE = re.compile(r"\d{1,2} [一二三四五六七八九十]+月 \d{4}")
ISO_INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


@pytest.fixture
def demo(demo_user):
    return demo_user


@pytest.fixture
def demo_client(client, demo, reauth):
    from accounts.services import calendar_feed_reset

    client.force_login(demo)
    calendar_feed_reset(user=demo)  # the calendar page then says since when, with a time
    return reauth(client)  # the report asks for the password


def _zh(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    return client


def _pages(demo) -> list[str]:
    meta = Offer.objects.get(owner=demo, name__startswith="Meta")
    return [
        reverse("offers:dashboard"),
        reverse("offers:offer_list"),
        reverse("offers:offer_detail", args=[meta.pk]),
        reverse("offers:negotiation", args=[meta.pk]),
        reverse("offers:negotiation_log", args=[meta.pk]),
        reverse("offers:timeline"),
        reverse("offers:export_report"),
        reverse("interviews:calendar_settings"),
        reverse("compensation:package_detail", args=[meta.package_id]),
    ]


def test_english_pages_write_every_date_one_way(demo_client, demo):
    for url in _pages(demo):
        response = demo_client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        assert not US_DATE.findall(body), (url, US_DATE.findall(body)[:3])
        assert "p.m." not in body and "a.m." not in body, url
    # The house format is on them: a negotiation entry's day as "20 Nov 2026".
    entry = NegotiationEntry.objects.filter(owner=demo).order_by("asked_on").first()
    log = demo_client.get(reverse("offers:negotiation_log", args=[entry.offer_id])).content
    assert entry.asked_on.strftime("%-d %b %Y").encode() in log


def test_chinese_pages_write_dates_as_year_month_day(demo_client, demo):
    _zh(demo_client)
    entry = NegotiationEntry.objects.filter(owner=demo).order_by("asked_on").first()
    for url in _pages(demo):
        response = demo_client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        assert not ZH_WORD_DATE.findall(body), (url, ZH_WORD_DATE.findall(body)[:3])
        assert not US_DATE.findall(body), url
    log = demo_client.get(reverse("offers:negotiation_log", args=[entry.offer_id])).content
    day = entry.asked_on
    assert f"{day.year}年{day.month}月{day.day}日".encode() in log


def test_vesting_descriptions_are_translated_on_the_package_page_and_in_the_report(
    demo_client, demo
):
    meta = Offer.objects.get(owner=demo, name__startswith="Meta")
    english = demo_client.get(reverse("compensation:package_detail", args=[meta.package_id]))
    assert "per year, vesting quarterly on 15 Feb/May/Aug/Nov, no cliff" in english.content.decode()
    _zh(demo_client)
    page = demo_client.get(reverse("compensation:package_detail", args=[meta.package_id]))
    report = demo_client.get(reverse("offers:export_report"))
    for body in (page.content.decode(), report.content.decode()):
        assert "per year, vesting" not in body and "no cliff" not in body
        assert "每季歸屬，於每年二月/五月/八月/十一月 15 日，無等待期" in body


def test_the_basis_of_a_logged_value_follows_the_readers_language(demo_client, demo):
    entry = NegotiationEntry.objects.filter(owner=demo).exclude(value_basis="").first()
    assert entry is not None
    url = reverse("offers:negotiation_log", args=[entry.offer_id])
    assert "-year value from" in demo_client.get(url).content.decode()
    body = _zh(demo_client).get(url).content.decode()
    assert "-year value from" not in body and "after tax" not in body
    assert basis_words(entry.value_basis) not in ("", entry.value_basis)


def test_an_entry_logged_before_keeps_its_stored_words(demo):
    entry = NegotiationEntry.objects.filter(owner=demo).first()
    entry.value_basis = "4-year value from 1 Dec 2026 · USD · after tax"
    assert basis_words(entry.value_basis) == entry.value_basis


def _msgstrs() -> list[tuple[int, str]]:
    """Return each live msgstr of the catalogue (continuation lines joined) with its line."""
    lines = PO.read_text(encoding="utf-8").split("\n")
    found: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        match = re.match(r'^msgstr(?:\[\d+\])? "(.*)"$', lines[i])
        if not match:
            i += 1
            continue
        start, parts = i + 1, [match.group(1)]
        i += 1
        while i < len(lines) and lines[i].startswith('"'):
            parts.append(lines[i][1:-1])
            i += 1
        found.append((start, "".join(parts).replace("\\n", "\n")))
    return found


def test_chinese_sentences_end_with_full_width_punctuation_and_say_nin():
    found = _msgstrs()
    assert len(found) > 1000
    chinese = [(n, t) for n, t in found if CJK.search(t)]
    ends_ascii_stop = [(n, t) for n, t in chinese if t.rstrip().endswith(".")]
    ends_ascii_mark = [(n, t) for n, t in chinese if re.search(r"[\u3400-\u9fff][,;:]$", t)]
    informal = [(n, t) for n, t in chinese if "你" in t]
    assert ends_ascii_stop == []
    assert ends_ascii_mark == []
    assert informal == []


def test_the_report_says_when_it_was_made_in_the_users_zone(demo_client, demo):
    body = demo_client.get(reverse("offers:export_report")).content.decode()
    head = body[: body.index("Illustrative projections")]
    assert not ISO_INSTANT.search(head)
    zone = demo.preferences.home_timezone
    assert f"({zone})" in head
    # 24-hour time on the user's clock, the house date before it: "1 Dec 2026 14:51".
    assert re.search(r"generated \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} \(", head)


def test_the_import_help_names_the_page_as_the_menu_does(demo):
    from django.utils import translation

    from offers.import_columns import column_guide

    words = " ".join(str(v) for row in column_guide(demo) for v in row.values())
    assert "Places page" not in words
    assert "(Locations page)" in words
    with translation.override("zh-hant"):
        words = " ".join(str(v) for row in column_guide(demo) for v in row.values())
    assert "「地點」頁面" in words  # the menu's own word for the page


def _offer_page(client, offer) -> str:
    return client.get(reverse("offers:offer_detail", args=[offer.pk])).content.decode()


def test_the_clocks_sentence_reads_naturally(demo_client, demo):
    assert demo.preferences.home_timezone == "Asia/Taipei"
    taipei = Offer.objects.get(owner=demo, name__startswith="Internal transfer: Northwind Taipei")
    meta = Offer.objects.get(owner=demo, name__startswith="Meta")
    same = _offer_page(demo_client, taipei)
    assert "the clocks are the same all year" in same and "0 to 0" not in same
    # Menlo Park is 16 hours behind Taipei in winter, 15 in summer.
    assert "the clocks differ by 15 to 16 hours over the year (DST)" in _offer_page(
        demo_client, meta
    )


def test_a_gap_that_never_changes_is_said_once(demo_client, demo):
    taipei = Offer.objects.get(owner=demo, name__startswith="Internal transfer: Northwind Taipei")
    Offer.objects.filter(pk=taipei.pk).update(work_timezone="UTC")  # 8 hours all year
    page = _offer_page(demo_client, taipei)
    assert "the clocks differ by 8 hours all year" in page and "8 to 8" not in page


def test_dates_never_go_through_an_explicit_format_in_templates():
    root = Path(__file__).resolve().parents[2] / "templates"
    explicit = [
        (str(p.relative_to(root)), m.group(0))
        for p in [*root.rglob("*.html"), *root.rglob("*.txt")]  # pages and emails
        for m in re.finditer(r'\|date:["\']([^"\']+)["\']', p.read_text(encoding="utf-8"))
        if not m.group(1).endswith("_FORMAT") and m.group(1) not in ("c", "D H:i")
    ]
    assert explicit == []


def test_a_day_reads_the_house_way(demo):
    from django.utils import formats, translation

    day = dt.date(2026, 11, 13)
    with translation.override("en"):
        assert formats.date_format(day, "DATE_FORMAT") == "13 Nov 2026"
        assert formats.date_format(day, "SHORT_DATE_FORMAT") == "13 Nov 2026"
    with translation.override("zh-hant"):
        assert formats.date_format(day, "DATE_FORMAT") == "2026年11月13日"
        assert formats.date_format(day, "SHORT_DATE_FORMAT") == "2026年11月13日"
    assert Package.objects.filter(owner=demo).exists()
