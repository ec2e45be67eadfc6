"""`tenxeval-tui import` of multi-turn cases: with a turn column, the rows sharing an id are
the turns of one case (in-process through the console script's entry point, ``in_process``,
and the files it writes; test_import_command.py takes `import` through the real script)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tests.cli.conftest import InProcess
from tests.cli.test_import_command import Run, assert_validates


@pytest.fixture
def run(in_process: InProcess, tmp_path: Path) -> Run:
    """``tenxeval-tui ARGS`` in-process, from the test's own folder."""
    return lambda *args: in_process(tmp_path, *map(str, args))


def test_rows_sharing_an_id_become_the_turns_of_one_case_in_turn_order(
    tmp_path: Path, run: Run
) -> None:
    source = tmp_path / "chats.csv"
    source.write_text(
        "id,turn,question,answer,tags,mood\n"
        "trip,2,And Paris?,18C in Paris.,,tired\n"
        "trip,1,Weather in Rome?,Sunny in Rome.,geo,happy\n"
        "hello,,Hi!,Hello!,smoke,\n"
        "trip,3,Thanks,You're welcome.,fr,\n"
    )
    out = tmp_path / "chats.evalset.json"
    done = run("import", source, "-o", out)
    assert done.returncode == 0, done.stderr
    assert_validates(run, out)
    trip, hello = EvalSet.from_file(out).eval_cases
    assert trip.eval_id == "trip"
    assert trip.get_user_queries() == ["Weather in Rome?", "And Paris?", "Thanks"]
    assert [
        t.expected_final_response.content for t in trip.conversation if t.expected_final_response
    ] == [
        "Sunny in Rome.",
        "18C in Paris.",
        "You're welcome.",
    ]
    assert trip.tags == ["geo", "fr"]
    assert trip.metadata == {"mood": "tired"}  # the case's first row (in the file)
    # a later row's other columns stay with its turn
    assert trip.conversation[0].user_content.metadata == {"mood": "happy"}
    assert hello.get_user_queries() == ["Hi!"] and hello.tags == ["smoke"]
    assert "turn" not in json.dumps(
        EvalSet.from_file(out).model_dump()["eval_cases"][0]["metadata"]
    )


def test_jsonl_turns_with_a_mapped_turn_column(tmp_path: Path, run: Run) -> None:
    source = tmp_path / "chats.jsonl"
    rows = [
        {"conv": "c1", "step": 0, "q": "first"},
        {"conv": "c1", "step": 1, "q": "second"},
        {"conv": "c2", "step": 0, "q": "alone"},
    ]
    source.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    out = tmp_path / "out.evalset.json"
    done = run("import", source, "-o", out, "--map", "id=conv,turn=step,query=q")
    assert done.returncode == 0, done.stderr
    c1, c2 = EvalSet.from_file(out).eval_cases
    assert c1.get_user_queries() == ["first", "second"]
    assert c2.get_user_queries() == ["alone"]


def test_bad_turns_are_named_at_their_lines_and_nothing_is_written(
    tmp_path: Path, run: Run
) -> None:
    source = tmp_path / "bad.csv"
    source.write_text(
        "id,turn,query\n"
        "a,1,one\n"
        "a,1,again\n"  # line 3: turn 1 twice
        ",2,orphan\n"  # line 4: no id
        "b,first,x\n"  # line 5: no number
    )
    out = tmp_path / "bad.evalset.json"
    done = run("import", source, "-o", out)
    assert done.returncode == 1
    assert f"{source}:5: column 'turn': 'first' is not a turn number" in done.stdout + done.stderr
    assert not out.exists()
    source.write_text("id,turn,query\na,1,one\na,1,again\n,2,orphan\n")
    done = run("import", source, "-o", out)
    text = done.stdout + done.stderr
    assert done.returncode == 1
    assert f"{source}:3: column 'turn': case 'a' has turn 1 twice" in text
    assert f"{source}:4: column 'turn': turn 2 has no id to join a case by" in text
    assert not out.exists()


def test_without_a_turn_column_a_repeated_id_is_still_a_problem(tmp_path: Path, run: Run) -> None:
    source = tmp_path / "dup.csv"
    source.write_text("id,query\na,one\na,two\n")
    done = run("import", source, "-o", tmp_path / "dup.evalset.json")
    assert done.returncode == 1
    assert "duplicate id 'a'" in done.stdout + done.stderr
