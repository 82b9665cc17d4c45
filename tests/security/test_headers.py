"""Production headers and cookies on every page; money never in a URL, a cache or a log line."""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests import fresh_python
from tests.security.helpers import is_money_field, offer_post, route_urls, scan

ROOT = Path(__file__).resolve().parents[2]
SECURITY_SETTINGS = [
    "DEBUG",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_CONTENT_TYPE_NOSNIFF",
    "SECURE_REFERRER_POLICY",
    "SECURE_CROSS_ORIGIN_OPENER_POLICY",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_REDIRECT_EXEMPT",
    "X_FRAME_OPTIONS",
    "SESSION_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY",
    "SESSION_COOKIE_SAMESITE",
    "CSRF_COOKIE_SECURE",
    "CSRF_COOKIE_HTTPONLY",
    "CSRF_COOKIE_SAMESITE",
]


def _production_settings(**env: str) -> dict:
    """Return the security settings as config/settings.py computes them for `env`."""
    code = (
        "import json, django; django.setup(); from django.conf import settings as s;"
        f"print(json.dumps({{k: getattr(s, k) for k in {SECURITY_SETTINGS!r}}}))"
    )
    full_env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "x" * 64 + "-production",
        "ALLOWED_HOSTS": "offerdesk.example",
        **env,
    }
    for name in ("SECURE_SSL",):
        if name not in env:
            full_env.pop(name, None)
    out = fresh_python.run(
        ["-c", code],
        cwd=ROOT,
        env=full_env,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def production() -> dict:
    return _production_settings(DEBUG="0")


@pytest.fixture
def prod(settings, production):
    """Apply the production security settings to this process (middleware read per client)."""
    for key, value in production.items():
        setattr(settings, key, tuple(value) if isinstance(value, list) else value)
    settings.SECURE_REDIRECT_EXEMPT = list(production["SECURE_REDIRECT_EXEMPT"])
    return settings


def test_debug_off_turns_on_https_hardening(production):
    assert production["DEBUG"] is False
    assert production["SECURE_SSL_REDIRECT"] is True
    assert production["SECURE_HSTS_SECONDS"] >= 31536000
    assert production["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert production["SESSION_COOKIE_SECURE"] is True
    assert production["CSRF_COOKIE_SECURE"] is True
    assert production["SESSION_COOKIE_HTTPONLY"] is True
    assert production["CSRF_COOKIE_HTTPONLY"] is True
    assert production["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert production["CSRF_COOKIE_SAMESITE"] == "Lax"
    assert production["X_FRAME_OPTIONS"] == "DENY"


def test_secure_ssl_0_turns_off_only_the_https_parts():
    plain = _production_settings(DEBUG="0", SECURE_SSL="0")
    assert plain["SECURE_SSL_REDIRECT"] is False
    assert plain["SECURE_HSTS_SECONDS"] == 0
    assert plain["SESSION_COOKIE_HTTPONLY"] is True
    assert plain["X_FRAME_OPTIONS"] == "DENY"
    assert plain["SECURE_CONTENT_TYPE_NOSNIFF"] is True


def _csp_directives(header: str) -> dict[str, list[str]]:
    directives = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


def _check_headers(name: str, response, *, hsts: bool) -> list[str]:
    problems = []
    csp = response.get("Content-Security-Policy")
    if not csp:
        problems.append("no Content-Security-Policy")
    else:
        d = _csp_directives(csp)
        script = d.get("script-src", d.get("default-src", []))
        if "'unsafe-inline'" in script or "'unsafe-eval'" in script:
            problems.append(f"script-src too loose: {script}")
        for key, want in (("object-src", "'none'"), ("frame-ancestors", "'none'")):
            if d.get(key) != [want]:
                problems.append(f"{key} is {d.get(key)}")
        if d.get("base-uri") != ["'self'"]:
            problems.append(f"base-uri is {d.get('base-uri')}")
        if d.get("form-action") != ["'self'"]:
            problems.append(f"form-action is {d.get('form-action')}")
    expected = {
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
        "Cross-Origin-Opener-Policy": "same-origin",
    }
    for header, value in expected.items():
        if response.get(header) != value:
            problems.append(f"{header}: {response.get(header)!r}")
    if hsts:
        sts = response.get("Strict-Transport-Security", "")
        if "max-age=31536000" not in sts or "includeSubDomains" not in sts:
            problems.append(f"Strict-Transport-Security: {sts!r}")
    if "no-store" not in response.get("Cache-Control", ""):
        problems.append(f"Cache-Control: {response.get('Cache-Control')!r}")
    return [f"{name}: {p}" for p in problems]


def _check_cookies(name: str, response) -> list[str]:
    problems = []
    for cookie_name in ("sessionid", "csrftoken"):
        morsel = response.cookies.get(cookie_name)
        if morsel is None or not morsel.value:  # absent, or being deleted
            continue
        if not morsel["secure"]:
            problems.append(f"{cookie_name} not Secure")
        if not morsel["httponly"]:
            problems.append(f"{cookie_name} not HttpOnly")
        if morsel["samesite"] != "Lax":
            problems.append(f"{cookie_name} SameSite={morsel['samesite']!r}")
    return [f"{name}: {p}" for p in problems]


def _check_scripts(name: str, response) -> list[str]:
    """Every inline executable <script> carries the request's CSP nonce."""
    if not response.get("Content-Type", "").startswith("text/html"):
        return []
    csp = _csp_directives(response.get("Content-Security-Policy", ""))
    nonces = {w[len("'nonce-") : -1] for w in csp.get("script-src", []) if w.startswith("'nonce-")}
    problems = []
    for attrs in scan(response.content.decode()).scripts:
        if attrs.get("src") or attrs.get("type") == "application/json":
            continue
        if attrs.get("nonce") not in nonces:
            problems.append(f"inline <script> without a valid nonce: {attrs}")
    return [f"{name}: {p}" for p in problems]


def _login_secure(client: Client) -> object:
    client.get(reverse("login"), secure=True)
    response = client.post(
        reverse("login"),
        {"username": "alice", "password": "alice-password-123"},
        secure=True,
    )
    assert response.status_code == 302, response.status_code
    return response


@pytest.mark.django_db
def test_login_cookies_are_secure_httponly_lax(prod, alice):
    client = Client()
    page = client.get(reverse("login"), secure=True)
    assert "csrftoken" in page.cookies
    response = _login_secure(client)
    assert "sessionid" in response.cookies
    assert not _check_cookies("login page", page)
    assert not _check_cookies("login", response)
    assert not _check_headers("login", response, hsts=True)


@pytest.mark.django_db
def test_every_page_sends_security_headers_in_production(prod, alice):
    # A page that fails must fail with the same headers; that pages do not fail is the URL
    # matrix's job (tests/test_url_matrix.py).
    client = Client(raise_request_exception=False)
    _login_secure(client)
    problems = []
    seen = 0
    for name, url in route_urls(alice):
        if name == "logout":
            continue
        response = client.get(url, secure=True)
        seen += 1
        problems += _check_headers(name, response, hsts=True)
        problems += _check_cookies(name, response)
        problems += _check_scripts(name, response)
    assert seen > 20
    assert not problems, "\n".join(problems)


@pytest.mark.django_db
def test_error_pages_send_headers_too(prod, alice):
    client = Client()
    _login_secure(client)
    response = client.get("/offers/2000000000/", secure=True)
    assert response.status_code == 404
    assert not _check_headers("404", response, hsts=True)


@pytest.mark.django_db
def test_plain_http_is_redirected_to_https(prod, alice):
    response = Client().get("/accounts/login/")
    assert response.status_code == 301
    assert response["Location"].startswith("https://")
    # The health check stays reachable over plain HTTP for the load balancer.
    assert Client().get("/healthz").status_code == 200


@pytest.mark.django_db
def test_every_page_is_no_store_and_no_money_field_is_in_a_get_form(client_alice, alice):
    """Pages show private money: never cached. A GET form would put figures in URLs and logs."""
    client_alice.raise_request_exception = False
    offenders = []
    for name, url in route_urls(alice):
        if name == "logout":
            continue
        response = client_alice.get(url)
        assert "no-store" in response.get("Cache-Control", ""), name
        if not response.get("Content-Type", "").startswith("text/html"):
            continue
        for form in scan(response.content.decode()).forms:
            if form["method"] != "post":
                money = [f for f in form["fields"] if is_money_field(f)]
                if money:
                    offenders.append((name, money))
    assert not offenders, offenders
    anon = Client().get(reverse("login"))
    assert "no-store" in anon["Cache-Control"]


@pytest.fixture
def all_logs(caplog):
    """Capture every log record, including loggers that do not propagate to the root."""
    caplog.set_level(logging.DEBUG)
    attached = []
    for name in ("django.request", "django.server", "django.security", "axes", "celery"):
        logger = logging.getLogger(name)
        if caplog.handler not in logger.handlers:
            logger.addHandler(caplog.handler)
            attached.append(logger)
        logger.setLevel(logging.DEBUG)
    yield caplog
    for logger in attached:
        logger.removeHandler(caplog.handler)


FIGURES = {"base": "987654.32", "sign_on_year1": "13579", "stock_grant": "24680246"}


def _figure_in(text: str) -> list[str]:
    found = []
    for figure in FIGURES.values():
        digits = figure.split(".")[0]
        if re.search(re.escape(digits), text.replace(",", "")):
            found.append(figure)
    return found


@pytest.mark.django_db
def test_create_offer_logs_no_figure(client_alice, alice, all_logs):
    from offers.models import Offer

    response = client_alice.post(reverse("offers:offer_create"), offer_post(**FIGURES))
    assert response.status_code == 302
    assert Offer.objects.filter(owner=alice).count() == 1
    # A rejected form logs a 400: the path only, never the submitted figures.
    bad = client_alice.post(reverse("offers:offer_create"), offer_post(currency="!!", **FIGURES))
    assert bad.status_code == 400
    assert _figure_in(response["Location"]) == []
    text = "\n".join(
        f"{r.name} {r.getMessage()} {r.args!r} {getattr(r, 'request', '')!s}"
        for r in all_logs.records
    )
    assert _figure_in(text) == [], text
