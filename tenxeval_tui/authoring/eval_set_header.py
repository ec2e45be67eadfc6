"""The eval set's own fields an author sets by hand: its id and the agent it names.

UI-free: the new-eval-set and eval-set-details dialogs check what is typed here, and
the editor's document uses :func:`slug_for` for a new file's id.
"""

from __future__ import annotations

import re
from pathlib import Path

from anyascii import anyascii

from tenxeval_tui.evaluation.targets.loader import AgentLoadError, parse_spec
from tenxeval_tui.settings.workspace import EVAL_SET_SUFFIX

FALLBACK_ID = "eval-set"
_NOT_SLUG = re.compile(r"[^a-z0-9_]+")


def file_stem(path: Path) -> str:
    """The file name without ``.evalset.json`` (or without its last suffix)."""
    name = path.name
    if name.endswith(EVAL_SET_SUFFIX):
        return name[: -len(EVAL_SET_SUFFIX)]
    return name.split(".", 1)[0] if "." in name else name


def slug_for(path: Path) -> str:
    """A new eval set's default ``eval_set_id``: its file name as a slug.

    ``Weather Smoke.evalset.json`` -> ``weather-smoke``; other letters are transliterated
    (``Ünïcode Tests!`` -> ``unicode-tests``). The id ends up in every report's file name
    and in progress labels, so it is lowercase letters, digits, ``_`` and ``-`` only; a
    name with none of those gives ``eval-set``.
    """
    slug = _NOT_SLUG.sub("-", anyascii(file_stem(path)).lower()).strip("-_")
    return slug or FALLBACK_ID


def eval_set_id_problem(typed: str) -> str | None:
    """Why ``typed`` cannot be an ``eval_set_id`` (``None`` when it can)."""
    if not typed.strip():
        return "the eval set id cannot be empty"
    if typed != typed.strip():
        return "the eval set id cannot start or end with blanks"
    if any(ord(char) < 32 or 0x7F <= ord(char) < 0xA0 for char in typed):
        return "the eval set id cannot hold control characters"
    return None


def agent_problem(typed: str) -> str | None:
    """Why ``typed`` cannot be the agent an eval set names (empty: none, which is fine).

    Only the ``module:attribute`` form is checked: the module is looked up when the
    eval set runs, from wherever it runs.
    """
    if not typed.strip():
        return None
    try:
        parse_spec(typed.strip())
    except AgentLoadError as exc:
        return str(exc)
    return None
