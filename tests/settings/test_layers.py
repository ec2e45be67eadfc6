"""Precedence of the layered settings: flag > environment > project > user file > default."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenxeval_tui.settings.layers import (
    SETTINGS,
    SettingsError,
    judge_environment,
    resolve_settings,
)
from tenxeval_tui.settings.user_settings import UserSettings, load_user_settings
from tenxeval_tui.settings.workspace import Workspace, open_workspace


def _project(folder: Path, table: str) -> Workspace:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text("[tool.tenxeval]\n" + table)
    workspace = open_workspace(folder)
    assert workspace.problems == []
    return workspace


def _user(tmp_path: Path, text: str) -> UserSettings:
    path = tmp_path / "settings.toml"
    path.write_text(text)
    settings, problems = load_user_settings(path)
    assert problems == []
    return settings


def test_each_level_wins_over_those_below_it(tmp_path: Path) -> None:
    user = _user(tmp_path, "[run]\nthreshold = 0.5\n")
    bare = _project(tmp_path / "bare", 'agent = "a:b"\n')
    project = _project(tmp_path / "proj", "threshold = 0.6\n")
    env = {"TENXEVAL_THRESHOLD": "0.7"}

    def threshold(flag: float | None, environ: dict[str, str], ws: Workspace, u: UserSettings):
        found = resolve_settings({"threshold": flag}, environ, ws, u, names=("threshold",))
        return found["threshold"].value, found["threshold"].layer

    assert threshold(None, {}, bare, UserSettings()) == (1.0, "default")
    assert threshold(None, {}, bare, user) == (0.5, "user")
    assert threshold(None, {}, project, user) == (0.6, "project")
    assert threshold(None, env, project, user) == (0.7, "env")
    assert threshold(0.8, env, project, user) == (0.8, "flag")


def test_the_place_is_named_for_people(tmp_path: Path) -> None:
    project = _project(tmp_path, "concurrency = 3\n")
    found = resolve_settings({}, {"TENXEVAL_TIMEOUT": "9"}, project, UserSettings())
    assert (
        found["concurrency"].where == f"{tmp_path / 'pyproject.toml'} [tool.tenxeval] concurrency"
    )
    assert found["timeout"].where == "$TENXEVAL_TIMEOUT"
    assert found["timeout"].value == 9.0


def test_workers_and_backend_come_from_each_level(tmp_path: Path) -> None:
    user = _user(tmp_path, '[run]\nworkers = "auto"\nbackend = "ray"\n')
    bare = _project(tmp_path / "bare", 'agent = "a:b"\n')
    project = _project(tmp_path / "proj", 'workers = 3\nbackend = "process"\n')
    env = {"TENXEVAL_WORKERS": " AUTO ", "TENXEVAL_BACKEND": "Ray"}

    def found(flags: dict[str, object], environ: dict[str, str], ws: Workspace, u: UserSettings):
        both = resolve_settings(flags, environ, ws, u, names=("workers", "backend"))
        return [(r.value, r.layer) for r in both.values()]

    assert found({}, {}, bare, UserSettings()) == [(None, "default"), ("process", "default")]
    assert found({}, {}, bare, user) == [("auto", "user"), ("ray", "user")]
    assert found({}, {}, project, user) == [(3, "project"), ("process", "project")]
    assert found({}, {"TENXEVAL_WORKERS": "2"}, project, user)[0] == (2, "env")
    assert found({}, env, project, user) == [("auto", "env"), ("ray", "env")]
    flags = {"workers": "4", "backend": "process"}
    assert found(flags, env, project, user) == [("4", "flag"), ("process", "flag")]


def test_a_project_path_is_relative_to_its_pyproject(tmp_path: Path) -> None:
    project = _project(tmp_path, 'output_dir = "out/reports"\n')
    found = resolve_settings({}, {}, project, UserSettings(), names=("output_dir",))
    assert found["output_dir"].value == tmp_path / "out/reports"


@pytest.mark.parametrize(
    ("env", "value", "message"),
    [
        ("TENXEVAL_CONCURRENCY", "many", "'many' is not a whole number"),
        ("TENXEVAL_CONCURRENCY", "0", "0 is not at least 1"),
        ("TENXEVAL_THRESHOLD", "1.2", "not between 0 and 1"),
        ("TENXEVAL_TIMEOUT", "-1", "not a number more than 0"),
        ("TENXEVAL_LOG_LEVEL", "loud", "'loud' is not a log level"),
        ("TENXEVAL_WORKERS", "many", "'many' is not a whole number (nor \"auto\")"),
        ("TENXEVAL_WORKERS", "0", "0 is not at least 1"),
        ("TENXEVAL_BACKEND", "dask", "'dask' is not a backend (process, ray)"),
    ],
)
def test_a_bad_environment_value_names_its_variable(
    tmp_path: Path, env: str, value: str, message: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        resolve_settings({}, {env: value}, None, UserSettings())
    assert str(caught.value).startswith(f"${env}: ") and message in str(caught.value)


def test_an_empty_environment_variable_counts_as_unset() -> None:
    found = resolve_settings({}, {"TENXEVAL_CONCURRENCY": " "}, None, UserSettings())
    assert found["concurrency"].layer == "default"


def test_every_setting_has_its_own_tenxeval_variable() -> None:
    envs = [s.env for s in SETTINGS]
    assert len(set(envs)) == len(envs)
    assert all(env.startswith("TENXEVAL_") for env in envs)


def test_the_judge_gets_the_model_of_the_project_or_user_file_only(tmp_path: Path) -> None:
    user = _user(tmp_path, '[judge]\nmodel = "user-model"\nbase_url = "http://127.0.0.1:1/v1"\n')
    project = _project(tmp_path / "p", 'judge_model = "project-model"\n')
    found = resolve_settings({}, {}, project, user)
    assert judge_environment(found) == {
        "TENXEVAL_JUDGE_MODEL": "project-model",
        "TENXEVAL_JUDGE_BASE_URL": "http://127.0.0.1:1/v1",
    }
    from_env = resolve_settings({}, {"TENXEVAL_JUDGE_MODEL": "env-model"}, project, user)
    assert "TENXEVAL_JUDGE_MODEL" not in judge_environment(from_env)  # set already


def test_the_report_folder_of_each_level(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tenxeval_tui.settings.layers import report_folder

    monkeypatch.chdir(tmp_path)
    bare = _project(tmp_path / "bare", 'agent = "a:b"\n')
    assert report_folder(bare, UserSettings(), {}) == tmp_path / "bare" / "eval_reports"
    user = _user(tmp_path, '[run]\noutput_dir = "mine"\n')
    assert report_folder(bare, user, {}) == tmp_path / "mine"  # the current folder's
    project = _project(tmp_path / "p", 'output_dir = "out"\n')
    assert report_folder(project, user, {}) == tmp_path / "p" / "out"
    env = {"TENXEVAL_OUTPUT_DIR": "/abs/reports"}
    assert report_folder(project, user, env) == Path("/abs/reports")
