"""The protocol stream of the child processes: JSON lines on a private stdout."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TextIO

from tenxeval_tui.runs.protocol_lines import ProtocolLines
from tests.waiting import scaled, wait_sync


def test_emit_writes_one_json_line_per_object(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        out = ProtocolLines(stream)
        out.emit({"type": "a", "where": tmp_path})
        out.emit({"type": "b"})
        # flushed at each line: the reader sees it before the stream is closed
        lines = path.read_text("utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [
        {"type": "a", "where": str(tmp_path)},
        {"type": "b"},
    ]


def test_a_reader_gone_is_said_once_and_later_lines_are_dropped() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    calls: list[str] = []
    stream = os.fdopen(write_end, "w", encoding="utf-8")
    out = ProtocolLines(stream)
    out.on_broken = lambda: calls.append("broken")
    out.emit({"type": "first"})
    assert (out.broken, calls) == (True, ["broken"])
    out.emit({"type": "second"})
    assert calls == ["broken"]
    with contextlib.suppress(BrokenPipeError):  # the buffered line still cannot be written
        stream.close()


def test_prints_go_to_stderr_and_only_the_protocol_to_stdout() -> None:
    script = (
        "from tenxeval_tui.runs.protocol_lines import ProtocolLines, protocol_stream\n"
        "out = ProtocolLines(protocol_stream())\n"
        "print('an agent prints this')\n"
        "out.emit({'type': 'ready'})\n"
        "import os; os.write(1, b'fd 1 too\\n')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=scaled(60),
        check=True,
    )
    assert [json.loads(line) for line in done.stdout.splitlines()] == [{"type": "ready"}]
    assert "an agent prints this" in done.stderr
    assert "fd 1 too" in done.stderr


def _pipe() -> tuple[int, TextIO]:
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    return read_end, os.fdopen(write_end, "w", encoding="utf-8", buffering=1 << 16)


def _read(fd: int) -> str:
    try:
        return os.read(fd, 1 << 16).decode("utf-8")
    except BlockingIOError:
        return ""


EVENT = '{"type": "event", "eval_id": "c1"}\n'
CASE_END = '{"type": "case_end", "result": {}}\n'


def test_event_lines_wait_for_the_next_line_the_reader_acts_on() -> None:
    read_end, stream = _pipe()
    out = ProtocolLines(stream, flush_seconds=3600)  # the timer never fires here
    try:
        out.write(EVENT)
        out.write(EVENT)
        assert _read(read_end) == ""  # buffered, not flushed line by line
        out.write(CASE_END)
        assert _read(read_end) == EVENT + EVENT + CASE_END  # in order, at once
    finally:
        stream.close()
        os.close(read_end)


def test_an_event_line_alone_is_flushed_by_the_timer() -> None:
    read_end, stream = _pipe()
    out = ProtocolLines(stream, flush_seconds=0.01)
    seen: list[str] = []
    try:
        out.write(EVENT)
        wait_sync(lambda: seen.append(_read(read_end)) or "".join(seen) == EVENT, 30)
        out.write(EVENT)
        wait_sync(lambda: seen.append(_read(read_end)) or "".join(seen) == EVENT * 2, 30)
    finally:
        stream.close()
        os.close(read_end)


def test_a_result_waits_only_where_a_journal_has_it() -> None:
    read_end, stream = _pipe()
    kept = ProtocolLines(stream, flush_seconds=3600, results_wait=True)
    try:
        kept.write(CASE_END)
        assert _read(read_end) == ""
        kept.write('{"type": "case_start", "eval_id": "c2"}\n')  # flushed with the result
        assert _read(read_end).splitlines()[0] == CASE_END.strip()
        unkept = ProtocolLines(stream, flush_seconds=3600)
        unkept.write(CASE_END)
        assert _read(read_end) == CASE_END
    finally:
        stream.close()
        os.close(read_end)
