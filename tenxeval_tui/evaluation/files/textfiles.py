"""Reading a file's text without hanging or reading without end.

Only regular files are read: a FIFO named ``*.evalset.json`` would block the reader
forever and a link to ``/dev/zero`` would fill the memory. Files are capped in size
(:data:`MAX_FILE_MB`, or ``$TENXEVAL_MAX_FILE_MB``), the cap named in the error. The
text is UTF-8, a leading byte order mark (Windows editors write one) skipped; a bad
byte is named by its line and column.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from tenxeval_tui.evaluation.errors import EvalFileError, Problem

MAX_FILE_MB = 1024
"""Largest file read, in megabytes (a 50,000-case eval set is about 60 MB)."""
MAX_FILE_ENV = "TENXEVAL_MAX_FILE_MB"
_BOM = "\ufeff"


def max_file_problem() -> str | None:
    """What is wrong with ``$TENXEVAL_MAX_FILE_MB`` (not a number of megabytes more than
    0), or ``None``: the front ends refuse to start with it rather than ignore it."""
    raw = os.environ.get(MAX_FILE_ENV, "").strip()
    if not raw:
        return None
    try:
        megabytes = float(raw)
    except ValueError:
        megabytes = float("nan")
    if megabytes > 0 and megabytes != float("inf"):
        return None
    return (
        f"${MAX_FILE_ENV}: {raw!r} is not a number of megabytes more than 0 (default {MAX_FILE_MB})"
    )


def max_file_bytes() -> int:
    """The size cap in bytes: ``$TENXEVAL_MAX_FILE_MB`` when set to a positive number."""
    raw = os.environ.get(MAX_FILE_ENV, "")
    try:
        megabytes = float(raw) if raw else MAX_FILE_MB
    except ValueError:
        megabytes = MAX_FILE_MB
    return int((megabytes if megabytes > 0 else MAX_FILE_MB) * 1024 * 1024)


def _kind(mode: int) -> str:
    """What a file that is no regular file is, in words."""
    for test, name in (
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def not_regular_reason(path: Path) -> str | None:
    """Why ``path`` (links followed) cannot be read as a file, or ``None`` when it can.

    ``None`` too when it does not exist: the reader says so itself.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a JSON file"
    return f"is {_kind(mode)}: only regular files are read"


def _problem(path: Path, message: str) -> EvalFileError:
    return EvalFileError([Problem(path=str(path), message=message)])


def _too_big(path: Path, cap: int) -> EvalFileError:
    return _problem(
        path,
        f"is larger than the {cap / (1024 * 1024):g} MB limit on files read "
        f"(set {MAX_FILE_ENV} to raise it)",
    )


_GROWN_CHUNK = 1 << 20
"""Bytes read at once of a file that grew while it was read."""


def _read_at_most(handle: BinaryIO, size: int, cap: int) -> bytes:
    """At most ``cap + 1`` bytes of ``handle``, a file of ``size`` bytes as it was opened
    (it may grow while it is read). Asked for ``cap + 1`` bytes at once, ``read`` first
    made a buffer that big: a gigabyte for a config file of a few bytes (never touched,
    but a process's traced memory counts it)."""
    data = handle.read(size + 1)
    if len(data) <= size:
        return data
    parts, got = [data], len(data)
    while got <= cap and (part := handle.read(min(_GROWN_CHUNK, cap + 1 - got))):
        parts.append(part)
        got += len(part)
    return b"".join(parts)


def read_file_bytes(path: Path) -> bytes:
    """The bytes of the regular file ``path``, at most :func:`max_file_bytes` of them.

    ``FileNotFoundError`` names the path; a folder, FIFO, device or socket, a file over
    the cap or one that cannot be read is an :class:`EvalFileError`.
    """
    cap = max_file_bytes()
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer (regular files ignore it).
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise _problem(path, "is a folder, not a JSON file") from None
    except OSError as exc:
        raise _problem(path, f"cannot be read: {exc.strerror or exc}") from None
    mode = os.fstat(fd)
    if not stat.S_ISREG(mode.st_mode) or mode.st_size > cap:
        os.close(fd)
        if stat.S_ISDIR(mode.st_mode):
            raise _problem(path, "is a folder, not a JSON file")
        if not stat.S_ISREG(mode.st_mode):
            raise _problem(path, f"is {_kind(mode.st_mode)}: only regular files are read")
        raise _too_big(path, cap)
    with os.fdopen(fd, "rb") as handle:
        try:
            data = _read_at_most(handle, mode.st_size, cap)
        except OSError as exc:
            raise _problem(path, f"cannot be read: {exc.strerror or exc}") from None
    if len(data) > cap:
        raise _too_big(path, cap)
    return data


def decode_text(path: Path, data: bytes) -> str:
    """``data`` as UTF-8 text, without a leading byte order mark; line endings kept.

    Bytes that are no UTF-8 are an :class:`EvalFileError` at their line and column.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        column = len(data[line_start : exc.start].decode("utf-8", errors="replace")) + 1
        if line == 1 and data.startswith(b"\xef\xbb\xbf"):
            column -= 1
        raise EvalFileError(
            [
                Problem(
                    path=str(path),
                    line=line,
                    column=column,
                    message=f"not UTF-8 text (byte 0x{data[exc.start]:02x})",
                )
            ]
        ) from None
    return text[1:] if text.startswith(_BOM) else text


def read_text_file(path: Path) -> str:
    """:func:`read_file_bytes` then :func:`decode_text`."""
    return decode_text(path, read_file_bytes(path))


__all__ = [
    "MAX_FILE_ENV",
    "MAX_FILE_MB",
    "decode_text",
    "max_file_bytes",
    "max_file_problem",
    "not_regular_reason",
    "read_file_bytes",
    "read_text_file",
]
