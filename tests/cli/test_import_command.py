"""`tenxeval-tui import`: the files it writes and its exit codes. Hostile text and lone
surrogates go through the real console script (the bytes a terminal or pipe is given); the
rest run in-process through its entry point (``in_process``): the same parsing and output
without a new Python."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
from tests.cli.conftest import InProcess, Outcome
from tests.waiting import scaled

SCRIPT = Path(sys.executable).parent / "tenxeval-tui"

Run = Callable[..., Outcome]


def script(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=scaled(60),
        check=False,
    )


@pytest.fixture
def run(in_process: InProcess, tmp_path: Path) -> Run:
    """``tenxeval-tui ARGS`` in-process, from the test's own folder."""
    return lambda *args: in_process(tmp_path, *map(str, args))


def assert_validates(run: Run, path: Path) -> None:
    done = run("validate", path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{path}: ok" in done.stdout


def files_in(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def test_csv_with_a_bom_default_columns_tags_tools_and_extra_columns(
    tmp_path: Path, run: Run
) -> None:
    source = tmp_path / "qa.csv"
    source.write_bytes(
        "\ufeffQuestion,expected_response,tags,expected_tools,owner,id,\r\n"
        '"What is 2+2?",4,"math, easy","[""calc"", {""name"": ""add"", ""args"": {""a"": 2}}]",'
        "ann,sum,\r\n"
        '"Two\nlines",,smoke;slow,,bob,,note\r\n'
        "\r\n"
        "Hi,Hello!,,,,,\r\n".encode()
    )
    done = run("import", source)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "qa.evalset.json"
    assert f"{out}: 3 cases from {source} [csv]" in done.stdout
    assert "query<-Question" in done.stdout  # matched ignoring case, the BOM not in the name
    assert_validates(run, out)
    eval_set = EvalSet.from_file(out)
    assert eval_set.eval_set_id == "qa"
    first, second, third = eval_set.eval_cases
    assert first.eval_id == "sum"
    assert first.get_user_queries() == ["What is 2+2?"]
    assert first.get_final_expected_response() == "4"
    assert first.tags == ["math", "easy"]
    assert [(c.name, c.args) for c in first.get_expected_tool_trajectory()] == [
        ("calc", {}),
        ("add", {"a": 2}),
    ]
    assert first.metadata == {"owner": "ann"}
    # a quoted cell over two lines; no expected reply; generated ids
    assert second.get_user_queries() == ["Two\nlines"]
    assert second.get_final_expected_response() is None
    assert second.tags == ["smoke", "slow"]
    assert second.metadata == {"owner": "bob", "column_7": "note"}  # an unnamed column
    assert (second.eval_id, third.eval_id) == ("case-1", "case-2")
    assert third.get_final_expected_response() == "Hello!"


def test_map_names_the_columns_and_ids_and_jsonl_values(tmp_path: Path, run: Run) -> None:
    source = tmp_path / "data.jsonl"
    rows = [
        {"q": "Weather in Rome?", "a": "Sunny", "labels": ["geo"], "key": 7, "calls": ["w"]},
        {"q": "And Paris?", "a": None, "labels": "geo,fr", "key": "paris", "score": 0.5},
    ]
    source.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    out = tmp_path / "sets" / "weather.evalset.json"
    done = run(
        "import",
        source,
        "-o",
        out,
        "--map",
        "query=q,expected=a,tags=labels",
        "--map",
        "id=key,tools=calls",
        "--eval-set-id",
        "weather",
    )
    assert done.returncode == 0, done.stderr
    assert_validates(run, out)
    eval_set = EvalSet.from_file(out)
    assert eval_set.eval_set_id == "weather"
    rome, paris = eval_set.eval_cases
    assert (rome.eval_id, paris.eval_id) == ("7", "paris")
    assert rome.get_expected_tool_trajectory()[0].name == "w"
    assert paris.tags == ["geo", "fr"]
    assert paris.get_final_expected_response() is None
    assert paris.metadata == {"score": 0.5}


def test_bad_rows_are_each_named_by_line_and_column_and_nothing_is_written(
    tmp_path: Path, run: Run
) -> None:
    source = tmp_path / "bad.csv"
    source.write_text(
        "query,answer,expected_tools,id\n"
        "ok,fine,,a\n"
        "ragged,row\n"  # line 3: two cells
        ",no query,,\n"  # line 4
        'x,y,"[{""args"": {}}]",\n'  # line 5: a tool call without a name
        "x,y,not json,\n"  # line 6
        "dup,z,,a\n"  # line 7: id used on line 2
    )
    done = run("import", source)
    assert done.returncode == 1
    err = done.stderr
    assert f"{source}:3: 2 cells, but the header has 4" in err
    assert f"{source}:4: column 'query': empty" in err
    assert f"{source}:5: column 'expected_tools': tool call 0: name: Field required" in err
    assert f"{source}:6: column 'expected_tools': invalid JSON: Expecting value" in err
    assert f"{source}:7: column 'id': duplicate id 'a' (also on line 2; " in err
    assert "5 problem(s); nothing written" in err
    assert "Traceback" not in err
    assert files_in(tmp_path) == {"bad.csv"}  # no output, no temporary file


def test_an_unknown_mapped_column_is_a_usage_error_naming_the_columns(
    tmp_path: Path, run: Run
) -> None:
    source = tmp_path / "qa.csv"
    source.write_text("question,answer\nq,a\n")
    done = run("import", source, "--map", "query=prompt_text")
    assert done.returncode == 2
    assert f"{source}: --map query='prompt_text': no such column" in done.stderr
    assert "'question', 'answer'" in done.stderr
    bad_field = run("import", source, "--map", "questions=question")
    assert bad_field.returncode == 2
    assert "unknown field 'questions'" in bad_field.stderr
    no_query = tmp_path / "other.csv"
    no_query.write_text("text,answer\nq,a\n")
    done = run("import", no_query)
    assert done.returncode == 2
    assert "no query column" in done.stderr and "--map query=COLUMN" in done.stderr
    assert files_in(tmp_path) == {"qa.csv", "other.csv"}


def test_hostile_text_is_kept_in_the_file_but_shown_inert(tmp_path: Path) -> None:
    clear_screen = "\x1b[2J"
    title = "\x1b]0;pwned\x07"
    source = tmp_path / "evil.csv"
    source.write_text(
        f"query,id\n{clear_screen}ask,{title}\nagain,{title}\n",
    )
    done = script("import", source)
    assert done.returncode == 1
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert "duplicate id '\\x1b]0;pwned\\x07'" in done.stderr
    # a column name that is an escape sequence, mapped and missing
    done = script("import", source, "--map", f"tags={clear_screen}")
    assert done.returncode == 2
    assert "\x1b" not in done.stderr and "--map tags='\\x1b[2J'" in done.stderr
    # a file name that is one (no repr() between it and the terminal)
    named = tmp_path / f"{title}.csv"
    named.write_text("query\n\n")
    done = script("import", named)
    assert done.returncode == 1
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert "␛]0;pwned␇.csv: no rows to import" in done.stderr
    # as data, the text goes into the eval set as it is (JSON escapes it)
    fine = tmp_path / "fine.csv"
    fine.write_text(f"query\n{clear_screen}ask\n")
    done = script("import", fine)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "fine.evalset.json"
    assert "\x1b" not in out.read_text()
    assert EvalSet.from_file(out).eval_cases[0].get_user_queries() == [f"{clear_screen}ask"]


def test_an_existing_output_is_refused_without_force(tmp_path: Path, run: Run) -> None:
    source = tmp_path / "qa.csv"
    source.write_text("query\nfirst\n")
    out = tmp_path / "qa.evalset.json"
    out.write_text("mine")
    done = run("import", source)
    assert done.returncode == 2
    assert f"{out}: exists; give --force to replace it" in done.stderr
    assert out.read_text() == "mine"
    done = run("import", source, "--force")
    assert done.returncode == 0, done.stderr
    assert EvalSet.from_file(out).eval_cases[0].get_user_queries() == ["first"]


def test_a_cell_longer_than_the_csv_modules_default_limit(tmp_path: Path, run: Run) -> None:
    source = tmp_path / "long.csv"
    prompt = "word " * 60_000  # 300 kB, over csv's 128 KiB field limit
    source.write_text(f'query,tools\n"{prompt}",hammer\n')
    done = run("import", source)
    assert done.returncode == 0, done.stderr
    (case,) = EvalSet.from_file(tmp_path / "long.evalset.json").eval_cases
    assert case.get_user_queries() == [prompt]
    assert case.metadata == {"tools": "hammer"}  # no tool-call column unless mapped


def test_unreadable_inputs_exit_2(tmp_path: Path, run: Run) -> None:
    missing = run("import", tmp_path / "nope.csv")
    assert missing.returncode == 2 and "nope.csv: no such file" in missing.stderr
    latin = tmp_path / "latin.csv"
    latin.write_bytes(b"query\ncaf\xe9\n")
    done = run("import", latin)
    assert done.returncode == 2
    assert f"{latin}:2:4: not UTF-8 text (byte 0xe9)" in done.stderr
    assert "save it as UTF-8 (in Excel: CSV UTF-8)" in done.stderr
    unknown = tmp_path / "data.xlsx"
    unknown.write_text("x")
    done = run("import", unknown)
    assert done.returncode == 2 and "--format" in done.stderr
    tsv = tmp_path / "data.txt"
    tsv.write_text("prompt\toutput\nq\ta\n")
    done = run("import", tsv, "--format", "tsv", "-o", tmp_path / "t.evalset.json")
    assert done.returncode == 0, done.stderr
    assert EvalSet.from_file(tmp_path / "t.evalset.json").eval_cases[0].get_user_queries() == ["q"]


def test_jsonl_lines_that_are_no_objects_are_bad_rows(tmp_path: Path, run: Run) -> None:
    source = tmp_path / "rows.jsonl"
    # a raw U+2028 (valid inside a JSON string) does not end a line
    source.write_text(
        '{"query": "fine\u2028still line 1"}\r\n[1, 2]\n{"query": \n{"query": {"nested": 1}}\n'
    )
    done = run("import", source)
    assert done.returncode == 1
    assert f"{source}:2: not a JSON object" in done.stderr
    assert f"{source}:3: invalid JSON: Expecting value" in done.stderr
    assert f"{source}:4: column 'query': expected text, got dict" in done.stderr
    assert "5 problem" not in done.stderr and "3 problem(s)" in done.stderr
    assert files_in(tmp_path) == {"rows.jsonl"}
    source.write_text('{"query": "fine\u2028still line 1"}\r\n\n{"query": "two"}\n')
    done = run("import", source)
    assert done.returncode == 0, done.stderr
    queries = [c.get_user_queries()[0] for c in EvalSet.from_file(tmp_path / "rows.evalset.json")]
    assert queries == ["fine\u2028still line 1", "two"]


PART_NULLS = {"video_metadata": None, "thought": None, "inline_data": None, "file_data": None}
"""ADK writes its genai parts with every unset field as null."""

ADK_EVALSET = {
    "eval_set_id": "adk_weather",
    "name": "ADK weather",
    "description": None,
    "eval_cases": [
        {
            "eval_id": "rome",
            "conversation": [
                {
                    "invocation_id": "e-1",
                    "user_content": {
                        "parts": [{**PART_NULLS, "text": "What is the weather in Rome?"}],
                        "role": "user",
                    },
                    "final_response": {
                        "parts": [{**PART_NULLS, "text": "Sunny, 26°C."}],
                        "role": "model",
                    },
                    "intermediate_data": {
                        "tool_uses": [
                            {"id": None, "name": "get_weather", "args": {"city": "Rome"}}
                        ],
                        "intermediate_responses": [],
                    },
                    "creation_timestamp": 1747000000.0,
                },
                {
                    "invocation_id": "e-2",
                    "user_content": {
                        "parts": [
                            {"text": "And this picture?"},
                            {"inline_data": {"mime_type": "image/png", "data": "iVBO"}},
                        ],
                        "role": "user",
                    },
                    "final_response": None,
                    "intermediate_data": {"tool_uses": [], "intermediate_responses": []},
                    "app_details": None,
                },
            ],
            "session_input": {"app_name": "weather", "user_id": "u1", "state": {"units": "C"}},
            "creation_timestamp": 1747000000.0,
            "rubrics": None,
            "final_session_state": None,
        }
    ],
    "creation_timestamp": 1747000000.0,
}


def test_a_google_adk_evalset_round_trips_into_our_shape(tmp_path: Path, run: Run) -> None:
    source = tmp_path / "weather.evalset.json"
    source.write_text(json.dumps(ADK_EVALSET, indent=2))
    assert_validates(run, source)  # ADK's nulls for unset fields (description) are no problem
    done = run("import", source)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "weather.imported.evalset.json"  # beside it, never over it
    assert f"{out}: 1 case from {source} [adk]" in done.stdout
    assert json.loads(source.read_text()) == ADK_EVALSET
    assert_validates(run, out)

    written = json.loads(out.read_text())
    assert written["eval_set_id"] == "adk_weather"
    first, second = written["eval_cases"][0]["conversation"]
    # our own keys hold the meaning; the ADK duplicates are gone
    assert first["user_content"] == {
        "role": "user",
        "content": "What is the weather in Rome?",
        "metadata": {},
    }
    assert first["expected_final_response"]["content"] == "Sunny, 26°C."
    assert "final_response" not in first and "intermediate_data" not in first
    assert first["expected_tool_trajectory"][0]["args"] == {"city": "Rome"}
    assert first["creation_timestamp"] == 1747000000.0  # unknown keys are kept
    # a part with more than text stays as ADK wrote it
    assert second["user_content"]["content"] == "And this picture?"
    assert "final_response" not in second and second["expected_final_response"] is None
    assert second["app_details"] is None  # unknown to us: kept as ADK wrote it
    assert second["user_content"]["parts"][1]["inline_data"]["mime_type"] == "image/png"

    again = EvalSet.from_file(out)
    original = EvalSet.from_file(source)
    case, before = again.eval_cases[0], original.eval_cases[0]
    assert case.get_user_queries() == before.get_user_queries()
    assert case.get_final_expected_response() == before.get_final_expected_response()
    assert case.get_expected_tool_trajectory() == before.get_expected_tool_trajectory()
    assert case.session_input == before.session_input

    renamed = run("import", source, "--eval-set-id", "mine", "-o", tmp_path / "m.evalset.json")
    assert renamed.returncode == 0, renamed.stderr
    assert EvalSet.from_file(tmp_path / "m.evalset.json").eval_set_id == "mine"


def test_an_invalid_adk_file_is_reported_at_its_place(tmp_path: Path, run: Run) -> None:
    source = tmp_path / "broken.evalset.json"
    source.write_text(
        '{\n  "eval_set_id": "x",\n  "eval_cases": [\n    {"conversation": 3}\n  ]\n}'
    )
    done = run("import", source)
    assert done.returncode == 1
    assert f"{source}:4:" in done.stderr and "conversation" in done.stderr
    assert files_in(tmp_path) == {"broken.evalset.json"}


def test_a_json_cell_nested_too_deep_and_a_lone_surrogate_are_located_problems(
    tmp_path: Path,
) -> None:
    deep = tmp_path / "deep.csv"
    nested = "[" * 3000 + "]" * 3000
    deep.write_text(
        f'query,expected,expected_tools,tags\nok,fine,,\nhi,hello,"{nested}",\nx,y,,"{nested}"\n'
    )
    done = script("import", deep)
    assert (done.returncode, "Traceback" in done.stderr) == (1, False), done.stderr
    assert f"{deep}:3: column 'expected_tools': invalid JSON: nested too deeply" in done.stderr
    assert f"{deep}:4: column 'tags': starts with [ but is no JSON list" in done.stderr
    assert files_in(tmp_path) == {"deep.csv"}
    # What JavaScript writes for an emoji cut in half: the first half, escaped.
    cut = tmp_path / "cut.jsonl"
    cut.write_text(
        '{"query": "ok", "expected": "fine"}\n{"query": "hi \\ud83d", "expected": "x"}\n'
    )
    done = script("import", cut)
    assert (done.returncode, "Traceback" in done.stderr) == (1, False), done.stderr
    assert (
        f"{cut}:2: column 'query': a lone surrogate ('\\ud83d'): half of a character, "
        "which UTF-8 cannot hold (an emoji cut in two?)" in done.stderr
    )
    assert files_in(tmp_path) == {"deep.csv", "cut.jsonl"}
