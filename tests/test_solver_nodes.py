"""The four-player search's node counts, pinned (tests/data/solver_nodes.json).

A PIMC decision under a node budget depends on how many positions each solve
searches, and so do the golden pins of the bots: the search at four players must
visit the positions it visited when it was a class of its own (``Engine`` of four
seats, before the one search for every table replaced it).  The numbers were
taken from that search, and this test checks the search of today against them
on 240 random four-player positions (1 to 6 tricks left, every trump mode, random
§6 options, tricks in progress, capots open), each for the value alone and with
every card's value, and on 3 full deals; and where a node limit stops it (the
limit is checked where a trick starts at four players).  The C build runs them
all, the reference the first 40 (both builds visit the same positions:
tests/test_solver_engines.py).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from belote import solver
from belote.play import PlayState
from belote.solver import SearchLimitError, solve
from tests.test_solver_engines import full_deals, random_position

PINS = Path(__file__).resolve().parent / "data" / "solver_nodes.json"
COUNT = 240  # positions
LIMITED = 60  # positions also searched under a node limit
PURE = 40  # positions the reference searches


def positions() -> list[PlayState]:
    rng = random.Random(2027)
    return [random_position(rng, 6) for _ in range(COUNT)]


def full_deal_states() -> list[PlayState]:
    return full_deals(29, 3)


def pins() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PINS.read_text())
    return data


@pytest.mark.parametrize("name", ["compiled", "pure"])
def test_the_four_player_node_counts_are_those_pinned(name: str) -> None:
    if name == "compiled" and solver._load_compiled() is None:
        pytest.skip("the compiled solver is not built (bash scripts/build_solver.sh)")
    build = solver.solver_engine(name)
    states = positions()
    assert {s.trump for s in states} == set(range(6))
    assert any(s.trick for s in states) and any(0 in s.tricks_won for s in states)
    want = pins()
    count = COUNT if name == "compiled" else PURE
    got = []
    for state in states[:count]:
        a = solve(state, moves=False, engine=build)
        b = solve(state, engine=build)
        assert a.value == b.value
        got.append([a.value, a.nodes, b.nodes])
    assert got == want["positions"][:count]
    if name == "compiled":
        deals = [solve(s, moves=False, engine=build) for s in full_deal_states()]
        assert [[r.value, r.nodes] for r in deals] == want["full_deals"]


def test_a_node_limit_stops_the_four_player_search_where_it_did() -> None:
    """The count a :class:`SearchLimitError` carries (PIMC's bidding adds it to the
    nodes it spent) is the one pinned: the limit is checked where a trick starts."""
    if solver._load_compiled() is None:
        pytest.skip("the compiled solver is not built (bash scripts/build_solver.sh)")
    build = solver.solver_engine("compiled")
    stops: list[int | None] = []
    for i, state in enumerate(positions()[:LIMITED]):
        moves = i % 2 == 0
        full = solve(state, moves=moves, engine=build)
        try:
            solve(state, moves=moves, max_nodes=full.nodes // 3 + 1, engine=build)
            stops.append(None)
        except SearchLimitError as stop:
            stops.append(stop.nodes)
    assert stops == pins()["limits"]
    assert sum(1 for s in stops if s is not None) > LIMITED // 2
