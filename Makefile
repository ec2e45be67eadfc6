# tenxeval-tui — the two commands a fresh machine needs are `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test checks test-stress lint typecheck pytest bench clean schemas docs docs-build docs-serve docs-screenshots

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

# The JSON Schemas shipped in the package, made again from the pydantic models (a test
# fails while they differ).
schemas: $(STAMP)
	$(BIN)/python -m tenxeval_tui.evaluation.schemas

# --durations lists the ten slowest tests, so a test that waits too long shows up. The
# suite runs on one more pytest-xdist worker than there are cores: many tests wait on the
# child processes they drive (a run's worker, the console script), and the extra worker
# fills those waits (on 2 cores, quiet: 2 workers 9 min 3 s, 3 workers 8 min 8 s, 4 workers
# 8 min 40 s). The tests that start pools of processes go to one worker, one at a time
# (--dist loadgroup, tests/conftest.py). PYTEST_WORKERS=0: one process.
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
# Bytecode is written even where the shell says PYTHONDONTWRITEBYTECODE: without it every
# console script, worker and xdist process the suite starts compiles the package and pytest
# rewrites every test module again.
pytest: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q --durations=10 -n $(PYTEST_WORKERS) --dist loadgroup

# The documentation site (mkdocs.yml, docs/): the workbench's pictures taken again, then
# the site built strictly, so a broken link, a missing page or a reference generator that
# fails stops the build. `make test` runs the build alone (docs-build): the pictures are
# real runs in the real app (9 screens: 27-38 s on the shared 2-core machine at load 4-5)
# and rewrite tracked files, which a test run should not.
# (The variables silence a notice Material for MkDocs prints on every build. No --quiet:
# with it, mkdocs 1.6 drops the warnings before --strict counts them, and exits 0.)
DOCS_ENV := NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true
MKDOCS_BUILD := $(DOCS_ENV) $(BIN)/mkdocs build --strict
docs: docs-screenshots
	$(MKDOCS_BUILD)

docs-build: $(STAMP)
	$(MKDOCS_BUILD)

# The workbench's pictures in docs/images/, taken from the real app on sample_evals/
# (docs/scripts/screenshots.py; real runs). NAMES="editor review" takes only those (and
# the shots they need).
NAMES ?=
docs-screenshots: $(STAMP)
	$(BIN)/python docs/scripts/screenshots.py $(NAMES)

docs-serve: $(STAMP)
	$(DOCS_ENV) $(BIN)/mkdocs serve

# The checks (lint, typecheck, the strict docs build: about 35 s on one core, mypy the most
# of it, as a fresh clone has no .mypy_cache) run beside pytest instead of before it, at a
# lower priority, so they take the CPU pytest's workers leave while they wait on the apps and
# child processes they drive. Their output comes after pytest's; make test fails if either does.
test: $(STAMP)
	@checks_log=$$(mktemp); \
	nice -n 10 $(MAKE) --no-print-directory checks > $$checks_log 2>&1 & checks=$$!; \
	$(MAKE) --no-print-directory pytest; tested=$$?; \
	wait $$checks; checked=$$?; \
	cat $$checks_log; rm -f $$checks_log; \
	if [ $$checked != 0 ]; then echo "make test: the checks failed (lint, typecheck or docs-build)"; fi; \
	[ $$tested = 0 ] && [ $$checked = 0 ]

checks: lint typecheck docs-build

# The TUI, worker, watch, CLI and evaluator tests with two busy processes loading the CPU
# (started and stopped here), on xdist workers as `make pytest` runs them: the suite must
# hold on a busy machine. ROUNDS=3 repeats it; STRESS="--keep-going -- tests/tui/test_x.py"
# repeats one file and counts the passes.
ROUNDS ?= 1
STRESS ?=
test-stress: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m tests.stress --busy 2 --rounds $(ROUNDS) --workers $(PYTEST_WORKERS) $(STRESS)

# Every benchmark runs, even after one misses its target; the misses are listed at the end.
# Bytecode is written (as for pytest): a process that compiles the package at each start
# is not what a user runs.
bench: $(STAMP)
	@missed=""; \
	for script in bench/*.py; do \
		echo "== $$script"; \
		PYTHONDONTWRITEBYTECODE= $(BIN)/python $$script || missed="$$missed $$script"; \
	done; \
	if [ -n "$$missed" ]; then echo "missed a target:$$missed"; exit 1; fi

clean:
	rm -rf $(VENV) eval_reports site .mypy_cache .ruff_cache .import_linter_cache
