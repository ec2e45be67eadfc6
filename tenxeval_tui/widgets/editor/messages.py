"""How the case form's fields hand their edits up to the editor screen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.widget import Widget


@dataclass(frozen=True)
class FieldEdited:
    """The user typed into field ``key`` (see :mod:`tenxeval_tui.authoring.case_fields`) of the case.

    ``field`` is the widget typed into: an edit from a field no longer on screen (made
    while the form switched cases) is stale and must be dropped.
    """

    key: str
    text: str
    field: Widget


FieldEditHandler = Callable[[FieldEdited], None]


class FieldEditReceiver:
    """Mixed into the widget holding case fields (the form): each field hands it every
    edit in the step that made it, through ``field_edit_handler``.

    Not a message: a message bubbling from the field to the screen took several hops
    through message queues, and the frame that showed the typed letter went out before
    the case list had the edit, so the list followed one to two frames (about 30 ms)
    behind the field. Handled at once, the field and the list change in the same frame.
    """

    field_edit_handler: FieldEditHandler | None = None
