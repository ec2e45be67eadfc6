"""A section's title above its body, in one widget (the case view's sections)."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content

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
