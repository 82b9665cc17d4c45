"""Offerdesk settings, read from the environment with embedded defaults.

No configuration: SQLite in the project folder, Celery tasks run eagerly, DEBUG off (so a
SECRET_KEY is required; `make run` sets DEBUG=1). `DATABASE_URL` switches to PostgreSQL
(psycopg 3) or another SQLite file; `CELERY_BROKER_URL` to a real broker; `CACHE_URL` to a shared
Redis cache (required with DEBUG off and a Redis broker). Every setting read here is listed in
`.env.example`.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.email import email_settings
from config.logformat import log_handlers

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    """Return a boolean read from the environment ("1", "true", "yes" are true)."""
    return os.environ.get(name, default).strip().lower() in ("1", "true", "yes", "on")


def envint(name: str, default: str) -> int:
    """Return an integer read from the environment."""
    return int(os.environ.get(name, default))


# Fail closed: DEBUG only when asked for, and no made-up secret key outside DEBUG.
DEBUG = envbool("DEBUG", "0")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set and DEBUG is off (the default). On a server, export "
            "SECRET_KEY=<50+ random characters> (python -c 'import secrets; "
            "print(secrets.token_urlsafe(50))'); on a development machine, set DEBUG=1 "
            "(`make run` does). See .env.example."
        )
    SECRET_KEY = "django-insecure-local-only-offerdesk-key-change-me-in-production-0123456789"
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
# What links in mail sent without a request (reminders) start with.
SITE_URL = (os.environ.get("SITE_URL") or "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.forms",  # the widget templates, for FORM_RENDERER
    "axes",
    "csp",
    "accounts",
    "compensation",
    "interviews",
    "offers",
]

MIDDLEWARE = [
    # /healthz for any Host (a probe by address), before anything reads the Host.
    "config.middleware.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # request.htmx; an htmx request sent to log in gets HX-Redirect (config/htmx.py).
    "django_htmx.middleware.HtmxMiddleware",
    "config.htmx.HtmxLoginRedirectMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The first to load the session and the user: the database down is a 503 there, for
    # everyone, before any middleware below touches them (config/middleware.py).
    "config.middleware.ServiceUnavailableMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    # Before the session timeout, which leaves a "your session ended" message.
    "django.contrib.messages.middleware.MessageMiddleware",
    "accounts.middleware.SessionTimeoutMiddleware",
    "offers.middleware.UserTimezoneMiddleware",
    "accounts.middleware.NoStoreMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
]

# Forms render through Django's form templates (a field: templates/forms/field.html), so the
# help text and error ids that each input's aria-describedby names exist.
FORM_RENDERER = "config.forms.FormRenderer"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "csp.context_processors.nonce",
                "accounts.context_processors.signup_open",
            ],
        },
    },
]

# A call to the broker gives up after SERVICE_TIMEOUT seconds, to connect and for each answer
# (the cache's after 2: cache_settings), and so does a connection to PostgreSQL. A Redis that
# hangs (stopped, or a network that drops its packets) accepts connections and never answers:
# without a socket timeout a publish or a ping waited minutes, holding a web server thread.
SERVICE_TIMEOUT = envint("SERVICE_TIMEOUT", "3")

# Database: SQLite by default, PostgreSQL (psycopg 3) or SQLite through DATABASE_URL.
SQLITE_OPTIONS = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
if os.environ.get("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"],
            conn_max_age=envint("DB_CONN_MAX_AGE", "60"),
            conn_health_checks=True,
        )
    }
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # libpq's option: sqlite3.connect() refuses it.
        _options["connect_timeout"] = envint("DB_CONNECT_TIMEOUT", str(SERVICE_TIMEOUT))
    elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        for _name, _value in SQLITE_OPTIONS.items():
            _options.setdefault(_name, _value)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    }
DATABASES["default"]["ATOMIC_REQUESTS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Auth
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 12},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "offers:dashboard"
LOGOUT_REDIRECT_URL = "login"
# Public sign-up: open by default only with DEBUG. A server for one person or a team sets
# SIGNUP_OPEN=0 (the default outside DEBUG) and creates accounts with `manage.py create_user NAME`
# or opens sign-up for a moment.
SIGNUP_OPEN = envbool("SIGNUP_OPEN", "1" if DEBUG else "0")

# Log-in rate limiting, with a cool-off: a username at one address is locked after
# AXES_FAILURE_LIMIT failures, and an address alone (whatever usernames it tries) after
# AXES_ADDRESS_FAILURE_LIMIT, counted by accounts.lockout.TwoLimitHandler.
AXES_ENABLED = envbool("AXES_ENABLED", "1")
AXES_HANDLER = "accounts.lockout.TwoLimitHandler"
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", "5")
AXES_ADDRESS_FAILURE_LIMIT = envint("AXES_ADDRESS_FAILURE_LIMIT", "20")
AXES_COOLOFF_TIME = 0.25  # hours: the lock lifts by itself, so nobody is locked out forever
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
# A failure during a lock-out does not restart the cool-off: the lock always lifts 15 minutes
# after the failure that set it, however often someone keeps trying.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Behind n reverse proxies set AXES_IPWARE_PROXY_COUNT=n: the client is then the n-th address
# from the right of X-Forwarded-For (see accounts.client_ip); unset, only REMOTE_ADDR counts.
AXES_IPWARE_PROXY_COUNT = envint("AXES_IPWARE_PROXY_COUNT", "0") or None
AXES_CLIENT_IP_CALLABLE = "accounts.client_ip.client_ip"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

# Password reset by email (accounts.reset): at most PASSWORD_RESET_LIMIT requests for one email
# address and PASSWORD_RESET_ADDRESS_LIMIT from one client address (accounts.client_ip, as the
# log-in lock-out) in each AXES_COOLOFF_TIME window. A link works for PASSWORD_RESET_TIMEOUT.
PASSWORD_RESET_LIMIT = envint("PASSWORD_RESET_LIMIT", "3")
PASSWORD_RESET_ADDRESS_LIMIT = envint("PASSWORD_RESET_ADDRESS_LIMIT", "10")
PASSWORD_RESET_TIMEOUT = envint("PASSWORD_RESET_TIMEOUT", "3600")

# Email (password reset, reminders): EMAIL_URL (config.email: smtp+tls://user:pw@host:587,
# smtps://, smtp://, console://, locmem://), or Django's EMAIL_HOST/EMAIL_PORT/EMAIL_HOST_USER/
# EMAIL_HOST_PASSWORD/EMAIL_USE_TLS; neither: each message is written to the console log.
_email = email_settings(os.environ.get("EMAIL_URL", ""), host=os.environ.get("EMAIL_HOST", ""))
# Whether the deployment chose how mail goes (`check --deploy` warns when it did not, DEBUG off).
EMAIL_CONFIGURED = bool(os.environ.get("EMAIL_URL") or os.environ.get("EMAIL_HOST"))
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST", os.environ.get("EMAIL_HOST", "localhost"))
EMAIL_PORT = _email.get("EMAIL_PORT", envint("EMAIL_PORT", "25"))
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER", os.environ.get("EMAIL_HOST_USER", ""))
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD", os.environ.get("EMAIL_HOST_PASSWORD", ""))
EMAIL_USE_TLS = _email.get("EMAIL_USE_TLS", envbool("EMAIL_USE_TLS", "0"))
EMAIL_USE_SSL = _email.get("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", "10")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Offerdesk <offerdesk@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Sessions: 30 minutes idle, 12 hours in all (see accounts.middleware.SessionTimeoutMiddleware).
SESSION_IDLE_SECONDS = envint("SESSION_IDLE_SECONDS", "1800")
SESSION_ABSOLUTE_SECONDS = envint("SESSION_ABSOLUTE_SECONDS", "43200")
SESSION_COOKIE_AGE = SESSION_ABSOLUTE_SECONDS
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True
# Exports, the report, backup, restore and deleting the account need a password typed within
# this many seconds (log-in counts); see accounts.reauth.
REAUTH_SECONDS = envint("REAUTH_SECONDS", "600")

# Production hardening, on whenever DEBUG is off (SECURE_SSL=0 turns HTTPS-only parts off).
SECURE_SSL = envbool("SECURE_SSL", "0" if DEBUG else "1")
SESSION_COOKIE_SECURE = SECURE_SSL
CSRF_COOKIE_SECURE = SECURE_SSL
SECURE_SSL_REDIRECT = SECURE_SSL
SECURE_HSTS_SECONDS = 31536000 if SECURE_SSL else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_SSL
SECURE_HSTS_PRELOAD = SECURE_SSL
# Behind a reverse proxy that terminates HTTPS and sets X-Forwarded-Proto (overwriting any the
# client sent), set TRUST_X_FORWARDED_PROTO=1 so that Django sees those requests as HTTPS.
# Unset, the header is ignored: without such a proxy any client could claim HTTPS with it.
TRUST_X_FORWARDED_PROTO = envbool("TRUST_X_FORWARDED_PROTO", "0")
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TRUST_X_FORWARDED_PROTO else None
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        # plotly.js and htmx set inline style attributes; scripts stay nonce-only.
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:", "blob:"],
        "font-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Internationalisation
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hant", _("Traditional Chinese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]  # zh-Hant amounts grouped by thousands
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

# Static files: served by whitenoise under gunicorn, gzip-compressed by collectstatic; all
# local, no CDN. plotly.js is static/vendor's partial bundle of the
# version the Python library bundles (accounts.charts.PLOTLY_JS; rebuilt by `make plotly`).
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", str(BASE_DIR / "media")))
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
IMPORT_MAX_BYTES = envint("IMPORT_MAX_BYTES", str(20 * 1024 * 1024))
# Background export files are deleted this many days after they were asked for.
EXPORT_RETENTION_DAYS = envint("EXPORT_RETENTION_DAYS", "7")
# MEDIA_ROOT folders holding one sub-folder per user id; deleting an account deletes its own.
USER_MEDIA_DIRS = ["exports", "restores"]

# Celery: eager by default; a real broker (Redis) with CELERY_BROKER_URL.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
# Without a broker, the scenario Monte Carlo runs on a thread of the web process, so that its
# request answers at once and the page polls its progress (config/background.py).
EAGER_TASKS_IN_BACKGROUND = envbool("EAGER_TASKS_IN_BACKGROUND", "1")
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Each task's soft and hard time limits in seconds, in this one place: Celery applies them
# (CELERY_TASK_ANNOTATIONS), a task not listed gets the defaults below, and the broker's
# visibility timeout is derived from the longest. At start-up config/checks.py fails if a name
# is no task or if the visibility timeout is not above every task's limit.
TASK_TIME_LIMITS = {
    "accounts.tasks.trash_purge_task": (60, 90),
    "accounts.tasks.password_reset_mail_task": (60, 90),
    "offers.tasks.reminders_send_task": (240, 300),
    "offers.tasks.scenario_monte_carlo_task": (240, 300),
    "offers.tasks.export_files_purge_task": (300, 360),
    "offers.export.jobs.job_run_task": (1800, 1900),  # an export or a restore
    "offers.tasks.jobs_unclaimed_sweep_task": (60, 90),
}
CELERY_TASK_SOFT_TIME_LIMIT = 300
CELERY_TASK_TIME_LIMIT = 360
CELERY_TASK_ANNOTATIONS = {
    name: {"soft_time_limit": soft, "time_limit": hard}
    for name, (soft, hard) in TASK_TIME_LIMITS.items()
}
LONGEST_TASK_SECONDS = max(CELERY_TASK_TIME_LIMIT, *(hard for _, hard in TASK_TIME_LIMITS.values()))
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_TIMEOUT = SERVICE_TIMEOUT
# A publish that fails is not tried again: kombu's retry reconnects, pinging up to twice, so on a
# hung broker one retry cost two more socket timeouts (9 s in all, measured). A broker that was
# restarted needs none: redis-py replaces a pooled connection the server closed as it hands it out.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 0}
# /healthz pings the workers: wait this long for an answer, keep the answer this long.
HEALTH_WORKER_TIMEOUT = float(os.environ.get("HEALTH_WORKER_TIMEOUT", "1.0"))
HEALTH_WORKER_CACHE = envint("HEALTH_WORKER_CACHE", "10")
# A job still queued after this many seconds asks the workers (the same ping, cached); with no
# answer its page says that no worker has picked it up.
JOB_WORKER_WAIT_SECONDS = envint("JOB_WORKER_WAIT_SECONDS", "10")
# A job queued this long with no claim is sent again, once (its message was lost), and failed
# if it waits as long again: offers.export.jobs.jobs_unclaimed_sweep, run by beat every minute.
JOB_UNCLAIMED_SECONDS = envint("JOB_UNCLAIMED_SECONDS", "600")

# Error reporting: off unless SENTRY_DSN is set; personal data off (config/sentry.py).
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    from config.sentry import sentry_init

    sentry_init(
        dsn=SENTRY_DSN,
        environment=os.environ.get("SENTRY_ENVIRONMENT", ""),
        release=os.environ.get("SENTRY_RELEASE", ""),
        traces=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
    )
# A message whose worker died unacknowledged is redelivered after this many seconds. It must
# exceed the longest task's time limit, or a task still running is delivered a second time:
# by default the longest limit and five minutes. Tests that kill workers lower it.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", str(LONGEST_TASK_SECONDS + 300)),
    "max_retries": 1,
    # redis-py's timeouts (kombu passes them on); above the workers' 1 s BRPOP poll.
    "socket_connect_timeout": SERVICE_TIMEOUT,
    "socket_timeout": SERVICE_TIMEOUT,
}

# Periodic jobs, sent by one `celery beat` process (`make beat`) to the workers. Both are cheap
# and idempotent; CLEANUP_EVERY_SECONDS is lowered only by the tests that watch them run.
CLEANUP_EVERY_SECONDS = envint("CLEANUP_EVERY_SECONDS", "3600")
REMINDERS_EVERY_SECONDS = envint("REMINDERS_EVERY_SECONDS", "900")
CELERY_BEAT_SCHEDULE = {
    # Trash entries older than 30 days (accounts.history.TRASH_DAYS) are deleted for good.
    "trash-purge": {
        "task": "accounts.tasks.trash_purge_task",
        "schedule": float(CLEANUP_EVERY_SECONDS),
    },
    # Export files older than EXPORT_RETENTION_DAYS.
    "export-files-purge": {
        "task": "offers.tasks.export_files_purge_task",
        "schedule": float(CLEANUP_EVERY_SECONDS),
    },
    # Jobs queued with no claim: sent again, then failed. A sweep late by a minute is dropped
    # (piled up while no worker ran, it would fail jobs whose messages wait just ahead of it).
    "jobs-unclaimed-sweep": {
        "task": "offers.tasks.jobs_unclaimed_sweep_task",
        "schedule": 60.0,
        "options": {"expires": 60},
    },
    # Deadline and interview reminders by email (offers.reminders), each sent once.
    "reminders-send": {
        "task": "offers.tasks.reminders_send_task",
        "schedule": float(REMINDERS_EVERY_SECONDS),
    },
}

# Every line says when, how bad and where from; LOG_FORMAT=json for one JSON object a line.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text")


def cache_settings(cache_url: str, key_prefix: str) -> dict[str, dict[str, object]]:
    """Return CACHES: the Redis at CACHE_URL, else (empty or locmem://) each process's memory."""
    if cache_url.startswith(("redis://", "rediss://")):
        return {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": cache_url,
                "KEY_PREFIX": key_prefix,
                # A page asks the cache often: a cache that hangs costs two seconds, once
                # (config.cache then leaves it alone for a few seconds).
                "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
            }
        }
    if cache_url and not cache_url.startswith("locmem://"):
        raise ValueError(f"CACHE_URL must be redis://, rediss:// or locmem://, not {cache_url!r}")
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "offerdesk",
            "KEY_PREFIX": key_prefix,
            "OPTIONS": {"MAX_ENTRIES": 500},
        }
    }


