"""How a run treats the agent's tools: the mode, and where the cassette is.

- ``live`` (the default): every tool runs for real, as without this module.
- ``record``: every tool runs for real, and each call of each case (name, arguments,
  result or raised error, order, duration) is stored in a cassette
  (:mod:`.cassette`): ``NAME.tools.jsonl`` beside ``NAME.evalset.json``.
- ``replay``: no real tool runs; each call gets its recorded result or raises its
  recorded error; a call the cassette does not hold fails its case, naming the call and
  the nearest recorded one (never a silent live call).
- ``replay-or-record``: replay what is recorded, run and record what is not.

Fakes and faults (:mod:`.spec`) apply in every mode and win over both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, Field

ToolMode = Literal["live", "record", "replay", "replay-or-record"]
TOOL_MODES: tuple[str, ...] = get_args(ToolMode)
CASSETTE_SUFFIX = ".tools.jsonl"
_EVAL_SET_SUFFIXES = (".evalset.json", ".json")


class ToolSettings(BaseModel):
    """A run's tool setting: its mode and, when given, the one cassette it uses."""

    mode: ToolMode = Field(default="live", description="live, record, replay, replay-or-record")
    cassette: Path | None = Field(
        default=None,
        description="The cassette file (default: NAME.tools.jsonl beside each NAME.evalset.json).",
    )

    @property
    def records(self) -> bool:
        """Whether live calls are written to the cassette."""
        return self.mode in ("record", "replay-or-record")

    @property
    def replays(self) -> bool:
        """Whether calls are answered from the cassette."""
        return self.mode in ("replay", "replay-or-record")


def cassette_path(eval_set_path: Path) -> Path:
    """``NAME.tools.jsonl`` beside ``NAME.evalset.json``; ``NAME.scenarios.tools.jsonl``
    beside ``NAME.scenarios.json`` (an eval set and a scenario file of one name, as the
    samples have, keep their calls apart)."""
    name = eval_set_path.name
    stem = next(
        (name[: -len(s)] for s in _EVAL_SET_SUFFIXES if name.endswith(s) and len(name) > len(s)),
        name,
    )
    return eval_set_path.with_name(stem + CASSETTE_SUFFIX)


def parse_tool_mode(raw: str) -> ToolMode:
    """``raw`` as a mode; ``ValueError`` naming the modes otherwise."""
    value = raw.strip().lower()
    for mode in TOOL_MODES:
        if value == mode:
            return mode  # type: ignore[return-value]
    raise ValueError(f"{raw!r} is not a tool mode ({', '.join(TOOL_MODES)})")


__all__ = [
    "CASSETTE_SUFFIX",
    "TOOL_MODES",
    "ToolMode",
    "ToolSettings",
    "cassette_path",
    "parse_tool_mode",
]
