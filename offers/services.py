"""Writes for offers: options with their packages, preferences and scenarios."""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.fields import fields_assign
from accounts.history import object_trash, revision_record
from accounts.idempotency import form_token_claim
from accounts.locking import StaleEditError, save_if_unchanged
from accounts.models import Revision
from compensation import services as compensation_services
from compensation.models import Package
from compensation.selectors import band_for, package_terms, rows_terms, terms_rate
from compensation.terms import Money, PackageTerms, TermsChange, apply_change
from config.background import apply_in_background, runs_in_background
from config.middleware import PUBLISH_ERRORS, ServiceUnavailable
from interviews import services as interview_services
from interviews.models import Stage
from offers.export.jobs import stalled_before
from offers.models import OFFER_FIELDS, Offer, Preferences, Scenario
from offers.scenarios.adjustments import (
    SCENARIO_FIELDS,
    STOCK_CURRENCY,
    accepted_resets,
    offer_stock_currency,
    option_terms,
    scenario_change,
)
from offers.selectors import preferences_get
from offers.tasks import scenario_monte_carlo_task
from offers.valuation_basis import home_today

if TYPE_CHECKING:
    from offers.board import Board

# The interview stage an offer's status puts its process at (at least): the board's column
# follows the offer. Draft and expired offers say nothing about the process.
OFFER_STATUS_STAGE: dict[str, str] = {
    Offer.Status.RECEIVED: Stage.OFFER,
    Offer.Status.NEGOTIATING: Stage.NEGOTIATING,
    Offer.Status.ACCEPTED: Stage.ACCEPTED,
    Offer.Status.DECLINED: Stage.DECLINED,
}


def offer_process_follow(*, user: User, offer: Offer) -> None:
    """Move the offer's interview process to the stage its status implies, and give it the
    level the offer names (the interviews' level check reads the offered level there)."""
    stage = OFFER_STATUS_STAGE.get(offer.status)
    if offer.process_id is None:
        return
    process = offer.process
    if process is None or process.owner_id != user.pk:
        return
    if stage is not None:
        process = interview_services.process_follow(user=user, process=process, stage=stage)
        interview_services.process_offered_level_follow(
            user=user, process=process, level=offer.package.level
        )


def package_children(package: Package) -> list[Any]:
    """Return the package's sign-ons, grants and refreshers (for snapshots)."""
    return [*package.sign_ons.all(), *package.grants.all(), *package.refreshers.all()]


def offer_revision_record(*, user: User, offer: Offer, action: str, summary: str = "") -> Revision:
    """Record a revision of the option that holds its package and the package's parts."""
    children = [offer.package, *package_children(offer.package)]
    return revision_record(user=user, obj=offer, action=action, children=children, summary=summary)


# The label of a new external offer's grant estimated from its band (no grant was entered).
ESTIMATED_GRANT = "Estimated: 4 x the band's yearly stock midpoint"


def _new_terms(
    *, user: User, kind: str, fields: Mapping[str, Any], change: TermsChange
) -> tuple[PackageTerms, Mapping[str, Any]]:
    """Return a new option's package terms, its figures left empty taken from its band.

    An empty base and bonus target are the level's band's; an empty start date is two months
    on. An empty stock grant is estimated from the band (four years of its yearly stock
    midpoint) for an external offer alone: a transfer or staying keeps the grants it holds
    and adds none. Returns the terms and the package's identity (its company).
    """
    fields = dict(fields)
    band = band_for(user=user, level=fields.get("level"))
    defaults = {
        "currency": band.currency if band else "USD",
        "base": band.base_mid if band else Decimal("0"),
        "bonus_target_pct": band.bonus_target_pct if band else Decimal("0"),
        "start_date": timezone.localdate() + dt.timedelta(days=60),
    }
    for name, default in defaults.items():
        if fields.get(name) in (None, ""):
            fields[name] = default
    company = fields.pop("company", None)
    package = Package(
        owner=user, company=company, **{k: v for k, v in fields.items() if v is not None}
    )
    terms = rows_terms(package, (), (), ())
    if (
        change.stock_grant is None
        and kind == Offer.Kind.EXTERNAL
        and band is not None
        and band.stock_mid
    ):
        # Stated in the band's currency, as the band states it, and named an estimate.
        change = dataclasses.replace(
            change,
            stock_grant=Money(band.stock_mid * 4, band.currency),
            grant_label=ESTIMATED_GRANT,
        )
    try:
        terms = apply_change(terms, change, terms_rate(package))
    except LookupError as error:
        raise ValidationError({"stock_currency": str(error)}) from None
    return terms, {"company": company, "is_current_job": kind == Offer.Kind.STAY}


