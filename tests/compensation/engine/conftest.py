"""Engine tests run without Django (``-p no:django``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _fast_and_eager() -> Iterator[None]:
    """Replace the project-wide Django test setup: the engine never touches Django."""
    yield
