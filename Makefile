# Two commands set everything up: `make run` and `make test`; `make check` is the inner loop.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test check fuzz lint format stop migrate demo bench clean sdk clients-deps secret-key

# DEBUG is off, so Django needs a secret key: on this machine a random one in .runtime/secret_key,
# readable by its owner only (made once, mode tightened to 0600), unless DJANGO_SECRET_KEY or
# DJANGO_SECRET_KEY_FILE is set already (docs/SECURITY.md, "Deployment").
export DJANGO_SECRET_KEY_FILE ?= $(CURDIR)/.runtime/secret_key

$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m config.portable_pgvector
	@touch $(STAMP)

install: $(STAMP)

secret-key: install
	@$(PY) -m config.secret_key $(DJANGO_SECRET_KEY_FILE)

migrate: install secret-key
	$(PY) manage.py migrate --noinput

# The backfill embeds what a migration left without its vectors (activities 0010 added the kind
# vector to rows indexed before it); when every row is current it reads them and stops.
demo: migrate
	$(PY) manage.py load_demo
	$(PY) manage.py backfill_embeddings

# Production settings (DEBUG off): gunicorn, WhiteNoise for static files (docs/SERVING.md).
run: demo
	@$(PY) manage.py ensure_staff
	@$(PY) manage.py serve

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

test: lint clients-deps
	$(PY) -m pytest -q $(PYTEST_ARGS)

# The inner loop (docs/DEVELOPING.md, "Tests"): lint, import contracts, and the tests that start
# no other process: not slow, not real_clock, no journeys, no fuzzer (nor its pytest plugin,
# 0.8 CPU-seconds a process to import), no fault suites. Tests that
# need only some vector use the stand-in embedding provider; `real_model` tests load the model once.
# `make test` (what CI runs) keeps running everything; TEST_EMBEDDING=real gives every test the model.
CHECK_SKIPS := --ignore=tests/journeys --ignore=tests/fuzz \
	--ignore=tests/platform/test_faults.py --ignore=tests/platform/test_worker_faults.py \
	--ignore=tests/rag/test_checks_faults.py -p no:schemathesis
# CHECK_WORKERS (default 2, the cores of the machine it was sized on): that many pytest-xdist
# processes, each with its own test database on the one embedded server (restored from the saved
# migrated schema, tests/schema_cache.py, or migrated). `--dist loadfile` keeps a module in one
# process (its fixtures made once). CHECK_WORKERS=0: one process.
# PYTHONDONTWRITEBYTECODE is emptied for it (Python then writes its bytecode cache, gitignored):
# where the environment sets it, every process compiled the project and rewrote the asserts of
# every test module again at each run, about 10 of the 17 CPU-seconds of collecting the tests,
# in each process (docs/BENCHMARKS.md, "make check").
CHECK_WORKERS ?= 2
check: lint
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q $(if $(filter-out 0,$(CHECK_WORKERS)),-n $(CHECK_WORKERS) --dist loadfile) \
		-m "not slow and not real_clock" $(CHECK_SKIPS) $(PYTEST_ARGS)

# The TypeScript client's pinned tools (openapi-typescript, openapi-fetch, tsc), when npm exists:
# the tests then also check and run the TypeScript client; without npm they say they skip it.
TS_STAMP := clients/typescript/node_modules/.installed
$(TS_STAMP): clients/typescript/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		(cd clients/typescript && npm ci --no-audit --no-fund --silent) && touch $(TS_STAMP); \
	else echo "npm not found: the TypeScript client is not checked"; fi

clients-deps: $(TS_STAMP)

# Regenerate the typed clients (clients/) from the current OpenAPI schema; commit the result.
sdk: install secret-key clients-deps
	$(PY) clients/generate.py

# The adversarial suite, searching longer than `make test` does (tests/fuzz/budget.py).
fuzz: install
	FUZZ_MAX_EXAMPLES=$${FUZZ_MAX_EXAMPLES:-100} FUZZ_COVERAGE=$${FUZZ_COVERAGE:-1} \
		$(PY) -m pytest -q tests/fuzz $(PYTEST_ARGS)

stop: install
	$(PY) -m config.embedded_db stop

bench: install
	@echo "See the Benchmarks section of README.md; e.g. $(PY) bench/vector_search.py --datasets ../shared/datasets"

clean: stop
	rm -rf .pgdata .runtime
