"""The form of the selected case: every field, turn by turn."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from rich.text import Text
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

    Its widgets stay from one case to the next: showing another case (or the same after
    an undo or a structural edit) puts the texts in the fields already there, and only a
    turn whose tool calls differ in number is built anew; typing only updates problem
    messages.
    """

    def __init__(
        self, *, on_field_edit: FieldEditHandler | None = None, id: str | None = None
    ) -> None:
        super().__init__(on_field_edit=on_field_edit, id=id)
        self._uid: int | None = None
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
        self._fixed: list[CaseField] = []
        """The fields every case has (all but the turns'), once the form shows a case: the
        next case is shown in them (:meth:`_refill`)."""
        self._title = FormLine(classes="form-title")
        self._flips = Static(id="case-flips", classes="form-flips")
        self._unknown = Static(id="case-unknown-keys", classes="form-warning")
        self._unknown_shown: list[str] = []
        """The unknown-key warnings shown under the title (none: the line hidden)."""
        self._turn_hint = FormLine(classes="form-hint")
        self._flip_shown: str | None = None
        """The flip note shown under the title (``None``: none, the line hidden)."""
        self._turns: list[TurnEditor] = []
        """A turn editor per turn of the case shown, then those hidden (kept for a case
        with more turns)."""
        self._turn_count = 0
        """How many of :attr:`_turns` are shown."""

    @property
    def uid(self) -> int | None:
        """The uid of the case shown (``None``: none)."""
        return self._uid

    @uid.setter
    def uid(self, uid: int | None) -> None:
        # The screen's case keys (delete, duplicate, move, add a turn) are enabled only
        # while a case is shown: its footer is told when that changes.
        changed = (uid is None) != (self._uid is None)
        self._uid = uid
        if changed and self.is_attached:
            self.screen.refresh_bindings()

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
            if uid is not None and self._fixed:
                await self._refill(document, uid)
                return
            # Edits still queued from the old fields apply to the old case until it is gone.
            await self.remove_children()
            self._fixed, self._turns, self._turn_count = [], [], 0
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
            self._shown_id = document.case(uid).eval_id
            self._title = FormLine(self._title_text(document, uid), classes="form-title")
            self._flips = Static(id="case-flips", classes="form-flips")
            self._flips.display = False  # until the case is known to have flipped
            self._flip_shown = None
            self._unknown = Static(id="case-unknown-keys", classes="form-warning")
            self._unknown.display = False
            self._unknown_shown = []
            head = [  # _HEAD fields
                CaseField("eval_id", "eval_id", text("eval_id")),
                CaseField("name", "name", text("name")),
                CaseField("description", "description", text("description"), multiline=True),
                CaseField("tags", "tags (comma separated)", text("tags")),
            ]
            self._turn_hint = FormLine(_turn_hint(case), classes="form-hint")
            tail = [
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
            turns = [
                TurnEditor(turn, case, turn_texts(text, case, turn), self.completion)
                for turn in range(len(case.get("conversation") or []))
            ]
            await self.mount_all(
                [self._title, self._flips, self._unknown, *head, *turns, self._turn_hint, *tail]
            )
            self._fixed = head + tail
            self._turns, self._turn_count = turns, len(turns)
            self._shown_case(document, uid, case)

    def show_now(self, document: EvalSetDocument, uid: int) -> bool:
        """Show case ``uid`` in this step (before the next frame) when the form has every
        widget it needs; ``False``, with nothing done, when it must mount some first (or is
        being rebuilt): :meth:`show` does that."""
        if self._showing.locked() or not self._fixed:
            return False
        case = document.case(uid).data
        count = len(case.get("conversation") or [])
        if count > len(self._turns) or not all(e.fits(case) for e in self._turns[:count]):
            return False
        with self.app.batch_update():
            self._fill(document, uid, case)
        return True

    async def _refill(self, document: EvalSetDocument, uid: int) -> None:
        """Show case ``uid`` in the form's widgets: every field gets its text; a turn
        editor per turn, those past them hidden (and kept), new ones only when none is
        spare (mounting among the form's children restyles them all)."""
        case = document.case(uid).data
        text = lambda key: document.field_text(uid, key)  # noqa: E731
        count = len(case.get("conversation") or [])
        added = [
            TurnEditor(turn, case, turn_texts(text, case, turn), self.completion)
            for turn in range(len(self._turns), count)
        ]
        for turn, editor in enumerate(self._turns[:count]):
            if not editor.fits(case):
                await editor.show(case, turn_texts(text, case, turn))
        if added:
            await self.mount_all(added, before=self._turn_hint)
            self._turns += added
        self._fill(document, uid, case)

    def _fill(self, document: EvalSetDocument, uid: int, case: dict[str, Any]) -> None:
        """Show case ``uid`` in the widgets here, which are enough (see :meth:`show_now`)."""
        text = lambda key: document.field_text(uid, key)  # noqa: E731
        self.uid = uid
        self._shown_id = document.case(uid).eval_id
        self._title.show(self._title_text(document, uid))
        for field in self._fixed:
            field.show_text(text(field.key))
        count = len(case.get("conversation") or [])
        for turn, editor in enumerate(self._turns):
            if turn < count:
                editor.fill(case, turn_texts(text, case, turn))
            elif turn < self._turn_count:
                editor.clear()
            editor.display = turn < count
        self._turn_count = count
        self._turn_hint.show(_turn_hint(case))
        self._shown_case(document, uid, case)

    @property
    def fields(self) -> list[CaseField]:
        """The fields shown, in form order (the hidden turns' are not)."""
        turns = [field for editor in self._turns[: self._turn_count] for field in editor.fields]
        return [*self._fixed[:_HEAD], *turns, *self._fixed[_HEAD:]]

    def _shown_case(self, document: EvalSetDocument, uid: int, case: dict[str, Any]) -> None:
        self._show_flips(self._flips)
        self.show_problems(document.field_problems(uid), case)
        # The turns' own fields are composed after this: their notes once they are.
        self.call_after_refresh(self.show_agent_notes)

    @staticmethod
    def _title_text(document: EvalSetDocument, uid: int) -> str:
        return f"Case #{document.index_of(uid) + 1}"

    def set_flip_notes(self, notes: Mapping[str, str]) -> None:
        """What to say of the flipped cases (``eval_id`` -> one line); the case shown
        says its own at once, under its title."""
        self.flip_notes = notes
        if self._flips.is_attached:
            self._show_flips(self._flips)

    def _show_flips(self, line: Static) -> None:
        note = self.flip_notes.get(self._shown_id or "") if self.uid is not None else None
        if note != self._flip_shown:  # most cases have none: no update, no layout
            line.update(Text(inert(note or "")))
            line.display = note is not None
        self._flip_shown = note

    def show_problems(self, problems: dict[str, str], case: dict[str, Any] | None = None) -> None:
        """Put each problem's message under its field; clear the others. With the case's
        data (``case``), what the agent's schema says of its fields is shown too
        (:meth:`show_agent_notes`)."""
        for field in self.fields:
            field.set_problem(problems.get(field.key))
        if case is not None:
            self.show_unknown_keys(case)
            self.show_agent_notes(case)

    def show_unknown_keys(self, case: dict[str, Any]) -> None:
        """Warn, under the case's title, of each key of ``case`` that nothing reads (a
        typo such as ``tagz`` checks nothing), with the nearest known name."""
        lines = describe(unknown_keys(case, EvalCase), whole="this case")
        if lines != self._unknown_shown:  # most cases have none: no update, no layout
            self._unknown.update(
                Text(inert("\n".join(f"⚠ {text}" for text in lines), multiline=True))
            )
            self._unknown.display = bool(lines)
        self._unknown_shown = lines

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
        for field in self.fields:
            field.set_agent_note(notes.get(field.key), hints.get(field.key))
        self._notes_shown = schema is not None


class FormLine(Label):
    """A line of the form whose text changes with the case shown (its title, its hint):
    updated only when the text changes, and then without a layout pass (it is one row,
    as wide as the form)."""

    DEFAULT_CSS = "FormLine { width: 1fr; height: 1; }"

    def __init__(self, text: str = "", *, classes: str) -> None:
        super().__init__(text, classes=classes, markup=False)
        self._text = text

    def show(self, text: str) -> None:
        """Show ``text`` (plain text, not markup)."""
        if text != self._text:
            self._text = text
            self.update(text, layout=False)


_HEAD = 4
"""The fields before the turns (eval id, name, description, tags); the rest come after."""


def _turn_hint(case: dict[str, Any]) -> str:
    return "alt+t adds a turn" if case.get("conversation") else "no turns: alt+t adds one"
