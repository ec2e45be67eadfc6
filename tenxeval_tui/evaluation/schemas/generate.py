"""JSON Schemas of the files users write, made from the pydantic models that load them.

A schema made by pydantic alone describes the models, not the files: the loaders
accept more than the models do (a message written as a bare string, Google ADK's
``parts`` and ``null``s, criteria keyed by their names, match types in any
spelling). Each kind's ``widen`` step adds exactly those forms, so that a file the
loader takes is never marked wrong in an editor, and documents the conventions the
models keep in free-form ``metadata`` (``agent``, ``repeats``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from tenxeval_tui.evaluation.config.eval_config import EvalConfig, criterion_field, criterion_keys
from tenxeval_tui.evaluation.config.types import MatchType
from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tenxeval_tui.evaluation.schema_ref import SCHEMA_KEY
from tenxeval_tui.evaluation.schemas.label_line import LabelLine
from tenxeval_tui.evaluation.schemas.shipped import SCHEMA_FILES, shipped_schema_path
from tenxeval_tui.evaluation.simulators.scenario import ScenarioSet

JsonSchema = dict[str, Any]
DIALECT = "https://json-schema.org/draft/2020-12/schema"
_NULL: JsonSchema = {"type": "null"}
_SCHEMA_REF_PROPERTY: JsonSchema = {
    "type": "string",
    "description": "The JSON Schema this file follows, for editors; kept as written.",
}


@dataclass(frozen=True)
class SchemaKind:
    """One kind of file: the model that loads it and what its loader accepts besides."""

    name: str
    title: str
    model: type[BaseModel]
    widen: Callable[[JsonSchema], None]

    @property
    def file_glob(self) -> str:
        """The files of this kind, as an editor's file pattern."""
        return SCHEMA_FILES[self.name]


def _nullable(schema: JsonSchema) -> JsonSchema:
    """``schema`` or ``null`` (kept as is when it already allows ``null``)."""
    if _NULL in schema.get("anyOf", []):
        return schema
    extra: JsonSchema = {
        key: schema.pop(key) for key in ("default", "title", "description") if key in schema
    }
    return {"anyOf": [schema, _NULL], **extra}


def _widen_nulls(definition: JsonSchema, keys: tuple[str, ...]) -> None:
    properties = definition["properties"]
    for key in keys:
        properties[key] = _nullable(properties[key])


def _widen_eval_set(schema: JsonSchema) -> None:
    defs = schema["$defs"]
    message_ref: JsonSchema = {"$ref": "#/$defs/MessageContent"}
    shorthand: JsonSchema = {"type": "string", "description": "The message's text."}
    turn = defs["Invocation"]["properties"]
    turn["user_content"] = {"anyOf": [shorthand, message_ref]}
    turn["expected_final_response"] = {"anyOf": [shorthand, message_ref, _NULL], "default": None}
    turn["final_response"] = {
        "anyOf": [message_ref, _NULL],
        "description": "Google ADK's expected reply (read when expected_final_response is absent).",
    }
    # Google ADK's messages: a genai Content, its text in `parts`, its role optional.
    message = defs["MessageContent"]
    message["properties"]["parts"] = {
        "type": "array",
        "description": "Google ADK's message parts; their texts are the message's content.",
    }
    message.pop("required")
    message["anyOf"] = [{"required": ["role", "content"]}, {"required": ["parts"]}]
    # The `null`s Google ADK writes for unset fields (evaluation/dataset/adk.py).
    _widen_nulls(schema, ("name", "description", "eval_cases", "metadata"))
    case_keys = ("name", "description", "conversation", "session_input", "tags", "metadata")
    _widen_nulls(defs["EvalCase"], case_keys)
    _widen_nulls(defs["SessionInput"], ("app_name", "user_id", "state", "config"))
    _widen_nulls(defs["Invocation"], ("invocation_id",))
    repeats: JsonSchema = {
        "type": "integer",
        "minimum": 1,
        "maximum": 10_000,
        "description": "How many times each case runs (a case's own wins); checked when a run starts.",
    }
    schema["properties"]["metadata"]["anyOf"][0]["properties"] = {
        "agent": {
            "type": "string",
            "description": "The agent that runs this eval set, as module:attribute.",
        },
        "repeats": repeats,
    }
    defs["EvalCase"]["properties"]["metadata"]["anyOf"][0]["properties"] = {
        "repeats": {**repeats, "description": "How many times this case runs."}
    }


