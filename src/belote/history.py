"""Games kept after they are played: every finished deal and game, in the record format
(docs/json.md, "Records of a deal and of a game"; `belote history`).

A game is kept as its record (:meth:`belote.game.Match.to_record`) cut to its finished
deals, read back through :meth:`~belote.game.Match.from_record` (every action checked
again) and summed up once (:func:`summarise`): who sat where, the final score, and
each finished deal with its own record (:meth:`belote.round.Round.record`, which
`belote replay` reads) and its result.

The store is an SQLite file (stdlib ``sqlite3``) with two tables:

``history_games``
    ``id`` (text, the game's id), ``source`` (``play``: the terminal game; ``web``; ``tournament``),
    ``created`` and ``updated`` (Unix times), ``profile``, ``players`` (4, 3 or 2),
    ``seats`` (JSON: ``[{"seat": "N", "name": "...", "kind": "human" | "bot"}, ...]``),
    ``finished`` (0 or 1: the game reached its target), ``totals`` (JSON: the final or
    current score per team, or per seat at three and two), ``winner`` (a team, a seat or
    NULL), ``deals`` (finished deals, all-passes included) and ``record`` (JSON: the game's
    record, finished deals only);
``history_deals``
    ``game``, ``n`` (from 1), ``record`` (JSON: the deal's record), ``result`` (JSON:
    :func:`deal_result`).

The same tables serve every face: the terminal game's own file
(:func:`default_history_path`), a tournament's (``--keep-records``) and the web
server's database, where they hold the finished games of its rooms.

Statistics per player (:func:`stats`) count each scored deal of each game: the deals
played, the contracts taken and made, the points per deal (the seat's score column: its
team's at four players), over every game and per ISO week of the game's start; who
counts as whom is the caller's (``who``: by name by default, the web counts its
identity's seats).  A measure worked out from a deal's record and a seat is added with
:func:`register_measure`, or given to one call (``measures``: the points lost per card
read from the analyses kept, :func:`belote.analysis_cache.loss_measures`, which need the
file's connection): each appears as its mean per player with the deals it covered, and
none is reported before one is given.
"""

from __future__ import annotations

import datetime
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from belote.errors import BeloteError, InvalidRecordError
from belote.game import Match
from belote.play import SEAT_NAMES, TEAM_NAMES
from belote.scoring import Outcome
from belote.table import Phase

HISTORY_FILE: Final = "history.db"
SOURCES: Final = ("play", "web", "tournament")
KINDS: Final = ("human", "bot")
ID_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
MAX_ID: Final = 64

SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS history_games (
        id TEXT PRIMARY KEY,
        source TEXT NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL,
        profile TEXT NOT NULL,
        players INTEGER NOT NULL,
        seats TEXT NOT NULL,
        finished INTEGER NOT NULL,
        totals TEXT NOT NULL,
        winner TEXT,
        deals INTEGER NOT NULL,
        record TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS history_deals (
        game TEXT NOT NULL REFERENCES history_games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        record TEXT NOT NULL,
        result TEXT NOT NULL,
        PRIMARY KEY (game, n))""",
    "CREATE INDEX IF NOT EXISTS history_games_updated ON history_games (updated)",
)


class HistoryError(BeloteError):
    """The history cannot be read or written, or a game asked for is not there."""


@dataclass(frozen=True)
class Player:
    """Who sat at a seat: a person (``human``) or a bot (its name, ``heuristic``...)."""

    seat: str
    name: str
    kind: str = "bot"

    def to_json(self) -> dict[str, str]:
        return {"seat": self.seat, "name": self.name, "kind": self.kind}

    @classmethod
    def from_json(cls, data: Any) -> Player:
        if not isinstance(data, dict):
            raise InvalidRecordError(f"seats: expected an object, got {data!r}")
        seat, name, kind = data.get("seat"), data.get("name"), data.get("kind", "bot")
        if (not isinstance(seat, str) or len(seat) != 1 or seat not in SEAT_NAMES
                or not isinstance(name, str) or kind not in KINDS):
            raise InvalidRecordError(f"seats: not a seat of the history: {data!r}")
        return cls(seat, name, kind)


@dataclass(frozen=True)
class DealSummary:
    """One finished deal: its record (``Round.record``) and its result."""

    n: int
    record: dict[str, Any]
    result: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "result": self.result, "record": self.record}


@dataclass(frozen=True)
class GameSummary:
    """A game as the history keeps it (module doc)."""

    id: str
    source: str
    created: float
    updated: float
    profile: str
    players: int
    seats: tuple[Player, ...]
    finished: bool
    totals: dict[str, int]
    winner: str | None
    record: dict[str, Any]
    deals: tuple[DealSummary, ...] = field(default=())
    deal_count: int = 0

    def to_json(self, with_deals: bool = True) -> dict[str, Any]:
        """The game's row (``belote history --json``); with its deals and record
        (``belote history show ID --json`` prints only the record)."""
        out: dict[str, Any] = {
            "id": self.id, "source": self.source, "created": self.created,
            "updated": self.updated, "profile": self.profile, "players": self.players,
            "seats": [p.to_json() for p in self.seats], "finished": self.finished,
            "totals": self.totals, "winner": self.winner, "deals": self.deal_count,
        }
        if with_deals:
            out["deal_results"] = [d.result for d in self.deals]
        return out


def default_history_path() -> Path:
    """The terminal game's history: ``$BELOTE_HISTORY``, else
    ``$XDG_DATA_HOME/belote/history.db`` (``~/.local/share/belote/history.db``), beside
    its saved game."""
    env = os.environ.get("BELOTE_HISTORY")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "belote" / HISTORY_FILE


def new_game_id() -> str:
    """A fresh game id: twelve letters and digits."""
    return secrets.token_hex(6)


def check_game_id(value: object, where: str = "game id") -> str:
    """``value`` if it may be a game's id (letters, digits, ``-`` and ``_``, at most
    :data:`MAX_ID`), else a refusal saying so (and nothing of what the history holds)."""
    if (not isinstance(value, str) or not 0 < len(value) <= MAX_ID
            or not set(value) <= ID_CHARS):
        shown = value if isinstance(value, str) and len(value) <= MAX_ID else "…"
        raise HistoryError(f"{where}: {shown!r} is not a game id (letters, digits, - and _)")
    return value


# --- a game summed up ---------------------------------------------------------------


def deal_result(match: Match, index: int, scored: int) -> dict[str, Any]:
    """The result of the game's deal ``index`` (from 0), the ``scored``-th scored deal
    (from 0) when it was not an all-pass: ``{"dealer", "outcome", "taker", "contract",
    "score"}``, ``score`` being what each team (each seat at three and two) added to its
    total, as the game's tally wrote it (§8–§12)."""
    rnd = match.rounds[index]
    dealer = SEAT_NAMES[rnd.dealer]
    if rnd.phase is Phase.ALL_PASS:
        names = TEAM_NAMES if match.players == 4 else SEAT_NAMES[:match.players]
        return {"dealer": dealer, "outcome": str(Outcome.VOID), "taker": None, "contract": None,
                "score": {name: 0 for name in names}}
    hand = match.score.hands[scored].to_json()
    contract = rnd.contract
    assert contract is not None
    result = rnd.result()
    return {
        "dealer": dealer, "outcome": hand["outcome"],
        "taker": contract.to_json()["taker"], "contract": contract.to_json(),
        "capot": result.capot is not None, "score": hand["score"],
    }


