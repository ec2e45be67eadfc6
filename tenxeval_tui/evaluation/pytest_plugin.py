"""pytest plugin of tenxeval-tui, registered through the ``pytest11`` entry point.

Installing the package is enough for pytest to load it: it declares the
``eval`` marker and registers an :class:`~tenxeval_tui.evaluation.testing.EvalPlugin`
(``pytest -p no:tenxeval`` turns both off).
"""

from __future__ import annotations

import pytest

PLUGIN_NAME = "tenxeval-eval-plugin"


def pytest_configure(config: pytest.Config) -> None:
    """Declare the ``eval`` marker and register the :class:`EvalPlugin`."""
    from tenxeval_tui.evaluation.testing import EvalPlugin

    config.addinivalue_line("markers", "eval: an agent evaluation test (tenxeval-tui)")
    if not config.pluginmanager.has_plugin(PLUGIN_NAME):
        # pytest_configure is a historic hook: the new plugin's is called too.
        config.pluginmanager.register(EvalPlugin(), PLUGIN_NAME)
