"""Issue 26 on the demo: advice that reads the situation the way the person in it would.

What the recruiter hears (every ask's script and both drafts) holds no rating counts, no No
Hire and no cap below the offer's own terms; an ask the log holds as waiting is not asked
again; stock is asked in the grant's own currency, round; walk-aways and flips are ones a
person can act on; the Chinese drafts are Chinese; the exports' negotiation sections are the
plan.
"""

from __future__ import annotations

import html
import io
import re

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from compensation.models import Company, Level
from offers.board import board_build
from offers.export.comparison import comparison_build
from offers.export.html import html_bytes
from offers.export.xlsx import xlsx_bytes
from offers.logic.answers import WAITING
from offers.logic.ranking import PLAUSIBLE_RAISE_SHARE
from offers.logic.rules.base import DEADLINE, STOCK
from offers.models import Offer
from offers.negotiation import negotiation_plan_view
from offers.verdict import board_verdict

pytestmark = pytest.mark.django_db

SIGNALS = ("Strong Hire", "Lean Hire", "No Hire", "Hire")
NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
# A count of ratings: "five Strong Hire", "out of six rounds", "in the one round".
COUNTED = re.compile(
    rf"\b({'|'.join(NUMBER_WORDS)}|\d+) ({'|'.join(SIGNALS)})\b|out of \w+ rounds|one round",
    re.IGNORECASE,
)
# The same in Traditional Chinese: the signal labels (錄用) and counted rounds (五輪).
COUNTED_ZH = re.compile(r"錄用|[一二三四五六七八九十\d]\s*輪")
MONEY = re.compile(r"\b([A-Z]{3}) ([\d,]+)\b")


@pytest.fixture
def demo(demo_user):
    return demo_user


def _views(user, board=None):
    board = board or board_build(user=user)
    return {
        offer.name: negotiation_plan_view(user=user, offer=offer, board=board)
        for offer in Offer.objects.filter(owner=user)
    }


def _named(views, start):
    return next(view for name, view in views.items() if name.startswith(start))


def _said(view):
    """Return everything a recruiter may hear: each ask's script and both drafts."""
    return [a.script for a in view.plan.asks] + [d.text for d in view.drafts]


def test_no_script_or_draft_counts_ratings_or_says_no_hire(demo):
    for name, view in _views(demo).items():
        for text in _said(view):
            assert "No Hire" not in text, (name, text)
            assert not COUNTED.search(text), (name, text)
        chinese = next(d for d in view.drafts if d.language == "zh-hant")
        assert not COUNTED_ZH.search(chinese.text), (name, chinese.text)
    meta = _named(_views(demo), "Meta").plan
    # The count is kept for the user, with its Strong No Hire.
    assert any("Strong No Hire" in note for note in meta.private_notes)


def test_a_draft_offer_quotes_no_feedback_and_says_it_is_not_in_hand(demo):
    tiktok = _named(_views(demo), "TikTok")
    assert not tiktok.plan.in_hand
    english = next(d for d in tiktok.drafts if d.language == "en")
    assert "feedback" not in english.text and "loop" not in english.text
    assert "not in hand" in english.note
    assert any("not in hand yet" in note for note in tiktok.plan.private_notes)


def test_when_to_send_is_said_in_the_pages_language_for_every_draft(demo):
    # The note is said to the person, outside the draft: on a Chinese page the English
    # draft's note is Chinese too (only the draft itself is English).
    with translation.override("zh-hant"):
        tiktok = _named(_views(demo), "TikTok")
        notes = {d.language: d.note for d in tiktok.drafts}
    assert notes["en"] == notes["zh-hant"] != ""
    assert not re.search(r"[A-Za-z]{2,}", notes["en"]), notes["en"]
    english = next(d for d in tiktok.drafts if d.language == "en")
    assert not re.search(r"[\u4e00-\u9fff]", english.text)  # the draft itself stays English


