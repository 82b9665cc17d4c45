"""An option's company, level and start date have one owner: its package.

Before removing the option's own copies, each package takes its option's values where they
differ: the company and level, and the start date. A new job's grants moved with its start
date when it was valued, so they move with it here (the value stays the same); a transfer's
start date is its move day.
"""

from django.db import migrations


def forwards(apps, schema_editor):
    Offer = apps.get_model("offers", "Offer")
    EquityGrant = apps.get_model("compensation", "EquityGrant")
    for offer in Offer.objects.select_related("package").order_by("id"):
        package = offer.package
        changed = []
        if offer.company_id and offer.company_id != package.company_id:
            package.company_id = offer.company_id
            changed.append("company")
        if offer.level_id and offer.level_id != package.level_id:
            package.level_id = offer.level_id
            changed.append("level")
        if (
            offer.kind != "stay"
            and offer.start_date is not None
            and offer.start_date != package.start_date
        ):
            if offer.kind == "external":
                shift = offer.start_date - package.start_date
                for grant in EquityGrant.objects.filter(package_id=package.pk):
                    grant.vest_start = grant.vest_start + shift
                    grant.save(update_fields=["vest_start"])
            package.start_date = offer.start_date
            changed.append("start_date")
        if changed:
            package.save(update_fields=changed)


class Migration(migrations.Migration):
    dependencies = [
        ("offers", "0009_transfer_held_grants"),
        ("compensation", "0006_package_bonus_cutoff_both_or_neither"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
        migrations.RemoveField(model_name="offer", name="company"),
        migrations.RemoveField(model_name="offer", name="level"),
        migrations.RemoveField(model_name="offer", name="start_date"),
    ]