# Cache (each user's board, Monte Carlo results): shared by every process when it is Redis. Two
# instances on one Redis each need their own database number or their own CACHE_KEY_PREFIX.
CACHE_URL = os.environ.get("CACHE_URL", "")
if not CACHE_URL and not DEBUG and CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # A deployment with workers has several processes: each with its own cache would be slow
    # and unnoticed, and guessing a database on the broker's Redis may share another's cache.
    raise ImproperlyConfigured(
        "CACHE_URL is not set, and DEBUG is off with a Redis broker. Set CACHE_URL to the "
        "cache every process of this instance shares, e.g. CACHE_URL=redis://127.0.0.1:6379/1 "
        "(a database number no other instance uses, or a CACHE_KEY_PREFIX of its own), or "
        "CACHE_URL=locmem:// for each process's own memory. See .env.example."
    )
CACHES = cache_settings(CACHE_URL, os.environ.get("CACHE_KEY_PREFIX", "offerdesk"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Formatters, the token redaction and the console handler, shared with gunicorn and Celery.
    **log_handlers(LOG_FORMAT),
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        # Request logs carry only paths; salary figures are never put in URLs.
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        # A worker's task lines (received, succeeded, failed), through the root's handler.
        "celery": {"level": "INFO"},
    },
}

if os.environ.get("OFFERDESK_FAST_HASHER"):
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LOGIN_URL_PATH = "/accounts/login/"
STATIC_URL_PATH = "/" + STATIC_URL
WHITENOISE_USE_FINDERS = True
