"""Reading and writing the JSON files of the core: precise errors, atomic writes."""

from __future__ import annotations

import gc
import json
import os
import re
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from tenxeval_tui.evaluation.errors import EvalFileError, Problem
from tenxeval_tui.evaluation.files.jsonlocate import PathPart, format_path, locate_many
from tenxeval_tui.evaluation.files.jsonreasons import (
    big_int_problem,
    is_digit_limit_error,
    parser_refusals,
    too_deep_problem,
)
from tenxeval_tui.evaluation.files.textfiles import read_text_file

ExtraChecks = Callable[[Any], list[tuple[list[PathPart], str]]]
KeyFor = Callable[[dict[str, Any], str], str | None]
Prepare = Callable[[Any], bool]


_gc_pause_lock = threading.Lock()
# gc.get_freeze_count() walks every frozen object (tens of milliseconds once a long run
# has been frozen): our own freezes are noted in a flag, so it is not asked after them.
_FROZEN_AT_IMPORT = gc.get_freeze_count()
_frozen_since_import = False
_gc_pauses = 0
_gc_was_enabled = False


def freeze_alive() -> None:
    """``gc.freeze()``: every object alive now is left out of later collections.

    Use this, not ``gc.freeze()`` itself, so that :func:`built_long_lived` knows that
    there are frozen objects to leave alone without counting them.
    """
    global _frozen_since_import
    with _gc_pause_lock:
        gc.freeze()
        _frozen_since_import = True


@contextmanager
def gc_paused(*, freeze: bool = False) -> Iterator[None]:
    """Hold off Python's cycle collector while a large tree of objects is built.

    Parsing a big JSON file allocates hundreds of thousands of dicts and lists at once;
    with the collector on, those allocations trigger collections that walk the whole
    growing tree again and again, which doubles the parse time. Parsed JSON holds no
    cycles, so nothing is lost by collecting afterwards. Pauses may nest and overlap
    across threads: the collector comes back on when the last one ends (and only if it
    was on before the first).

    With ``freeze``, for objects that will live long (the open eval set): every object
    alive when the pause ends is left out of later collections (``gc.freeze``), which
    would otherwise walk all of them again, a tenth of a second each for 10,000 cases.
    Objects freed by reference counting (acyclic JSON, once replaced) are still freed;
    the previous freeze is undone when the pause starts, so cycles among objects frozen
    then are collected again.
    """
    global _gc_pauses, _gc_was_enabled, _frozen_since_import
    with _gc_pause_lock:
        if freeze:
            gc.unfreeze()
        if _gc_pauses == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pauses += 1
    try:
        yield
    finally:
        with _gc_pause_lock:
            if freeze:
                gc.freeze()
                _frozen_since_import = True
            _gc_pauses -= 1
            if _gc_pauses == 0 and _gc_was_enabled:
                gc.enable()


@contextmanager
def built_long_lived() -> Iterator[None]:
    """Hand the objects built inside to the oldest GC generation without scanning them.

    Pydantic builds a big file's models in one C call, so Python's young-generation
    collection runs only afterwards and then scans every new object at once (a fifth
    of a second for a 10,000-case eval set), to find what is obviously alive: the
    result. Here the collector is paused meanwhile, and then everything goes straight
    to the oldest generation (``gc.freeze()`` then ``gc.unfreeze()``, two list moves):
    full collections still see it, as they see any long-lived data, and nothing stays
    frozen. When something has frozen objects since this module was imported (the
    interpreter may freeze a few of its own at start-up), this leaves them alone and
    only pauses the collector. Freezes of this package (:func:`freeze_alive`,
    ``gc_paused(freeze=True)``: the run view after a run, the open eval set) are known
    without counting the frozen objects, which walks every one of them.
    """
    with gc_paused():
        yield
        with _gc_pause_lock:
            if not _frozen_since_import and gc.get_freeze_count() <= _FROZEN_AT_IMPORT:
                gc.freeze()
                gc.unfreeze()


