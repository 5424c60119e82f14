"""Score sheets kept in SQLite (docs/json.md ``belote sheet``).

A sheet is a game being scored hand by hand, as players keep one on paper: its
rules (a profile and option overrides, docs/rules.md), its target, the names of the
teams and, for five to seven players (docs/rules.md §13), the players.  The store
keeps, per sheet, an **append-only history** of events (a hand added, the last
hand undone, hand *i* replaced); the list of hands is what replaying the events
gives, and every score (reserve, totals, end of game) is recomputed from the
first hand through :func:`belote.scoring.score_game`.  An undo or an edit can
therefore never leave a wrong reserve or total behind.

>>> store = SheetStore(":memory:")
>>> sheet = store.create("classic", target=200, team_names=("Us", "Them"))
>>> state = store.add_hand(sheet["id"], {"taker": "NS", "trick_points": {"NS": 81}})
>>> state["hands"][0]["outcome"], state["reserve"]
('litige', 81)
>>> state = store.add_hand(sheet["id"], {"taker": "EW", "trick_points": {"EW": 100}})
>>> state["totals"], state["reserve"]
({'NS': 62, 'EW': 262}, 0)
>>> store.undo(sheet["id"])["totals"]
{'NS': 0, 'EW': 81}
>>> store.add_hand(sheet["id"], {"taker": "NS", "trick_points": {"NS": 163}})
Traceback (most recent call last):
...
belote.errors.InvalidRecordError: hand 2: trick_points.NS: 163 is outside 0..162

Durability (docs/json.md: "a hand that add has answered is on disk"): the
database runs in WAL mode with ``synchronous=FULL``; every change is one
``BEGIN IMMEDIATE`` transaction that reads the sheet, checks the new history by
scoring it whole, appends the event and commits before anything is answered.
A busy timeout makes a second process wait for the first one's transaction, so
two processes adding to one sheet at once both land, one after the other.

Deleting a sheet is a soft delete by default: the sheet is marked deleted,
leaves :meth:`SheetStore.sheets` and can no longer be read or changed, but its
history stays in the file (``purge=True`` removes the sheet and its history for
good).  Events themselves are never updated nor deleted while their sheet
exists (SQLite triggers refuse it).

Owners and links (schema 2): a sheet made by a web browser belongs to that
browser's identity (``owner``); one made by ``belote sheet`` (or kept from a
database of schema 1) has no owner column set and belongs to the machine's
owner.  A sheet may have a **follow** link (read only) and a **keep** link (add,
undo, edit), each a long random secret (:meth:`SheetStore.set_link`); a browser
that opened one is remembered (``sheet_grants``) until the link is renewed or
revoked.  :meth:`SheetStore.role` says what an identity may do.  The export
carries neither the owner nor the secrets.

Five to seven players (docs/rules.md §13.1): the sheet follows
:func:`belote.rotation.fair_cycle`: hand *i* (from 0) is played by the seating
``cycle[i % L]``; in a hand entry ``"NS"`` is that seating's first team and
``"EW"`` its second.  Each seated player earns his team's hand score, the
sitters nothing (:func:`belote.rotation.individual_totals`); the dealer is the
one :func:`belote.rotation.dealer_for` names.  The team totals of such a sheet
are kept by position (first team, second team) and end nothing; the game ends
at the first cycle end (§13.2: the only points where standings compare
fairly) at which a player's individual total has reached the target (by
``reach_rule``; with ``limit = "deals"``: once ``target`` hands are played) and
one player leads alone: ``finished`` is then true, ``winner`` stays null (no
team wins) and ``player_winner`` names the player.

Three and two players (docs/rules.md §12): a sheet of ``classic-3p`` or
``classic-2p`` keeps per-seat hand entries (:class:`belote.scoring.HandEntry` per seat)
in the same history, scored by :func:`belote.scoring.score_game` per seat: each
seat's total, the game ending by §11 per player as :class:`belote.game.Match`
ends it.  Its ``players`` is 3 or 2 and its ``player_names`` name the seats.
Only a store opened with ``small_tables=True`` (the command line) creates or
reads them; others (pages that show two teams) refuse them with a plain error
instead of misreading them.

A sheet's values, its state and its export live in :mod:`belote.sheet_state`; this
module keeps them in SQLite (:class:`SheetStore`) and shares them (links).
"""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, Unpack
from urllib.parse import urlsplit