def summarise(record: Any, *, game_id: str, source: str, seats: Sequence[Player],
              created: float | None = None, updated: float | None = None) -> GameSummary:
    """A game's record (:meth:`Match.to_record`) read back, every action checked again,
    and summed up: its finished deals (an unfinished last deal is left out of the
    record kept), each with its record and result, and the score after them."""
    check_game_id(game_id)
    if source not in SOURCES:
        raise HistoryError(f"source: {source!r} is not one of {', '.join(SOURCES)}")
    match = Match.from_record(record)
    n = match.players
    if len(seats) != n or [p.seat for p in seats] != list(SEAT_NAMES[:n]):
        raise HistoryError(f"seats: one a seat, {' '.join(SEAT_NAMES[:n])} in order")
    deals: list[DealSummary] = []
    scored = 0
    for i, rnd in enumerate(match.rounds):
        if rnd.phase not in (Phase.OVER, Phase.ALL_PASS):
            break  # the deal in progress (only ever the last) is not kept
        deals.append(DealSummary(i + 1, rnd.record(), deal_result(match, i, scored)))
        if rnd.phase is Phase.OVER:
            scored += 1
    full = match.to_record()
    full["deals"] = full["deals"][:len(deals)]
    score = match.score.to_json()
    now = time.time()
    return GameSummary(
        id=game_id, source=source, created=now if created is None else created,
        updated=now if updated is None else updated, profile=match.rules.profile,
        players=n, seats=tuple(seats), finished=match.finished, totals=score["totals"],
        winner=score["winner"], record=full, deals=tuple(deals), deal_count=len(deals),
    )


# --- the tables ---------------------------------------------------------------------


def setup(conn: sqlite3.Connection) -> None:
    """Create the history's tables where they are missing."""
    for sql in SCHEMA:
        conn.execute(sql)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def put(conn: sqlite3.Connection, game: GameSummary) -> None:
    """Write ``game`` (replacing an earlier state of the same id), in the caller's
    transaction."""
    old = conn.execute("SELECT created FROM history_games WHERE id = ?", (game.id,)).fetchone()
    created = old[0] if old else game.created
    conn.execute("DELETE FROM history_deals WHERE game = ?", (game.id,))
    conn.execute(
        "INSERT OR REPLACE INTO history_games (id, source, created, updated, profile, players, "
        "seats, finished, totals, winner, deals, record) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        (game.id, game.source, created, game.updated, game.profile, game.players,
         _dumps([p.to_json() for p in game.seats]), int(game.finished), _dumps(game.totals),
         game.winner, len(game.deals), _dumps(game.record)))
    conn.executemany(
        "INSERT INTO history_deals (game, n, record, result) VALUES (?,?,?,?)",
        [(game.id, d.n, _dumps(d.record), _dumps(d.result)) for d in game.deals])


_COLUMNS: Final = ("id, source, created, updated, profile, players, seats, finished, totals, "
                   "winner, deals, record")


def _game(row: Sequence[Any], deals: Iterable[Sequence[Any]] = ()) -> GameSummary:
    return GameSummary(
        id=row[0], source=row[1], created=row[2], updated=row[3], profile=row[4],
        players=row[5], seats=tuple(Player.from_json(p) for p in json.loads(row[6])),
        finished=bool(row[7]), totals=json.loads(row[8]), winner=row[9],
        record=json.loads(row[11]),
        deals=tuple(DealSummary(n, json.loads(rec), json.loads(res)) for n, rec, res in deals),
        deal_count=row[10],
    )


def list_games(conn: sqlite3.Connection, *, profile: str | None = None,
               source: str | None = None, ids: Sequence[str] | None = None,
               limit: int | None = None) -> list[GameSummary]:
    """The games kept, the last played first (without their deals): of one profile,
    one source, or among ``ids``, when given."""
    where: list[str] = []
    args: list[Any] = []
    if profile is not None:
        where.append("profile = ?")
        args.append(profile)
    if source is not None:
        where.append("source = ?")
        args.append(source)
    if ids is not None:
        if not ids:
            return []
        where.append(f"id IN ({','.join('?' * len(ids))})")
        args += list(ids)
    sql = f"SELECT {_COLUMNS} FROM history_games"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY updated DESC, created DESC, id"
    if limit is not None:
        sql += " LIMIT ?"
        args.append(limit)
    return [_game(r) for r in conn.execute(sql, args).fetchall()]


