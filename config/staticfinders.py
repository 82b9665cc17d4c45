"""Serve plotly.js from the installed ``plotly`` package, so Python and JS versions match."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import plotly
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

from accounts.charts import PLOTLY_JS

# The folder of the installed plotly package that holds plotly.min.js.
PLOTLY_PACKAGE_DATA = Path(plotly.__file__).resolve().parent / "package_data"


class PlotlyFinder(BaseFinder):
    """Find ``plotly/plotly.min.js`` in plotly's package data, and nothing else from it.

    A STATICFILES_DIRS entry on the folder would also collect plotly's data sets and widget
    bundle; this finder hands collectstatic (and whitenoise) the one file pages use.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.storage = FileSystemStorage(location=str(PLOTLY_PACKAGE_DATA))
        self.storage.prefix = "plotly"  # read by collectstatic and whitenoise

    def check(self, **kwargs: Any) -> list[Any]:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> str | list[str]:
        """Return the package's plotly.min.js for ``plotly/plotly.min.js``, else nothing."""
        find_all = find_all or bool(kwargs.get("all"))  # Django < 6.1 may still pass all=
        if path != PLOTLY_JS:
            return []  # as Django's finders: an empty list when nothing is found
        found = str(PLOTLY_PACKAGE_DATA / "plotly.min.js")
        return [found] if find_all else found

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        yield "plotly.min.js", self.storage
