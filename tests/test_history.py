"""The record format everywhere and the history of played games (belote.history,
`belote history`, `belote play`'s history, `belote replay` of records)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belote.bots import make_bot
from belote.bots.base import play_game
from belote.cards import mask_of, parse_card
from belote.cli import app
from belote.errors import BeloteError, InvalidRecordError
from belote.game import Match
from belote.history import (
    HistoryError,
    HistoryStore,
    Player,
    check_game_id,
    register_measure,
    stats,
    summarise,
)
from belote.options import make_rules
from belote.replay import deck_of, replay
from belote.round import Round
from tests.helpers import EVERY_TABLE, EVERY_TABLE_IDS

runner = CliRunner()

TABLES, IDS = EVERY_TABLE, EVERY_TABLE_IDS


def game_of(profile: str, options: dict[str, Any], seed: int = 5, target: int = 400) -> Match:
    rules = make_rules(profile, {**options, "target": target})
    # The bots are seeded too: a bot without a seed draws one from the system, and the
    # game (and whether it holds a made contract) would change from run to run.
    return play_game(rules, [make_bot("random", seed=seed + i) for i in range(rules.players)],
                     seed=seed)


def seats(players: int, human: int | None = None) -> list[Player]:
    return [Player(s, "Ann", "human") if i == human else Player(s, "random", "bot")
            for i, s in enumerate("NESW"[:players])]


# --- one record format: written, read, the same --------------------------------------


@pytest.mark.parametrize(("profile", "options"), TABLES, ids=IDS)
def test_deal_and_game_records_round_trip(profile: str, options: dict[str, Any]) -> None:
    """A game's record read back is the same game (scores, every deal's state) and
    writes the same record; each deal's record likewise, and `replay` of a deal's
    record answers as its hand record does."""
    match = game_of(profile, options)
    record = match.to_record()
    again = Match.from_record(json.loads(json.dumps(record)))
    assert again.to_record() == record
    assert again.score == match.score and again.finished == match.finished
    for old, new in zip(match.rounds, again.rounds, strict=True):
        assert new.record() == old.record()
        assert new.to_record() == old.to_record()
        assert new.events() == old.events()
        deal = Round.from_record(json.loads(json.dumps(old.record())))
        assert deal.record() == old.record() and deal.phase == old.phase
        assert replay(old.record()) == replay(old.to_record())


@pytest.mark.parametrize(("profile", "options"), TABLES[:-1], ids=IDS[:-1])
def test_hand_record_is_dealt_by_the_deck_replay_builds(
        profile: str, options: dict[str, Any]) -> None:
    """`replay` reads a hand record as a deal: the deck it builds (:func:`deck_of`) deals
    the record's hands, and the same actions there write the same hand record back;
    the answer's contract and outcome are the deal's own."""
    match = game_of(profile, options, seed=9)
    rules = match.rules
    for rnd in match.rounds:
        rec = rnd.to_record()
        hands = [mask_of(parse_card(c) for c in rec["hands"][s])
                 for s in "NESW"[:rnd.players]]
        turned = parse_card(rec["turned"]) if "turned" in rec else -1
        bergere = parse_card(rec["bergere"]) if "bergere" in rec else -1
        kitty = [parse_card(c) for c in rec.get("kitty", [])]
        deck = deck_of(rules, rnd.dealer, hands, turned, kitty, bergere)
        again = Round(rules, rnd.dealer, deck)
        for action in rnd.actions():
            again.apply(action)
        assert again.to_record() == rec
        out = replay(rec)
        assert out["complete"] is True
        if rnd.contract is not None:
            assert out["contract"] == rnd.contract.to_json()
            assert out["score"]["outcome"] == rnd.result().score.outcome


def test_replay_of_a_game_record_answers_each_deal_and_the_game() -> None:
    match = game_of("classic", {}, seed=3, target=300)
    out = replay(match.to_record())
    assert len(out["deals"]) == len(match.rounds)
    assert out["game"] == match.score.to_json()
    assert out["deals"][0] == replay(match.rounds[0].to_record())


def test_replay_refuses_a_broken_game_record() -> None:
    match = game_of("classic", {}, seed=3, target=300)
    record = match.to_record()
    record["deals"][0]["actions"][5] = {"card": "ZZ"}
    with pytest.raises(InvalidRecordError, match="deal 1"):
        replay(record)


# --- the history -----------------------------------------------------------------------


@pytest.mark.parametrize(("profile", "options"), TABLES, ids=IDS)
def test_a_game_kept_reads_back_with_its_deals(
        tmp_path: Path, profile: str, options: dict[str, Any]) -> None:
    match = game_of(profile, options)
    n = match.players
    with HistoryStore(tmp_path / "h.db") as store:
        kept = store.keep(match.to_record(), game_id="g1", source="play", seats=seats(n, 0))
        game = store.game("g1")
    assert game.record == match.to_record() and game.finished
    assert game.totals == match.score.to_json()["totals"]
    assert game.winner == match.score.to_json()["winner"]
    assert [p.to_json() for p in game.seats] == [p.to_json() for p in seats(n, 0)]
    assert len(game.deals) == len(match.rounds) == kept.deal_count
    scored = [d for d in game.deals if d.result["outcome"] != "void"]
    assert [d.result["score"] for d in scored] == [
        h.to_json()["score"] for h in match.score.hands]
    for d, rnd in zip(game.deals, match.rounds, strict=True):
        assert d.record == rnd.record()
        assert Round.from_record(d.record).record() == d.record


def test_an_unfinished_deal_is_not_kept(tmp_path: Path) -> None:
    """The deal in progress (its hands unknown to the players) stays out of the history."""
    match = game_of("classic", {}, seed=3, target=300)
    partial = Match.from_record(match.to_record())
    record = partial.to_record()
    last = record["deals"][-1]
    last["actions"] = last["actions"][:6]
    game = summarise(record, game_id="x", source="play", seats=seats(4))
    assert len(game.deals) == len(match.rounds) - 1
    assert len(game.record["deals"]) == len(match.rounds) - 1
    assert not game.finished


def test_kept_again_after_each_deal_under_one_id(tmp_path: Path) -> None:
    match = game_of("classic", {}, seed=3, target=300)
    record = match.to_record()
    with HistoryStore(tmp_path / "h.db") as store:
        first = dict(record, deals=record["deals"][:1])
        store.keep(first, game_id="same", source="play", seats=seats(4))
        created = store.game("same").created
        store.keep(record, game_id="same", source="play", seats=seats(4))
        games = store.games()
        assert [g.id for g in games] == ["same"]
        assert store.game("same").created == created
        assert len(store.game("same").deals) == len(match.rounds)


def test_list_newest_first_filtered_and_limited(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "h.db") as store:
        for i, (profile, options) in enumerate(TABLES[:4]):
            m = game_of(profile, options, seed=i)
            store.keep(m.to_record(), game_id=f"g{i}", source="play", seats=seats(4),
                       created=1000.0 + i)
        assert store.games()[0].id == "g3"
        assert [g.id for g in store.games(profile="coinche")] == ["g2"]
        assert len(store.games(limit=2)) == 2


def test_stats_per_player() -> None:
    match = game_of("classic", {}, seed=3, target=300)
    game = summarise(match.to_record(), game_id="a", source="play", seats=seats(4, human=2))
    rows = {r["name"]: r for r in stats([game], measures={})}
    ann = rows["Ann"]
    scored = [d for d in game.deals if d.result["outcome"] != "void"]
    assert ann["deals"] == len(scored) and ann["games"] == 1
    assert ann["taken"] == sum(d.result["taker"] == "S" for d in scored)
    assert ann["made"] == sum(d.result["taker"] == "S" and d.result["outcome"] == "made"
                              for d in scored)
    assert ann["points"] == sum(d.result["score"]["NS"] for d in scored)
    assert ann["points_per_deal"] == round(ann["points"] / ann["deals"], 2)
    assert "measures" not in ann  # no measure registered: no number made up


def test_stats_report_a_registered_measure(monkeypatch: pytest.MonkeyPatch) -> None:
    from belote import history

    monkeypatch.setattr(history, "MEASURES", {})
    register_measure("cards", lambda record, seat: (float(len(record["actions"])), 1))
    match = game_of("classic", {}, seed=3, target=300)
    game = summarise(match.to_record(), game_id="a", source="play", seats=seats(4, human=2))
    ann = next(r for r in stats([game]) if r["name"] == "Ann")
    counted = [len(d.record["actions"]) for d in game.deals
               if d.result["outcome"] != "void"]
    assert ann["measures"] == {"cards": round(sum(counted) / len(counted), 3)}


@pytest.mark.parametrize("bad", ["", "../etc", "a b", "x" * 65, "é", 7, None])
def test_malformed_game_ids_are_refused(bad: object) -> None:
    with pytest.raises(HistoryError, match="not a game id"):
        check_game_id(bad)


def test_a_record_that_is_not_one_is_refused(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "h.db") as store:
        with pytest.raises(BeloteError):
            store.keep({"version": 1, "deals": "no"}, game_id="g", source="play",
                       seats=seats(4))
        with pytest.raises(HistoryError, match="seats"):
            store.keep(game_of("classic", {}).to_record(), game_id="g", source="play",
                       seats=seats(3))
        assert store.games() == []


# --- `belote history` --------------------------------------------------------------


def kept_file(tmp_path: Path) -> tuple[Path, Match]:
    db = tmp_path / "h.db"
    match = game_of("classic", {}, seed=3, target=300)
    with HistoryStore(db) as store:
        store.keep(match.to_record(), game_id="abc123", source="play", seats=seats(4, 2))
        store.keep(game_of("coinche", {}).to_record(), game_id="def456", source="play",
                   seats=seats(4, 2))
    return db, match


def test_history_command_lists_shows_and_counts(tmp_path: Path) -> None:
    db, match = kept_file(tmp_path)
    res = runner.invoke(app, ["history", "--db", str(db), "--json"])
    assert res.exit_code == 0, res.output
    games = json.loads(res.stdout)["games"]
    assert {g["id"] for g in games} == {"abc123", "def456"}
    res = runner.invoke(app, ["history", "--db", str(db), "--json", "--profile", "coinche"])
    assert [g["id"] for g in json.loads(res.stdout)["games"]] == ["def456"]
    res = runner.invoke(app, ["history", "show", "abc123", "--db", str(db), "--json"])
    assert res.exit_code == 0, res.output
    record = json.loads(res.stdout)
    assert record == match.to_record()
    assert Match.from_record(record).score == match.score
    res = runner.invoke(app, ["replay", "--json"], input=res.stdout)
    assert res.exit_code == 0 and json.loads(res.stdout)["game"] == match.score.to_json()
    res = runner.invoke(app, ["history", "show", "abc123", "--db", str(db)])
    assert res.exit_code == 0 and "Game abc123" in res.stdout and "made" in res.stdout
    res = runner.invoke(app, ["history", "--db", str(db)])
    assert res.exit_code == 0 and "abc123" in res.stdout
    res = runner.invoke(app, ["history", "--db", str(db), "--stats", "--json"])
    assert res.exit_code == 0
    names = {r["name"] for r in json.loads(res.stdout)["players"]}
    assert names == {"Ann", "random"}
    res = runner.invoke(app, ["history", "--db", str(db), "--stats"])
    assert res.exit_code == 0 and "Ann" in res.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["history", "show", "nothere"], "no game 'nothere'"),
    (["history", "show", "../x"], "not a game id"),
    (["history", "--profile", "belotte"], "unknown profile"),
    (["history", "--limit", "0"], "--limit"),
])
def test_history_command_refusals(tmp_path: Path, args: list[str], message: str) -> None:
    db, _ = kept_file(tmp_path)
    res = runner.invoke(app, [*args, "--db", str(db), "--json"])
    assert res.exit_code == 2
    assert message in res.stderr and "Traceback" not in res.output


def test_history_command_without_a_history(tmp_path: Path) -> None:
    res = runner.invoke(app, ["history", "--db", str(tmp_path / "none.db")])
    assert res.exit_code == 2 and "no history" in res.stderr
    assert not (tmp_path / "none.db").exists()


# --- `belote play` keeps its games ------------------------------------------------------


def answers(cycle: int = 3000) -> str:
    return "\n".join(str(i % 8 + 1) for i in range(cycle)) + "\n"


def test_play_keeps_the_game_in_the_history(tmp_path: Path) -> None:
    hist = tmp_path / "hist.db"
    res = runner.invoke(app, ["play", "--bots", "random", "--seed", "7", "--target", "150",
                              "--save", str(tmp_path / "g.json"), "--history", str(hist)],
                        input=answers())
    assert res.exit_code == 0, res.output
    with HistoryStore(hist) as store:
        (game,) = store.games()
        full = store.game(game.id)
    assert full.finished and full.source == "play"
    assert [p.kind for p in full.seats] == ["bot", "bot", "human", "bot"]
    assert Match.from_record(full.record).finished


def test_play_no_history_keeps_nothing(tmp_path: Path) -> None:
    hist = tmp_path / "hist.db"
    res = runner.invoke(app, ["play", "--bots", "random", "--seed", "7", "--target", "150",
                              "--save", str(tmp_path / "g.json"), "--history", str(hist),
                              "--no-history"], input=answers())
    assert res.exit_code == 0, res.output
    assert not hist.exists()


def test_play_history_default_is_the_data_folder(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BELOTE_HISTORY")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    res = runner.invoke(app, ["play", "--bots", "random", "--seed", "7", "--target", "150",
                              "--save", str(tmp_path / "g.json")], input=answers())
    assert res.exit_code == 0, res.output
    db = tmp_path / "belote" / "history.db"
    assert db.exists()
    res = runner.invoke(app, ["history", "--json"])
    assert len(json.loads(res.stdout)["games"]) == 1


def test_an_old_save_file_resumes_and_its_game_is_kept(tmp_path: Path) -> None:
    """A save written before the history (no game id, the game under "match" in the
    record format) still resumes; the game gets an id and its deals are kept."""
    match = game_of("classic", {}, seed=3, target=1000)
    record = match.to_record()
    record["deals"] = record["deals"][:1]  # one deal done, the game goes on
    old = {"belote_play": {"seat": "S", "bots": "random"}, "match": record}
    save = tmp_path / "old-save.json"
    save.write_text(json.dumps(old))
    hist = tmp_path / "hist.db"
    res = runner.invoke(app, ["play", "--resume", str(save), "--history", str(hist)],
                        input=answers())
    assert res.exit_code == 0, res.output
    with HistoryStore(hist) as store:
        (game,) = store.games()
        full = store.game(game.id)
    assert full.record["deals"][0] == record["deals"][0]
    assert full.finished


def test_the_save_file_carries_the_game_id(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    hist = tmp_path / "hist.db"
    res = runner.invoke(app, ["play", "--bots", "random", "--seed", "11", "--target", "300",
                              "--save", str(save), "--history", str(hist)], input="pass\nq\n")
    assert res.exit_code == 0, res.output
    data = json.loads(save.read_text())
    game_id = data["belote_play"]["game_id"]
    check_game_id(game_id)
    assert Match.from_record(data["match"]).rounds  # the record format
    bad = dict(data, belote_play={**data["belote_play"], "game_id": "../../x"})
    save.write_text(json.dumps(bad))
    res = runner.invoke(app, ["play", "--resume", str(save), "--history", str(hist)],
                        input="q\n")
    assert res.exit_code == 2 and "game_id" in res.stderr


def test_a_history_that_cannot_be_written_does_not_stop_the_game(tmp_path: Path) -> None:
    hist = tmp_path / "hist.db"
    hist.write_text("not a database")
    res = runner.invoke(app, ["play", "--bots", "random", "--seed", "7", "--target", "150",
                              "--save", str(tmp_path / "g.json"), "--history", str(hist)],
                        input=answers())
    assert res.exit_code == 0, res.output
    assert "not kept in the history" in res.stdout and "Game over" in res.stdout
    with pytest.raises(sqlite3.DatabaseError):
        sqlite3.connect(hist).execute("SELECT * FROM history_games").fetchall()


# --- tournaments on request -------------------------------------------------------------


@pytest.mark.parametrize(("profile", "mode"), [("classic", "--deals"), ("classic-2p", "--games")])
def test_tournament_keeps_every_table_on_request(tmp_path: Path, profile: str, mode: str) -> None:
    db = tmp_path / "t.db"
    args = ["tournament", "--bots", "random,heuristic", mode, "2", "--seed", "5",
            "--workers", "1", "--no-progress", "--profile", profile, "--option",
            "target=300", "--json"]
    plain = runner.invoke(app, args)
    kept = runner.invoke(app, [*args, "--keep-records", str(db)])
    assert plain.exit_code == kept.exit_code == 0, kept.output
    def strip(out: str) -> dict[str, Any]:
        return {k: v for k, v in json.loads(out).items() if k != "run"}

    assert strip(plain.stdout) == strip(kept.stdout)  # the answer is the same
    with HistoryStore(db) as store:
        games = store.all_games()
    tables = 2 * 2  # boards × tables a board (two at four players, one a seat at two)
    assert len(games) == tables
    for game in games:
        assert game.source == "tournament"
        assert {p.name for p in game.seats} == {"random", "heuristic"}
        assert Match.from_record(game.record).to_record() == game.record
        if mode == "--games":
            assert game.finished
    again = runner.invoke(app, [*args, "--keep-records", str(db)])
    assert again.exit_code == 0
    with HistoryStore(db) as store:
        assert len(store.games()) == 2 * tables  # a second run adds its own

