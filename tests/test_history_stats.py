"""Statistics per player over the history (belote.history.stats: by player, by ISO week,
the measures and the deals they cover), the analyses kept per deal
(belote.analysis_cache) and `belote history --stats` / `belote history analyze`."""

from __future__ import annotations

import datetime
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belote import analysis_cache
from belote.analysis import analyze_deal
from belote.analysis_cache import (
    DD_MEASURE,
    DD_ONLY,
    EVERY_VIEW,
    VIEW_MEASURE,
    AnalysisSettings,
    cached_analyses,
    cached_analysis,
    card_losses,
    deal_hash,
    loss_measures,
    store_analysis,
)
from belote.bots import make_bot
from belote.bots.base import play_game
from belote.cli import app
from belote.history import (
    DealSummary,
    GameSummary,
    HistoryStore,
    Player,
    iso_week,
    stats,
)
from belote.options import make_rules
from belote.play import SEAT_NAMES

runner = CliRunner()

MONDAY_W48 = datetime.datetime(2026, 11, 23, 12, tzinfo=datetime.UTC).timestamp()
TUESDAY_W49 = datetime.datetime(2026, 12, 1, 20, tzinfo=datetime.UTC).timestamp()


def deal(n: int, tag: str, taker: str | None, outcome: str, ns: int, ew: int) -> DealSummary:
    """A deal whose result is written out (the statistics read only the result; the
    record is a tag the stub measure reads)."""
    return DealSummary(n, {"tag": tag}, {"dealer": "N", "outcome": outcome, "taker": taker,
                                         "contract": None, "score": {"NS": ns, "EW": ew}})


def game(game_id: str, created: float, seats: list[Player],
         deals: list[DealSummary]) -> GameSummary:
    return GameSummary(id=game_id, source="play", created=created, updated=created,
                       profile="classic", players=4, seats=tuple(seats), finished=True,
                       totals={}, winner=None, record={}, deals=tuple(deals),
                       deal_count=len(deals))


def constructed() -> list[GameSummary]:
    """Two games a week apart: Ann at N, then at E; the heuristic bot at E, then at N
    and W (a bot at two seats counts each)."""
    first = game("a", MONDAY_W48, [Player("N", "Ann", "human"), Player("E", "heuristic"),
                                   Player("S", "Bob", "human"), Player("W", "random")], [
        deal(1, "A1", "N", "made", 120, 42),
        deal(2, "A2", "E", "failed", 162, 0),
        deal(3, "A3", None, "void", 0, 0),  # an all-pass: left out
    ])
    second = game("b", TUESDAY_W49, [Player("N", "heuristic"), Player("E", "Ann", "human"),
                                     Player("S", "random"), Player("W", "heuristic")], [
        deal(1, "B1", "E", "made", 50, 112),
        deal(2, "B2", "N", "made", 100, 62),
    ])
    return [first, second]


# points lost and cards counted per (deal, seat); B2 is not analysed
LOSSES = {("A1", 0): (8.0, 8), ("A2", 0): (16.0, 8), ("B1", 1): (3.0, 6),
          ("A1", 1): (0.0, 8), ("A2", 1): (5.0, 8), ("B1", 0): (1.0, 8), ("B1", 3): (0.0, 8)}


def stub(record: dict[str, Any], seat: int) -> tuple[float, int] | None:
    if record["tag"] == "B2":
        return None
    return LOSSES.get((record["tag"], seat), (0.0, 8))


def test_iso_weeks() -> None:
    assert iso_week(MONDAY_W48) == "2026-W48" and iso_week(TUESDAY_W49) == "2026-W49"
    # the ISO year: 1 January 2027 is a Friday of week 53 of 2026
    assert iso_week(datetime.datetime(2027, 1, 1, tzinfo=datetime.UTC).timestamp()) \
        == "2026-W53"