def test_no_script_states_a_cap_or_figure_below_the_offers_own(demo):
    # TikTok's base is SGD 300,000; its 2-2 band tops out at SGD 250,000.
    tiktok = _named(_views(demo), "TikTok")
    assert tiktok.plan.currency == "SGD"
    base = 300_000
    for text in _said(tiktok):
        assert "capped" not in text and "250,000" not in text, text
        for currency, amount in MONEY.findall(text):
            if currency == "SGD" and "base" in text.lower():
                assert int(amount.replace(",", "")) >= base or "relocation" in text, text


def test_an_ask_waiting_in_the_log_is_not_asked_again(client, demo):
    view = _named(_views(demo), "Meta")
    deadline = next(a for a in view.plan.asks if a.component == DEADLINE)
    assert deadline.status == WAITING and not deadline.state.to_send
    # Asked on 29 Nov (two days before the demo's today) through Chris Alvarez, the recruiter.
    assert "through Chris Alvarez, Recruiter" in deadline.state.note
    assert "waiting for an answer" in deadline.state.note
    assert deadline.state.follow_up_on is not None
    for draft in view.drafts:
        assert deadline.script not in draft.text
        assert "2026-12-15" not in draft.text and "deadline" not in draft.text.lower()
    # The re-level the log holds as refused (with the stock raised) is the next step: thanks,
    # then E6 pay in stock, not the level again.
    stock = next(a for a in view.plan.asks if a.component == STOCK)
    assert stock.state.to_send and stock.status == "next_step"
    assert stock.state.note.startswith("They came back on ")
    assert stock.script.startswith("Thank you for coming back to me on the level.")
    assert "level reviewed" not in stock.script
    client.force_login(demo)
    meta = Offer.objects.get(owner=demo, name__startswith="Meta")
    page = client.get(reverse("offers:negotiation", args=[meta.pk])).content.decode()
    assert 'data-ask-state="waiting"' in page and "Asked, waiting:" in page


def test_stock_for_a_usd_priced_grant_on_an_sgd_offer_is_asked_in_usd_and_round(demo):
    # Listed, TikTok's stock is asked as stock (private, in cash: test_negotiation_within_reach).
    Company.objects.filter(name="TikTok", owner__isnull=True).update(is_private=False)
    plan = _named(_views(demo), "TikTok").plan
    stock = next(a for a in plan.asks if a.component == STOCK)
    assert stock.currency == "USD" and stock.amount % 5_000 == 0
    assert f"Could we add USD {stock.amount:,.0f} a year in stock?" in stock.script
    assert "SGD" not in stock.script
    # Played out in the offer's currency: the same stock at the grant's rate.
    assert stock.offer_amount == pytest.approx(stock.amount / 0.74, rel=0.02)
    for text in _said(_named(_views(demo), "TikTok")):
        for _currency, amount in MONEY.findall(text):
            assert int(amount.replace(",", "")) % 1_000 == 0, text


def test_the_transfers_walk_away_is_at_or_below_its_value_when_it_ranks_first(demo):
    transfer = Offer.objects.get(owner=demo, kind=Offer.Kind.INTERNAL)
    # Today it is second, behind by more than a negotiation can close: no figure above it.
    walk = _named(_views(demo), "Internal transfer").plan.walk_away
    assert walk.current_rank == 2 and walk.value_home is None
    assert "not money" in walk.reason
    # Rated like TikTok on scope, growth and learning it ranks first: its walk-away is where it
    # stops being first, at or below today's value.
    Offer.objects.filter(pk=transfer.pk).update(rating_scope=5, rating_growth=5, rating_learning=5)
    walk = _named(_views(demo), "Internal transfer").plan.walk_away
    assert walk.current_rank == 1
    assert walk.value_home is not None and walk.value_home <= walk.current_value_home


def test_a_co_first_transfer_walks_away_only_below_its_value(demo):
    transfer = Offer.objects.get(owner=demo, kind=Offer.Kind.INTERNAL)
    # One rating step behind TikTok: second, within two points of fit.
    Offer.objects.filter(pk=transfer.pk).update(rating_scope=4, rating_growth=4, rating_learning=3)
    plan = _named(_views(demo), "Internal transfer").plan
    walk = plan.walk_away
    assert walk.current_rank == 2 and walk.rival.startswith("TikTok")
    assert walk.level and walk.value_home is not None
    assert walk.value_home <= walk.current_value_home
    assert not any("short of it" in note for note in plan.private_notes)


