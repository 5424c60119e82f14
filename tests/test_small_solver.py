"""The search at tables of two and three and in belote découverte (docs/rules.md
§12): :class:`belote._dds.Engine` and its C build.

Positions come from real deals of every deal mode (three players: ``24_cards``,
``kitty``, ``six_each``; two: ``stock``, ``decouverte`` with its face-down cards),
trumps of every kind the profile allows (SA and TA with ``sa_ta_in_classic``),
played at random down to a number of tricks left, a trick possibly in progress.
On each, the engine's value and per-card values equal those of
:class:`belote._table_search.TableSearch` (the slow, obviously correct reference)
and, on short positions, of plain minimax; its C build gives its Python build's
values and node counts; node limits stop both builds at the same count.
"""

from __future__ import annotations

import random
import sys
import types
from collections.abc import Iterator

import pytest

from belote import solver
from belote._table_search import solve_table
from belote.bots.card_score import world_state
from belote.bots.knowledge import World
from belote.cards import HEARTS, Card, mask_of, parse_card
from belote.errors import OptionError
from belote.options import make_rules
from belote.play import PlayState
from belote.round import Round
from belote.solver import SearchLimitError, SolveResult, minimax, solve
from belote.table import Phase, Table
from tests.helpers import mask

# (profile, options) of every deal mode of §12.
MODES: tuple[tuple[str, dict[str, object]], ...] = (
    ("classic-3p", {"three_deal": "24_cards"}),
    ("classic-3p", {"three_deal": "kitty"}),
    ("classic-3p", {"three_deal": "six_each"}),
    ("classic-2p", {"two_deal": "stock"}),
    ("classic-2p", {"two_deal": "decouverte"}),
)


def small_position(rng: random.Random, mode: int, left: int) -> tuple[PlayState, dict[Card, Card]]:
    """A deal of ``MODES[mode]`` (SA and TA offered one time in two, random tout-atout
    values), its calls and kitty discard at random, played at random down to at most
    ``left`` tricks left and then 0 to n - 1 cards more; the position as the solver
    sees it, and découverte's face-down cards (``beneath``)."""
    profile, options = MODES[mode]
    rules = make_rules(profile, {**options, "sa_ta_in_classic": rng.random() < 0.5,
                                 "ta_values": rng.choice(("pc", "ffbc", "scaled"))})
    table = Table.of(rules)
    while True:
        deck = list(table.deck)
        rng.shuffle(deck)
        rnd = Round(rules, rng.randrange(table.players), deck)
        while rnd.phase is Phase.BIDDING:
            calls = rnd.legal_calls()
            takes = [c for c in calls if c != "pass"]
            rnd.call(rng.choice(takes) if takes and rng.random() < 0.5 else rng.choice(calls))
        if rnd.phase is Phase.DISCARD:
            hand = rnd.hands[rnd.current_player()]
            rnd.discard(rng.sample([c for c in range(32) if hand >> c & 1], 2))
        if rnd.phase is Phase.PLAY:
            break
    while rnd.phase is Phase.PLAY:
        view = rnd.view(rnd.current_player())
        if not view.trick and table.tricks - len(view.tricks) <= left:
            break
        rnd.play_card(rng.choice(rnd.legal_cards()))
    for _ in range(rng.randrange(table.players)):  # a trick in progress
        rnd.play_card(rng.choice(rnd.legal_cards()))
    view = rnd.view(rnd.current_player())
    beneath: dict[Card, Card] = {}
    if rnd.piles is not None:
        beneath = {up: down for pile in rnd.piles for down, up in pile
                   if view.covering >> up & 1}
    hands = tuple(rnd.hand(s) for s in range(table.players))
    return world_state(view, World(hands, 0, beneath), table), beneath


def positions(seed: int, count: int, most: int) -> Iterator[tuple[PlayState, dict[Card, Card]]]:
    """``count`` positions, every deal mode in turn, 1 to ``most`` tricks left."""
    rng = random.Random(seed)
    for i in range(count):
        state, beneath = small_position(rng, i % len(MODES), rng.randint(1, most))
        if not state.is_over():
            yield state, beneath


