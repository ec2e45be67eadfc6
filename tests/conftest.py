"""Suite-wide pytest setup."""

import pytest

# `pytester` runs real pytest sessions on generated test files (tests of the pytest helpers).
pytest_plugins = ["pytester"]


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
