"""Every key typed in the case form lands where the focus is, however fast it comes.

A whole case is typed key by key, with tab, ctrl+n, ctrl+o and alt+t between the fields
and no pause anywhere; the saved file must hold exactly what was typed. ``pilot.press``
lets the app go idle between keys; ``burst`` hands the app every key at once, as a
terminal does when keys arrive faster than the app handles them (a fast typist on a busy
machine, a paste followed by tab): the hardest case for the order of keys.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

from textual import events
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tenxeval_tui.app import WorkbenchApp
from tenxeval_tui.screens.editor.editor import EditorScreen
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tests.tui.conftest import wait_for, wait_for_form


def typed(text: str) -> list[str]:
    """The key names of ``text``, one key per character."""
    return [c if c.isalnum() else _character_to_key(c) for c in text]


# A new case typed in one go: each field's text, then the key that moves on.
CASE_KEYS = [
    "ctrl+n",  # a new case; its id field has the focus, holding a proposed id
    "ctrl+u",
    *typed("fast_case_7"),
    "tab",
    *typed("Fast typed name"),
    "tab",
    *typed("typed description"),
    "tab",
    *typed("tag1, tag2"),
    "tab",
    *typed("What is the weather?"),
    "tab",
    *typed("Sunny in Paris."),
    "ctrl+o",  # a tool call of turn 1: its name has the focus
    *typed("get_weather"),
    "tab",
    *typed('{"city": "Paris"}'),
    "tab",
    *typed("weather, reply"),
    "alt+t",  # a second turn: its user message has the focus
    *typed("And tomorrow?"),
    "tab",
    *typed("Rain, sorry."),
    "backspace",  # corrected at once: the backspace must act here, before the next keys
    *typed("!"),
]


def expected_case() -> dict[str, Any]:
    """What the file must hold for the case typed by ``CASE_KEYS`` (ids left out)."""
    return {
        "eval_id": "fast_case_7",
        "name": "Fast typed name",
        "description": "typed description",
        "tags": ["tag1", "tag2"],
        "turns": [
            ("What is the weather?", "Sunny in Paris.", [("get_weather", {"city": "Paris"})]),
            ("And tomorrow?", "Rain, sorry!", []),
        ],
        "nodes": [["weather", "reply"], []],
    }


def saved_case(path: Path, index: int) -> dict[str, Any]:
    case = json.loads(path.read_text(encoding="utf-8"))["eval_cases"][index]
    turns = case["conversation"]
    return {
        "eval_id": case["eval_id"],
        "name": case["name"],
        "description": case["description"],
        "tags": case["tags"],
        "turns": [
            (
                turn["user_content"]["content"],
                (turn["expected_final_response"] or {}).get("content"),
                [(c["name"], c["args"]) for c in turn["expected_tool_trajectory"]],
            )
            for turn in turns
        ],
        "nodes": [turn["expected_node_order"] for turn in turns],
    }


def saved_calls(path: Path) -> int:
    """How many tool calls the file's first case expects in its first turn."""
    case = json.loads(path.read_text(encoding="utf-8"))["eval_cases"][0]
    return len(case["conversation"][0]["expected_tool_trajectory"])


def burst(app: WorkbenchApp, keys: list[str]) -> None:
    """Queue every key in the app at once, as its driver queues keys read from the terminal
    (the key events built as ``Pilot.press`` builds them)."""
    for key in keys:
        try:
            char: str | None = unicodedata.lookup(
                _get_unicode_name_from_key(REPLACED_KEYS.get(key, key))
            )
        except KeyError:
            char = key if len(key) == 1 else None
        app.post_message(events.Key(key, char))


def editor(app: WorkbenchApp) -> EditorScreen:
    screen = app.screen
    assert isinstance(screen, EditorScreen)
    return screen


async def save_and_wait(pilot: Pilot[None], screen: EditorScreen) -> None:
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: screen.document is not None and not screen.document.dirty)


