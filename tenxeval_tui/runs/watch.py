"""Change detection for watch mode, shared by the CLI (``run --watch``) and the TUI's run view.

A :class:`ChangeWatcher` watches eval set files (or folders of them), the folder
holding the agent's code and any extra files (an eval config), with
``watchfiles``. Each debounced batch of file changes becomes a
:class:`ChangeBatch` saying what to rerun:

- which eval set files changed (and, for each, which of its cases were added,
  removed or changed: each case's JSON is hashed and compared with the
  previous version of the file) or were removed;
- whether agent code (``*.py`` under the agent's folder) changed;
- whether one of the extra files changed.

:func:`rerun_for` is the one watch policy of both front ends, what a batch reruns:
nothing while a changed eval set does not load; when only the eval config changed and
only in its criteria (or reporters), no case runs: the last results are re-scored
(:func:`rescores_only`); everything (with fresh imports) when agent code or an extra
file changed otherwise; else, in each changed eval set, only the cases that are new or
modified, or that never ran, among those the run's selection chooses.
Editors that save through a temporary file and a rename are handled: what counts is
the state of the files once the batch is over, not the individual events.

This module has no UI import.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenxeval_tui.evaluation.config.eval_config import EvalConfig
from tenxeval_tui.evaluation.dataset.eval_set import EvalCase, EvalSet
from tenxeval_tui.evaluation.dataset.selection import CaseSelection
from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.simulators.scenario_sets import load_run_file
from tenxeval_tui.runs.live_run import case_key
from tenxeval_tui.settings.workspace import RUN_FILE_SUFFIXES, run_files_in

DEFAULT_DEBOUNCE_MS = 400
_IGNORED_DIRS = frozenset(
    {"__pycache__", ".git", ".hg", ".svn", ".tox", ".venv", ".mypy_cache", ".pytest_cache"}
)


def case_hash(case: EvalCase) -> str:
    """A stable hash of a case's JSON content (key order does not matter)."""
    text = json.dumps(case.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class CaseChanges:
    """How the cases of one eval set differ from its previous version (eval ids, in file order)."""

    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    modified: tuple[str, ...] = ()

    @property
    def changed(self) -> tuple[str, ...]:
        """Cases to rerun: added or modified."""
        return self.added + self.modified

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.modified)


def diff_cases(previous: EvalSet | None, current: EvalSet) -> CaseChanges:
    """Which cases of ``current`` are new or changed since ``previous`` (``None``: all are new)."""
    before = {c.eval_id: case_hash(c) for c in previous.eval_cases} if previous else {}
    after = [(c.eval_id, case_hash(c)) for c in current.eval_cases]
    now = {eval_id for eval_id, _ in after}
    return CaseChanges(
        added=tuple(i for i, _ in after if i not in before),
        removed=tuple(i for i in before if i not in now),
        modified=tuple(i for i, h in after if i in before and before[i] != h),
    )


@dataclass(frozen=True, slots=True)
class EvalSetChange:
    """One eval set file that changed: its new content and case changes, or why it fails to load."""

    path: Path
    eval_set: EvalSet | None
    cases: CaseChanges = field(default_factory=CaseChanges)
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True, slots=True)
class ChangeBatch:
    """What one debounced batch of file changes means for a watch-mode run."""

    eval_sets: tuple[EvalSetChange, ...] = ()
    """Eval set files that were added or modified (loaded, or with their problems)."""
    removed_eval_sets: tuple[Path, ...] = ()
    agent_changed: bool = False
    """Whether agent code changed: everything should rerun with fresh imports."""
    extra_changed: tuple[Path, ...] = ()
    """Extra watched files (e.g. the eval config) that changed or were removed."""
    paths: tuple[Path, ...] = ()
    """Every relevant path of the batch."""

    @property
    def rerun_all(self) -> bool:
        """Whether everything must rerun (agent code or an extra file changed)."""
        return self.agent_changed or bool(self.extra_changed)

    @property
    def changed_eval_set_paths(self) -> tuple[Path, ...]:
        """Paths of the eval sets that were added or modified."""
        return tuple(change.path for change in self.eval_sets)

    def __bool__(self) -> bool:
        return bool(self.eval_sets or self.removed_eval_sets or self.rerun_all)


def _load(path: Path) -> tuple[EvalSet | None, tuple[Problem, ...]]:
    try:
        return load_run_file(path), ()
    except FileNotFoundError:
        return None, (Problem(path=str(path), message="file not found"),)
    except EvalFileError as exc:
        return None, tuple(exc.problems)
    except OSError as exc:
        return None, (Problem(path=str(path), message=str(exc)),)


def _is_within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


