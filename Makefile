# Two commands are all the set-up a user needs: `make demo` and `make test`.
# Both create/refresh the local virtual environment (.venv) from pyproject.toml when needed.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test test-fast lint bench fuzz clean

# The install says what it does and keeps one status line while pip works (what it is doing,
# the packages checked, downloaded and installed, the elapsed time: scripts/pip_progress.py),
# instead of minutes of silence or pip's hundreds of lines; pip's warnings and errors still
# show, and the end of its output if it fails. setuptools' notice about editable installs (a
# block of asterisks that reads like an error) is filtered out by its message.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "kalarite: installing kalarite into $(VENV) (a few minutes the first time: numba, Ray, pyarrow and the rest, about 1.3 GB installed)..."
	@$(PY) scripts/pip_progress.py "upgrading pip" -- $(PY) -m pip install --upgrade pip
	@PYTHONWARNINGS="ignore:Editable installation" $(PY) scripts/pip_progress.py "installing kalarite and its dependencies" -- $(PY) -m pip install -e ".[dev]"
	@touch $(STAMP)
	@echo "kalarite: installed into $(VENV)"

demo: $(STAMP)
	$(VENV)/bin/kalarite demo

# The suite runs on every core (pytest-xdist), everything: the figures are in
# docs/developer.md ("The test suite"). CI runs this.
test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q -n auto

# Daily work: the suite without the service, browser, soak and cluster tests and the doc
# snippets (markers system and docs: tests/conftest.py TIERS). `make test` still runs them.
test-fast: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q -n auto -m "not system and not docs"

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
# encodings), each through the real command line in its own process with a timeout, then
# the numeric corpus (NaN, infinities, 1e400, huge integers, -0 in every number flag of every
# command, spec, goal and service route; benchmarks/numeric_extremes.py) (many minutes;
# MUTANTS=20 for a short run).
fuzz: $(STAMP)
	@mkdir -p benchmarks/results
	$(PY) -m benchmarks.fuzz_input --mutants $(or $(MUTANTS),100) --out benchmarks/results/fuzz_input.json
