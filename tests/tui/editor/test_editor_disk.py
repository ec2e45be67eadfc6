"""Files changing on disk, files that do not load, and the unsaved-changes prompts."""

from __future__ import annotations

import json
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.editor.compare_versions import CompareVersionsScreen
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.widgets.common.error_view import ErrorView
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tenxeval_tui.widgets.editor.eval_set_list import EvalSetList
from tests.tui.conftest import to_field, wait_for, wait_for_form


def rename_case(path: Path, index: int, name: str) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["eval_cases"][index]["name"] = name
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def error_text(app: WorkbenchApp) -> str:
    return str(app.screen.query_one("#error-text").render())


def shown_id(screen: EditorScreen) -> str | None:
    """The id of the case the form shows."""
    uid = screen.query_one(CaseForm).uid
    return None if uid is None or screen.document is None else screen.document.case(uid).eval_id


def asking(app: WorkbenchApp) -> bool:
    """A question (and the worker waiting for its answer) is still open."""
    return isinstance(app.screen, ChoiceScreen) or any(
        worker.group in ("dialog", "disk-change") and not worker.is_finished
        for worker in app.workers
    )


async def to_name_field(pilot: Pilot[None]) -> None:
    """From the case list into the form's name field, waiting for each focus move."""
    await to_field(pilot, "eval_id", "enter")
    await to_field(pilot, "name", "tab")


def editor(app: WorkbenchApp) -> EditorScreen:
    screen = app.screen
    assert isinstance(screen, EditorScreen)
    return screen


async def test_external_change_without_edits_reloads_in_place(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set)
    async with app.run_test() as pilot:
        await wait_for_form(pilot)
        await pilot.press("down")  # highlight "paris"
        screen = editor(app)
        await wait_for(pilot, lambda: shown_id(screen) == "paris")
        rename_case(weather_set, 1, "renamed outside")
        await wait_for(
            pilot,
            lambda: (
                screen.document is not None
                and screen.document.cases[1].data["name"] == "renamed outside"
            ),
        )
        await pilot.pause()
        form = app.screen.query_one(CaseForm)
        assert form.uid is not None and screen.document is not None
        assert screen.document.case(form.uid).eval_id == "paris"  # selection kept
        assert not screen.document.dirty


async def test_external_change_with_unsaved_edits_asks(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await to_name_field(pilot)  # of the first case
        await pilot.press(*"mine")
        await wait_for(pilot, lambda: screen.document is not None and screen.document.dirty)
        assert screen.document is not None and screen.document.dirty

        rename_case(weather_set, 0, "theirs")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("k")  # keep mine
        await wait_for(pilot, lambda: not asking(app), what="the question answered")
        assert screen.document.cases[0].data["name"] == "mine"

        rename_case(weather_set, 0, "theirs again")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("s")  # show both
        await wait_for(pilot, lambda: isinstance(app.screen, CompareVersionsScreen))
        compare = app.screen
        assert isinstance(compare, CompareVersionsScreen)
        assert '"name": "theirs again"' in compare.disk
        assert '"name": "mine"' in compare.mine
        await pilot.press("r")  # reload from disk
        await wait_for(
            pilot,
            lambda: (
                screen.document is not None
                and screen.document.cases[0].data["name"] == "theirs again"
            ),
        )
        assert not screen.document.dirty


async def test_a_file_that_does_not_load_shows_where_and_recovers(tmp_path: Path) -> None:
    path = tmp_path / "bad.evalset.json"
    path.write_text('{\n  "eval_set_id": "b",\n  "eval_cases": [\n    {"eval_id": 5}\n  ]\n}')
    app = WorkbenchApp(path)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: "does not load" in error_text(app))
        text = error_text(app)
        assert f"{path}:4:17" in text
        assert "eval_cases[0].eval_id" in text
        assert "Input should be a valid string" in text
        path.write_text('{"eval_set_id": "b", "eval_cases": [{"eval_id": "ok"}]}')
        screen = editor(app)
        await wait_for(pilot, lambda: screen.document is not None)
        assert screen.document is not None and screen.document.cases[0].eval_id == "ok"


