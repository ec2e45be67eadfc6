"""`tenxeval-tui cache list|clear|prune` over a real judge cache. A hostile model name goes
through the real console script (the bytes a terminal or pipe is given); the rest run
in-process through its entry point (``in_process``): the same parsing and output without a
new Python."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tenxeval_tui.cli.cache_command import human_size, parse_duration
from tenxeval_tui.evaluation import JudgeCache, JudgeReply, TokenUsage
from tenxeval_tui.evaluation.judges.cache import cache_entries
from tests.cli.conftest import InProcess, Outcome
from tests.waiting import scaled

SCRIPT = Path(sys.executable).parent / "tenxeval-tui"
DAY = 86400.0


def script(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=scaled(60),
        check=False,
        env=dict(os.environ),
    )


Run = Callable[..., Outcome]


@pytest.fixture
def run(in_process: InProcess, tmp_path: Path) -> Run:
    """``tenxeval-tui ARGS`` in-process, in ``cwd`` (the test's own folder unless given)."""

    def command(
        *args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None
    ) -> Outcome:
        return in_process(cwd or tmp_path, *map(str, args), env=env)

    return command


def fill(folder: Path, model: str, count: int, age_days: float) -> None:
    """``count`` entries of ``model`` stored ``age_days`` ago (each about 1 kB)."""
    stamp = time.time() - age_days * DAY
    cache = JudgeCache(folder, clock=lambda: stamp)
    for i in range(count):
        key = JudgeCache.key(model, f"{model} prompt {i} {age_days}", 0)
        cache.put(key, model, JudgeReply("x" * 1000, TokenUsage(input_tokens=3)))


def test_list_counts_entries_and_sizes_per_model(tmp_path: Path, run: Run) -> None:
    folder = tmp_path / "cache"
    fill(folder, "gpt-4o-mini", 3, age_days=1)
    fill(folder, "judge-b", 2, age_days=0)
    (folder / "ab").mkdir(exist_ok=True)
    (folder / "ab" / ("ab" + "0" * 62 + ".json")).write_text("{not json")
    done = run("cache", "list", "--dir", folder)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{folder}: 6 entries, ")
    assert any(line.startswith("  gpt-4o-mini: 3 entries, 3.") for line in lines)
    assert any(line.startswith("  judge-b: 2 entries, 2.") for line in lines)
    assert "  unreadable: 1 entry (`cache prune` removes them)" in lines


def test_the_default_folder_is_the_env_var_else_the_working_folders(
    tmp_path: Path, run: Run
) -> None:
    fill(tmp_path / ".tenxeval_cache" / "judge", "m", 2, age_days=0)
    done = run("cache", "list", cwd=tmp_path)
    assert f"{tmp_path / '.tenxeval_cache' / 'judge'}: 2 entries" in done.stdout
    elsewhere = tmp_path / "elsewhere"
    fill(elsewhere, "m", 1, age_days=0)
    done = run("cache", "list", cwd=tmp_path, env={"TENXEVAL_JUDGE_CACHE_DIR": str(elsewhere)})
    assert f"{elsewhere}: 1 entry" in done.stdout


def test_clear_removes_every_entry_and_says_so(tmp_path: Path, run: Run) -> None:
    folder = tmp_path / "cache"
    fill(folder, "m", 4, age_days=0)
    done = run("cache", "clear", "--dir", folder)
    assert done.returncode == 0, done.stderr
    assert f"{folder}: removed 4 entries (" in done.stdout
    assert "; 0 entries (0 B) left" in done.stdout
    assert cache_entries(folder) == []
    assert (folder / ".gitignore").exists()  # the folder still ignores itself
    again = run("cache", "clear", "--dir", folder)
    assert "removed 0 entries (0 B)" in again.stdout


def test_clear_never_touches_files_that_are_no_cache_entries(tmp_path: Path, run: Run) -> None:
    # pointed at the wrong folder by mistake: a project with 2-letter folders of JSON
    project = tmp_path / "project"
    (project / "db").mkdir(parents=True)
    (project / "db" / "schema.json").write_text("{}")
    (project / "ab").mkdir()
    near_miss = project / "ab" / ("cd" + "0" * 62 + ".json")  # not in its own shard
    near_miss.write_text("{}")
    done = run("cache", "clear", "--dir", project)
    assert done.returncode == 0
    assert "removed 0 entries" in done.stdout
    assert (project / "db" / "schema.json").exists() and near_miss.exists()


def test_prune_by_age_then_by_size(tmp_path: Path, run: Run) -> None:
    folder = tmp_path / "cache"
    fill(folder, "m", 3, age_days=10)
    fill(folder, "m", 3, age_days=2)
    fill(folder, "m", 3, age_days=0)
    done = run("cache", "prune", "--older-than", "7d", "--dir", folder)
    assert done.returncode == 0, done.stderr
    assert "removed 3 entries" in done.stdout and "; 6 entries" in done.stdout
    entries = cache_entries(folder)
    assert len(entries) == 6
    assert min(e.created for e in entries) > time.time() - 3 * DAY
    newest_three = sum(e.size for e in entries[3:])
    cap_mb = (newest_three + 1) / (1024 * 1024)  # a byte over: the MB figure is rounded
    done = run("cache", "prune", "--max-mb", f"{cap_mb:.9f}", "--dir", folder)
    assert "removed 3 entries" in done.stdout, done.stdout
    left = cache_entries(folder)
    assert len(left) == 3
    assert min(e.created for e in left) > time.time() - DAY  # the oldest went first


def test_bad_flags_and_folders_exit_2(tmp_path: Path, run: Run) -> None:
    done = run("cache", "prune", "--older-than", "soon", "--dir", tmp_path)
    assert done.returncode == 2 and "'soon' is no duration" in done.stderr
    done = run("cache", "prune", "--max-mb", "-1", "--dir", tmp_path)
    assert done.returncode == 2 and "no size in MB" in done.stderr
    a_file = tmp_path / "file"
    a_file.write_text("")
    done = run("cache", "list", "--dir", a_file)
    assert done.returncode == 2 and "is no folder" in done.stderr
    done = run("cache", "list", "--dir", tmp_path / "missing")
    assert done.returncode == 0 and "no judge cache here" in done.stdout
    assert run("cache").returncode == 2  # no action


def test_a_hostile_model_name_is_listed_inert(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    fill(folder, "\x1b]0;pwned\x07", 1, age_days=0)
    done = script("cache", "list", "--dir", folder)
    assert "\x1b" not in done.stdout and "␛]0;pwned␇: 1 entry" in done.stdout


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("90", 90.0), ("90s", 90.0), ("15m", 900.0), ("12h", 43200.0), ("1.5d", 129600.0)],
)
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


def test_sizes_are_human() -> None:
    assert (human_size(512), human_size(2048), human_size(5 * 1024**2)) == (
        "512 B",
        "2.0 kB",
        "5.0 MB",
    )
