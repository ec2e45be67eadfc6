"""pytest plugin of tenxeval-tui, registered through the ``pytest11`` entry point.

Installing the package is enough for pytest to load it.
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Declare the ``eval`` marker so ``--strict-markers`` suites can use it."""
    config.addinivalue_line("markers", "eval: an agent evaluation test (tenxeval-tui)")