async def test_not_json_and_not_utf8_files_never_crash(tmp_path: Path) -> None:
    (tmp_path / "a.evalset.json").write_bytes(b"\xff\xfe not text")
    (tmp_path / "b.evalset.json").write_text("[1, 2]")
    (tmp_path / "c.evalset.json").mkdir()
    app = WorkbenchApp(tmp_path, watch_files=False)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: "not UTF-8" in error_text(app))
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: "not an eval set" in error_text(app))
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: "is a folder" in error_text(app))
        assert app.screen.query_one(ErrorView).display


async def test_quit_with_unsaved_changes_asks(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test() as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await to_name_field(pilot)
        await pilot.press(*"edited")
        await wait_for(pilot, lambda: screen.document is not None and screen.document.dirty)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("c")  # cancel: still running, still edited
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("s")  # save, then quit
        await wait_for(pilot, lambda: app.return_code is not None, what="the app to quit")
    assert json.loads(weather_set.read_text())["eval_cases"][0]["name"] == "edited"
    assert app.return_code == 0


async def test_switching_files_with_unsaved_changes_asks(weather_set: Path) -> None:
    other = weather_set.with_name("another.evalset.json")
    other.write_text(weather_set.read_text().replace('"london"', '"berlin"'))
    app = WorkbenchApp(weather_set.parent, watch_files=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        assert screen.document is not None and screen.document.path == other
        await to_name_field(pilot)
        await pilot.press("x")
        await wait_for(pilot, lambda: screen.document is not None and screen.document.dirty)
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(app.focused, EvalSetList))
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("c")
        await wait_for(pilot, lambda: not isinstance(app.screen, ChoiceScreen))
        assert screen.document.path == other and screen.document.dirty
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(app.focused, EvalSetList))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("d")  # discard
        await wait_for(
            pilot, lambda: screen.document is not None and screen.document.path == weather_set
        )
    assert "berlin" in other.read_text() and '"x"' not in other.read_text()


async def test_a_duplicate_id_deep_in_a_big_set_is_shown_after_the_check(tmp_path: Path) -> None:
    cases = [
        {"eval_id": f"c{i}", "conversation": [{"user_content": {"role": "user", "content": "q"}}]}
        for i in range(450)
    ]
    cases[420]["eval_id"] = "c3"
    path = tmp_path / "big.evalset.json"
    path.write_text(json.dumps({"eval_set_id": "big", "eval_cases": cases}, indent=2))
    app = WorkbenchApp(path, watch_files=False)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: "does not load" in error_text(app))
        assert "eval_cases[420].eval_id" in error_text(app)
        assert "duplicate eval_id 'c3'" in error_text(app)
        assert not app.screen.query_one(CaseForm).display


