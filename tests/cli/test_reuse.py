"""`run --reuse` through the real console script: a second run calls the agent for no
unchanged case, for exactly the edited one after an edit, and for every case once the
agent's code or the config changed; the exit code and verdict stay honest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import InProcess

AGENT_CODE = '''"""Says ok, except to a message asking it to fail; logs every message it gets."""

from pathlib import Path

CALLS = Path(__file__).with_name("calls.log")


async def agent(message: str, trace: object) -> str:
    with CALLS.open("a") as log:
        log.write(message + "\\n")
    return "no" if "fail" in message else "ok"
'''
AGENT = "counting_agent:agent"
FLAGS = ("--agent", AGENT, "--output-dir", "out", "--no-html")


def _case(eval_id: str, message: str) -> dict[str, Any]:
    return {
        "eval_id": eval_id,
        "conversation": [
            {
                "user_content": {"role": "user", "content": message},
                "expected_final_response": {"role": "assistant", "content": "ok"},
            }
        ],
    }


def _write_set(project: Path, b_message: str = "hello b") -> None:
    cases = [_case("a", "hello a"), _case("b", b_message), _case("c", "please fail")]
    data = {"eval_set_id": "counting", "eval_cases": cases}
    (project / "evals").mkdir(exist_ok=True)
    (project / "evals/counting.evalset.json").write_text(json.dumps(data, indent=2))


@pytest.fixture
def counting(tmp_path: Path) -> Path:
    (tmp_path / "counting_agent.py").write_text(AGENT_CODE)
    _write_set(tmp_path)
    return tmp_path


def _calls(project: Path) -> list[str]:
    """The messages the agent got since the last look (the log is emptied)."""
    log = project / "calls.log"
    if not log.exists():
        return []
    lines = log.read_text().splitlines()
    log.unlink()
    return sorted(lines)


def _newest_report(project: Path) -> dict[str, Any]:
    reports = sorted((project / "out").glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    data: dict[str, Any] = json.loads(reports[-1].read_text())
    return data


def test_reuse_runs_only_what_changed(counting: Path, in_process: InProcess) -> None:
    first = in_process(counting, "run", "evals", *FLAGS, "-q")
    assert first.returncode == 1, first.stderr  # c fails
    assert _calls(counting) == ["hello a", "hello b", "please fail"]
    first_report = next((counting / "out").glob("*.json")).name

    # --reuse before the path: argparse gives it the path, the run gives it back
    again = in_process(counting, "run", "--reuse", "evals", *FLAGS)
    assert again.returncode == 1, again.stderr
    assert _calls(counting) == []  # the agent ran for no case
    assert "FAILED: 2/3 passed, 1 failed, 0 errored, 3 reused" in again.stdout
    assert f"↺ a reused from {first_report}" in again.stdout
    assert "3 of 3 case(s) reused" in again.stdout
    report = _newest_report(counting)
    assert report["metadata"]["reused_cases"] == 3
    assert {r["eval_id"]: r["metadata"]["reused_from"] for r in report["results"]} == {
        "a": first_report,
        "b": first_report,
        "c": first_report,
    }
    assert [r["passed"] for r in report["results"]] == [True, True, False]
    assert report["metadata"]["provenance"]["agent_sha256"]

    _write_set(counting, b_message="hello b, edited")
    edited = in_process(counting, "run", "evals", "--reuse", *FLAGS, "--json")
    assert edited.returncode == 1, edited.stderr
    assert _calls(counting) == ["hello b, edited"]
    summary = json.loads(edited.stdout)
    assert summary["reused"] == 2 and summary["passed_cases"] == 2
    report = _newest_report(counting)
    assert [r["eval_id"] for r in report["results"]] == ["a", "b", "c"]
    assert "reused_from" not in report["results"][1]["metadata"]
    assert "the case changed: 1" in edited.stderr  # --json: notes go to stderr

    passed_only = in_process(counting, "run", "evals", "--reuse", "passed", *FLAGS, "-q")
    assert passed_only.returncode == 1, passed_only.stderr
    assert _calls(counting) == ["please fail"]  # c failed last time: it runs again
    assert "FAILED: 2/3 passed, 1 failed, 0 errored, 2 reused" in passed_only.stdout


def test_another_config_or_agent_code_runs_everything(
    counting: Path, in_process: InProcess
) -> None:
    assert in_process(counting, "run", "evals", *FLAGS, "-q").returncode == 1
    _calls(counting)
    config = in_process(counting, "run", "evals", "--reuse", "--timeout", "30", *FLAGS, "-q")
    assert config.returncode == 1, config.stderr
    assert _calls(counting) == ["hello a", "hello b", "please fail"]
    assert "reused" not in config.stdout.splitlines()[-1]

    agent = counting / "counting_agent.py"
    agent.write_text(agent.read_text() + "\n# a change\n")
    code = in_process(counting, "run", "evals", "--reuse", "--timeout", "30", *FLAGS)
    assert code.returncode == 1, code.stderr
    assert _calls(counting) == ["hello a", "hello b", "please fail"]
    assert "0 of 3 case(s) reused" in code.stdout


def test_a_fully_reused_passing_run_passes(counting: Path, in_process: InProcess) -> None:
    chosen = ("--case", "a", "--case", "b")
    assert in_process(counting, "run", "evals", *chosen, *FLAGS, "-q").returncode == 0
    _calls(counting)
    again = in_process(counting, "run", "evals", *chosen, "--reuse", *FLAGS, "-q")
    assert again.returncode == 0, again.stderr
    assert _calls(counting) == []
    assert again.stdout.strip().splitlines()[-1].startswith("PASSED: 2/2 passed")


def test_reuse_refuses_what_it_cannot_do(counting: Path, in_process: InProcess) -> None:
    bad = in_process(counting, "run", "evals", *FLAGS, "--reuse", "failed")
    assert bad.returncode == 2
    assert "--reuse: 'failed' is neither 'passed' nor an eval set path" in bad.stderr
    watched = in_process(counting, "run", "evals", *FLAGS, "--reuse", "--watch")
    assert watched.returncode == 2 and "not with --watch" in watched.stderr


def test_a_full_run_reuses_what_a_shard_ran(counting: Path, in_process: InProcess) -> None:
    shard = in_process(counting, "run", "evals", *FLAGS, "-q", "--shard", "1/2")
    assert shard.returncode in (0, 1), shard.stderr
    ran = _calls(counting)
    assert 0 < len(ran) < 3
    whole = in_process(counting, "run", "evals", *FLAGS, "-q", "--reuse")
    assert whole.returncode == 1, whole.stderr
    rest = _calls(counting)
    assert sorted(ran + rest) == ["hello a", "hello b", "please fail"]
    assert f"{len(ran)} reused" in whole.stdout
    assert [r["eval_id"] for r in _newest_report(counting)["results"]] == ["a", "b", "c"]
