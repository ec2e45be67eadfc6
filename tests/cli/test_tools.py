"""`run --tools` through the real console script: record then replay (no real tool runs,
the same replies and scores), an unrecorded call failing its case, faults the real agents
recover from, fakes and the tool_end_state criterion, on the plain sample agent and the
10xGraph sample, in one process and on worker processes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import InProcess

ROOT = Path(__file__).resolve().parents[2]

# The sample support agent whose tools also write a line to tool-calls.log in the run's
# folder: the proof that a real tool ran.
SIDE_EFFECT_AGENT = '''
import support_agent

_lookup = support_agent.lookup_order


async def lookup_order(order_id: str) -> dict[str, str]:
    """The status of an order."""
    with open("tool-calls.log", "a") as log:
        log.write(f"lookup_order {order_id}\\n")
    return await _lookup(order_id)


support_agent.lookup_order = lookup_order
agent = support_agent.support_agent
'''

SIDE_EFFECT_GRAPH = '''
import weather_graph

_weather = weather_graph.get_weather


def get_weather(location: str) -> str:
    """Current weather for a city."""
    with open("tool-calls.log", "a") as log:
        log.write(f"get_weather {location}\\n")
    return _weather(location)


weather_graph.get_weather = get_weather
build_graph = weather_graph.build_graph
'''


@pytest.fixture
def support(tmp_path: Path) -> Path:
    """The sample support agent (its tools logging each real call) and the tools sample set."""
    shutil.copy(ROOT / "sample_evals/plain_agent.py", tmp_path / "support_agent.py")
    shutil.copy(ROOT / "sample_evals/support_fakes.py", tmp_path / "support_fakes.py")
    shutil.copy(ROOT / "sample_evals/support_tools.config.json", tmp_path / "config.json")
    (tmp_path / "side_effect_agent.py").write_text(SIDE_EFFECT_AGENT)
    eval_set = json.loads((ROOT / "sample_evals/support_tools.evalset.json").read_text())
    del eval_set["metadata"]["agent"]
    eval_set["metadata"]["tools"]["fakes"]["refund"] = "support_fakes:refund"
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals/support.evalset.json").write_text(json.dumps(eval_set, indent=2))
    return tmp_path


def _run(cli: InProcess, folder: Path, *args: str) -> Any:
    return cli(
        folder,
        "run",
        "--agent",
        "side_effect_agent:agent",
        "evals/support.evalset.json",
        "--config",
        "config.json",
        "-q",
        *args,
    )


def _results(path: Path) -> dict[str, dict[str, Any]]:
    return {r["eval_id"]: r for r in json.loads(path.read_text())["results"]}


def _outcomes(path: Path) -> list[tuple[Any, ...]]:
    """What a report says of each case, less timings, ids and how tools were answered."""
    return [
        (
            eval_id,
            r["passed"],
            r.get("error"),
            r["actual_response"],
            tuple((c["criterion"], c["score"], c["passed"]) for c in r["criterion_results"]),
            # sorted: a graph's tool node runs one step's calls side by side, and they are
            # recorded in the order they finish, which the scheduler decides
            tuple(sorted((t["name"], json.dumps(t["args"]), json.dumps(t["result"])) for t in r["actual_tool_calls"])),
        )
        for eval_id, r in _results(path).items()
    ]  # fmt: skip


def _modes(path: Path) -> dict[str, list[str]]:
    return {i: [t.get("mode") for t in r["actual_tool_calls"]] for i, r in _results(path).items()}


@pytest.mark.slow
def test_record_then_replay_gives_the_same_replies_and_scores_and_runs_no_tool(
    support: Path, in_process: InProcess
) -> None:
    recorded = _run(in_process, support, "--tools", "record", "-o", "record.json")
    assert recorded.returncode == 1, recorded.stderr  # refund_other_order fails by design
    log = support / "tool-calls.log"
    assert log.read_text().splitlines() == ["lookup_order A100", "lookup_order A200"]
    cassette = support / "evals/support.tools.jsonl"
    lines = [json.loads(line) for line in cassette.read_text().splitlines()]
    assert [(c["case"], c["call"], c["tool"], c["args"]) for c in lines] == [
        ("order_status", 1, "lookup_order", {"order_id": "A100"}),
        ("lookup_retried", 1, "lookup_order", {"order_id": "A200"}),
    ]  # faked and faulted calls are not the real tools': they are not recorded
    assert lines[0]["result"] == {"eta": "Friday", "status": "shipped"}

    log.unlink()
    for workers in ("1", "2"):
        output = f"replay-{workers}.json"
        replayed = _run(
            in_process, support, "--tools", "replay", "--workers", workers, "-o", output
        )
        assert replayed.returncode == 1, replayed.stderr
        assert not log.exists()  # no real tool ran
        assert _outcomes(support / output) == _outcomes(support / "record.json")
        assert _modes(support / output) == {
            "order_status": ["replayed"],
            "refund_once": ["faked"],
            "refund_other_order": ["faked"],
            "lookup_retried": ["faked", "replayed"],
            "lookup_down": ["faked", "faked"],
        }
    assert _modes(support / "record.json")["order_status"] == ["live"]
    assert cassette.read_text() == "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in lines)


@pytest.mark.slow
def test_faults_fakes_and_the_end_state_decide_the_right_cases(
    support: Path, in_process: InProcess
) -> None:
    done = _run(in_process, support, "--tools", "live", "-o", "live.json")
    assert done.returncode == 1, done.stderr
    results = _results(support / "live.json")
    # A fault makes the real agent take its recovery path: a retry, then an apology.
    retried = results["lookup_retried"]
    assert retried["passed"]
    assert retried["actual_response"] == "Order A200 is processing, expected next week."
    assert [t["name"] for t in retried["actual_tool_calls"]] == ["lookup_order", "lookup_order"]
    down = results["lookup_down"]
    assert down["passed"]
    assert down["actual_response"].startswith("Sorry, I cannot reach the order service")
    # The fake refund service's state: one refund, for the order asked for.
    assert results["refund_once"]["metadata"]["tool_state"] == {
        "refunds": [{"order_id": "A100", "reason": "customer request"}]
    }
    end_state = {
        i: next(c for c in r["criterion_results"] if c["criterion"] == "tool_end_state")
        for i, r in results.items()
    }
    assert {i for i, c in end_state.items() if not c["passed"]} == {"refund_other_order"}
    assert "$.refunds[*].order_id" in end_state["refund_other_order"]["details"]["reason"]
    assert end_state["refund_other_order"]["details"]["paths"][0]["actual"] == ["A300"]
    assert results["refund_other_order"]["actual_response"].endswith("reference R-A300.")
    assert not (support / "evals/support.tools.jsonl").exists()  # live records nothing


@pytest.mark.slow
def test_a_call_the_cassette_does_not_hold_fails_its_case_naming_it_and_the_nearest(
    support: Path, in_process: InProcess
) -> None:
    assert _run(in_process, support, "--tools", "record").returncode == 1
    cassette = support / "evals/support.tools.jsonl"
    cassette.write_text(cassette.read_text().replace('"A100"', '"A999"'))
    (support / "tool-calls.log").unlink()
    done = _run(in_process, support, "--tools", "replay", "--case", "order_status", "-o", "r.json")
    assert done.returncode == 1
    assert not (support / "tool-calls.log").exists()  # never a silent live call
    result = _results(support / "r.json")["order_status"]
    assert result["metadata"]["error_info"]["error_type"] == "UnrecordedToolCall"
    assert result["error"] == (
        'replay: the tool call lookup_order {"order_id": "A100"} was not recorded; the nearest '
        'recorded call of case \'order_status\' is #1 lookup_order {"order_id": "A999"}'
    )
    assert result["actual_tool_calls"][0]["mode"] == "unrecorded"


@pytest.mark.slow
def test_replay_or_record_records_only_what_the_cassette_lacks(
    support: Path, in_process: InProcess
) -> None:
    assert _run(in_process, support, "--tools", "record", "--case", "order_status").returncode == 0
    cassette = support / "evals/support.tools.jsonl"
    first = cassette.read_text()
    (support / "tool-calls.log").unlink()
    done = _run(in_process, support, "--tools", "replay-or-record", "-o", "r.json")
    assert done.returncode == 1, done.stderr
    assert (support / "tool-calls.log").read_text() == "lookup_order A200\n"  # the new one
    assert cassette.read_text().startswith(first)  # order_status's line kept as it was
    assert _modes(support / "r.json")["order_status"] == ["replayed"]
    assert _modes(support / "r.json")["lookup_retried"] == ["faked", "live"]


def test_the_flags_errors_name_the_flag_and_the_file(support: Path, in_process: InProcess) -> None:
    bad = _run(in_process, support, "--tools", "sideways")
    assert bad.returncode == 2
    assert "--tools: invalid choice: 'sideways'" in bad.stderr
    (support / "evals/other.evalset.json").write_text(
        (support / "evals/support.evalset.json").read_text().replace("support_tools", "other")
    )
    two = in_process(
        support, "run", "--agent", "side_effect_agent:agent", "evals", "--cassette", "c.jsonl"
    )
    assert two.returncode == 2
    assert "--cassette: one cassette holds one eval set's calls, and this run has 2" in two.stderr
    (support / "evals/support.tools.jsonl").write_text('{"case": "order_status"}\n')
    broken = _run(in_process, support, "--tools", "replay")
    assert broken.returncode != 0
    assert 'support.tools.jsonl:1: "tool" must be the tool\'s name' in broken.stderr


@pytest.mark.slow
def test_the_10xgraph_sample_records_replays_and_recovers_from_a_fault(
    tmp_path: Path, in_process: InProcess
) -> None:
    shutil.copy(ROOT / "sample_evals/weather_graph.py", tmp_path / "weather_graph.py")
    (tmp_path / "side_effect_graph.py").write_text(SIDE_EFFECT_GRAPH)
    eval_set = json.loads((ROOT / "sample_evals/weather_graph.evalset.json").read_text())
    del eval_set["metadata"]["agent"]
    london = next(c for c in eval_set["eval_cases"] if c["eval_id"] == "london_weather")
    london["metadata"]["tools"] = {
        "faults": [{"tool": "get_weather", "call": 1, "raises": "ConnectionError"}]
    }
    (tmp_path / "w.evalset.json").write_text(json.dumps(eval_set, indent=2))
    args = ["run", "--agent", "side_effect_graph:build_graph", "w.evalset.json", "-q"]
    recorded = in_process(tmp_path, *args, "--tools", "record", "-o", "record.json")
    assert recorded.returncode == 1, recorded.stderr
    log = tmp_path / "tool-calls.log"
    assert "get_weather Paris" in log.read_text().splitlines()
    assert "get_weather London" not in log.read_text()  # its one call was the fault
    results = _results(tmp_path / "record.json")
    # The fault reached the model as a failed tool result: it took its recovery path.
    assert results["london_weather"]["actual_response"] == (
        "Sorry, I could not get the weather in London right now."
    )
    assert _modes(tmp_path / "record.json")["two_cities"] == ["live", "live"]
    log.unlink()
    replayed = in_process(
        tmp_path, *args, "--tools", "replay", "--workers", "2", "-o", "replay.json"
    )
    assert replayed.returncode == 1, replayed.stderr
    assert not log.exists()
    assert _outcomes(tmp_path / "replay.json") == _outcomes(tmp_path / "record.json")
    assert _modes(tmp_path / "replay.json")["two_cities"] == ["replayed", "replayed"]
    assert _modes(tmp_path / "replay.json")["london_weather"] == ["faked"]


def test_the_sample_eval_set_with_tools_loads_in_10xgraph() -> None:
    tenxgraph_evaluation = pytest.importorskip("tenxgraph.qa.evaluation")
    loaded = tenxgraph_evaluation.EvalSet.from_file(
        str(ROOT / "sample_evals/support_tools.evalset.json")
    )
    assert len(loaded.eval_cases) == 5
    assert loaded.metadata["tools"]["fakes"] == {"refund": "sample_evals.support_fakes:refund"}
    faults = [
        c.metadata["tools"]["faults"]
        for c in loaded.eval_cases
        if "faults" in c.metadata.get("tools", {})
    ]
    assert len(faults) == 2


def test_validate_names_each_tool_section_problem_by_line_and_column(
    support: Path, in_process: InProcess
) -> None:
    path = support / "evals/support.evalset.json"
    assert in_process(support, "validate", str(path)).returncode == 0
    eval_set = json.loads(path.read_text())
    eval_set["metadata"]["tools"]["fakes"]["lookup_order"] = "not a spec"
    faults = eval_set["eval_cases"][3]["metadata"]["tools"]["faults"]
    faults.append({"tool": "lookup_order", "call": 2})
    eval_set["eval_cases"][1]["metadata"]["tools"]["end_state"]["$.["] = 1
    text = json.dumps(eval_set, indent=2)
    path.write_text(text)
    done = in_process(support, "validate", str(path))
    assert done.returncode == 1, done.stdout
    lines = done.stdout.splitlines()
    assert [line.split(": ", 2)[1:] for line in lines] == [
        ["metadata.tools.fakes", "fake of 'lookup_order': 'not a spec' is not module:attr"],
        [
            "eval_cases[1].metadata.tools.end_state",
            "end_state path '$.[': Parse error near the end of string!",
        ],
        [
            "eval_cases[3].metadata.tools.faults[1]",
            "a fault needs exactly one of raises, timeout (true) or returns",
        ],
    ]
    # Each names its place in the file: where the value that is wrong begins.
    file_lines = text.splitlines()
    places = [tuple(map(int, line.split(":")[1:3])) for line in lines]
    assert file_lines[places[0][0] - 1].strip() == '"fakes": {'
    assert file_lines[places[1][0] - 1].strip() == '"end_state": {'
    fault = places[2][0]
    assert (
        file_lines[fault - 1].strip() == "{"
        and places[2][1] == file_lines[fault - 1].index("{") + 1
    )
    assert file_lines[fault + 1].strip() == '"call": 2'


def test_the_guides_validate_example_is_what_validate_prints(
    tmp_path: Path, in_process: InProcess
) -> None:
    guide = (ROOT / "docs/guides/tools.md").read_text()
    shown = next(line.strip() for line in guide.splitlines() if "faults[1]: a fault" in line)
    sample = (ROOT / "sample_evals/support_tools.evalset.json").read_text()
    first = '              "message": "order service unreachable"\n            }'
    second = ',\n            {\n              "tool": "lookup_order",\n              "call": 2\n            }'
    assert first in sample
    (tmp_path / "sample_evals").mkdir()
    (tmp_path / "sample_evals/support_tools.evalset.json").write_text(
        sample.replace(first, first + second, 1)
    )
    done = in_process(tmp_path, "validate", "sample_evals/support_tools.evalset.json")
    assert (done.returncode, done.stdout.strip()) == (1, shown)