def _widen_scenarios(schema: JsonSchema) -> None:
    scenario = schema["$defs"]["ConversationScenario"]
    scenario["required"] = ["scenario_id"]
    scenario["properties"]["scenario_id"]["pattern"] = r"\S"  # set, not blank


def _any_case(word: str) -> str:
    """A pattern matching ``word`` in any case, ``_`` also written as ``-`` or a space."""
    return "".join("[-_ ]" if char == "_" else f"[{char.upper()}{char.lower()}]" for char in word)


def _widen_config(schema: JsonSchema) -> None:
    defs = schema["$defs"]
    words = "|".join(_any_case(member.value) for member in MatchType)
    defs["MatchType"] = {
        "anyOf": [
            {"enum": [member.value for member in MatchType]},
            {"type": "string", "pattern": rf"^\s*(?:{words})\s*$"},
        ],
        "description": defs["MatchType"].get("description", ""),
        "title": "MatchType",
    }
    criteria = defs["CriteriaConfig"]
    properties = criteria["properties"]
    for name in criterion_keys():
        if name in properties:
            continue
        field = criterion_field(name)
        assert field is not None  # filtered above
        properties[name] = {**properties[field], "description": f"Same as `{field}`."}
    # A key that names no built-in criterion configures a registered one (never null).
    criteria["additionalProperties"] = {"$ref": "#/$defs/CriterionConfig"}


def _no_widening(schema: JsonSchema) -> None:
    return None


SCHEMA_KINDS: dict[str, SchemaKind] = {
    kind.name: kind
    for kind in (
        SchemaKind("evalset", "Eval set", EvalSet, _widen_eval_set),
        SchemaKind("scenarios", "Scenario file", ScenarioSet, _widen_scenarios),
        SchemaKind("labels", "Labels file line", LabelLine, _no_widening),
        SchemaKind("config", "Eval config", EvalConfig, _widen_config),
    )
}
"""Every kind of file with a schema, by the name ``tenxeval-tui schema NAME`` takes."""


def generate_schema(kind: str) -> JsonSchema:
    """The JSON Schema of files of ``kind`` (a key of :data:`SCHEMA_KINDS`), made now."""
    spec = SCHEMA_KINDS[kind]
    body = spec.model.model_json_schema(by_alias=True, mode="validation")
    spec.widen(body)
    properties = body.setdefault("properties", {})
    if kind != "labels":  # a JSON Lines file has no place for `$schema`
        properties[SCHEMA_KEY] = _SCHEMA_REF_PROPERTY
        body["properties"] = {SCHEMA_KEY: properties.pop(SCHEMA_KEY), **properties}
    return {
        "$schema": DIALECT,
        "title": f"tenxeval-tui {spec.title} ({spec.file_glob})",
        **{key: value for key, value in body.items() if key != "title"},
    }


def schema_text(kind: str) -> str:
    """:func:`generate_schema` as the text the package ships (keys in the models' order)."""
    return json.dumps(generate_schema(kind), indent=2, ensure_ascii=False) + "\n"


def write_shipped_schemas() -> list[Path]:
    """Regenerate every shipped schema from the models; returns the files written."""
    written = []
    for kind in SCHEMA_KINDS:
        path = shipped_schema_path(kind)
        path.write_text(schema_text(kind), encoding="utf-8")
        written.append(path)
    return written
