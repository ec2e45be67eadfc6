"""pytest plugin of tenxeval-tui, registered through the ``pytest11`` entry point.

Installing the package is enough for pytest to load it: it declares the
``eval`` marker, the ``--tenxeval-*`` options (and their ini keys) and registers an
:class:`~tenxeval_tui.evaluation.testing.EvalPlugin` (``pytest -p no:tenxeval``
turns all of it off).
"""

from __future__ import annotations

import argparse
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tenxeval_tui.evaluation.testing import PytestSettings

PLUGIN_NAME = "tenxeval-eval-plugin"
_SETTINGS = pytest.StashKey["PytestSettings"]()


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 0 to 1") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 0 to 1")
    return value


def pytest_addoption(parser: pytest.Parser) -> None:
    """The ``--tenxeval-*`` options and their ini keys."""
    group = parser.getgroup("tenxeval", "agent evaluations (tenxeval-tui)")
    group.addoption(
        "--tenxeval-report-dir",
        dest="tenxeval_report_dir",
        metavar="DIR",
        help="write eval reports into DIR (default: no report files).",
    )
    group.addoption(
        "--tenxeval-threshold",
        dest="tenxeval_threshold",
        type=_rate,
        metavar="RATE",
        help="pass rate (0-1) eval_test needs when the test names none (default: 1.0).",
    )
    group.addoption(
        "--tenxeval-no-reports",
        dest="tenxeval_no_reports",
        action="store_true",
        default=None,
        help="write no eval report files, whatever the ini file says.",
    )
    group.addoption(
        "--tenxeval-in-process",
        dest="tenxeval_in_process",
        action="store_true",
        default=None,
        help="run agents in pytest's own process, not in a child process each "
        "(for agents that cannot run in a fork; see tenxeval_isolate).",
    )
    parser.addini("tenxeval_report_dir", "folder of eval reports (relative to the ini file)")
    parser.addini("tenxeval_threshold", "default pass rate of eval_test (0-1)")
    parser.addini("tenxeval_no_reports", "write no eval report files", type="bool")
    parser.addini(
        "tenxeval_isolate",
        "run agents in a child process each (default: true)",
        type="bool",
        default=True,
    )


def _settings(config: pytest.Config) -> PytestSettings:
    from tenxeval_tui.evaluation.testing import PytestSettings

    report_dir: Path | None = None
    option_dir = config.getoption("tenxeval_report_dir")
    ini_dir = str(config.getini("tenxeval_report_dir") or "")
    if option_dir:
        report_dir = Path(option_dir).absolute()
    elif ini_dir:
        base = config.inipath.parent if config.inipath else config.rootpath
        report_dir = base / ini_dir
    threshold = config.getoption("tenxeval_threshold")
    ini_threshold = str(config.getini("tenxeval_threshold") or "")
    if threshold is None and ini_threshold:
        try:
            threshold = _rate(ini_threshold)
        except argparse.ArgumentTypeError as exc:
            raise pytest.UsageError(f"{config.inipath}: tenxeval_threshold: {exc}") from None
    no_reports = config.getoption("tenxeval_no_reports")
    if no_reports is None:
        no_reports = bool(config.getini("tenxeval_no_reports"))
    isolate = not config.getoption("tenxeval_in_process") and bool(
        config.getini("tenxeval_isolate")
    )
    return PytestSettings(
        report_dir=report_dir, threshold=threshold, no_reports=no_reports, isolate=isolate
    )


def pytest_configure(config: pytest.Config) -> None:
    """Declare the ``eval`` marker, read the options and register the :class:`EvalPlugin`."""
    from tenxeval_tui.evaluation import testing

    config.addinivalue_line("markers", "eval: an agent evaluation test (tenxeval-tui)")
    settings = _settings(config)
    testing._PYTEST_SESSIONS.append(settings)
    config.stash[_SETTINGS] = settings
    if not config.pluginmanager.has_plugin(PLUGIN_NAME):
        # pytest_configure is a historic hook: the new plugin's is called too.
        config.pluginmanager.register(testing.EvalPlugin(), PLUGIN_NAME)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Forget this session's settings."""
    from tenxeval_tui.evaluation import testing

    settings = config.stash.get(_SETTINGS, None)
    # By identity: two sessions may hold equal settings.
    testing._PYTEST_SESSIONS[:] = [s for s in testing._PYTEST_SESSIONS if s is not settings]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Let ``eval_test`` know which item it runs in (for its junitxml properties)."""
    settings = item.config.stash.get(_SETTINGS, None)
    if settings is not None:
        settings.item = item
        try:
            return (yield)
        finally:
            settings.item = None
    return (yield)
