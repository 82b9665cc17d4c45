"""The demo's real options grown to a size: what the benchmarks on the demo measure at 10 or 50."""

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
