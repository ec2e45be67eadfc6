# tenxeval-tui — the two commands a fresh machine needs are `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-stress lint typecheck pytest bench clean

# (Re)install whenever pyproject.toml changes; the stamp keeps later runs instant.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tenxeval-tui sample_evals

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo

typecheck: $(STAMP)
	$(BIN)/mypy

# --durations lists the ten slowest tests, so a test that waits too long shows up. The
# suite runs on every core (pytest-xdist); the tests that start pools of processes go to one
# worker, one at a time (--dist loadgroup, tests/conftest.py). PYTEST_WORKERS=0: one process.
PYTEST_WORKERS ?= auto
# Bytecode is written even where the shell says PYTHONDONTWRITEBYTECODE: without it every
# console script, worker and xdist process the suite starts compiles the package and pytest
# rewrites every test module again.
pytest: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q --durations=10 -n $(PYTEST_WORKERS) --dist loadgroup

test: lint typecheck pytest

# The TUI, worker, watch, CLI and evaluator tests with two busy processes loading the CPU
# (started and stopped here), on xdist workers as `make pytest` runs them: the suite must
# hold on a busy machine. ROUNDS=3 repeats it; STRESS="--keep-going -- tests/tui/test_x.py"
# repeats one file and counts the passes.
ROUNDS ?= 1
STRESS ?=
test-stress: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m tests.stress --busy 2 --rounds $(ROUNDS) --workers $(PYTEST_WORKERS) $(STRESS)

# Every benchmark runs, even after one misses its target; the misses are listed at the end.
bench: $(STAMP)
	@missed=""; \
	for script in bench/*.py; do \
		echo "== $$script"; \
		$(BIN)/python $$script || missed="$$missed $$script"; \
	done; \
	if [ -n "$$missed" ]; then echo "missed a target:$$missed"; exit 1; fi

clean:
	rm -rf $(VENV) eval_reports .mypy_cache .ruff_cache .import_linter_cache
