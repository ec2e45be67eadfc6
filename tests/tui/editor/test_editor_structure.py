"""One screen, one class: the editor carries out every key it declares, through the
command objects it owns (no base class holds a key or a command)."""

from __future__ import annotations

from textual.binding import Binding
from textual.screen import Screen

from tenxeval_tui.screens.common.mode_screen import ModeScreen
from tenxeval_tui.screens.editor.agent_commands import AGENT_BINDINGS
from tenxeval_tui.screens.editor.case_commands import CASE_BINDINGS
from tenxeval_tui.screens.editor.editor import EditorScreen


def action_name(binding: Binding) -> str:
    return binding.action.split("(")[0]


def test_every_key_of_the_editor_is_carried_out_by_the_editor_itself() -> None:
    bindings = [b for b in EditorScreen.BINDINGS if isinstance(b, Binding)]
    assert len(bindings) == len(EditorScreen.BINDINGS)
    missing = [b.key for b in bindings if f"action_{action_name(b)}" not in vars(EditorScreen)]
    assert missing == []
    save = next(b for b in bindings if b.key == "ctrl+s")
    assert (save.action, save.description) == ("save", "Save")
    assert "_save" in vars(EditorScreen)  # where saving lives


def test_the_editor_inherits_no_commands() -> None:
    editor_bases = EditorScreen.__mro__[1 : EditorScreen.__mro__.index(Screen)]
    assert editor_bases[0] is ModeScreen
    for base in editor_bases:
        own = [b for b in vars(base).get("BINDINGS", []) if isinstance(b, Binding)]
        actions = [name for name in vars(base) if name.startswith("action_")]
        assert (base.__name__, own, actions) == (base.__name__, [], [])


def test_the_commands_keys_are_declared_once_in_the_editors_order() -> None:
    keys = [b.key for b in EditorScreen.BINDINGS if isinstance(b, Binding)]
    assert keys[0] == "ctrl+s"
    commands = [b.key for b in [*CASE_BINDINGS, *AGENT_BINDINGS]]
    assert keys[1 : 1 + len(commands)] == commands
    assert len(keys) == len(set(keys))