from belote.errors import BeloteError, OptionError, Refusal
from belote.options import Rules
from belote.scoring import (
    Entry,
    HandEntry,
    entry_to_json,
)
from belote.sheet_state import (
    CSV_COLUMNS,
    EXPORT_KEYS,
    Event,
    SheetError,
    SheetFields,
    SheetInfo,
    SheetNotFoundError,
    _entry_of,
    _is_int,
    _now,
    _team_entries,
    is_small,
    make_info,
    no_such_sheet,
    replay_events,
    score_sheet,
    sheet_from_json,
    sheet_to_csv,
    sheet_to_json,
)

__all__ = [
    "BUSY_TIMEOUT_S",
    "CSV_COLUMNS",
    "EXPORT_KEYS",
    "LINK_KINDS",
    "MAX_GRANTS",
    "MAX_SHEET_ID",
    "ROLES",
    "SCHEMA_VERSION",
    "SECRET_BYTES",
    "Event",
    "SheetError",
    "SheetFields",
    "SheetInfo",
    "SheetNotFoundError",
    "SheetStore",
    "check_base",
    "default_db_path",
    "is_small",
    "link_path",
    "make_info",
    "no_such_sheet",
    "replay_events",
    "score_sheet",
    "share_answer",
    "sheet_from_json",
    "sheet_to_csv",
    "sheet_to_json",
]

SCHEMA_VERSION: Final = 2
BUSY_TIMEOUT_S: Final = 60.0




_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS sheets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    profile TEXT NOT NULL,
    options TEXT NOT NULL,
    target INTEGER NOT NULL,
    team_names TEXT NOT NULL,
    players INTEGER,
    player_names TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    deleted TEXT,
    owner TEXT,
    follow_secret TEXT,
    keep_secret TEXT
);
CREATE TABLE IF NOT EXISTS sheet_grants (
    sheet_id INTEGER NOT NULL,
    identity TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('follow', 'keep')),
    created TEXT NOT NULL,
    PRIMARY KEY (sheet_id, identity, kind)
);
CREATE INDEX IF NOT EXISTS sheet_grants_identity ON sheet_grants (identity);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sheet_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('add', 'undo', 'edit')),
    hand INTEGER NOT NULL,
    entry TEXT,
    created TEXT NOT NULL,
    UNIQUE (sheet_id, seq)
);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'the history of a sheet is append-only');
END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
WHEN EXISTS (SELECT 1 FROM sheets WHERE sheets.id = OLD.sheet_id)
BEGIN
    SELECT RAISE(ABORT, 'the history of a sheet is append-only');
