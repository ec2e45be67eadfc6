"""A section's title above its body, in one widget (the case view's sections)."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.widgets import Static

from tenxeval_tui.widgets.common.in_place import update_in_place

# As the title of a section stands alone (a Static with colour $accent).
TITLE_STYLE = "bold underline $accent"


def titled(title: str, body: Text) -> Content:
    """``body`` under ``title``; no title gives ``body`` alone.

    One widget per section instead of two halves the widgets that opening a case
    lays out, renders and sends messages to.
    """
    content = Content.from_rich_text(body)
    if not title:
        return content
    return Content.assemble(Content.styled(title, TITLE_STYLE), "\n", content)


class TitledStatic(Static):
    """A section whose body is one ``Static``: ``title`` is shown above what it shows."""

    def __init__(
        self, *, title: str = "", id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.section_title = title

    def show_body(self, body: Text) -> None:
        """Show ``body`` under the section title (a layout only if its height changes)."""
        update_in_place(self, titled(self.section_title, body))
