"""Reading a whole file (files/textfiles.py): no more memory asked for than the file
holds, and a file that grows while it is read still stops at the cap."""

from __future__ import annotations

import io
import tracemalloc
from pathlib import Path

import pytest

from tenxeval_tui.evaluation.files import textfiles
from tenxeval_tui.evaluation.files.textfiles import MAX_FILE_ENV, max_file_bytes, read_file_bytes


def test_a_small_file_is_read_without_a_buffer_the_size_of_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(MAX_FILE_ENV, raising=False)
    path = tmp_path / "config.json"
    path.write_bytes(b'{"criteria": {}}')
    assert max_file_bytes() >= 64 * 1024 * 1024  # the default cap: far above the file
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        data = read_file_bytes(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert data == b'{"criteria": {}}'
    assert peak < 1024 * 1024, peak


def test_a_file_that_grew_while_read_is_read_on_to_the_cap() -> None:
    grown = io.BytesIO(b"0123456789")  # 10 bytes where 3 were found as it was opened
    assert textfiles._read_at_most(grown, 3, 100) == b"0123456789"
    past = io.BytesIO(b"0123456789")
    assert textfiles._read_at_most(past, 3, 6) == b"0123456"  # one past: the caller refuses
    shrunk = io.BytesIO(b"01")
    assert textfiles._read_at_most(shrunk, 5, 6) == b"01"