def minimax_moves(state: PlayState, beneath: dict[Card, Card]) -> dict[Card, int]:
    """Each legal card's value by full minimax: side 0's points of a trick it ends
    plus the rest, the cards under that trick's cards turned up."""
    out = {}
    n = state.players
    for c in state.legal_cards():
        before = state.trick_points[0]
        state.push(c)
        shown = []
        if not state.trick:
            t = state.tricks[-1]
            for i, x in enumerate(t.cards):
                if x in beneath:
                    shown.append(((t.leader + i) % n, beneath[x]))
                    state.hands[shown[-1][0]] |= 1 << beneath[x]
        out[c] = state.trick_points[0] - before + minimax(state, beneath)
        for p, u in shown:
            state.hands[p] &= ~(1 << u)
        state.pop()
    return out


def answer(result: SolveResult) -> tuple[int, dict[int, int]]:
    return result.value, result.moves


def compiled_or_skip() -> solver.SolverEngine:
    if solver._load_compiled() is None:
        pytest.skip("the compiled solver is not built (bash scripts/build_solver.sh)")
    return solver.solver_engine("compiled")


@pytest.fixture(params=("pure", "compiled"))
def build(request: pytest.FixtureRequest) -> solver.SolverEngine:
    if request.param == "compiled":
        return compiled_or_skip()
    return solver.solver_engine("pure")


def test_the_positions_cover_every_mode_and_trump() -> None:
    """The generator reaches every deal mode, SA and TA, and découverte's face-down
    cards (else the tests below would check less than they say)."""
    seen_modes: set[tuple[int, int]] = set()
    trumps: set[int] = set()
    covered = 0
    for state, beneath in positions(3, 60, 16):
        seen_modes.add((state.players, state.tricks_left))
        trumps.add(state.trump)
        covered += bool(beneath)
    assert trumps == set(range(6))
    assert covered > 5
    assert {p for p, _ in seen_modes} == {2, 3}


def test_matches_plain_minimax_on_short_positions(build: solver.SolverEngine) -> None:
    """§5, §12: value and each card's value equal full minimax (dix de der, capot,
    face-down cards turned up at each trick's end), value alone too."""
    for state, beneath in positions(11, 150, 2):
        key = (state.key(), list(state.trick_points), list(state.tricks_won))
        result = solve(state, engine=build, beneath=beneath)
        assert (state.key(), list(state.trick_points), list(state.tricks_won)) == key
        assert result.value == minimax(state, beneath), (state.key(), beneath)
        assert solve(state, moves=False, engine=build, beneath=beneath).value == result.value
        assert result.moves == minimax_moves(state, beneath)


def test_matches_the_reference_search_on_many_positions(build: solver.SolverEngine) -> None:
    """Against ``TableSearch`` on 250 positions of 1 to 6 tricks left, every mode."""
    for state, beneath in positions(12, 250, 6):
        want = answer(solve_table(state, beneath, True, None))
        assert answer(solve(state, engine=build, beneath=beneath)) == want, (state.key(), beneath)


def test_matches_the_reference_search_on_full_deals() -> None:
    """Long positions, one per deal mode (9 tricks left, or the whole deal at a table
    of fewer): the C build against ``TableSearch``."""
    build = compiled_or_skip()
    for state, beneath in positions(13, 5, 9):
        want = answer(solve_table(state, beneath, True, None))
        assert answer(solve(state, engine=build, beneath=beneath)) == want


def test_the_c_build_searches_the_positions_of_the_python_build() -> None:
    """The C build of the engine against its Python build, line for line: the same
    value, card values and node counts (a PIMC decision under a node budget does not
    depend on the build), for the value alone and with each card."""
    fast = compiled_or_skip()
    pure = solver.solver_engine("pure")
    for state, beneath in positions(14, 80, 8):
        for moves in (False, True):
            a = solve(state, moves=moves, engine=fast, beneath=beneath)
            b = solve(state, moves=moves, engine=pure, beneath=beneath)
            assert (a.value, a.moves, a.nodes) == (b.value, b.moves, b.nodes)


