"""Deal analyses kept once worked out (:mod:`belote.analysis`): a table in the SQLite file
that holds the history (docs/json.md, `belote analyze`).

An analysis is costly (a few seconds a deal with the compiled solver, minutes without)
and always the same for the same deal and settings (its worlds come from its seed), so
it is kept under :func:`cache_key`: the SHA-256 of the deal's record and of the settings
it was made with, both written as canonical JSON (sorted keys, no spaces).  A record
written in another key order is the same deal; other settings (more worlds, another
seed) are another analysis.  Standard library only.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Mapping
from typing import Any, Final

__all__ = ["SCHEMA", "cache_key", "get", "put", "setup"]

SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS analysis_cache (
        key TEXT PRIMARY KEY,
        created REAL NOT NULL,
        analysis TEXT NOT NULL)""",
)


def setup(conn: sqlite3.Connection) -> None:
    """Create the table where it is missing."""
    for sql in SCHEMA:
        conn.execute(sql)


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True).encode("ascii")


def cache_key(record: Mapping[str, Any], settings: Mapping[str, Any]) -> str:
    """The key of the analysis of the deal ``record`` (``Round.record``) made with
    ``settings`` (the keyword arguments given to ``analyze_deal``): 64 hex digits."""
    digest = hashlib.sha256()
    digest.update(b"deal:")
    digest.update(_canonical(dict(record)))
    digest.update(b"\nsettings:")
    digest.update(_canonical(dict(settings)))
    return digest.hexdigest()


def get(conn: sqlite3.Connection, key: str) -> dict[str, Any] | None:
    """The analysis kept under ``key`` (its JSON, ``DealAnalysis.to_json``), or None."""
    row = conn.execute("SELECT analysis FROM analysis_cache WHERE key = ?", (key,)).fetchone()
    if row is None:
        return None
    value = json.loads(row[0])
    return value if isinstance(value, dict) else None


def put(conn: sqlite3.Connection, key: str, analysis: Mapping[str, Any]) -> None:
    """Keep ``analysis`` under ``key`` (the same key again replaces it)."""
    conn.execute("INSERT OR REPLACE INTO analysis_cache (key, created, analysis) "
                 "VALUES (?, ?, ?)", (key, time.time(), json.dumps(dict(analysis))))
