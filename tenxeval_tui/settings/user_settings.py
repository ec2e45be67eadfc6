"""The user's own settings: one TOML file in the platform's config folder.

The file is ``settings.toml`` in ``$TENXEVAL_CONFIG_DIR`` when that is set, else in the
platform's user config folder for ``tenxeval-tui`` (``platformdirs``: on Linux
``$XDG_CONFIG_HOME/tenxeval-tui``, else ``~/.config/tenxeval-tui``; on macOS
``~/Library/Application Support/tenxeval-tui``; on Windows ``%LOCALAPPDATA%\\tenxeval-tui``)::

    theme = "nord"                    # written by the workbench when the theme changes

    [judge]
    model = "gpt-4o-mini"             # TENXEVAL_JUDGE_MODEL when neither env nor project set it
    base_url = "http://localhost:11434/v1"

    [keys]                            # key rebindings: binding id = "key[,key...]"
    "workbench.reports" = "f3"

    [run]                             # defaults of `tenxeval-tui run` (below flags, env, project)
    concurrency = 8
    threshold = 0.9
    log_level = "info"
    workers = "auto"                  # or a number: worker processes (run --workers)
    backend = "process"               # or "ray" (run --backend)

    [review]                          # reviewing verdicts (review mode, `agreement`)
    reviewer = "alice"                # the name on your labels (below TENXEVAL_REVIEWER;
                                      # default: your login name)
    show_verdicts = false             # true: the judge's verdict shows before you label

    [last_run]                        # written by the run view: its options when last run
    agent = "my_agent:graph"          # offered again in this workspace only
    workspace = "/home/me/project"
    concurrency = 8
    preset = "default"

A file that cannot be read or does not validate never stops a front end: the loader
returns the defaults with the problems, each naming the file, the line and the key.
Writes keep the rest of the file as the user wrote it (comments included, ``tomlkit``) and
are atomic. No UI import.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tenxeval_tui.evaluation.errors import Problem

ENV_CONFIG_DIR = "TENXEVAL_CONFIG_DIR"
APP_NAME = "tenxeval-tui"
FILE_NAME = "settings.toml"
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
BACKENDS = ("process", "ray")
"""Where a run's workers run: local processes, or Ray actors."""
Backend = Literal["process", "ray"]
Workers = int | Literal["auto"]
"""A ``workers`` setting: a number of workers, or ``"auto"`` (one per core)."""


def check_log_level(value: str | None) -> str | None:
    """``value`` lower-cased when it is a logging level name; ``ValueError`` otherwise."""
    if value is None:
        return None
    level = value.strip().lower()
    if level not in LOG_LEVELS:
        raise ValueError(f"{value!r} is not a log level ({', '.join(LOG_LEVELS)})")
    return level


def check_workers(value: Any) -> Any:
    """``value`` when it is a ``workers`` setting (``None``, ``"auto"``, a whole number of at
    least 1); ``ValueError`` saying what is wrong otherwise."""
    if value is None or value == "auto" or (type(value) is int and value >= 1):
        return value
    raise ValueError(f'{value!r} is not a number of at least 1 or "auto"')


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JudgeDefaults(_Table):
    """``[judge]``: the judge model and endpoint when neither the environment nor the
    project names them."""

    model: str | None = Field(default=None, min_length=1)
    base_url: str | None = Field(default=None, min_length=1)


class RunDefaults(_Table):
    """``[run]``: defaults of the run flags, below flags, environment and project."""

    concurrency: int | None = Field(default=None, ge=1)
    output_dir: Path | None = None
    threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    timeout: float | None = Field(default=None, gt=0)
    repeat: int | None = Field(default=None, ge=1)
    log_level: str | None = None
    workers: Workers | None = None
    backend: Backend | None = None

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str | None) -> str | None:
        return check_log_level(value)

    @field_validator("workers", mode="before")
    @classmethod
    def _count_or_auto(cls, value: Any) -> Any:
        return check_workers(value)


class ReviewDefaults(_Table):
    """``[review]``: who labels verdicts, and whether the judge's verdict shows at once."""

    reviewer: str | None = Field(default=None, min_length=1)
    show_verdicts: bool | None = None


class LastRun(_Table):
    """``[last_run]``: the run view's options when it last started a run."""

    agent: str | None = None
    workspace: str | None = None
    """The folder the agent was run in: the agent is offered again only there."""
    concurrency: int | None = Field(default=None, ge=1)
    preset: str | None = None


