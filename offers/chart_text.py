"""Text that goes into a plotly figure: shown as typed, never read as markup.

The helpers live in `accounts.charts` with the rest of the chart plumbing, so every app's
charts (compensation's and interviews' too) escape names the same way.
"""

from __future__ import annotations

from accounts.charts import plain, subtitle

__all__ = ["plain", "subtitle"]
