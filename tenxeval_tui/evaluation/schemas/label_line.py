"""One line of a labels file (``NAME.labels.jsonl``), for its JSON Schema.

The labels file holds a reviewer's verdicts beside the eval set ``NAME.evalset.json``,
one JSON object a line, appended. The keys are those issue #32 defines; this model
describes them for editors and is meant to be replaced by the labels module's own
model once that exists, keeping the same keys.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class LabelLine(BaseModel):
    """A human verdict on one case's reply (``criterion`` ``None``: the whole case)."""

    eval_id: str = Field(description="The case labelled (its eval_id in the eval set).")
    criterion: str | None = Field(
        description="The criterion judged, or null for the whole case (reported as `case`)."
    )
    label: Literal["pass", "fail"] = Field(description="The reviewer's verdict.")
    reviewer: str = Field(description="Who labelled (settings, else the login name).")
    report: str | None = Field(description="The report file's name the reply was read from.")
    reply_sha256: str = Field(
        pattern="^[0-9a-f]{64}$",
        description="Hex SHA-256 of the UTF-8 text of the final reply the label judged.",
    )
    note: str | None = Field(description="The reviewer's note, if any.")
    time: str = Field(description="When the label was given (ISO 8601).")


__all__ = ["LabelLine"]