class UserSettings(_Table):
    """The whole file, typed; every key is optional."""

    theme: str | None = Field(default=None, min_length=1)
    judge: JudgeDefaults = Field(default_factory=JudgeDefaults)
    keys: dict[str, str] = Field(default_factory=dict)
    run: RunDefaults = Field(default_factory=RunDefaults)
    review: ReviewDefaults = Field(default_factory=ReviewDefaults)
    last_run: LastRun = Field(default_factory=LastRun)


def config_dir() -> Path:
    """The folder of the user's settings: ``$TENXEVAL_CONFIG_DIR``, else the platform's."""
    explicit = os.environ.get(ENV_CONFIG_DIR)
    if explicit:
        return Path(explicit)
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def settings_path() -> Path:
    """The user's settings file (it need not exist)."""
    return config_dir() / FILE_NAME


_TOML_PLACE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def load_user_settings(path: Path | None = None) -> tuple[UserSettings, list[Problem]]:
    """The settings in ``path`` (default: :func:`settings_path`), or the defaults and the
    problems that stopped them loading; never raises. A missing file is no problem."""
    path = settings_path() if path is None else path
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return UserSettings(), []
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        return UserSettings(), [Problem(path=str(path), message=f"cannot read: {reason}")]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = _TOML_PLACE.search(str(exc))
        message = str(exc)[: found.start()] if found else str(exc)
        return UserSettings(), [
            Problem(
                path=str(path),
                line=int(found.group(1)) if found else None,
                column=int(found.group(2)) if found else None,
                message=f"invalid TOML: {message}",
            )
        ]
    try:
        return UserSettings.model_validate(data), []
    except ValidationError as exc:
        problems = [
            Problem(
                path=str(path),
                line=key_line(text, tuple(str(p) for p in error["loc"])),
                json_path=".".join(str(p) for p in error["loc"]),
                message=error["msg"],
            )
            for error in exc.errors()
        ]
        return UserSettings(), problems


_HEADER = re.compile(r"^\s*\[\s*([^\]]*?)\s*\]\s*(?:#.*)?$")


def key_line(text: str, loc: tuple[str, ...]) -> int | None:
    """The line (1-based) where the key at ``loc`` (``("run", "threshold")``) is set in the
    TOML ``text``, else the line of its table; ``None`` when neither is found."""
    if not loc:
        return None
    *tables, key = loc
    wanted = ".".join(tables)
    key_pattern = re.compile(
        rf"""^\s*(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*="""
    )
    table = ""
    table_line: int | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = re.sub(r"\s*\.\s*", ".", header.group(1))
            if table == ".".join(loc):
                table_line = number
            continue
        if table == wanted and key_pattern.match(line):
            return number
    if table_line is None and tables:
        return key_line(text, tuple(tables))
    return table_line


def save_user_settings(updates: dict[str, Any], path: Path | None = None) -> Problem | None:
    """Set the dotted keys of ``updates`` (``{"theme": "nord", "last_run.agent": "a:b"}``) in
    the user's file, keeping the rest of it as written; a value ``None`` removes its key.

    Returns the problem when the file cannot be read or written (a file that is not valid
    TOML is left alone rather than overwritten); ``None`` when saved.
    """
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    from tenxeval_tui.evaluation.files.fileio import atomic_write_text

    path = settings_path() if path is None else path
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        document = tomlkit.parse(text)
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        return Problem(path=str(path), message=f"cannot read: {reason}")
    except TOMLKitError as exc:
        return Problem(path=str(path), message=f"invalid TOML, not changed: {exc}")
    for dotted, value in updates.items():
        *tables, key = dotted.split(".")
        container: Any = document
        for name in tables:
            if name not in container:
                container[name] = tomlkit.table()
            container = container[name]
        if value is None:
            container.pop(key, None)
        else:
            container[key] = str(value) if isinstance(value, Path) else value
    try:
        atomic_write_text(path, tomlkit.dumps(document))
    except OSError as exc:
        return Problem(path=str(path), message=f"cannot write: {exc.strerror or exc}")
    return None


__all__ = [
    "BACKENDS",
    "ENV_CONFIG_DIR",
    "FILE_NAME",
    "LOG_LEVELS",
    "Backend",
    "JudgeDefaults",
    "LastRun",
    "ReviewDefaults",
    "RunDefaults",
    "UserSettings",
    "Workers",
    "check_log_level",
    "check_workers",
    "config_dir",
    "key_line",
    "load_user_settings",
    "save_user_settings",
    "settings_path",
]
