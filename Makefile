# Two commands are all the set-up a user needs: `make demo` and `make test`.
# Both create/refresh the local virtual environment (.venv) from pyproject.toml when needed.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint bench fuzz clean

# The install says what it does, then stays quiet unless something fails: setuptools' notice
# about editable installs (a block of asterisks that reads like an error) is filtered out by
# its message; pip's real warnings and errors still show.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "kalarite: installing kalarite into $(VENV) (about a minute the first time)..."
	@$(PY) -m pip install --quiet --upgrade pip
	@PYTHONWARNINGS="ignore:Editable installation" $(PY) -m pip install --quiet -e ".[dev]"
	@touch $(STAMP)
	@echo "kalarite: installed into $(VENV)"

demo: $(STAMP)
	$(VENV)/bin/kalarite demo

# The suite runs on every core (pytest-xdist): 11 minutes on 2 cores, about 20 in one process.
test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q -n auto

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean:
	rm -rf $(VENV) build *.egg-info runs
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

bench: $(STAMP)
	@mkdir -p benchmarks/results
	$(VENV)/bin/kalarite bench --out benchmarks/results/latest.json

# The input fuzzer's long run: 100 mutants of each kind (card files, position files, study
# specs) and 25 structural ones of each (nesting thousands deep, huge values and files, odd
# encodings), each through the real command line in its own process with a timeout (many
# minutes; MUTANTS=20 for a short run).
fuzz: $(STAMP)
	@mkdir -p benchmarks/results
	$(PY) -m benchmarks.fuzz_input --mutants $(or $(MUTANTS),100) --out benchmarks/results/fuzz_input.json
