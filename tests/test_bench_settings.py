"""The benches that start the app run on a settings file and a state folder of their own:
never the developer's (a bench's run wrote its ``[last_run]`` into the real settings)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bench.support.own_settings import own_settings
from tenxeval_tui.settings.first_steps import state_dir
from tenxeval_tui.settings.user_settings import load_user_settings, save_user_settings

BENCH = Path(__file__).resolve().parents[1] / "bench"
STARTS_THE_APP = re.compile(r"run_test\(|WorkbenchApp|from keyscreen\.terminal import")
STARTS_THE_CLI = re.compile(
    r'/ "tenxeval-tui"|with_name\("tenxeval-tui"\)|tenxeval_tui\.cli\.main import|RunPlan\('
)
"""The console script (its path made from the interpreter's), the CLI's entry point in a
child, or a run's worker as the CLI starts it: ``run`` reads the settings file too."""


def test_own_settings_keeps_a_run_out_of_the_settings_and_state_in_use(tmp_path: Path) -> None:
    """Inside the block the app's settings file and state folder are new ones; the ones in
    use before get nothing and are in use again after it."""
    config_before = os.environ["TENXEVAL_CONFIG_DIR"]
    state_before = os.environ["TENXEVAL_STATE_DIR"]
    with own_settings() as base:
        assert save_user_settings({"last_run.agent": "clock_agent:agent"}) is None
        assert (base / "config" / "settings.toml").is_file()
        assert state_dir() == base / "state"
    assert not (Path(config_before) / "settings.toml").exists()
    assert os.environ["TENXEVAL_CONFIG_DIR"] == config_before
    assert os.environ["TENXEVAL_STATE_DIR"] == state_before
    assert load_user_settings()[0].last_run.agent is None
    assert not base.exists()


def test_own_settings_unsets_what_was_not_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TENXEVAL_STATE_DIR")
    with own_settings():
        assert "TENXEVAL_STATE_DIR" in os.environ
    assert "TENXEVAL_STATE_DIR" not in os.environ


def test_every_bench_that_starts_the_app_uses_settings_of_its_own() -> None:
    starting = [p for p in sorted(BENCH.glob("*.py")) if STARTS_THE_APP.search(p.read_text())]
    assert len(starting) >= 10  # the pattern still finds them
    missing = [p.name for p in starting if "with own_settings():" not in p.read_text()]
    assert missing == []


def test_every_bench_that_runs_the_command_line_uses_settings_of_its_own() -> None:
    starting = [p for p in sorted(BENCH.glob("*.py")) if STARTS_THE_CLI.search(p.read_text())]
    assert len(starting) >= 10  # the pattern still finds them
    missing = [p.name for p in starting if "with own_settings():" not in p.read_text()]
    assert missing == []