def test_node_limit_stops_both_builds_alike(build: solver.SolverEngine) -> None:
    """``max_nodes`` stops the search with SearchLimitError at the same count in both
    builds, leaves the position as it was, and a search with room answers."""
    counts = []
    for state, beneath in positions(15, 15, 7):
        full = solve(state, engine=build, beneath=beneath)
        if full.nodes < 200:
            continue
        key = (state.key(), list(state.trick_points), list(state.tricks_won))
        with pytest.raises(SearchLimitError) as info:
            solve(state, engine=build, beneath=beneath, max_nodes=150)
        counts.append(info.value.nodes)
        assert (state.key(), list(state.trick_points), list(state.tricks_won)) == key
        again = solve(state, engine=build, beneath=beneath, max_nodes=full.nodes)
        assert (again.value, again.moves) == (full.value, full.moves)
    assert counts and all(c == 151 for c in counts)  # checked at every position


def test_the_c_build_checks_its_arguments_at_a_table_of_three() -> None:
    """The C build refuses malformed calls with an error, never a wrong search."""
    build = compiled_or_skip()
    state, _ = small_position(random.Random(4), 1, 10)
    h = solver._hands(state)
    search, _ = solver._engine(build, state, h, {}, None)
    tables = solver._engine_tables(state.rules, state.trump, True)
    with pytest.raises(ValueError):
        search.boundary(3, 0, 10, 0, 1)  # a seat past the table's
    with pytest.raises(ValueError):
        search.play(0, 0, 0, -1, -1, 0, 0, 0, 10, 40, 0, 1)
    with pytest.raises(TypeError):
        search.play(0, 0, 0)  # type: ignore[call-arg]
    missing = next(c for c in range(32) if not (h[0] >> c) & 1)
    with pytest.raises(ValueError, match="holds no card"):
        search.play(0, 0, 0, -1, -1, 0, 0, 0, 10, missing, 0, 1)
    h.append(0)
    with pytest.raises(TypeError, match="four"):
        search.boundary(0, 0, 10, 0, 1)
    h.pop()
    stolen = h[1] & -h[1]
    h[0] |= stolen
    with pytest.raises(ValueError, match="not its own"):
        search.boundary(0, 0, 10, 0, 1)
    h[0] ^= stolen
    h[3] = stolen  # a seat past the table's holds a card
    with pytest.raises(ValueError, match="not its own"):
        search.boundary(0, 0, 10, 0, 1)
    h[3] = 0
    assert search.boundary(0, 0, 10, -1, 0) >= 0  # usable after the errors
    own = list(state.hands)
    args: tuple[object, ...] = (solver._hands(state), {}, *tables, 1 << 62, SearchLimitError)
    make = build.module.Engine
    with pytest.raises(ValueError, match="sides"):
        make(*args, [0, 1, 1, 1, 1], [-1] * 5, own, [0] * 32, 0, True)
    with pytest.raises(ValueError, match="partners"):
        make(*args, [0, 1, 1], [1, -1, -1], own, [0] * 32, 0, True)
    with pytest.raises(ValueError, match="two seats"):
        make(*args, [0, 1, 1], [-1] * 3, [own[0], own[0], own[2]], [0] * 32, 0, True)
    c = next(c for c in range(32) if (own[0] >> c) & 1)
    d = next(c for c in range(32) if (own[1] >> c) & 1)
    under = [0] * 32
    under[c] = 1 << d  # the card under N's turns up into E's hand
    with pytest.raises(ValueError, match="under"):
        make(*args, [0, 1, 1], [-1] * 3, own, under, 1 << d, True)
    with pytest.raises(ValueError, match="hidden"):
        make(*args, [0, 1, 1], [-1] * 3, own, [0] * 32, 1 << d, True)
    with pytest.raises(TypeError):
        make(*args, [0, 1, 1])
    with pytest.raises(TypeError, match="positional"):
        make(*args, [0, 1, 1], [-1] * 3, own, [0] * 32, 0, every=True)


