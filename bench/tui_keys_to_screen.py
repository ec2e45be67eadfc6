"""Key to screen, in a real terminal: how long each key takes to show its effect.

The workbench runs on a pty this script owns (as in a terminal: raw mode, 120x40,
xterm-256color with true colour); the script writes a key's bytes and reads the app's
output as it arrives, drawn by pyte, until the screen shows the key's whole effect (see
``keyscreen/actions.py`` for what each action waits for). The workspace has a 1,000-case
eval set (run by the offline sample agent) and a 10,000-case report.

Beside it, in the same run, a minimal Textual app (a 1,000-row list, a key moving its
cursor) is timed the same way: before every sample of the workbench, one of the floor, so a
busy moment weighs on both. The method's own floor (a program that echoes the key back)
is printed too.

Targets (a quiet machine): each action's median at most 2x the floor's and at most 50 ms;
p95 at most 100 ms; screen switches and opening a case (or a report) at most 100 ms
median; the last key of a 100-key burst in a field shown at most 200 ms after it was
typed. Also printed: start-up (to the editor with the first case's form) and the app's
CPU while idle. Exits 1 when a target is missed.

Run: ``.venv/bin/python bench/tui_keys_to_screen.py [--quick] [--idle SECONDS] [--only
ACTIONS]`` (``make bench`` runs it too). ``--only move,undo`` times those actions alone (and
start-up), without the idle CPU: before and after a change to one action, on a shared
machine.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from keyscreen.actions import Editor, Reports, RunView
from keyscreen.fixtures import write_report, write_workspace
from keyscreen.session import Figures, Floor, Session, percentile
from keyscreen.terminal import Terminal, python_argv
from support.own_settings import own_settings

COLUMNS, ROWS = 120, 40
KEY_MS, SLOW_MS, P95_MS, BURST_MS = 50.0, 100.0, 100.0, 200.0
FLOOR_FACTOR = 2.0
ACTIONS = ("move", "open", "undo", "burst", "filter", "switch", "reports", "run")
"""What ``--only`` picks from, in the order they run."""
START_S = 1.0
"""Start-up: the app's first interactive frame (bench/tui_editor.py holds the same target)."""
APP = Path(sys.executable).parent / "tenxeval-tui"
REPO = Path(__file__).resolve().parent.parent


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min) {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def method_floor(env: dict[str, str], samples: int = 30) -> list[float]:
    """Milliseconds from writing a byte to seeing it on screen, echoed by a program in raw
    mode: what the pty, the reading thread and pyte cost, with no app at all."""
    echo = "import os, tty; tty.setraw(0)\nwhile True: os.write(1, os.read(0, 64))"
    terminal = Terminal(python_argv("-c", echo), columns=COLUMNS, rows=ROWS, env=env)
    try:
        terminal.quiet(0.3)
        times = []
        for index in range(samples):
            char = chr(ord("a") + index % 26)
            count = terminal.screen.text().count(char)
            sent = terminal.write(char.encode())
            shown = terminal.wait_for(lambda s, c=char, n=count: s.text().count(c) > n)
            times.append((shown - sent) * 1000)
            terminal.quiet(0.02)
        return times
    finally:
        terminal.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def settle_cpu(pid: int, limit: float = 20.0) -> float:
    """Wait until process ``pid`` has done its one-off work (a first read of the reports
    after start-up, a run's reports): half a second using at most one clock tick of CPU.
    Returns the seconds waited."""
    started = time.perf_counter()
    last = cpu_seconds(pid)
    while time.perf_counter() - started < limit:
        time.sleep(0.5)  # the window whose CPU is looked at
        now = cpu_seconds(pid)
        if now - last <= 1 / os.sysconf("SC_CLK_TCK"):
            break
        last = now
    return time.perf_counter() - started


def idle_cpu(terminal: Terminal, seconds: float) -> tuple[float, int]:
    """The app's CPU share (% of one CPU) over ``seconds`` with no key pressed, once its
    one-off work is done, and the bytes it drew meanwhile."""
    terminal.quiet(0.5)
    settle_cpu(terminal.process.pid)
    terminal.drain()
    started, before = time.perf_counter(), cpu_seconds(terminal.process.pid)
    drawn = terminal.bytes_read
    time.sleep(seconds)  # the idle time measured, not a wait for something
    used = cpu_seconds(terminal.process.pid) - before
    elapsed = time.perf_counter() - started
    terminal.drain()
    return used / elapsed * 100, terminal.bytes_read - drawn


def target_of(figures: Figures) -> tuple[float | None, float | None]:
    """(median target, p95 target) in ms for an action (``None``: none)."""
    floor = statistics.median(figures.floor)
    if figures.kind == "key":
        return min(FLOOR_FACTOR * floor, KEY_MS), P95_MS
    if figures.kind in ("switch", "open"):
        return SLOW_MS, P95_MS
    if figures.kind == "burst":
        return BURST_MS, BURST_MS
    return None, None


def report(figures: list[Figures]) -> bool:
    """Print each action beside the floor; whether every target was met."""
    print(f"{'action':52} {'n':>3} {'median':>8} {'p95':>8} {'floor':>7} {'target':>14}  verdict")
    ok = True
    for f in figures:
        median_target, p95_target = target_of(f)
        missed = []
        if median_target is not None and f.median > median_target:
            missed.append("median")
        if p95_target is not None and f.p95 > p95_target:
            missed.append("p95")
        target = (
            f"<={median_target:.0f}/{p95_target:.0f}" if median_target is not None else "(info)"
        )
        verdict = "MISSED " + ",".join(missed) if missed else ("ok" if median_target else "-")
        ok = ok and not missed
        print(
            f"{f.name:52} {len(f.samples):3d} {f.median:8.1f} {f.p95:8.1f} "
            f"{statistics.median(f.floor):7.1f} {target:>14}  {verdict}"
        )
    return ok


def chosen_actions(text: str | None) -> set[str]:
    """The actions ``--only`` names (every one when ``None``); a usage error names an
    unknown one."""
    if text is None:
        return set(ACTIONS)
    names = {name.strip() for name in text.split(",") if name.strip()}
    unknown = sorted(names - set(ACTIONS))
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown action(s) {', '.join(unknown) or '(none given)'}; "
            f"choose from {', '.join(ACTIONS)}"
        )
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples of each action")
    parser.add_argument(
        "--idle", type=float, default=5.0, help="seconds of idle CPU measured in each screen"
    )
    parser.add_argument(
        "--only",
        type=chosen_actions,
        default=None,
        metavar="ACTIONS",
        help=(
            "time only these actions, comma separated, from: "
            f"{', '.join(ACTIONS)} (move: next/previous case; undo: ctrl+z/ctrl+y; "
            "run: watch toggle and start a run); start-up is timed, idle CPU is not"
        ),
    )
    args = parser.parse_args()
    only: set[str] = args.only if args.only is not None else set(ACTIONS)
    measure_idle = args.only is None
    rounds = 1 if args.quick else 2
    print(f"at start: {load()}")
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        path = write_workspace(workspace)
        write_report(workspace / "eval_reports")
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO),  # the sample agent
            "COLORTERM": "truecolor",
        }
        # The app starts from bytecode, as an installed one does (pip compiles at install):
        # with PYTHONDONTWRITEBYTECODE set in the shell, an editable install would compile
        # the whole package at every start (0.3-0.6 s of the start-up measured).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        compileall.compile_dir(REPO / "tenxeval_tui", quiet=1)
        echo = method_floor(env)
        print(
            f"method floor (a raw-mode echo on this pty, drawn by pyte): median "
            f"{statistics.median(echo):.2f} ms, p95 {percentile(echo, 0.95):.2f} ms"
        )
        floor = Floor(COLUMNS, ROWS, env)
        started = time.perf_counter()
        app = Terminal([str(APP), str(workspace)], columns=COLUMNS, rows=ROWS, env=env, cwd=folder)
        problems: list[str] = []
        try:
            app.wait_for(
                lambda s: s.find("Case #1 ") is not None and s.find("case_0001") is not None,
                what="the editor with its first case",
            )
            start_s = time.perf_counter() - started
            session = Session(app, floor)
            if measure_idle:
                idle, drawn = idle_cpu(app, args.idle)
            else:  # no idle measured, but the start's one-off work is let end all the same
                idle, drawn = 0.0, 0
                app.quiet(0.5)
                settle_cpu(app.process.pid)
            editor = Editor(session, path)
            if "move" in only:
                editor.move(20 * rounds)
            if "open" in only:
                editor.open_case(5 * rounds)
            if "undo" in only:
                editor.undo_redo(5 * rounds)
            if "burst" in only:
                problems += editor.burst(rounds)
            if "filter" in only:
                editor.filter()
            if "switch" in only:
                editor.switch(3 * rounds)
            if "reports" in only:
                reports = Reports(session)
                reports.open_report(3 * rounds)
                reports.cases(2 * rounds, 5)
            idle_reports, drawn_reports = idle_cpu(app, args.idle) if measure_idle else (0.0, 0)
            if "run" in only:
                run = RunView(session)
                run.toggle_watch(3 * rounds)
                run.start(2 * rounds)
            idle_end, drawn_end = idle_cpu(app, args.idle) if measure_idle else (0.0, 0)
        finally:
            app.close()
            floor.terminal.close()
    print(f"at end: {load()}")
    ok = report(list(session.figures.values()))
    loads = [load for f in session.figures.values() for load in f.loads]
    print(f"load average (1 min) while sampling: {min(loads):.2f} to {max(loads):.2f}")
    start_ok = start_s <= START_S
    print(
        f"start-up, to the editor showing the first case: {start_s:.2f} s "
        f"(the floor app: {floor.ready_s:.2f} s; target <= {START_S:.1f} s) "
        f"{'ok' if start_ok else 'MISSED'}"
    )
    idle_ok = max(idle, idle_reports, idle_end) < 1.0
    if measure_idle:
        print(
            f"idle CPU over {args.idle:.0f} s: {idle:.2f}% in the editor after start ({drawn} "
            f"bytes drawn), {idle_reports:.2f}% in a report ({drawn_reports}), {idle_end:.2f}% "
            f"in the run view after its runs ({drawn_end}) (target: about 0) "
            f"{'ok' if idle_ok else 'MISSED'}"
        )
    else:
        print(f"idle CPU not measured (--only {','.join(a for a in ACTIONS if a in only)})")
    for problem in problems:
        print(f"KEY LOST OR MISPLACED: {problem}")
    return 0 if ok and start_ok and idle_ok and not problems else 1


if __name__ == "__main__":
    with own_settings():  # never the developer's settings file and state
        sys.exit(main())
