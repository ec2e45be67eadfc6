"""The workbench's screenshots in the docs (docs/images/*.svg), taken from the real app on
the bundled samples (``sample_evals/``) with Textual's SVG screenshots.

Run by ``make docs`` (and alone by ``make docs-screenshots``). Each picture is one entry
of :data:`SHOTS`: a name (the file), a title, the folder it is taken in, and the steps
that bring the app to the screen (keys a user presses, then a wait for what the keys
make). The runs are real: the samples' agents run in the workbench's worker, and
``tenxeval-tui run`` writes the reports the browser, the history and the flaky cases
show. A folder is made once per script run and shared by the shots that name it (in
:data:`SHOTS`' order: the review shot's labels are the agreement shot's).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tenxeval_tui.app import WorkbenchApp

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "images"
SIZE = (120, 34)
TIMEOUT = 60
"""Seconds a step waits for what its keys make before the script fails."""
SCRIPT = Path(sys.executable).parent / "tenxeval-tui"

# The sample support agent, holding every refund case until the file `release` exists:
# the run view is pictured while they run and the other cases have finished.
HOLDING_AGENT = """
import asyncio
from pathlib import Path

from sample_evals.plain_agent import support_agent


async def agent(message, trace):
    if "refund" in message.lower():
        while not Path(__file__).with_name("release").exists():
            await asyncio.sleep(0.05)
    return await support_agent(message, trace)
"""


# A second variant of the sample agent: it answers every greeting curtly (so fails
# `greeting`) and is otherwise the sample's.
TERSE_AGENT = """
from sample_evals.plain_agent import support_agent


async def agent(message, trace):
    if message.lower().startswith(("hi", "hello", "good")):
        return "Yes?"
    return await support_agent(message, trace)
