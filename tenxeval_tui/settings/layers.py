"""Where each setting comes from: flag > environment > project > user file > default.

Every setting that more than one place may set is declared once in :data:`SETTINGS`: its
command-line flag, its ``TENXEVAL_*`` environment variable, its key in the project's
``[tool.tenxeval]`` table and its key in the user's ``settings.toml``
(:mod:`tenxeval_tui.settings.user_settings`). :func:`resolve_settings` picks, for each,
the first place that sets it and says which (:class:`Resolved`), so a front end can
tell the user where a value came from. No UI import.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenxeval_tui.settings.user_settings import BACKENDS, UserSettings, check_log_level
from tenxeval_tui.settings.workspace import Workspace


class SettingsError(ValueError):
    """A setting's value is wrong where it was set; the message names the place."""


def _text(raw: str) -> str:
    value = raw.strip()
    if not value:
        raise ValueError("is empty")
    return value


def _positive_int(raw: str) -> int:
    try:
        value = int(raw.strip())
    except ValueError:
        raise ValueError(f"{raw!r} is not a whole number") from None
    if value < 1:
        raise ValueError(f"{value} is not at least 1")
    return value


def _positive_float(raw: str) -> float:
    try:
        value = float(raw.strip())
    except ValueError:
        raise ValueError(f"{raw!r} is not a number") from None
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"{raw} is not a number more than 0")
    return value


def _rate(raw: str) -> float:
    try:
        value = float(raw.strip())
    except ValueError:
        raise ValueError(f"{raw!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{raw} is not between 0 and 1")
    return value


def _workers(raw: str) -> int | str:
    if raw.strip().lower() == "auto":
        return "auto"
    try:
        return _positive_int(raw)
    except ValueError as exc:
        raise ValueError(f'{exc} (nor "auto")') from None


def _backend(raw: str) -> str:
    value = raw.strip().lower()
    if value not in BACKENDS:
        raise ValueError(f"{raw!r} is not a backend ({', '.join(BACKENDS)})")
    return value


def _level(raw: str) -> str:
    level = check_log_level(raw)
    assert level is not None
    return level


def _flag(raw: str) -> bool:
    value = raw.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{raw!r} is not true or false (1/0, yes/no, on/off)")


def _tool_mode(raw: str) -> str:
    """A tool mode (:func:`~tenxeval_tui.evaluation.tools.settings.parse_tool_mode`), its
    module (pydantic) imported only when the setting is read: ``run`` reads its settings
    before it imports pydantic, to tell its worker child the agent sooner (issue #38)."""
    from tenxeval_tui.evaluation.tools.settings import parse_tool_mode

    return parse_tool_mode(raw)


def _path(raw: str) -> Path:
    return Path(_text(raw)).expanduser()


@dataclass(frozen=True, slots=True)
class Setting:
    """One layered setting and the places that may set it."""

    name: str
    """Its name: the ``argparse`` destination of its flag, and its key in ``[tool.tenxeval]``."""
    env: str
    """Its environment variable."""
    parse: Callable[[str], Any]
    """The environment variable's text to a value; ``ValueError`` says what is wrong."""
    flag: str | None = None
    project: bool = True
    """Whether ``[tool.tenxeval]`` has it (under :attr:`name`)."""
    user: str | None = None
    """Its dotted key in the user's file (``run.threshold``), if it has one."""
    default: Any = None


SETTINGS: tuple[Setting, ...] = (
    Setting("agent", "TENXEVAL_AGENT", _text, flag="--agent"),
    Setting("config", "TENXEVAL_CONFIG", _path, flag="--config"),
    Setting(
        "concurrency",
        "TENXEVAL_CONCURRENCY",
        _positive_int,
        "--concurrency",
        user="run.concurrency",
    ),
    Setting(
        "output_dir",
        "TENXEVAL_OUTPUT_DIR",
        _path,
        "--output-dir",
        user="run.output_dir",
        default=Path("eval_reports"),
    ),
    Setting(
        "threshold", "TENXEVAL_THRESHOLD", _rate, "--threshold", user="run.threshold", default=1.0
    ),
    Setting("workers", "TENXEVAL_WORKERS", _workers, "--workers", user="run.workers"),
    Setting(
        "backend",
        "TENXEVAL_BACKEND",
        _backend,
        "--backend",
        user="run.backend",
        default="process",
    ),
    Setting("tools", "TENXEVAL_TOOLS", _tool_mode, "--tools", default="live"),
    Setting("timeout", "TENXEVAL_TIMEOUT", _positive_float, "--timeout", user="run.timeout"),
    Setting("repeat", "TENXEVAL_REPEAT", _positive_int, "--repeat", user="run.repeat"),
    Setting("log_level", "TENXEVAL_LOG_LEVEL", _level, "--log-level", user="run.log_level"),
    Setting("judge_model", "TENXEVAL_JUDGE_MODEL", _text, user="judge.model"),
    Setting("judge_base_url", "TENXEVAL_JUDGE_BASE_URL", _text, user="judge.base_url"),
    Setting("theme", "TENXEVAL_THEME", _text, project=False, user="theme"),
    # a person's own, never the project's: who labels verdicts (default: the login name)
    Setting("reviewer", "TENXEVAL_REVIEWER", _text, project=False, user="review.reviewer"),
    Setting(
        "review_show_verdicts",
        "TENXEVAL_REVIEW_SHOW_VERDICTS",
        _flag,
        project=False,
        user="review.show_verdicts",
        default=False,
    ),
)
BY_NAME = {setting.name: setting for setting in SETTINGS}


