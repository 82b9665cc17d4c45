"""docs/negotiation.md is the demo's negotiation as the pages write it, read aloud.

For each of the demo's options: the draft messages of the negotiation page (English and
Traditional Chinese), then a counter logged on the log page as a recruiter might give it (on
the first ask the plan sends), then the next drafts. The file is the pages' text: this test
rebuilds it and fails on any difference. After a change to the plan or its words, write the
file again with `make docs-negotiation` (this test, with OFFERDESK_WRITE_DOCS=1), read the diff
as the recruiter would, and commit it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse

from offers import board_cache
from offers.models import NegotiationEntry, Offer
from offers.negotiation import LOG_TOPICS
from tests.rendered_forms import form_values

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[1] / "docs" / "negotiation.md"
# Meta's recruiter answers the stock ask (issue 35's conversation); every other option's first
# ask gets the answer of its kind (else a generic one).
META_COUNTER = ("stock", "Stock stays at USD 720,000; sign-on to USD 70,000.")
COUNTERS = {"remote": "Remote work stays at the team's policy; we can talk again after a year."}
GENERIC = "We cannot move on that; the rest of the offer stands."
HEAD = """# The demo's negotiation, read aloud

What the negotiation page drafts for each of the demo's options on 1 Dec 2026 (the demo's
decision date), in English and in Traditional Chinese, then what it drafts once a counter to its
first ask is logged. Written from the pages by `make docs-negotiation`;
`tests/test_docs_negotiation.py` fails when a page says something else. Read it as the recruiter
who receives each message.
"""


def _fresh_commits() -> None:
    # The demo is seeded inside the test's transaction: run its cache replacements as a commit.
    for entry in connection.run_on_commit:
        if isinstance(entry[1], board_cache._Replace) and not entry[1].done:
            entry[1]()


def _drafts(client, offer) -> tuple[object, list]:
    response = client.get(reverse("offers:negotiation", args=[offer.pk]))
    assert response.status_code == 200
    return response.context["plan"], list(response.context["drafts"])


def _block(title: str, drafts: list) -> list[str]:
    lines = [f"### {title}", ""]
    for draft in drafts:
        lines += [f"{draft.label}:", "", "```text", draft.text.rstrip(), "```", ""]
        if draft.note:
            lines += [f"> {draft.note}", ""]
    return lines


def _counter(client, offer, plan, capture) -> str | None:
    """Log a counter to the plan's first ask to send; return what it said (None: no ask)."""
    if not plan.to_send:
        return None
    ask = plan.to_send[0]
    answer = COUNTERS.get(ask.component, GENERIC)
    if offer.name.startswith("Meta"):
        ask = next(a for a in plan.to_send if a.component == META_COUNTER[0])
        answer = META_COUNTER[1]
    topic = next((t for t, c in LOG_TOPICS.items() if c == ask.component), "other")
    url = reverse("offers:negotiation_log", args=[offer.pk])
    data = form_values(client.get(url).content, action=url, page=url)
    data.update(
        asked_on="2026-11-30",
        topic=topic,
        ask=ask.script or ask.title,
        outcome=NegotiationEntry.Outcome.COUNTERED,
        answered_on="2026-12-01",
        answer=answer,
    )
    with capture(execute=True):
        response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return f"{NegotiationEntry.Topic(topic).label}: “{answer}”"


def negotiation_doc(client, user, capture) -> str:
    _fresh_commits()
    client.force_login(user)
    lines = [HEAD]
    for offer in Offer.objects.filter(owner=user).order_by("name"):
        lines += [f"## {offer.name}", ""]
        plan, drafts = _drafts(client, offer)
        lines += _block("First drafts", drafts)
        said = _counter(client, offer, plan, capture)
        if said is None:
            lines += ["Nothing to ask: no counter to log.", ""]
            continue
        _plan, after = _drafts(client, offer)
        lines += _block(f"After a counter on {said}", after)
    return "\n".join(lines).rstrip() + "\n"


def test_the_docs_drafts_are_the_pages(client, demo_user, django_capture_on_commit_callbacks):
    text = negotiation_doc(client, demo_user, django_capture_on_commit_callbacks)
    if os.environ.get("OFFERDESK_WRITE_DOCS"):
        DOC.write_text(text, encoding="utf-8")
    assert DOC.read_text(encoding="utf-8") == text, (
        "docs/negotiation.md is not what the pages draft: run `make docs-negotiation`"
    )
