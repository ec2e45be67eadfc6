# tenxeval-tui — the two commands a fresh machine needs are `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest bench clean

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

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest -q

test: lint typecheck pytest

# Every benchmark runs, even after one misses its target; the misses are listed at the end.
bench: $(STAMP)
	@missed=""; \
	for script in bench/*.py; do \
		echo "== $$script"; \
		$(BIN)/python $$script || missed="$$missed $$script"; \
	done; \
	if [ -n "$$missed" ]; then echo "missed a target:$$missed"; exit 1; fi

clean:
	rm -rf $(VENV) eval_reports .mypy_cache .ruff_cache