@transaction.atomic
def offer_create(
    *,
    user: User,
    fields: Mapping[str, Any],
    package_fields: Mapping[str, Any],
    change: TermsChange,
    form_token: str = "",
) -> Offer:
    """Create an option and its package; missing figures default to the level's band.

    ``fields`` are the Offer's own, ``package_fields`` the Package's terms (its model's
    names; None: empty, see `_new_terms`), ``change`` the sign-ons and stock the option
    starts with (`offers.forms.NewTermsForm`). With ``form_token`` (the new-offer form's
    one-time token) a second post of the same form raises DuplicateSubmission instead of
    adding a second option.
    """
    claim = form_token_claim(user=user, token=form_token) if form_token else None
    kind = fields.get("kind", Offer.Kind.EXTERNAL)
    terms, identity = _new_terms(user=user, kind=kind, fields=package_fields, change=change)
    package = compensation_services.package_terms_create(
        user=user,
        terms=terms,
        identity={"name": fields["name"], **identity},
        record=False,  # the offer's revision below holds the package and its children
    )
    offer = Offer(owner=user, package=package)
    fields_assign(offer, fields, OFFER_FIELDS)
    if offer.process is not None and offer.process.owner_id != user.pk:
        raise PermissionError("process of another user")
    offer.full_clean()
    offer.save()
    offer_revision_record(user=user, offer=offer, action="created")
    offer_process_follow(user=user, offer=offer)
    if claim is not None:
        claim.object_id = offer.pk
        claim.save(update_fields=["object_id"])
    return offer


# What an emptied field of the offer form means for a stored package: these two are cleared
# (no level, no tax location), these two take their empty value; any other empty figure
# (base, start date...) keeps the stored one.
CLEARED_WHEN_EMPTY = ("company", "level", "location")
EMPTY_VALUES = {"relocation": Decimal("0"), "tax_regime": ""}


def _edited_terms(package_fields: Mapping[str, Any]) -> dict[str, Any]:
    """Return the package terms an edit of the offer form writes (see CLEARED_WHEN_EMPTY)."""
    updates = {}
    for name, value in package_fields.items():
        if value is None:
            value = EMPTY_VALUES.get(name)
        if value is not None or name in CLEARED_WHEN_EMPTY:
            updates[name] = value
    return updates


@transaction.atomic
def offer_update(
    *,
    user: User,
    offer: Offer,
    fields: Mapping[str, Any],
    package_fields: Mapping[str, Any],
    expected_version: int,
    expected_package_version: int,
) -> Offer:
    """Update an option and its package terms unless either changed since the form was opened.

    ``package_fields`` are Package terms in the model's names (``company`` among them); an
    empty (None) figure keeps the stored one. The package is written by compensation's one
    writer of terms, which refuses a stale version (an edit made on the package page
    meanwhile) with StaleEditError; nothing is saved then.
    """
    package = offer.package
    offer_revision_record(user=user, offer=offer, action="changed", summary="before edit")
    names = fields_assign(offer, fields, OFFER_FIELDS)
    offer.full_clean(exclude=["package"])
    offer.updated_at = timezone.now()
    save_if_unchanged(offer, expected_version=expected_version, fields=[*names, "updated_at"])
    updates = _edited_terms(package_fields)
    identity = {"company": updates.pop("company")} if "company" in updates else None
    terms = package_terms(package)
    start = updates.pop("start_date", None)
    if start is not None:
        # A new job's grants move with its start date; a transfer keeps the dates it holds.
        move = TermsChange(start_date=start, move_grants=offer.kind == Offer.Kind.EXTERNAL)
        terms = apply_change(terms, move, terms_rate(package))
    compensation_services.package_terms_write(
        user=user,
        package=package,
        expected_version=expected_package_version,
        terms=dataclasses.replace(terms, **updates),
        identity=identity,
        record=False,  # the offer's revision above holds the package as it was
    )
    offer_process_follow(user=user, offer=offer)
    return offer


@transaction.atomic
def offer_delete(*, user: User, offer: Offer) -> None:
    """Move an option, its package, scenarios and negotiation log to the trash (restorable for 30 days)."""
    package = offer.package
    children = [
        package,
        *package_children(package),
        *offer.scenarios.all(),
        *offer.negotiation_entries.all(),
    ]
    object_trash(user=user, obj=offer, children=children, also_delete=[package])


