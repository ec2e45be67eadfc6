"""New content for a widget, with no layout of its screen when its size stays the same."""

from __future__ import annotations

from textual.visual import VisualType
from textual.widgets import Static


def update_in_place(widget: Static, content: VisualType) -> None:
    """Show ``content`` in ``widget``; its screen is laid out again only when the widget's
    height changes with it, or its width may (``width: auto``).

    ``Static.update`` lays the whole screen out at every update. A report's case view
    updates a dozen sections at every cursor move, and most often each keeps its height
    (cases of one eval set look alike): that layout was a fifth of the time a key took to
    show the next case. A hidden widget is laid out as it is shown again, not now.
    """
    if not widget.display:
        widget.update(content, layout=False)
        return
    laid_out = widget.content_size
    width = widget.styles.width
    if not widget.is_mounted or not laid_out.width or (width is not None and width.is_auto):
        widget.update(content)
        return
    widget.update(content, layout=False)
    if widget.get_content_height(laid_out, laid_out, laid_out.width) != laid_out.height:
        widget.refresh(layout=True)


__all__ = ["update_in_place"]
