"""Safe, unique report file names inside the output folder."""

from __future__ import annotations

import hashlib
import os
import unicodedata
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

# Leaves room for "_YYYYmmdd_HHMMSS", a "_NN" run number and "_junit.xml" within the
# 255-byte file name limit of common file systems.
MAX_STEM_BYTES = 120
FALLBACK_ID = "eval"


def sanitise_id(eval_set_id: str) -> str:
    """A file-name-safe form of an eval set id.

    Letters, digits, ``-`` and ``_`` are kept and everything else (``/``, ``\\``,
    ``.``, NUL, spaces...) becomes ``_``, as 10xGraph names its reports, so an id
    like ``../../etc/x`` can never leave the output folder. A long id is cut to
    fit file-name limits and gets a short hash of the full id, so two long ids
    that share a prefix still get different names.
    """
    text = unicodedata.normalize("NFC", eval_set_id)
    safe = "".join(c if (c.isalnum() or c in "-_") and c.isprintable() else "_" for c in text)
    if not safe.strip("_"):
        return FALLBACK_ID
    if len(safe.encode("utf-8")) <= MAX_STEM_BYTES:
        return safe
    digest = hashlib.sha256(eval_set_id.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    room = MAX_STEM_BYTES - len(digest) - 1
    cut = safe.encode("utf-8")[:room].decode("utf-8", "ignore")
    return f"{cut}_{digest}"


def report_stem(eval_set_id: str, timestamp: float, timestamp_files: bool) -> str:
    """``{sanitised_id}_{YYYYmmdd_HHMMSS}`` (local time of ``timestamp``), or the id alone."""
    safe = sanitise_id(eval_set_id)
    if not timestamp_files:
        return safe
    return f"{safe}_{datetime.fromtimestamp(timestamp).strftime('%Y%m%d_%H%M%S')}"


def reserve_paths(output_dir: Path, stem: str, suffixes: Sequence[str]) -> dict[str, Path]:
    """Claim ``output_dir/{stem}{suffix}`` for every suffix, with a run number if taken.

    Every file is created empty with ``O_EXCL``, so two runs in the same second
    (even in two processes) never get the same names: the second one gets
    ``{stem}_2...``, then ``_3`` and so on. All files of one run share a stem.
    """
    root = output_dir.resolve()
    number = 1
    while True:
        candidate = stem if number == 1 else f"{stem}_{number}"
        claimed: list[Path] = []
        for suffix in suffixes:
            path = root / f"{candidate}{suffix}"
            if path.parent != root:  # pragma: no cover - sanitise_id makes this impossible
                raise ValueError(f"report file name {path.name!r} escapes {root}")
            try:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
            except FileExistsError:
                for done in claimed:
                    done.unlink(missing_ok=True)
                break
            claimed.append(path)
        else:
            return {suffix: root / f"{candidate}{suffix}" for suffix in suffixes}
        number += 1
