# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1:8000
# The suite runs on PostgreSQL when it answers here (as in CI), else on SQLite with the tests that need PostgreSQL
# skipped; TEST_DATABASE_URL=sqlite runs it on SQLite whatever answers (CI's second run, where those skips are meant).
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/sh_moderator
# Each pytest-xdist worker takes this Redis database's number plus its own (gw0: 8, gw1: 9, ...): at most 8 workers.
# When Redis does not answer, the suite runs on kombu's file broker and each process's memory.
TEST_REDIS_URL ?= redis://127.0.0.1:6379/8
# The suite runs on every core (one pytest-xdist worker a core, at most 8); TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= auto
PYTEST = $(VENV)/bin/pytest
PARALLEL = -n $(TEST_WORKERS) --maxprocesses 8 --dist loadgroup
# The tests that stop and start servers of their own (the chaos scenarios, the site's processes) run after the
# rest, alone: while one of their servers is down its port is free, and a test on another worker could take it.
ALONE = chaos or processes
FAST = -m "not e2e and not chaos and not processes and not slow"

.PHONY: run test test-fast lint format docs docs-api bench bench-db bench-deadlines bench-reminders bench-thread bench-live bench-moves bench-pages bench-follow bench-push bench-ratings chaos clean

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt -e '.[dev]'
	touch $(STAMP)

# The site in development mode (its default is production, which refuses to start without a SECRET_KEY). Links in
# emails and the calendar, and the demo's sign-in link, point where the site runs (HOST), unless SITE_URL says
# otherwise.
run: $(STAMP)
	mkdir -p var/broker/processed
	DEBUG=1 $(PY) manage.py migrate --no-input
	-DEBUG=1 HOST=$(HOST) SITE_URL="$${SITE_URL:-http://$(HOST)}" $(PY) manage.py demo
	DEBUG=1 $(PY) manage.py vapid_keys --file var/vapid-private-key
	DEBUG=1 HOST=$(HOST) SITE_URL="$${SITE_URL:-http://$(HOST)}" VAPID_PRIVATE_KEY_FILE=var/vapid-private-key $(VENV)/bin/honcho start

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# The documentation by reader (docs/, mkdocs.yml) as a site in var/site/; --strict fails on a broken link or anchor
# and on a page missing from the nav. docs-api writes the API reference again from the live OpenAPI schema
# (docs/integrating/openapi.json and api-reference.md; tests/docs/ fails while they differ from it).
docs: $(STAMP)
	$(VENV)/bin/mkdocs build --strict

docs-api: $(STAMP)
	$(DEV) $(PY) manage.py api_reference

# axe-core, from the npm registry, for the accessibility checks the browser tests inject into Chromium.
AXE := node_modules/axe-core/axe.min.js
$(AXE): package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --silent && touch $(AXE); \
	else echo "make test: npm is missing: the accessibility checks are skipped"; fi

# pytest on PostgreSQL and Redis where they answer at TEST_DATABASE_URL and TEST_REDIS_URL (as in CI), else without
# them, the tests that need them skipped with their reason (tests/services.py says which); $(1): more arguments.
define run_pytest
	@DEVTOOLS=1 $(PY) -m tests.services "$(TEST_DATABASE_URL)" "$(TEST_REDIS_URL)" $(PYTEST) $(1)
endef

test: lint $(AXE)
	$(call run_pytest,$(PARALLEL) -m "not ($(ALONE))")
	$(call run_pytest,-m "$(ALONE)")

# Engine, services and views, in about a minute: not the browser, the chaos scenarios or the site's own processes.
test-fast: $(STAMP)
	$(call run_pytest,$(PARALLEL) $(FAST))

# The measuring code lives in the devtools app, which DEVTOOLS=1 installs, and runs in development mode (DEBUG=1:
# the site's default is production, which refuses to start without a SECRET_KEY).
DEV := DEBUG=1 DEVTOOLS=1

bench: $(STAMP)
	$(DEV) $(PY) manage.py bench_engine

bench-db: $(STAMP)
	-psql "$(dir $(TEST_DATABASE_URL))postgres" -qc "CREATE DATABASE $(notdir $(TEST_DATABASE_URL))" 2>/dev/null
	$(DEV) DATABASE_URL="$(TEST_DATABASE_URL)" $(PY) manage.py migrate --no-input -v0

bench-deadlines: bench-db
	$(DEV) DATABASE_URL="$(TEST_DATABASE_URL)" $(PY) manage.py bench_deadlines --games 10000

bench-reminders: bench-db
	$(DEV) DATABASE_URL="$(TEST_DATABASE_URL)" $(PY) manage.py bench_reminders --users 2000

bench-thread: bench-db
	$(DEV) DATABASE_URL="$(TEST_DATABASE_URL)" $(PY) manage.py bench_thread --posts 1000

bench-moves: bench-db
	$(DEV) DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(PY) manage.py bench_moves --games 200 --clients 8 --seconds 30

bench-pages: bench-db
	$(DEV) DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(PY) manage.py bench_pages --clients 20 --seconds 15

bench-follow: bench-db
	$(DEV) DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(PY) manage.py bench_follow --followers 200 --seconds 15

# From a move to its "your move" push (a push service on loopback) and email (an SMTP server on loopback), 100 games
# moving at once, the Celery worker sending (docs/measurements.md).
bench-push: bench-db
	$(DEV) DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(PY) manage.py bench_push --games 100 --waves 3

bench-live: bench-db
	$(DEV) DATABASE_URL="$(TEST_DATABASE_URL)" $(PY) manage.py bench_live --posts 1000 --polls 300

# The ratings beside Elo and plain OpenSkill on simulated leagues, and the calibration of the site's rated games.
bench-ratings: bench-db
	$(DEV) DATABASE_URL="$(TEST_DATABASE_URL)" $(PY) manage.py bench_ratings

# The outage scenarios at full length (about 20 minutes): a 10-minute broker outage, a database restart mid-sweep
# and mid-move, an hour of mail outage in game time. Prints what was due, handled, doubled and lost.
chaos: bench-db
	$(DEV) DATABASE_URL="$(TEST_DATABASE_URL)" $(PY) manage.py chaos

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis var node_modules
