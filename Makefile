# Two commands matter: `make run` and `make test`. Both bootstrap .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test venv openapi openapi-check bench fuzz load hostile calibrate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	HOST=$(HOST) PORT=$(PORT) $(BIN)/tiebreak serve   # the container's entry point: JSON logs, graceful shutdown

test: $(STAMP)
	$(BIN)/python -m pytest -q

openapi: $(STAMP)
	$(BIN)/python -m service.api.export openapi/openapi.json

openapi-check: $(STAMP)
	$(BIN)/python -m service.api.export --check openapi/openapi.json

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

# Many examples per operation (schemathesis) and random consistent crosstables over HTTP;
# `make test` runs the same tests with 15 examples each. FUZZ_EXAMPLES=… to change.
FUZZ_EXAMPLES ?= 1000
fuzz: $(STAMP)
	TIEBREAK_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) TIEBREAK_ACCESS_LOG=0 $(BIN)/python -m pytest -q -p no:logging \
		--hypothesis-show-statistics tests/ops/test_fuzz.py

# Throughput, latency and shedding of a real server on loopback, at 1x and 2x its capacity (docs/load.md).
load: $(STAMP)
	$(BIN)/python scripts/load.py

# Every hostile case of issue 10 against a real server on loopback, bounds asserted (docs/operations.md);
# `make test` runs the same cases at smaller sizes (tests/ops/test_hostile.py).
hostile: $(STAMP)
	$(BIN)/python scripts/hostile.py

# Re-measure the cost model's constants (service/api/cost.py) on the current engine.
calibrate: $(STAMP)
	$(BIN)/python scripts/calibrate_cost.py --check

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
