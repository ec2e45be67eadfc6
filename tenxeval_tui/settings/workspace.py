"""The workspace: which eval set files there are, and the settings of the project.

A workspace is opened on a folder or on one ``.evalset.json`` file. Settings come from
the ``[tool.tenxeval]`` table of the nearest ``pyproject.toml`` (the folder itself or one
of its parents)::

    [tool.tenxeval]
    agent = "my_agent.graph:builder"     # module:attribute
    eval_sets = ["evals/smoke.evalset.json"]
    output_dir = "eval_reports"
    concurrency = 4
    workers = 2                          # or "auto": worker processes (run --workers)
    backend = "process"                  # or "ray": where the workers run (run --backend)
    tools = "replay"                     # live, record, replay, replay-or-record (run --tools)
    config = "evals/config.json"
    criteria_modules = ["evals.my_criteria"]   # custom criteria, imported first
    slow_case_seconds = 60               # the run view marks a case running longer as slow
    threshold = 0.9                      # run defaults, below flags and TENXEVAL_* variables
    timeout = 60
    repeat = 3
    log_level = "info"
    judge_model = "gpt-4o-mini"          # below TENXEVAL_JUDGE_MODEL, above the user's file
    judge_base_url = "http://localhost:11434/v1"

    [[tool.tenxeval.variants]]           # run side by side (run --variants, --agent A --agent B)
    name = "small"
    params = { model = "small-1" }       # keyword arguments of the agent's factory

Paths in the table are relative to the folder holding ``pyproject.toml``. This module
has no UI import: the CLI and the Textual app both use it.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tenxeval_tui.evaluation.errors import Problem
from tenxeval_tui.evaluation.tools.settings import ToolMode
from tenxeval_tui.evaluation.variant_spec import Variant
from tenxeval_tui.settings.user_settings import (
    Backend,
    Workers,
    check_log_level,
    check_workers,
)

EVAL_SET_SUFFIX = ".evalset.json"
SCENARIO_SUFFIX = ".scenarios.json"
"""Scenario files (simulated conversations), run like eval sets."""
RUN_FILE_SUFFIXES = (EVAL_SET_SUFFIX, SCENARIO_SUFFIX)
"""What ``run`` (and the workbench) finds in a folder: eval sets and scenario files."""


def run_files_in(folder: Path) -> list[Path]:
    """The eval set and scenario files under ``folder`` (recursively), sorted by path."""
    return sorted(p for suffix in RUN_FILE_SUFFIXES for p in folder.rglob(f"*{suffix}"))


def visible_files(root: Path, suffix: str) -> list[Path]:
    """The files (and folders) under ``root`` whose names end with ``suffix``, sorted by
    path, leaving out hidden ones and those in hidden folders (a name starting with a dot,
    below ``root``).

    A hidden folder is not walked at all: a project's ``.venv`` or ``.git`` holds more
    files than the rest of it, and the workbench asks again as a report's case is shown.
    Symbolic links to folders are not followed (as ``Path.rglob`` did not).
    """
    found = []
    for folder, folders, names in root.walk():
        folders[:] = [name for name in folders if not name.startswith(".")]
        # a folder so named too (as rglob finds it): opening it says it is a folder
        found += [
            folder / name
            for name in (*names, *folders)
            if name.endswith(suffix) and not name.startswith(".")
        ]
    return sorted(found)


def is_scenario_path(path: Path) -> bool:
    """Whether ``path`` names a scenario file (``*.scenarios.json``)."""
    return path.name.endswith(SCENARIO_SUFFIX)


class WorkspaceSettings(BaseModel):
    """The ``[tool.tenxeval]`` table, typed; every key is optional."""

    model_config = ConfigDict(extra="forbid")

    agent: str | None = Field(default=None, description="The agent, as module:attribute.")
    eval_sets: list[Path] = Field(default_factory=list)
    output_dir: Path = Path("eval_reports")
    concurrency: int = Field(default=4, ge=1)
    workers: Workers | None = Field(
        default=None,
        description="Worker processes the cases are handed out to (auto: the machine's cores).",
    )
    backend: Backend | None = Field(
        default=None, description="Where the workers run: local processes or Ray actors."
    )
    config: Path | None = None
    tools: ToolMode | None = Field(
        default=None,
        description="The agents' tools: live, record, replay or replay-or-record "
        "(a cassette NAME.tools.jsonl beside each eval set).",
    )

    @field_validator("workers", mode="before")
    @classmethod
    def _count_or_auto(cls, value: Any) -> Any:
        return check_workers(value)

    criteria_modules: list[str] = Field(
        default_factory=list,
        description="Modules imported before the criteria are checked (custom criteria).",
    )
    slow_case_seconds: float | None = Field(
        default=60.0,
        gt=0,
        description="The run view highlights a case running longer than this as slow.",
    )
    threshold: float = Field(default=1.0, ge=0.0, le=1.0)
    timeout: float | None = Field(default=None, gt=0)
    repeat: int | None = Field(default=None, ge=1)
    log_level: str | None = None
    judge_model: str | None = Field(default=None, min_length=1)
    judge_base_url: str | None = Field(default=None, min_length=1)
    variants: list[Variant] = Field(
        default_factory=list,
        description="Variants of the agent that run runs side by side (see variant_spec).",
    )

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str | None) -> str | None:
        return check_log_level(value)


@dataclass(frozen=True, slots=True)
class EvalSetEntry:
    """One eval set file of the workspace: its case count, or why it does not load."""

    path: Path
    case_count: int | None = None
    problems: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether the file loads."""
        return not self.problems

    @property
    def label(self) -> str:
        """The file name without the ``.evalset.json`` suffix."""
        name = self.path.name
        return name[: -len(EVAL_SET_SUFFIX)] if name.endswith(EVAL_SET_SUFFIX) else name