STALE_TEMPORARY_SECONDS = 60.0
"""A temporary file of a save older than this was left by a save that was killed."""


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Remove the temporary files of saves of ``path`` that were killed before their rename.

    Only files of our own naming (``.NAME.xxxxxxxx.tmp``, as :func:`atomic_write_bytes`
    makes them) older than :data:`STALE_TEMPORARY_SECONDS` go: a save in progress in
    another process keeps its own. Returns what was removed; failures are ignored.
    """
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp")
    removed: list[Path] = []
    try:
        candidates = list(path.parent.glob(f".{glob_escape(path.name)}.*.tmp"))
    except OSError:
        return removed
    now = time.time()
    for candidate in candidates:
        if not pattern.fullmatch(candidate.name):
            continue
        try:
            info = candidate.lstat()
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_TEMPORARY_SECONDS:
                candidate.unlink()
                removed.append(candidate)
        except OSError:
            continue
    return removed


def glob_escape(name: str) -> str:
    """``name`` with the glob wildcards ``*?[`` matched literally."""
    return re.sub(r"([*?\[])", r"[\1]", name)


def atomic_write_bytes(path: Path, data: bytes | Iterable[bytes]) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half.

    ``data`` may come in pieces (an iterable of bytes), written as they come.

    The data goes to a temporary file in the same folder, is flushed to disk and then
    renamed over the target; a failure part way leaves the old file as it was. Temporary
    files a killed save left are removed first (:func:`remove_stale_temporaries`). The file
    keeps the mode of the one it replaces; a new one gets the usual rw-r--r-- (the
    temporary file is private).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(path)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            for piece in [data] if isinstance(data, bytes | bytearray) else data:
                handle.write(piece)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, path.stat().st_mode & 0o7777 if path.exists() else 0o644)
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings replaced by U+FFFD.

    Agents can return such text (bytes decoded with ``surrogateescape``, JSON with
    ``"\\ud83d"``), which UTF-8 cannot encode; writers fall back to this.
    """
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {without_surrogates(k): without_surrogates(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [without_surrogates(v) for v in value]
    return value


def atomic_write_text(path: Path, text: str) -> None:
    """:func:`atomic_write_bytes` for UTF-8 text (lone surrogates become U+FFFD)."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = without_surrogates(text).encode("utf-8")
    atomic_write_bytes(path, data)


def read_text(path: Path) -> str:
    """The file's text (see :func:`~tenxeval_tui.evaluation.files.textfiles.read_text_file`).

    ``FileNotFoundError`` names the path; a folder, FIFO or device, a file over the
    size cap and bad UTF-8 (at its line and column) are an :class:`EvalFileError`.
    """
    return read_text_file(Path(path))


def parse_json(path: Path, text: str) -> Any:
    """``text`` parsed; bad JSON is an :class:`EvalFileError` naming ``path``, line and column.

    JSON nested deeper than the parser goes (a few kB of ``[``) raises
    ``RecursionError``, no ``ValueError``, and an integer literal of more digits than
    Python converts a ``ValueError`` with no place: each is a problem of the file like
    any other, at the line and column of the number or of the bracket that nests too deep.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        problem = Problem(
            path=str(path), line=exc.lineno, column=exc.colno, message=f"invalid JSON: {exc.msg}"
        )
    except RecursionError:
        problem = too_deep_problem(str(path), text)
    except ValueError as exc:
        if not is_digit_limit_error(exc):
            raise
        problem = big_int_problem(str(path), text)
    raise EvalFileError([problem]) from None


def _resolve_loc(data: Any, loc: tuple[Any, ...], key_for: KeyFor | None = None) -> list[PathPart]:
    """Keep the parts of a pydantic error location that are real keys or indexes in ``data``.

    ``key_for(node, part)`` names the key of ``node`` that a model read as field
    ``part`` (a key a validator renamed), so that the path says what the file says.
    """
    path: list[PathPart] = []
    node = data
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part not in node and key_for:
            part = key_for(node, part) or part
        if isinstance(node, dict) and isinstance(part, str) and part in node:  # noqa: SIM114
            node = node[part]
            path.append(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
            path.append(part)
        elif isinstance(node, dict) and isinstance(part, str) and not path_has_union_tag(part):
            path.append(part)  # a missing key: name it, there is nothing deeper
            break
    return path


def path_has_union_tag(part: str) -> bool:
    """Pydantic inserts union member names (``str``, ``list[...]``) into locations."""
    return part in {"str", "int", "float", "bool", "dict", "list"} or "[" in part


def _message(error: Any) -> str:
    kind = error.get("type", "")
    if kind == "missing":
        return "required field is missing"
    message = str(error.get("msg", "invalid value"))
    inp = error.get("input")
    if kind.endswith("_type") and not isinstance(inp, dict | list):
        message += f" (got {json.dumps(inp)[:60]})"
    return message


LOCATED_BY_CHECKS = frozenset({"duplicate_eval_id", "located_by_checks"})
"""Error types a model raises for problems its file's ``extra_checks`` also find and
place exactly: when those checks found something, the model's unplaced error is dropped."""


def read_json_model[M: BaseModel](
    model: type[M],
    path: Path,
    *,
    prepare: Prepare | None = None,
    extra_checks: ExtraChecks | None = None,
    key_for: KeyFor | None = None,
) -> M:
    """Load ``path`` as ``model``: fast when the file is good, every problem named when not.

    ``prepare`` may rewrite the parsed JSON in place (returning whether it did)
    before validation; it only runs when the fast path fails. ``key_for`` maps a
    field name in an error back to the file's key (see :func:`_resolve_loc`).
    """
    text = read_text(path)
    try:
        with built_long_lived():
            return model.model_validate_json(text)
    except ValidationError as exc:
        fast_errors = exc.errors()
        refused = parser_refusals(str(path), fast_errors)
    # The slow path builds as many objects as the fast one: the collector waits here too
    # (a 60 MB file took 30 s more with it scanning the tree again and again).
    with gc_paused():
        data = parse_json(path, text)
    # What the fast path found holds for the data as parsed, unless pydantic's parser
    # refused the text (then it validated nothing) or ``prepare`` changed the data.
    known = None if refused else fast_errors
    if prepare is not None and prepare(data):
        known = None
        try:
            with built_long_lived():
                return model.model_validate(data)
        except ValidationError:
            pass
    found: list[tuple[list[PathPart], str]] = []
    if not isinstance(data, dict):
        found.append(
            ([], f"expected a JSON object for {model.__name__}, got {type(data).__name__}")
        )
    else:
        with gc_paused():
            found.extend(_schema_problems(model, data, known, extra_checks, key_for))
    problems = placed_problems(path, text, found)
    # Valid JSON pydantic's parser refuses (too deep, a lone surrogate): say why and where.
    problems.extend(refused if isinstance(data, dict) else [])
    if not problems:  # pragma: no cover - the fast path failed, so pydantic found something
        problems = placed_problems(path, text, [([], "could not be loaded")])
    raise EvalFileError(problems)


def _schema_problems(
    model: type[BaseModel],
    data: dict[str, Any],
    known: list[Any] | None,
    extra_checks: ExtraChecks | None,
    key_for: KeyFor | None,
) -> list[tuple[list[PathPart], str]]:
    """Every (JSON path, message) pydantic and ``extra_checks`` find in ``data``.

    ``known``: pydantic's errors for ``data`` when they are known already (validating
    a big file again costs seconds).
    """
    found: list[tuple[list[PathPart], str]] = []
    custom = extra_checks(data) if extra_checks else []
    errors = known
    if errors is None:
        try:
            model.model_validate(data)
            errors = []
        except ValidationError as exc:
            errors = exc.errors()
    for error in errors:
        if custom and error.get("type") in LOCATED_BY_CHECKS:
            continue  # reported below with the exact place
        found.append((_resolve_loc(data, tuple(error.get("loc", ())), key_for), _message(error)))
    return found + custom


def placed_problems(
    path: Path, text: str, found: list[tuple[list[PathPart], str]]
) -> list[Problem]:
    """A :class:`Problem` for each (JSON path, message), placed in ``text`` in one scan."""
    places = locate_many(text, [json_path for json_path, _ in found])
    return [
        Problem(
            path=str(path),
            line=line,
            column=column,
            json_path=format_path(json_path),
            message=message,
        )
        for (json_path, message), (line, column) in zip(found, places, strict=True)
    ]