def get_game(conn: sqlite3.Connection, game_id: str) -> GameSummary | None:
    """The game ``game_id`` with its deals, or None."""
    row = conn.execute(f"SELECT {_COLUMNS} FROM history_games WHERE id = ?",
                       (game_id,)).fetchone()
    if row is None:
        return None
    deals = conn.execute("SELECT n, record, result FROM history_deals WHERE game = ? "
                         "ORDER BY n", (game_id,)).fetchall()
    return _game(row, deals)


def known_ids(conn: sqlite3.Connection, ids: Sequence[str]) -> set[str]:
    """Which of ``ids`` the history holds."""
    if not ids:
        return set()
    rows = conn.execute(
        f"SELECT id FROM history_games WHERE id IN ({','.join('?' * len(ids))})", list(ids))
    return {r[0] for r in rows}


# --- statistics ---------------------------------------------------------------------

SeatMeasure = Callable[[dict[str, Any], int], tuple[float, int] | None]
"""A measure of one seat's play in one deal: given the deal's record
(:meth:`belote.round.Round.record`) and the seat (0 = N), a total and how many
things it counts (the points lost and the cards played, say), or None when it does
not apply; the statistics report the total over the count, per player."""

MEASURES: dict[str, SeatMeasure] = {}


def register_measure(name: str, measure: SeatMeasure) -> None:
    """Add a measure to the statistics (:func:`stats`) under ``name``, e.g. an
    analysis's ``points_lost_per_card``."""
    MEASURES[name] = measure


def _column(seat: int, players: int) -> str:
    return TEAM_NAMES[seat % 2] if players == 4 else SEAT_NAMES[seat]


PlayerKey = Callable[["GameSummary", Player], tuple[str, str] | None]
"""Who a seat of a game counts as in the statistics: ``(kind, name)``, or None to
leave the seat out (the web counts only its identity's seats)."""


def by_name(game: GameSummary, player: Player) -> tuple[str, str] | None:
    """A person by the name he played under, a bot by its name (:func:`stats`'
    default)."""
    return (player.kind, player.name)


def iso_week(when: float) -> str:
    """The ISO week (UTC) of a Unix time: ``2026-W49``."""
    year, week, _ = datetime.datetime.fromtimestamp(when, datetime.UTC).isocalendar()
    return f"{year}-W{week:02d}"


class _Tally:
    """One player's counts (over every game, or over one week's)."""

    def __init__(self) -> None:
        self.games: set[str] = set()
        self.deals = self.taken = self.made = self.points = 0
        self.sums: dict[str, list[float]] = {}  # name: [total, count, deals measured]

    def add(self, game: GameSummary, deal: DealSummary, player: Player,
            got: dict[str, tuple[float, int]]) -> None:
        res = deal.result
        self.games.add(game.id)
        self.deals += 1
        self.points += res["score"].get(
            _column(SEAT_NAMES.index(player.seat), game.players), 0)
        if res.get("taker") == player.seat:
            self.taken += 1
            self.made += res["outcome"] == Outcome.MADE
        for name, (total, count) in got.items():
            acc = self.sums.setdefault(name, [0.0, 0, 0])
            acc[0] += total
            acc[1] += count
            acc[2] += 1

    def measures(self, names: Iterable[str]) -> dict[str, Any]:
        out: dict[str, Any] = {"measures": {}, "measured": {}}
        for name in names:
            total, count, deals = self.sums.get(name, (0.0, 0, 0))
            out["measures"][name] = round(total / count, 3) if count else None
            out["measured"][name] = int(deals)
        return out


