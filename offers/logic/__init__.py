"""Pure decision logic for offers: time zones, ranking and negotiation (no Django)."""