@transaction.atomic
def preferences_save(
    *, user: User, data: dict[str, Any], expected_version: int | None
) -> Preferences:
    """Create or update the user's single preference set."""
    prefs, created = Preferences.objects.select_for_update().get_or_create(owner=user)
    editable = [f.name for f in Preferences._meta.concrete_fields if f.editable]
    fields = fields_assign(prefs, data, set(editable) - {"id", "owner"})
    prefs.full_clean()
    if created or expected_version is None:
        prefs.save()
    else:
        save_if_unchanged(prefs, expected_version=expected_version, fields=fields)
    return prefs


@transaction.atomic
def scenario_create(*, user: User, offer: Offer, data: dict[str, Any] | None = None) -> Scenario:
    """Create a scenario on one of the user's offers.

    Its stock amounts are in ``data["stock_currency"]`` when given (a clone's, a plan's ask
    as said), else in the currency of a new grant of the offer (its grant price currency).
    """
    if offer.owner_id != user.pk:
        raise PermissionError("offer of another user")
    data = data or {}
    scenario = Scenario(owner=user, offer=offer)
    fields_assign(scenario, data, [*SCENARIO_FIELDS, STOCK_CURRENCY])
    if STOCK_CURRENCY not in data:
        scenario.stock_currency = offer_stock_currency(offer)
    scenario.name = data.get("name") or f"{offer.name}: what if"
    scenario.full_clean()
    scenario.save()
    revision_record(user=user, obj=scenario, action="created")
    return scenario


def scenario_create_from_plan(
    *, user: User, offer: Offer, board: Board | None = None, name: str = ""
) -> Scenario | None:
    """Create a scenario that plays out every ask of the offer's plan ("Play it out").

    ``board`` is the user's board (None: built now). Returns None, creating nothing, when the
    offer cannot be evaluated. The figures are the plan's own asks, never a copy of them.
    """
    from offers.board import board_build
    from offers.negotiation import plan_adjustments_note, plan_view_for
    from offers.scenarios.points import plan_adjustments

    if offer.owner_id != user.pk:
        raise PermissionError("offer of another user")
    view = plan_view_for(user=user, offer=offer, board=board or board_build(user=user))
    if view is None:
        return None
    data = plan_adjustments(view.plan, offer) or {}
    data["notes"] = plan_adjustments_note(view.plan)
    if name:
        data["name"] = name
    return scenario_create(user=user, offer=offer, data=data)


def _reset_mc(scenario: Scenario) -> list[str]:
    scenario.mc_status = Scenario.McStatus.NONE
    scenario.mc_progress = 0
    scenario.mc_result = None
    scenario.mc_input_hash = ""
    scenario.mc_error = ""
    return ["mc_status", "mc_progress", "mc_result", "mc_input_hash", "mc_error"]


@transaction.atomic
def scenario_update(
    *,
    user: User,
    scenario: Scenario,
    data: dict[str, Any],
    expected_version: int | None,
    record: bool = True,
) -> Scenario:
    """Change a scenario's adjustments; a stored Monte Carlo result no longer applies."""
    if record:
        revision_record(user=user, obj=scenario, action="changed", summary="before edit")
    fields = fields_assign(scenario, data, SCENARIO_FIELDS)
    scenario.full_clean()
    fields += _reset_mc(scenario)
    if expected_version is None:
        expected_version = scenario.version
    save_if_unchanged(scenario, expected_version=expected_version, fields=fields)
    return scenario


@transaction.atomic
def scenario_clone(*, user: User, scenario: Scenario) -> Scenario:
    """Copy a scenario under a new name."""
    data = {f: getattr(scenario, f) for f in (*SCENARIO_FIELDS, STOCK_CURRENCY)}
    data["name"] = f"{scenario.name} (copy)"[:120]
    return scenario_create(user=user, offer=scenario.offer, data=data)


@transaction.atomic
def scenario_delete(*, user: User, scenario: Scenario) -> None:
    """Move a scenario to the trash."""
    object_trash(user=user, obj=scenario)