async def test_a_case_typed_without_pauses_is_saved_as_typed(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await pilot.press(*CASE_KEYS)
        await save_and_wait(pilot, screen)
    assert saved_case(weather_set, 1) == expected_case()  # added after london, the first


async def test_a_case_arriving_in_one_burst_is_saved_as_typed(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        burst(app, [*CASE_KEYS, "ctrl+s"])
        await wait_for(
            pilot,
            lambda: (
                screen.document is not None
                and len(screen.document.cases) == 3
                and not screen.document.dirty
            ),
            timeout=30.0,
        )
        # The save ran in the keys' order: nothing typed is left outside the file.
        assert screen.query_one(CaseForm).focused_key() == "turns.1.expected"
    assert saved_case(weather_set, 1) == expected_case()


async def test_keys_right_after_a_rebuild_reach_the_new_field(weather_set: Path) -> None:
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await pilot.press("enter")  # london's form, at its id
        await wait_for(pilot, lambda: screen.query_one(CaseForm).focused_key() == "eval_id")
        # To london's user message; a second tool call, typed into the moment it exists;
        # shift+tab back to the first call's args, corrected with end and backspace.
        burst(
            app,
            [
                "tab", "tab", "tab", "tab",
                "end",
                *typed(" (typed)"),
                "ctrl+o",
                *typed("get_time"),
                "shift+tab",
                "end",
                "backspace",
                *typed(', "day": 1}'),
                "ctrl+s",
            ],
        )  # fmt: skip
        await wait_for(pilot, lambda: saved_calls(weather_set) == 2, timeout=30.0)
    case = json.loads(weather_set.read_text(encoding="utf-8"))["eval_cases"][0]
    turn = case["conversation"][0]
    assert turn["user_content"]["content"] == "Weather in London? (typed)"
    assert [(c["name"], c["args"]) for c in turn["expected_tool_trajectory"]] == [
        ("get_weather", {"city": "London", "day": 1}),
        ("get_time", {}),
    ]


async def test_the_case_list_holds_an_edit_in_the_step_that_made_it(weather_set: Path) -> None:
    """A change of a field's text reaches the document and the case list before the app
    handles anything else, so the frame that shows the typed letter shows it in the list
    too (``bench/tui_form_typing.py`` measures the latency this gives)."""
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.query_one(CaseForm).focused_key() == "eval_id")
        table = screen.query_one(CaseTable)
        uid = table.highlighted_uid
        assert uid is not None
        name = screen.query_one("#f-name", Input)
        name.value = "renamed at once"  # what a key does to the field, without the queue
        assert table._row(uid).name == "renamed at once"
        assert screen.document is not None and screen.document.dirty
        area = screen.query_one("#f-description", TextArea)
        area.insert("typed ")  # an edit of a multi-line field, as a key makes it
        assert screen.document.field_text(uid, "description").startswith("typed ")
        area.undo()  # undo posts its own change: it is stored at once as well
        assert not screen.document.field_text(uid, "description").startswith("typed ")


async def test_keys_right_after_a_focus_key_reach_the_widget_it_focused(
    weather_set: Path,
) -> None:
    """ctrl+f and ctrl+l move the focus when they are handled, so the keys that follow
    them in one burst (a fast typist on a busy machine) land in the filter box and the
    case list: none goes to the widget focused before."""
    app = WorkbenchApp(weather_set, watch_files=False)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_for_form(pilot)
        screen = editor(app)
        table = screen.query_one(CaseTable)
        burst(app, ["ctrl+f", *typed("paris")])
        paris = [screen.document.cases[1].uid]  # type: ignore[union-attr]
        await wait_for(pilot, lambda: table.visible_uids == paris, what="the list filtered")
        assert screen.query_one("#filter", Input).value == "paris"
        burst(app, ["ctrl+l", "space"])  # space in the list selects the case for a bulk edit
        await wait_for(pilot, lambda: table.chosen_uids == paris, what="paris selected")
        assert screen.query_one("#filter", Input).value == "paris"
