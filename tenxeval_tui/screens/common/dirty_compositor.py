"""A compositor whose partial updates draw only the widgets under the regions that
changed.

Textual's compositor draws, for each partial update, every widget whose clip (its
container's visible area) meets the rectangle around all the changed regions. In the
editor a key that moves the list's cursor changes two of its rows and a few fields of the
form beside it: that rectangle is the whole screen, so every label, button and field of
the form was drawn again (from their caches), and cut into the lines written. Only the
changed regions are written to the terminal, so only the widgets that show in them need
drawing: the rest of each line is never written.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual._compositor import ChopsUpdate, Compositor  # Textual is pinned below 9
from textual.geometry import Region
from textual.strip import Strip

MAX_REGIONS = 24
"""More changed regions than this (a layout pass moved many widgets): Textual's way, as
checking each widget against each region would cost more than it saves."""


class DirtyRegionCompositor(Compositor):
    """Textual's compositor, whose partial updates draw the widgets that show in a
    changed region and no other (see the module's docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self._update_regions: list[Region] | None = None

    def render_partial_update(self) -> ChopsUpdate | None:
        regions = self._dirty_regions
        self._update_regions = list(regions) if len(regions) <= MAX_REGIONS else None
        try:
            return super().render_partial_update()
        finally:
            self._update_regions = None

    def _get_renders(
        self, crop: Region | None = None
    ) -> Iterable[tuple[Region, Region, list[Strip]]]:
        regions = self._update_regions
        if regions is None or crop is None:
            yield from super()._get_renders(crop)
            return
        for widget, (region, clip) in self.visible_widgets.items():
            shown = region.intersection(clip)
            if not any(shown.overlaps(changed) for changed in regions):
                continue  # none of it is written: the update writes the changed regions only
            x, y, width, height = shown
            if width and height:
                yield (
                    region,
                    clip,
                    widget.render_lines(Region(x - region.x, y - region.y, width, height)),
                )


__all__ = ["DirtyRegionCompositor"]