def test_stats_exact_numbers_per_player_and_week() -> None:
    rows = {r["name"]: r for r in stats(constructed(), {"lost": stub})}
    ann = rows["Ann"]
    assert ann == {
        "name": "Ann", "kind": "human", "games": 2, "deals": 4, "taken": 2, "made": 2,
        "points": 120 + 162 + 112 + 62, "points_per_deal": 114.0,
        "measures": {"lost": round((8 + 16 + 3) / (8 + 8 + 6), 3)},
        "measured": {"lost": 3},
        "weeks": [
            {"week": "2026-W48", "games": 1, "deals": 2, "points": 282,
             "points_per_deal": 141.0, "measures": {"lost": 1.5}, "measured": {"lost": 2}},
            {"week": "2026-W49", "games": 1, "deals": 2, "points": 174,
             "points_per_deal": 87.0, "measures": {"lost": 0.5}, "measured": {"lost": 1}},
        ],
    }
    bot = rows["heuristic"]
    # A: E (EW) 42 + 0, took A2 and failed; B: N (NS) 50 + 100, took B2 and made; W (EW)
    # 112 + 62
    assert (bot["kind"], bot["games"], bot["deals"], bot["taken"], bot["made"]) == \
        ("bot", 2, 6, 2, 1)
    assert bot["points"] == 42 + 150 + 174 and bot["points_per_deal"] == 61.0
    # A1 E 0/8, A2 E 5/8, B1 N 1/8, B1 W 0/8; B2 not analysed (two seats)
    assert bot["measures"] == {"lost": round(6 / 32, 3)} and bot["measured"] == {"lost": 4}
    plain = stats(constructed(), {})[0]
    assert "measures" not in plain and "measured" not in plain and plain["weeks"]
    # the most deals first, then bots before people
    assert [r["name"] for r in stats(constructed(), {})] == ["heuristic", "random", "Ann",
                                                           "Bob"]


def test_a_measure_that_never_applies_reports_none_not_zero() -> None:
    row = stats(constructed(), {"lost": lambda record, seat: None})[0]
    assert row["measures"] == {"lost": None} and row["measured"] == {"lost": 0}


def test_stats_count_only_the_seats_asked() -> None:
    """The web counts an identity's seats whatever the name played under."""
    mine = {("a", "S"), ("b", "E")}
    rows = stats(constructed(), {}, who=lambda g, p: ("human", "me")
                 if (g.id, p.seat) in mine else None)
    assert len(rows) == 1
    assert (rows[0]["deals"], rows[0]["points"], rows[0]["taken"]) == (4, 282 + 174, 1)


# --- the measure of an analysis ----------------------------------------------------------


def real_deal(players: int = 4, seed: int = 3) -> dict[str, Any]:
    profile = {4: "classic", 3: "classic-3p", 2: "classic-2p"}[players]
    bots = [make_bot("random", seed=i) for i in range(players)]
    match = play_game(make_rules(profile, {"target": 300}), bots, seed=seed)
    record: dict[str, Any] = match.rounds[0].record()
    return record


def test_card_losses_are_the_analysis_own_numbers() -> None:
    """Double dummy: each seat's loss and cards as analysis.py's summary counts them
    (no card left unsolved here); given what he knew: the sum of the cards'
    ``info_loss`` (forced cards count 0)."""
    record = real_deal()
    own = analyze_deal(record, seats=[]).to_json()
    assert analysis_cache.analyse(record) == own
    for summary in own["summary"]:
        seat = SEAT_NAMES.index(summary["seat"])
        unsolved = sum(c["verdict"] == "unsolved" for c in own["cards"]
                       if c["seat"] == summary["seat"])  # none with the compiled search
        assert card_losses(own, seat) == (summary["dd_lost"], summary["cards"] - unsolved)
        assert card_losses(own, seat, "info") == (0.0, sum(
            c["verdict"] == "forced" for c in own["cards"] if c["seat"] == summary["seat"]))
    viewed = analyze_deal(record, seats=[0], worlds=4).to_json()
    north = viewed["summary"][0]
    total, count = card_losses(viewed, 0, "info")
    assert count == north["cards"] and total == pytest.approx(north["info_lost"], abs=0.4)
    assert total == pytest.approx(sum(c["info_loss"] or 0 for c in viewed["cards"]
                                      if c["seat"] == "N"))


def test_a_card_left_unsolved_is_not_counted() -> None:
    analysis = {"cards": [
        {"seat": "N", "verdict": "unsolved", "dd_loss": None, "info_loss": None},
        {"seat": "N", "verdict": "forced", "dd_loss": 0, "info_loss": None},
        {"seat": "N", "verdict": "mistake", "dd_loss": 12, "info_loss": 9.5},
        {"seat": "E", "verdict": "mistake", "dd_loss": 30, "info_loss": 30.0},
    ]}
    assert card_losses(analysis, 0) == (12.0, 2)
    assert card_losses(analysis, 0, "info") == (9.5, 2)


# --- the cache ---------------------------------------------------------------------------


