"""How the suite is handed to pytest-xdist's workers (``make pytest``: ``--dist loadgroup``):
the tests that start pools of processes run on one worker, one after another, and the
longest tests are handed out first.

A real pytest session with two xdist workers on generated test files whose conftest is the
suite's own hook (``tests/conftest.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CONFTEST = """
from tests.conftest import pytest_collection_modifyitems  # the suite's own hook
"""

POOLS = """
import pytest

pytestmark = pytest.mark.many_processes


@pytest.mark.parametrize("n", range(4))
def test_pool(n):
    pass
"""

SHORT = """
def test_short_one():
    pass


def test_short_two():
    pass
"""

SLOW = """
import pytest


@pytest.mark.slow
def test_in_a_terminal():
    pass
"""

UI = """
def test_drives_an_app():
    pass
"""

SESSIONS = """
def test_runs_a_pytest_session(pytester):
    pass
"""


def write_project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """Test files of each kind under ``tests/``, and a conftest that is the suite's hook.

    The sessions load only the plugins named (``-p``): what they check is the hook's order
    and grouping, and each installed plugin the environment would load (Textual's snapshots,
    asyncio, the package's own) cost every process of them its import."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytester.makeini(
        "[pytest]\nmarkers =\n    slow: slow\n    many_processes: pools\n"
        "addopts = -p no:cacheprovider -p pytester\n"
    )
    pytester.makeconftest(CONFTEST)
    (pytester.path / "tests" / "tui").mkdir(parents=True)
    (pytester.path / "tests" / "test_a_short.py").write_text(SHORT)
    (pytester.path / "tests" / "test_pools.py").write_text(POOLS)
    (pytester.path / "tests" / "test_sessions.py").write_text(SESSIONS)
    (pytester.path / "tests" / "test_z_slow.py").write_text(SLOW)
    (pytester.path / "tests" / "tui" / "test_ui.py").write_text(UI)


def test_the_tests_that_start_pools_run_on_one_worker(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(pytester, monkeypatch)
    done = pytester.runpytest_subprocess(
        "-p", "xdist", "-n", "2", "--dist", "loadgroup", "-v", "tests"
    )
    done.assert_outcomes(passed=9)
    passed = [line.strip() for line in done.outlines if " PASSED " in line]
    pools = [line for line in passed if "test_pools.py" in line]
    assert len(pools) == 4
    assert all(line.endswith("@many_processes") for line in pools), pools
    assert len({line.split()[0] for line in pools}) == 1, pools  # one worker: [gw0] or [gw1]


def test_the_longest_tests_are_handed_out_first(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(pytester, monkeypatch)
    collected = pytester.runpytest_subprocess("--collect-only", "-q", "tests").outlines
    order = [re.sub(r"\[\d\]$", "", line) for line in collected if "::" in line]
    assert order[0] == "tests/test_z_slow.py::test_in_a_terminal"
    short = order.index("tests/test_a_short.py::test_short_one")
    assert order.index("tests/tui/test_ui.py::test_drives_an_app") < short
    # a test that runs pytest sessions (pytester) is a long one wherever its file is
    assert order.index("tests/test_sessions.py::test_runs_a_pytest_session") < short