class ChangeWatcher:
    """Watches eval sets, agent code and extra files; yields a :class:`ChangeBatch` per change.

    ``eval_paths`` are eval set files (any name) or folders (searched for
    ``*.evalset.json``, recursively). ``agent_folder`` is where the agent's
    ``*.py`` files live (``None``: none yet; :meth:`add_agent_folder` adds more, one
    per agent). ``extra_files``
    are other files whose change means "rerun everything". ``previous`` seeds
    the eval sets to diff against; eval sets not in it are loaded when the
    watcher is made (call :meth:`remember` after a run to move the baseline).
    ``debounce_ms`` is how long changes are grouped into one batch.
    """

    def __init__(
        self,
        eval_paths: Iterable[str | Path],
        agent_folder: str | Path | None = None,
        *,
        extra_files: Iterable[str | Path] = (),
        previous: Mapping[Path, EvalSet] | None = None,
        debounce_ms: int = DEFAULT_DEBOUNCE_MS,
        force_polling: bool | None = None,
    ) -> None:
        self.eval_files: set[Path] = set()
        self.eval_folders: set[Path] = set()
        for raw in eval_paths:
            path = Path(raw).resolve()
            (self.eval_folders if path.is_dir() else self.eval_files).add(path)
        self.agent_folders: list[Path] = []
        if agent_folder is not None:
            self.add_agent_folder(agent_folder)
        self.extra_files = {Path(p).resolve() for p in extra_files}
        self.debounce_ms = debounce_ms
        self.force_polling = force_polling
        self._known: dict[Path, EvalSet] = {
            Path(p).resolve(): s for p, s in (previous or {}).items()
        }
        for path in self._current_eval_files():
            if path not in self._known:
                eval_set, _ = _load(path)
                if eval_set is not None:
                    self._known[path] = eval_set

    # -- what is watched -------------------------------------------------

    def add_agent_folder(self, folder: str | Path) -> None:
        """Watch the ``*.py`` files under ``folder`` too (another agent's code)."""
        path = Path(folder).resolve()
        if path not in self.agent_folders:
            self.agent_folders.append(path)

    def named_agents(self) -> set[str]:
        """The agents (``MODULE:ATTR``) the watched eval sets name in ``metadata.agent``."""
        from tenxeval_tui.evaluation.targets.loader import EVAL_SET_AGENT_KEY

        named = (s.metadata.get(EVAL_SET_AGENT_KEY) for s in self._known.values())
        return {spec.strip() for spec in named if isinstance(spec, str) and spec.strip()}

    def _current_eval_files(self) -> list[Path]:
        found = {p for p in self.eval_files if p.is_file()}
        for folder in self.eval_folders:
            found.update(
                p.resolve()
                for p in run_files_in(folder)
                if not _IGNORED_DIRS.intersection(p.relative_to(folder).parts)
            )
        return sorted(found)

    def roots(self) -> list[Path]:
        """The folders handed to ``watchfiles`` (files are watched through their folder,
        so that a save by rename is still seen)."""
        wanted = {*self.eval_folders, *(p.parent for p in self.eval_files)}
        wanted.update(p.parent for p in self.extra_files)
        wanted.update(self.agent_folders)
        existing = sorted(p for p in wanted if p.is_dir())
        # Drop folders inside another watched folder (watching is recursive).
        return [p for p in existing if not any(o != p and _is_within(p, o) for o in existing)]

    def is_eval_set(self, path: Path) -> bool:
        """Whether ``path`` is (or would be) one of the watched eval set files."""
        if path in self.eval_files:
            return True
        if not path.name.endswith(RUN_FILE_SUFFIXES):
            return False
        return any(
            _is_within(path, folder)
            and not _IGNORED_DIRS.intersection(path.relative_to(folder).parts)
            for folder in self.eval_folders
        )

    def is_agent_code(self, path: Path) -> bool:
        """Whether ``path`` is a Python file of an agent."""
        return path.suffix == ".py" and any(
            _is_within(path, folder)
            and not _IGNORED_DIRS.intersection(path.relative_to(folder).parts)
            for folder in self.agent_folders
        )

    def _relevant(self, path: Path) -> bool:
        return path in self.extra_files or self.is_eval_set(path) or self.is_agent_code(path)

    def watch_filter(self, _change: Any, raw_path: str) -> bool:
        """The ``watchfiles`` filter: only paths that can matter get through."""
        return self._relevant(Path(raw_path))

    # -- classification ----------------------------------------------------

    def remember(self, eval_sets: Mapping[Path, EvalSet]) -> None:
        """Use ``eval_sets`` as the versions the next changes are compared with."""
        self._known.update({Path(p).resolve(): s for p, s in eval_sets.items()})

    def classify(self, changed_paths: Iterable[str | Path]) -> ChangeBatch:
        """What a batch of changed paths means; updates the remembered eval sets.

        Only the state of each file now matters (present: changed; absent:
        removed), so a save through a temporary file and a rename counts once.
        """
        paths = sorted({Path(p).resolve() for p in changed_paths})
        relevant = [p for p in paths if self._relevant(p)]
        eval_sets: list[EvalSetChange] = []
        removed: list[Path] = []
        for path in relevant:
            if not self.is_eval_set(path):
                continue
            if not path.exists():
                if self._known.pop(path, None) is not None or path in self.eval_files:
                    removed.append(path)
                continue
            eval_set, problems = _load(path)
            if eval_set is None:
                eval_sets.append(EvalSetChange(path, None, problems=problems))
                continue
            changes = diff_cases(self._known.get(path), eval_set)
            self._known[path] = eval_set
            eval_sets.append(EvalSetChange(path, eval_set, cases=changes))
        return ChangeBatch(
            eval_sets=tuple(eval_sets),
            removed_eval_sets=tuple(removed),
            agent_changed=any(self.is_agent_code(p) for p in relevant),
            extra_changed=tuple(p for p in relevant if p in self.extra_files),
            paths=tuple(relevant),
        )

    # -- watching ------------------------------------------------------------

    def _watch_kwargs(self) -> dict[str, Any]:
        return {
            "watch_filter": self.watch_filter,
            "debounce": self.debounce_ms,
            "step": min(50, self.debounce_ms),
            "force_polling": self.force_polling,
        }

    async def awatch(self, stop_event: Any = None) -> AsyncIterator[ChangeBatch]:
        """Yield a batch per debounced change (empty batches are skipped) until ``stop_event``
        (an ``asyncio.Event``) is set."""
        import watchfiles

        async for changes in watchfiles.awatch(
            *self.roots(), stop_event=stop_event, **self._watch_kwargs()
        ):
            batch = self.classify(path for _, path in changes)
            if batch:
                yield batch

    def watch(self, stop_event: Any = None) -> Iterator[ChangeBatch]:
        """Blocking :meth:`awatch`: ``stop_event`` is a ``threading.Event``; Ctrl-C raises
        ``KeyboardInterrupt``."""
        import watchfiles

        for changes in watchfiles.watch(
            *self.roots(), stop_event=stop_event, raise_interrupt=True, **self._watch_kwargs()
        ):
            batch = self.classify(path for _, path in changes)
            if batch:
                yield batch


