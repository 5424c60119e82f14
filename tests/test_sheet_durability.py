"""Durability of `belote sheet add` (docs/json.md: "A hand that add has answered
is on disk: a process killed at any moment afterwards loses nothing, and two
processes adding to the same sheet at once both land, in some order")."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from belote.options import make_rules
from belote.scoring import hand_entry_to_json, parse_hand_entry, score_game
from belote.sheets import SheetStore
from tests.helpers import add_batches_at_once, killed_adder_rounds

HIGH_TARGET = 10**9  # the game never ends


def random_hand(rng: random.Random) -> dict[str, Any]:
    taker = rng.choice(["NS", "EW"])
    return {"taker": taker, "trick_points": {taker: rng.randint(0, 162)},
            "belote": rng.choice([None, "NS", "EW"])}


def canonical(obj: dict[str, Any]) -> str:
    rules = make_rules("classic")
    return json.dumps(hand_entry_to_json(parse_hand_entry(obj, rules)), sort_keys=True)


def stored_hands(db: Path, sheet_id: int) -> list[str]:
    with SheetStore(db) as store:
        info, entries = store.load(sheet_id)
        state = store.state(sheet_id)
    # The sheet opens and scores: its state is score_game of its hands.
    game = score_game(info.rules(), entries, info.target).to_json()
    assert {k: state[k] for k in game} == game
    return [json.dumps(hand_entry_to_json(e), sort_keys=True) for e in entries]


def test_answered_hands_survive_sigkill(tmp_path: Path) -> None:
    """A process adding hands one by one is killed (SIGKILL) at random moments,
    several times: every hand it answered is in the sheet, in order, and the
    sheet still opens and scores."""
    db = tmp_path / "sheets.db"
    with SheetStore(db) as store:
        sid = store.create("classic", target=HIGH_TARGET)["id"]
    known = killed_adder_rounds(tmp_path, db, sid, random.Random(20240601), random_hand,
                                stored_hands, canonical)
    assert len(known) > 0


def test_two_processes_adding_at_once_both_land(tmp_path: Path) -> None:
    """Two processes add N hands each to one sheet at the same time: all 2N land."""
    n = 100
    db = tmp_path / "sheets.db"
    with SheetStore(db) as store:
        sid = store.create("classic", target=HIGH_TARGET)["id"]
    batches = [
        [{"taker": "NS", "trick_points": {"NS": i % 163}} for i in range(n)],
        [{"taker": "EW", "trick_points": {"EW": (i + 81) % 163}} for i in range(n)],
    ]
    add_batches_at_once(db, sid, batches)
    stored = stored_hands(db, sid)
    assert len(stored) == 2 * n
    assert Counter(stored) == Counter(canonical(h) for b in batches for h in b)
    # Each process's hands keep their own order.
    for batch in batches:
        mine = [canonical(h) for h in batch]
        assert [s for s in stored if s in set(mine)] == mine