@transaction.atomic
def scenario_accept(
    *, user: User, scenario: Scenario, expected_version: int | None = None
) -> Offer:
    """Make a scenario the offer's new terms, keeping the earlier version in its history.

    The scenario row is locked and read again before anything else (then the offer's), so two
    accepts at once run one after the other and the second sees the terms already moved into
    the offer: it adds no second sign-on or grant. With ``expected_version`` (the version the
    page showed) the second is refused as a stale edit instead.
    """
    locked = Scenario.objects.select_for_update().filter(pk=scenario.pk, owner=user).first()
    if locked is None or (expected_version is not None and locked.version != expected_version):
        raise StaleEditError(scenario)
    scenario = locked
    offer = (
        Offer.objects.select_for_update()
        .select_related("package")
        .get(pk=scenario.offer_id, owner=user)
    )
    package = offer.package
    which = f"scenario “{scenario.name}”"
    offer_revision_record(
        user=user, offer=offer, action="changed", summary=f"before accepting {which}"
    )
    # The change the scenario's page values, applied to the same terms and written by the
    # one writer: the value shown is the value accepted.
    change = scenario_change(scenario, granted_on=home_today(preferences_get(user=user)))
    terms = apply_change(package_terms(package), change, terms_rate(package))
    for name, value in option_terms(scenario).items():
        setattr(offer, name, value)
    # A scenario's growth and volatility stay out: market assumptions belong to the company.
    compensation_services.package_terms_write(
        user=user,
        package=package,
        expected_version=package.version,
        terms=terms,
        record=False,  # the offer's revisions before and after hold the package
    )
    offer.status = (
        Offer.Status.NEGOTIATING
        if offer.status in (Offer.Status.DRAFT, Offer.Status.RECEIVED)
        else offer.status
    )
    offer.version += 1
    offer.full_clean()
    offer.save()
    offer_revision_record(user=user, offer=offer, action="changed", summary=f"accepted {which}")
    offer_process_follow(user=user, offer=offer)
    # The terms now live in the offer: the scenario restarts from them, so nothing counts twice.
    revision_record(user=user, obj=scenario, action="changed", summary="before acceptance")
    Scenario.objects.filter(pk=scenario.pk).update(
        **accepted_resets(),
        notes=(f"Accepted into the offer on {timezone.localdate().isoformat()}. " + scenario.notes)[
            :2000
        ],
        version=F("version") + 1,
    )
    return offer


@transaction.atomic
def scenario_mc_start(*, user: User, scenario: Scenario) -> bool:
    """Queue the scenario's Monte Carlo unless a result or a run for the same inputs exists.

    The row is marked queued in the request's transaction and the message is published on
    commit; if the broker cannot be reached the row goes back to "not run" and the request
    answers 503, so no job is left half-done.
    """
    from offers.scenarios.montecarlo import mc_input_hash

    input_hash = mc_input_hash(scenario, user=user)
    busy = (Scenario.McStatus.QUEUED, Scenario.McStatus.RUNNING, Scenario.McStatus.DONE)
    if scenario.mc_input_hash == input_hash and scenario.mc_status in busy:
        return False
    return _mc_queue(Scenario.objects.filter(pk=scenario.pk, owner=user), scenario, input_hash)


def scenario_mc_stalled(scenario: Scenario) -> bool:
    """Return True when the running Monte Carlo stopped answering (see `stalled_before`)."""
    running = scenario.mc_status == Scenario.McStatus.RUNNING
    return running and scenario.mc_progress_at < stalled_before(scenario_monte_carlo_task.name)


def scenario_mc_restart(*, user: User, scenario: Scenario) -> bool:
    """Queue a stalled Monte Carlo again under a new task id; False (and nothing) if not stalled."""
    from offers.scenarios.montecarlo import mc_input_hash

    rows = Scenario.objects.filter(pk=scenario.pk, owner=user, mc_status=Scenario.McStatus.RUNNING)
    rows = rows.filter(mc_progress_at__lt=stalled_before(scenario_monte_carlo_task.name))
    return _mc_queue(rows, scenario, mc_input_hash(scenario, user=user))


def _mc_queue(rows: QuerySet[Scenario], scenario: Scenario, input_hash: str) -> bool:
    """Mark ``rows`` (the scenario, or none) queued and publish its run on commit."""
    task_id = uuid.uuid4().hex
    queued = rows.update(
        mc_status=Scenario.McStatus.QUEUED,
        mc_progress=0,
        mc_input_hash=input_hash,
        mc_task_id=task_id,
        mc_result=None,
        mc_error="",
        # When it was queued: a run no worker picks up says so after a while (mc_waiting_since).
        updated_at=timezone.now(),
    )
    scenario.refresh_from_db()
    if not queued:
        return False
    scenario_pk = scenario.pk
    transaction.on_commit(lambda: _publish_mc(scenario_pk, input_hash, task_id))
    return True


