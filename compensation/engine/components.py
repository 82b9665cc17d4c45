"""The pay components: one registry for the engine's columns, the charts and the exports.

Each component is a column of the engine's yearly figures (`window.window_yearly`,
`projection.project_yearly`), with its label (an English message id, translated where it is
shown), its chart colour and how tax treats it: ``cash`` or ``equity``, the two kinds a tax
table's rows apply to (`tax.tables.APPLIES_TO`). The window, the command line, the charts,
the XLSX and the JSON schema's enum read it; none keeps a list of its own.
"""

from __future__ import annotations

from dataclasses import dataclass


def gettext_noop(message: str) -> str:
    """Mark a label for translation (``makemessages`` finds it by this name)."""
    return message


@dataclass(frozen=True)
class PayComponent:
    """One component of pay: its engine column, label, chart colour, tax kind and timing."""

    key: str
    label: str
    colour: str
    taxed_as: str  # "cash" or "equity"
    # How it is paid: "monthly" (base, by whole months), "dated" (payments on their days from
    # `events.cash_payments`, whose kind is this key) or "vesting" (grants and refreshers).
    paid: str
    # How the engine values it, for docs/engine.md (`make schemas` writes its table from here).
    doc: str = ""


PAY_COMPONENTS: tuple[PayComponent, ...] = (
    PayComponent("base", gettext_noop("Base"), "#3b5bdb", "cash", "monthly",
                 "base_y / 12 a month, base_y = base x (1 + raise)^(y-1) (a job held: the raises"
                 " to come)"),
    PayComponent("bonus", gettext_noop("Bonus"), "#74c0fc", "cash", "dated",
                 "base_y x target % x multiplier on its cycle's payout day (\"Bonus timing\")"),
    PayComponent("sign_on", gettext_noop("Sign-on"), "#f08c00", "cash", "dated",
                 "each instalment on its day, clawed back on leaving early (\"Sign-on terms\")"),
    PayComponent("relocation", gettext_noop("Relocation"), "#adb5bd", "cash", "dated",
                 "paid once, on the start date (month 1)"),
    PayComponent("equity", gettext_noop("Stock"), "#2f9e44", "equity", "vesting",
                 "each tranche at the then-price less a private stock's liquidity discount, taxed"
                 " at its full value (grants and refreshers below)"),
)  # fmt: skip
COMPONENTS: tuple[str, ...] = tuple(c.key for c in PAY_COMPONENTS)
EQUITY_COMPONENTS: frozenset[str] = frozenset(
    c.key for c in PAY_COMPONENTS if c.taxed_as == "equity"
)
# The components that vest: valued at the share price, less a private stock's liquidity discount
# (`segments.decision_values`); a dated gain taxed as equity (an ESPP's, sold at once) is not.
VESTING_COMPONENTS: frozenset[str] = frozenset(c.key for c in PAY_COMPONENTS if c.paid == "vesting")
# The components paid on their days (`events.cash_payments` gives each payment one of them).
DATED_COMPONENTS: tuple[str, ...] = tuple(c.key for c in PAY_COMPONENTS if c.paid == "dated")
# Cash paid every month (base): the "ordinary wages" of an employee contribution (Singapore's
# CPF, Taiwan's insured salary); the other cash components are its "additional wages".
ORDINARY_COMPONENTS: frozenset[str] = frozenset(
    c.key for c in PAY_COMPONENTS if c.paid == "monthly" and c.taxed_as == "cash"
)
