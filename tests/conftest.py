"""Suite-wide pytest setup."""

import signal

import pytest

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``--dist loadgroup``), the tests that start a pool of processes
    (Ray, several workers) go to one worker, one at a time: two of them at once would ask
    a small machine for more processes than it has cores, while the light tests fill the
    other workers."""
    for item in items:
        if item.get_closest_marker("many_processes"):
            item.add_marker(pytest.mark.xdist_group("many_processes"))


@pytest.fixture(autouse=True)
def _own_state_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test has its own user state (the newcomer's tip shows): never the user's own."""
    monkeypatch.setenv("TENXEVAL_STATE_DIR", str(tmp_path_factory.mktemp("state")))


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