END;
"""


# Columns added to ``sheets`` after schema 1 (a database of schema 1 gets them by
# ALTER TABLE; its sheets then have no owner: they are the machine owner's).
_ADDED_COLUMNS: Final = (("owner", "TEXT"), ("follow_secret", "TEXT"), ("keep_secret", "TEXT"))
LINK_KINDS: Final = ("follow", "keep")
ROLES: Final = ("follow", "keep", "owner")  # from the least to the most a role may do
SECRET_BYTES: Final = 32  # a link's secret: 43 URL-safe characters
MAX_GRANTS: Final = 1000  # browsers one sheet remembers per link kind (the oldest go first)


def link_path(sheet_id: int, kind: str, secret: str) -> str:
    """The address of a sheet's follow or keep link on the web app, from its root:
    ``/sheets/ID/follow/SECRET`` or ``/sheets/ID/keep/SECRET``.

    >>> link_path(3, "follow", "abc")
    '/sheets/3/follow/abc'
    """
    if kind not in LINK_KINDS:
        raise SheetError(f"link: {kind!r} is not follow or keep")
    return f"/sheets/{sheet_id}/{kind}/{secret}"


def check_base(base: str) -> str:
    """The web app's address given to ``belote sheet share --base``: ``http://`` or
    ``https://``, a host, perhaps a port and a path, nothing else; answered without
    its trailing slash.

    >>> check_base("http://192.168.1.10:8000/")
    'http://192.168.1.10:8000'
    >>> check_base("ftp://x")
    Traceback (most recent call last):
    ...
    belote.sheet_state.SheetError: --base: 'ftp://x' is not an http:// or https:// address
    """
    shown = base if len(base) <= 60 else base[:56] + "..."
    try:
        parts = urlsplit(base.strip())
        _ = parts.port  # a port that is not a number raises here
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise SheetError(f"--base: {shown!r} is not an http:// or https:// address")
    if parts.query or parts.fragment or parts.username is not None or not base.isprintable() \
            or any(c.isspace() for c in base.strip()):
        raise SheetError(f"--base: {shown!r}: give only the scheme, host, port and path "
                         "(http://host:port)")
    return base.strip().rstrip("/")


def share_answer(store: SheetStore, sheet_id: Any, *, keep: bool = False, renew: bool = False,
                 revoke: bool = False, base: str | None = None) -> dict[str, Any]:
    """docs/json.md ``belote sheet share``: the sheet's follow link (``keep``: its
    keep link), made if it has none, renewed or revoked; ``{"id", "link", "path",
    "url", "revoked"}`` (``url`` with ``base`` only; ``path`` and ``url`` null once
    revoked)."""
    if renew and revoke:
        raise SheetError("--renew and --revoke: choose one (renew makes a new link, "
                         "revoke removes it)")
    root = None if base is None else check_base(base)
    kind = "keep" if keep else "follow"
    action = "revoke" if revoke else "renew" if renew else "make"
    secret = store.set_link(sheet_id, kind, action)
    sid = _sheet_id(sheet_id)
    path = None if secret is None else link_path(sid, kind, secret)
    return {"id": sid, "link": kind, "path": path,
            "url": None if path is None or root is None else root + path,
            "revoked": secret is None}


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring the schema to :data:`SCHEMA_VERSION` inside the set-up's transaction:
    create what is missing and add the columns of schema 2 (owners and links) to a
    ``sheets`` table of schema 1."""
    for statement in _statements(_SCHEMA):
        conn.execute(statement)
    have = {row[1] for row in conn.execute("PRAGMA table_info(sheets)")}
    for column, kind in _ADDED_COLUMNS:
        if column not in have:
            conn.execute(f"ALTER TABLE sheets ADD COLUMN {column} {kind}")
    conn.execute("CREATE INDEX IF NOT EXISTS sheets_owner ON sheets (owner)")




class SheetBusyError(SheetError):
    """Another process held the database's write lock longer than the busy timeout:
    nothing was changed."""


# --- where the database lives ------------------------------------------------------


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """``$BELOTE_DB``, else ``$XDG_DATA_HOME/belote/sheets.db``, else
    ``~/.local/share/belote/sheets.db`` (the XDG base directory default)."""
    env = os.environ if environ is None else environ
    chosen = env.get("BELOTE_DB")
    if chosen:
        return Path(chosen).expanduser()
    data_home = env.get("XDG_DATA_HOME")
    # The XDG specification ignores a relative XDG_DATA_HOME.
    base = Path(data_home) if data_home and os.path.isabs(data_home) else (
        Path.home() / ".local" / "share"
    )
    return base / "belote" / "sheets.db"


# --- the store ----------------------------------------------------------------------------


MAX_SHEET_ID: Final = 2**63 - 1  # SQLite's largest integer


def _sheet_id(value: Any) -> int:
    """A sheet id: a whole number 1..2**63-1 (ASCII digits when text); a larger
    one names no sheet (SQLite could not even look it up)."""
    if _is_int(value) and 0 < value <= MAX_SHEET_ID:
        return int(value)
    text = value.strip() if isinstance(value, str) else ""
    if text.isascii() and text.isdigit() and len(text) <= 19 and 0 < int(text) <= MAX_SHEET_ID:
        return int(text)
    raise SheetNotFoundError.refused(Refusal.NOT_A_SHEET_ID, f"sheet {value!r}", text=value)


