"""The recorded tool calls of one case (its lines of the cassette), looked at and edited.

Opened from the editor (``f8``) on the highlighted case: each call's tool, arguments,
result or raised error, in the order the agent made them. Edits stay in the dialog
(``ctrl+z`` undoes them) until ``ctrl+s`` writes the case's lines, checked first: a
field that does not make a valid cassette line says why under it and nothing is
written. The cassette is replaced atomically, every other case's lines kept byte for
byte; when a run rewrote this case's lines meanwhile, the dialog asks before
overwriting them. Closing with unsaved edits asks too.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from tenxeval_tui.authoring.recorded_calls import CallsDraft
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.tools.cassette import write_case
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.screens.common.host import host_of
from tenxeval_tui.widgets.editor.agent_completion import AgentCompletion
from tenxeval_tui.widgets.editor.case_field import CaseField
from tenxeval_tui.widgets.editor.field_column import FieldColumn
from tenxeval_tui.widgets.editor.messages import FieldEdited
from tenxeval_tui.widgets.editor.recorded_call_block import RecordedCallBlock, block_title


class RecordedCallsScreen(Screen[None]):
    """Case ``draft.case``'s recorded calls in ``cassette`` (shown as ``shown``); ``order``:
    the eval set's case ids (where a case's first lines go)."""

    BINDINGS = [  # priority: they act from inside the fields, before the next key
        Binding("ctrl+s", "save", "Save", tooltip="Write the calls to the cassette", priority=True),
        Binding("escape", "close", "Close", tooltip="Asks about unsaved edits", priority=True),
        Binding("ctrl+n", "add_call", "Add call", tooltip="A call after this one", priority=True),
        Binding("ctrl+delete", "remove_call", "Remove call", priority=True),
        Binding("ctrl+up", "move_call(-1)", "Call up", priority=True),
        Binding("ctrl+down", "move_call(1)", "Call down", priority=True),
        Binding("ctrl+z", "undo", "Undo", priority=True),
        Binding("ctrl+y", "redo", "Redo", priority=True),
        Binding("tab", "focus_field(1)", "Next field", show=False, priority=True),
        Binding("shift+tab", "focus_field(-1)", "Previous field", show=False, priority=True),
    ]

    def __init__(
        self,
        cassette: Path,
        shown: str,
        draft: CallsDraft,
        order: list[str],
        completion: AgentCompletion | None = None,
    ) -> None:
        super().__init__()
        self.cassette = cassette
        self.shown = shown
        self.draft = draft
        self.order = order
        self.completion = completion or AgentCompletion()

    def compose(self) -> ComposeResult:
        yield Header(icon="≡")
        yield Static("", id="calls-status")
        yield FieldColumn(on_field_edit=self._edited, id="calls")
        yield Footer()

    async def on_mount(self) -> None:
        host_of(self.app).register_hang_up_keeper(self.keep_draft)
        self.title = inert(f"tenxeval · recorded tool calls of {self.draft.case!r}")
        self.sub_title = inert(self.shown)
        await self._rebuild("0.tool" if self.draft.texts else None)

    def on_unmount(self) -> None:
        host_of(self.app).forget_hang_up_keeper(self.keep_draft)

    async def keep_draft(self) -> str | None:
        """The terminal went away with nobody to ask: the unsaved edits go to
        ``<cassette>.<case>.unsaved.json`` beside the cassette (which stays as it is); the
        path written, or ``None`` when nothing was unsaved."""
        await self._settle()  # the keys typed just before count
        if not self.draft.dirty:
            return None
        return str(await asyncio.to_thread(self.draft.keep, self.cassette))

    @property
    def column(self) -> FieldColumn:
        """The column of call blocks."""
        return self.query_one("#calls", FieldColumn)

    async def _rebuild(self, focus: str | None = None) -> None:
        column = self.column
        with self.app.batch_update():
            await column.remove_children()
            if self.draft.texts:
                await column.mount_all(
                    RecordedCallBlock(index, texts, self.completion)
                    for index, texts in enumerate(self.draft.texts)
                )
            else:
                await column.mount(
                    Static(
                        "No recorded calls for this case. A run with --tools record (or "
                        "the run view's tools option) records them; ctrl+n adds one here.",
                        classes="form-hint",
                    )
                )
        self._show_state()
        if focus is not None and not column.focus_field(focus):
            column.focus_field("0.tool")

    def _show_state(self) -> None:
        """Each field's problem under it, and the dialog's status line."""
        _, problems = self.draft.calls()
        for field in self.query(CaseField):
            field.set_problem(problems.get(field.key))
        count = len(self.draft.texts)
        status = f"{count} call(s), in the order the agent made them"
        if self.draft.dirty:
            status += " · unsaved"
        if problems:
            status += f" · {len(problems)} problem(s): nothing is written until they are fixed"
        self.query_one("#calls-status", Static).update(Text(status))

    def _edited(self, edit: FieldEdited) -> None:
        if not edit.field.is_attached:
            return  # typed into a block a rebuild removed: its text was taken already
        index, name = edit.key.split(".", 1)
        if self.draft.set_field(int(index), name, edit.text):
            if name in ("tool", "error_type"):
                for block in self.query(RecordedCallBlock):
                    if block.index == int(index):
                        block.border_title = block_title(block.index, self.draft.texts[block.index])
            self._show_state()

    async def _settle(self) -> None:
        """Take what the fields hold, with every key typed before the command."""
        for key, text in (await self.column.settle()).items():
            index, name = key.split(".", 1)
            if int(index) < len(self.draft.texts):
                self.draft.set_field(int(index), name, text)

    def _focused_call(self) -> int | None:
        key = self.column.focused_key()
        return int(key.split(".", 1)[0]) if key is not None else None

    def action_focus_field(self, direction: int) -> None:
        """Focus the next (1) or previous (-1) field, in the dialog's order."""
        if not self.column.focus_next_field(direction):
            self.focus_next() if direction > 0 else self.focus_previous()

    async def action_add_call(self) -> None:
        """A blank call after the focused one (at the end when none is focused)."""
        await self._settle()
        index = self.draft.add_call(self._focused_call())
        await self._rebuild(f"{index}.tool")

    async def action_remove_call(self) -> None:
        """Remove the focused call (ctrl+z brings it back)."""
        await self._settle()
        index = self._focused_call()
        if index is None:
            self.notify("Focus a call's field first.")
            return
        self.draft.remove_call(index)
        await self._rebuild(f"{min(index, len(self.draft.texts) - 1)}.tool")
        self.notify(f"Removed call {index + 1}. ctrl+z brings it back.")

    async def action_move_call(self, delta: int) -> None:
        """Move the focused call up (-1) or down (1): the order replay expects them in."""
        await self._settle()
        index = self._focused_call()
        key = self.column.focused_key()
        if index is None or key is None or not self.draft.move_call(index, delta):
            return
        await self._rebuild(f"{index + delta}.{key.split('.', 1)[1]}")

    async def _undo_or_redo(self, redo: bool) -> None:
        await self._settle()
        focused = self.column.focused_key()
        key = self.draft.redo() if redo else self.draft.undo()
        if key is None:
            self.notify("Nothing to redo." if redo else "Nothing to undo.")
            return
        await self._rebuild(key or focused)

    async def action_undo(self) -> None:
        """Undo the last edit of the calls (typing in one field is one step)."""
        await self._undo_or_redo(redo=False)

    async def action_redo(self) -> None:
        """Redo the last undone edit."""
        await self._undo_or_redo(redo=True)

    async def _write(self) -> bool:
        """Write the calls; ``False`` (and why, to the user) when they were not."""
        await self._settle()
        texts = self.draft.texts
        calls, problems = self.draft.calls()
        if problems:
            self._show_state()
            self.notify(
                f"Not saved: {len(problems)} problem(s), shown under their fields. "
                "Nothing was written.",
                severity="error",
            )
            return False
        if await asyncio.to_thread(self.draft.changed_on_disk, self.cassette):
            answer = await self.app.push_screen_wait(
                ChoiceScreen(
                    f"The calls of case {self.draft.case!r} changed in {self.shown} since "
                    "they were read (a recording run?).",
                    {"overwrite": "Overwrite them with these", "cancel": "Cancel"},
                    title="Changed on disk",
                )
            )
            if answer != "overwrite":
                return False
        try:  # the file in a thread (a big cassette); the keys typed meanwhile stay unsaved
            await asyncio.to_thread(write_case, self.cassette, self.draft.case, calls, self.order)
        except OSError as exc:
            self.notify(
                inert(f"Could not save {self.shown}: {exc}"), severity="error", markup=False
            )
            return False
        self.draft.written(texts, calls)
        self._show_state()
        self.notify(
            inert(f"Saved {len(calls)} call(s) of {self.draft.case!r} in {self.shown}."),
            markup=False,
        )
        return True

    @work(exclusive=True, group="calls-dialog")
    async def action_save(self) -> None:
        """Write the case's lines of the cassette (after checking them)."""
        await self._write()

    @work(exclusive=True, group="calls-dialog")
    async def action_close(self) -> None:
        """Close; with unsaved edits, ask whether to save them first."""
        await self._settle()
        if self.draft.dirty:
            answer = await self.app.push_screen_wait(
                ChoiceScreen(
                    f"The calls of case {self.draft.case!r} have unsaved edits.",
                    {"save": "Save", "discard": "Discard the edits", "cancel": "Cancel"},
                    title="Unsaved calls",
                )
            )
            if answer == "cancel" or (answer == "save" and not await self._write()):
                return
        self.dismiss(None)
