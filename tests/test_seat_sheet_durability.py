"""Durability of a three-player score sheet (docs/json.md ``belote sheet``): the same
guarantee as tests/test_sheet_durability.py for the per-seat sheets of §12 — a hand
that `belote sheet add` has answered survives a SIGKILL at any moment, and two
processes adding to one sheet at once both land."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from belote.options import make_rules
from belote.scoring import parse_seat_entry, score_game, seat_entry_to_json
from belote.sheets import SheetStore
from tests.helpers import add_batches_at_once, killed_adder_rounds

HIGH_TARGET = 10**9  # the game never ends
PROFILE = "classic-3p"
OPTIONS = {"three_deal": "six_each"}  # a partial pack: trick_total is kept too


def random_hand(rng: random.Random) -> dict[str, Any]:
    taker = rng.choice("NES")
    total = rng.randint(100, 162)
    first = rng.randint(0, total)
    second = rng.randint(0, total - first)
    left_out = rng.choice("NES")  # worked out from trick_total
    seats = [s for s in "NES" if s != left_out]
    return {"taker": taker, "trick_points": {seats[0]: first, seats[1]: second},
            "trick_total": total, "belote": rng.choice([None, "N", "E", "S"]),
            "leader": rng.choice("NES")}


def canonical(obj: dict[str, Any]) -> str:
    rules = make_rules(PROFILE, OPTIONS)
    return json.dumps(seat_entry_to_json(parse_seat_entry(obj, rules)), sort_keys=True)


def stored_hands(db: Path, sheet_id: int) -> list[str]:
    with SheetStore(db, small_tables=True) as store:
        info, entries = store.load_entries(sheet_id)
        state = store.state(sheet_id)
    seat_entries = [e for e in entries if e.per_seat]
    assert len(seat_entries) == len(entries)
    # The sheet opens and scores: its state is the per-seat game of its hands.
    game = score_game(info.rules(), seat_entries, info.target).to_json()
    assert {k: state[k] for k in game} == game
    return [json.dumps(seat_entry_to_json(e), sort_keys=True) for e in seat_entries]


def new_sheet(db: Path) -> int:
    with SheetStore(db, small_tables=True) as store:
        return int(store.create(PROFILE, OPTIONS, target=HIGH_TARGET)["id"])


def test_answered_seat_hands_survive_sigkill(tmp_path: Path) -> None:
    """A process adding three-player hands is killed (SIGKILL) at random moments,
    several times: every hand it answered is in the sheet, in order, and the sheet
    still opens and scores per seat."""
    db = tmp_path / "sheets.db"
    sid = new_sheet(db)

    def three_totals(answer: dict[str, Any]) -> None:
        assert set(answer["totals"]) == {"N", "E", "S"}

    known = killed_adder_rounds(tmp_path, db, sid, random.Random(20261201), random_hand,
                                stored_hands, canonical, three_totals)
    assert len(known) > 0


def test_two_processes_adding_seat_hands_at_once_both_land(tmp_path: Path) -> None:
    n = 60
    db = tmp_path / "sheets.db"
    sid = new_sheet(db)
    batches = [
        [{"taker": "N", "trick_points": {"N": i % 120, "E": 10}, "trick_total": 140}
         for i in range(n)],
        [{"taker": "S", "trick_points": {"S": (i + 41) % 120, "N": 5}, "trick_total": 150}
         for i in range(n)],
    ]
    add_batches_at_once(db, sid, batches)
    stored = stored_hands(db, sid)
    assert len(stored) == 2 * n
    assert Counter(stored) == Counter(canonical(h) for b in batches for h in b)
    for batch in batches:
        mine = [canonical(h) for h in batch]
        assert [s for s in stored if s in set(mine)] == mine
