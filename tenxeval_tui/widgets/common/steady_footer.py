"""The footer of every screen: Textual's, built anew only when the keys it shows change."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Footer

# Not exported by textual.widgets; Textual is pinned below 9 and the footer tests
# (tests/tui/test_form_reuse.py) fail if it moves.
from textual.widgets._footer import FooterKey


class SteadyFooter(Footer):
    """Textual's :class:`~textual.widgets.Footer`, rebuilt only when what it shows changes.

    Textual rebuilds its footer (a widget per key, each one styled) whenever the
    bindings may have changed: every focus move, every screen shown again. Most of
    those show the same keys (back to a screen, from one field of the form to the next),
    and the rebuild was a large part of a screen switch's time; it is skipped then.

    Each key widget also starts compact and is made not compact right after it is
    mounted: two restyles of every key, each time a footer is built (a new screen, a new
    focus). Here each key starts as the footer is.
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

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            # The palette's key is not bound to the footer's compact: it stays compact.
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget

    async def recompose(self) -> None:
        """Rebuild the footer if the keys to show changed since it was last built."""
        shown = self._keys_shown()
        if shown == self._shown:
            return
        self._shown = shown
        await super().recompose()
