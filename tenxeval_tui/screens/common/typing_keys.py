"""Keys a text box types: not offered while one has the focus.

A single-character key (``r``, ``s``, ``?``...) bound on a screen or the app goes to the
focused ``Input`` or ``TextArea`` as text, never to its binding. The footer, the help and
the palette would still offer it (``r Run view`` under a message being typed, where ``r``
types an r), so every ``check_action`` of the workbench asks :func:`hidden_while_typing`
first and hides such a binding while a text box has the focus. Keys with a modifier
(``ctrl+r``, ``ctrl+p``, ``f6``, ``escape``) reach their bindings from any focus and stay.

An action chosen in the command palette runs once the palette has closed and the text box
has the focus again; :func:`from_palette` lets it through then.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from textual.binding import Binding
from textual.command import CommandPalette
from textual.dom import DOMNode
from textual.widgets import Input, TextArea

TYPED_NAMES = frozenset(
    {
        "space",
        "question_mark",
        "asterisk",
        "slash",
        "plus",
        "minus",
        "equals_sign",
        "left_square_bracket",
        "right_square_bracket",
        "full_stop",
        "comma",
    }
)
"""Key names of printable characters (besides the one-letter keys)."""

_PALETTE_ACTIONS: set[int] = set()


def is_typed_key(key: str) -> bool:
    """Whether ``key`` (one key of a binding) types a character into a text box."""
    return len(key) == 1 or key in TYPED_NAMES


def typed_keys_only(binding: Binding) -> bool:
    """Whether every key of ``binding`` types a character (``"up,k"`` does not)."""
    return all(is_typed_key(key.strip()) for key in binding.key.split(","))


def typing(node: DOMNode) -> bool:
    """Whether a text box of ``node``'s screen has the focus (and no palette choice runs)."""
    if id(node.app) in _PALETTE_ACTIONS:
        return False
    try:
        screen = node.app.screen
    except Exception:  # no screen yet (starting up)
        return False
    if isinstance(screen, CommandPalette):
        return False  # the palette lists every command (they run once it has closed)
    return isinstance(screen.focused, Input | TextArea)


def hidden_while_typing(node: DOMNode, action: str, bindings: list[Any] | None = None) -> bool:
    """Whether ``action`` is bound on ``node`` only to keys a focused text box would type
    (so it is not offered now). ``bindings`` default to ``node``'s ``BINDINGS``."""
    if not typing(node):
        return False
    found = [
        b
        for b in (bindings if bindings is not None else getattr(node, "BINDINGS", []))
        if isinstance(b, Binding) and b.action.split("(")[0] == action
    ]
    return bool(found) and all(typed_keys_only(b) for b in found)


@contextmanager
def from_palette(node: DOMNode) -> Iterator[None]:
    """Let an action chosen in the palette run although a text box has the focus again."""
    _PALETTE_ACTIONS.add(id(node.app))
    try:
        yield
    finally:
        _PALETTE_ACTIONS.discard(id(node.app))


__all__ = [
    "TYPED_NAMES",
    "from_palette",
    "hidden_while_typing",
    "is_typed_key",
    "typed_keys_only",
    "typing",
]