def test_the_cache_keeps_an_analysis_per_deal_and_settings(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "c.db")
    record = {"profile": "classic", "deck": [1, 2], "actions": ["pass"]}
    assert cached_analysis(conn, record) is None  # no table yet: nothing kept
    assert cached_analyses(conn, [deal_hash(record)]) == {}
    with conn:
        analysis_cache.setup(conn)
        store_analysis(conn, record, DD_ONLY, {"cards": [1]})
    assert cached_analysis(conn, record) == {"cards": [1]}
    # the same deal written another way (key order) is the same deal
    assert cached_analysis(conn, dict(reversed(list(record.items())))) == {"cards": [1]}
    assert cached_analysis(conn, {**record, "actions": ["pass", "pass"]}) is None
    assert cached_analysis(conn, record, EVERY_VIEW) is None
    assert cached_analysis(conn, record, AnalysisSettings(max_nodes=1000)) is None
    # double dummy only, the worlds and the seed change nothing
    assert cached_analysis(conn, record, AnalysisSettings(worlds=9, seed=4)) == {"cards": [1]}
    assert AnalysisSettings(seats=(0,), seed=1).key() != AnalysisSettings(seats=(0,)).key()
    assert '"v":1' in DD_ONLY.key()
    with conn:
        store_analysis(conn, record, DD_ONLY, {"cards": [2]})  # replaced
    assert cached_analyses(conn, [deal_hash(record), "0" * 64]) == {
        deal_hash(record): {"cards": [2]}}
    assert conn.execute("SELECT COUNT(*) FROM analysis_cache").fetchone()[0] == 1


def kept_history(tmp_path: Path) -> Path:
    """A history of two short games (a human at S), a week apart."""
    db = tmp_path / "h.db"
    with HistoryStore(db) as store:
        for i, created in enumerate((MONDAY_W48, TUESDAY_W49)):
            match = play_game(make_rules("classic", {"target": 200}),
                              [make_bot("random", seed=i) for i in range(4)], seed=i)
            store.keep(match.to_record(), game_id=f"g{i}", source="play", created=created,
                       seats=[Player("N", "random"), Player("E", "random"),
                              Player("S", "you", "human"), Player("W", "random")])
    return db


