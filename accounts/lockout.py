"""Log-in lock-out with two limits: a username at one address, and an address alone.

django-axes counts failures per set of `AXES_LOCKOUT_PARAMETERS` and holds them all to one
`AXES_FAILURE_LIMIT`. Here the username+address pair keeps that limit (5), and the address alone,
whatever usernames it tries, gets its own higher one, `AXES_ADDRESS_FAILURE_LIMIT` (20): someone
spraying passwords over many accounts from one address is stopped, while people sharing an
office's address do not lock each other out with a few typos.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit, get_lockout_parameters
from django.conf import settings
from django.db.models import Sum

ADDRESS_ALONE = ("ip_address", ["ip_address"], ("ip_address",))


class TwoLimitHandler(AxesDatabaseHandler):
    """axes' database handler with a limit for each set of lock-out parameters."""

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        """Return the pair's failures, or the pair's limit once any set has reached its own.

        axes locks when this reaches `AXES_FAILURE_LIMIT` (the pair's limit): an address at its
        own limit reports that much, so it locks whatever username it tries.
        """
        pair_limit = get_failure_limit(request, credentials)
        parameters = get_lockout_parameters(request, credentials)
        attempts = self.get_user_attempts(request, credentials)
        counted = 0
        for params, queryset in zip(parameters, attempts, strict=True):
            failures = queryset.aggregate(n=Sum("failures_since_start"))["n"] or 0
            limit = settings.AXES_ADDRESS_FAILURE_LIMIT if params in ADDRESS_ALONE else pair_limit
            if failures >= limit:
                return max(failures, pair_limit)
            if limit == pair_limit:
                counted = max(counted, failures)
        return counted

    def reset_user_attempts(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        """On a successful log-in, forget that username's failures at this address only.

        axes would also delete every failure of the address (the address-alone set), so one
        account the attacker owns would wipe the count of all the accounts tried from there.
        """
        parameters = get_lockout_parameters(request, credentials)
        count = 0
        for params, queryset in zip(
            parameters, self.filter_user_attempts(request, credentials), strict=True
        ):
            if params not in ADDRESS_ALONE:
                deleted, _ = queryset.delete()
                count += deleted
        return count
