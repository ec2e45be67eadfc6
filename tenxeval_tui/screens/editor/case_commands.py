"""The editing commands of the eval set editor: cases, turns, tool calls, undo and redo.

:class:`CaseCommands` is an object the editor screen
(:class:`~tenxeval_tui.screens.editor.editor.EditorScreen`) owns: it holds the open
document and turns keys and form messages into document edits, then redraws the case
list and the form. The screen declares the keys (:data:`CASE_BINDINGS` among its own)
and its ``action_*`` methods hand each to the command here; opening, saving and
watching files live in the editor screen itself.

Every key that moves the focus or changes the form's shape is a priority binding: the
app runs it when the key arrives, before it hands the next key to the focused field, so
a key typed right after ``tab`` or ``ctrl+t`` lands in the field that key focused. A
command that rebuilds the form first lets the fields handle the keys already sent to
them and stores what they hold (:meth:`CaseCommands.settle`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input

from tenxeval_tui.authoring.document import (
    DeleteCase,
    EvalSetDocument,
    InsertCase,
    InsertCases,
    MoveCase,
    change_uid,
)
from tenxeval_tui.evaluation.inert import quoted
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.widgets.editor.case_form import CaseForm
from tenxeval_tui.widgets.editor.case_table import CaseTable
from tenxeval_tui.widgets.editor.messages import FieldEdited

CASE_BINDINGS = [
    Binding("ctrl+z", "undo", "Undo", priority=True),
    Binding("ctrl+y", "redo", "Redo", priority=True),
    Binding("ctrl+n", "new_case", "New case", priority=True),
    Binding("ctrl+d", "duplicate_case", "Duplicate", priority=True),
    Binding("alt+up", "move_case(-1)", "Case up", priority=True),
    Binding("alt+down", "move_case(1)", "Case down", priority=True),
    # alt+t: ctrl+t is the transcript everywhere it means anything (one key, one meaning)
    Binding("alt+t", "add_turn", "Add turn", priority=True),
    Binding("ctrl+o", "add_call", "Add tool call", priority=True),
    # Textual's own focus keys, run when they arrive (see the module's docstring).
    Binding("tab", "focus_field(1)", "Next field", show=False, priority=True),
    Binding("shift+tab", "focus_field(-1)", "Previous field", show=False, priority=True),
]
"""The keys of these commands, declared by the screen that owns them."""

_NEEDS_CASE = {"duplicate_case", "delete_case", "move_case", "add_turn", "add_call"}
_NEEDS_DOCUMENT = {"undo", "redo", "new_case"} | _NEEDS_CASE


class CaseCommands:
    """Edits of one :class:`EvalSetDocument` shown in ``screen``'s case table and form.

    ``on_change`` is called after each edit (the screen shows the file name and the
    unsaved marker).
    """

    def __init__(self, screen: Screen[Any], on_change: Callable[[], None]) -> None:
        self.screen = screen
        self._on_change = on_change
        self.document: EvalSetDocument | None = None
        self.checked = False
        """Whether the open document passed the full check (editing waits for it)."""

    @property
    def editing(self) -> bool:
        """Whether there is a checked document to edit."""
        return self.document is not None and self.checked

    def changed(self) -> None:
        """Tell the screen the document changed (its title)."""
        self._on_change()

    def enabled(self, action: str) -> bool | None:
        """Whether ``action`` can run now (``None``: shown disabled), for ``check_action``."""
        if action in _NEEDS_DOCUMENT and not self.editing:
            return None
        if action in _NEEDS_CASE and self.screen.query_one(CaseForm).uid is None:
            return None
        return True

    # --- redrawing -----------------------------------------------------------------

    def refresh_marks(self) -> None:
        """Mark the cases with problems in the list; update the title."""
        if self.document is not None:
            self.screen.query_one(CaseTable).set_marked(self.document.problem_uids())
        self.changed()

    async def reshow(self, uid: int | None, focus_key: str | None = None) -> None:
        """Redraw the list and the form after a structural change; show case ``uid``."""
        assert self.document is not None
        table = self.screen.query_one(CaseTable)
        table.set_cases(self.document.cases, self.document.problem_uids())
        if uid is not None and not table.select_uid(uid):
            self.screen.query_one("#filter", Input).value = ""
            table.set_filter("")
            table.select_uid(uid)
        await self.screen.query_one(CaseForm).show(self.document, table.highlighted_uid, focus_key)
        self.changed()

    def _current_turn(self) -> int:
        """The turn holding the focus, or the last turn of the case."""
        form = self.screen.query_one(CaseForm)
        parts = (form.focused_key() or "").split(".")
        if len(parts) > 1 and parts[0] == "turns":
            return int(parts[1])
        assert self.document is not None and form.uid is not None
        return len(self.document.case(form.uid).data.get("conversation") or []) - 1

    # --- typing --------------------------------------------------------------------

    def apply_field_edit(self, edit: FieldEdited) -> None:
        """Store an edit of the form's case and show it in the list, in the key's own step
        (the form hands it over as it happens: see ``FieldEditReceiver``)."""
        form = self.screen.query_one(CaseForm)
        document = self.document
        if document is None or form.uid is None or not edit.field.is_attached:
            return
        if document.set_field(form.uid, edit.key, edit.text):
            self._edited(form.uid)

    def _edited(self, uid: int) -> None:
        """Show an edit of case ``uid`` in the list and its problems in the form."""
        assert self.document is not None
        self.screen.query_one(CaseTable).update_case(self.document.case(uid))
        self.screen.query_one(CaseForm).show_problems(
            self.document.field_problems(uid), self.document.case(uid).data
        )
        self.refresh_marks()

    async def settle(self) -> None:
        """Let the form's fields handle the keys sent to them and store what they hold:
        called before anything rebuilds the form, saves or leaves, so that no key typed
        before it is lost or applied after it. In this step when no field has a key left
        to handle (:meth:`settle_now`): the round trip through every field's queue took
        4 ms of each undo."""
        if self.settle_now():
            return
        form = self.screen.query_one(CaseForm)
        uid = form.uid
        texts = await form.settle()
        if form.uid == uid:
            self._store(uid, texts)

    def settle_now(self) -> bool:
        """:meth:`settle` in this step, when the fields have no key left to handle;
        ``False`` (nothing done) when they have."""
        form = self.screen.query_one(CaseForm)
        if form.keys_pending():
            return False
        self._store(form.uid, form.edited_texts())
        return True

    def _store(self, uid: int | None, texts: dict[str, str]) -> None:
        document = self.document
        if document is None or uid is None or not self.checked:
            return
        changed = False
        for key, text in texts.items():
            try:
                changed = document.set_field(uid, key, text) or changed
            except KeyError:  # the case or the field went meanwhile
                return
        if changed:
            self._edited(uid)

    def focus_field(self, direction: int) -> None:
        """Focus the next (1) or previous (-1) field of the form, or widget of the screen."""
        if not self.screen.query_one(CaseForm).focus_next_field(direction):
            if direction > 0:
                self.screen.focus_next()
            else:
                self.screen.focus_previous()

    # --- cases ---------------------------------------------------------------------

    async def new_case(self) -> None:
        """Add a blank case after the selected one and start typing its id."""
        await self.settle()
        if self.document is not None:
            uid = self.document.add_case(after=self.screen.query_one(CaseForm).uid)
            await self.reshow(uid, "eval_id")

    async def duplicate_case(self) -> None:
        """Copy the selected case (with a new id) right after it."""
        await self.settle()
        uid = self.screen.query_one(CaseForm).uid
        if self.document is not None and uid is not None:
            await self.reshow(self.document.duplicate_case(uid))

    async def delete_case(self) -> None:
        """Delete the selected case, after asking (run it in a worker: it waits for the
        dialog)."""
        await self.settle()
        screen = self.screen
        uid = screen.query_one(CaseForm).uid
        document = self.document
        if document is None or uid is None or not self.checked:
            return
        eval_id = document.case(uid).eval_id
        answer = await screen.app.push_screen_wait(
            ChoiceScreen(
                f"Delete case {quoted(eval_id)}? (ctrl+z undoes it)",
                {"delete": "Delete", "cancel": "Cancel"},
                title="Delete case",
            )
        )
        if answer != "delete":
            return
        if self.document is not document:  # the file was reloaded while the dialog was up
            screen.notify(
                f"The file was reloaded meanwhile: {quoted(eval_id)} was not deleted. Look again.",
                severity="warning",
            )
            return
        visible = screen.query_one(CaseTable).visible_uids
        position = visible.index(uid) if uid in visible else 0
        document.delete_case(uid)
        remaining = [u for u in visible if u != uid]
        await self.reshow(remaining[min(position, len(remaining) - 1)] if remaining else None)
        screen.query_one(CaseTable).focus()

    async def move_case(self, delta: int) -> None:
        """Move the selected case up or down."""
        await self.settle()
        form = self.screen.query_one(CaseForm)
        uid = form.uid
        if self.document is not None and uid is not None and self.document.move_case(uid, delta):
            await self.reshow(uid, form.focused_key())

    # --- turns and tool calls ------------------------------------------------------

    async def add_turn(self) -> None:
        """Add a turn after the one holding the focus (or at the end)."""
        await self.settle()
        uid = self.screen.query_one(CaseForm).uid
        if self.document is None or uid is None:
            return
        has_turns = bool(self.document.case(uid).data.get("conversation"))
        turn = self.document.add_turn(uid, self._current_turn() if has_turns else None)
        await self.reshow(uid, f"turns.{turn}.user")

    async def add_call(self) -> None:
        """Add an expected tool call to the turn holding the focus (or the last turn)."""
        await self.settle()
        uid = self.screen.query_one(CaseForm).uid
        if self.document is None or uid is None:
            return
        if not self.document.case(uid).data.get("conversation"):
            self.screen.notify("Add a turn first (alt+t).", severity="warning")
            return
        turn = self._current_turn()
        call = self.document.add_tool_call(uid, turn)
        await self.reshow(uid, f"turns.{turn}.tools.{call}.name")

    async def form_command(self, name: str, turn: int, call: int, delta: int) -> None:
        """A structural edit asked from the form (see ``tool_call_row.form_command``)."""
        await self.settle()
        uid = self.screen.query_one(CaseForm).uid
        document = self.document
        if document is None or uid is None:
            return
        focus: str
        if name == "add_call":
            focus = f"turns.{turn}.tools.{document.add_tool_call(uid, turn)}.name"
        elif name == "remove_call":
            document.remove_tool_call(uid, turn, call)
            focus = f"turns.{turn}.nodes"
            self.screen.notify(
                f"Removed tool call {call + 1} of turn {turn + 1}. ctrl+z brings it back."
            )
        elif name == "move_call":
            if not document.move_tool_call(uid, turn, call, delta):
                return
            focus = f"turns.{turn}.tools.{call + delta}.args"
        elif name == "remove_turn":
            document.remove_turn(uid, turn)
            focus = f"turns.{max(turn - 1, 0)}.user"
            self.screen.notify(f"Removed turn {turn + 1}. ctrl+z brings it back.")
        else:
            return
        await self.reshow(uid, focus)

    # --- undo / redo ---------------------------------------------------------------

    async def undo_or_redo(self, redo: bool) -> None:
        """Undo the last edit, or (``redo``) redo the last undone one."""
        await self.settle()
        document = self.document
        if document is None:
            return
        focus = self.screen.query_one(CaseForm).focused_key()
        change = document.redo() if redo else document.undo()
        if change is None:
            self.screen.notify("Nothing to redo." if redo else "Nothing to undo.")
            return
        uid = change_uid(change)
        if isinstance(change, DeleteCase | InsertCase | InsertCases | MoveCase):
            present = {case.uid for case in document.cases}
            await self.reshow(uid if uid in present else None)
        else:
            await self.reshow(uid, focus)


__all__ = ["CASE_BINDINGS", "CaseCommands"]
