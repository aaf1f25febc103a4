# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1:8000

.PHONY: run test lint format bench clean

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --no-input
	$(PY) manage.py runserver $(HOST)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

test: lint
	$(VENV)/bin/pytest

bench: $(STAMP)
	$(PY) manage.py bench_engine

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
