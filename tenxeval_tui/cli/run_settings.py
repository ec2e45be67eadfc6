"""The layered settings of ``tenxeval-tui run``: flag > ``TENXEVAL_*`` > project > user > default.

:func:`apply_settings` fills each flag that was not given from the environment, the
project's ``[tool.tenxeval]``, then the user's ``settings.toml`` (see
:mod:`tenxeval_tui.settings.layers`), so the rest of the command reads one value per flag.
A judge model or endpoint set by the project or the user's file is handed to the judges
(and the worker) as their environment variables. A user file that does not load is
warned about, with its place, and ignored: it never stops a run.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, MutableMapping
from pathlib import Path

from tenxeval_tui.evaluation.inert import inert
from tenxeval_tui.settings.layers import Resolved, judge_environment, resolve_settings
from tenxeval_tui.settings.user_settings import UserSettings, load_user_settings, settings_path
from tenxeval_tui.settings.workspace import Workspace, open_workspace

RUN_SETTINGS = (
    "agent",
    "config",
    "concurrency",
    "workers",
    "backend",
    "tools",
    "output_dir",
    "threshold",
    "timeout",
    "repeat",
    "log_level",
    "judge_model",
    "judge_base_url",
)


def load_user_file() -> UserSettings:
    """The user's settings; when the file does not load, its problems are printed as
    warnings on stderr and the defaults are used."""
    path = settings_path()
    user, problems = load_user_settings(path)
    for problem in problems:
        print(inert(f"tenxeval-tui: warning: {problem}", multiline=True), file=sys.stderr)
    if problems:
        print(inert(f"tenxeval-tui: warning: {path}: ignored until it is fixed"), file=sys.stderr)
    return user


def apply_settings(
    args: argparse.Namespace,
    workspace: Workspace,
    environ: MutableMapping[str, str] | None = None,
) -> dict[str, Resolved]:
    """Fill ``args``' unset run flags from the layers below them; returns where each came
    from. Raises :class:`~tenxeval_tui.settings.layers.SettingsError` for a bad
    ``TENXEVAL_*`` value. ``environ`` (default ``os.environ``) receives the judge's model
    and endpoint when the project or the user's file sets them."""
    env = os.environ if environ is None else environ
    # judge_model and judge_base_url are settings with no run flag: not in ``args``
    flags = {name: getattr(args, name, None) for name in RUN_SETTINGS}
    if args.preset:
        flags["config"] = None  # --preset wins over a config from any layer below flags
    resolved = resolve_settings(
        flags, env, workspace, load_user_file(), settings_path(), names=RUN_SETTINGS
    )
    for name in RUN_SETTINGS:
        if name in ("judge_model", "judge_base_url") or not hasattr(args, name):
            continue
        value = resolved[name].value
        if name == "config" and args.preset:
            value = None
        if name in ("config", "output_dir") and value is not None:
            value = str(value)
        setattr(args, name, value)
    env.update(judge_environment(resolved))
    return resolved


def judge_environment_for(folder: Path, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The judges' environment variables that the project at ``folder`` or the user's file
    sets and the environment does not (for the workbench and ``rescore``, whose judges
    read them; a user file that does not load sets none, quietly: the app says why)."""
    env = os.environ if environ is None else environ
    user, _ = load_user_settings(settings_path())
    resolved = resolve_settings(
        {}, env, open_workspace(folder), user, names=("judge_model", "judge_base_url")
    )
    return judge_environment(resolved)


def threshold_for(folder: Path, environ: Mapping[str, str] | None = None) -> float:
    """The threshold ``run`` would use in ``folder`` without ``--threshold`` (for
    ``rescore``); :class:`~tenxeval_tui.settings.layers.SettingsError` for a bad
    ``TENXEVAL_THRESHOLD``."""
    env = os.environ if environ is None else environ
    user, _ = load_user_settings(settings_path())
    found = resolve_settings({}, env, open_workspace(folder), user, names=("threshold",))
    return float(found["threshold"].value)


__all__ = [
    "RUN_SETTINGS",
    "apply_settings",
    "judge_environment_for",
    "load_user_file",
    "threshold_for",
]
