"""The workbench's start-up cost, beside a minimal Textual app's, in the same run.

Two measurements:

- **A real start** in a terminal this script owns (a pty, 120x40): ``tenxeval-tui`` on the
  key-to-screen bench's workspace (a 1,000-case eval set, a 10,000-case report), from
  spawning it to the editor showing its first case's form, in wall seconds and in the CPU
  seconds the process used until then; each start follows one of the floor app (the
  key-to-screen bench's 1,000-row list) timed the same way, so a busy moment weighs on
  both.
- **A headless start** as the UI tests pay it: ``WorkbenchApp(...).run_test()`` on a copy
  of ``sample_evals/`` until the form shows the first case, then closed; the process CPU
  seconds per start (after one warm-up start), beside the floor app's ``run_test()``.

Target: a real start at about 1 s (the key-to-screen bench holds the 1.0 s verdict).

Run: ``.venv/bin/python bench/tui_startup.py [--starts N] [--headless N] [--base CHECKOUT]``
(``--base``: a checkout of another commit, e.g. ``git worktree add /tmp/base main``, whose
workbench starts in turn with this one's: before and after in one run).
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from keyscreen.fixtures import case_id, write_report, write_workspace
from keyscreen.floor_app import FloorApp, row_text
from keyscreen.terminal import Terminal, python_argv
from support.own_settings import own_settings

APP = Path(sys.executable).parent / "tenxeval-tui"
REPO = Path(__file__).resolve().parent.parent
FLOOR = Path(__file__).resolve().parent / "keyscreen" / "floor_app.py"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min) {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_start(
    argv: list[str], ready: tuple[str, ...], env: dict[str, str], cwd: str
) -> tuple[float, float]:
    """(wall s, CPU s) from spawning ``argv`` on a pty to the screen showing every text of
    ``ready``."""
    started = time.perf_counter()
    terminal = Terminal(argv, columns=120, rows=40, env=env, cwd=cwd)
    try:
        terminal.wait_for(
            lambda s: all(s.find(text) is not None for text in ready),
            timeout=120,
            what=" and ".join(ready),
        )
        return time.perf_counter() - started, cpu_seconds(terminal.process.pid)
    finally:
        terminal.close()


def real_starts(count: int, base: Path | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        write_workspace(workspace)
        write_report(workspace / "eval_reports")
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO),
            "COLORTERM": "truecolor",
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # from bytecode, as an installed copy
        compileall.compile_dir(REPO / "tenxeval_tui", quiet=1)
        compileall.compile_dir(FLOOR.parent, quiet=1)
        floor: list[tuple[float, float]] = []
        app: list[tuple[float, float]] = []
        before: list[tuple[float, float]] = []
        # The same app from another checkout (its package first on the path), in turn.
        base_env = {**env, "PYTHONPATH": f"{base}{os.pathsep}{REPO}"} if base else env
        if base is not None:
            compileall.compile_dir(base / "tenxeval_tui", quiet=1)
        floor_argv, app_argv = python_argv(str(FLOOR)), [str(APP), folder]
        floor_ready = (row_text(1),)
        app_ready = ("Case #1 ", case_id(1))  # the form (after the file's check) and the list
        one_start(floor_argv, floor_ready, env, folder)  # warm the file cache
        one_start(app_argv, app_ready, env, folder)
        for _ in range(count):
            floor.append(one_start(floor_argv, floor_ready, env, folder))
            app.append(one_start(app_argv, app_ready, env, folder))
            if base is not None:
                before.append(one_start(app_argv, app_ready, base_env, folder))
    series = [("floor app", floor), ("workbench", app)]
    if base is not None:
        series.append((f"workbench of {base}", before))
    for name, figures in series:
        walls, cpus = zip(*figures, strict=True)
        print(
            f"real start, {name:9}: wall median {statistics.median(walls):.2f} s "
            f"(min {min(walls):.2f}), CPU median {statistics.median(cpus):.2f} s "
            f"(min {min(cpus):.2f}) over {count} starts"
        )


async def headless_start(make_app: object, ready: object) -> None:
    app = make_app()  # type: ignore[operator]
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + 60
        while not ready(app):  # type: ignore[operator]
            if time.monotonic() > deadline:
                raise TimeoutError("the app did not get ready")
            await pilot.pause(0.01)


def headless_starts(count: int) -> None:
    from tenxeval_tui.app import WorkbenchApp

    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        shutil.copytree(REPO / "sample_evals", workspace / "sample_evals")
        (workspace / "pyproject.toml").write_text('[tool.tenxeval]\noutput_dir = "reports"\n')

        def workbench() -> WorkbenchApp:
            return WorkbenchApp(workspace)

        def form_shown(app: WorkbenchApp) -> bool:
            return bool(app.screen.query("#f-eval_id"))

        def floor_ready(app: FloorApp) -> bool:
            return app.screen.focused is not None

        kinds = (("floor app", FloorApp, floor_ready), ("workbench", workbench, form_shown))
        for _, make, ready in kinds:  # warm-up: imports, first styles
            asyncio.run(headless_start(make, ready))
        figures: dict[str, list[float]] = {name: [] for name, _, _ in kinds}
        for _ in range(count):
            for name, make, ready in kinds:
                before = time.process_time()
                asyncio.run(headless_start(make, ready))
                figures[name].append(time.process_time() - before)
    for name, cpus in figures.items():
        print(
            f"headless run_test() start, {name:9}: CPU median {statistics.median(cpus):.3f} s "
            f"(min {min(cpus):.3f}) over {count} starts"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--starts", type=int, default=5, help="real starts of each app")
    parser.add_argument("--headless", type=int, default=5, help="headless starts of each app")
    parser.add_argument(
        "--base",
        type=Path,
        help="another checkout of the repository: its workbench started in turn (real starts)",
    )
    args = parser.parse_args()
    print(f"at start: {load()}")
    if args.starts:
        real_starts(args.starts, args.base)
    if args.headless:
        headless_starts(args.headless)
    print(f"at end: {load()}")
    return 0


if __name__ == "__main__":
    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