@dataclass(slots=True)
class Workspace:
    """A folder (or a single eval set file) and its settings."""

    root: Path
    """The folder of the workspace (the file's folder when opened on one file)."""
    single_file: Path | None = None
    """Set when the workspace was opened on one eval set file."""
    settings: WorkspaceSettings = field(default_factory=WorkspaceSettings)
    settings_file: Path | None = None
    """The ``pyproject.toml`` the settings came from, if any."""
    problems: list[Problem] = field(default_factory=list)
    """What is wrong with the workspace itself (missing folder, bad settings)."""

    def _settings_base(self) -> Path:
        return self.settings_file.parent if self.settings_file else self.root

    def resolve(self, path: Path) -> Path:
        """A path of the settings table, made absolute."""
        return path if path.is_absolute() else self._settings_base() / path

    def eval_set_files(self) -> list[Path]:
        """The eval set files: the single file, or those found in the folder plus those named
        in the settings, sorted and without duplicates."""
        if self.single_file is not None:
            return [self.single_file]
        found: dict[Path, None] = {}
        if self.root.is_dir():
            for path in visible_files(self.root, EVAL_SET_SUFFIX):
                found[path.resolve()] = None
        for named in self.settings.eval_sets:
            found.setdefault(self.resolve(named).resolve(), None)
        return list(found)

    def scenario_files(self) -> list[Path]:
        """The scenario files (``*.scenarios.json``) found in the folder, sorted (none when
        the workspace was opened on one eval set file)."""
        if self.single_file is not None or not self.root.is_dir():
            return []
        return [path.resolve() for path in visible_files(self.root, SCENARIO_SUFFIX)]

    def run_files(self) -> list[Path]:
        """What the workbench's run view runs: the eval set files, then the scenario files."""
        return [*self.eval_set_files(), *self.scenario_files()]

    def entries(self) -> list[EvalSetEntry]:
        """Every eval set file with its case count or its problems (loads each file)."""
        return [describe_eval_set(path) for path in self.eval_set_files()]

    def display_path(self, path: Path) -> str:
        """``path`` relative to the workspace root when it is inside it."""
        try:
            return str(path.resolve().relative_to(self.root.resolve()))
        except ValueError:
            return str(path)


def describe_eval_set(path: Path) -> EvalSetEntry:
    """Load ``path`` and report its case count, or every problem that stops it loading."""
    from tenxeval_tui.evaluation.dataset.eval_set import EvalSet
    from tenxeval_tui.evaluation.errors import EvalFileError

    try:
        eval_set = EvalSet.from_file(path)
    except FileNotFoundError:
        return EvalSetEntry(path, problems=(Problem(path=str(path), message="file not found"),))
    except EvalFileError as exc:
        return EvalSetEntry(path, problems=tuple(exc.problems))
    except OSError as exc:
        return EvalSetEntry(path, problems=(Problem(path=str(path), message=str(exc)),))
    return EvalSetEntry(path, case_count=len(eval_set.eval_cases))