def test_no_flip_larger_than_a_negotiation_is_shown_as_an_ask(demo):
    board = board_build(user=demo)
    verdict = board_verdict(board)
    flip = verdict.flip
    value = next(r.comp_value for r in board.ranking if r.key == flip.key)
    if flip.kind == "money":
        assert flip.ask <= PLAUSIBLE_RAISE_SHARE * value
    else:
        assert "paid USD" not in verdict.sentence
    # The transfer would need about half its value: no pay rise is named. Its kept grants'
    # Californian share, taxed by the US apart from Taiwan's top bracket (issue 34), put it
    # one weight change from first: that change is named instead.
    assert "would rank first if it paid" not in verdict.sentence
    assert "would rank first if you raised the weight of compensation" in verdict.sentence


def test_what_missing_remote_weeks_are_worth_is_bounded(demo):
    for name, view in _views(demo).items():
        for note in view.plan.private_notes:
            if "remote" not in note.lower() and "weeks" not in note:
                continue
            for _currency, amount in MONEY.findall(note):
                assert int(amount.replace(",", "")) < 100_000, (name, note)


LATIN = re.compile(r"[A-Za-z][A-Za-z'\-]*")


def test_the_chinese_drafts_hold_no_latin_words_but_proper_names(demo):
    names = set(Company.objects.values_list("name", flat=True))
    codes = set(Level.objects.values_list("code", flat=True))
    for name, view in _views(demo).items():
        chinese = next(d for d in view.drafts if d.language == "zh-hant")
        text = chinese.text
        for proper in sorted(names | codes, key=len, reverse=True):
            text = text.replace(proper, " ")
        text = re.sub(r"\b[A-Z]{3}\b", " ", text)  # ISO 4217 currency codes
        assert not LATIN.findall(text), (name, LATIN.findall(text), chinese.text)
        assert "Internal transfer" not in chinese.text and "Onsite" not in chinese.text


def test_the_exports_negotiation_sections_are_the_plan(demo):
    board = board_build(user=demo, mc_paths=0)
    comparison = comparison_build(user=demo, board=board)
    views = {
        ev.offer.name: negotiation_plan_view(user=demo, offer=ev.offer, board=board)
        for _r, ev in board.ranked
    }
    expected = []
    for name, view in views.items():
        plan = view.plan
        expected += [(name, n, a.title, a.amount) for n, a in enumerate(plan.asks, start=1)]
        expected += [(name, "Background", b.point.title, None) for b in plan.background]
    book = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    sheet = book["Negotiation points"]
    rows = [
        (r[0], r[1], r[2], r[3])
        for r in sheet.iter_rows(min_row=2, values_only=True)
        if r[0] is not None
    ]
    assert rows == expected
    # No money in the background rows: the asks' amounts are the only figures.
    for row in sheet.iter_rows(min_row=2, values_only=True):
        if row[1] == "Background":
            assert row[3] is None and not row[5]
    report = html.unescape(html_bytes(comparison).decode())
    section = report[report.index("Negotiation points") :]
    section = section[: section.index("</section>")]
    for name, view in views.items():
        block = section[section.index(f"<h3>{name}</h3>") :]
        block = block[: block.index("</ul>")]
        asks = re.findall(r"<li data-plan-ask>(.*?)</li>", block, re.S)
        assert len(asks) == len(view.plan.asks), name
        for said, ask in zip(asks, view.plan.asks, strict=True):
            assert ask.title in said
            if ask.amount is not None:
                assert f"{ask.currency} {ask.amount:,.0f}" in said
        points = re.findall(r"<li data-plan-point>(.*?)</li>", block, re.S)
        assert [p.split(":")[0] for p in points] == [
            b.point.title.split(":")[0] for b in view.plan.background
        ]