@dataclass(frozen=True, slots=True)
class Resolved:
    """A setting's value and the place it came from."""

    value: Any
    layer: str
    """``flag``, ``env``, ``project``, ``user`` or ``default``."""
    where: str
    """The place, for people: ``--threshold``, ``$TENXEVAL_THRESHOLD``,
    ``/p/pyproject.toml [tool.tenxeval] threshold``, ``/u/settings.toml run.threshold``."""


def _user_value(user: UserSettings, dotted: str) -> Any:
    value: Any = user
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


def resolve(
    setting: Setting,
    flag_value: Any,
    environ: Mapping[str, str],
    workspace: Workspace | None,
    user: UserSettings,
    user_file: Path | None = None,
) -> Resolved:
    """``setting``'s value from the first place that sets it; :class:`SettingsError` when
    its environment variable does not parse. A project path is made absolute against the
    folder of its ``pyproject.toml``."""
    if setting.flag is not None and flag_value is not None:
        return Resolved(flag_value, "flag", setting.flag)
    raw = environ.get(setting.env)
    if raw is not None and raw.strip():
        try:
            return Resolved(setting.parse(raw), "env", f"${setting.env}")
        except ValueError as exc:
            raise SettingsError(f"${setting.env}: {exc}") from None
    if (
        setting.project
        and workspace is not None
        and setting.name in workspace.settings.model_fields_set
    ):
        value = getattr(workspace.settings, setting.name)
        if value is not None:
            if isinstance(value, Path):
                value = workspace.resolve(value)
            where = f"{workspace.settings_file} [tool.tenxeval] {setting.name}"
            return Resolved(value, "project", where)
    if setting.user is not None:
        value = _user_value(user, setting.user)
        if value is not None:
            return Resolved(value, "user", f"{user_file or 'settings.toml'} {setting.user}")
    return Resolved(setting.default, "default", "default")


def resolve_settings(
    flags: Mapping[str, Any],
    environ: Mapping[str, str],
    workspace: Workspace | None,
    user: UserSettings,
    user_file: Path | None = None,
    names: tuple[str, ...] | None = None,
) -> dict[str, Resolved]:
    """Every setting of :data:`SETTINGS` (or those ``names``) resolved; ``flags`` maps a
    setting's name to its flag's value (``None``: not given)."""
    chosen = SETTINGS if names is None else tuple(BY_NAME[name] for name in names)
    return {
        setting.name: resolve(setting, flags.get(setting.name), environ, workspace, user, user_file)
        for setting in chosen
    }


def report_folder(
    workspace: Workspace, user: UserSettings, environ: Mapping[str, str] | None = None
) -> Path:
    """Where reports go without a flag: ``$TENXEVAL_OUTPUT_DIR`` or the user's
    ``run.output_dir`` (relative to the current folder, as ``run`` reads them), else the
    project's ``output_dir`` or the default (relative to the project's folder). A variable
    that does not parse is passed over here (``run`` names it)."""
    import os

    env = os.environ if environ is None else environ
    try:
        found = resolve(BY_NAME["output_dir"], None, env, workspace, user)
    except SettingsError:
        found = resolve(BY_NAME["output_dir"], None, {}, workspace, user)
    path = Path(found.value)
    if found.layer in ("project", "default"):
        return workspace.resolve(path)
    return path if path.is_absolute() else Path.cwd() / path


def judge_environment(resolved: Mapping[str, Resolved]) -> dict[str, str]:
    """The environment variables the judges read (``TENXEVAL_JUDGE_MODEL``,
    ``TENXEVAL_JUDGE_BASE_URL``) for a judge model or endpoint that the project or the user's
    file sets; empty when the environment sets them already or nothing does."""
    found: dict[str, str] = {}
    for name in ("judge_model", "judge_base_url"):
        item = resolved.get(name)
        if item is not None and item.layer in ("project", "user"):
            found[BY_NAME[name].env] = str(item.value)
    return found


__all__ = [
    "BY_NAME",
    "SETTINGS",
    "Resolved",
    "Setting",
    "SettingsError",
    "judge_environment",
    "report_folder",
    "resolve",
    "resolve_settings",
]
