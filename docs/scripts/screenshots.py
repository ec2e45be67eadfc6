"""The workbench's screenshots in the docs (docs/images/*.svg), taken from the real app on
the bundled samples (``sample_evals/``) with Textual's SVG screenshots.

Run by ``make docs-screenshots``. Each picture is one entry of :data:`SHOTS`: a name (the
file), a title, and the steps that bring the app to the screen (keys a user presses,
then a wait for what the keys make). The runs are real: the samples' agents run in the
workbench's worker, and ``tenxeval-tui run`` writes the reports the browser shows.
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


async def until(pilot: Pilot[Any], condition: Callable[[], object], what: str) -> None:
    """Let the app run until ``condition()`` holds; fails naming ``what`` after 60 s."""
    deadline = time.monotonic() + 60
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"screenshots: waited 60 s for {what}")
        await pilot.pause(0.05)


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
    await pilot.press("b")
    await until(pilot, lambda: screen_name(pilot) == "ReportsScreen", "the report browser")
    await until(
        pilot, lambda: len(pilot.app.screen.query_one("ReportList").entries) == 3, "3 reports"
    )
    await pilot.press("down", "enter")  # the second run, with its failed case
    await until(pilot, lambda: screen_name(pilot) == "ReportScreen", "the report")
    await pilot.pause(0.3)


async def comparison(pilot: Pilot[Any], root: Path) -> None:
    await pilot.press("b")
    await until(pilot, lambda: screen_name(pilot) == "ReportsScreen", "the report browser")
    await until(
        pilot, lambda: len(pilot.app.screen.query_one("ReportList").entries) == 3, "3 reports"
    )
    await pilot.press("down", "c")  # the second run against the first
    await until(pilot, lambda: screen_name(pilot) == "BaselinePicker", "the baseline picker")
    await pilot.press("enter")
    await until(pilot, lambda: screen_name(pilot) == "CompareScreen", "the comparison")
    await pilot.pause(0.3)


async def flakiness(pilot: Pilot[Any], root: Path) -> None:
    await pilot.press("b")
    await until(pilot, lambda: screen_name(pilot) == "ReportsScreen", "the report browser")
    await until(
        pilot, lambda: len(pilot.app.screen.query_one("ReportList").entries) == 3, "3 reports"
    )
    await pilot.press("h")
    screen = lambda: pilot.app.screen  # noqa: E731
    await until(
        pilot,
        lambda: screen_name(pilot) == "FlakinessScreen" and screen().loaded,
        "the flaky cases",
    )  # type: ignore[attr-defined]
    await pilot.pause(0.3)


@dataclass(frozen=True)
class Shot:
    """One picture: ``docs/images/<name>.svg``."""

    name: str
    title: str
    steps: Callable[[Pilot[Any], Path], Awaitable[None]]
    workspace: Callable[[Path], Path]


SHOTS = [
    Shot(
        "editor",
        "The editor on the sample eval sets",
        editor,
        lambda d: project(d, "plain_agent", "weather_graph"),
    ),
    Shot("run-view", "The run view, mid-run", run_view, lambda d: project(d, "plain_agent")),
    Shot("report-browser", "A report in the report browser", report_browser, reports_history),
    Shot("comparison", "Two runs compared", comparison, reports_history),
    Shot("flakiness", "Flaky cases over three runs", flakiness, reports_history),
]


async def take(shot: Shot, folder: Path) -> Path:
    root = shot.workspace(folder)
    (root / "holding_agent.py").write_text(HOLDING_AGENT, encoding="utf-8")
    os.chdir(root)
    app = WorkbenchApp(str(root))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await shot.steps(pilot, root)
            path = app.save_screenshot(f"{shot.name}.svg", str(IMAGES))
    finally:
        (root / "release").write_text("go", encoding="utf-8")
    return Path(path)


def main(names: list[str]) -> int:
    IMAGES.mkdir(parents=True, exist_ok=True)
    chosen = [shot for shot in SHOTS if not names or shot.name in names]
    for shot in chosen:
        with tempfile.TemporaryDirectory(prefix=f"shot-{shot.name}-") as folder:
            started = time.monotonic()
            path = asyncio.run(take(shot, Path(folder)))
            print(f"{path.relative_to(ROOT)}: {shot.title} ({time.monotonic() - started:.1f}s)")
    os.chdir(ROOT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