class SheetStore:
    """Score sheets in one SQLite file (``":memory:"`` for a throwaway store).

    Every method that changes a sheet answers its new state (see
    :func:`score_sheet`) after the change is committed to disk.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None,
                 timeout: float = BUSY_TIMEOUT_S, *, small_tables: bool = False,
                 set_up: bool = True) -> None:
        """``set_up`` False: the file was set up already (WAL mode, the schema) by an
        earlier store of this process; only the connection's own settings are made,
        which neither write nor wait for a lock (a web request's store)."""
        target = default_db_path() if path is None else path
        self.path = target if str(target) == ":memory:" else Path(target).expanduser()
        if isinstance(self.path, Path):
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise SheetError(f"database {str(self.path)!r}: cannot create its folder: "
                                 f"{exc.strerror or exc}") from None
        self._timeout = timeout
        # sheets of three or two players (per seat) are for the clients that show them
        self.small_tables = small_tables
        try:
            self._conn = sqlite3.connect(
                str(self.path), timeout=timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise SheetError(f"database {str(self.path)!r}: cannot open: {exc}") from None
        try:
            if set_up:
                self._setup()
            else:
                self._conn.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
                self._conn.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error as exc:
            self._conn.close()
            raise self._fail(exc) from None
        except BaseException:
            self._conn.close()
            raise

    # -- connection ---------------------------------------------------------------------

    def _fail(self, exc: sqlite3.Error) -> SheetError:
        if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_BUSY:
            return SheetBusyError(f"database {str(self.path)!r}: {exc}")
        return SheetError(f"database {str(self.path)!r}: {exc}")

    def _setup(self) -> None:
        conn = self._conn
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                conn.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                conn.execute("PRAGMA synchronous = FULL")
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version != SCHEMA_VERSION:
                    conn.execute("BEGIN IMMEDIATE")
                    try:
                        version = conn.execute("PRAGMA user_version").fetchone()[0]
                        if version > SCHEMA_VERSION:
                            raise SheetError(
                                f"database {str(self.path)!r}: made by a newer version "
                                f"(schema {version}; this program knows {SCHEMA_VERSION})")
                        if version < SCHEMA_VERSION:
                            _migrate(conn)
                            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                        conn.execute("COMMIT")
                    except BaseException:
                        conn.execute("ROLLBACK")
                        raise
                break
            except sqlite3.OperationalError as exc:
                # Changing the journal mode of a new file wants it to ourselves:
                # another process opening it at this very moment makes us wait.
                if "locked" in str(exc) and time.monotonic() < deadline:
                    time.sleep(0.05)
                    continue
                raise self._fail(exc) from None
            except sqlite3.DatabaseError as exc:
                raise self._fail(exc) from None
        if str(self.path) != ":memory:" and str(mode).lower() != "wal":
            raise SheetError(  # pragma: no cover - a file system without shared memory
                f"database {str(self.path)!r}: cannot use WAL mode (journal mode {mode!r})")

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> SheetStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self, write: bool) -> Iterator[sqlite3.Connection]:
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        except sqlite3.Error as exc:
            raise self._fail(exc) from None
        try:
            yield conn
        except BaseException as exc:
            conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise self._fail(exc) from None
            raise
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise self._fail(exc) from None

    # -- reading ------------------------------------------------------------------------

    @staticmethod
    def _info(conn: sqlite3.Connection, sheet_id: Any) -> SheetInfo:
        sid = _sheet_id(sheet_id)
        row = conn.execute(
            "SELECT id, name, profile, options, target, team_names, players, player_names, "
            "deleted FROM sheets WHERE id = ?", (sid,)).fetchone()
        if row is None:
            raise no_such_sheet(sid)
        if row[8] is not None:
            raise SheetNotFoundError.refused(Refusal.SHEET_DELETED, f"sheet {sid}", sheet=sid,
                                             date=row[8])
        teams = json.loads(row[5])
        pnames = None if row[7] is None else tuple(json.loads(row[7]))
        return SheetInfo(row[0], row[1], row[2], json.loads(row[3]), row[4],
                         (teams[0], teams[1]), row[6], pnames)

    @staticmethod
    def _events(conn: sqlite3.Connection, sheet_id: int) -> list[Event]:
        rows = conn.execute(
            "SELECT seq, kind, hand, entry, created FROM events WHERE sheet_id = ? "
            "ORDER BY seq", (sheet_id,)).fetchall()
        return [Event(seq, kind, hand, None if entry is None else json.loads(entry), created)
                for seq, kind, hand, entry, created in rows]

    def _load(self, conn: sqlite3.Connection, sheet_id: Any, any_table: bool = False
              ) -> tuple[SheetInfo, Rules, list[Entry]]:
        info = self._info(conn, sheet_id)
        if is_small(info) and not (self.small_tables or any_table):
            raise _per_seat_refusal(info)
        rules = info.rules()
        return info, rules, replay_events(self._events(conn, info.id), rules)

    def load(self, sheet_id: Any) -> tuple[SheetInfo, list[HandEntry]]:
        """A two-team sheet's description and its hands (events replayed); a sheet of
        three or two players is refused (:meth:`load_entries` reads every sheet)."""
        info, entries = self.load_entries(sheet_id)
        if is_small(info):
            raise _per_seat_refusal(info)
        return info, _team_entries(entries)

    def load_entries(self, sheet_id: Any) -> tuple[SheetInfo, list[Entry]]:
        """A sheet's description and its hands, per seat at a table of three or two."""
        with self._transaction(write=False) as conn:
            info, _, entries = self._load(conn, sheet_id)
        return info, entries

    def state(self, sheet_id: Any) -> dict[str, Any]:
        """The sheet's state (docs/json.md ``belote sheet show``)."""
        info, entries = self.load_entries(sheet_id)
        return score_sheet(info, entries)

    def history(self, sheet_id: Any) -> list[Event]:
        """Every event of the sheet, oldest first."""
        with self._transaction(write=False) as conn:
            info = self._info(conn, sheet_id)
            return self._events(conn, info.id)

    def sheets(self) -> list[dict[str, Any]]:
        """docs/json.md ``belote sheet list``: ``{"id", "name", "profile", "hands",
        "finished"}`` for every sheet not deleted, oldest first (plus
        ``"updated"``, and ``"error"`` for a sheet whose history no longer scores)."""
        with self._transaction(write=False) as conn:
            ids = [r[0] for r in conn.execute(
                "SELECT id FROM sheets WHERE deleted IS NULL ORDER BY id")]
            return self._listing(conn, ids)

    def owned_sheets(self, identity: str | None, machine: bool = False) -> list[dict[str, Any]]:
        """The sheets :meth:`sheets` lists that belong to ``identity`` (a browser's), and
        with ``machine`` those of the machine's owner (made by ``belote sheet``)."""
        with self._transaction(write=False) as conn:
            ids = [r[0] for r in conn.execute(
                "SELECT id FROM sheets WHERE deleted IS NULL AND (owner = ? OR "
                "(owner IS NULL AND ?)) ORDER BY id", (identity, 1 if machine else 0))]
            return self._listing(conn, ids)

    def shared_sheets(self, identity: str | None, machine: bool = False
                      ) -> list[dict[str, Any]]:
        """The sheets ``identity`` follows or keeps through a link it opened, as
        :meth:`sheets` lists them plus ``"role"`` (``"follow"`` or ``"keep"``); not
        those it owns (with ``machine``: nor the machine owner's)."""
        with self._transaction(write=False) as conn:
            rows = conn.execute(
                "SELECT g.sheet_id, MAX(g.kind) FROM sheet_grants g JOIN sheets s "
                "ON s.id = g.sheet_id WHERE g.identity = ? AND s.deleted IS NULL "
                "AND ((s.owner IS NULL AND NOT ?) OR s.owner != ?) GROUP BY g.sheet_id "
                "ORDER BY g.sheet_id", (identity, 1 if machine else 0, identity)).fetchall()
            roles = dict(rows)  # 'keep' > 'follow' as text too
            out = self._listing(conn, list(roles))
        for item in out:
            item["role"] = roles[item["id"]]
        return out

    def _listing(self, conn: sqlite3.Connection, ids: Sequence[int]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for sid in ids:
            updated = conn.execute(
                "SELECT updated FROM sheets WHERE id = ?", (sid,)).fetchone()[0]
            info = self._info(conn, sid)
            item: dict[str, Any] = {"id": sid, "name": info.name, "profile": info.profile}
            try:
                _, _, entries = self._load(conn, sid, any_table=True)
                state = score_sheet(info, entries)
                item["hands"] = len(entries)
                item["finished"] = state["finished"]
            except BeloteError as exc:
                item["hands"] = None
                item["finished"] = None
                item["error"] = str(exc)
            item["updated"] = updated
            out.append(item)
        return out

    # -- owners and links ---------------------------------------------------------------

    def role(self, sheet_id: Any, identity: str | None, machine: bool = False) -> str | None:
        """What ``identity`` may do with the sheet: ``"owner"`` (its own sheet, or with
        ``machine`` one of the machine owner's), ``"keep"`` or ``"follow"`` (a link it
        opened and that still holds), or None: nothing, as for a sheet that does not
        exist or was deleted."""
        sid = _sheet_id(sheet_id)
        with self._transaction(write=False) as conn:
            row = conn.execute("SELECT owner, deleted FROM sheets WHERE id = ?",
                               (sid,)).fetchone()
            if row is None or row[1] is not None:
                return None
            owner = row[0]
            if (owner is None and machine) or (owner is not None and owner == identity):
                return "owner"
            if identity is None:
                return None
            kinds = {r[0] for r in conn.execute(
                "SELECT kind FROM sheet_grants WHERE sheet_id = ? AND identity = ?",
                (sid, identity))}
        return "keep" if "keep" in kinds else "follow" if "follow" in kinds else None

    def links(self, sheet_id: Any) -> dict[str, str | None]:
        """The secrets of the sheet's follow and keep links (None: no such link)."""
        with self._transaction(write=False) as conn:
            info = self._info(conn, sheet_id)
            row = conn.execute("SELECT follow_secret, keep_secret FROM sheets WHERE id = ?",
                               (info.id,)).fetchone()
        return {"follow": row[0], "keep": row[1]}

    def set_link(self, sheet_id: Any, kind: str, action: str = "make") -> str | None:
        """The sheet's ``kind`` link (``follow`` or ``keep``): ``make`` answers its secret,
        made if there is none; ``renew`` gives it a new secret; ``revoke`` removes it.
        Renewing or revoking ends the old link and every browser's access through it."""
        if kind not in LINK_KINDS:
            raise SheetError(f"link: {kind!r} is not follow or keep")
        if action not in ("make", "renew", "revoke"):
            raise SheetError(f"link: {action!r} is not make, renew or revoke")
        column = f"{kind}_secret"
        with self._transaction(write=True) as conn:
            info = self._info(conn, sheet_id)
            secret = conn.execute(f"SELECT {column} FROM sheets WHERE id = ?",
                                  (info.id,)).fetchone()[0]
            if action == "make" and secret is not None:
                return str(secret)
            secret = None if action == "revoke" else secrets.token_urlsafe(SECRET_BYTES)
            conn.execute(f"UPDATE sheets SET {column} = ? WHERE id = ?", (secret, info.id))
            conn.execute("DELETE FROM sheet_grants WHERE sheet_id = ? AND kind = ?",
                         (info.id, kind))
        return secret

    def grant(self, sheet_id: Any, identity: str, kind: str) -> None:
        """Remember that ``identity`` opened the sheet's ``kind`` link (the caller has
        checked its secret); a sheet keeps the :data:`MAX_GRANTS` latest per kind."""
        if kind not in LINK_KINDS:
            raise SheetError(f"link: {kind!r} is not follow or keep")
        with self._transaction(write=True) as conn:
            info = self._info(conn, sheet_id)
            conn.execute(
                "INSERT OR REPLACE INTO sheet_grants (sheet_id, identity, kind, created) "
                "VALUES (?, ?, ?, ?)", (info.id, identity, kind, _now()))
            conn.execute(
                "DELETE FROM sheet_grants WHERE sheet_id = ? AND kind = ? AND rowid NOT IN "
                "(SELECT rowid FROM sheet_grants WHERE sheet_id = ? AND kind = ? "
                "ORDER BY created DESC, rowid DESC LIMIT ?)",
                (info.id, kind, info.id, kind, MAX_GRANTS))

    def pulse(self, sheet_ids: Sequence[int]) -> dict[int, tuple[int, str | None, str | None]]:
        """For each sheet that exists and is not deleted: (its number of events, its
        follow secret, its keep secret): what a live page watches, in one query."""
        ids = [int(i) for i in sheet_ids]
        out: dict[int, tuple[int, str | None, str | None]] = {}
        with self._transaction(write=False) as conn:
            for start in range(0, len(ids), 500):  # SQLite's bound on parameters
                chunk = ids[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for row in conn.execute(
                        "SELECT s.id, (SELECT COALESCE(MAX(seq), 0) FROM events e WHERE "
                        "e.sheet_id = s.id), s.follow_secret, s.keep_secret FROM sheets s "
                        f"WHERE s.id IN ({marks}) AND s.deleted IS NULL", chunk):
                    out[row[0]] = (row[1], row[2], row[3])
        return out

    def export_json(self, sheet_id: Any) -> dict[str, Any]:
        info, entries = self.load_entries(sheet_id)
        return sheet_to_json(info, entries)

    def export_csv(self, sheet_id: Any) -> str:
        info, entries = self.load_entries(sheet_id)
        return sheet_to_csv(info, entries)

    # -- writing ------------------------------------------------------------------------

    def _insert_sheet(self, conn: sqlite3.Connection, info: SheetInfo,
                      owner: str | None) -> int:
        now = _now()
        cur = conn.execute(
            "INSERT INTO sheets (name, profile, options, target, team_names, players, "
            "player_names, created, updated, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (info.name, info.profile, json.dumps(dict(info.options), sort_keys=True),
             info.target, json.dumps(list(info.team_names)), info.players,
             None if info.player_names is None else json.dumps(list(info.player_names)),
             now, now, owner))
        assert cur.lastrowid is not None
        return cur.lastrowid

    @staticmethod
    def _append(conn: sqlite3.Connection, sheet_id: int, kind: str, hand: int,
                entry: Entry | None) -> None:
        now = _now()
        seq = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE sheet_id = ?",
                           (sheet_id,)).fetchone()[0]
        text = None if entry is None else json.dumps(entry_to_json(entry))
        conn.execute(
            "INSERT INTO events (sheet_id, seq, kind, hand, entry, created) "
            "VALUES (?, ?, ?, ?, ?, ?)", (sheet_id, seq, kind, hand, text, now))
        conn.execute("UPDATE sheets SET updated = ? WHERE id = ?", (now, sheet_id))

    def create(
        self, profile: str = "classic", options: Mapping[str, Any] | None = None, *,
        owner: str | None = None, **fields: Unpack[SheetFields],
    ) -> dict[str, Any]:
        """A new empty sheet; answers its state.  ``target`` defaults to the
        rules' (``options`` may set it too); ``players`` 5, 6 or 7 makes an
        N-player sheet (docs/rules.md §13).  ``owner``: the browser identity it
        belongs to (None: the machine's owner, as for ``belote sheet``)."""
        info = make_info(profile, options, **fields)
        self._accept(info)
        with self._transaction(write=True) as conn:
            sid = self._insert_sheet(conn, info, owner)
        return score_sheet(_with_id(info, sid), [])

    def import_json(self, obj: Any, owner: str | None = None) -> dict[str, Any]:
        """A new sheet from :meth:`export_json`'s document, belonging to ``owner``
        (as for :meth:`create`); answers its state."""
        info, entries = sheet_from_json(obj)
        self._accept(info)
        with self._transaction(write=True) as conn:
            sid = self._insert_sheet(conn, info, owner)
            for number, entry in enumerate(entries, start=1):
                self._append(conn, sid, "add", number, entry)
        return score_sheet(_with_id(info, sid), entries)

    def _accept(self, info: SheetInfo) -> None:
        if is_small(info) and not self.small_tables:
            raise OptionError.refused(Refusal.PER_SEAT_TABLE, profile=info.profile,
                                      players=info.players)

    def add_hand(self, sheet_id: Any, hand: Mapping[str, Any] | Entry) -> dict[str, Any]:
        """Add the next hand (a docs/json.md HandEntry without ``reserve``; per seat at a
        table of three or two)."""
        with self._transaction(write=True) as conn:
            info, rules, entries = self._load(conn, sheet_id)
            entry = _entry_of(hand, rules, len(entries) + 1)
            entries.append(entry)
            state = score_sheet(info, entries)
            self._append(conn, info.id, "add", len(entries), entry)
        return state

    def undo(self, sheet_id: Any) -> dict[str, Any]:
        """Remove the last hand."""
        with self._transaction(write=True) as conn:
            info, _, entries = self._load(conn, sheet_id)
            if not entries:
                raise SheetError.refused(Refusal.NOTHING_TO_UNDO, f"sheet {info.id}", sheet=info.id)
            number = len(entries)
            entries.pop()
            state = score_sheet(info, entries)
            self._append(conn, info.id, "undo", number, None)
        return state

    def edit_hand(self, sheet_id: Any, number: int,
                  hand: Mapping[str, Any] | Entry) -> dict[str, Any]:
        """Replace hand ``number`` (from 1); every later score is recomputed."""
        with self._transaction(write=True) as conn:
            info, rules, entries = self._load(conn, sheet_id)
            if not _is_int(number) or not 1 <= number <= len(entries):
                have = f"1..{len(entries)}" if entries else "none: the sheet is empty"
                raise SheetError(f"sheet {info.id}: no hand {number!r} to edit (hands {have})")
            entries[number - 1] = _entry_of(hand, rules, number)
            state = score_sheet(info, entries)
            self._append(conn, info.id, "edit", number, entries[number - 1])
        return state

    def delete(self, sheet_id: Any, purge: bool = False) -> dict[str, Any]:
        """Delete a sheet; answers its last state with ``"deleted": true``.

        By default the sheet is only marked deleted (its history stays in the
        file); ``purge=True`` removes it and its history."""
        with self._transaction(write=True) as conn:
            info, _, entries = self._load(conn, sheet_id)
            try:
                state = score_sheet(info, entries)
            except BeloteError:  # pragma: no cover - a history that no longer scores
                state = {"id": info.id, "name": info.name}
            conn.execute("DELETE FROM sheet_grants WHERE sheet_id = ?", (info.id,))
            if purge:
                conn.execute("DELETE FROM sheets WHERE id = ?", (info.id,))
                conn.execute("DELETE FROM events WHERE sheet_id = ?", (info.id,))
            else:
                now = _now()
                conn.execute("UPDATE sheets SET deleted = ?, updated = ?, follow_secret = "
                             "NULL, keep_secret = NULL WHERE id = ?", (now, now, info.id))
        state["deleted"] = True
        return state


def _per_seat_refusal(info: SheetInfo) -> SheetError:
    return SheetError.refused(Refusal.PER_SEAT_SHEET, f"sheet {info.id}", sheet=info.id,
                              players=info.players, profile=info.profile)


def _with_id(info: SheetInfo, sheet_id: int) -> SheetInfo:
    return dataclasses.replace(info, id=sheet_id)


def _statements(script: str) -> Iterator[str]:
    """The statements of ``script`` one by one (triggers hold inner semicolons)."""
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                yield buffer.strip()
            buffer = ""
