"""Messages the case form's parts post up to the editor screen."""

from __future__ import annotations

from textual.message import Message
from textual.widget import Widget


class FieldEdited(Message):
    """The user typed into field ``key`` (see :mod:`tenxeval_tui.authoring.case_fields`) of the case.

    ``field`` is the widget typed into: an edit from a field no longer on screen (queued
    while the form switched cases) is stale and must be dropped.
    """

    def __init__(self, key: str, text: str, field: Widget) -> None:
        super().__init__()
        self.key = key
        self.text = text
        self.field = field
