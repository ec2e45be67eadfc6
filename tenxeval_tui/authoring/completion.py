"""Completions of the case form's tool-call and node fields from the agent's schema.

Each function takes what a field holds and returns it completed (what the field
suggests, to accept with one key), or ``None`` when there is nothing to add. They are
plain functions of text, so that a keystroke costs a scan of the agent's names only.
No UI import.
"""

from __future__ import annotations

import re

from tenxeval_tui.evaluation.dataset.arg_matchers import MATCHERS, WHOLE_ARGS_MATCHERS
from tenxeval_tui.evaluation.targets.schema import AgentSchema

_TYPED_KEYS = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:')
# A key starts after the opening brace of the args (or of a whole-args $subset), or a comma.
_KEY_START = re.compile(r'(?:^\s*\{|^\s*\{\s*"\$subset"\s*:\s*\{|,)\s*("?)([A-Za-z_][\w-]*)?$')
_MATCHER_START = re.compile(r'\{\s*"\$(\w*)$')
_TOL_START = re.compile(r'"\$approx"\s*:\s*-?[\d.eE+-]+\s*,\s*("?)(t|to|tol)?$')

MATCHER_TEMPLATES: dict[str, str] = {
    "$any": '{"$any": true}',
    "$regex": '{"$regex": "',
    "$approx": '{"$approx": ',
    "$contains": '{"$contains": "',
    "$in": '{"$in": [',
    "$subset": '{"$subset": {',
    "$eq": '{"$eq": ',
}
"""What an argument matcher being typed completes to (the value is typed next)."""


def _first(names: list[str], prefix: str) -> str | None:
    for name in names:
        if name.startswith(prefix) and name != prefix:
            return name
    return None


def complete_tool_name(schema: AgentSchema | None, text: str) -> str | None:
    """``get_w`` -> ``get_weather``: the first of the agent's tools ``text`` begins."""
    if schema is None or not text:
        return None
    return _first(schema.tool_names, text)


def complete_matcher(text: str) -> str | None:
    """An argument matcher being typed, completed: ``{"city": {"$r`` ->
    ``{"city": {"$regex": "``; ``{"$`` as the whole args offers only the matchers a whole
    args object takes (``$subset``...); after ``{"$approx": 3,`` its ``"tol": ``. Needs no
    agent: matchers are part of the eval-set format."""
    tol = _TOL_START.search(text)
    if tol is not None:
        return text[: tol.start(1)] + '"tol": '
    found = _MATCHER_START.search(text)
    if found is None:
        return None
    partial = found.group(1)
    whole_args = not text[: found.start()].strip()
    names = WHOLE_ARGS_MATCHERS if whole_args else tuple(MATCHERS)
    for name in names:
        if name[1:].startswith(partial):
            return text[: found.start()] + MATCHER_TEMPLATES[name]
    return None


def complete_args(schema: AgentSchema | None, tool: str, text: str) -> str | None:
    """The args typed so far with the key being typed completed: ``{"loc`` ->
    ``{"location": ``; after ``{`` or a ``,`` the next parameter not given yet (the
    required ones first); an argument matcher being typed (:func:`complete_matcher`).
    ``None`` when nothing fits (the tool is unknown and no matcher is being typed)."""
    matcher = complete_matcher(text)
    if matcher is not None:
        return matcher if matcher != text else None
    spec = schema.tool(tool) if schema is not None else None
    if spec is None:
        return None
    if not text.strip():
        text = "{"
    found = _KEY_START.search(text)
    if found is None:
        return None
    quote, partial = found.group(1), found.group(2) or ""
    given = set(_TYPED_KEYS.findall(text))
    required = set(spec.required)
    order = sorted(spec.properties, key=lambda name: name not in required)  # stable
    if partial and not quote:
        return None  # a bare word is no JSON key: nothing sensible to add
    for name in order:
        if name in given or not name.startswith(partial):
            continue
        if quote:
            return text + name[len(partial) :] + '": '
        space = "" if text.endswith((" ", "{")) else " "
        return f'{text}{space}"{name}": '
    return None


def complete_nodes(schema: AgentSchema | None, text: str) -> str | None:
    """``MAIN, TO`` -> ``MAIN, TOOL``: the node name being typed (after the last comma)."""
    if schema is None or not schema.nodes or not text:
        return None
    _, _, last = text.rpartition(",")
    partial = last.lstrip()
    if not partial:
        return None
    name = _first(schema.nodes, partial)
    return None if name is None else text + name[len(partial) :]


__all__ = [
    "MATCHER_TEMPLATES",
    "complete_args",
    "complete_matcher",
    "complete_nodes",
    "complete_tool_name",
]
