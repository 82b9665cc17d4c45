"""An internal transfer's valuation now adds every grant the current job holds on the move date.

Copies of those grants that a transfer's package held ("kept" grants, as the demo made) would
count twice: remove each grant of a transfer's package that repeats one of the current job's
(same vesting start, value or shares, grant price and schedule).
"""

from django.db import migrations


def _current_package(apps, owner_id):
    Offer = apps.get_model("offers", "Offer")
    Package = apps.get_model("compensation", "Package")
    stay = Offer.objects.filter(owner_id=owner_id, kind="stay").order_by("id").first()
    if stay is not None:
        return stay.package
    return Package.objects.filter(owner_id=owner_id, is_current_job=True).order_by("id").first()


def _key(grant):
    return (
        grant.vest_start,
        grant.value,
        grant.shares,
        grant.grant_price,
        [float(w) for w in grant.weights or []],
        grant.cliff_months,
        grant.frequency_months,
        grant.year_frequencies,
        grant.vest_dates,
    )


def forwards(apps, schema_editor):
    Offer = apps.get_model("offers", "Offer")
    EquityGrant = apps.get_model("compensation", "EquityGrant")
    for transfer in Offer.objects.filter(kind="internal").order_by("id"):
        current = _current_package(apps, transfer.owner_id)
        if current is None or current.pk == transfer.package_id:
            continue
        held = [_key(g) for g in EquityGrant.objects.filter(package_id=current.pk)]
        for grant in EquityGrant.objects.filter(package_id=transfer.package_id):
            if _key(grant) in held:
                grant.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("offers", "0008_jobs_exportjob_task_id"),
        ("compensation", "0006_package_bonus_cutoff_both_or_neither"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
