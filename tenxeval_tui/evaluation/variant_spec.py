"""Variants of an agent: what one run evaluates side by side (``run --agent A --agent B``,
``run --variants FILE``, ``[tool.tenxeval] variants``).

A :class:`Variant` is a name and how it differs from the run's agent: another agent
spec, keyword arguments for the agent's factory (``params``: a model name, a prompt
file, a temperature...), and keys merged into every case's ``session_input.state``
(``state``). A variant's name is its agent spec unless it is named.

A variants file is TOML (``[[variants]]`` tables) or JSON (``{"variants": [...]}`` or a
list), each entry ``{name, agent, params, state, agent_model}``::

    [[variants]]
    name = "small"
    params = { model = "small-1" }

    [[variants]]
    name = "large"
    params = { model = "large-2", temperature = 0.2 }

Every problem is a :class:`VariantError` naming the file, the place and the problem.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class VariantError(ValueError):
    """A variant or variants file that cannot be used; the message says where and why."""


class Variant(BaseModel):
    """One variant of the agent (see the module)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="", description="Its name (default: its agent spec).")
    agent: str | None = Field(default=None, description="Its agent (default: the run's).")
    params: dict[str, Any] = Field(
        default_factory=dict, description="Keyword arguments of the agent's factory."
    )
    state: dict[str, Any] = Field(
        default_factory=dict, description="Merged into every case's session_input.state."
    )
    agent_model: str | None = Field(
        default=None,
        description="The price entry of its agent's tokens (the config's agent_model).",
    )

    def named(self, default_agent: str | None) -> Variant:
        """This variant with its name filled in (its agent spec, or the run's)."""
        if self.name:
            return self
        spec = self.agent or default_agent or ""
        return self.model_copy(update={"name": spec})


def folder_name(name: str) -> str:
    """``name`` as a file or folder name: letters, digits, ``.``, ``_`` and ``-`` kept."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "variant"
    return cleaned[:80]


def parse_variants(entries: Any, where: str, default_agent: str | None = None) -> list[Variant]:
    """The variants of ``entries`` (a list of tables) read from ``where``, named and
    checked (unique names, each with an agent)."""
    if isinstance(entries, dict) and "variants" in entries:
        entries = entries["variants"]
    if not isinstance(entries, list):
        raise VariantError(f"{where}: expected a list of variants, not {type(entries).__name__}")
    variants: list[Variant] = []
    for index, entry in enumerate(entries):
        place = f"{where}: variants[{index}]"
        if not isinstance(entry, dict):
            raise VariantError(f"{place}: expected a table, not {type(entry).__name__}")
        try:
            variant = Variant.model_validate(entry)
        except ValidationError as exc:
            error = exc.errors()[0]
            field = ".".join(str(p) for p in error["loc"])
            raise VariantError(f"{place}.{field}: {error['msg']}") from None
        named = variant.named(default_agent)
        if not named.name:
            raise VariantError(f"{place}: no name and no agent (name it or give it an agent)")
        variants.append(named)
    return checked(variants, where)


def checked(variants: Sequence[Variant], where: str) -> list[Variant]:
    """``variants`` when their names (and folder names) are unique; else a
    :class:`VariantError` naming the one repeated."""
    seen: dict[str, str] = {}
    for variant in variants:
        folder = folder_name(variant.name).casefold()
        if folder in seen:
            same = seen[folder] == variant.name
            raise VariantError(
                f"{where}: two variants named {variant.name!r}"
                if same
                else f"{where}: variants {seen[folder]!r} and {variant.name!r} would share "
                f"the report folder {folder_name(variant.name)!r}: rename one"
            )
        seen[folder] = variant.name
    return list(variants)


def load_variants_file(path: Path, default_agent: str | None = None) -> list[Variant]:
    """The variants of a TOML or JSON file (by its ending; TOML unless ``.json``)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise VariantError(f"{path}: variants file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise VariantError(f"{path}: {exc}") from None
    try:
        data: Any = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except json.JSONDecodeError as exc:
        raise VariantError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"{path}: invalid TOML: {exc}") from None
    return parse_variants(data, str(path), default_agent)


def agent_variants(specs: Sequence[str]) -> list[Variant]:
    """One variant per agent spec, named by it."""
    return checked([Variant(name=spec, agent=spec) for spec in specs], "--agent")


__all__ = [
    "Variant",
    "VariantError",
    "agent_variants",
    "checked",
    "folder_name",
    "load_variants_file",
    "parse_variants",
]
