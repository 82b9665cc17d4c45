"""Let the pure-logic tests run without pytest-django (`-p no:django`)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_and_eager():
    """Override the Django settings fixture from tests/conftest.py: nothing to set up here."""
    return None
