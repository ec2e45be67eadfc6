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
