"""The labels file: one line a label, stable keys, malformed lines named and skipped."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tenxeval_tui.browsing.labels import (
    KEYS,
    Label,
    LabelIndex,
    append_label,
    labels_path_for,
    labels_path_in,
    read_labels,
    reply_sha256,
)

REPLY = "Sunny in London."
DIGEST = hashlib.sha256(REPLY.encode("utf-8")).hexdigest()


def label(**changes: object) -> Label:
    values: dict[str, object] = {
        "eval_id": "london",
        "criterion": "factual_accuracy_v1",
        "label": "fail",
        "reviewer": "alice",
        "report": "weather_20260520_142301.json",
        "reply_sha256": DIGEST,
        "note": None,
        "time": "2026-05-20T14:30:02Z",
    }
    values.update(changes)
    return Label(**values)  # type: ignore[arg-type]


def test_the_file_sits_beside_the_eval_set(tmp_path: Path) -> None:
    assert labels_path_for(tmp_path / "weather.evalset.json") == tmp_path / "weather.labels.jsonl"
    assert labels_path_for(tmp_path / "trips.scenarios.json") == tmp_path / "trips.labels.jsonl"
    eval_set = tmp_path / "a.evalset.json"
    eval_set.write_text(json.dumps({"eval_set_id": "weather-agent", "eval_cases": []}))
    assert labels_path_in([eval_set], "weather-agent") == tmp_path / "a.labels.jsonl"
    assert labels_path_in([eval_set], "other") is None


def test_the_reply_hash_is_sha256_of_the_utf8_text() -> None:
    assert reply_sha256(REPLY) == DIGEST
    assert reply_sha256("Grüße") == hashlib.sha256("Grüße".encode()).hexdigest()
    assert reply_sha256("") == hashlib.sha256(b"").hexdigest()


def test_a_label_is_one_line_with_its_keys_in_a_fixed_order(tmp_path: Path) -> None:
    path = tmp_path / "weather.labels.jsonl"
    append_label(path, label(note="wrong city"))
    append_label(path, label(criterion=None, label="pass", note="Grüße"))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert list(json.loads(lines[0])) == list(KEYS)
    assert list(KEYS) == [
        "eval_id",
        "criterion",
        "label",
        "reviewer",
        "report",
        "reply_sha256",
        "note",
        "time",
    ]
    assert json.loads(lines[1])["criterion"] is None
    assert "Grüße" in lines[1]  # readable in a diff, not \u-escaped
    found = read_labels(path)
    assert found.problems == []
    assert found.labels == [
        label(note="wrong city"),
        label(criterion=None, label="pass", note="Grüße"),
    ]


def test_malformed_lines_are_named_by_file_and_line_and_skipped(tmp_path: Path) -> None:
    path = tmp_path / "weather.labels.jsonl"
    good = label().to_line()
    bad_label = json.dumps({**label().as_json(), "label": "maybe"})
    short_hash = json.dumps({**label().as_json(), "reply_sha256": "abc"})
    no_reviewer = {**label().as_json()}
    del no_reviewer["reviewer"]
    bad_time = json.dumps({**label().as_json(), "time": "yesterday"})
    path.write_text(
        "\n".join(
            [
                good,
                "{not json",
                bad_label,
                "",
                short_hash,
                json.dumps(no_reviewer),
                "[1, 2]",
                bad_time,
                good,
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    found = read_labels(path)
    assert len(found.labels) == 2
    problems = [(p.line, p.message) for p in found.problems]
    assert [line for line, _ in problems] == [2, 3, 5, 6, 7, 8]
    assert all(p.path == str(path) for p in found.problems)
    messages = dict(problems)
    assert messages[2].startswith("not valid JSON")
    assert messages[3] == 'label: must be "pass" or "fail", not "maybe"'
    assert messages[5] == "reply_sha256: must be 64 lower-case hex digits"
    assert messages[6] == "missing reviewer"
    assert messages[7] == "not a JSON object"
    assert "is not an ISO 8601 time" in messages[8]
    assert str(found.problems[0]).startswith(f"{path}:2: ")


def test_a_line_cut_short_by_a_kill_is_ended_before_the_next_label(tmp_path: Path) -> None:
    path = tmp_path / "weather.labels.jsonl"
    append_label(path, label())
    with path.open("a", encoding="utf-8") as out:
        out.write('{"eval_id": "paris", "crit')  # the app killed mid-write
    append_label(path, label(eval_id="rome"))
    found = read_labels(path)
    assert [x.eval_id for x in found.labels] == ["london", "rome"]
    assert [p.line for p in found.problems] == [2]


def test_a_missing_file_has_no_labels_and_no_problem(tmp_path: Path) -> None:
    found = read_labels(tmp_path / "none.labels.jsonl")
    assert found.labels == [] and found.problems == []


def test_the_newest_label_per_reviewer_and_reply_counts() -> None:
    first = label(label="fail", time="2026-05-20T14:30:02Z")
    changed_mind = label(label="pass", time="2026-05-20T15:00:00Z")
    late_line_older_time = label(label="fail", time="2026-05-20T14:00:00+00:00")
    bob = label(reviewer="bob", label="fail")
    index = LabelIndex([first, changed_mind, late_line_older_time, bob])
    assert index.of("london", "factual_accuracy_v1", DIGEST, "alice") == changed_mind
    assert index.on_reply("london", "factual_accuracy_v1", DIGEST) == {
        "alice": changed_mind,
        "bob": bob,
    }
    assert index.newest("london", "factual_accuracy_v1", DIGEST) == changed_mind
    assert index.reviewers == ["alice", "bob"]
    # same time: the later line wins
    again = label(label="pass", time=first.time)
    assert LabelIndex([first, again]).of("london", "factual_accuracy_v1", DIGEST, "alice") == again


def test_a_label_belongs_to_the_reply_it_judged() -> None:
    old = label(reply_sha256=reply_sha256("Rainy in London."), time="2026-05-01T10:00:00Z")
    index = LabelIndex([old])
    # a later run replied otherwise: unlabelled for that run, the old label its history
    assert index.on_reply("london", "factual_accuracy_v1", DIGEST) == {}
    assert index.of("london", "factual_accuracy_v1", DIGEST, "alice") is None
    assert index.history("london", "factual_accuracy_v1", DIGEST) == [old]
    # the whole-case label and a criterion's are separate verdicts
    assert index.history("london", None, DIGEST) == []
