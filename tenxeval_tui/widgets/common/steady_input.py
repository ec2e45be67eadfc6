"""A one-line input whose text changes need no layout pass and are reported at once."""

from __future__ import annotations

from collections.abc import Callable

from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.widgets import Input


class SteadyInput(Input):
    """Textual's :class:`~textual.widgets.Input`, for a box of a fixed width.

    Input sets its virtual size to its text's width, and Widget's asks for a layout pass
    of the whole screen when it changes: each key typed into a filter, each case shown
    with a name of another length, laid the screen out again. A box as wide as its
    container whatever its text scrolls by its value itself (it has no scrollbar): no
    layout is needed.

    ``on_change`` is called in the step of the change itself (the key that made it), not
    when the ``Changed`` message is handled, a frame or more later: what follows the
    text (a filtered list) shows in the frame that shows the text.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0))
    on_change: Callable[[], None] | None = None

    def post_message(self, message: Message) -> bool:
        if isinstance(message, Input.Changed) and self.on_change is not None:
            self.on_change()
        return super().post_message(message)


__all__ = ["SteadyInput"]
