"""`validate` and `run` on files that would hang or crash a loader: an error, the right exit code."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import InProcess
from tests.waiting import scaled

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "tenxeval-tui"
AGENT = "support_agent:support_agent"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The sample plain agent as ./support_agent.py and its eval set in ./evals."""
    shutil.copy(ROOT / "sample_evals/plain_agent.py", tmp_path / "support_agent.py")
    (tmp_path / "evals").mkdir()
    eval_set = json.loads((ROOT / "sample_evals/plain_agent.evalset.json").read_text())
    del eval_set["metadata"]["agent"]
    (tmp_path / "evals/plain.evalset.json").write_text(json.dumps(eval_set, indent=2))
    return tmp_path


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=scaled(120),  # a FIFO that blocked the reader would end here, failing the test
        env={**os.environ, "NO_COLOR": "1"},
    )


def test_run_on_a_huge_integer_is_a_usage_error_at_its_place(
    project: Path, in_process: InProcess
) -> None:
    path = project / "evals/plain.evalset.json"
    data = json.loads(path.read_text())
    data["metadata"]["big"] = 0
    text = json.dumps(data).replace('"big": 0', '"big": ' + "9" * 5000)
    path.write_text(text)
    # The eval set's reading, in this process (the console script's own: the fifo tests).
    done = in_process(project, "run", "--agent", AGENT, "evals", "--output-dir", "out")
    assert done.returncode == 2, done.stderr
    column = text.index("9999") + 1
    assert f"{path.relative_to(project)}:1:{column}: a number of 5000 digits" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (project / "out").exists() or not list((project / "out").glob("*.json"))


def test_validate_reports_a_fifo_in_a_folder_scan(project: Path) -> None:
    os.mkfifo(project / "evals/pipe.evalset.json")
    done = cli(project, "validate", "evals")
    assert done.returncode == 1
    assert "pipe.evalset.json: is a FIFO (named pipe): only regular files are read" in done.stdout
    assert "plain.evalset.json: ok" in done.stdout


def test_run_skips_a_fifo_and_a_device_link_found_by_a_folder_scan(project: Path) -> None:
    os.mkfifo(project / "evals/pipe.evalset.json")
    (project / "evals/zero.evalset.json").symlink_to("/dev/zero")
    done = cli(project, "run", "--agent", AGENT, "evals", "-q", "--no-html", "--output-dir", "out")
    assert "skipped evals/pipe.evalset.json: is a FIFO" in done.stderr
    assert "skipped evals/zero.evalset.json: is a character device" in done.stderr
    assert "passed" in done.stdout  # the regular eval set ran


def test_run_on_a_named_fifo_is_a_usage_error(project: Path) -> None:
    os.mkfifo(project / "pipe.evalset.json")
    done = cli(project, "run", "--agent", AGENT, "pipe.evalset.json")
    assert done.returncode == 2
    assert "pipe.evalset.json: is a FIFO (named pipe): only regular files are read" in done.stderr


CRITERION = """
from tenxeval_tui.evaluation import SyncCriterion, register_criterion


@register_criterion
class ShortReply(SyncCriterion):
    name = "short_reply_for_test"

    def evaluate_sync(self, actual, expected):
        return self.result(1.0 if len(actual.actual_response.split()) <= 500 else 0.0)
"""


def test_custom_criteria_from_criteria_modules_pass_the_early_check(project: Path) -> None:
    (project / "my_criteria.py").write_text(CRITERION)
    (project / "crit.json").write_text('{"criteria": {"short_reply_for_test": {"threshold": 1}}}')
    args = ["run", "--agent", AGENT, "evals", "--tags", "smoke", "--config", "crit.json"]
    args += ["--output-dir", "out"]
    unknown = cli(project, *args)
    assert unknown.returncode == 2 and "unknown criterion 'short_reply_for_test'" in unknown.stderr
    flagged = cli(project, *args, "--criteria-module", "my_criteria", "--no-html")
    assert flagged.returncode == 0, flagged.stderr
    (report,) = (project / "out").glob("*.json")
    result = json.loads(report.read_text())["results"][0]
    assert [c["criterion"] for c in result["criterion_results"]] == ["short_reply_for_test"]
    (project / "pyproject.toml").write_text('[tool.tenxeval]\ncriteria_modules = ["my_criteria"]\n')
    assert cli(project, *args, "--no-html").returncode == 0
    (project / "pyproject.toml").write_text('[tool.tenxeval]\ncriteria_modules = ["nope_mod"]\n')
    missing = cli(project, *args)
    assert missing.returncode == 2
    assert "tool.tenxeval: criteria module 'nope_mod' not found" in missing.stderr
