"""Writes for the negotiation log: the only writer of NegotiationEntry.

An answer with revised terms becomes a new version of the offer: the package changes through
compensation's package service (the one writer, checking the version the form saw), the
offer's history keeps the terms before and after, and the entry records both versions and the
option's headline value (from the board, never recomputed here) before and after.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.fields import fields_assign
from accounts.history import object_trash, revision_record
from accounts.locking import StaleEditError, save_if_unchanged
from accounts.models import Revision
from compensation import services as compensation_services
from compensation.selectors import package_terms, terms_rate
from compensation.terms import Money, PackageTerms, TermsChange, apply_change, stock_grant_currency
from offers.board import Evaluation
from offers.board_cache import board_get
from offers.models import NegotiationEntry, Offer
from offers.selectors import preferences_get
from offers.services import offer_process_follow, offer_revision_record

# What the user writes when logging an ask, and when recording what came back.
ASK_FIELDS = ["asked_on", "channel", "contact", "topic", "ask"]
ANSWER_FIELDS = [
    "outcome",
    "answered_on",
    "answer",
    "revised_base",
    "revised_stock",
    "revised_sign_on",
    "revised_level",
    "revised_deadline",
    "revised_remote_weeks",
    "remote_from",
    "remote_years",
    "remote_in_writing",
    "decision_by",
    "letter_by",
]


def _evaluation(user: User, offer: Offer) -> Evaluation | None:
    """Return the option's evaluation from the user's board (None if it cannot be valued)."""
    board = board_get(user=user)
    ev = next((e for e in board.evaluations if e.key == str(offer.pk)), None)
    return ev if ev is not None and not ev.error else None


def _headline(ev: Evaluation | None) -> Decimal | None:
    return Decimal(str(round(ev.value, 2))) if ev is not None else None


def _snapshot_before(entry: NegotiationEntry, ev: Evaluation | None) -> None:
    entry.value_before = _headline(ev)
    entry.value_after = None
    entry.value_currency = ev.basis.currency if ev is not None else ""
    entry.value_basis = ev.basis.key if ev is not None else ""


def entry_change(entry: NegotiationEntry, offer: Offer, terms: PackageTerms) -> TermsChange:
    """Return the change to the offer's terms an answer's revised terms make.

    Base and sign-on are in the pay currency; the stock grant is the whole grant in its own
    price currency (``entry.stock_currency``): an external offer's new-hire grant, or the
    negotiated grant of an option that keeps the grants it holds (a transfer's or staying's
    retention grant), added like the first grant, with its whole schedule, when missing.
    """
    pay = terms.currency
    revise_first = offer.kind == Offer.Kind.EXTERNAL
    stock = entry.stock_currency or stock_grant_currency(terms, revise_first_grant=revise_first)
    return TermsChange(
        base=Money(entry.revised_base, pay) if entry.revised_base is not None else None,
        level=entry.revised_level if entry.revised_level_id else None,
        sign_on_year1=Money(entry.revised_sign_on, pay)
        if entry.revised_sign_on is not None
        else None,
        stock_grant=Money(entry.revised_stock, stock) if entry.revised_stock is not None else None,
        revise_first_grant=revise_first,
        granted_on=entry.answered_on,
    )


def _apply_revised_terms(
    *,
    user: User,
    entry: NegotiationEntry,
    expected_offer_version: int,
    expected_package_version: int,
) -> None:
    """Make the entry's revised terms the offer's new version, with history before and after."""
    offer = (
        Offer.objects.select_for_update(of=("self",))
        .select_related("package", "package__company", "package__level", "package__location")
        .get(pk=entry.offer_id, owner=user)
    )
    if offer.version != expected_offer_version:
        raise StaleEditError(offer)
    package = offer.package
    ev = _evaluation(user, offer)  # nothing written yet in this transaction: the cached board
    _snapshot_before(entry, ev)
    entry.offer_version_before = offer.version
    entry.terms_currency = package.currency
    entry.revision_before = offer_revision_record(
        user=user,
        offer=offer,
        action=Revision.Action.CHANGED,
        summary=_("before the answer to “%(ask)s”") % {"ask": entry.ask[:200]},
    )
    terms = package_terms(package)
    change = entry_change(entry, offer, terms)
    if change.stock_grant is not None:  # the entry says which currency its grant was in
        entry.stock_currency = change.stock_grant.currency
    try:
        revised = apply_change(terms, change, terms_rate(package))
    except LookupError as error:
        raise ValidationError(str(error)) from None
    compensation_services.package_terms_write(
        user=user,
        package=package,
        expected_version=expected_package_version,
        terms=revised,
        record=False,  # the offer's revisions before and after hold the package
    )
    fields = ["updated_at"]
    if entry.revised_deadline is not None:
        offer.deadline = entry.revised_deadline
        fields.append("deadline")
    # Remote weeks offered for fewer years than the horizon leave the option's yearly policy:
    # the log keeps them, and the plan reads the counter as an answer.
    horizon = preferences_get(user=user).horizon_years
    if entry.revised_remote_weeks is not None and (entry.remote_years or horizon) >= horizon:
        offer.remote_weeks_per_year = entry.revised_remote_weeks
        fields.append("remote_weeks_per_year")
    if offer.status in (Offer.Status.DRAFT, Offer.Status.RECEIVED):
        offer.status = Offer.Status.NEGOTIATING
        fields.append("status")
    offer.updated_at = timezone.now()
    save_if_unchanged(offer, expected_version=expected_offer_version, fields=fields)
    entry.offer_version_after = offer.version
    package.refresh_from_db()
    offer_process_follow(user=user, offer=offer)  # a re-levelled offer re-levels its loop
    entry.revision_after = offer_revision_record(
        user=user,
        offer=offer,
        action=Revision.Action.CHANGED,
        summary=_("revised terms after “%(ask)s”") % {"ask": entry.ask[:200]},
    )
    # This transaction wrote the package: a fresh board (only when there was a value before).
    entry.value_after = _headline(_evaluation(user, offer)) if ev is not None else None


def _check_level(entry: NegotiationEntry, offer: Offer) -> None:
    level = entry.revised_level
    if level is not None and offer.company_id and level.company_id != offer.company_id:
        raise ValidationError(
            {"revised_level": _("Choose a level of %(company)s.") % {"company": offer.company}}
        )


@transaction.atomic
def negotiation_entry_create(
    *,
    user: User,
    offer: Offer,
    data: dict[str, Any],
    expected_offer_version: int | None = None,
    expected_package_version: int | None = None,
) -> NegotiationEntry:
    """Log an ask on one of the user's options, with its answer if it came already.

    Revised terms in the answer make a new version of the offer (see the module docstring);
    a stale offer or package version raises StaleEditError and nothing is written.
    """
    if offer.owner_id != user.pk:
        raise PermissionError("offer of another user")
    entry = NegotiationEntry(owner=user, offer=offer)
    fields_assign(entry, data, [*ASK_FIELDS, *ANSWER_FIELDS])
    return _save_answer(
        user=user,
        entry=entry,
        expected_offer_version=expected_offer_version,
        expected_package_version=expected_package_version,
        created=True,
    )


@transaction.atomic
def negotiation_entry_answer(
    *,
    user: User,
    entry: NegotiationEntry,
    data: dict[str, Any],
    expected_version: int,
    expected_offer_version: int | None = None,
    expected_package_version: int | None = None,
) -> NegotiationEntry:
    """Record what came back on an ask that was waiting for an answer."""
    if entry.owner_id != user.pk:
        raise PermissionError("entry of another user")
    locked = NegotiationEntry.objects.select_for_update().filter(pk=entry.pk, owner=user).first()
    if locked is None or locked.version != expected_version:
        raise StaleEditError(entry)
    if locked.outcome != NegotiationEntry.Outcome.PENDING:
        raise ValidationError(
            _("This ask has its answer already; log the next ask as a new entry.")
        )
    revision_record(user=user, obj=locked, action=Revision.Action.CHANGED, summary="before answer")
    fields_assign(locked, data, ANSWER_FIELDS)
    if locked.outcome == NegotiationEntry.Outcome.PENDING:
        raise ValidationError(
            {"outcome": _("Choose what came back: accepted, refused or countered.")}
        )
    saved = _save_answer(
        user=user,
        entry=locked,
        expected_offer_version=expected_offer_version,
        expected_package_version=expected_package_version,
        created=False,
    )
    return saved


def _save_answer(
    *,
    user: User,
    entry: NegotiationEntry,
    expected_offer_version: int | None,
    expected_package_version: int | None,
    created: bool,
) -> NegotiationEntry:
    offer = Offer.objects.select_related("package", "package__company").get(
        pk=entry.offer_id, owner=user
    )
    if entry.outcome != NegotiationEntry.Outcome.PENDING and entry.answered_on is None:
        entry.answered_on = timezone.localdate()
    entry.full_clean(exclude=["owner", "offer"])
    _check_level(entry, offer)
    if entry.has_revised_terms:
        _apply_revised_terms(
            user=user,
            entry=entry,
            expected_offer_version=expected_offer_version
            if expected_offer_version is not None
            else offer.version,
            expected_package_version=expected_package_version
            if expected_package_version is not None
            else offer.package.version,
        )
    elif created:
        _snapshot_before(entry, _evaluation(user, offer))
    if created:
        entry.save()
        revision_record(user=user, obj=entry, action=Revision.Action.CREATED)
    else:
        entry.version += 1
        entry.save()
    return entry


@transaction.atomic
def negotiation_entry_delete(*, user: User, entry: NegotiationEntry) -> Revision:
    """Move a log entry to the trash (restorable for 30 days); the offer's terms stay."""
    if entry.owner_id != user.pk:
        raise PermissionError("entry of another user")
    return object_trash(user=user, obj=entry)
