# Two commands matter: `make run` and `make test` (`make lint`, then the tests). Both bootstrap .venv
# on first use, from the committed locks (requirements/run.txt, requirements/test.txt; `make lock`
# refreshes them).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# `make run` logs readable lines for a terminal; the container (tiebreak serve) logs JSON.
LOG_FORMAT ?= text
UV_VERSION := 0.13.9

.PHONY: run test lint venv run-venv i18n openapi openapi-check clients bench conformance fuzz load hostile calibrate lock clean

run-venv:
	@$(PYTHON) -m tools.make_venv run

venv:
	@$(PYTHON) -m tools.make_venv test

run: run-venv
	HOST=$(HOST) PORT=$(PORT) TIEBREAK_LOG_FORMAT=$(LOG_FORMAT) $(BIN)/tiebreak serve   # graceful shutdown on Ctrl-C

# Lint and format check (ruff), types (mypy: strict on engine/, formats/, wire/), the layers' imports
# (import-linter: the contracts in pyproject.toml). `make test` runs it first.
lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# The tests' node packages from the committed npm locks, as .ci/run installs them: axe-core (the
# page's accessibility check) and the TypeScript client tools (clients/). Only where npm is
# installed, and again only when a lock changes; without them those tests skip, saying why.
NODE_MODULES := $(if $(shell command -v npm 2>/dev/null),node_modules/.package-lock.json clients/node_modules/.package-lock.json)

# The test files spread over the machine's cores by pytest-xdist, each file's tests in one worker (its
# module fixtures built once); the ten slowest tests after the summary (docs/development.md, "The test
# suite"). PYTHONDONTWRITEBYTECODE= : the interpreters the suite starts (servers, compute workers, the
# installed command) read the package compiled once, even where the environment says not to write it.
test: venv lint $(NODE_MODULES)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n auto --dist loadfile --durations=10

node_modules/.package-lock.json: package-lock.json
	-npm ci --no-audit --no-fund

clients/node_modules/.package-lock.json: clients/package-lock.json
	-npm ci --no-audit --no-fund --prefix clients

# The message catalogues (docs/languages.md): extract every msg/msg_n id from the source, merge new
# ones into service/tiebreak/texts/locale/*.po, then fail on any gap (untranslated, placeholders).
i18n: run-venv
	$(BIN)/python -m tiebreak.texts.catalogue_check --update

openapi: run-venv
	$(BIN)/python -m tiebreak.http.export openapi/openapi.json

openapi-check: run-venv
	$(BIN)/python -m tiebreak.http.export --check openapi/openapi.json

# A Python client and TypeScript types and SDK generated from the document into build/clients (not
# committed; docs/clients.md). The npm tools come from clients/package-lock.json; without node, Python only.
clients: venv
	$(BIN)/python -m tools.clients build/clients

# Re-resolve the locks from pyproject.toml (newest versions allowed there), with hashes, for every
# platform and Python 3.11+. The run lock takes the test lock's versions, so they never disagree.
lock:
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/python -m pip install --quiet uv==$(UV_VERSION)
	.venv-lock/bin/uv pip compile pyproject.toml requirements/build.in --extra test --universal \
		--python-version 3.11 --generate-hashes --quiet -o requirements/test.txt
	.venv-lock/bin/uv pip compile pyproject.toml requirements/build.in --universal \
		--python-version 3.11 --generate-hashes --quiet -c requirements/test.txt -o requirements/run.txt

bench: venv
	$(BIN)/python -m bench

# Per conformance corpus: cases agreeing / total (python -m tools.conformance -v lists disagreements).
conformance: venv
	$(BIN)/python -m tools.conformance

# The random exploration: schemathesis over every operation, random consistent crosstables and
# NDJSON batches, FUZZ_EXAMPLES each, a new seed every run, against a uvicorn with the test-only
# lower limits (tests/contract/target.py). `make test` runs schemathesis and the crosstables
# derandomized, with fewer examples (docs/operations.md, "Fuzzing"). -m: every test of the file,
# the `fuzz`-marked ones too (pyproject's addopts leave them out).
FUZZ_EXAMPLES ?= 1000
fuzz: venv
	TIEBREAK_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) TIEBREAK_ACCESS_LOG=0 $(BIN)/python -m pytest -q -p no:logging \
		-m "fuzz or not fuzz" --hypothesis-show-statistics tests/ops/test_fuzz.py

# Throughput, latency and shedding of a real server on loopback, at 1x and 2x its capacity (docs/load.md).
load: venv
	$(BIN)/python -m tools.load

# Every hostile case of issue 10 against a real server on loopback, bounds asserted (docs/operations.md);
# `make test` runs the same cases at smaller sizes (tests/ops/test_hostile.py).
hostile: venv
	$(BIN)/python -m tools.hostile

# Re-measure the cost model's constants (service/tiebreak/usecases/cost.py) on the current engine and compare
# them with cost.py as it is. On a shared machine: twice at the quietest moment with --json, then
# --merge the two files (the larger figure per constant; docs/operations.md, "Bounded work").
calibrate: venv
	$(BIN)/python -m tools.calibrate_cost --check

clean:
	rm -rf $(VENV) .venv-lock .pytest_cache .hypothesis