def test_history_analyze_fills_the_cache_once(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    db = kept_history(tmp_path)
    with HistoryStore(db) as store:
        games = store.all_games()
    records = analysis_cache.scored_deals(games)
    assert len(records) >= 3
    calls: list[str] = []
    analyse = analysis_cache.analyse

    def counted(record: Any, settings: AnalysisSettings = DD_ONLY, progress: Any = None
                ) -> dict[str, Any]:
        calls.append(deal_hash(record))
        return analyse(record, settings, progress)

    monkeypatch.setattr(analysis_cache, "analyse", counted)
    res = runner.invoke(app, ["history", "analyze", "--db", str(db), "--limit", "2", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == {"analysed": 2, "failed": 0, "covered": 2,
                                      "deals": len(records), "view": False}
    assert calls == [deal_hash(r) for r in records[:2]]  # the last played first
    res = runner.invoke(app, ["history", "analyze", "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert f"{len(records) - 2} deals analysed; {len(records)} of {len(records)}" in res.stdout
    calls.clear()
    res = runner.invoke(app, ["history", "analyze", "--db", str(db), "--json"])
    assert json.loads(res.stdout)["analysed"] == 0 and calls == []  # every deal a hit
    conn = sqlite3.connect(db)
    for record in records:
        assert cached_analysis(conn, record) == analyze_deal(record, seats=[]).to_json()


def test_history_stats_read_the_cache(tmp_path: Path) -> None:
    db = kept_history(tmp_path)
    with HistoryStore(db) as store:
        games = store.all_games()
    records = analysis_cache.scored_deals(games)
    res = runner.invoke(app, ["history", "--stats", "--json", "--db", str(db)])
    you = next(r for r in json.loads(res.stdout)["players"] if r["name"] == "you")
    assert you["measures"] == {DD_MEASURE: None, VIEW_MEASURE: None}
    assert you["measured"] == {DD_MEASURE: 0, VIEW_MEASURE: 0}
    assert [w["week"] for w in you["weeks"]] == ["2026-W48", "2026-W49"]
    runner.invoke(app, ["history", "analyze", "--db", str(db), "--limit", "3"])
    res = runner.invoke(app, ["history", "--stats", "--json", "--db", str(db)])
    assert res.exit_code == 0, res.output
    you = next(r for r in json.loads(res.stdout)["players"] if r["name"] == "you")
    own = [analyze_deal(r, seats=[]).to_json() for r in records[:3]]
    lost = sum(s["dd_lost"] for a in own for s in a["summary"] if s["seat"] == "S")
    cards = sum(s["cards"] for a in own for s in a["summary"] if s["seat"] == "S") - sum(
        c["verdict"] == "unsolved" for a in own for c in a["cards"] if c["seat"] == "S")
    assert you["measures"][DD_MEASURE] == round(lost / cards, 3)
    assert you["measured"] == {DD_MEASURE: 3, VIEW_MEASURE: 0}
    assert sum(w["measured"][DD_MEASURE] for w in you["weeks"]) == 3
    # the same numbers through the core
    conn = sqlite3.connect(db)
    row = next(r for r in stats(games, loss_measures(conn, games)) if r["name"] == "you")
    assert row == you
    res = runner.invoke(app, ["history", "--stats", "--db", str(db)])
    assert res.exit_code == 0
    assert "lost/card" in res.stdout and "By week" in res.stdout
    assert f"3/{you['deals']}" in res.stdout and "2026-W49" in res.stdout
    assert f"{you['measures'][DD_MEASURE]:.2f}" in res.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["history", "analyze", "--limit", "0"], "--limit"),
    (["history", "analyze", "--profile", "belotte"], "unknown profile"),
])
def test_history_analyze_refusals(tmp_path: Path, args: list[str], message: str) -> None:
    db = kept_history(tmp_path)
    res = runner.invoke(app, [*args, "--db", str(db), "--json"])
    assert res.exit_code == 2 and message in res.stderr and "Traceback" not in res.output
    assert "error" in json.loads(res.stdout)
    res = runner.invoke(app, ["history", "analyze", "--db", str(tmp_path / "none.db")])
    assert res.exit_code == 2 and "no history" in res.stderr
    assert not (tmp_path / "none.db").exists()


def test_the_statistics_read_any_analysis_of_the_deal(tmp_path: Path) -> None:
    """An analysis kept with other settings (a review's: one seat's view) counts too:
    double dummy for every seat, given what he knew for the seat asked only; one past
    another search budget or of another version does not."""
    records = [real_deal(seed=3), real_deal(seed=4)]
    deals = [DealSummary(i + 1, r, {"dealer": "N", "outcome": "made", "taker": "N",
                                    "contract": None, "score": {"NS": 100, "EW": 62}})
             for i, r in enumerate(records)]
    games = [game("a", MONDAY_W48, [Player("N", "Ann", "human"), Player("E", "random"),
                                    Player("S", "Bob", "human"), Player("W", "random")],
                  deals)]
    conn = sqlite3.connect(tmp_path / "c.db")
    review = AnalysisSettings(seats=(2,), worlds=4)
    viewed = analysis_cache.analyse(records[0], review)
    with conn:
        analysis_cache.setup(conn)
        store_analysis(conn, records[0], review, viewed)
        store_analysis(conn, records[1], AnalysisSettings(max_nodes=10), {"cards": []})
    assert analysis_cache.not_analysed(conn, games) == [records[1]]
    rows = {r["name"]: r for r in stats(games, loss_measures(conn, games))}
    bob, ann = rows["Bob"], rows["Ann"]
    assert bob["measured"] == {DD_MEASURE: 1, VIEW_MEASURE: 1}
    assert ann["measured"] == {DD_MEASURE: 1, VIEW_MEASURE: 0}
    lost, cards = card_losses(viewed, 0)
    assert ann["measures"] == {DD_MEASURE: round(lost / cards, 3), VIEW_MEASURE: None}
    lost, cards = card_losses(viewed, 2, "info")
    assert bob["measures"][VIEW_MEASURE] == round(lost / cards, 3)


def _games_of(records: list[dict[str, Any]]) -> list[GameSummary]:
    deals = [DealSummary(i + 1, r, {"dealer": "N", "outcome": "made", "taker": "N",
                                    "contract": None, "score": {"NS": 100, "EW": 62}})
             for i, r in enumerate(records)]
    return [game("a", MONDAY_W48, [Player("N", "Ann", "human"), Player("E", "random"),
                                   Player("S", "Bob", "human"), Player("W", "random")],
                 deals)]


def _kept(conn: sqlite3.Connection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT deal FROM analysis_cache")}


def test_the_cache_drops_the_analyses_read_least_recently_first(tmp_path: Path) -> None:
    """Past its bound the cache drops the analyses read longest ago (written counts as
    read), never the one just written; the statistics' numbers stay: the same rows, no
    deal to analyse again."""
    records = [real_deal(seed=s) for s in (3, 4, 5, 6)]
    found = [analysis_cache.analyse(r, DD_ONLY) for r in records]
    view = AnalysisSettings(seats=(2,), worlds=2)
    viewed = analysis_cache.analyse(records[1], view)  # Bob's view of the second deal
    size = [len(json.dumps(a, separators=(",", ":"))) for a in found]
    games = _games_of(records)
    conn = sqlite3.connect(tmp_path / "c.db")
    with conn:
        analysis_cache.setup(conn)
        for i in range(3):
            store_analysis(conn, records[i], DD_ONLY, found[i], created=float(i + 1))
        store_analysis(conn, records[1], view, viewed, created=2.5)
        analysis_cache.touch(conn, records[0], DD_ONLY, when=4.0)  # the first read again
    whole = sqlite3.connect(":memory:")  # the same analyses, none dropped
    with whole:
        analysis_cache.setup(whole)
        for record, analysis in zip(records, found, strict=True):
            store_analysis(whole, record, DD_ONLY, analysis)
        store_analysis(whole, records[1], view, viewed)
    before = stats(games, loss_measures(whole, games))
    h = [deal_hash(r) for r in records]
    # the fourth written past a bound that holds the first, the third and itself: the
    # second (read at 2, its review's at 2.5) goes
    bound = size[0] + size[2] + size[3]
    with conn:
        store_analysis(conn, records[3], DD_ONLY, found[3], created=5.0, max_bytes=bound)
    assert _kept(conn) == {h[0], h[2], h[3]}
    assert conn.execute("SELECT SUM(size) FROM analysis_cache").fetchone()[0] <= bound
    # a bound that holds two: the third (read at 3) goes before the first (read at 4)
    with conn:
        assert analysis_cache.trim(conn, size[0] + size[3]) == 1
    assert _kept(conn) == {h[0], h[3]}
    # the one just written is never dropped, whatever the bound
    with conn:
        store_analysis(conn, records[2], DD_ONLY, found[2], max_bytes=1)
    assert _kept(conn) == {h[2]}
    assert cached_analysis(conn, records[1]) is None
    assert cached_analysis(conn, records[1], view) is None
    # the statistics: the same numbers, Bob's view of the second deal included; no deal
    # to analyse again
    assert stats(games, loss_measures(conn, games)) == before
    assert next(r for r in before if r["name"] == "Bob")["measured"][VIEW_MEASURE] == 1
    assert analysis_cache.not_analysed(conn, games) == []
    assert analysis_cache.measured(conn, h) == set(h)


def test_an_older_files_analyses_get_their_size_and_keep_their_numbers(tmp_path: Path) -> None:
    """A cache written before the bound (no size, no read, no numbers kept apart): set
    up, its rows get their size and their read; the statistics read them as before, and
    still do once they are dropped."""
    records = [real_deal(seed=3), real_deal(seed=4)]
    found = [analysis_cache.analyse(r, DD_ONLY) for r in records]
    games = _games_of(records)
    conn = sqlite3.connect(tmp_path / "old.db")
    with conn:
        conn.execute("CREATE TABLE analysis_cache (deal TEXT NOT NULL, settings TEXT NOT "
                     "NULL, analysis TEXT NOT NULL, created REAL NOT NULL, "
                     "PRIMARY KEY (deal, settings))")
        for i, (record, analysis) in enumerate(zip(records, found, strict=True)):
            conn.execute("INSERT INTO analysis_cache VALUES (?,?,?,?)",
                         (deal_hash(record), DD_ONLY.key(),
                          json.dumps(analysis, separators=(",", ":")), float(i)))
    before = stats(games, loss_measures(conn, games))
    assert all(row["measured"][DD_MEASURE] for row in before)
    with conn:
        analysis_cache.setup(conn)
    rows = conn.execute("SELECT size, read, created, length(analysis) FROM analysis_cache "
                        "ORDER BY created").fetchall()
    assert [(r[0], r[1]) for r in rows] == [(r[3], r[2]) for r in rows]
    assert stats(games, loss_measures(conn, games)) == before
    with conn:
        assert analysis_cache.trim(conn, 0) == 2
    assert _kept(conn) == set()
    assert stats(games, loss_measures(conn, games)) == before
    assert analysis_cache.not_analysed(conn, games) == []
