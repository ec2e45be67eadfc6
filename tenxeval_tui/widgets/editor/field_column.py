"""A scrolling column of :class:`CaseField`\\ s whose edits go to one handler: the base of
the case form and of the editor's dialogs made of such fields (recorded tool calls,
the tools section)."""

from __future__ import annotations

import asyncio

from textual.containers import VerticalScroll
from textual.widgets import Input, TextArea

from tenxeval_tui.widgets.editor.case_field import CaseField
from tenxeval_tui.widgets.editor.messages import FieldEditHandler, FieldEditReceiver


class FieldColumn(FieldEditReceiver, VerticalScroll):
    """Holds fields (anywhere below it); each edit goes to ``on_field_edit`` the moment it
    is made (see :class:`FieldEditReceiver`)."""

    can_focus = False

    def __init__(
        self, *, on_field_edit: FieldEditHandler | None = None, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.field_edit_handler = on_field_edit

    @property
    def fields(self) -> list[CaseField]:
        """The fields shown, in form order."""
        return list(self.query(CaseField))

    async def settle(self) -> dict[str, str]:
        """Wait until every field has handled the keys already sent to it; then the text
        of each field edited since it was shown (field key -> text).

        Keys go to a field's own queue and its edits reach the screen messages later: a
        command that rebuilds the form (add a turn, a tool call, a case...) first takes
        what the fields hold, or the keys typed just before it were lost.
        """
        fields = self.fields
        loop = asyncio.get_running_loop()
        handled: list[asyncio.Future[None]] = []
        for field in fields:
            editor = field.editor
            done: asyncio.Future[None] = loop.create_future()
            # Queued behind the keys the field was sent: run once it has handled them.
            if editor is not None and editor.call_later(done.set_result, None):
                handled.append(done)
        if handled:
            await asyncio.wait(handled, timeout=2.0)  # a field being removed never answers
        return self.edited_texts(fields)

    def keys_pending(self) -> bool:
        """Whether a field has keys queued that it has not handled yet (:meth:`settle`
        waits for them)."""
        return any(field.keys_waiting for field in self.fields)

    def edited_texts(self, fields: list[CaseField] | None = None) -> dict[str, str]:
        """The text of each field edited since it was shown (field key -> text)."""
        return {
            field.key: field.value
            for field in (self.fields if fields is None else fields)
            if field.edited
        }

    def focus_field(self, key: str, *, select: bool = True) -> bool:
        """Focus the input of field ``key``; ``False`` if the form has no such field.
        ``select=False`` puts the cursor at the end of a one-line box instead of selecting
        its text (``enter`` on a case: the first key typed must not overwrite its id)."""
        widget = next((field.editor for field in self.fields if field.key == key), None)
        if widget is None:
            return False
        if isinstance(widget, Input) and not select and widget.select_on_focus:
            widget.select_on_focus = False  # for this focus only
            self.call_after_refresh(setattr, widget, "select_on_focus", True)
        self.screen.set_focus(widget)  # now, not after a refresh: the next key goes there
        self.call_after_refresh(widget.scroll_visible, animate=False)
        return True

    def focus_next_field(self, direction: int = 1) -> bool:
        """Focus the field after (``direction`` 1) or before (-1) the focused one, in the
        form's order; ``False`` when the focus is not in the form or would leave it.

        Textual orders the focus by where widgets are on screen, which a rebuilt form does
        not know until its next layout: a ``tab`` typed right after ``ctrl+t`` skipped the
        new turn. The fields' order in the form is known at once.
        """
        key = self.focused_key()
        fields = self.fields
        editors = [field.editor for field in fields]
        keys = [field.key for field in fields]
        if key is None or key not in keys:
            return False
        index = keys.index(key) + direction
        if not 0 <= index < len(editors) or editors[index] is None:
            return False
        self.focus_field(keys[index])
        return True

    def focused_key(self) -> str | None:
        """The field key of the focused input, if the focus is in this form."""
        focused = self.screen.focused
        if isinstance(focused, Input | TextArea):
            for ancestor in focused.ancestors:
                if isinstance(ancestor, CaseField):
                    return ancestor.key
        return None
