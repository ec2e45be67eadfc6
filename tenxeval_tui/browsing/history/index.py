"""The history index of a report folder: an SQLite cache of its JSON reports.

The reports stay the source of truth; the index (``.tenxeval-history.sqlite`` in the
folder) keeps what a history shows of each (:mod:`.report_rows`) so that the history of
a thousand runs of a thousand cases opens in well under a second. It is a cache:

- made from the reports when it is missing, unreadable, or of another schema
  (``PRAGMA user_version`` holds :data:`SCHEMA_VERSION`);
- brought up to date by :meth:`HistoryIndex.sync`: a file is read again only when its
  size or modification time changed, a removed file's rows go, a new file is read once.
  Indexing a new report costs its own size (its cases, and two index look-ups each for
  the case's runs just before and just after it), not the folder's, and so does
  removing one;
- written in one transaction per sync, so a reader never sees half a report, and two
  writers (the CLI and the workbench) take turns.

Each case row knows whether it ``changed`` since the case's previous run of the same
eval set (runs in time order): whether it went from passing to not passing (failed or
errored) or back. That makes "where did it last change" one indexed look-up. A folder that cannot hold the file (read-only) gets an index in
memory: the history still opens, it is only not kept.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tenxeval_tui.browsing.history.index_file import INDEX_NAME, index_path
from tenxeval_tui.browsing.history.report_rows import (
    ReportRows,
    provenance_json,
    read_report_rows,
)
from tenxeval_tui.browsing.reports_index import is_report_file, is_report_name
from tenxeval_tui.evaluation.files.stamp import FileStamp, file_stamp

SCHEMA_VERSION = 4  # 4: a --shard part is a selection (its selection column)
CHUNK_CASES = 50_000
"""Cases written per transaction: a long rebuild lets other writers in between chunks."""
BUSY_TIMEOUT_MS = 15_000
"""How long a writer waits for another (the CLI and the workbench indexing at once)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS reports (
    id INTEGER PRIMARY KEY,
    file TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    problem TEXT,
    eval_set_id TEXT,
    eval_set_name TEXT,
    timestamp REAL,
    total INTEGER, passed INTEGER, failed INTEGER, errored INTEGER,
    cost REAL, wall REAL, duration REAL,
    partial INTEGER, rescored INTEGER, selection TEXT,
    git_commit TEXT, git_dirty INTEGER, git_branch TEXT,
    eval_set_sha256 TEXT, agent_sha256 TEXT, config_sha256 TEXT,
    provenance TEXT
);
CREATE INDEX IF NOT EXISTS reports_by_set ON reports (eval_set_id, timestamp, id);
CREATE TABLE IF NOT EXISTS criteria (
    report_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    avg_score REAL, pass_rate REAL
);
CREATE INDEX IF NOT EXISTS criteria_by_report ON criteria (report_id);
CREATE TABLE IF NOT EXISTS case_keys (
    id INTEGER PRIMARY KEY,
    eval_set_id TEXT NOT NULL,
    case_set TEXT NOT NULL,
    eval_id TEXT NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (eval_set_id, case_set, eval_id)
);
CREATE TABLE IF NOT EXISTS cases (
    report_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    case_key INTEGER NOT NULL,
    timestamp REAL NOT NULL,
    status TEXT NOT NULL,
    passes INTEGER, runs INTEGER,
    score REAL, duration REAL, cost REAL,
    case_sha256 TEXT,
    changed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS cases_by_report ON cases (report_id, position);
CREATE INDEX IF NOT EXISTS cases_in_order ON cases (case_key, timestamp, report_id);
CREATE INDEX IF NOT EXISTS cases_changed ON cases (case_key, changed, timestamp, report_id);
"""


@dataclass(frozen=True, slots=True)
class SyncOutcome:
    """What a :meth:`HistoryIndex.sync` did."""

    read: int = 0
    """Files read (new or changed)."""
    removed: int = 0
    rebuilt: bool = False
    """The index was made anew (missing, unreadable, or of another version)."""


def _connect(path: Path | str) -> sqlite3.Connection:
    connection = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    connection.execute("PRAGMA synchronous = NORMAL")
    return connection


class HistoryIndex:
    """The history index of one report folder (see the module docs); a context manager."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = index_path(self.folder)
        self.rebuilt = False
        self.db = self._open()

    def _open(self) -> sqlite3.Connection:
        try:
            if self.folder.is_dir():
                db = _connect(self.path)
                if self._usable(db):
                    return db
                db.close()
                self._discard()
                db = _connect(self.path)
                self._create(db)
                return db
        except sqlite3.OperationalError:
            pass  # busy or locked past the timeout: the file is another opener's, left alone
        except sqlite3.Error:
            self._discard()
        db = _connect(":memory:")  # a folder that cannot keep the file (or none yet)
        self._create(db)
        return db

    def _usable(self, db: sqlite3.Connection) -> bool:
        """Whether ``db`` holds an index of this version, made here when the file is new.

        One opener at a time checks (and makes) it, in one write transaction: the report
        browser's list and its history view open a new folder's index together, and the
        second used to read the first's half-made file as a damaged one and delete it
        under it. Busy or locked past the timeout raises: no reason to throw a file away.
        """
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError:  # not an SQLite file
            return False
        usable = False
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == SCHEMA_VERSION:
                db.execute("SELECT count(*) FROM reports").fetchone()
                usable = True
            elif version == 0 and not db.execute("SELECT 1 FROM sqlite_master").fetchone():
                self._make_tables(db)  # a new, empty file
                usable = True
        except sqlite3.OperationalError:
            db.rollback()
            raise
        except sqlite3.DatabaseError:  # a damaged file
            pass
        if db.in_transaction:
            db.execute("COMMIT" if usable else "ROLLBACK")
        return usable

    def _discard(self) -> None:
        for suffix in ("", "-journal", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                Path(f"{self.path}{suffix}").unlink()

    def _create(self, db: sqlite3.Connection) -> None:
        db.execute("BEGIN IMMEDIATE")
        self._make_tables(db)
        db.execute("COMMIT")

    def _make_tables(self, db: sqlite3.Connection) -> None:
        """The index's tables and version, in the transaction the caller holds."""
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        self.rebuilt = True

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def __enter__(self) -> HistoryIndex:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def sync(self) -> SyncOutcome:
        """Bring the index up to date with the folder (see the module docs)."""
        on_disk = self._listing()
        known = {
            name: (size, mtime)
            for name, size, mtime in self.db.execute("SELECT file, size, mtime_ns FROM reports")
        }
        stale = [name for name, stamp in known.items() if on_disk.get(name) != stamp]
        # oldest first: a run is most often the newest of its set when it is added
        new = sorted(
            (name for name, stamp in on_disk.items() if known.get(name) != stamp),
            key=lambda name: (on_disk[name][1], name),
        )
        rebuilt, self.rebuilt = self.rebuilt, False
        self._store(stale, [(name, on_disk[name]) for name in new])
        return SyncOutcome(read=len(new), removed=len(stale), rebuilt=rebuilt)

    def add(self, paths: Sequence[Path]) -> SyncOutcome:
        """Index reports just written to the folder (no other file is looked at): what a
        front end calls as its reports land. Files elsewhere are ignored."""
        folder = self.folder.resolve()
        names = [p.name for p in paths if p.parent.resolve() == folder and is_report_file(p)]
        stamped = [(n, s) for n in dict.fromkeys(names) if (s := file_stamp(self.folder / n))]
        self._store([n for n, _ in stamped], stamped)
        return SyncOutcome(read=len(stamped))

    def _store(self, remove: Sequence[str], add: Sequence[tuple[str, FileStamp]]) -> None:
        """Remove the rows of the files ``remove``, then read and add the files ``add``
        (with their stamps), a chunk of reports per transaction."""
        pending = list(add)
        first = True
        while first or pending:
            chunk, cases = [], 0
            while pending and cases < CHUNK_CASES:
                name, stamp = pending.pop(0)
                rows = self._read(name)
                chunk.append((name, stamp, rows))
                cases += len(rows.cases) + 1 if rows is not None else 1
            with self._writing() as db:
                for name in remove if first else ():
                    _remove(db, name)
                for name, (size, mtime), rows in chunk:
                    _remove(db, name)
                    if rows is not None:
                        _insert(db, name, size, mtime, rows)
            first = False

    def _listing(self) -> dict[str, FileStamp]:
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return {}
        listing: dict[str, FileStamp] = {}
        for entry in entries:
            try:
                if is_report_name(entry.name) and entry.is_file():
                    stat = entry.stat()
                    listing[entry.name] = (stat.st_size, stat.st_mtime_ns)
            except OSError:
                continue  # removed while listed
        return listing

    def _read(self, name: str) -> ReportRows | None:
        try:
            return read_report_rows(self.folder / name)
        except OSError:
            return None  # removed (or made unreadable) since it was listed


def _remove(db: sqlite3.Connection, name: str) -> None:
    """Drop one file's rows; each of its cases' next run is marked anew against the run
    before this one."""
    row = db.execute("SELECT id FROM reports WHERE file = ?", (name,)).fetchone()
    if row is None:
        return
    report_id = row[0]
    for key, timestamp in db.execute(
        "SELECT case_key, timestamp FROM cases WHERE report_id = ?", (report_id,)
    ).fetchall():
        after = _neighbour(db, key, timestamp, report_id, later=True)
        if after is not None:
            before = _neighbour(db, key, timestamp, report_id, later=False)
            _mark(db, after, before[1] if before else None)
    db.execute("DELETE FROM cases WHERE report_id = ?", (report_id,))
    db.execute("DELETE FROM criteria WHERE report_id = ?", (report_id,))
    db.execute("DELETE FROM reports WHERE id = ?", (report_id,))


def _insert(db: sqlite3.Connection, name: str, size: int, mtime: int, rows: ReportRows) -> None:
    """Add one file's rows: each case marked against its run before, and its run after
    (when this run is not the newest) marked anew against this one."""
    provenance = rows.provenance
    cursor = db.execute(
        "INSERT INTO reports (file, size, mtime_ns, problem, eval_set_id, eval_set_name,"
        " timestamp, total, passed, failed, errored, cost, wall, duration, partial, rescored,"
        " selection, git_commit, git_dirty, git_branch, eval_set_sha256, agent_sha256,"
        " config_sha256, provenance) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            name, size, mtime, rows.problem,
            rows.eval_set_id if rows.problem is None else None,
            rows.eval_set_name, rows.timestamp, rows.total, rows.passed, rows.failed,
            rows.errored, rows.cost, rows.wall, rows.duration, rows.partial, rows.rescored,
            rows.selection,
            provenance.get("git_commit"), provenance.get("git_dirty"),
            provenance.get("git_branch"), provenance.get("eval_set_sha256"),
            provenance.get("agent_sha256"), provenance.get("config_sha256"),
            provenance_json(rows),
        ),
    )  # fmt: skip
    report_id = cursor.lastrowid
    assert report_id is not None
    if rows.problem is not None or rows.rescored:
        return  # another scoring of a run is no run of its own: no case rows
    db.executemany(
        "INSERT INTO criteria (report_id, name, avg_score, pass_rate) VALUES (?,?,?,?)",
        [(report_id, n, avg, rate) for n, (avg, rate) in rows.criteria.items()],
    )
    keys = _case_keys(db, rows)
    stamp = rows.timestamp
    marked = []
    for position, (case, key) in enumerate(zip(rows.cases, keys, strict=True)):
        before = _neighbour(db, key, stamp, report_id, later=False)
        marked.append(
            (
                report_id, position, key, stamp, case.status, case.passes, case.runs,
                case.score, case.duration, case.cost, case.case_sha256,
                int(_flipped(before[1] if before else None, case.status)),
            )
        )  # fmt: skip
        after = _neighbour(db, key, stamp, report_id, later=True)
        if after is not None:
            _mark(db, after, case.status)
    db.executemany(
        "INSERT INTO cases (report_id, position, case_key, timestamp, status, passes, runs,"
        " score, duration, cost, case_sha256, changed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        marked,
    )


def _case_keys(db: sqlite3.Connection, rows: ReportRows) -> list[int]:
    """The key of each case of ``rows`` (made for a case seen the first time)."""
    db.executemany(
        "INSERT INTO case_keys (eval_set_id, case_set, eval_id, name) VALUES (?,?,?,?)"
        " ON CONFLICT DO UPDATE SET name = excluded.name",
        [(rows.eval_set_id, c.case_set, c.eval_id, c.name) for c in rows.cases],
    )
    found = dict(
        ((case_set, eval_id), key)
        for key, case_set, eval_id in db.execute(
            "SELECT id, case_set, eval_id FROM case_keys WHERE eval_set_id = ?",
            (rows.eval_set_id,),
        )
    )
    return [found[(c.case_set, c.eval_id)] for c in rows.cases]


def _neighbour(
    db: sqlite3.Connection, key: int, timestamp: float, report_id: int, *, later: bool
) -> tuple[int, str] | None:
    """``(rowid, status)`` of the case's run just after (``later``) or just before the
    run ``(timestamp, report_id)``; ``None`` when there is none."""
    if later:
        query = (
            "SELECT rowid, status FROM cases WHERE case_key = ? AND (timestamp, report_id) > (?, ?)"
            " ORDER BY timestamp, report_id LIMIT 1"
        )
    else:
        query = (
            "SELECT rowid, status FROM cases WHERE case_key = ? AND (timestamp, report_id) < (?, ?)"
            " ORDER BY timestamp DESC, report_id DESC LIMIT 1"
        )
    row = db.execute(query, (key, timestamp, report_id)).fetchone()
    return (row[0], row[1]) if row is not None else None


def _mark(db: sqlite3.Connection, row: tuple[int, str], before: str | None) -> None:
    db.execute(
        "UPDATE cases SET changed = ? WHERE rowid = ?", (int(_flipped(before, row[1])), row[0])
    )


def _flipped(before: str | None, now: str) -> bool:
    """Whether a case went from passing to not passing or back (``None``: no run before)."""
    return before is not None and (before == "P") != (now == "P")


__all__ = ["INDEX_NAME", "SCHEMA_VERSION", "HistoryIndex", "SyncOutcome", "index_path"]
