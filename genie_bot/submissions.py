"""A small SQLite ledger for the side effects of example agents' APIs.

Example agents "really" submit tickets, enrollments and bookings by writing a row here, so a
submission can be inspected (``sqlite3 var/submissions.sqlite3``). The idempotency key (the
engine's pending-action id) is unique: a retried call returns the first call's id instead of
writing twice.
"""

from __future__ import annotations

import json
import os
import sqlite3
import uuid
from pathlib import Path
from typing import Any

DATA_DIR_ENV = "GENIE_DATA_DIR"


def database_path() -> Path:
    directory = Path(os.environ.get(DATA_DIR_ENV, "var"))
    directory.mkdir(parents=True, exist_ok=True)
    return directory / "submissions.sqlite3"


def record_submission(kind: str, payload: dict[str, Any], idempotency_key: str | None = None, prefix: str = "") -> str:
    """Store ``payload`` as a submission of ``kind``; return its id (the same id on a retry)."""
    key = idempotency_key or uuid.uuid4().hex
    with sqlite3.connect(database_path(), timeout=30, isolation_level=None) as db:
        db.execute("BEGIN IMMEDIATE")  # take the write lock before reading the count: ids are allocated in order
        db.execute("""CREATE TABLE IF NOT EXISTS submissions (
            kind TEXT NOT NULL, id TEXT NOT NULL, idempotency_key TEXT UNIQUE NOT NULL,
            payload TEXT NOT NULL, created_at TEXT DEFAULT CURRENT_TIMESTAMP, PRIMARY KEY (kind, id))""")
        row = db.execute("SELECT id FROM submissions WHERE idempotency_key = ?", (key,)).fetchone()
        if row:
            db.execute("COMMIT")
            return row[0]
        count = db.execute("SELECT COUNT(*) FROM submissions WHERE kind = ?", (kind,)).fetchone()[0]
        submission_id = f"{prefix}{count + 1:05d}"
        db.execute("INSERT INTO submissions (id, kind, idempotency_key, payload) VALUES (?, ?, ?, ?)",
                   (submission_id, kind, key, json.dumps(payload, default=str, sort_keys=True)))
        db.execute("COMMIT")
        return submission_id


def submissions(kind: str | None = None) -> list[dict[str, Any]]:
    """All recorded submissions (of ``kind``), oldest first."""
    path = database_path()
    if not path.exists():
        return []
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        try:
            rows = db.execute("SELECT * FROM submissions" + (" WHERE kind = ?" if kind else "") + " ORDER BY rowid",
                              (kind,) if kind else ()).fetchall()
        except sqlite3.OperationalError:
            return []
    return [{**dict(r), "payload": json.loads(r["payload"])} for r in rows]
