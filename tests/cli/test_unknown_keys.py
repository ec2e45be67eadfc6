"""Typos that check nothing (`tagz`, `expected_tool_use`, a criterion's `treshold`):
`validate` and `run` warn of each by file:line:column with the nearest known name, and
`--strict` makes them errors, through the console script's entry point in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenxeval_tui.runs import case_scan
from tenxeval_tui.runs.case_scan import ScannedSet
from tests.cli.conftest import InProcess
from tests.cli.test_run import AGENT, reports


def add_typos(project: Path) -> Path:
    path = project / "evals/plain.evalset.json"
    data = json.loads(path.read_text())
    case = data["eval_cases"][0]
    case["tagz"] = ["smoke"]
    case["conversation"][0]["expected_tool_use"] = [{"name": "lookup_order"}]
    path.write_text(json.dumps(data, indent=2))
    return path


def test_validate_warns_of_each_unknown_key_and_strict_fails(
    project: Path, in_process: InProcess
) -> None:
    path = add_typos(project)
    lines = path.read_text().splitlines()
    done = in_process(project, "validate", "evals")
    assert done.returncode == 0, done.stdout
    warned = [line for line in done.stdout.splitlines() if "unknown key" in line]
    assert len(warned) == 2
    tool_use = next(line for line in warned if "'expected_tool_use'" in line)
    where, _, said = tool_use.partition(": eval_cases[0].conversation[0]: ")
    file, line, column = where.rsplit(":", 2)
    assert Path(file).name == "plain.evalset.json"
    assert lines[int(line) - 1][int(column) - 1 :].startswith('"expected_tool_use"')
    assert said.startswith("warning:") and said.endswith("did you mean expected_tool_trajectory?")
    assert any("did you mean tags?" in line for line in warned)

    strict = in_process(project, "validate", "--strict", "evals")
    assert strict.returncode == 1
    assert "error: unknown key 'tagz'" in strict.stdout


def test_validate_checks_a_config_files_criterion_settings(
    project: Path, in_process: InProcess
) -> None:
    config = project / "config.json"
    config.write_text('{\n  "criteria": {"tool_trajectory_avg_score": {"treshold": 0.5}}\n}\n')
    done = in_process(project, "validate", "--config", str(config))
    assert done.returncode == 0
    assert (
        f"{config}:2:46: criteria.tool_trajectory_avg_score: warning: unknown key "
        "'treshold' (nothing reads it); did you mean threshold?"
    ) in done.stdout
    assert in_process(project, "validate", "--strict", "--config", str(config)).returncode == 1


def test_run_warns_before_running_and_strict_stops_it(project: Path, in_process: InProcess) -> None:
    add_typos(project)
    config = project / "config.json"
    config.write_text('{"criteria": {"tool_trajectory_avg_score": {"treshold": 0.5}}}')
    args = ("run", "--agent", AGENT, "evals", "--no-html", "--config", str(config))
    done = in_process(project, *args, "--output-dir", "out")
    assert done.returncode in (0, 1), done.stderr
    assert "did you mean expected_tool_trajectory?" in done.stderr
    assert "did you mean threshold?" in done.stderr
    assert reports(project / "out")  # it ran

    strict = in_process(project, *args, "--output-dir", "strict", "--strict")
    assert strict.returncode == 2
    assert "error: unknown key 'tagz'" in strict.stderr
    assert not reports(project / "strict")  # nothing ran


def test_run_reads_each_eval_set_once_for_its_keys_and_its_cases(
    project: Path, in_process: InProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parent's check of the keys scans the cases as it goes: the selection that
    follows (here finding no case `nope`) does not read the file again."""
    add_typos(project)
    scans: list[Path] = []
    scan = case_scan.scan_run_file

    def counted(path: Path) -> ScannedSet:
        scans.append(path)
        return scan(path)

    monkeypatch.setattr(case_scan, "scan_run_file", counted)
    done = in_process(project, "run", "--agent", AGENT, "evals", "--case", "nope")
    assert done.returncode == 2 and "--case: no case 'nope'" in done.stderr
    assert "did you mean tags?" in done.stderr  # the keys were checked
    assert scans == []
