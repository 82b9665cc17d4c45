"""The demo's real options grown to a size, and accounts like the demo's: what the benchmarks on
the demo measure at 10 or 50 options, and bench_load's one account per virtual user."""

from __future__ import annotations

import re
from typing import Any

COPY = re.compile(r" \(\d+\)$")  # the name of a copy: "Meta E5 (Menlo Park) (3)"


def grow_demo(user: Any, n: int) -> None:
    """Give the demo user (``seed_demo``) ``n`` options: copies of its leaving options in turn,
    each with its package's sign-ons, grants and refreshers, on a base of its own."""
    from compensation.models import Package
    from offers.models import Offer

    offers = list(Offer.objects.filter(owner=user).order_by("id"))
    leaving = [o.pk for o in offers if o.kind != Offer.Kind.STAY and not COPY.search(o.name)]
    copies = sum(1 for o in offers if COPY.search(o.name))
    for k in range(copies + 1, copies + 1 + n - len(offers)):
        offer = Offer.objects.get(pk=leaving[(k - 1) % len(leaving)])
        package = Package.objects.get(pk=offer.package_id)
        children = [list(package.sign_ons.all()), list(package.grants.all())]
        children.append(list(package.refreshers.all()))
        package.pk = None
        package.is_current_job = False
        package.name = f"{package.name} ({k})"
        package.base += 1000 * k
        package.save()
        for rows in children:
            for row in rows:
                row.pk = None
                row.package = package
                row.save()
        offer.pk = None
        offer.package = package
        offer.name = f"{offer.name} ({k})"
        offer.save()


def demo_accounts(count: int, *, like: str = "demo") -> list[str]:
    """Create ``count`` accounts seeded as ``seed_demo`` seeds the demo (its own story, offers,
    processes and scenarios each), logging in with the password of ``like``; return their
    usernames. Run after ``seed_demo``, whose shared companies and rates they use."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from compensation import demo as compensation_demo
    from interviews import demo as interviews_demo
    from offers import demo as offers_demo

    users = get_user_model()
    password = users.objects.get(username=like).password  # hashed once, not count times
    names = [f"{like}-{n}" for n in range(1, count + 1)]
    with transaction.atomic():
        for name in names:
            user = users.objects.create(username=name, password=password)
            story = compensation_demo.seed_user(user)
            story.update(interviews_demo.seed_user(user, story))
            offers_demo.seed_user(user, story)
    return names
