"""A child's protocol pipe read a batch at a time (runs/batched_lines.py): every line
whole and in order, however the reads cut them, and none lost to an interrupted reader."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import BinaryIO

import pytest

from tenxeval_tui.runs import batched_lines
from tenxeval_tui.runs.batched_lines import CHUNK, BatchedLines
from tests.waiting import scaled


class _Reads:
    """A stream whose ``read1`` returns the given chunks, one a call, then ``b""``."""

    def __init__(self, *chunks: bytes) -> None:
        self.chunks = list(chunks)
        self.reads = 0

    def read1(self, size: int = -1) -> bytes:
        self.reads += 1
        return self.chunks.pop(0) if self.chunks else b""


def test_lines_cut_by_the_reads_come_whole_and_in_order() -> None:
    long = b"x" * (CHUNK * 2 + 5)
    stream = _Reads(b'{"a": 1}\n{"b"', b": 2}\n" + long[:CHUNK], long[CHUNK:], b"\nlast")

    lines = list(BatchedLines(stream, pause=0))  # type: ignore[arg-type]

    assert lines == [b'{"a": 1}\n', b'{"b": 2}\n', long + b"\n", b"last"]


def test_a_reader_interrupted_between_lines_goes_on_from_the_next() -> None:
    reader = BatchedLines(_Reads(b"1\n2\n3\n", b"4\n"), pause=0)  # type: ignore[arg-type]
    seen: list[bytes] = []
    with pytest.raises(KeyboardInterrupt):
        for line in reader:
            seen.append(line)
            if line == b"2\n":
                raise KeyboardInterrupt  # Ctrl-C while the line was handled
    seen += list(reader)

    assert seen == [b"1\n", b"2\n", b"3\n", b"4\n"]


def test_the_lines_written_while_the_reader_pauses_come_in_one_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb") as stream, os.fdopen(write_end, "wb", buffering=0) as pipe:
        pauses: list[float] = []

        def pause(seconds: float) -> None:  # the worker goes on writing meanwhile
            pauses.append(seconds)
            if len(pauses) == 1:
                for index in range(50):
                    pipe.write(b"line %d\n" % index)
                pipe.close()

        monkeypatch.setattr(batched_lines.time, "sleep", pause)
        counted = _Counted(stream)
        pipe.write(b"first\n")
        lines = list(BatchedLines(counted, pause=0.05))  # type: ignore[arg-type]

    assert lines == [b"first\n", *(b"line %d\n" % index for index in range(50))]
    assert pauses[0] == 0.05
    assert counted.reads == 3  # "first", then the 50 lines at once, then the end


class _Counted:
    """``stream``'s ``read1``, counted."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.reads = 0

    def read1(self, size: int = -1) -> bytes:
        self.reads += 1
        return self.stream.read1(size)


class _CountedPipe(_Counted):
    """A counted pipe whose descriptor the reader can watch."""

    def fileno(self) -> int:
        return self.stream.fileno()


def test_an_unbuffered_pipe_is_read_too() -> None:
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "wb", buffering=0) as pipe:
        pipe.write(b"a\nb\nc")
    with os.fdopen(read_end, "rb", buffering=0) as stream:
        assert list(BatchedLines(stream, pause=0)) == [b"a\n", b"b\n", b"c"]


def _read_in_a_thread(reader: BatchedLines, each: Callable[[bytes], None]) -> threading.Event:
    """Iterate ``reader`` in a thread, calling ``each`` on every line; set once it ended."""
    ended = threading.Event()

    def read() -> None:
        for line in reader:
            each(line)
        ended.set()

    threading.Thread(target=read, daemon=True).start()
    return ended


def test_the_end_is_read_as_soon_as_the_writer_has_closed_its_end() -> None:
    """The worker's last lines and its exit come together: the end of its pipe is read
    then, not a pause later (issue #38)."""
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb") as stream:
        with os.fdopen(write_end, "wb", buffering=0) as pipe:
            pipe.write(b"last\n")
        lines: list[bytes] = []
        ended = _read_in_a_thread(BatchedLines(stream, pause=3600), lines.append)
        assert ended.wait(scaled(10))  # a pause of an hour would still be running
    assert lines == [b"last\n"]


def test_lines_written_while_the_reader_pauses_still_come_in_one_read_from_a_pipe() -> None:
    """A pause is ended by the writer's hang-up alone: the lines written meanwhile wait
    for it and come in one read."""
    read_end, write_end = os.pipe()
    pipe = os.fdopen(write_end, "wb", buffering=0)

    def write_the_rest() -> None:  # while the reader pauses after the first line
        for index in range(50):
            pipe.write(b"line %d\n" % index)
        pipe.close()

    with os.fdopen(read_end, "rb") as stream:
        counted = _CountedPipe(stream)
        pipe.write(b"first\n")
        lines: list[bytes] = []

        def each(line: bytes) -> None:
            lines.append(line)
            if line == b"first\n":
                threading.Thread(target=write_the_rest, daemon=True).start()

        ended = _read_in_a_thread(BatchedLines(counted, pause=3600), each)  # type: ignore[arg-type]
        assert ended.wait(scaled(10))
    assert lines == [b"first\n", *(b"line %d\n" % index for index in range(50))]
    assert counted.reads == 3  # "first", then the 50 lines at once, then the end
