"""The tools section (``metadata.tools``) of a case or of the eval set, by keyboard.

Opened from the editor (``f9`` for the highlighted case, ``shift+f9`` for the eval set's
section, which every case adds to): fakes (tool -> ``module:attr``), the fakes'
starting state, faults (the Nth call of a tool raises, times out or returns a value),
the end state ``tool_end_state`` expects, the argument keys replay ignores and the
redaction patterns. Tool names complete from the agent's schema, argument keys from
its tools' parameters, fault kinds and built-in error classes from their lists, state
paths from the starting state, fakes from the project's Python files. Every field is
checked as it is typed, through the same rules a run applies
(:mod:`tenxeval_tui.authoring.tool_section`); ``ctrl+s`` applies the section to the
eval set (one undo step of the editor) only when nothing is wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Header, Label, Static

from tenxeval_tui.authoring.agent_checks import unknown_tool
from tenxeval_tui.authoring.tool_completion import FakeIndex
from tenxeval_tui.authoring.tool_section import (
    SECTION_PROBLEM,
    ToolSectionTexts,
    section_from_texts,
)
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.targets.schema import names_listed
from tenxeval_tui.screens.common.choice import ChoiceScreen
from tenxeval_tui.widgets.editor.agent_completion import AgentCompletion
from tenxeval_tui.widgets.editor.case_field import CaseField
from tenxeval_tui.widgets.editor.field_column import FieldColumn
from tenxeval_tui.widgets.editor.messages import FieldEdited
from tenxeval_tui.widgets.editor.tool_section_rows import (
    EndStateRowFields,
    FakeRowFields,
    FaultRowFields,
)
from tenxeval_tui.widgets.editor.tool_suggesters import IgnoredArgSuggester

_ROW_KINDS = {"fakes": "fake", "faults": "fault", "end_state": "expected value"}


class ToolSectionScreen(Screen[dict[str, Any] | None]):
    """Edit a ``metadata.tools`` section (``before``, as written; its form texts
    ``texts``); dismisses with the new section (``{}``: none), or ``None`` when
    cancelled. ``what`` names whose section it is."""

    BINDINGS = [  # priority: they act from inside the fields, before the next key
        Binding("ctrl+s", "apply", "Apply", tooltip="Into the eval set (unsaved)", priority=True),
        Binding("escape", "cancel", "Cancel", tooltip="Asks about changes", priority=True),
        Binding("f2", "add_row('fakes')", "Add fake", priority=True),
        Binding("f3", "add_row('faults')", "Add fault", priority=True),
        Binding(
            "f4",
            "add_row('end_state')",
            "Add end state",
            tooltip="An expected value",
            priority=True,
        ),
        Binding("ctrl+delete", "remove_row", "Remove row", priority=True),
        Binding("tab", "focus_field(1)", "Next field", show=False, priority=True),
        Binding("shift+tab", "focus_field(-1)", "Previous field", show=False, priority=True),
    ]

    def __init__(
        self,
        what: str,
        before: Any,
        texts: ToolSectionTexts,
        completion: AgentCompletion | None = None,
        fakes: FakeIndex | None = None,
    ) -> None:
        super().__init__()
        self.what = what
        self.before = before
        self.texts = texts
        self.first_texts = texts
        self.completion = completion or AgentCompletion()
        self.fakes = fakes or FakeIndex(Path.cwd())

    def compose(self) -> ComposeResult:
        yield Header(icon="≡")
        yield Static("", id="section-status")
        yield FieldColumn(on_field_edit=self._edited, id="section")
        yield Footer()

    async def on_mount(self) -> None:
        self.title = "tenxeval · tools (metadata.tools)"
        self.sub_title = inert(self.what)
        await self._rebuild("fakes.0.tool" if self.texts.fakes else "state")

    @property
    def column(self) -> FieldColumn:
        """The column of the section's fields."""
        return self.query_one("#section", FieldColumn)

    def _state_text(self) -> str:
        return self.texts.state

    def _widgets(self) -> list[Widget]:
        texts, completion = self.texts, self.completion
        fakes = self.fakes
        widgets: list[Widget] = [
            Label(
                "fakes: a tool answered by your function, fake(call, state) (f2 adds one)",
                classes="section-title",
            ),
            *(FakeRowFields(i, row, completion, fakes) for i, row in enumerate(texts.fakes)),
            CaseField(
                "state",
                "the fakes' state as each case starts (JSON object)",
                texts.state,
                multiline=True,
                placeholder='{"refunds": []}',
            ),
            Label(
                "faults: the Nth call of a tool raises an error (its class), times out, or "
                "returns a JSON value (f3 adds one)",
                classes="section-title",
            ),
            *(FaultRowFields(i, row, completion) for i, row in enumerate(texts.faults)),
            Label(
                "end state: what tool_end_state expects in the state after the case (f4)",
                classes="section-title",
            ),
            *(EndStateRowFields(i, row, self._state_text) for i, row in enumerate(texts.end_state)),
            CaseField(
                "ignore_args",
                "argument keys replay ignores (KEY or TOOL.KEY, comma separated)",
                texts.ignore_args,
                placeholder="timestamp, search.request_id",
                suggester=IgnoredArgSuggester(completion),
            ),
            CaseField(
                "redact",
                "masked in the cassette (regular expressions, one a line)",
                texts.redact,
                multiline=True,
            ),
        ]
        return widgets

    async def _rebuild(self, focus: str | None = None) -> None:
        column = self.column
        with self.app.batch_update():
            await column.remove_children()
            await column.mount_all(self._widgets())
        self._show_state()
        if focus is not None:
            column.focus_field(focus)

    def _show_state(self) -> None:
        """Each field's problem (or the agent's warning) under it, and the status line."""
        _, problems = section_from_texts(self.texts, self.before)
        schema = self.completion.schema
        for field in self.query(CaseField):
            field.set_problem(problems.get(field.key))
            warning = hint = None
            if schema is not None and field.key.endswith(".tool"):
                name = field.value.strip()
                warning = unknown_tool(schema, name)
                if not name and schema.tools:
                    hint = names_listed(schema.tool_names, "tools")
            field.set_agent_note(warning, hint)
        status = Text()
        whole = problems.get(SECTION_PROBLEM)
        if whole:
            status.append(inert(whole), style="red")
        elif problems:
            status.append(f"{len(problems)} problem(s), shown under their fields", style="red")
        else:
            status.append("ok: a run applies this section as shown")
        self.query_one("#section-status", Static).update(status)

    def _edited(self, edit: FieldEdited) -> None:
        if not edit.field.is_attached:
            return
        try:
            self.texts = self.texts.with_field(edit.key, edit.text)
        except (KeyError, IndexError, ValueError):
            return  # a row removed meanwhile
        self._show_state()

    async def _settle(self) -> None:
        for key, text in (await self.column.settle()).items():
            try:
                self.texts = self.texts.with_field(key, text)
            except (KeyError, IndexError, ValueError):
                continue

    def action_focus_field(self, direction: int) -> None:
        """Focus the next (1) or previous (-1) field, in the dialog's order."""
        if not self.column.focus_next_field(direction):
            self.focus_next() if direction > 0 else self.focus_previous()

    def _focused_row(self) -> tuple[str, int] | None:
        key = self.column.focused_key() or ""
        parts = key.split(".")
        if len(parts) == 3 and parts[0] in _ROW_KINDS:
            return parts[0], int(parts[1])
        return None

    async def action_add_row(self, kind: str) -> None:
        """A blank row of ``kind`` (``fakes``, ``faults``, ``end_state``), after the
        focused one of that kind (at the end otherwise)."""
        await self._settle()
        focused = self._focused_row()
        after = focused[1] if focused is not None and focused[0] == kind else None
        self.texts, index = self.texts.add_row(kind, after)
        await self._rebuild(f"{kind}.{index}.{'path' if kind == 'end_state' else 'tool'}")

    async def action_remove_row(self) -> None:
        """Remove the fake, fault or expected value holding the focus."""
        await self._settle()
        focused = self._focused_row()
        if focused is None:
            self.notify("Focus a fake, a fault or an expected value first.")
            return
        kind, index = focused
        self.texts = self.texts.remove_row(kind, index)
        left = len(getattr(self.texts, kind))
        first = "path" if kind == "end_state" else "tool"
        await self._rebuild(f"{kind}.{min(index, left - 1)}.{first}" if left else "state")
        self.notify(f"Removed {_ROW_KINDS[kind]} {index + 1} (esc discards every change).")

    @work(exclusive=True, group="section-dialog")
    async def action_apply(self) -> None:
        """Close with the section, unless something in it is wrong (then say what)."""
        await self._settle()
        section, problems = section_from_texts(self.texts, self.before)
        if problems:
            self._show_state()
            self.notify(
                f"Not applied: {len(problems)} problem(s), shown in the dialog.",
                severity="error",
            )
            return
        self.dismiss(section)

    @work(exclusive=True, group="section-dialog")
    async def action_cancel(self) -> None:
        """Close without applying; asks first when something was changed."""
        await self._settle()
        if self.texts != self.first_texts:
            answer = await self.app.push_screen_wait(
                ChoiceScreen(
                    f"Discard the changes to the tools of {self.what}?",
                    {"discard": "Discard them", "keep": "Keep editing"},
                    title="Unapplied changes",
                )
            )
            if answer != "discard":
                return
        self.dismiss(None)