"""


async def until(pilot: Pilot[Any], condition: Callable[[], object], what: str) -> None:
    """Let the app run until ``condition()`` holds; fails naming ``what`` after 60 s."""
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"screenshots: waited {TIMEOUT} s for {what}")
        await pilot.pause(0.05)


def shown(pilot: Pilot[Any]) -> Any:
    """The screen on top (``Any``: each step reads its own screen's attributes)."""
    return pilot.app.screen


def screen_name(pilot: Pilot[Any]) -> str:
    return type(pilot.app.screen).__name__


def project(folder: Path, *eval_sets: str) -> Path:
    """A project with copies of the samples and a ``[tool.tenxeval]`` table naming them."""
    shutil.copytree(ROOT / "sample_evals", folder / "sample_evals")
    names = ", ".join(f'"sample_evals/{name}.evalset.json"' for name in eval_sets)
    (folder / "pyproject.toml").write_text(
        f'[tool.tenxeval]\neval_sets = [{names}]\noutput_dir = "eval_reports"\n', encoding="utf-8"
    )
    return folder


def cli_run(folder: Path, *args: str) -> None:
    subprocess.run(
        [str(SCRIPT), "run", "-q", *args],
        cwd=folder,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )
    time.sleep(1.1)  # report files are named by the second: the next run gets its own


def reports_history(folder: Path) -> Path:
    """Three runs of the support agent's eval set; in the second, `greeting` expects
    another reply and fails (a regression, then fixed: a flip in the flaky view)."""
    root = project(folder, "plain_agent")
    eval_set = root / "sample_evals" / "plain_agent.evalset.json"
    original = eval_set.read_text(encoding="utf-8")
    cli_run(root)
    data = json.loads(original)
    greeting = next(c for c in data["eval_cases"] if c["eval_id"] == "greeting")
    greeting["conversation"][0]["expected_final_response"]["content"] = "Good morning, Ada."
    eval_set.write_text(json.dumps(data, indent=2), encoding="utf-8")
    cli_run(root)
    eval_set.write_text(original, encoding="utf-8")
    cli_run(root)
    return root


def variants(folder: Path) -> Path:
    """The support agent's eval set, two variants of its agent in ``[tool.tenxeval]``."""
    root = project(folder, "plain_agent")
    (root / "terse_agent.py").write_text(TERSE_AGENT, encoding="utf-8")
    with (root / "pyproject.toml").open("a", encoding="utf-8") as out:
        out.write(
            'agent = "sample_evals.plain_agent:support_agent"\n\n'
            '[[tool.tenxeval.variants]]\nname = "sample"\n\n'
            '[[tool.tenxeval.variants]]\nname = "terse"\nagent = "terse_agent:agent"\n'
        )
    return root


async def editor(pilot: Pilot[Any], root: Path) -> None:
    await until(pilot, lambda: screen_name(pilot) == "EditorScreen", "the editor")
    await until(pilot, lambda: pilot.app.screen.query("CaseTable"), "the case list")
    await pilot.press("enter")
    await until(pilot, lambda: pilot.app.screen.query("CaseForm"), "the case form")


async def run_view(pilot: Pilot[Any], root: Path) -> None:
    await pilot.press("r")
    await until(
        pilot,
        lambda: screen_name(pilot) == "RunScreen" and pilot.app.screen.query("#agent"),
        "the run view",
    )
    screen: Any = pilot.app.screen
    screen.query_one("#agent").value = "holding_agent:agent"
    screen.query_one("#concurrency").value = "2"
    await pilot.press("ctrl+r")

    def held() -> bool:
        live = screen.live
        return (
            live is not None
            and live.completed >= 5
            and any(case.status == "running" for case in live.cases.values())
        )

    await until(pilot, held, "the run to reach its held refund cases")
    screen.repaint()
    await pilot.pause(0.3)


async def report_browser(pilot: Pilot[Any], root: Path) -> None:
    await browse_reports(pilot)
    await pilot.press("down", "enter")  # the second run, with its failed case
    await until(pilot, lambda: screen_name(pilot) == "ReportScreen", "the report")
    await pilot.pause(0.3)


async def comparison(pilot: Pilot[Any], root: Path) -> None:
    await browse_reports(pilot)
    await pilot.press("down", "c")  # the second run against the first
    await until(pilot, lambda: screen_name(pilot) == "BaselinePicker", "the baseline picker")
    await pilot.press("enter")
    await until(pilot, lambda: screen_name(pilot) == "CompareScreen", "the comparison")
    await pilot.pause(0.3)


async def flakiness(pilot: Pilot[Any], root: Path) -> None:
    await browse_reports(pilot)
    await pilot.press("h")
    await until(
        pilot,
        lambda: screen_name(pilot) == "FlakinessScreen" and shown(pilot).loaded,
        "the flaky cases",
    )
    await pilot.pause(0.3)


async def browse_reports(pilot: Pilot[Any]) -> None:
    """The report browser, its three reports listed."""
    await pilot.press("b")
    await until(pilot, lambda: screen_name(pilot) == "ReportsScreen", "the report browser")
    await until(pilot, lambda: len(shown(pilot).query_one("ReportList").entries) == 3, "3 reports")


async def review(pilot: Pilot[Any], root: Path) -> None:
    await browse_reports(pilot)
    await pilot.press("R")  # the newest run, blind: its verdicts hidden until labelled
    await until(
        pilot,
        lambda: screen_name(pilot) == "ReviewScreen" and shown(pilot).session is not None,
        "review mode",
    )
    screen = shown(pilot)
    # Label the first cases as a reviewer would (one disagrees with the verdict).
    for verdict in ("p", "p", "p", "f", "p", "f"):
        await pilot.press(verdict)
    await until(pilot, lambda: screen.session.reviewed == 6, "six labels")
    await pilot.pause(0.3)


async def agreement(pilot: Pilot[Any], root: Path) -> None:
    await browse_reports(pilot)
    await pilot.press("g")  # the labels of the review shot against the verdicts
    await until(
        pilot,
        lambda: screen_name(pilot) == "AgreementScreen" and shown(pilot).agreement is not None,
        "the judge agreement",
    )
    await pilot.pause(0.3)


async def history(pilot: Pilot[Any], root: Path) -> None:
    await browse_reports(pilot)
    await pilot.press("H")
    await until(
        pilot,
        lambda: screen_name(pilot) == "HistoryScreen" and shown(pilot).loaded,
        "the history",
    )
    await pilot.pause(0.3)


async def variant_matrix(pilot: Pilot[Any], root: Path) -> None:
    await pilot.press("r")
    await until(pilot, lambda: screen_name(pilot) == "RunScreen", "the run view")
    await pilot.press("m")
    await until(pilot, lambda: screen_name(pilot) == "VariantRunScreen", "the variants")
    screen: Any = pilot.app.screen
    await pilot.press("ctrl+r")  # the variants view's own run key
    await until(pilot, lambda: screen.runs_finished == 1, "the variants' runs")
    await pilot.press("ctrl+o")
    await until(pilot, lambda: screen_name(pilot) == "MatrixScreen", "the matrix")
    await pilot.pause(0.3)


def samples(folder: Path) -> Path:
    return project(folder, "plain_agent", "weather_graph")


def support(folder: Path) -> Path:
    return project(folder, "plain_agent")


@dataclass(frozen=True)
class Shot:
    """One picture: ``docs/images/<name>.svg``, taken in the folder ``workspace`` makes
    (made once, shared by every shot naming the same function)."""

    name: str
    title: str
    steps: Callable[[Pilot[Any], Path], Awaitable[None]]
    workspace: Callable[[Path], Path]
    needs: tuple[str, ...] = ()
    """Shots taken first in the same folder (what they leave there this one shows)."""


SHOTS = [
    Shot("editor", "The editor on the sample eval sets", editor, samples),
    Shot("run-view", "The run view, mid-run", run_view, support),
    Shot("report-browser", "A report in the report browser", report_browser, reports_history),
    Shot("comparison", "Two runs compared", comparison, reports_history),
    Shot("flakiness", "Flaky cases over three runs", flakiness, reports_history),
    Shot("history", "The eval set's runs over time", history, reports_history),
    Shot("review", "Review mode, six cases labelled", review, reports_history),
    Shot(
        "agreement",
        "The verdicts' agreement with the labels",
        agreement,
        reports_history,
        needs=("review",),
    ),
    Shot("variants-matrix", "Two variants of the agent, their matrix", variant_matrix, variants),
]


async def take(shot: Shot, root: Path) -> Path:
    (root / "holding_agent.py").write_text(HOLDING_AGENT, encoding="utf-8")
    (root / "release").unlink(missing_ok=True)
    os.chdir(root)
    app = WorkbenchApp(str(root))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await shot.steps(pilot, root)
            path = app.save_screenshot(f"{shot.name}.svg", str(IMAGES))
    finally:
        (root / "release").write_text("go", encoding="utf-8")
    return Path(path)


def chosen_shots(names: list[str]) -> list[Shot]:
    """The shots ``names`` asks for (all when none) and those they need, in order."""
    wanted = set(names or (shot.name for shot in SHOTS))
    unknown = wanted - {shot.name for shot in SHOTS}
    if unknown:
        raise SystemExit(f"screenshots: no shot named {', '.join(sorted(unknown))}")
    for shot in SHOTS:
        if shot.name in wanted:
            wanted.update(shot.needs)
    return [shot for shot in SHOTS if shot.name in wanted]


def main(names: list[str]) -> int:
    IMAGES.mkdir(parents=True, exist_ok=True)
    # Sample settings only: the reviewer named on the review shot's labels.
    os.environ["TENXEVAL_REVIEWER"] = "ada"
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="shots-") as base:
        # A settings file and state of their own: yours (a theme, rebound keys, the tip
        # hidden) stay out of the pictures, and the runs here stay out of your [last_run].
        os.environ["TENXEVAL_CONFIG_DIR"] = str(Path(base) / "config")
        os.environ["TENXEVAL_STATE_DIR"] = str(Path(base) / "state")
        folders: dict[Callable[[Path], Path], Path] = {}
        for shot in chosen_shots(names):
            started = time.monotonic()
            if shot.workspace not in folders:
                fresh = Path(base) / shot.workspace.__name__
                fresh.mkdir()
                folders[shot.workspace] = shot.workspace(fresh)
            path = asyncio.run(take(shot, folders[shot.workspace]))
            print(f"{path.relative_to(ROOT)}: {shot.title} ({time.monotonic() - started:.1f}s)")
        os.chdir(ROOT)
    print(f"screenshots: {time.monotonic() - began:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
