"""Signals of writes that bypass ``Model.save()``."""

from __future__ import annotations

from django.dispatch import Signal

# Sent with ``sender=<model>, instance=<object>`` after a queryset ``update()`` wrote the row of
# ``instance`` (``post_save`` is not sent then); caches of what the row feeds listen to it.
rows_updated = Signal()
