"""Analyses of played deals kept so that each deal is analysed once (docs/json.md,
`belote history analyze`).

An analysis (:func:`belote.analysis.analyze_deal`) costs CPU time: some 0.7 s for a
deal of four players double dummy only, much more at three and two players or with
the player's view.  Whoever needs one (the statistics of the history, a review page)
asks this cache first and keeps what it works out:

- :func:`cached_analysis` ``(conn, deal_record, settings)``: the analysis kept for that
  deal's record and those settings (the JSON of :meth:`DealAnalysis.to_json
  <belote.analysis.DealAnalysis.to_json>`), or None;
- :func:`analyse` ``(deal_record, settings, progress=None)``: the analysis worked out
  (no database: run it off the event loop, in a thread);
- :func:`store_analysis` ``(conn, deal_record, settings, analysis)``: keep it, in the
  caller's transaction (on the web server, through the store's writer thread);
- :func:`cached_analyses` ``(conn, records, settings)``: those kept for many deals at
  once, by deal hash;
- :func:`touch` ``(conn, deal_record, settings)``: the analysis was read now (the order
  in which :func:`trim` drops them).

The tables (:func:`setup`) sit beside the history's, in the same SQLite file:

``analysis_cache``
    ``deal`` (text: :func:`deal_hash`, the SHA-256 of the deal's record as canonical
    JSON), ``settings`` (text: :meth:`AnalysisSettings.key`, canonical JSON, the
    analysis's :data:`VERSION` included), ``analysis`` (JSON), ``created`` (Unix time),
    ``size`` (the JSON's bytes), ``read`` (Unix time it was last read, at first its
    ``created``); the key is (``deal``, ``settings``).
``analysis_measures``
    what the statistics read of each analysis they count (:func:`seat_losses`: the
    points each seat's cards lost and how many were counted, double dummy and given
    what the player knew), a few numbers a deal: ``deal``, ``settings``, ``losses``
    (JSON), the same key.  Written with the analysis, and kept when :func:`trim` drops
    the analysis.

**The bound.**  An analysis weighs some 10 KB.  A server gives :func:`store_analysis`
its bound (``max_bytes``; ``belote serve --analysis-cache-mb``, 128 by default): past
it, :func:`trim` drops the analyses read least recently first, never the one just
written.  The statistics read their numbers from ``analysis_measures``
(:func:`loss_measures`), which are kept: a trimmed deal still counts and is not
analysed again for them.  Only a review needs the whole analysis (every card's
values): a trimmed deal's review works it out again when it is opened (rare: an old
deal opened again).  Keeping the numbers rather than analysing the trimmed deals again
on demand costs some 250 bytes a deal against seconds of CPU a deal; and as the
statistics cover each player's last 200 games, on demand a busy server would analyse
the same deals over and over as they are trimmed.

A deal is known by its record alone (the deck, the dealer, the rules, the actions), so
the same deal kept twice (a game kept again after each deal, the same board at two
tables) is analysed once, and a record that changed is a new deal.  The settings are
those of :func:`~belote.analysis.analyze_deal` that change its numbers; a change to the
analysis that changes them bumps :data:`VERSION`, leaving the old rows unread.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from belote.analysis import Progress, analyze_deal
from belote.history import GameSummary, SeatMeasure
from belote.play import SEAT_NAMES
from belote.scoring import Outcome

__all__ = [
    "DD_MEASURE",
    "DD_ONLY",
    "EVERY_VIEW",
    "VERSION",
    "VIEW_MEASURE",
    "AnalysisSettings",
    "analyse",
    "cached_analyses",
    "cached_analysis",
    "card_losses",
    "deal_hash",
    "loss_measure",
    "loss_measures",
    "losses_for_stats",
    "measured",
    "not_analysed",
    "scored_deals",
    "seat_losses",
    "setup",
    "store_analysis",
    "touch",
    "trim",
]

VERSION: Final = 1  # of the analysis's numbers (module doc)
MAX_VARIABLES: Final = 500  # hashes asked per query (SQLite's limit is higher)

SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS analysis_cache (
        deal TEXT NOT NULL,
        settings TEXT NOT NULL,
        analysis TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (deal, settings))""",
    """CREATE TABLE IF NOT EXISTS analysis_measures (
        deal TEXT NOT NULL,
        settings TEXT NOT NULL,
        losses TEXT NOT NULL,
        PRIMARY KEY (deal, settings))""",
)
# Added to the table of an older file by setup (filled in from its rows then).
ADDED_COLUMNS: Final = (("size", "INTEGER"), ("read", "REAL"))


