from django.db import migrations, models
from django.db.models import Q


def clear_half_set_cutoffs(apps, schema_editor):
    """A cut-off with only its month or its day was never applied: store neither."""
    Package = apps.get_model("compensation", "Package")
    Package.objects.filter(
        Q(bonus_cutoff_month__isnull=True, bonus_cutoff_day__isnull=False)
        | Q(bonus_cutoff_month__isnull=False, bonus_cutoff_day__isnull=True)
    ).update(bonus_cutoff_month=None, bonus_cutoff_day=None)


class Migration(migrations.Migration):

    dependencies = [
        ("compensation", "0005_package_tax_regime"),
    ]

    operations = [
        migrations.RunPython(clear_half_set_cutoffs, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="package",
            name="package_bonus_cutoff_valid",
        ),
        migrations.AddConstraint(
            model_name="package",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("bonus_cutoff_day__isnull", True), ("bonus_cutoff_month__isnull", True)),
                    models.Q(
                        ("bonus_cutoff_day__gte", 1),
                        ("bonus_cutoff_day__isnull", False),
                        ("bonus_cutoff_day__lte", 31),
                        ("bonus_cutoff_month__gte", 1),
                        ("bonus_cutoff_month__isnull", False),
                        ("bonus_cutoff_month__lte", 12),
                    ),
                    _connector="OR",
                ),
                name="package_bonus_cutoff_valid",
            ),
        ),
    ]