async def test_looking_at_cases_without_optional_fields_leaves_the_file_clean(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bare.evalset.json"
    turn = {"user_content": {"role": "user", "content": "hi"}}
    cases = [
        {"eval_id": "a", "conversation": [{**turn, "expected_tool_trajectory": [{"name": "t"}]}]},
        {"eval_id": "b", "conversation": [turn], "tags": ["region:eu,us"]},
    ]
    path.write_text(json.dumps({"eval_set_id": "bare", "eval_cases": cases}, indent=2))
    before = path.read_text()
    app = WorkbenchApp(path)
    async with app.run_test() as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await pilot.press("down")
        await wait_for(pilot, lambda: shown_id(screen) == "b")
        await pilot.press("up")
        await wait_for(pilot, lambda: shown_id(screen) == "a")
        assert screen.document is not None and not screen.document.dirty
        await pilot.press("ctrl+q")  # no unsaved-changes question: it quits
        await wait_for(pilot, lambda: app.return_code is not None, what="the app to quit")
        assert not isinstance(app.screen, ChoiceScreen)
    assert path.read_text() == before


def add_case_in_front(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    new = {**data["eval_cases"][0], "eval_id": "outside", "name": "added outside"}
    data["eval_cases"].insert(0, new)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


async def test_a_reload_during_the_delete_question_deletes_nothing(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await pilot.press("down")  # paris
        await wait_for(pilot, lambda: shown_id(screen) == "paris")
        await pilot.press("delete")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        add_case_in_front(weather_set)  # reloads: no unsaved edits
        await wait_for(
            pilot,
            lambda: screen.document is not None and screen.document.cases[0].eval_id == "outside",
        )
        await pilot.press("d")  # the answer to the question asked before the reload
        await wait_for(pilot, lambda: not asking(app), what="the delete question answered")
        assert screen.document is not None
        # before, the case at paris's old place (london) was deleted
        assert [c.eval_id for c in screen.document.cases] == ["outside", "london", "paris"]


async def test_the_set_name_edited_during_a_reload_is_applied(weather_set: Path) -> None:
    from tenxeval_tui.screens.editor.eval_set_details import EvalSetDetailsScreen

    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, EvalSetDetailsScreen))
        app.screen.query_one("#set-name", Input).value = "Renamed"
        add_case_in_front(weather_set)
        await wait_for(
            pilot,
            lambda: screen.document is not None and screen.document.cases[0].eval_id == "outside",
        )
        await pilot.press("enter")  # apply
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        assert screen.document is not None and screen.document.header("name") == "Renamed"


async def test_a_reload_keeps_the_field_being_typed_in(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await to_name_field(pilot)  # of london
        assert app.focused is not None and app.focused.id == "f-name"
        rename_case(weather_set, 1, "renamed outside")  # no unsaved edits: reloads
        await wait_for(
            pilot,
            lambda: (
                screen.document is not None
                and screen.document.cases[1].data["name"] == "renamed outside"
            ),
        )
        # The focus was lost (None) after a reload; it must come back to the name field.
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "f-name",
            what="the name field focused again after the reload",
        )


async def test_a_case_edited_out_of_the_filter_stays_listed_until_the_filter_changes(
    weather_set: Path,
) -> None:
    from tenxeval_tui.widgets.editor.case_table import CaseTable

    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        table = screen.query_one(CaseTable)
        table.set_filter("#smoke")  # london only
        assert screen.document is not None
        london = screen.document.cases[0].uid
        await wait_for(pilot, lambda: table.visible_uids == [london])
        screen.query_one("#f-tags", Input).value = "other"  # london leaves the filter
        document = screen.document
        await wait_for(pilot, lambda: document.cases[0].data.get("tags") == ["other"])
        # the list and the form still show the same case (they split before)
        assert table.visible_uids == [london] and table.highlighted_uid == london
        assert screen.query_one(CaseForm).uid == london
        table.set_filter("")  # another filter: now it goes
        table.set_filter("#smoke")
        await wait_for(pilot, lambda: table.visible_uids == [])


async def test_edits_and_a_disk_change_of_other_cases_are_merged(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await to_name_field(pilot)  # of london
        await pilot.press(*"mine")
        await wait_for(pilot, lambda: screen.document is not None and screen.document.dirty)
        assert screen.document is not None and screen.document.dirty

        rename_case(weather_set, 1, "theirs")  # paris, outside
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        choice = app.screen
        assert isinstance(choice, ChoiceScreen)
        assert "merge" in choice.choices
        assert "case 'london' edited" in choice.details
        await pilot.press("m")
        await wait_for(
            pilot, lambda: screen.document is not None and _names(screen) == ["mine", "theirs"]
        )
        assert screen.document is not None and screen.document.dirty
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.document is not None and not screen.document.dirty)
        saved = json.loads(weather_set.read_text())
        assert [case["name"] for case in saved["eval_cases"]] == ["mine", "theirs"]


async def test_a_case_changed_on_both_sides_is_named_and_not_merged(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await to_name_field(pilot)
        await pilot.press(*"mine")
        await wait_for(pilot, lambda: screen.document is not None and screen.document.dirty)
        rename_case(weather_set, 0, "theirs")  # the same case, outside
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        choice = app.screen
        assert isinstance(choice, ChoiceScreen)
        assert "merge" not in choice.choices
        assert "case 'london': changed here and on disk" in choice.details
        await pilot.press("s")  # show both: no merge there either
        await wait_for(pilot, lambda: isinstance(app.screen, CompareVersionsScreen))
        compare = app.screen
        assert isinstance(compare, CompareVersionsScreen) and not compare.query("#merge")
        await pilot.press("y")  # the diff goes to the clipboard as the files' text
        await wait_for(pilot, lambda: app.clipboard.startswith("---"))
        assert '+      "name": "mine",' in app.clipboard.splitlines()
        await pilot.press("k")
        await wait_for(pilot, lambda: app.screen is screen)
        assert screen.document is not None and _names(screen)[0] == "mine"


def _names(screen: EditorScreen) -> list[str]:
    assert screen.document is not None
    return [str(case.data.get("name")) for case in screen.document.cases]