@dataclass(frozen=True)
class AnalysisSettings:
    """What an analysis was asked (:func:`~belote.analysis.analyze_deal`'s arguments):
    ``seats`` whose view is worked out (``()``: double dummy only; None: every seat),
    ``worlds`` and ``seed`` of that view (unused double dummy only), ``max_nodes`` of
    one exact solve (None: the analysis's default)."""

    seats: tuple[int, ...] | None = ()
    worlds: int | None = None
    seed: int = 0
    max_nodes: int | None = None

    @property
    def dd_only(self) -> bool:
        return self.seats == ()

    def key(self) -> str:
        """The settings as canonical JSON, :data:`VERSION` included; the worlds and the
        seed left out double dummy only (they change nothing there)."""
        seats: Any = "all" if self.seats is None else sorted(set(self.seats))
        data: dict[str, Any] = {"v": VERSION, "seats": seats, "max_nodes": self.max_nodes}
        if not self.dd_only:
            data["worlds"] = self.worlds
            data["seed"] = self.seed
        return json.dumps(data, sort_keys=True, separators=(",", ":"))


DD_ONLY: Final = AnalysisSettings()
"""Double dummy only, the analysis's defaults: the statistics' own."""

EVERY_VIEW: Final = AnalysisSettings(seats=None)
"""Every seat's view too (the bot's worlds, seed 0): `belote history analyze --view`."""


def setup(conn: sqlite3.Connection) -> None:
    """Create the cache's tables where they are missing; an older file's table gets its
    ``size`` and ``read`` columns (filled in from its rows) and the index of the order
    :func:`trim` reads."""
    for sql in SCHEMA:
        conn.execute(sql)
    columns = {row[1] for row in conn.execute("PRAGMA table_info(analysis_cache)")}
    for name, kind in ADDED_COLUMNS:
        if name not in columns:
            conn.execute(f"ALTER TABLE analysis_cache ADD COLUMN {name} {kind}")
    if "size" not in columns:
        conn.execute("UPDATE analysis_cache SET size = length(CAST(analysis AS BLOB)), "
                     "read = created")
    conn.execute("CREATE INDEX IF NOT EXISTS analysis_cache_read "
                 "ON analysis_cache (read, size)")


