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

bench: $(STAMP)
	@for script in bench/*.py; do \
		echo "== $$script"; \
		$(BIN)/python $$script || exit 1; \
	done

clean:
	rm -rf $(VENV) eval_reports .mypy_cache .ruff_cache