def stats(games: Iterable[GameSummary],
          measures: dict[str, SeatMeasure] | None = None, *,
          who: PlayerKey = by_name) -> list[dict[str, Any]]:
    """Per player (``who``: by default a person by the name he played under, a bot by
    its name), over the scored deals of ``games`` (given with their deals):
    ``deals``, ``taken`` (contracts taken), ``made``, ``points`` (the seat's score
    column: its team's at four players) and ``points_per_deal``; with measures
    (``measures``, else the registered ones, :data:`MEASURES`), one mean per measure
    under ``measures`` (None where it never applied) and under ``measured`` the deals
    it applied to (a measure read from a cache covers only the deals analysed);
    ``weeks``: the same per ISO week of the game's start (UTC), the oldest first.
    Sorted by the deals played, the most first."""
    measures = MEASURES if measures is None else measures
    table: dict[tuple[str, str], _Tally] = {}
    weeks: dict[tuple[str, str], dict[str, _Tally]] = {}
    for game in games:
        week = iso_week(game.created)
        for deal in game.deals:
            if deal.result["outcome"] == Outcome.VOID:
                continue
            for player in game.seats:
                key = who(game, player)
                if key is None:
                    continue
                seat = SEAT_NAMES.index(player.seat)
                got = {}
                for name, measure in measures.items():
                    value = measure(deal.record, seat)
                    if value is not None:
                        got[name] = value
                table.setdefault(key, _Tally()).add(game, deal, player, got)
                weeks.setdefault(key, {}).setdefault(week, _Tally()).add(
                    game, deal, player, got)
    out = []
    for key, tally in table.items():
        row: dict[str, Any] = {
            "name": key[1], "kind": key[0], "games": len(tally.games), "deals": tally.deals,
            "taken": tally.taken, "made": tally.made, "points": tally.points,
            "points_per_deal": round(tally.points / tally.deals, 2)}
        if measures:
            row.update(tally.measures(measures))
        row["weeks"] = []
        for week, part in sorted(weeks[key].items()):
            entry: dict[str, Any] = {"week": week, "games": len(part.games),
                                     "deals": part.deals, "points": part.points,
                                     "points_per_deal": round(part.points / part.deals, 2)}
            if measures:
                entry.update(part.measures(measures))
            row["weeks"].append(entry)
        out.append(row)
    out.sort(key=lambda r: (-r["deals"], r["kind"], r["name"]))
    return out


# --- a history file -----------------------------------------------------------------


class HistoryStore:
    """A history in its own SQLite file (the terminal game's, a tournament's)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(self.path, timeout=5.0)
            self.conn.execute("PRAGMA foreign_keys = ON")
            with self.conn:
                setup(self.conn)
        except (OSError, sqlite3.Error) as exc:
            raise HistoryError(f"cannot open the history {str(self.path)!r}: {exc}") from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> HistoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def keep(self, record: Any, *, game_id: str, source: str, seats: Sequence[Player],
             created: float | None = None) -> GameSummary:
        """Keep the game of ``record`` (its finished deals) under ``game_id``, replacing
        the state kept before: a game is kept again after each deal."""
        game = summarise(record, game_id=game_id, source=source, seats=seats,
                         created=created)
        try:
            with self.conn:
                put(self.conn, game)
        except sqlite3.Error as exc:
            raise HistoryError(f"cannot write the history {str(self.path)!r}: {exc}") from None
        return game

    def keep_all(self, games: Sequence[GameSummary]) -> None:
        """Keep games already summed up (:func:`summarise`), in one transaction."""
        try:
            with self.conn:
                for game in games:
                    put(self.conn, game)
        except sqlite3.Error as exc:
            raise HistoryError(f"cannot write the history {str(self.path)!r}: {exc}") from None

    def games(self, *, profile: str | None = None, limit: int | None = None
              ) -> list[GameSummary]:
        try:
            return list_games(self.conn, profile=profile, limit=limit)
        except sqlite3.Error as exc:
            raise HistoryError(f"cannot read the history {str(self.path)!r}: {exc}") from None

    def game(self, game_id: str) -> GameSummary:
        """The game ``game_id`` with its deals; refused when there is none."""
        check_game_id(game_id)
        try:
            game = get_game(self.conn, game_id)
        except sqlite3.Error as exc:
            raise HistoryError(f"cannot read the history {str(self.path)!r}: {exc}") from None
        if game is None:
            raise HistoryError(f"no game {game_id!r} in the history {str(self.path)!r}")
        return game

    def all_games(self, *, profile: str | None = None) -> list[GameSummary]:
        """Every game with its deals (for :func:`stats`)."""
        return [self.game(g.id) for g in self.games(profile=profile)]