def _publish_mc(scenario_id: int, input_hash: str, task_id: str) -> None:
    if runs_in_background(scenario_monte_carlo_task):  # no broker: a thread, not the request
        apply_in_background(scenario_monte_carlo_task, (scenario_id, input_hash), task_id=task_id)
        return
    try:
        scenario_monte_carlo_task.apply_async((scenario_id, input_hash), task_id=task_id)
    except PUBLISH_ERRORS as exc:
        Scenario.objects.filter(
            pk=scenario_id, mc_task_id=task_id, mc_status=Scenario.McStatus.QUEUED
        ).update(mc_status=Scenario.McStatus.NONE, mc_task_id="", mc_input_hash="")
        raise ServiceUnavailable("The task queue") from exc


def scenario_mc_unclaimed_sweep() -> int:
    """Fail each Monte Carlo queued twice JOB_UNCLAIMED_SECONDS with no claim (beat, each minute).

    Its message was lost (a broker restarted without persistence): it would wait for ever. The
    page then says so and offers the run again; a run is cheap to start again, unlike an export
    or a restore, so it is not sent a second time.
    """
    cutoff = timezone.now() - dt.timedelta(seconds=2 * settings.JOB_UNCLAIMED_SECONDS)
    return Scenario.objects.filter(
        mc_status=Scenario.McStatus.QUEUED, updated_at__lt=cutoff
    ).update(
        mc_status=Scenario.McStatus.FAILED,
        mc_error=gettext_noop("No worker picked this run up. Run it again."),
    )


def scenario_mc_cancel(*, user: User, scenario: Scenario) -> bool:
    """Ask a queued or running Monte Carlo to stop (the task checks between chunks)."""
    return bool(
        Scenario.objects.filter(
            pk=scenario.pk,
            owner=user,
            mc_status__in=[Scenario.McStatus.QUEUED, Scenario.McStatus.RUNNING],
        ).update(mc_status=Scenario.McStatus.CANCELLED)
    )


def scenario_mc_claim(*, scenario_id: int, input_hash: str, task_id: str | None = None) -> bool:
    """Claim a run with a compare-and-set; False if another task has it or it moved on.

    A message redelivered after its worker died carries the same task id, so it may take
    over the row that the dead attempt left "running".
    """
    claimable = Q(mc_status=Scenario.McStatus.QUEUED)
    if task_id:
        claimable |= Q(mc_status=Scenario.McStatus.RUNNING, mc_task_id=task_id)
    rows = Scenario.objects.filter(claimable, pk=scenario_id, mc_input_hash=input_hash)
    if task_id:
        rows = rows.filter(Q(mc_task_id=task_id) | Q(mc_task_id=""))
    claimed = rows.update(
        mc_status=Scenario.McStatus.RUNNING, mc_progress=0, mc_progress_at=timezone.now()
    )
    return claimed == 1


def _mc_running(scenario_id: int, input_hash: str) -> QuerySet[Scenario]:
    """Return the scenario's row while a run of these inputs holds it (else no row)."""
    running = Scenario.McStatus.RUNNING
    return Scenario.objects.filter(pk=scenario_id, mc_input_hash=input_hash, mc_status=running)


def scenario_mc_requeue(*, scenario_id: int, input_hash: str) -> None:
    """Hand a claimed run back to the queue so that a retry can claim it again."""
    _mc_running(scenario_id, input_hash).update(mc_status=Scenario.McStatus.QUEUED)


def scenario_mc_progress(*, scenario_id: int, input_hash: str, progress: int) -> bool:
    """Record progress; False when the run was cancelled or its inputs changed."""
    rows = _mc_running(scenario_id, input_hash)
    return rows.update(mc_progress=progress, mc_progress_at=timezone.now()) == 1


def scenario_mc_store(*, scenario_id: int, input_hash: str, result: dict[str, Any]) -> bool:
    """Store a finished result once: only over a running claim of the same inputs."""
    rows = _mc_running(scenario_id, input_hash)
    done = {"mc_status": Scenario.McStatus.DONE, "mc_progress": 100, "mc_error": ""}
    return rows.update(**done, mc_result=result, mc_runs=F("mc_runs") + 1) == 1


def scenario_mc_fail(*, scenario_id: int, input_hash: str, error: str) -> None:
    """Mark a running Monte Carlo as failed with a message for the page."""
    failed = Scenario.McStatus.FAILED
    _mc_running(scenario_id, input_hash).update(mc_status=failed, mc_error=error[:300])