def deal_hash(record: Mapping[str, Any]) -> str:
    """The deal's key: the SHA-256 (hex) of its record as canonical JSON (sorted keys,
    no spaces)."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _has_table(conn: sqlite3.Connection, name: str = "analysis_cache") -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                        "AND name = ?", (name,)).fetchone() is not None


def cached_analysis(conn: sqlite3.Connection, deal_record: Mapping[str, Any],
                    settings: AnalysisSettings = DD_ONLY) -> dict[str, Any] | None:
    """The analysis kept for ``deal_record`` with ``settings`` (its JSON), or None (none
    kept, or a file without the cache's table)."""
    if not _has_table(conn):
        return None
    row = conn.execute("SELECT analysis FROM analysis_cache WHERE deal = ? AND settings = ?",
                       (deal_hash(deal_record), settings.key())).fetchone()
    return None if row is None else dict(json.loads(row[0]))


def cached_analyses(conn: sqlite3.Connection, hashes: Iterable[str],
                    settings: AnalysisSettings = DD_ONLY) -> dict[str, dict[str, Any]]:
    """The analyses kept with ``settings`` for the deals of ``hashes``
    (:func:`deal_hash`), by hash; those not kept are left out."""
    if not _has_table(conn):
        return {}
    wanted = sorted(set(hashes))
    out: dict[str, dict[str, Any]] = {}
    key = settings.key()
    for i in range(0, len(wanted), MAX_VARIABLES):
        part = wanted[i:i + MAX_VARIABLES]
        rows = conn.execute(
            f"SELECT deal, analysis FROM analysis_cache WHERE settings = ? "
            f"AND deal IN ({','.join('?' * len(part))})", [key, *part])
        for deal, text in rows:
            out[deal] = json.loads(text)
    return out


def analyse(deal_record: Mapping[str, Any], settings: AnalysisSettings = DD_ONLY,
            progress: Progress | None = None) -> dict[str, Any]:
    """The deal analysed with ``settings`` (:func:`~belote.analysis.analyze_deal`; its
    refusals, an :class:`~belote.errors.InvalidRecordError`, pass through), as JSON.
    Touches no database: run it where the CPU time may be spent."""
    return analyze_deal(dict(deal_record), seats=settings.seats, worlds=settings.worlds,
                        seed=settings.seed, max_nodes=settings.max_nodes,
                        progress=progress).to_json()


def store_analysis(conn: sqlite3.Connection, deal_record: Mapping[str, Any],
                   settings: AnalysisSettings, analysis: Mapping[str, Any],
                   created: float | None = None, max_bytes: int | None = None) -> None:
    """Keep ``analysis`` (:func:`analyse`'s) for the deal and ``settings``, replacing
    one kept before, with what the statistics read of it (:func:`seat_losses`), in the
    caller's transaction (:func:`setup` done).  ``max_bytes``: then :func:`trim` the
    cache to that bound (this analysis kept)."""
    deal, key = deal_hash(deal_record), settings.key()
    text = json.dumps(analysis, separators=(",", ":"))
    when = time.time() if created is None else created
    conn.execute(
        "INSERT OR REPLACE INTO analysis_cache (deal, settings, analysis, created, size, "
        "read) VALUES (?,?,?,?,?,?)", (deal, key, text, when, len(text.encode()), when))
    if _read_by_stats(key):
        _keep_losses(conn, deal, key, analysis)
    if max_bytes is not None:
        trim(conn, max_bytes, keep=(deal, key))


def touch(conn: sqlite3.Connection, deal_record: Mapping[str, Any],
          settings: AnalysisSettings, when: float | None = None) -> None:
    """The analysis kept for the deal and ``settings`` was read at ``when`` (now):
    :func:`trim` drops it after those read longer ago.  In the caller's transaction."""
    conn.execute("UPDATE analysis_cache SET read = ? WHERE deal = ? AND settings = ?",
                 (time.time() if when is None else when, deal_hash(deal_record),
                  settings.key()))


def trim(conn: sqlite3.Connection, max_bytes: int,
         keep: tuple[str, str] | None = None) -> int:
    """Drop the analyses read least recently (:func:`touch`; never read: written)
    until those kept weigh ``max_bytes`` at most, never ``keep`` (a deal's hash and a
    settings' key); what the statistics read of each is kept first
    (``analysis_measures``).  In the caller's transaction; how many were dropped."""
    total = conn.execute("SELECT COALESCE(SUM(size), 0) FROM analysis_cache").fetchone()[0]
    excess = int(total) - max_bytes
    if excess <= 0:
        return 0
    dropped: list[tuple[str, str]] = []
    rows = conn.execute("SELECT deal, settings, COALESCE(size, 0) FROM analysis_cache "
                        "ORDER BY read, rowid")
    for deal, key, size in rows:
        if excess <= 0:
            break
        if (deal, key) == keep:
            continue
        dropped.append((deal, key))
        excess -= int(size)
    rows.close()
    for deal, key in dropped:
        if _read_by_stats(key) and conn.execute(
                "SELECT 1 FROM analysis_measures WHERE deal = ? AND settings = ?",
                (deal, key)).fetchone() is None:  # kept before the measures were
            text = conn.execute("SELECT analysis FROM analysis_cache WHERE deal = ? AND "
                                "settings = ?", (deal, key)).fetchone()[0]
            _keep_losses(conn, deal, key, json.loads(text))
        conn.execute("DELETE FROM analysis_cache WHERE deal = ? AND settings = ?",
                     (deal, key))
    return len(dropped)


def _keep_losses(conn: sqlite3.Connection, deal: str, key: str,
                 analysis: Mapping[str, Any]) -> None:
    conn.execute("INSERT OR REPLACE INTO analysis_measures (deal, settings, losses) "
                 "VALUES (?,?,?)",
                 (deal, key, json.dumps(seat_losses(analysis), separators=(",", ":"))))


# --- what the statistics read from an analysis ------------------------------------------

LossKind = str  # "dd" (double dummy) or "info" (given what the player knew)


def card_losses(analysis: Mapping[str, Any], seat: int, kind: LossKind = "dd"
                ) -> tuple[float, int]:
    """The points the seat's cards lost in an analysis (its JSON) and how many cards
    are counted: double dummy (``dd``: each card's ``dd_loss``, a forced card's 0; a
    card left unsolved not counted) or given what the player knew (``info``: each
    card's ``info_loss``, a forced card's 0; none counted where his view was not
    asked)."""
    name = SEAT_NAMES[seat]
    total = 0.0
    count = 0
    for card in analysis.get("cards", ()):
        if not isinstance(card, Mapping) or card.get("seat") != name:
            continue
        if card.get("verdict") == "forced":
            loss: float | None = 0.0
        else:
            loss = card.get("dd_loss") if kind == "dd" else card.get("info_loss")
        if loss is not None:
            total += loss
            count += 1
    return total, count


Losses = dict[str, list[float | int | None]]
"""What the statistics read of one analysis (:func:`seat_losses`): by seat letter,
``[dd_lost, dd_cards, info_lost, info_cards]``, the last two None where the seat's view
was not asked."""


def seat_losses(analysis: Mapping[str, Any]) -> Losses:
    """The points each seat's cards lost in an analysis (its JSON) and how many are
    counted (:func:`card_losses`), double dummy and, for the seats whose view it asked,
    given what the player knew: all the statistics read of it (``analysis_measures``)."""
    asked = analysis.get("seats") or ()
    out: Losses = {}
    for seat, name in enumerate(SEAT_NAMES):
        dd = card_losses(analysis, seat, "dd")
        info = card_losses(analysis, seat, "info") if name in asked else (None, None)
        out[name] = [dd[0], dd[1], info[0], info[1]]
    return out


def loss_measure(losses: Mapping[str, Sequence[Mapping[str, Sequence[float | int | None]]]],
                 kind: LossKind = "dd",
                 hashes: dict[int, tuple[dict[str, Any], str]] | None = None) -> SeatMeasure:
    """A measure for :func:`belote.history.stats`: the points a seat's cards lost
    (:func:`card_losses`) in the deal's analyses as ``losses`` holds them (by
    :func:`deal_hash`, each analysis's :func:`seat_losses`, :func:`losses_for_stats`'s
    answer): double dummy, the first analysis of the deal; given what he knew, the
    first whose seats asked include the seat's.  None for a deal not analysed so (the
    statistics then count it as not covered)."""
    if hashes is None:
        hashes = {}  # each record hashed once: id -> (the record, kept alive; its hash)
    first = 0 if kind == "dd" else 2

    def measure(record: dict[str, Any], seat: int) -> tuple[float, int] | None:
        known = hashes.get(id(record))
        if known is None or known[0] is not record:
            known = hashes[id(record)] = (record, deal_hash(record))
        for found in losses.get(known[1], ()):
            mine = found.get(SEAT_NAMES[seat])
            if mine is None or mine[first] is None:
                continue
            return float(mine[first] or 0.0), int(mine[first + 1] or 0)
        return None

    return measure


def _read_by_stats(key: str) -> bool:
    """Whether the statistics read the analyses kept with the settings ``key``: of this
    :data:`VERSION`, with the default ``max_nodes`` (whatever the seats whose view was
    asked, a review's included)."""
    try:
        settings = json.loads(key)
    except ValueError:
        return False
    return isinstance(settings, dict) and settings.get("v") == VERSION \
        and settings.get("max_nodes") is None


def _stats_order(found: dict[str, list[tuple[str, Any]]]) -> dict[str, list[Any]]:
    """Each deal's items by settings, double dummy only first."""
    first = DD_ONLY.key()
    return {deal: [a for _, a in sorted(items, key=lambda ka: (ka[0] != first, ka[0]))]
            for deal, items in found.items()}


def losses_for_stats(conn: sqlite3.Connection, hashes: Iterable[str]
                     ) -> dict[str, list[Losses]]:
    """What the statistics read of every analysis of the deals of ``hashes`` they count
    (of this :data:`VERSION`, with the default ``max_nodes``, whatever the seats whose
    view was asked, a review's included; the trimmed ones included): each one's
    :func:`seat_losses`, by hash, double dummy only first.  Read from
    ``analysis_measures``; an analysis kept without them (by an older version) is read
    itself."""
    wanted = sorted(set(hashes))
    found: dict[str, list[tuple[str, Any]]] = {}
    measures = _has_table(conn, "analysis_measures")
    for i in range(0, len(wanted), MAX_VARIABLES):
        part = wanted[i:i + MAX_VARIABLES]
        marks = ",".join("?" * len(part))
        if measures:
            for deal, key, text in conn.execute(
                    f"SELECT deal, settings, losses FROM analysis_measures "
                    f"WHERE deal IN ({marks})", part):
                if _read_by_stats(key):
                    found.setdefault(deal, []).append((key, json.loads(text)))
        if _has_table(conn):
            missing = (" AND NOT EXISTS (SELECT 1 FROM analysis_measures m WHERE "
                       "m.deal = c.deal AND m.settings = c.settings)") if measures else ""
            for deal, key, text in conn.execute(
                    f"SELECT deal, settings, analysis FROM analysis_cache c "
                    f"WHERE deal IN ({marks}){missing}", part):
                if _read_by_stats(key):
                    found.setdefault(deal, []).append((key, seat_losses(json.loads(text))))
    return _stats_order(found)


# --- the history's deals ----------------------------------------------------------------

DD_MEASURE: Final = "dd_lost_per_card"
VIEW_MEASURE: Final = "info_lost_per_card"


def scored_deals(games: Iterable[GameSummary]) -> list[dict[str, Any]]:
    """The records of the deals of ``games`` that were played (all-passes left out:
    no card to analyse), in the games' order, each deal once."""
    seen: set[str] = set()
    out = []
    for game in games:
        for deal in game.deals:
            if deal.result["outcome"] == Outcome.VOID:
                continue
            key = deal_hash(deal.record)
            if key not in seen:
                seen.add(key)
                out.append(deal.record)
    return out


def loss_measures(conn: sqlite3.Connection, games: Iterable[GameSummary]
                  ) -> dict[str, SeatMeasure]:
    """The measures of the statistics read from this cache for ``games``' deals
    (:func:`belote.history.stats`'s ``measures``): :data:`DD_MEASURE`, the points lost
    per card double dummy, :data:`VIEW_MEASURE`, given what the player knew (an
    analysis that asked his seat's view), from the numbers :func:`losses_for_stats`
    reads.  Nothing is analysed here: a deal never analysed is not covered."""
    hashes: dict[int, tuple[dict[str, Any], str]] = {}
    for game in games:
        for deal in game.deals:
            hashes[id(deal.record)] = (deal.record, deal_hash(deal.record))
    found = losses_for_stats(conn, {h for _, h in hashes.values()})
    return {DD_MEASURE: loss_measure(found, "dd", hashes),
            VIEW_MEASURE: loss_measure(found, "info", hashes)}


def measured(conn: sqlite3.Connection, hashes: Iterable[str]) -> set[str]:
    """The deals of ``hashes`` the statistics have numbers for (:func:`losses_for_stats`:
    an analysis kept, or trimmed after its numbers were kept)."""
    return set(losses_for_stats(conn, hashes))


def not_analysed(conn: sqlite3.Connection, games: Iterable[GameSummary]
                 ) -> list[dict[str, Any]]:
    """The records of ``games``' played deals (:func:`scored_deals`) the statistics have
    no numbers for (:func:`measured`), in the games' order."""
    records = scored_deals(games)
    hashes = [deal_hash(r) for r in records]
    kept = measured(conn, hashes)
    return [r for r, h in zip(records, hashes, strict=True) if h not in kept]
