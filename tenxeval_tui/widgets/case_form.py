"""The form of the selected case: every field, turn by turn."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, Label, Static, TextArea

from tenxeval_tui.editing import EvalSetDocument
from tenxeval_tui.widgets.case_field import CaseField, field_id
from tenxeval_tui.widgets.turn_editor import TurnEditor, turn_texts


class CaseForm(VerticalScroll):
    """Shows one case of a document; edits go up as ``FieldEdited``/``FormCommand`` messages.

    The form is rebuilt when another case is shown or the case's shape changes (turns or
    tool calls added, removed, moved; undo); typing only updates problem messages.
    """

    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.uid: int | None = None

    async def show(
        self, document: EvalSetDocument, uid: int | None, focus_key: str | None = None
    ) -> None:
        """Show case ``uid`` (or a hint when ``None``) and focus ``focus_key`` if given."""
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
            widgets: list[Widget] = [
                Label(f"Case #{index + 1}", classes="form-title"),
                CaseField("eval_id", "eval_id", text("eval_id")),
                CaseField("name", "name", text("name")),
                CaseField("description", "description", text("description"), multiline=True),
                CaseField("tags", "tags (comma separated)", text("tags")),
            ]
            for turn in range(len(case.get("conversation") or [])):
                widgets.append(TurnEditor(turn, case, turn_texts(text, case, turn)))
            widgets += [
                Label("no turns: ctrl+t adds one", classes="form-hint")
                if not case.get("conversation")
                else Label("ctrl+t adds a turn", classes="form-hint"),
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
            self.show_problems(document.field_problems(uid))
        if focus_key is not None:
            self.focus_field(focus_key)

    def show_problems(self, problems: dict[str, str]) -> None:
        """Put each problem's message under its field; clear the others."""
        for field in self.query(CaseField):
            field.set_problem(problems.get(field.key))

    def focus_field(self, key: str) -> bool:
        """Focus the input of field ``key``; ``False`` if the form has no such field."""
        found = self.query(f"#{field_id(key)}")
        if not found:
            return False
        widget = found.first()
        self.screen.set_focus(widget)  # now, not after a refresh: the next key goes there
        self.call_after_refresh(widget.scroll_visible, animate=False)
        return True

    def focused_key(self) -> str | None:
        """The field key of the focused input, if the focus is in this form."""
        focused = self.screen.focused
        if isinstance(focused, Input | TextArea):
            for ancestor in focused.ancestors:
                if isinstance(ancestor, CaseField):
                    return ancestor.key
        return None
