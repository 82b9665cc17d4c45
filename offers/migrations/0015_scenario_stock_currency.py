"""A scenario's stock amounts say their currency: the grant's price currency.

Until now a scenario's extra stock a year and refreshers a year were typed in the offer's pay
currency and converted into the grant's when valued, at the user's latest rate (their own
before a shared one; direct, inverse or through USD). Each existing scenario's stock amounts
are converted here at that same rate into the currency of a new grant of its offer (the first
grant's price currency, else the company's share-price currency, else the pay currency), so
the scenario keeps its value. Without a rate the amounts stay as they are, in the pay currency,
which the scenario now names: their meaning is kept either way.
"""

from decimal import Decimal

import django.core.validators
from django.db import migrations, models
from django.db.models import Q

CENTS = Decimal("0.01")
PIVOT_CURRENCY = "USD"


def _best_rate(rows, owner_id, a, b):
    """Return the latest direct or inverse a->b rate (the owner's own first), or None."""
    best = None
    for row in rows:
        if (row.currency, row.to_currency) == (a, b):
            rate, direct = row.rate, 1
        elif (row.currency, row.to_currency) == (b, a):
            rate, direct = Decimal(1) / row.rate, 0
        else:
            continue
        mine = 1 if row.owner_id is not None and row.owner_id == owner_id else 0
        key = (mine, 1, row.as_of.toordinal(), direct)
        if best is None or key > best[0]:
            best = (key, rate)
    return None if best is None else best[1]


def _rate(rows, owner_id, a, b):
    """Return units of ``b`` one ``a`` buys as the app read it (None: no rate)."""
    if a == b:
        return Decimal(1)
    rate = _best_rate(rows, owner_id, a, b)
    if rate is not None:
        return rate
    if PIVOT_CURRENCY not in (a, b):
        first = _best_rate(rows, owner_id, a, PIVOT_CURRENCY)
        second = _best_rate(rows, owner_id, PIVOT_CURRENCY, b)
        if first is not None and second is not None:
            return first * second
    return None


def forwards(apps, schema_editor):
    Scenario = apps.get_model("offers", "Scenario")
    EquityGrant = apps.get_model("compensation", "EquityGrant")
    FxRate = apps.get_model("compensation", "FxRate")
    scenarios = Scenario.objects.select_related("offer__package__company").order_by("id")
    for scenario in scenarios:
        package = scenario.offer.package
        pay = package.currency
        first = EquityGrant.objects.filter(package_id=package.pk).order_by("vest_start", "id")
        first = first.first()
        if first is not None and first.price_currency:
            grant = first.price_currency
        elif package.company_id is not None:
            grant = package.company.currency
        else:
            grant = pay
        amounts = {
            name: getattr(scenario, name)
            for name in ("extra_stock_yearly", "refresher_yearly")
            if getattr(scenario, name)
        }
        rate = Decimal(1)
        if amounts and grant != pay:
            rows = FxRate.objects.filter(
                Q(owner__isnull=True) | Q(owner_id=package.owner_id),
                currency__in={pay, grant, PIVOT_CURRENCY},
                to_currency__in={pay, grant, PIVOT_CURRENCY},
            )
            rate = _rate(list(rows), package.owner_id, pay, grant)
        if rate is None:
            scenario.stock_currency = pay  # no rate to convert with: the amounts stay in pay
        else:
            for name, amount in amounts.items():
                setattr(scenario, name, (amount * rate).quantize(CENTS))
            scenario.stock_currency = grant
        scenario.save(update_fields=["stock_currency", *amounts])


def backwards(apps, schema_editor):
    """Put the stock amounts back into the pay currency (at the latest rate, as forwards)."""
    Scenario = apps.get_model("offers", "Scenario")
    FxRate = apps.get_model("compensation", "FxRate")
    for scenario in Scenario.objects.select_related("offer__package").order_by("id"):
        package = scenario.offer.package
        pay, held = package.currency, scenario.stock_currency
        amounts = {
            name: getattr(scenario, name)
            for name in ("extra_stock_yearly", "refresher_yearly")
            if getattr(scenario, name)
        }
        if not amounts or held == pay:
            continue
        rows = FxRate.objects.filter(
            Q(owner__isnull=True) | Q(owner_id=package.owner_id),
            currency__in={pay, held, PIVOT_CURRENCY},
            to_currency__in={pay, held, PIVOT_CURRENCY},
        )
        rate = _rate(list(rows), package.owner_id, held, pay)
        if rate is None:
            continue  # nothing to convert with: left as they are
        for name, amount in amounts.items():
            setattr(scenario, name, (amount * rate).quantize(CENTS))
        scenario.save(update_fields=list(amounts))


class Migration(migrations.Migration):
    dependencies = [
        ("offers", "0014_preferences_reminders_and_reminder_sent"),
        ("compensation", "0007_contrib_tax_rule_help"),
    ]

    operations = [
        migrations.AddField(
            model_name="scenario",
            name="stock_currency",
            field=models.CharField(
                default="",
                max_length=3,
                validators=[
                    django.core.validators.RegexValidator(
                        "^[A-Z]{3}$", "Use a three-letter ISO 4217 code, e.g. USD."
                    )
                ],
                verbose_name="currency of the stock amounts",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(forwards, backwards),
        migrations.AddConstraint(
            model_name="scenario",
            constraint=models.CheckConstraint(
                condition=models.Q(("stock_currency__regex", "^[A-Z]{3}$")),
                name="scenario_stock_currency_code",
            ),
        ),
    ]