@dataclass(frozen=True, slots=True)
class Rerun:
    """What one batch of changes reruns (:func:`rerun_for`)."""

    problems: tuple[Problem, ...] = ()
    """Why a changed eval set does not load: nothing reruns until it does."""
    everything: bool = False
    """Agent code or an extra file changed: every selected case reruns, imported afresh."""
    rescore: bool = False
    """Only the config's criteria changed: the last results are scored again, none runs."""
    only: dict[Path, list[str]] = field(default_factory=dict)
    """Eval set file -> the eval ids to rerun from it, in file order."""
    keys: frozenset[str] = frozenset()
    """The :func:`~tenxeval_tui.runs.live_run.case_key` of every case in :attr:`only`."""
    gone: frozenset[str] = frozenset()
    """Keys of earlier cases no longer in their (changed) file, or no longer selected."""


def rescores_only(before: EvalConfig, after: EvalConfig) -> bool:
    """Whether a run with ``after`` would differ from one with ``before`` only in its scores:
    the configs differ in their criteria (or reporters) alone."""
    same = {"criteria", "reporter"}
    return before.model_dump(exclude=same) == after.model_dump(exclude=same)


def rerun_for(
    batch: ChangeBatch,
    selection: CaseSelection,
    previous: Mapping[str, Path],
    configs: tuple[EvalConfig, EvalConfig] | None = None,
) -> Rerun:
    """What ``batch`` reruns of a watched run choosing cases by ``selection``.

    ``previous`` maps the key of every case that has a result to its eval set file: a
    selected case of a changed file reruns when it is new or modified, or not in it.
    ``configs`` are the run's config before and after the batch, when the front end can
    re-score: a batch that changed only the config, and only its criteria, asks for that.
    """
    problems = tuple(p for change in batch.eval_sets for p in change.problems)
    if problems:
        return Rerun(problems=problems)
    only_config = batch.extra_changed and not batch.agent_changed and not batch.eval_sets
    if only_config and configs is not None and rescores_only(*configs):
        return Rerun(rescore=True)
    if batch.rerun_all:
        return Rerun(everything=True)
    only: dict[Path, list[str]] = {}
    keys: set[str] = set()
    current: set[str] = set()
    for change in batch.eval_sets:
        if change.eval_set is None:
            continue
        set_id = change.eval_set.eval_set_id
        changed = set(change.cases.changed)
        chosen = {
            c.eval_id: case_key(set_id, c.eval_id)
            for c in selection.cases(change.eval_set.eval_cases)
        }
        current.update(chosen.values())
        wanted = [i for i, key in chosen.items() if i in changed or key not in previous]
        if wanted:
            only[change.path] = wanted
            keys.update(chosen[i] for i in wanted)
    files = {change.path.resolve() for change in batch.eval_sets}
    gone = {key for key, path in previous.items() if path.resolve() in files and key not in current}
    return Rerun(only=only, keys=frozenset(keys), gone=frozenset(gone))


__all__ = [
    "DEFAULT_DEBOUNCE_MS",
    "CaseChanges",
    "ChangeBatch",
    "ChangeWatcher",
    "EvalSetChange",
    "Rerun",
    "case_hash",
    "diff_cases",
    "rerun_for",
    "rescores_only",
]
