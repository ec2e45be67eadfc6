"""Suite-wide pytest setup."""

import gc
import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.waiting import scaled

ROOT = Path(__file__).resolve().parents[1]

# Hypothesis's two clocks, off for every property test: its per-example deadline (200 ms)
# and its health check that input generation is too slow both measure time, which a busy
# machine stretches (test_case_diff's alignment failed a full suite at load ~15: "only
# generated 2 valid inputs after 1.32 seconds"). What a property test asserts is the
# property; a test's own @settings still sets its number of examples.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

# `pytester` runs real pytest sessions on generated test files (tests of the pytest helpers).
pytest_plugins = ["pytester"]


def pytest_configure(config: pytest.Config) -> None:
    """Give Ctrl-C back to a suite started with SIGINT ignored.

    A shell without job control starts a background command (``make test > log &``) with
    SIGINT ignored, and every process it starts inherits that: the tests that press Ctrl-C
    in a child (``run`` exits 130, watch mode stops) then see it run on to the end, and
    ``asyncio.run`` installs no handler of its own. Python's own default for the suite's
    process gives its children the default disposition again (exec resets a handled signal).
    """
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


# What a run writes into the folder it runs from when told nothing else: the suite writes
# none of it into the checkout (a developer's report browser and judge cache would then show
# the tests' runs as their own).
CHECKOUT_OUTPUTS = ("eval_reports", ".tenxeval_cache")
_CHECKOUT_BEFORE = pytest.StashKey[set[str]]()


def checkout_outputs() -> set[str]:
    """Each file under :data:`CHECKOUT_OUTPUTS` in the checkout, with its modification time."""
    found: set[str] = set()
    for name in CHECKOUT_OUTPUTS:
        for path in (ROOT / name).rglob("*"):
            try:
                if path.is_file():
                    found.add(f"{path.relative_to(ROOT)} ({path.stat().st_mtime_ns})")
            except OSError:  # removed while listed
                continue
    return found


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller (or a run without xdist)
        session.config.stash[_CHECKOUT_BEFORE] = checkout_outputs()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the run that wrote reports or judge replies into the checkout, naming them."""
    before = session.config.stash.get(_CHECKOUT_BEFORE, None)
    if before is None:
        return
    written = sorted(checkout_outputs() - before)
    if written:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = "\n  ".join(written[:20])
        if reporter is not None:
            reporter.write_line(f"tests wrote into the checkout ({ROOT}):\n  {lines}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# The folders whose tests take longest (each drives an app, or console scripts and agents in
# child processes: a few seconds a test where a unit test takes milliseconds).
LONG_TEST_FOLDERS = ("tests/tui/", "tests/cli/", "tests/runs/", "tests/docs/")
# Files outside those folders whose tests each start a pytest session or interpreters in
# child processes (seconds a test): in folder order they came last, and a clean clone's
# suite ended with one worker running tests/test_xdist_schedule.py alone for 25 s.
LONG_TEST_FILES = ("tests/test_layers.py", "tests/test_sigint.py", "tests/test_trajectory_guide.py")


def expected_length(item: pytest.Item) -> int:
    """0 for the longest tests (``slow``: a terminal, a timeout by design), 1 for a test in
    one of :data:`LONG_TEST_FOLDERS` or :data:`LONG_TEST_FILES` or one that runs pytest
    sessions (the ``pytester`` fixture), 2 for the rest."""
    if item.get_closest_marker("slow"):
        return 0
    if item.nodeid.startswith(LONG_TEST_FOLDERS + LONG_TEST_FILES):
        return 1
    return 1 if "pytester" in getattr(item, "fixturenames", ()) else 2


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which reads the group marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``--dist loadgroup``), the tests that start a pool of processes
    (Ray, several workers) go to one worker, one at a time: two of them at once would ask
    a small machine for more processes than it has cores, while the light tests fill the
    other workers (xdist sends that group first: it has the most tests).

    The longest tests come first and the many short ones last (order kept within each
    length, :func:`expected_length`), so the workers run out of work together: in folder
    order the suite ended with the UI tests, and one worker drove an app alone while the
    other had nothing left."""
    for item in items:
        if item.get_closest_marker("many_processes"):
            item.add_marker(pytest.mark.xdist_group("many_processes"))
    items.sort(key=expected_length)


