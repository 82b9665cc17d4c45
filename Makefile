# Offerdesk: two commands for a fresh machine — `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8000
PYTEST_ARGS ?=
# What mypy checks, strict (pyproject.toml): the pure cores and their seams with Django.
TYPED := compensation/engine offers/logic compensation/terms.py compensation/selectors \
	offers/services.py offers/services_negotiation.py offers/board.py offers/board_hours.py \
	offers/board_paths.py offers/valuation_basis.py
# Processes for the parallel-safe tests (pytest-xdist): auto = one a CPU; 0 = no xdist.
PYTEST_WORKERS ?= auto
BEAT_SCHEDULE ?= $(VENV)/celerybeat-schedule

.PHONY: install run test lint typecheck pytest worker beat serve serve-local bench bench-readme \
	screenshots messages schemas docs-negotiation clean lock plotly

# From the hashed development lock: every package at its pinned version, each file checked
# against the SHA-256 recorded in requirements-dev.lock (`make lock` rewrites both locks after a
# pin changes). A server installs requirements.lock, the runtime packages alone (README).
$(BIN)/.installed: requirements.txt requirements-dev.txt constraints.txt requirements-dev.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q --require-hashes -r requirements-dev.lock
	touch $@

install: $(BIN)/.installed

# DEBUG is off unless asked for; a development machine asks.
run: export DEBUG ?= 1
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_reference
	$(BIN)/python manage.py seed_demo
	@echo ""
	@echo "  Offerdesk is running at http://127.0.0.1:$(PORT)/"
	@echo "  Log in as demo / offerdesk-demo"
	@echo ""
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Regenerate the hashed locks after changing a pin in requirements*.txt and constraints.txt:
# requirements.lock (runtime: what a server installs) from requirements.txt, and
# requirements-dev.lock (runtime, tests and tools: `make install`) from requirements-dev.txt,
# both held to constraints.txt. pip-tools runs from its own throw-away environment.
LOCK_TOOLS ?= .lock-tools
LOCK_FLAGS := --quiet --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-index-url --no-emit-find-links --constraint constraints.txt
lock:
	test -x $(LOCK_TOOLS)/bin/pip-compile || \
		($(PYTHON) -m venv $(LOCK_TOOLS) && $(LOCK_TOOLS)/bin/pip install -q pip-tools==7.6.2)
	$(LOCK_TOOLS)/bin/pip-compile $(LOCK_FLAGS) --output-file requirements.lock requirements.txt
	$(LOCK_TOOLS)/bin/pip-compile $(LOCK_FLAGS) --output-file requirements-dev.lock requirements-dev.txt

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy $(TYPED)

pytest: install
	DJANGO_SETTINGS_MODULE=config.settings_test $(BIN)/python manage.py makemigrations --check --dry-run
	@# The parallel-safe tests on PYTEST_WORKERS processes, then the `serial` ones (real broker
	@# and worker, browser, live server; marked in tests/conftest.py) in one. Exit code 5 is
	@# "no test selected" (a PYTEST_ARGS subset with none of one kind). loadgroup: one worker takes
	@# all of a module's tests on the shared demo (tests/conftest.py), so it is seeded once.
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup -m "not serial" $(PYTEST_ARGS) \
		|| [ $$? -eq 5 ]
	$(BIN)/python -m pytest -q -m serial $(PYTEST_ARGS) || [ $$? -eq 5 ]

test: lint typecheck pytest

worker: install
	$(BIN)/celery -A config worker --loglevel=INFO --concurrency=2

# The periodic jobs (trash purge, old export files): run exactly one beat per deployment.
beat: install
	$(BIN)/celery -A config beat --loglevel=INFO --schedule=$(BEAT_SCHEDULE)

# Production mode, as the Procfile's web process: DEBUG off and HTTPS-only (SECURE_SSL on), so
# it needs SECRET_KEY and the README's settings, and a proxy that terminates HTTPS in front
# (TRUST_X_FORWARDED_PROTO=1). To try it over plain HTTP on this machine: make serve-local.
serve: install
	DEBUG=0 $(BIN)/python manage.py collectstatic --noinput -v0
	DEBUG=0 $(BIN)/gunicorn config.wsgi -c config/gunicorn.py --bind 127.0.0.1:$(PORT)

# Production mode over plain HTTP at http://127.0.0.1:$(PORT)/, for a try on this machine only:
# HTTPS-only parts off and, without SECRET_KEY in the environment, a throw-away key.
serve-local: export SECRET_KEY ?= $(shell $(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(50))')
serve-local: install
	DEBUG=0 SECURE_SSL=0 $(BIN)/python manage.py collectstatic --noinput -v0
	DEBUG=0 SECURE_SSL=0 $(BIN)/gunicorn config.wsgi -c config/gunicorn.py --bind 127.0.0.1:$(PORT)

bench: install
	$(BIN)/python bench/bench_montecarlo.py

# The README's benchmark table (its part between the `make bench-readme` markers), rewritten
# from each benchmark run in turn (tools/bench_readme.py): several minutes of both cores.
# bench_load needs PostgreSQL and Redis, else its rows are kept. BENCH_ONLY=bench_load: only it.
BENCH_ONLY ?=
bench-readme: install
	$(BIN)/python tools/bench_readme.py $(BENCH_ONLY)

# Rebuild static/vendor/plotly-<version>-offerdesk.min.js (plotly.js with the traces of
# tools/plotly/traces.json alone) with npm, from tools/plotly's lock; after a new `plotly` pin,
# set tools/plotly/package.json's plotly.js to the version it bundles first. Needs node and npm.
plotly:
	cd tools/plotly && npm ci --no-audit --no-fund && node build.mjs

screenshots: install
	$(BIN)/python tests/browser/take_screenshots.py

# The catalogue as makemessages writes it (tools/messages.py: its options, its date kept when
# nothing else changed), then compiled; tests/test_messages.py fails on any difference.
messages: install
	$(BIN)/python tools/messages.py

# The export's JSON Schema files from the models and the export's tables (tools/schemas.py);
# tests/offers/test_schemas.py fails on any difference.
schemas: install
	$(BIN)/python tools/schemas.py

# docs/negotiation.md from the negotiation pages of the demo (tests/test_docs_negotiation.py).
docs-negotiation: install
	OFFERDESK_WRITE_DOCS=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_docs_negotiation.py

clean:
	rm -rf $(VENV) staticfiles .pytest-worker.log .lock-tools
