"""Reads for the negotiation log and the timeline across companies."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from offers.models import NegotiationEntry


def negotiation_entry_list(
    *, user: AbstractBaseUser, offer_id: int | None = None
) -> QuerySet[NegotiationEntry]:
    """Return the user's log entries (of one option if given), oldest ask first."""
    entries = NegotiationEntry.objects.filter(owner=user, offer__owner=user)
    if offer_id is not None:
        entries = entries.filter(offer_id=offer_id)
    return entries.select_related("offer", "revised_level").order_by("asked_on", "id")


def negotiation_entry_get(*, user: AbstractBaseUser, pk: int) -> NegotiationEntry:
    """Return one of the user's log entries with its option and package, or 404."""
    return get_object_or_404(
        NegotiationEntry.objects.filter(owner=user, offer__owner=user).select_related(
            "offer", "offer__package", "offer__package__company", "revised_level"
        ),
        pk=pk,
    )