def test_a_turned_up_card_is_played_by_its_owner_in_both_builds(
        build: solver.SolverEngine) -> None:
    """§12.2: N's 7♦ covers the A♥ (trump hearts); after N plays it, the ace is his to
    play in the last trick: 11 + 4 + 10 to N."""
    rules = make_rules("classic-2p", {"two_deal": "decouverte"})
    state = PlayState(rules, HEARTS, [mask("7D"), mask("8D KH")], 0, tricks_left=2,
                      tricks_won=(1, 1))
    beneath = {parse_card("7D"): parse_card("AH")}
    result = solve(state, engine=build, beneath=beneath)
    assert (result.value, result.moves) == (25, {parse_card("7D"): 25})
    assert mask_of([parse_card("7D")]) == state.hands[0]


@pytest.mark.parametrize("version", [None, 1])
def test_a_compiled_build_of_another_search_counts_as_missing(
        monkeypatch: pytest.MonkeyPatch, version: int | None) -> None:
    """A C build of another version of the search than the reference's (``VERSION``;
    the builds made before it have none) is out of date: the pure build runs
    everywhere, and asking for the compiled one says to rebuild."""
    old = types.ModuleType("belote._dds_c")
    old.Engine = object  # type: ignore[attr-defined]
    if version is not None:
        old.VERSION = version  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "belote._dds_c", old)
    solver._load_compiled.cache_clear()
    try:
        assert solver._load_compiled() is None
        assert solver.solver_engine("auto").name == "pure"
        with pytest.raises(OptionError, match="out of date; build it with"):
            solver.solver_engine("compiled")
    finally:
        monkeypatch.undo()
        solver._load_compiled.cache_clear()
    state, beneath = small_position(random.Random(5), 4, 3)
    assert solve(state, beneath=beneath).value == minimax(state, beneath)


def test_the_zero_window_answer_is_the_value_compared(build: solver.SolverEngine) -> None:
    """``reaches``: yes exactly when the value reaches the points, with a bound
    on the answer's side, in both builds; its node limit raises as solve's does and
    the position is left as it was."""
    for state, beneath in positions(17, 60, 6):
        value = solve(state, moves=False, engine=build, beneath=beneath).value
        key = (state.key(), list(state.trick_points))
        for points in (value - 9, value, value + 1, value + 25, 0):
            yes, bound, nodes = solver.reaches(state, points, engine=build, beneath=beneath)
            assert yes == (value >= points), (state.key(), points, value)
            assert (points <= bound <= value) if yes else (value <= bound < points)
            assert nodes >= 1
        assert (state.key(), list(state.trick_points)) == key
    state, beneath = next(positions(18, 1, 16))
    with pytest.raises(SearchLimitError):
        solver.reaches(state, 60, max_nodes=1, engine=build, beneath=beneath)


def test_guesses_change_the_positions_searched_never_the_value(
        build: solver.SolverEngine) -> None:
    """``guesses`` (value only): whatever the guesses (the value itself, near it, far,
    out of the range of values, several), the value is the one found without them
    and full minimax's on short positions; and the value itself as the guess searches
    fewer positions in all than none."""
    rng = random.Random(16)
    plain = guessed = 0
    for i, (state, beneath) in enumerate(positions(16, 120, 3)):
        want = solve(state, moves=False, engine=build, beneath=beneath)
        if i % 3 == 0:
            assert want.value == minimax(state, beneath)
        tries = [(want.value,), (want.value + rng.choice((-5, -1, 1, 7)),),
                 (rng.randint(-20, 300),), (rng.randint(0, 60), want.value, 3), (-1, 999)]
        for guesses in tries:
            got = solve(state, moves=False, engine=build, beneath=beneath, guesses=guesses)
            assert got.value == want.value, (guesses, state.key())
        plain += want.nodes
        guessed += solve(state, moves=False, engine=build, beneath=beneath,
                         guesses=(want.value,)).nodes
    assert guessed < plain
