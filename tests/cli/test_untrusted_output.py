"""The CLI prints eval-set and agent text inertly: no raw escape reaches the terminal."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from rich.console import Console

from tenxeval_tui.cli.progress import BarProgress, LineProgress
from tenxeval_tui.evaluation import EvalCase
from tests.hostile_text import RAW_CONTROL
from tests.tui.untrusted import (
    AGENT,
    CASE_ID,
    SET_ID,
    hostile_case,
    write_hostile_eval_set,
    write_hostile_reports,
)
from tests.waiting import scaled

SCRIPT = Path(sys.executable).parent / "tenxeval-tui"


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=scaled(180),
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"},
    )


def assert_no_raw_controls(output: str) -> None:
    assert RAW_CONTROL.findall(output) == []
    assert "\x1b" not in output


def test_run_prints_a_hostile_eval_set_and_agent_inertly(tmp_path: Path):
    (tmp_path / "echo_bot.py").write_text(AGENT, encoding="utf-8")
    write_hostile_eval_set(tmp_path / "hostile.evalset.json")
    done = cli(
        tmp_path, "run", "hostile.evalset.json", "--agent", "echo_bot:agent", "--verbose",
        "--output-dir", "out",
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    assert_no_raw_controls(done.stdout + done.stderr)
    assert "set␛]0;PWNED␇⟦U+009B⟧2J" in done.stdout  # the id, shown
    assert "case␛[2J␛]52;" in done.stdout


def test_validate_prints_hostile_problems_and_file_names_inertly(tmp_path: Path):
    write_hostile_eval_set(tmp_path / "ok\x1b]0;PWNED\x07.evalset.json")
    broken = hostile_case()
    broken["conversation"] = "\x1b]0;PWNED\x07"
    (tmp_path / "bad.evalset.json").write_text(
        json.dumps({"eval_set_id": SET_ID, "eval_cases": [broken]}), encoding="utf-8"
    )
    (tmp_path / "worse.evalset.json").write_text('{"eval_set_id": "\x1b[2J', encoding="utf-8")
    done = cli(tmp_path, "validate", ".")
    assert done.returncode == 1
    assert_no_raw_controls(done.stdout + done.stderr)
    assert "ok␛]0;PWNED␇.evalset.json: ok" in done.stdout
    assert "bad.evalset.json" in done.stdout and "worse.evalset.json" in done.stdout


def test_compare_prints_hostile_reports_inertly_and_its_json_means_the_same(tmp_path: Path):
    base, current = write_hostile_reports(tmp_path)
    text = cli(tmp_path, "compare", str(base), str(current))
    assert_no_raw_controls(text.stdout + text.stderr)
    as_json = cli(tmp_path, "compare", str(base), str(current), "--json")
    assert RAW_CONTROL.findall(as_json.stdout) == []
    # the same JSON value: the hostile ids are in it, escaped
    assert CASE_ID in _strings(json.loads(as_json.stdout))
    assert SET_ID in _strings(json.loads(as_json.stdout))


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values()), set())
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value), set())
    return set()


def test_progress_bar_labels_are_inert_and_never_markup():
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=200, color_system=None)
    case = EvalCase(eval_id="case[bold]\x1b]0;PWNED\x07", conversation=[])
    with BarProgress(1, console=console) as bar:
        bar.on_case_start("set\x1b]2;PWNED\x07\x9b2J", case)
        bar.progress.refresh()
    shown = out.getvalue()
    assert "\x1b]0;" not in shown and "\x1b]2;" not in shown and "\x9b" not in shown
    assert "set␛]2;PWNED␇⟦U+009B⟧2J/case[bold]␛]0;PWNED␇" in shown


def test_progress_lines_are_inert(capsys):
    from tenxeval_tui.evaluation.eval_result import EvalCaseResult

    lines = LineProgress(1)
    lines.on_case_end(
        EvalCaseResult(eval_id=CASE_ID, passed=False, error="boom\x1b]0;PWNED\x07", metadata={})
    )
    out = capsys.readouterr().out
    assert_no_raw_controls(out)
    assert "case␛[2J␛]52;c;cm0=␇" in out and "boom␛]0;PWNED␇" in out
