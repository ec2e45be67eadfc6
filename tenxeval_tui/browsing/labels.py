"""Human labels of verdicts: the ``NAME.labels.jsonl`` file beside ``NAME.evalset.json``.

One JSON object a line, keys always in this order (plain text for git: a new label is
one added line); the format is defined once, by
:class:`~tenxeval_tui.evaluation.schemas.label_line.LabelLine`, which the JSON Schema
(``tenxeval-tui schema labels``) is made from::

    {"eval_id": "london", "criterion": "final_response_match_v2", "label": "fail",
     "reviewer": "alice", "report": "weather_20260520_142301.json",
     "reply_sha256": "9f86d0…", "note": "wrong city", "time": "2026-05-20T14:30:02Z"}

- ``criterion`` is ``null`` for a label of the whole case (its pass/fail), reported
  under the name ``case`` (:data:`CASE`).
- ``reply_sha256``: the hex SHA-256 of the UTF-8 text of the actual final reply the label
  judged (:func:`reply_sha256`). A label belongs to that reply: a later run whose reply
  has another hash is unlabelled (the old label is its history).
- The file is appended to, never rewritten (:func:`append_label` writes and fsyncs each
  label as it is given, so a killed app loses none). The newest label per
  ``(eval_id, criterion, reviewer, reply_sha256)`` counts: the later ``time``, and of two
  with the same time the later line.
- A malformed line is a :class:`~tenxeval_tui.evaluation.errors.Problem` naming the file
  and the line, and is skipped; it never stops the others being read.

No UI import.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from tenxeval_tui.evaluation.errors import Problem
from tenxeval_tui.evaluation.schemas.label_line import LabelLine
from tenxeval_tui.settings.workspace import RUN_FILE_SUFFIXES, find_eval_set_file

LABELS_SUFFIX = ".labels.jsonl"
CASE = "case"
"""The name a whole-case label (``"criterion": null``) is reported under."""
KEYS: tuple[str, ...] = tuple(LabelLine.model_fields)
"""Every key of a label line, in the order they are written (the line model's fields)."""
Verdict = Literal["pass", "fail"]
_HEX64 = re.compile(r"[0-9a-f]{64}")


def labels_path_for(eval_set: Path) -> Path:
    """``NAME.labels.jsonl`` beside ``NAME.evalset.json`` (or ``NAME.scenarios.json``)."""
    name = eval_set.name
    stem = next(
        (name[: -len(suffix)] for suffix in RUN_FILE_SUFFIXES if name.endswith(suffix)),
        eval_set.stem,
    )
    return eval_set.with_name(stem + LABELS_SUFFIX)


def labels_path_in(files: Iterable[Path], eval_set_id: str) -> Path | None:
    """The labels file of the eval set ``eval_set_id`` among ``files`` (a workspace's eval
    set files); ``None`` when no file is that eval set."""
    found = find_eval_set_file(files, eval_set_id)
    return labels_path_for(found) if found is not None else None


def reply_sha256(reply: str) -> str:
    """The hex SHA-256 of ``reply``'s UTF-8 text: what ties a label to the reply it judged."""
    return hashlib.sha256(reply.encode("utf-8")).hexdigest()


def now_text() -> str:
    """The current time as a label writes it: ISO 8601, UTC, whole seconds
    (``2026-05-20T14:30:02Z``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _moment(text: str) -> datetime:
    """``text`` (ISO 8601) as an aware time; one without a zone is read as UTC."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Label:
    """One human verdict on one reply: of the whole case (``criterion`` ``None``) or of
    one criterion."""

    eval_id: str
    criterion: str | None
    label: Verdict
    reviewer: str
    report: str
    """The report file's name the reviewer saw the reply in."""
    reply_sha256: str
    note: str | None = None
    time: str = field(default_factory=now_text)

    @property
    def passed(self) -> bool:
        """Whether the human passed it."""
        return self.label == "pass"

    @property
    def criterion_name(self) -> str:
        """The criterion, or :data:`CASE` for a whole-case label."""
        return self.criterion if self.criterion is not None else CASE

    @property
    def moment(self) -> datetime:
        """:attr:`time` as an aware datetime."""
        return _moment(self.time)

    def as_json(self) -> dict[str, Any]:
        """The label's keys in file order."""
        return {key: getattr(self, key) for key in KEYS}

    def to_line(self) -> str:
        """The label as one line of the file (no newline), keys in :data:`KEYS` order."""
        return json.dumps(self.as_json(), ensure_ascii=False)


def _text_field(data: dict[str, Any], key: str, *, optional: bool = False) -> str | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or (not optional and not value):
        kind = "a string or null" if optional else "a non-empty string"
        raise ValueError(f"{key}: must be {kind}, not {json.dumps(value)}")
    return value


def parse_label(line: str) -> Label:
    """One line of a labels file as a :class:`Label`; ``ValueError`` says what is wrong."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    missing = [key for key in KEYS if key not in data]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    verdict = data["label"]
    if verdict not in ("pass", "fail"):
        raise ValueError(f'label: must be "pass" or "fail", not {json.dumps(verdict)}')
    digest = _text_field(data, "reply_sha256")
    if digest is None or not _HEX64.fullmatch(digest):
        raise ValueError("reply_sha256: must be 64 lower-case hex digits")
    time = _text_field(data, "time")
    assert time is not None
    try:
        _moment(time)
    except ValueError:
        raise ValueError(f"time: {time!r} is not an ISO 8601 time") from None
    return Label(
        eval_id=str(_text_field(data, "eval_id")),
        criterion=_text_field(data, "criterion", optional=True),
        label=verdict,
        reviewer=str(_text_field(data, "reviewer")),
        report=str(_text_field(data, "report", optional=True) or ""),
        reply_sha256=digest,
        note=_text_field(data, "note", optional=True),
        time=time,
    )


@dataclass
class LabelsFile:
    """The labels read from one file, in file order, and the lines that were skipped."""

    path: Path
    labels: list[Label] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def read_labels(path: Path) -> LabelsFile:
    """Every label of ``path`` (none when it does not exist); a malformed line is a
    problem naming the file and line, and is skipped. ``OSError`` when it exists but
    cannot be read."""
    found = LabelsFile(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return found
    for number, line_bytes in enumerate(raw.split(b"\n"), start=1):
        if not line_bytes.strip():
            continue
        try:
            found.labels.append(parse_label(line_bytes.decode("utf-8")))
        except UnicodeDecodeError:
            found.problems.append(Problem(str(path), "not UTF-8 text", line=number))
        except ValueError as exc:
            found.problems.append(Problem(str(path), str(exc), line=number))
    return found


def append_label(path: Path, label: Label) -> None:
    """Append ``label`` as one line and fsync it before returning (a kill loses nothing).

    A last line cut short (an earlier writer killed mid-line) is ended first, so the new
    label starts a line of its own (the cut line stays, reported as malformed). Raises
    ``OSError`` when the file cannot be written.
    """
    created = not path.exists()
    with path.open("ab") as out:
        if not created and out.tell() > 0:
            with path.open("rb") as back:
                back.seek(-1, os.SEEK_END)
                if back.read(1) != b"\n":
                    out.write(b"\n")
        out.write(label.to_line().encode("utf-8") + b"\n")
        out.flush()
        os.fsync(out.fileno())
    if created:  # the new file's name must survive a crash too
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


_NONE: dict[str, Label] = {}
LabelKey = tuple[str, str | None, str]
"""``(eval_id, criterion, reply_sha256)``: one reply's verdict, as labels are matched."""


class LabelIndex:
    """The labels that count, looked up by the reply they judged.

    Per ``(eval_id, criterion, reviewer, reply_sha256)`` the newest label counts (the later
    time; of equal times the one added later).
    """

    def __init__(self, labels: Iterable[Label] = ()) -> None:
        self._by_reply: dict[LabelKey, dict[str, Label]] = {}
        self._replies: dict[tuple[str, str | None], list[str]] = {}
        for label in labels:
            self.add(label)

    def add(self, label: Label) -> None:
        """Take in ``label`` (given after those already in: it wins a tie)."""
        key = (label.eval_id, label.criterion, label.reply_sha256)
        on_reply = self._by_reply.get(key)
        if on_reply is None:
            on_reply = self._by_reply[key] = {}
            self._replies.setdefault((label.eval_id, label.criterion), []).append(
                label.reply_sha256
            )
        older = on_reply.get(label.reviewer)
        if older is None or label.moment >= older.moment:
            on_reply[label.reviewer] = label

    def on_reply(self, eval_id: str, criterion: str | None, reply: str) -> Mapping[str, Label]:
        """Reviewer -> the label that counts, for this reply's verdict (read-only: a view
        of the index, not a copy)."""
        return MappingProxyType(self._by_reply.get((eval_id, criterion, reply), _NONE))

    def of(self, eval_id: str, criterion: str | None, reply: str, reviewer: str) -> Label | None:
        """``reviewer``'s label that counts for this reply's verdict."""
        return self._by_reply.get((eval_id, criterion, reply), {}).get(reviewer)

    def newest(self, eval_id: str, criterion: str | None, reply: str) -> Label | None:
        """The newest label of any reviewer for this reply's verdict."""
        labels = self._by_reply.get((eval_id, criterion, reply))
        return max(labels.values(), key=lambda label: label.moment) if labels else None

    def history(self, eval_id: str, criterion: str | None, reply: str) -> list[Label]:
        """The labels that count on *other* replies of the same case and criterion (earlier
        runs' replies), newest first."""
        found = [
            label
            for other in self._replies.get((eval_id, criterion), [])
            if other != reply
            for label in self._by_reply[(eval_id, criterion, other)].values()
        ]
        return sorted(found, key=lambda label: label.moment, reverse=True)

    def keys(self) -> list[LabelKey]:
        """Every labelled reply verdict."""
        return list(self._by_reply)

    @property
    def reviewers(self) -> list[str]:
        """Every reviewer with a label, sorted."""
        return sorted({name for labels in self._by_reply.values() for name in labels})

    def __len__(self) -> int:
        return sum(len(labels) for labels in self._by_reply.values())


__all__ = [
    "CASE",
    "KEYS",
    "LABELS_SUFFIX",
    "Label",
    "LabelIndex",
    "LabelKey",
    "LabelsFile",
    "Verdict",
    "append_label",
    "labels_path_for",
    "labels_path_in",
    "now_text",
    "parse_label",
    "read_labels",
    "reply_sha256",
]
