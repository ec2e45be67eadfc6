"""`tenxeval-tui run` when its journal cannot be written part way through the run, through the
real console script: a file size limit (``RLIMIT_FSIZE``, as a full disk or a quota) and a
folder remounted read-only mid-run.

The journal is the run's safety net, not its record: the worker's stream brings every case,
so the run keeps every case it received, says the journal failed, does not pass as if
nothing happened, and never shows a traceback.
"""

from __future__ import annotations

import csv
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.cli.test_worker_faults import command, environment, make_project
from tests.waiting import scaled, wait_sync

CASES = 60
LIMIT = 64 * 1024  # the journal passes it after some 16 cases; the CSV of 60 stays below


def _limited() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def csv_cases(path: Path) -> set[str]:
    with path.open(newline="") as handle:
        return {row["eval_id"] for row in csv.DictReader(handle)}


def test_a_journal_past_the_file_size_limit_loses_no_case(tmp_path: Path) -> None:
    root = make_project(tmp_path, [f"slow 0.01 {i}" for i in range(CASES)])
    (root / "kept").mkdir()
    done = subprocess.run(
        command("--concurrency", "2", "-o", "kept/cases.csv"),
        cwd=root,
        capture_output=True,
        text=True,
        timeout=scaled(300),
        env=environment(),
        preexec_fn=_limited,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stdout + done.stderr
    assert "tenxeval-tui run: the run's journal could not be written (" in done.stderr
    assert "File too large" in done.stderr
    # Every case is in the summary and in the report that could be written.
    assert f": {CASES}/{CASES} passed, 0 failed, 0 errored" in done.stdout
    assert csv_cases(root / "kept/cases.csv") == {f"c{i}" for i in range(CASES)}
    # The JSON report is over the limit too: said, not hidden, and the run does not pass.
    assert "report JSONReporter failed: OSError: [Errno 27] File too large" in done.stderr
    assert "FAILED: some report files were not written" in done.stderr


@contextmanager
def read_only_later(folder: Path) -> Iterator[Callable[[], None]]:
    """``folder`` writable now; the context gives the function that makes it read-only."""
    if os.geteuid() != 0:  # permissions hold for a user: no mount needed

        def lock() -> None:
            for path in folder.iterdir():
                path.chmod(0o444)
            folder.chmod(0o555)

        try:
            yield lock
        finally:
            folder.chmod(0o755)
        return
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(folder)])
    if mounted.returncode != 0:
        pytest.skip("root without the right to mount: no read-only folder to be had")

    def remount() -> None:
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)

    try:
        yield remount
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mounts a tmpfs")
def test_a_folder_turned_read_only_mid_run_loses_no_case(tmp_path: Path) -> None:
    root = make_project(tmp_path, [f"slow 0.2 {i}" for i in range(12)])
    (root / "out").mkdir()
    (root / "kept").mkdir()
    with read_only_later(root / "out") as make_read_only:
        cli = subprocess.Popen(
            command("--concurrency", "1", "-o", "kept/cases.csv"),
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(),
        )
        try:
            journal = root / "out"

            def two_cases_journalled() -> bool:
                found = list(journal.glob("*.journal.jsonl"))
                return bool(found) and found[0].read_text().count('"type": "case"') >= 2

            wait_sync(two_cases_journalled, 120, "two cases in the journal")
            make_read_only()
            out, err = cli.communicate(timeout=scaled(300))
        finally:
            if cli.poll() is None:
                cli.kill()
                cli.communicate()
    assert "Traceback" not in err, err
    assert cli.returncode == 1, out + err
    assert "tenxeval-tui run: the run's journal could not be written (" in err
    assert ": 12/12 passed, 0 failed, 0 errored" in out
    assert csv_cases(root / "kept/cases.csv") == {f"c{i}" for i in range(12)}
    assert "FAILED: some report files were not written" in err  # out/ is read-only now
