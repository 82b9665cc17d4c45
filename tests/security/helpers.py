"""Shared helpers for the security tests: URLs of every route, form parsing, payloads."""

from __future__ import annotations

from html.parser import HTMLParser

from django.urls import reverse

from tests.url_matrix import all_routes, url_objects

# Field names that carry money (or something derived from it).
MONEY_WORDS = (
    "base",
    "salary",
    "sign_on",
    "stock",
    "bonus",
    "refresher",
    "relocation",
    "amount",
    "value",
    "price",
    "total",
    "min_first_year",
)


def offer_post(**overrides: str) -> dict[str, str]:
    """Return a valid create-offer POST."""
    data = {
        "name": "Acme offer",
        "kind": "external",
        "status": "received",
        "work_timezone": "Asia/Singapore",
        "remote_policy": "hybrid",
        "office_days_per_week": "3",
        "remote_weeks_per_year": "6",
        "currency": "SGD",
        "base": "250000",
        "raise_pct": "3",
        "bonus_target_pct": "20",
        "bonus_multiplier": "1",
        "sign_on_year1": "30000",
        "clawback_months": "12",
        "stock_grant": "400000",
        "vesting_preset": "even_4y_quarterly",
        "start_date": "2027-02-01",
    }
    data.update(overrides)
    return data


def route_urls(user, *, public: bool = True) -> list[tuple[str, str]]:
    """Return (route name, URL) for every named route, building `user`'s objects as needed."""
    from tests.url_matrix import PUBLIC

    objects = url_objects()
    urls = []
    for route in all_routes():
        if not public and route.name in PUBLIC:
            continue
        if not route.kwargs:
            urls.append((route.name, reverse(route.name)))
        elif route.name in objects:
            urls.append((route.name, reverse(route.name, kwargs=objects[route.name](user))))
    return urls


class FormScanner(HTMLParser):
    """Collect each <form>'s method and the names of its fields, and every <script> tag."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self.scripts: list[dict[str, str | None]] = []
        self._current: dict | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self._current = {"method": (a.get("method") or "get").lower(), "fields": []}
            self.forms.append(self._current)
        elif tag in ("input", "select", "textarea") and self._current is not None:
            if a.get("name"):
                self._current["fields"].append(a["name"])
        elif tag == "script":
            self.scripts.append(a)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._current = None


def scan(html: str) -> FormScanner:
    scanner = FormScanner()
    scanner.feed(html)
    return scanner


def is_money_field(name: str) -> bool:
    lowered = name.lower()
    return any(word in lowered for word in MONEY_WORDS)
