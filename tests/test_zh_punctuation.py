"""Traditional Chinese punctuation on every page and in every draft (issue 35, item 9).

Taiwan writes Chinese with full-width punctuation (，。：；！？（）「」) and a day with its year
and weekday as 2026年12月9日（三）. This walks every page of the demo in zh-Hant (the walk of
tests/test_page_walk.py: the visible text of each page, the zh-Hant draft messages of every
negotiation page included; text marked as another language, such as the English draft, is
skipped) and the zh-Hant drafts of docs/negotiation.md (the drafts after a logged counter, which
tests/test_docs_negotiation.py proves are the pages'), and refuses, in that text:

1. a half-width , . : ; ! ? ( ) whose nearest character before it, spaces skipped, is a Han
   character ("稅前 (", "股票).", "期限:"), except a dot that starts a file's extension
   ("單一 .ics 檔");
2. a half-width , : ; ! ? ( ) whose nearest character after it, spaces skipped, is a Han
   character ("( 目標", ") 的", ", 以及"); a full stop before Han is left to rule 3, since a
   list's "1. 我" is how Taiwan numbers a list too;
3. a half-width full stop that ends a Chinese sentence after a figure, a code or a name
   ("…USD 240,000." at the end of the text or before more Chinese), except a list's number
   ("1. ", "2. " at the start or after a full-width mark);
4. a Western quotation mark “ ” ‘ ’ (Chinese text quotes with 「」);
5. a day with its weekday but not its year ("12月9日（三）").

Not refused, because they are not punctuation of the Chinese sentence: the marks inside a figure
(1,000; 3.5; 14:30; UTC+8), inside a code, a URL or a file name, and the demo person's own words
(names, notes, logged answers: each replaced by an "X" before the check, as the page walk
removes them, so that a piece cut at a comma leaves no stray mark; the marks a template puts
around them are still read: "選擇 X." and "稅前 (X)" are refused).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_page_walk import PAGE_ROUTES, walked  # noqa: F401 (the walk's fixture)

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[1] / "docs" / "negotiation.md"
HAN = r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
# A list's number: at the start of a text, a line, or after a full-width mark.
LIST_NUMBER = re.compile(r"(?:^|(?<=\n)|(?<=[。？！：；」）]\s))\s*\d{1,2}\.(?=\s)")
REFUSED = {
    "half-width mark after Chinese": re.compile(rf"{HAN}[ \t]*(?:[,:;!?()]|\.(?![A-Za-z0-9]))"),
    "half-width mark before Chinese": re.compile(rf"[,:;!?()][ \t]*{HAN}"),
    "half-width full stop ending a Chinese sentence": re.compile(
        rf"(?<=[0-9A-Za-z%])\.(?:[ \t]*$|[ \t]*\n|[ \t]+(?={HAN}))", re.M
    ),
    "Western quotation mark": re.compile(r"[“”‘’]"),
    "weekday date without its year": re.compile(
        r"(?<![年\d])\d{1,2}月\d{1,2}日\s*[（(](?:星期)?[一二三四五六日天][）)]"
    ),
}


def punctuation_findings(text: str) -> list[str]:
    """Return each refused mark of a Chinese text, with its rule and its context."""
    if not re.search(HAN, text):
        return []
    text = LIST_NUMBER.sub(lambda m: m.group(0)[:-1] + "#", text)  # "1." -> "1#"
    return [
        f"{rule}: …{text[max(0, m.start() - 25) : m.end() + 25]}…"
        for rule, pattern in REFUSED.items()
        for m in pattern.finditer(text)
    ]


def test_the_rules_refuse_what_they_say_and_nothing_else():
    refused = [
        "金額差距： USD 240,000 4 年合計，稅前 (目標職級的股票).",
        "截止日: 2026年12月15日",
        "我需要遠端工作, 以及",
        "請回覆 USD 5,000.",
        "謝謝您回覆我關於“股票”的問題。",
        "12月9日 (星期三)",
        "12月9日（三）",
    ]
    kept = [
        "金額差距：4 年合計 USD 240,000（稅前，目標職級的股票）。",
        "1. 我每年需要從臺北（UTC+8）遠端工作 8 週。\n2. 離開目前的工作。",
        "約 3.5 年，每年 USD 1,000，14:30 開始。 2. 第二點",
        "2026年12月9日（三）14:00",
        "Stock stays at USD 720,000; sign-on to USD 70,000.",  # English: not read
        "請以 Ctrl+P 列印，或下載 report.html 檔。",
        "詳見 https://example.com/a.b?c=1,2 的說明，金額以 USD 計。",
    ]
    assert [t for t in refused if not punctuation_findings(t)] == []
    assert {t: punctuation_findings(t) for t in kept if punctuation_findings(t)} == {}


@pytest.mark.parametrize("name", PAGE_ROUTES)
def test_chinese_pages_use_full_width_punctuation(walked, name):  # noqa: F811
    pages = walked.pages.get(("zh-hant", name))
    assert pages, f"{name} was not walked"
    found = {
        url: [f for part in parts for f in punctuation_findings(walked.data.sub("X", part))]
        for url, parts in pages.items()
    }
    assert {url: f for url, f in found.items() if f} == {}


def _doc_chinese_drafts() -> list[tuple[str, str]]:
    """Return (option and moment, text) of each zh-Hant draft of docs/negotiation.md."""
    drafts, where, lines = [], "", DOC.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        if line.startswith("## "):
            option = line[3:]
        elif line.startswith("### "):
            where = f"{option} / {line[4:]}"
        elif line == "繁體中文:" and lines[i + 2] == "```text":
            end = lines.index("```", i + 3)
            drafts.append((where, "\n".join(lines[i + 3 : end])))
    return drafts


def test_the_docs_chinese_drafts_use_full_width_punctuation():
    drafts = _doc_chinese_drafts()
    assert len(drafts) >= 8  # five options, first drafts and after a counter
    found = {where: punctuation_findings(text) for where, text in drafts}
    assert {where: f for where, f in found.items() if f} == {}


def test_a_tax_column_says_what_it_holds(walked):  # noqa: F811
    """Amounts of tax are 稅額, a place's rate 稅率, the report's rule 稅制 (issue 35)."""

    def headers(name: str) -> set[str]:
        pages = walked.pages[("zh-hant", name)].values()
        return {part for parts in pages for part in parts if part in ("稅額", "稅率", "稅制")}

    assert headers("offers:offer_detail") == {"稅額"}  # the yearly table and the ledger
    assert headers("offers:offer_compare") == {"稅額"}
    assert headers("compensation:location_list") == {"稅率"}
    assert headers("offers:export_report") == {"稅制"}


# An amount a year in English order: "USD 240,000 每年", "USD 60,000 /年" (Taiwan: 每年 USD 240,000).
AMOUNT_THEN_YEAR = re.compile(r"\b[A-Z]{3} [\d,.]+ ?(?:/ ?年|每年)")


def test_an_amount_a_year_reads_in_chinese_order(walked):  # noqa: F811
    found = {
        url: AMOUNT_THEN_YEAR.findall(" ".join(parts))
        for (language, _name), pages in walked.pages.items()
        if language == "zh-hant"
        for url, parts in pages.items()
    }
    assert {url: f for url, f in found.items() if f} == {}
    # Meta's target base: the term, then the amount a year.
    plans = walked.pages[("zh-hant", "offers:negotiation")].values()
    assert any(
        parts[i : i + 2] == ["底薪", "每年 USD 240,000"]
        for parts in plans
        for i in range(len(parts))
    )
