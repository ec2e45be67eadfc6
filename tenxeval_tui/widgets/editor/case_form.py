"""The form of the selected case: every field, turn by turn."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Label, Static

from tenxeval_tui.authoring.agent_checks import agent_notes, field_hints
from tenxeval_tui.authoring.document import EvalSetDocument
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase
from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.evaluation.unknown_keys import describe, unknown_keys
from tenxeval_tui.widgets.editor.agent_completion import AgentCompletion
from tenxeval_tui.widgets.editor.case_field import CaseField
from tenxeval_tui.widgets.editor.field_column import FieldColumn
from tenxeval_tui.widgets.editor.messages import FieldEditHandler
from tenxeval_tui.widgets.editor.turn_editor import TurnEditor, turn_texts


class CaseForm(FieldColumn):
    """Shows one case of a document; each edit goes to ``on_field_edit`` the moment it is
    made (a :class:`FieldEdited`), commands go up as ``screen.form_command`` actions.

    The form is rebuilt when another case is shown or the case's shape changes (turns or
    tool calls added, removed, moved; undo); typing only updates problem messages.
    """

    def __init__(
        self, *, on_field_edit: FieldEditHandler | None = None, id: str | None = None
    ) -> None:
        super().__init__(on_field_edit=on_field_edit, id=id)
        self.uid: int | None = None
        self.completion = AgentCompletion()
        """The agent's schema, which tool, argument and node fields complete from."""
        self._case: dict[str, Any] | None = None
        self._notes_shown = False
        """Whether fields show what an agent schema said (to clear when it goes)."""
        self.flip_notes: Mapping[str, str] = {}
        """What the last runs say of the cases that flipped, by ``eval_id``
        (:meth:`set_flip_notes`)."""
        self._shown_id: str | None = None
        self._showing = asyncio.Lock()
        """Held while the form is rebuilt: a key's command and a list highlight can ask at
        once, from two tasks, and must not both mount a form."""

    async def show(
        self,
        document: EvalSetDocument,
        uid: int | None,
        focus_key: str | None = None,
        *,
        unless_shown: bool = False,
    ) -> None:
        """Show case ``uid`` (or a hint when ``None``) and focus ``focus_key`` if given;
        with ``unless_shown``, leave the form as it is when it shows ``uid`` already."""
        async with self._showing:
            if not (unless_shown and uid == self.uid):
                await self._build(document, uid)
        if focus_key is not None:
            self.focus_field(focus_key)

    async def _build(self, document: EvalSetDocument, uid: int | None) -> None:
        with self.app.batch_update():
            # Edits still queued from the old fields apply to the old case until it is gone.
            await self.remove_children()
            self.uid = uid
            if uid is None:
                await self.mount(
                    Static(
                        "No case selected. ctrl+n adds a case; the filter may hide the others.",
                        classes="form-hint",
                    )
                )
                return
            case = document.case(uid).data
            text = lambda key: document.field_text(uid, key)  # noqa: E731
            index = document.index_of(uid)
            self._shown_id = document.case(uid).eval_id
            flips = Static(id="case-flips", classes="form-flips")
            flips.display = False  # until the case is known to have flipped
            unknown = Static(id="case-unknown-keys", classes="form-warning")
            unknown.display = False
            widgets: list[Widget] = [
                Label(f"Case #{index + 1}", classes="form-title"),
                flips,
                unknown,
                CaseField("eval_id", "eval_id", text("eval_id")),
                CaseField("name", "name", text("name")),
                CaseField("description", "description", text("description"), multiline=True),
                CaseField("tags", "tags (comma separated)", text("tags")),
            ]
            for turn in range(len(case.get("conversation") or [])):
                widgets.append(
                    TurnEditor(turn, case, turn_texts(text, case, turn), self.completion)
                )
            widgets += [
                Label("no turns: alt+t adds one", classes="form-hint")
                if not case.get("conversation")
                else Label("alt+t adds a turn", classes="form-hint"),
                CaseField("session.user_id", "session user id", text("session.user_id")),
                CaseField(
                    "session.state", "session state (JSON)", text("session.state"), multiline=True
                ),
                CaseField(
                    "session.config",
                    "session config (JSON)",
                    text("session.config"),
                    multiline=True,
                ),
                CaseField(
                    "metadata",
                    "metadata (JSON; context and reference_facts feed the judged criteria)",
                    text("metadata"),
                    multiline=True,
                ),
            ]
            await self.mount_all(widgets)
            self._show_flips(flips)
            self.show_problems(document.field_problems(uid), case)
            # The turns' own fields are composed after this: their notes once they are.
            self.call_after_refresh(self.show_agent_notes)

    def set_flip_notes(self, notes: Mapping[str, str]) -> None:
        """What to say of the flipped cases (``eval_id`` -> one line); the case shown
        says its own at once, under its title."""
        self.flip_notes = notes
        found = self.query("#case-flips")
        if found:
            self._show_flips(found.first(Static))

    def _show_flips(self, line: Static) -> None:
        note = self.flip_notes.get(self._shown_id or "") if self.uid is not None else None
        line.update(Text(inert(note or "")))
        line.display = note is not None

    def show_problems(self, problems: dict[str, str], case: dict[str, Any] | None = None) -> None:
        """Put each problem's message under its field; clear the others. With the case's
        data (``case``), what the agent's schema says of its fields is shown too
        (:meth:`show_agent_notes`)."""
        for field in self.query(CaseField):
            field.set_problem(problems.get(field.key))
        if case is not None:
            self.show_unknown_keys(case)
            self.show_agent_notes(case)

    def show_unknown_keys(self, case: dict[str, Any]) -> None:
        """Warn, under the case's title, of each key of ``case`` that nothing reads (a
        typo such as ``tagz`` checks nothing), with the nearest known name."""
        found = self.query("#case-unknown-keys")
        if not found:
            return
        line = found.first(Static)
        lines = describe(unknown_keys(case, EvalCase), whole="this case")
        line.update(Text(inert("\n".join(f"⚠ {text}" for text in lines), multiline=True)))
        line.display = bool(lines)

    def show_agent_notes(self, case: dict[str, Any] | None = None) -> None:
        """Show the agent's warnings and hints of ``case`` (by default the case shown)
        under its fields (see :mod:`tenxeval_tui.authoring.agent_checks`)."""
        if case is not None:
            self._case = case
        if self._case is None or self.uid is None:
            return
        schema = self.completion.schema
        if schema is None and not self._notes_shown:
            return  # no agent known: nothing to show or clear (no cost per keystroke)
        notes = agent_notes(schema, self._case, typing=True)
        hints = field_hints(schema, self._case)
        for field in self.query(CaseField):
            field.set_agent_note(notes.get(field.key), hints.get(field.key))
        self._notes_shown = schema is not None
