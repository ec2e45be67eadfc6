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


def write_project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """Test files of each kind under ``tests/``, and a conftest that is the suite's hook."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeini(
        "[pytest]\nmarkers =\n    slow: slow\n    many_processes: pools\naddopts = -p no:cacheprovider\n"
    )
    pytester.makeconftest(CONFTEST)
    (pytester.path / "tests" / "tui").mkdir(parents=True)
    (pytester.path / "tests" / "test_a_short.py").write_text(SHORT)
    (pytester.path / "tests" / "test_pools.py").write_text(POOLS)
    (pytester.path / "tests" / "test_z_slow.py").write_text(SLOW)
    (pytester.path / "tests" / "tui" / "test_ui.py").write_text(UI)


def test_the_tests_that_start_pools_run_on_one_worker(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(pytester, monkeypatch)
    done = pytester.runpytest_subprocess("-n", "2", "--dist", "loadgroup", "-v", "tests")
    done.assert_outcomes(passed=8)
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
    assert order.index("tests/tui/test_ui.py::test_drives_an_app") < order.index(
        "tests/test_a_short.py::test_short_one"
    )
