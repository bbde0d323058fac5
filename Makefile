# Two commands matter: `make run` and `make test`. Both bootstrap .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test venv openapi openapi-check bench conformance fuzz load clean

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

# Per conformance corpus: cases agreeing / total (scripts/conformance.py -v lists disagreements).
conformance: $(STAMP)
	$(BIN)/python scripts/conformance.py

# Many examples per operation (schemathesis) and random consistent crosstables over HTTP;
# `make test` runs the same tests with 15 examples each. FUZZ_EXAMPLES=… to change.
FUZZ_EXAMPLES ?= 1000
fuzz: $(STAMP)
	TIEBREAK_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) TIEBREAK_ACCESS_LOG=0 $(BIN)/python -m pytest -q -p no:logging \
		--hypothesis-show-statistics tests/ops/test_fuzz.py

# Throughput and latency of a real 2-worker uvicorn on loopback (see docs/load.md).
load: $(STAMP)
	$(BIN)/python scripts/load.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
