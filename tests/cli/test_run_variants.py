"""`tenxeval-tui run` with several variants, through the real console script: plain agents
whose pass rates are known exactly (0.9, and 0.5 twice on different halves) over 40 cases
with repeats."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from tests.cli.conftest import InProcess, Outcome
from tests.cli.test_run import SCRIPT, cli
from tests.evaluation.rate_agents import CASES, EXACT, PRICE_PER_TOKEN, PRICES, rate_set
from tests.waiting import scaled, wait_sync

ROOT = Path(__file__).resolve().parents[2]
AGENT = "rate_agents:rate_agent"
VARIANTS = """
[[variants]]
name = "strong"
params = { rate = 0.9, tokens = 3000 }

[[variants]]
name = "half-a"
params = { rate = 0.5, offset = 0, tokens = 1000 }

[[variants]]
name = "half-b"
params = { rate = 0.5, offset = 20, tokens = 500 }
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The rate agents as ./rate_agents.py, 40 cases, exact match, priced tokens."""
    shutil.copy(ROOT / "tests/evaluation/rate_agents.py", tmp_path / "rate_agents.py")
    (tmp_path / "rates.evalset.json").write_text(rate_set().model_dump_json())
    config = {"criteria": EXACT, "prices": PRICES, "agent_model": "rate-model"}
    (tmp_path / "config.json").write_text(json.dumps(config))
    (tmp_path / "variants.toml").write_text(VARIANTS)
    return tmp_path


def run_variants(cli: InProcess, project: Path, *flags: str) -> Outcome:
    return cli(
        project,
        "run",
        "rates.evalset.json",
        "--agent",
        AGENT,
        "--config",
        "config.json",
        "--variants",
        "variants.toml",
        *flags,
    )


def test_variants_run_side_by_side_into_reports_and_a_matrix(
    project: Path, in_process: InProcess
) -> None:
    done = run_variants(in_process, project, "--repeat", "2", "--json")
    assert done.returncode == 1, done.stderr  # without --baseline: every variant must pass
    summary = json.loads(done.stdout)
    by_name = {v["name"]: v for v in summary["variants"]}
    assert [v["name"] for v in summary["variants"]] == ["strong", "half-b", "half-a"]
    assert by_name["strong"] | {"cost_usd": 0, "cost_per_success": 0} == {
        "name": "strong",
        "passed": 36,
        "total": CASES,
        "pass_rate": 0.9,
        "cost_usd": 0,
        "cost_per_success": 0,
    }
    spent = CASES * 2 * 3000 * PRICE_PER_TOKEN  # every repeat of every case
    assert by_name["strong"]["cost_usd"] == pytest.approx(spent, rel=1e-9)
    assert by_name["strong"]["cost_per_success"] == pytest.approx(spent / 36, rel=1e-9)
    assert by_name["half-a"]["pass_rate"] == by_name["half-b"]["pass_rate"] == 0.5
    assert summary["total_cases"] == 3 * CASES  # today's figures, over every variant
    # Each variant's own report, naming it.
    for name in by_name:
        (report_file,) = (project / "eval_reports" / name).glob("*.json")
        report = json.loads(report_file.read_text())
        assert report["metadata"]["variant"] == name
        assert str(report_file) in summary["reports"]
    matrix_json, matrix_html = summary["matrix"]
    matrix = json.loads(Path(matrix_json).read_text())
    pairs = {(p["a"], p["b"]): p for p in matrix["pairs"]}
    assert pairs[("strong", "half-b")]["significant"]
    assert pairs[("strong", "half-a")]["significant"]
    assert not pairs[("half-b", "half-a")]["significant"]
    assert len(matrix["separating"]) == CASES
    assert "<td>strong</td>" in Path(matrix_html).read_text()
    # Nothing is left to resume: the journals are gone.
    assert not list((project / "eval_reports").rglob("*.journal.jsonl"))


def test_the_console_shows_the_matrix_and_the_baseline_rule_decides(
    project: Path, in_process: InProcess
) -> None:
    worse = run_variants(in_process, project, "--baseline", "strong")
    assert worse.returncode == 1, worse.stderr
    assert "Variants (3), ranked by pass rate:" in worse.stdout
    assert "1. strong: 36/40 passed" in worse.stdout
    assert "half-b vs half-a: +0.0 pts, p=1 (corrected 1): no significant difference" in (
        worse.stdout
    )
    assert "FAILED: 3 variants; significantly worse than strong: half-b, half-a" in worse.stdout
    same = run_variants(in_process, project, "--baseline", "half-a", "--quiet")
    assert same.returncode == 0, same.stdout + same.stderr
    assert "PASSED: 3 variants; no variant significantly worse than half-a" in same.stdout


def test_several_agent_flags_are_variants_named_by_their_spec(
    project: Path, in_process: InProcess
) -> None:
    (project / "more.py").write_text(
        "from rate_agents import rate_agent\nstrong = rate_agent(0.9)\nweak = rate_agent(0.5)\n"
    )
    done = in_process(
        project,
        "run",
        "rates.evalset.json",
        "--agent",
        "more:strong",
        "--agent",
        "more:weak",
        "--config",
        "config.json",
        "--json",
        "--baseline",
        "more:strong",
    )
    assert done.returncode == 1, done.stderr
    summary = json.loads(done.stdout)
    assert [(v["name"], v["passed"]) for v in summary["variants"]] == [
        ("more:strong", 36),
        ("more:weak", 20),
    ]
    assert summary["worse_than_baseline"] == ["more:weak"]
    assert (project / "eval_reports/more_strong").is_dir()


def test_variants_run_interleaved_not_one_after_another(
    project: Path, in_process: InProcess
) -> None:
    # Each variant's case k waits until every variant has started case k-1: had the
    # variants run one after another, the first one's second case would never start.
    log = project / "starts.log"
    (project / "variants.toml").write_text(
        "".join(
            f'[[variants]]\nname = "{name}"\n'
            f'params = {{ rate = {rate}, log = "{log}", tag = "{name}", lockstep = 3 }}\n'
            for name, rate in (("a", 0.9), ("b", 0.5), ("c", 0.5))
        )
    )
    done = run_variants(
        in_process, project, "--case", "c0", "--case", "c1", "--case", "c2", "--json"
    )
    summary = json.loads(done.stdout)
    assert sum(v["total"] for v in summary["variants"]) == 9
    assert summary["error_cases"] == 0, done.stderr
    starts = [line.split() for line in log.read_text().splitlines()]
    assert [case for _, case in starts] == ["c0"] * 3 + ["c1"] * 3 + ["c2"] * 3
    for k in range(3):
        assert sorted(tag for tag, _ in starts[3 * k : 3 * k + 3]) == ["a", "b", "c"]


def test_an_interrupted_variant_run_resumes_each_variant_from_its_journal(project: Path) -> None:
    log, hold = project / "starts.log", project / "release"
    (project / "variants.toml").write_text(
        "".join(
            f'[[variants]]\nname = "{name}"\nparams = {{ rate = {rate}, log = "{log}", '
            f'tag = "{name}", hold = "{hold}", hold_at = 5 }}\n'
            for name, rate in (("a", 0.9), ("b", 0.5))
        )
    )
    ids = [flag for i in range(8) for flag in ("--case", f"c{i}")]
    args = ["run", "rates.evalset.json", "--agent", AGENT, "--config", "config.json"]
    args += ["--variants", "variants.toml", "--repeat", "2", *ids]
    child = subprocess.Popen(
        [str(SCRIPT), *args], cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        # Both variants finished c0..c4 (2 runs each) and wait at c5.
        wait_sync(lambda: log.exists() and log.read_text().count("\n") >= 2 * 5 * 2)
        journals = lambda: list((project / "eval_reports").rglob("*.journal.jsonl"))  # noqa: E731
        wait_sync(
            lambda: (
                all(j.read_text().count('"type": "case",') >= 5 for j in journals())
                and len(journals()) == 2
            ),
            what="both journals hold c0..c4",
        )
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=scaled(60))
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert "resume them with:" in err
    assert len(journals()) == 2  # kept, one per variant
    hold.write_text("go")
    log.write_text("")
    done = cli(project, *args, "--resume", "eval_reports", "--json")
    summary = json.loads(done.stdout)
    assert [(v["name"], v["total"]) for v in summary["variants"]] == [("a", 8), ("b", 8)], (
        done.stderr
    )
    # Only c5..c7 ran again (2 runs each, per variant): c0..c4 came from the journals.
    again = sorted({line.split()[1] for line in log.read_text().splitlines()})
    assert again == ["c5", "c6", "c7"]
    assert log.read_text().count("\n") == 2 * 3 * 2


@pytest.mark.parametrize(
    ("flags", "problem"),
    [
        (["--baseline", "nope"], "--baseline 'nope': no such variant (the variants: strong"),
        (["-o", "x.json"], "-o: not with variants"),
        (["--resume", "config.json"], "with variants, name the run's output folder"),
    ],
)
def test_flags_that_do_not_go_with_variants_are_usage_errors(
    project: Path, flags: list[str], problem: str, in_process: InProcess
) -> None:
    done = run_variants(in_process, project, *flags)
    assert done.returncode == 2
    assert problem in done.stderr


def test_baseline_without_variants_is_a_usage_error(project: Path, in_process: InProcess) -> None:
    done = in_process(project, "run", "rates.evalset.json", "--agent", AGENT, "--baseline", "x")
    assert done.returncode == 2
    assert "--baseline: only goes with variants" in done.stderr
