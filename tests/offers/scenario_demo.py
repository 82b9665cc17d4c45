"""The demo story for negotiation and scenario tests: seed_demo, or its pieces without interviews."""

from __future__ import annotations

import datetime as dt
import importlib.util
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone


def _processes(user: Any, levels: dict[str, Any]) -> dict[str, Any]:
    """Create the interview loops the offers story links to (when interviews has no demo)."""
    from interviews.models import Process, Round

    now = timezone.now()
    meta = Process.objects.create(
        owner=user,
        company=levels["Meta E6"].company,
        role="Software Engineer, ML",
        target_level=levels["Meta E6"],
        offered_level=levels["Meta E5"],
        stage="negotiating",
    )
    for order, signal in enumerate(["strong_hire"] * 4 + ["hire"], start=1):
        Round.objects.create(
            owner=user,
            process=meta,
            order=order,
            scheduled_at=now - dt.timedelta(days=30 - order),
            signal=signal,
        )
    tiktok = Process.objects.create(
        owner=user,
        company=levels["TikTok 2-2"].company,
        role="ML Engineer",
        target_level=levels["TikTok 2-2"],
        stage="onsite",
    )
    Round.objects.create(
        owner=user, process=tiktok, order=1, scheduled_at=now + dt.timedelta(days=9)
    )
    return {"Meta": meta, "TikTok": tiktok}


def seed_demo_user() -> Any:
    """Seed the demo and return the demo user (seed_demo itself once interviews has a demo)."""
    from compensation import demo as compensation_demo

    compensation_demo.seed_reference()
    if importlib.util.find_spec("interviews.demo") is not None:
        call_command("seed_demo", force=True)
        return get_user_model().objects.get(username="demo")
    from offers import demo as offers_demo

    user = get_user_model().objects.create_user("demo", password="offerdesk-demo")
    story = compensation_demo.seed_user(user)
    story["processes"] = _processes(user, story["levels"])
    offers_demo.seed_user(user, story)
    return user
