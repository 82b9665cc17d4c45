# Offerdesk's image: Python 3.11 slim, the runtime lock alone (no test tools), run as a non-root
# user. compose.yaml runs it as web, worker, beat and a one-off migrate. Not built on this
# project's machines (they have no Docker daemon): README, "Docker".
# The base pinned to one Python release on one Debian release (3.11, the version CI tests):
# a rebuild gets the same system until this line changes. Raise it for a security release.
FROM python:3.11.14-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH \
    MEDIA_ROOT=/data/media \
    BEAT_SCHEDULE=/tmp/celerybeat-schedule

# The runtime packages first (a layer kept until the lock changes), each file checked against
# its SHA-256. Every locked package has a manylinux wheel: no compiler needed.
COPY requirements.lock /tmp/requirements.lock
RUN python -m venv /opt/venv \
    && pip install --require-hashes -r /tmp/requirements.lock \
    && rm /tmp/requirements.lock

RUN groupadd --system --gid 10001 offerdesk \
    && useradd --system --uid 10001 --gid offerdesk --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin offerdesk \
    && mkdir -p /data/media \
    && chown offerdesk:offerdesk /data/media

WORKDIR /app
COPY . /app
# The static files, built into the image (whitenoise serves them): settings need a key to load,
# and this one is used for nothing else.
RUN SECRET_KEY=collectstatic-only-not-a-secret DEBUG=0 python manage.py collectstatic --noinput -v0
# The bytecode, compiled once here: the processes run as a user who cannot write to /app (and
# PYTHONDONTWRITEBYTECODE), so without it each start would compile every module again. The
# venv's packages were compiled by pip as it installed them.
RUN python -m compileall -q -j 0 /app

USER offerdesk
EXPOSE 8000
# /healthz answers JSON; 200 only when the database (all migrations applied) and the broker
# answer. Host: the first of ALLOWED_HOSTS, which Django checks.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import json, os, urllib.request as u; r = u.urlopen(u.Request('http://127.0.0.1:8000/healthz', headers={'Host': os.environ.get('ALLOWED_HOSTS', 'localhost').split(',')[0]}), timeout=4); assert json.load(r)['status'] == 'ok'"]
# The Procfile's web process, listening on the container's own interfaces.
CMD ["gunicorn", "config.wsgi", "-c", "config/gunicorn.py", "--bind", "0.0.0.0:8000"]
