"""What an eval set or a case says about its tools: fakes, faults, fake state, matching,
redaction and the expected end state.

It lives in ``metadata["tools"]`` of the eval set (for every case) and of each case
(10xGraph 0.10.3 keeps ``metadata`` free-form, so such files still load there)::

    "metadata": {"tools": {
        "fakes": {"refund": "my_agent.fakes:refund"},
        "state": {"refunds": []},
        "faults": [{"tool": "lookup_order", "call": 1, "raises": "ConnectionError",
                    "message": "order service down"}],
        "ignore_args": ["timestamp", "search.request_id"],
        "redact": ["sk-[A-Za-z0-9]{20,}"],
        "end_state": {"$.refunds[0].order_id": "A100", "$.refunds.`len`": 1}
    }}

A case's section adds to its eval set's: fakes and state keys of the case win, faults,
ignored keys and redaction patterns add up; ``end_state`` is the case's own.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

TOOLS_KEY = "tools"
"""The ``metadata`` key (of an eval set or a case) holding its :class:`ToolSpec`."""
_SPEC = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")


class ToolSpecError(ValueError):
    """A ``metadata.tools`` section that cannot be used; the message names the place."""


class FaultSpec(BaseModel):
    """The ``call``-th call of ``tool`` in a case fails: it ``raises`` an error, times out,
    or ``returns`` a given value instead of running."""

    model_config = ConfigDict(extra="forbid", defer_build=True)  # built for a set with tools

    tool: str = Field(min_length=1)
    call: int = Field(default=1, ge=1, description="Which call of the tool (1: the first).")
    raises: str | None = Field(
        default=None,
        description="The error raised: a built-in exception's name (ConnectionError) or "
        "module:Class.",
    )
    message: str = Field(default="", description="The raised error's message.")
    timeout: bool = Field(default=False, description="The call times out (a TimeoutError).")
    returns: Any = Field(default=None, description="What the call returns instead of running.")

    @model_validator(mode="after")
    def _one_outcome(self) -> FaultSpec:
        given = [
            name
            for name in ("raises", "timeout", "returns")
            if name in self.model_fields_set and (name != "timeout" or self.timeout)
        ]
        if len(given) != 1:
            raise ValueError(
                "a fault needs exactly one of raises, timeout (true) or returns"
                + (f" (has {', '.join(given)})" if given else "")
            )
        return self

    @property
    def kind(self) -> str:
        """``raises``, ``timeout`` or ``returns``."""
        if self.raises is not None:
            return "raises"
        return "timeout" if self.timeout else "returns"


class ToolSpec(BaseModel):
    """The ``metadata.tools`` section of an eval set or a case (see the module's doc)."""

    # Built on first use: a run's worker imports it for every run, and a case whose set
    # says nothing of its tools never builds one (issue #38: before its first case).
    model_config = ConfigDict(extra="forbid", defer_build=True)

    fakes: dict[str, str] = Field(
        default_factory=dict, description="Tool name -> its fake, as module:attr."
    )
    state: dict[str, Any] = Field(
        default_factory=dict, description="The fakes' state as each case starts."
    )
    faults: list[FaultSpec] = Field(default_factory=list)
    ignore_args: list[str] = Field(
        default_factory=list,
        description="Argument keys replay matching ignores: KEY (every tool) or TOOL.KEY.",
    )
    redact: list[str] = Field(
        default_factory=list, description="Regular expressions masked in the cassette."
    )
    end_state: dict[str, Any] = Field(
        default_factory=dict,
        description="JSON path -> the value the fakes' state has there after the case "
        "(the tool_end_state criterion).",
    )

    @field_validator("fakes")
    @classmethod
    def _fake_specs(cls, fakes: dict[str, str]) -> dict[str, str]:
        for tool, spec in fakes.items():
            if not _SPEC.match(spec):
                raise ValueError(f"fake of {tool!r}: {spec!r} is not module:attr")
        return fakes

    @field_validator("redact")
    @classmethod
    def _patterns(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"redact pattern {pattern!r}: {exc}") from None
        return patterns

    @field_validator("end_state")
    @classmethod
    def _paths(cls, end_state: dict[str, Any]) -> dict[str, Any]:
        from tenxeval_tui.evaluation.tools.state_paths import compile_path

        for path in end_state:
            compile_path(path)  # ValueError naming the path
        return end_state

    @property
    def is_empty(self) -> bool:
        """Whether it says nothing."""
        return not self.model_fields_set and not any(
            (self.fakes, self.state, self.faults, self.ignore_args, self.redact, self.end_state)
        )

    def ignored_keys(self, tool: str) -> frozenset[str]:
        """The argument keys of ``tool`` that replay matching ignores."""
        keys = set()
        for entry in self.ignore_args:
            name, dot, key = entry.rpartition(".")
            if not dot:
                keys.add(entry)
            elif name == tool:
                keys.add(key)
        return frozenset(keys)

    def joined(self, case: ToolSpec) -> ToolSpec:
        """This eval set's section with a case's (``case``) added (see the module's doc)."""
        return ToolSpec.model_construct(
            fakes={**self.fakes, **case.fakes},
            state={**self.state, **case.state},
            faults=[*self.faults, *case.faults],
            ignore_args=[*self.ignore_args, *case.ignore_args],
            redact=[*self.redact, *case.redact],
            end_state=dict(case.end_state),
        )


SectionPlace = tuple[int | str, ...]
"""A place inside a ``metadata.tools`` section (``("faults", 0, "call")``)."""


def section_place(loc: SectionPlace) -> str:
    """``metadata.tools.faults[0].call`` for ``("faults", 0, "call")``."""
    text = f"metadata.{TOOLS_KEY}"
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def _validated(raw: Any) -> ToolSpec | list[tuple[SectionPlace, str]]:
    if raw is None:  # every field's default, as ToolSpec() but without building the model
        return ToolSpec.model_construct()
    if not isinstance(raw, dict):
        return [((), f"must be an object, not {type(raw).__name__}")]
    try:
        return ToolSpec.model_validate(raw)
    except ValidationError as exc:
        return [
            (tuple(error.get("loc", ())), str(error.get("msg", "")).removeprefix("Value error, "))
            for error in exc.errors()
        ]


def section_problems(raw: Any) -> list[tuple[SectionPlace, str]]:
    """Every problem of a ``metadata.tools`` section as written (``raw``; ``None``: there
    is none): where in the section, and what is wrong. Empty when it can be used."""
    found = _validated(raw)
    return [] if isinstance(found, ToolSpec) else found


def tool_spec(metadata: dict[str, Any] | None, where: str) -> ToolSpec:
    """The :class:`ToolSpec` in ``metadata`` (empty when it has none); :class:`ToolSpecError`
    naming ``where`` (an eval set, a case) and the place in the section otherwise."""
    found = _validated((metadata or {}).get(TOOLS_KEY))
    if isinstance(found, ToolSpec):
        return found
    loc, message = found[0]
    raise ToolSpecError(f"{where}: {section_place(loc)}: {message}")


__all__ = [
    "TOOLS_KEY",
    "FaultSpec",
    "SectionPlace",
    "ToolSpec",
    "ToolSpecError",
    "section_place",
    "section_problems",
    "tool_spec",
]
