"""The workspace: eval set files, their case counts or errors, and [tool.tenxeval]."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tenxeval_tui.evaluation import EvalSetBuilder
from tenxeval_tui.settings.workspace import open_workspace


def make_set(path: Path, cases: int) -> Path:
    builder = EvalSetBuilder(path.stem)
    for index in range(cases):
        builder.add_case(f"q{index}", f"a{index}")
    builder.save(path)
    return path


def test_folder_lists_eval_sets_with_counts_and_errors(tmp_path: Path) -> None:
    make_set(tmp_path / "a.evalset.json", 2)
    make_set(tmp_path / "sub" / "b.evalset.json", 3)
    (tmp_path / "broken.evalset.json").write_text('{"eval_cases": [,]}', encoding="utf-8")
    (tmp_path / "notes.json").write_text("{}", encoding="utf-8")
    entries = {e.path.name: e for e in open_workspace(tmp_path).entries()}
    assert set(entries) == {"a.evalset.json", "b.evalset.json", "broken.evalset.json"}
    assert entries["a.evalset.json"].case_count == 2
    assert entries["b.evalset.json"].case_count == 3
    broken = entries["broken.evalset.json"]
    assert not broken.ok
    assert (broken.problems[0].line, broken.problems[0].column) == (1, 17)


def test_single_file_workspace(tmp_path: Path) -> None:
    path = make_set(tmp_path / "one.evalset.json", 1)
    make_set(tmp_path / "other.evalset.json", 1)
    workspace = open_workspace(path)
    assert workspace.single_file == path
    assert workspace.eval_set_files() == [path]


def test_missing_folder_is_a_problem_not_an_exception(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A missing folder falls back to the working directory's settings; keep the
    # repository's own [tool.tenxeval] (the sample workspace) out of this test.
    monkeypatch.chdir(tmp_path)
    workspace = open_workspace(tmp_path / "nope")
    assert workspace.eval_set_files() == []
    assert "no such file or folder" in workspace.problems[0].message


def test_settings_from_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.tenxeval]\nagent = "pkg.agent:graph"\n'
        'eval_sets = ["../shared/extra.evalset.json"]\noutput_dir = "out"\n'
        'concurrency = 2\nconfig = "cfg.json"\n',
        encoding="utf-8",
    )
    extra = make_set(tmp_path.parent / "shared" / "extra.evalset.json", 4)
    evals = tmp_path / "evals"
    make_set(evals / "local.evalset.json", 1)
    workspace = open_workspace(evals)  # settings are found in a parent folder
    assert workspace.settings_file == tmp_path / "pyproject.toml"
    assert workspace.settings.agent == "pkg.agent:graph"
    assert workspace.settings.concurrency == 2
    assert workspace.resolve(workspace.settings.output_dir) == tmp_path / "out"
    names = [p.name for p in workspace.eval_set_files()]
    assert names == ["local.evalset.json", "extra.evalset.json"]
    assert extra.resolve() in workspace.eval_set_files()


def test_bad_settings_name_the_file_and_key(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tenxeval]\nconcurrency = "many"\ncolour = "red"\nbackend = "dask"\n',
        encoding="utf-8",
    )
    workspace = open_workspace(tmp_path)
    where = {p.json_path for p in workspace.problems}
    assert where == {"tool.tenxeval.concurrency", "tool.tenxeval.colour", "tool.tenxeval.backend"}
    assert all(p.path.endswith("pyproject.toml") for p in workspace.problems)
    assert workspace.settings.concurrency == 4  # defaults stay usable


def test_broken_toml_gives_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.tenxeval\n", encoding="utf-8")
    problem = open_workspace(tmp_path).problems[0]
    assert problem.message.startswith("invalid TOML")
    assert problem.line == 1


def test_settings_type_errors_give_the_line_of_the_key(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nconcurrency = 1\n\n[tool.tenxeval]\nagent = "a:b"\n'
        'concurrency = "many"\n"output_dir" = 3\n\n[tool.other]\nconfig = 1\n',
        encoding="utf-8",
    )
    lines = {p.json_path: p.line for p in open_workspace(tmp_path).problems}
    assert lines == {"tool.tenxeval.concurrency": 6, "tool.tenxeval.output_dir": 7}
    assert str(open_workspace(tmp_path).problems[0]).startswith(
        f"{tmp_path / 'pyproject.toml'}:6: tool.tenxeval.concurrency:"
    )


def test_hidden_files_and_folders_are_left_out_and_hidden_folders_not_walked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_set(tmp_path / "b.evalset.json", 1)
    make_set(tmp_path / "sub" / "a.evalset.json", 1)
    make_set(tmp_path / ".hidden.evalset.json", 1)
    make_set(tmp_path / ".venv" / "lib" / "pkg" / "c.evalset.json", 1)
    make_set(tmp_path / "sub" / ".git" / "d.evalset.json", 1)
    (tmp_path / "sub" / "s.scenarios.json").write_text("{}", encoding="utf-8")
    (tmp_path / ".cache").mkdir()
    (tmp_path / ".cache" / "t.scenarios.json").write_text("{}", encoding="utf-8")
    (tmp_path / "c.evalset.json").mkdir()  # listed, as before: opening it says it is a folder
    walked: list[str] = []
    real_scandir = os.scandir

    def scandir(path: Any) -> Any:
        walked.append(Path(path).name)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    workspace = open_workspace(tmp_path)
    assert workspace.eval_set_files() == [
        (tmp_path / "b.evalset.json").resolve(),
        (tmp_path / "c.evalset.json").resolve(),
        (tmp_path / "sub" / "a.evalset.json").resolve(),
    ]
    assert workspace.scenario_files() == [(tmp_path / "sub" / "s.scenarios.json").resolve()]
    assert walked and not {".venv", "lib", "pkg", ".git", ".cache"} & set(walked)
