"""New eval set files appear without a restart: made outside the workbench, or with `n`
in it, they are listed in the editor's file list and the run view's eval-set list; the
file list's case count follows unsaved edits (#29 item 9)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.widgets import Select

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.screens.editor.new_eval_set import NewEvalSetScreen
from tenxeval_tui.screens.run.run import RunScreen
from tenxeval_tui.widgets.editor.eval_set_list import EvalSetList
from tests.tui.conftest import to_widget, wait_for, wait_for_form
from tests.tui.run.conftest import write_workspace


def listed(app: WorkbenchApp) -> dict[str, int | None]:
    editor = next(s for s in app.screen_stack if isinstance(s, EditorScreen))
    files = editor.query_one(EvalSetList)
    return {entry.path.name: entry.case_count for entry in files.entries}


def scopes(run: RunScreen) -> list[str]:
    scope = run.query_one("#scope", Select)
    return [str(value) for _, value in scope._options]


async def test_a_file_made_outside_is_listed_in_the_editor_and_the_run_view(
    tmp_path: Path,
) -> None:
    root = write_workspace(tmp_path / "project")
    app = WorkbenchApp(root)  # following files, as the workbench does
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for_form(pilot)
        await wait_for(pilot, lambda: listed(app).get("more.evalset.json") is not None)
        assert "extra.evalset.json" not in listed(app)
        extra = root / "evals" / "extra.evalset.json"
        shutil.copy(root / "evals" / "more.evalset.json", extra)
        data = json.loads(extra.read_text())
        data["eval_set_id"] = "extra"
        extra.write_text(json.dumps(data))
        cases = len(data["eval_cases"])
        await wait_for(pilot, lambda: listed(app).get("extra.evalset.json") == cases)

        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RunScreen))
        run = app.screen
        assert isinstance(run, RunScreen)
        await wait_for(pilot, lambda: str(extra.resolve()) in scopes(run))
        other = root / "evals" / "later.evalset.json"
        shutil.copy(extra, other)
        await wait_for(pilot, lambda: str(other.resolve()) in scopes(run))
        other.unlink()
        await wait_for(pilot, lambda: str(other.resolve()) not in scopes(run))


async def test_the_file_lists_count_follows_unsaved_cases(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "project")
    app = WorkbenchApp(root, watch_files=False)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for_form(pilot)
        editor = app.screen
        assert isinstance(editor, EditorScreen) and editor.document is not None
        name = editor.document.path.name if editor.document.path else ""
        count = len(editor.document.cases)
        await wait_for(pilot, lambda: listed(app).get(name) == count)
        await pilot.press("ctrl+n")  # a new case, not saved
        await wait_for(pilot, lambda: listed(app).get(name) == count + 1)
        assert editor.document.dirty
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: listed(app).get(name) == count)


async def test_a_new_eval_set_saved_in_a_folder_named_relatively_is_listed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `tenxeval-tui evals` (or no path: ".") names the folder relatively; the new file's
    # entry and the one the follower finds on disk after the save are the same file.
    root = write_workspace(tmp_path / "project")
    monkeypatch.chdir(root)
    app = WorkbenchApp("evals")  # following files, as the workbench does
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for_form(pilot)
        await to_widget(pilot, "files", "ctrl+g")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewEvalSetScreen))
        await to_widget(pilot, "new-name")
        await pilot.press(*"fresh", "enter")
        await wait_for(pilot, lambda: app.screen.sub_title.startswith("fresh.evalset.json"))
        await pilot.press("ctrl+n", "ctrl+s")
        await wait_for(pilot, lambda: app.screen.sub_title == "fresh.evalset.json")
        # a file made after the save: once it is listed, the follower has seen the save too
        shutil.copy(root / "evals" / "more.evalset.json", root / "evals" / "later.evalset.json")
        await wait_for(pilot, lambda: "later.evalset.json" in names(app))
        assert names(app).count("fresh.evalset.json") == 1, names(app)


def names(app: WorkbenchApp) -> list[str]:
    editor = next(s for s in app.screen_stack if isinstance(s, EditorScreen))
    return [entry.path.name for entry in editor.query_one(EvalSetList).entries]
