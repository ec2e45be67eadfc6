"""One line of a labels file (``NAME.labels.jsonl``): its keys, their order and types.

The labels file holds reviewers' verdicts beside the eval set ``NAME.evalset.json``, one
JSON object a line, appended by the review mode. This model is the line format's one
definition: the JSON Schema ``tenxeval-tui schema labels`` prints is made from it, and
the labels module (``tenxeval_tui.browsing.labels``, which writes and reads the lines)
takes its keys and their order from it. It accepts exactly the lines that module's
reader accepts (a test writes labels through the review session and checks both).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class LabelLine(BaseModel):
    """A human verdict on one case's reply (``criterion`` ``None``: the whole case)."""

    eval_id: str = Field(min_length=1, description="The case labelled (its eval_id).")
    criterion: str | None = Field(
        description="The criterion judged, or null for the whole case (reported as `case`)."
    )
    label: Literal["pass", "fail"] = Field(description="The reviewer's verdict.")
    reviewer: str = Field(min_length=1, description="Who labelled (settings, else the login name).")
    report: str | None = Field(description="The report file's name the reply was read from.")
    reply_sha256: str = Field(
        pattern="^[0-9a-f]{64}$",
        description="Hex SHA-256 of the UTF-8 text of the final reply the label judged.",
    )
    note: str | None = Field(description="The reviewer's note, if any.")
    time: str = Field(
        pattern=r"^\d{4}",
        description="When the label was given: ISO 8601, as written `2026-05-20T14:30:02Z` "
        "(a time without a zone is read as UTC).",
    )


__all__ = ["LabelLine"]
