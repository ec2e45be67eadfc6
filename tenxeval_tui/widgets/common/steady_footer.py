"""The footer of every screen: Textual's, built anew only when the keys it shows change."""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer


class SteadyFooter(Footer):
    """Textual's :class:`~textual.widgets.Footer`, rebuilt only when what it shows changes.

    Textual rebuilds its footer (a widget per key, each one styled) whenever the
    bindings may have changed: every focus move, every screen shown again. Most of
    those show the same keys (back to a screen, from one field of the form to the next),
    and the rebuild was a large part of a screen switch's time; it is skipped then.
    """

    _shown: tuple[Any, ...] | None = None

    def _keys_shown(self) -> tuple[Any, ...]:
        """What :meth:`compose` would show now."""
        palette = self.app.COMMAND_PALETTE_BINDING
        return (
            self.compact,
            self.show_command_palette,
            tuple(
                (
                    key,
                    binding.action,
                    binding.description,
                    enabled,
                    tooltip,
                    binding.group,
                    self.app.get_key_display(binding),
                )
                for key, (_, binding, enabled, tooltip) in self.screen.active_bindings.items()
                if binding.show or key == palette
            ),
        )

    async def recompose(self) -> None:
        """Rebuild the footer if the keys to show changed since it was last built."""
        shown = self._keys_shown()
        if shown == self._shown:
            return
        self._shown = shown
        await super().recompose()
