"""The user's settings file: where it lives, how it loads, how the app writes to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.settings.user_settings import (
    config_dir,
    load_user_settings,
    save_user_settings,
    settings_path,
)


def test_the_folder_is_the_environment_variable_s_when_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TENXEVAL_CONFIG_DIR", str(tmp_path / "mine"))
    assert config_dir() == tmp_path / "mine"
    assert settings_path() == tmp_path / "mine" / "settings.toml"


def test_without_the_variable_the_folder_is_the_platform_config_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TENXEVAL_CONFIG_DIR")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_dir() == tmp_path / "xdg" / "tenxeval-tui"


def test_a_missing_file_is_the_defaults_without_a_problem(tmp_path: Path) -> None:
    settings, problems = load_user_settings(tmp_path / "settings.toml")
    assert problems == []
    assert settings.theme is None and settings.run.threshold is None and settings.keys == {}


def test_every_table_loads(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(
        'theme = "nord"\n[judge]\nmodel = "m1"\nbase_url = "http://127.0.0.1:9/v1"\n'
        '[keys]\n"workbench.reports" = "f3"\n'
        '[run]\nconcurrency = 8\nthreshold = 0.9\nlog_level = "INFO"\n'
        '[last_run]\nagent = "a:b"\npreset = "strict"\n'
    )
    settings, problems = load_user_settings(path)
    assert problems == []
    assert settings.theme == "nord"
    assert (settings.judge.model, settings.judge.base_url) == ("m1", "http://127.0.0.1:9/v1")
    assert settings.keys == {"workbench.reports": "f3"}
    assert (settings.run.concurrency, settings.run.threshold) == (8, 0.9)
    assert settings.run.log_level == "info"
    assert (settings.last_run.agent, settings.last_run.preset) == ("a:b", "strict")


def test_bad_toml_is_a_problem_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('theme = "nord"\n[run]\nthreshold = = 1\n')
    settings, problems = load_user_settings(path)
    assert settings.theme is None  # the whole file is ignored
    assert len(problems) == 1
    assert problems[0].path == str(path) and problems[0].line == 3
    assert "invalid TOML" in problems[0].message


def test_a_bad_value_is_a_problem_naming_its_line_and_key(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('theme = "nord"\n\n[run]\nconcurrency = 2\nthreshold = 1.5\n')
    _, problems = load_user_settings(path)
    assert [(p.line, p.json_path) for p in problems] == [(5, "run.threshold")]
    assert str(problems[0]).startswith(f"{path}:5: run.threshold: ")


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        ('colour = "red"\n', 1, "colour"),
        ("[run]\nthreads = 3\n", 2, "run.threads"),
        ('[run]\nlog_level = "loud"\n', 2, "run.log_level"),
        ("[run]\nworkers = 0\n", 2, "run.workers"),
        ('[run]\nbackend = "dask"\n', 2, "run.backend"),
        ('[judgee]\nmodel = "x"\n', 1, "judgee"),
    ],
)
def test_unknown_keys_and_values_are_located(
    tmp_path: Path, text: str, line: int, key: str
) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(text)
    _, problems = load_user_settings(path)
    assert [(p.line, p.json_path) for p in problems] == [(line, key)]


def test_an_unreadable_file_is_a_problem_not_an_exception(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.mkdir()
    _, problems = load_user_settings(path)
    assert len(problems) == 1 and "cannot read" in problems[0].message


def test_saving_keeps_the_user_s_comments_and_other_keys(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('# my settings\ntheme = "nord"  # dark\n\n[run]\nthreshold = 0.9\n')
    assert save_user_settings({"theme": "gruvbox", "last_run.agent": "a:b"}, path) is None
    text = path.read_text()
    assert text.startswith("# my settings\n")
    assert "threshold = 0.9" in text
    settings, problems = load_user_settings(path)
    assert problems == []
    assert settings.theme == "gruvbox" and settings.last_run.agent == "a:b"
    assert settings.run.threshold == 0.9


def test_saving_creates_the_folder_and_none_removes_a_key(tmp_path: Path) -> None:
    path = tmp_path / "new" / "settings.toml"
    assert save_user_settings({"last_run.preset": "strict", "theme": "nord"}, path) is None
    assert save_user_settings({"last_run.preset": None}, path) is None
    settings, _ = load_user_settings(path)
    assert settings.theme == "nord" and settings.last_run.preset is None


def test_a_file_that_is_not_toml_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("theme = = nord\n")
    problem = save_user_settings({"theme": "gruvbox"}, path)
    assert problem is not None and "not changed" in problem.message
    assert path.read_text() == "theme = = nord\n"
