"""The footer of every screen: Textual's, built anew only when the keys it shows change."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.compose import compose
from textual.screen import Screen
from textual.widgets import Footer

# Not exported by textual.widgets; Textual is pinned below 9 and the footer tests
# (tests/tui/editor/test_form_reuse.py) fail if it moves.
from textual.widgets._footer import FooterKey


class SteadyFooter(Footer):
    """Textual's :class:`~textual.widgets.Footer`, rebuilt only when what it shows changes.

    Textual rebuilds its footer (a widget per key, each one styled) whenever the
    bindings may have changed: every focus move, every screen shown again. Most of
    those show the same keys (back to a screen, from one field of the form to the next),
    and the rebuild was a large part of a screen switch's time; it is skipped then.

    When the keys do change (the focus moved from the case list to a field), the key
    widgets already there show the new keys, as many as there are: building a footer
    anew (removing and mounting a widget per key, styling each) took more of such a key's
    time than anything else.

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
            if isinstance(widget, FooterKey) and not widget.has_class(PALETTE):
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget

    def bindings_changed(self, screen: Screen[Any]) -> None:
        # Textual's waits for the next refresh to rebuild: the keys of a new focus (enter
        # on a case) showed a frame, a layout pass and some 50 ms after the key. Done in
        # the footer's next step, they show with the focus that changed them.
        if not screen.app.app_focus:
            super().bindings_changed(screen)
        elif self.is_attached and screen is self.screen:
            self._bindings_ready = True
            self.call_next(self.recompose)

    async def recompose(self) -> None:
        """Show the keys anew if they changed since they were last shown."""
        if not self.is_attached or self._pruning:
            return  # its screen is gone (a refresh's callback can come after)
        shown = self._keys_shown()
        if shown == self._shown:
            return
        first = self._shown is None
        self._shown = shown
        if first or not await self._show_in_place():
            await super().recompose()

    async def _show_in_place(self) -> bool:
        """Show the keys in the key widgets already here (more mounted, the spare
        removed); ``False`` when that cannot be: the footer holds more than keys (binding
        groups), or the command palette's key (styled apart) came or went."""
        keys = compose(self)
        old = list(self.children)
        if not all(isinstance(key, FooterKey) for key in [*keys, *old]):
            return False
        keys_palette = [key for key in keys if key.has_class(PALETTE)]
        old_palette = [key for key in old if key.has_class(PALETTE)]
        if len(keys_palette) != len(old_palette):
            return False
        keys = [key for key in keys if not key.has_class(PALETTE)]
        old = [key for key in old if not key.has_class(PALETTE)]
        with self.app.batch_update():
            pairs = [*zip(old, keys, strict=False), *zip(old_palette, keys_palette, strict=True)]
            for widget, key in pairs:
                assert isinstance(widget, FooterKey) and isinstance(key, FooterKey)
                _show_key(widget, key)
            if len(old) > len(keys):
                await self.remove_children(old[len(keys) :])
            if len(keys) > len(old):
                await self.mount_all(
                    keys[len(old) :], before=old_palette[0] if old_palette else None
                )
        return True


PALETTE = "-command-palette"
"""The class of the command palette's key (docked right, compact whatever the footer)."""


def _show_key(widget: FooterKey, key: FooterKey) -> None:
    """Make ``widget`` show ``key`` (a key widget not mounted)."""
    text = (key.key_display, key.description)
    laid_out = text != (widget.key_display, widget.description)
    widget.key, widget.action = key.key, key.action
    widget.key_display, widget.description = text
    widget._disabled = key._disabled
    widget.tooltip = key.tooltip
    for name in ("-disabled", "-grouped"):
        widget.set_class(key.has_class(name), name)
    widget.refresh(layout=laid_out)
