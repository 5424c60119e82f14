"""The score-sheet store (belote.sheets): history replay, recomputed totals,
export and import, N-player sheets (docs/rules.md §8.4 reserve, §11 end, §13)."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote.errors import InvalidRecordError, OptionError
from belote.options import make_rules
from belote.rotation import dealer_for, fair_cycle, individual_totals
from belote.scoring import parse_hand_entry, score_game
from belote.sheets import (
    CSV_COLUMNS,
    SheetError,
    SheetNotFoundError,
    SheetStore,
    default_db_path,
    score_sheet,
    sheet_from_json,
)

STATE_EXTRAS = ("id", "name", "profile", "options", "target", "team_names", "players")


def hand(taker: str, points: int, **more: Any) -> dict[str, Any]:
    """A classic hand entry: ``points`` are the taker's trick points."""
    return {"taker": taker, "trick_points": {taker: points}, **more}


def expected(profile: str, hands: list[dict[str, Any]], target: int | None = None,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    rules = make_rules(profile, options or {})
    entries = [parse_hand_entry(h, rules) for h in hands]
    return score_game(rules, entries, target).to_json()


def game_part(state: dict[str, Any]) -> dict[str, Any]:
    return {k: state[k] for k in ("hands", "running", "totals", "reserve", "finished", "winner")}


@pytest.fixture
def store(tmp_path: Path) -> SheetStore:
    return SheetStore(tmp_path / "sheets.db")


# --- creating ---------------------------------------------------------------------------


def test_new_sheet_state_has_contract_keys(store: SheetStore) -> None:
    state = store.create("classic", name="Friday")
    assert state == {
        "id": state["id"], "name": "Friday", "profile": "classic", "options": {},
        "target": 1000, "hands": [], "running": [], "totals": {"NS": 0, "EW": 0},
        "reserve": 0, "finished": False, "winner": None,
        "team_names": {"NS": "NS", "EW": "EW"}, "players": None,
    }


def test_target_defaults_to_profile_and_option_rules_11_1(store: SheetStore) -> None:
    """§11.1: the target is the profile's, the `target` option's, or --target."""
    assert store.create("coinche")["target"] == 2000
    assert store.create("classic", {"target": 501})["target"] == 501
    assert store.create("classic", {"target": 501}, target=700)["target"] == 700


def test_new_sheet_refuses_bad_profile_option_target_names(store: SheetStore) -> None:
    with pytest.raises(OptionError, match="profile 'bridge'"):
        store.create("bridge")
    with pytest.raises(OptionError, match="'tie_rule'"):
        store.create("classic", {"tie_rule": "coin"})
    with pytest.raises(InvalidRecordError, match="target"):
        store.create("classic", target=0)
    with pytest.raises(InvalidRecordError, match="team_names"):
        store.create("classic", team_names="Us")
    with pytest.raises(InvalidRecordError, match="players: 8"):
        store.create("classic", players=8)
    with pytest.raises(InvalidRecordError, match="player_names"):
        store.create("classic", player_names="A,B,C,D")
    with pytest.raises(InvalidRecordError, match="gives 4 names, not 5"):
        store.create("classic", players=5, player_names="A,B,C,D")
    assert store.sheets() == []


def test_sheet_ids_are_checked(store: SheetStore) -> None:
    with pytest.raises(SheetNotFoundError, match="sheet 9: no such sheet"):
        store.state(9)
    with pytest.raises(SheetNotFoundError, match="not a sheet id"):
        store.state("nine")
    sid = store.create("classic")["id"]
    assert store.state(str(sid))["id"] == sid


# --- hands, undo, edit -------------------------------------------------------------------


def test_state_is_score_game_of_the_hands(store: SheetStore) -> None:
    """The sheet's score is `score game` of its hands (docs/json.md)."""
    hands = [hand("NS", 92), hand("EW", 70, declarations={"NS": 50}, belote="EW"),
             {"taker": "NS", "capot": "NS", "belote": "NS"}]
    sid = store.create("classic", name="x", team_names=("Us", "Them"))["id"]
    for h in hands:
        state = store.add_hand(sid, h)
    assert game_part(state) == expected("classic", hands)
    assert state["team_names"] == {"NS": "Us", "EW": "Them"}
    assert store.state(sid) == state


def test_litige_reserve_then_undo_and_edit_recompute_8_4(store: SheetStore) -> None:
    """§8.4: a litige puts the takers' points in reserve for the next non-tied
    hand; undoing or editing the litige recomputes every later hand."""
    sid = store.create("classic")["id"]
    state = store.add_hand(sid, hand("NS", 81))
    assert state["hands"][0] == {"outcome": "litige", "totals": {"NS": 81, "EW": 81},
                                 "score": {"NS": 0, "EW": 81}, "reserve": 81}
    state = store.add_hand(sid, hand("NS", 100))
    assert state["hands"][1]["score"] == {"NS": 181, "EW": 62}
    assert state["totals"] == {"NS": 181, "EW": 143} and state["reserve"] == 0
    # Undo the second hand: the reserve is open again.
    state = store.undo(sid)
    assert state["reserve"] == 81 and state["totals"] == {"NS": 0, "EW": 81}
    state = store.add_hand(sid, hand("EW", 100))  # EW made: the reserve goes to EW
    assert state["hands"][1]["score"] == {"NS": 62, "EW": 181}
    # Edit the litige into a made hand: no reserve, hand 2 gets nothing extra.
    state = store.edit_hand(sid, 1, hand("NS", 91))
    assert [h["reserve"] for h in state["hands"]] == [0, 0]
    assert state["hands"][1]["score"] == {"NS": 62, "EW": 100}
    assert state["totals"] == {"NS": 153, "EW": 171}
    assert game_part(state) == expected("classic", [hand("NS", 91), hand("EW", 100)])
    # And back into a litige: the reserve reappears and goes to hand 2's winner.
    state = store.edit_hand(sid, 1, hand("EW", 81))
    assert state["hands"][0]["reserve"] == 81
    assert state["hands"][1]["score"] == {"NS": 62, "EW": 181}


def test_hand_after_the_game_is_won_is_refused_11_2(store: SheetStore) -> None:
    """§11.2: the game ends after the hand that reaches the target."""
    sid = store.create("classic", target=150)["id"]
    store.add_hand(sid, hand("NS", 92))
    state = store.add_hand(sid, hand("NS", 100))
    assert state["finished"] and state["winner"] == "NS"
    with pytest.raises(InvalidRecordError, match="hand 3: the game was already won"):
        store.add_hand(sid, hand("NS", 100))
    assert store.state(sid) == state
    # Undo reopens the game.
    assert store.undo(sid)["finished"] is False


def test_edit_that_would_end_the_game_early_is_refused(store: SheetStore) -> None:
    sid = store.create("classic", target=200)["id"]
    store.add_hand(sid, hand("NS", 92))
    before = store.add_hand(sid, hand("EW", 92))
    with pytest.raises(InvalidRecordError, match="hand 2: the game was already won"):
        store.edit_hand(sid, 1, {"taker": "NS", "capot": "NS"})
    assert store.state(sid) == before


def test_bad_hands_are_refused_and_change_nothing(store: SheetStore) -> None:
    sid = store.create("classic")["id"]
    before = store.add_hand(sid, hand("NS", 92))
    with pytest.raises(InvalidRecordError, match=r"hand 2: trick_points.NS: 163"):
        store.add_hand(sid, hand("NS", 163))
    with pytest.raises(InvalidRecordError, match="hand 2: taker: required"):
        store.add_hand(sid, {"trick_points": {"NS": 90}})
    with pytest.raises(InvalidRecordError, match="hand 2: reserve"):
        store.add_hand(sid, hand("NS", 90, reserve=10))
    with pytest.raises(InvalidRecordError, match="hand 1: trick_points"):
        store.edit_hand(sid, 1, hand("NS", -1))
    with pytest.raises(SheetError, match="no hand 2 to edit"):
        store.edit_hand(sid, 2, hand("NS", 90))
    assert store.state(sid) == before
    assert len(store.history(sid)) == 1


def test_undo_on_an_empty_sheet_is_refused(store: SheetStore) -> None:
    sid = store.create("classic")["id"]
    with pytest.raises(SheetError, match=f"sheet {sid}: no hand to undo"):
        store.undo(sid)
    assert store.history(sid) == []


def test_history_is_append_only(store: SheetStore, tmp_path: Path) -> None:
    sid = store.create("classic")["id"]
    store.add_hand(sid, hand("NS", 92))
    store.add_hand(sid, hand("NS", 81))
    store.edit_hand(sid, 1, hand("EW", 92))
    store.undo(sid)
    events = store.history(sid)
    assert [(e.kind, e.hand) for e in events] == [("add", 1), ("add", 2), ("edit", 1),
                                                   ("undo", 2)]
    assert events[2].entry is not None and events[2].entry["taker"] == "EW"
    conn = sqlite3.connect(tmp_path / "sheets.db")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE events SET kind = 'add'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM events")
    conn.close()


def test_hand_entry_objects_are_accepted(store: SheetStore) -> None:
    rules = make_rules("classic")
    sid = store.create("classic")["id"]
    state = store.add_hand(sid, parse_hand_entry(hand("EW", 100), rules))
    assert state["totals"] == {"NS": 62, "EW": 100}


def test_coinche_sheet_with_options(store: SheetStore) -> None:
    """§9.2 made_plus_bid with §10 rounding, options kept on the sheet."""
    sid = store.create("coinche", {"double_scope": "contract_only"})["id"]
    hands = [{"taker": "NS", "trick_points": {"NS": 117}, "contract": 110},
             {"taker": "EW", "trick_points": {"EW": 60}, "contract": 80, "multiplier": 2}]
    for h in hands:
        state = store.add_hand(sid, h)
    assert state["options"] == {"double_scope": "contract_only"}
    assert game_part(state) == expected("coinche", hands,
                                        options={"double_scope": "contract_only"})


# --- delete, list ---------------------------------------------------------------------------


def test_list_and_soft_delete(store: SheetStore, tmp_path: Path) -> None:
    a = store.create("classic", name="A")["id"]
    b = store.create("coinche", name="B", target=100)["id"]
    store.add_hand(a, hand("NS", 92))
    store.add_hand(b, {"taker": "NS", "trick_points": {"NS": 120}, "contract": 100})
    listed = [{k: s[k] for k in ("id", "name", "profile", "hands", "finished")}
              for s in store.sheets()]
    assert listed == [
        {"id": a, "name": "A", "profile": "classic", "hands": 1, "finished": False},
        {"id": b, "name": "B", "profile": "coinche", "hands": 1, "finished": True},
    ]
    deleted = store.delete(a)
    assert deleted["deleted"] is True and deleted["id"] == a
    assert [s["id"] for s in store.sheets()] == [b]
    with pytest.raises(SheetNotFoundError, match=f"sheet {a}: deleted"):
        store.state(a)
    with pytest.raises(SheetNotFoundError):
        store.add_hand(a, hand("NS", 92))
    conn = sqlite3.connect(tmp_path / "sheets.db")
    assert conn.execute("SELECT COUNT(*) FROM events WHERE sheet_id = ?", (a,)).fetchone() == (1,)
    store.delete(b, purge=True)
    assert conn.execute("SELECT COUNT(*) FROM events WHERE sheet_id = ?", (b,)).fetchone() == (0,)
    assert conn.execute("SELECT COUNT(*) FROM sheets WHERE id = ?", (b,)).fetchone() == (0,)
    conn.close()
    with pytest.raises(SheetNotFoundError, match=f"sheet {b}: no such sheet"):
        store.state(b)


# --- files ---------------------------------------------------------------------------------


def test_default_path_follows_xdg_and_belote_db(tmp_path: Path) -> None:
    home = Path.home()
    assert default_db_path({}) == home / ".local/share/belote/sheets.db"
    assert default_db_path({"XDG_DATA_HOME": "/data"}) == Path("/data/belote/sheets.db")
    assert default_db_path({"XDG_DATA_HOME": "rel"}) == home / ".local/share/belote/sheets.db"
    assert default_db_path({"BELOTE_DB": "/x/y.db", "XDG_DATA_HOME": "/data"}) == Path(
        "/x/y.db")


def test_folders_are_created_and_wal_is_on(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "sheets.db"
    with SheetStore(path) as store:
        sid = store.create("classic")["id"]
        store.add_hand(sid, hand("NS", 92))
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()
    with SheetStore(path) as again:
        assert again.state(sid)["totals"] == {"NS": 92, "EW": 70}


def test_a_file_that_is_not_a_database_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(SheetError, match=r"junk\.db"):
        SheetStore(path)


def test_export_import_round_trip(store: SheetStore) -> None:
    sid = store.create("classic", {"tie_rule": "litige"}, target=700, name="Round",
                       team_names="Us,Them")["id"]
    for h in (hand("NS", 81), hand("EW", 100, belote="NS"), hand("NS", 70)):
        store.add_hand(sid, h)
    store.edit_hand(sid, 3, hand("NS", 72))
    doc = store.export_json(sid)
    assert doc["format"] == "belote-sheet" and len(doc["hands"]) == 3
    new = store.import_json(json.loads(json.dumps(doc)))
    old = store.state(sid)
    assert new["id"] != sid
    assert {k: v for k, v in new.items() if k != "id"} == {
        k: v for k, v in old.items() if k != "id"}
    assert store.export_json(new["id"]) == doc


def test_import_accepts_a_score_game_input_and_refuses_bad_documents(
        store: SheetStore) -> None:
    hands = [hand("NS", 92), hand("EW", 92)]
    state = store.import_json({"profile": "classic", "target": 300, "hands": hands})
    assert game_part(state) == expected("classic", hands, 300)
    with pytest.raises(InvalidRecordError, match="unknown key 'hand'"):
        store.import_json({"hand": []})
    with pytest.raises(InvalidRecordError, match="format"):
        store.import_json({"format": "other", "hands": []})
    with pytest.raises(InvalidRecordError, match="hand 2: trick_points"):
        store.import_json({"hands": [hand("NS", 92), hand("NS", 200)]})
    with pytest.raises(InvalidRecordError, match="hand 3: the game was already won"):
        store.import_json({"target": 100, "hands": [hand("NS", 92)] * 3})
    assert len(store.sheets()) == 1


def test_csv_export_one_row_per_hand(store: SheetStore) -> None:
    sid = store.create("classic")["id"]
    store.add_hand(sid, hand("NS", 81))
    store.add_hand(sid, hand("EW", 70, declarations={"NS": 20}, belote="NS"))
    rows = list(csv.DictReader(io.StringIO(store.export_csv(sid))))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert rows[0]["outcome"] == "litige" and rows[0]["reserve"] == "81"
    assert rows[1] == {
        "hand": "2", "taker": "EW", "trick_points_NS": "92", "trick_points_EW": "70",
        "capot": "", "declarations_NS": "20", "declarations_EW": "0", "belote_NS": "20",
        "belote_EW": "0", "contract": "", "trump": "", "multiplier": "1",
        "outcome": "failed", "score_NS": str(162 + 20 + 20 + 81), "score_EW": "0",
        "total_NS": str(283), "total_EW": "81", "reserve": "0",
    }


# --- five to seven players (docs/rules.md §13) --------------------------------------------------


@pytest.mark.parametrize("n", [5, 6, 7])
def test_n_player_sheet_follows_the_fair_cycle_13_1(store: SheetStore, n: int) -> None:
    """§13.1: hand i is played by cycle[i % L]; seated players earn their
    team's score, sitters 0; the dealer is dealer_for's choice."""
    cycle = fair_cycle(n)
    length = len(cycle)
    sid = store.create("classic", players=n, target=10**6)["id"]
    state = store.state(sid)
    assert state["next"]["teams"] == [list(t) for t in cycle[0].teams]
    hands = [hand("NS" if i % 3 else "EW", 60 + (7 * i) % 100) for i in range(length + 2)]
    for h in hands:
        state = store.add_hand(sid, h)
    seatings = [cycle[i % length] for i in range(len(hands) + 1)]
    dealt = dict.fromkeys(range(1, n + 1), 0)
    dealers = []
    for seating in seatings:
        d = dealer_for(seating, dealt)
        dealers.append(d)
        dealt[d] += 1
    assert [s["dealer"] for s in state["seatings"]] == dealers[:-1]
    assert state["next"] == {"hand": len(hands) + 1, "teams": [list(t) for t in
                             seatings[-1].teams], "out": list(seatings[-1].out),
                             "dealer": dealers[-1]}
    game = expected("classic", hands, 2**62)
    assert state["hands"] == game["hands"]
    scores = [(h["score"]["NS"], h["score"]["EW"]) for h in game["hands"]]
    totals = individual_totals(n, seatings[:-1], scores)
    assert {s["player"]: s["total"] for s in state["standings"]} == {
        p: totals.get(p, 0) for p in range(1, n + 1)}
    assert sum(s["played"] for s in state["standings"]) == 4 * len(hands)
    assert state["cycle_ends"] == [length] and not state["at_cycle_end"]
    assert state["player_names"] == [f"Player {p}" for p in range(1, n + 1)]


def test_seated_player_gets_team_score_sitter_nothing_13_1(store: SheetStore) -> None:
    sid = store.create("classic", players=5, player_names="A,B,C,D,E")["id"]
    state = store.add_hand(sid, hand("NS", 100))
    seat = fair_cycle(5)[0]
    standing = {s["player"]: s["total"] for s in state["standings"]}
    for p in seat.teams[0]:
        assert standing[p] == 100
    for p in seat.teams[1]:
        assert standing[p] == 62
    for p in seat.out:
        assert standing[p] == 0
    assert state["player_names"] == ["A", "B", "C", "D", "E"]


def test_n_player_game_ends_at_a_cycle_end_13_2(store: SheetStore) -> None:
    """§13.2: standings compare at cycle ends; the game ends at the first cycle
    end where a player has reached the target and leads alone."""
    length = len(fair_cycle(5))
    sid = store.create("classic", players=5, target=150)["id"]
    state = store.add_hand(sid, {"taker": "NS", "capot": "NS"})  # 252 each: past 150
    assert not state["finished"] and not state["at_cycle_end"]
    count = 1
    while not state["finished"]:
        assert count < 4 * length
        state = store.add_hand(sid, hand("NS", 60 + (37 * count) % 100))
        count += 1
        totals = sorted((s["total"] for s in state["standings"]), reverse=True)
        ends_here = count % length == 0 and totals[0] >= 150 and totals[0] != totals[1]
        assert state["finished"] == ends_here
        assert state["at_cycle_end"] == (count % length == 0)
    assert state["winner"] is None and state["next"] is None
    best = max(state["standings"], key=lambda s: s["total"])
    assert state["player_winner"] == best["player"]
    with pytest.raises(InvalidRecordError,
                       match=f"hand {count + 1}: the game was already won by player"):
        store.add_hand(sid, hand("NS", 100))
    # Undo reopens it: the next hand is the last one again.
    assert store.undo(sid)["finished"] is False


def test_n_player_round_trip_and_csv(store: SheetStore) -> None:
    sid = store.create("classic", players=6, player_names="A,B,C,D,E,F", name="six")["id"]
    for i in range(4):
        store.add_hand(sid, hand("EW", 50 + 10 * i))
    doc = store.export_json(sid)
    new = store.import_json(doc)
    assert {k: v for k, v in new.items() if k != "id"} == {
        k: v for k, v in store.state(sid).items() if k != "id"}
    rows = list(csv.DictReader(io.StringIO(store.export_csv(sid))))
    assert len(rows) == 4
    last = rows[-1]
    standing = {s["player"]: s["total"] for s in new["standings"]}
    assert [int(last[f"player_{p}"]) for p in range(1, 7)] == [standing[p] for p in range(1, 7)]
    assert last["team_NS"] == " ".join(map(str, fair_cycle(6)[3].teams[0]))


def test_team_names_and_players_do_not_mix(store: SheetStore) -> None:
    with pytest.raises(InvalidRecordError, match="teams change every hand"):
        store.create("classic", players=5, team_names="Us,Them")
    assert store.create("classic", players=4)["players"] is None


def test_sheet_from_json_checks_names() -> None:
    with pytest.raises(InvalidRecordError, match="team_names"):
        sheet_from_json({"team_names": {"NS": "a"}, "hands": []})


# --- a property: whatever the edits, the state is score_game of the hands -----------------

_hand = st.builds(
    lambda taker, pts, belote: hand(taker, pts, belote=belote),
    st.sampled_from(["NS", "EW"]), st.integers(0, 162),
    st.sampled_from([None, "NS", "EW"]),
)
_op = st.one_of(
    st.tuples(st.just("add"), _hand),
    st.tuples(st.just("undo"), st.none()),
    st.tuples(st.just("edit"), st.tuples(st.integers(1, 8), _hand)),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(_op, max_size=14), st.sampled_from([300, 600, 10_000]))
def test_any_history_scores_as_its_hands_8_4_11(ops: list[tuple[str, Any]],
                                                 target: int) -> None:
    """After any sequence of adds, undos and edits (refused ones changing
    nothing) the state is score_game of the hands that remain: the reserve
    (§8.4) and the end (§11) are always recomputed from the first hand."""
    with SheetStore(":memory:") as store:
        sid = store.create("classic", target=target)["id"]
        model: list[dict[str, Any]] = []
        for kind, arg in ops:
            try:
                if kind == "add":
                    store.add_hand(sid, arg)
                    model.append(arg)
                elif kind == "undo":
                    store.undo(sid)
                    model.pop()
                else:
                    number, h = arg
                    store.edit_hand(sid, number, h)
                    model[number - 1] = h
            except (SheetError, InvalidRecordError):
                pass
            state = store.state(sid)
            assert game_part(state) == expected("classic", model, target)
        info, entries = store.load(sid)
        state = store.state(sid)
        assert score_sheet(info, entries) == state
        assert set(STATE_EXTRAS) <= set(state)