def set_ids_of(path: Path) -> frozenset[str] | None:
    """The ids an eval set file answers to (its ``eval_set_id``; a scenario file's
    ``scenario_set_id`` too, which defaults to its name): ``None`` when it cannot be read
    as JSON."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return frozenset()
    ids = [data.get("eval_set_id")]
    if path.name.endswith(SCENARIO_SUFFIX):
        ids.append(data.get("scenario_set_id") or path.name.removesuffix(SCENARIO_SUFFIX))
    return frozenset(found for found in ids if isinstance(found, str))


def find_eval_set_file(
    files: Iterable[Path],
    eval_set_id: str,
    ids_of: Callable[[Path], frozenset[str] | None] = set_ids_of,
) -> Path | None:
    """The first of ``files`` whose ``eval_set_id`` is ``eval_set_id`` (unreadable files skipped).

    Falls back to a file named ``<eval_set_id>.evalset.json`` when no file's id matches. A
    scenario file among ``files`` matches by its ``scenario_set_id``, which defaults to its
    name (``<id>.scenarios.json``). ``ids_of`` reads a file's ids (see :func:`set_ids_of`;
    a caller asking often may remember them).
    """
    by_name: Path | None = None
    for path in files:
        ids = ids_of(path)
        if ids is None:
            continue
        if eval_set_id in ids:
            return path
        if by_name is None and path.name == f"{eval_set_id}.evalset.json":
            by_name = path
    return by_name


def find_settings_file(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` at or above ``start`` that has a ``[tool.tenxeval]`` table."""
    for folder in [start, *start.parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                return candidate  # broken: report it rather than silently look further up
            if "tenxeval" in data.get("tool", {}):
                return candidate
    return None


def load_settings(pyproject: Path) -> tuple[WorkspaceSettings, list[Problem]]:
    """Read ``[tool.tenxeval]`` from ``pyproject``; problems name the file and the key."""
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        # Python 3.12's error carries its place only in the text: "... (at line 3, column 7)".
        found = re.search(r"\s*\(at line (\d+), column (\d+)\)$", str(exc))
        message = str(exc)[: found.start()] if found else str(exc)
        return WorkspaceSettings(), [
            Problem(
                path=str(pyproject),
                line=int(found.group(1)) if found else None,
                column=int(found.group(2)) if found else None,
                message=f"invalid TOML: {message}",
            )
        ]
    except (OSError, UnicodeDecodeError) as exc:
        return WorkspaceSettings(), [Problem(path=str(pyproject), message=str(exc))]
    table = data.get("tool", {}).get("tenxeval", {})
    try:
        return WorkspaceSettings.model_validate(table), []
    except ValidationError as exc:
        text = pyproject.read_text(encoding="utf-8")
        problems = [
            Problem(
                path=str(pyproject),
                line=settings_key_line(text, str(error["loc"][0])) if error["loc"] else None,
                json_path="tool.tenxeval." + ".".join(str(p) for p in error["loc"]),
                message=error["msg"],
            )
            for error in exc.errors()
        ]
        problems.sort(key=lambda p: p.line if p.line is not None else len(text))
        return WorkspaceSettings(), problems


_TABLE_HEADER = re.compile(r"^\s*\[")


def settings_key_line(text: str, key: str) -> int | None:
    """The line (1-based) where ``key`` is set in the ``[tool.tenxeval]`` table of ``text``.

    ``None`` when it is not found there (set in some other way TOML allows).
    """
    key_line = re.compile(
        rf"""^\s*(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*="""
    )
    in_table = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _TABLE_HEADER.match(line):
            in_table = re.match(r"^\s*\[\s*tool\s*\.\s*tenxeval\s*\]", line) is not None
        elif in_table and key_line.match(line):
            return number
    return None


def open_workspace(path: str | Path) -> Workspace:
    """Open a workspace on a folder or one eval set file; never raises for a bad path.

    A scenario file opens the workspace of its folder (the editor edits eval sets only;
    the run view lists the scenario file there)."""
    target = Path(path).expanduser()
    if target.is_file() and is_scenario_path(target):
        root, single = target.parent, None
    elif target.is_file():
        root, single = target.parent, target
    else:
        root, single = target, None
    problems: list[Problem] = []
    if not target.exists():
        problems.append(Problem(path=str(target), message="no such file or folder"))
    start = root.resolve() if root.exists() else Path.cwd()
    settings_file = find_settings_file(start)
    settings = WorkspaceSettings()
    if settings_file is not None:
        settings, settings_problems = load_settings(settings_file)
        problems.extend(settings_problems)
    return Workspace(
        root=root,
        single_file=single,
        settings=settings,
        settings_file=settings_file,
        problems=problems,
    )


__all__ = [
    "EVAL_SET_SUFFIX",
    "RUN_FILE_SUFFIXES",
    "SCENARIO_SUFFIX",
    "EvalSetEntry",
    "Workspace",
    "WorkspaceSettings",
    "describe_eval_set",
    "find_eval_set_file",
    "find_settings_file",
    "is_scenario_path",
    "load_settings",
    "open_workspace",
    "run_files_in",
    "set_ids_of",
    "settings_key_line",
    "visible_files",
]