@pytest.fixture(autouse=True)
def _nothing_left_frozen() -> Iterator[None]:
    """What a test froze out of the cycle collector's sight (the workbench freezes what is
    alive after its start, after a run and as it opens an eval set: ``gc.freeze``) is
    given back to it when the test ends. A process of the app ends there; the suite's
    processes go on for hundreds of tests, and each test's app, frozen with its last
    moments' garbage, stayed in memory for good (~5 MB a test: an xdist worker passed
    1 GB by half-way)."""
    yield
    gc.unfreeze()


@pytest.fixture(autouse=True)
def _own_state_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test has its own user state (the newcomer's tip shows): never the user's own."""
    monkeypatch.setenv("TENXEVAL_STATE_DIR", str(tmp_path_factory.mktemp("state")))


@pytest.fixture(autouse=True)
def _own_cache_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test has its own cache folder (what an agent's files import), never the user's."""
    monkeypatch.setenv("TENXEVAL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture(scope="session")
def _session_schemas() -> Any:
    """The agents' schemas read in this test session (:mod:`tests.agent_schemas`)."""
    from tests.agent_schemas import SessionSchemas

    return SessionSchemas()


@pytest.fixture(autouse=True)
def _agent_schemas_read_once(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The editor's agent schema comes from the real child once per session and agent's
    code (:mod:`tests.agent_schemas`), except in the tests marked ``agent_schema_child``,
    whose subject is that child or the caches in front of it: there each read starts it."""
    if request.node.get_closest_marker("agent_schema_child"):
        return
    from tenxeval_tui.runs import agent_schema

    schemas = request.getfixturevalue("_session_schemas")
    monkeypatch.setattr(agent_schema, "read_schema_async", schemas.read)


@pytest.fixture(autouse=True)
def _own_settings_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test has its own (empty) user settings folder, never the user's own, and no
    ``TENXEVAL_*`` setting of the shell running the tests."""
    from tenxeval_tui.settings.layers import SETTINGS

    monkeypatch.setenv("TENXEVAL_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
    for setting in SETTINGS:
        if setting.name != "judge_model":  # the judge tests set it themselves
            monkeypatch.delenv(setting.env, raising=False)


@dataclass(frozen=True)
class SampleRun:
    """What ``tenxeval-tui run sample_evals`` did: its exit status, output and report."""

    returncode: int
    output: str
    report: dict[str, Any]

    def counts(self, eval_set_id: str | None = None) -> tuple[int, int, int]:
        """Passed, failed and errored cases (of one eval set when named)."""
        results = [
            r
            for r in self.report["results"]
            if eval_set_id in (None, r["metadata"].get("eval_set_id"))
        ]
        errored = sum(1 for r in results if r["error"] is not None)
        passed = sum(1 for r in results if r["passed"])
        return passed, len(results) - passed - errored, errored


@pytest.fixture(scope="session")
def sample_evals_run(tmp_path_factory: pytest.TempPathFactory) -> SampleRun:
    """The demo's workspace run once by the real console script (each eval set with the
    agent its metadata names), for the tests that compare with a headless run: read it,
    never change it. Once per test session (per xdist worker)."""
    out = tmp_path_factory.mktemp("sample_evals_run")
    done = subprocess.run(
        [str(Path(sys.executable).parent / "tenxeval-tui"), "run", "sample_evals", "--no-html",
         "-q", "--output-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=scaled(180), check=False,
    )  # fmt: skip
    reports = [p for p in out.glob("*.json") if not p.name.endswith("_junit.xml")]
    assert len(reports) == 1, done.stdout + done.stderr
    report = json.loads(reports[0].read_text(encoding="utf-8"))
    return SampleRun(done.returncode, done.stdout + done.stderr, report)
