"""The solver's two builds (issue 5): :class:`belote._dds.Engine` run by the
interpreter from its source (``pure``, the reference) and its port to C (``compiled``,
``scripts/build_solver.sh``; CI builds it).

Each is checked against plain minimax on random endgames (RULES.md §5, §6 with
the card-play options), and the two against each other on full deals: the same
value, the same value for every card and the same number of positions searched
(so a PIMC decision under a node budget does not depend on the build).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest

from belote import solver
from belote.cards import HEARTS, mask_of
from belote.errors import OptionError
from belote.options import make_rules
from belote.play import PlayState, card_points
from belote.solver import SearchLimitError, solve
from tests.test_solver import check_against_minimax, random_endgame, random_rules

ENGINES = ("pure", "compiled")


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the test under one build; ``compiled`` is skipped where it is not built."""
    name: str = request.param
    if name == "compiled" and solver._load_compiled() is None:
        pytest.skip("the compiled solver is not built (bash scripts/build_solver.sh)")
    monkeypatch.setenv("BELOTE_SOLVER", name)  # the default of every solve
    yield name


def full_deals(seed: int, n: int) -> list[PlayState]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [mask_of(deck[8 * s:8 * s + 8]) for s in range(4)]
        out.append(PlayState(random_rules(rng), i % 6, hands, rng.randrange(4)))
    return out


def run_under(name: str, states: list[PlayState], moves: bool) -> list[tuple[int, dict[int, int],
                                                                             int]]:
    build = solver.solver_engine(name)
    results = [solve(s, moves=moves, engine=build) for s in states]
    return [(r.value, r.moves, r.nodes) for r in results]


def test_each_engine_matches_minimax_on_endgames(engine: str) -> None:
    """§5, §6: value and per-card values equal full minimax, every trump mode."""
    rng = random.Random(31)
    for n in range(48):
        check_against_minimax(random_endgame(rng, n % 6, (2, 3, 3, 4)[n % 4]))


def test_engine_in_use_is_reported(engine: str) -> None:
    """The pure build is the source run by the interpreter, even where it is compiled."""
    assert solver.solver_engine().name == engine
    module = solver.solver_engine().module
    assert str(module.__file__).endswith(".py") == (engine == "pure")
    assert (engine == "compiled") == module.__name__.endswith("_dds_c")


def random_position(rng: random.Random, most: int) -> PlayState:
    """A random endgame of 1 to ``most`` tricks left (every trump mode, random rules,
    0 to 3 cards on the trick); one in four with a capot still open (one team holds
    every trick so far)."""
    trump = rng.randrange(6)
    left = rng.randint(1, most)
    if rng.random() >= 0.25:
        return random_endgame(rng, trump, left)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [mask_of(deck[left * i:left * i + left]) for i in range(4)]
    won = (8 - left, 0) if rng.random() < 0.5 else (0, 8 - left)
    state = PlayState(random_rules(rng), trump, hands, rng.randrange(4), tricks_won=won)
    for _ in range(rng.randrange(4)):
        state.push(rng.choice(state.legal_cards()))
    return state


def test_compiled_matches_minimax_on_thousands_of_endgames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """§5, §6: the C build's value and per-card values equal plain minimax on 3,000
    random endgames of 1 to 3 tricks (every trump mode, random rules and options,
    tricks in progress, capots open)."""
    if solver._load_compiled() is None:
        pytest.skip("the compiled solver is not built (bash scripts/build_solver.sh)")
    rng = random.Random(2026)
    monkeypatch.setenv("BELOTE_SOLVER", "compiled")
    for _ in range(3000):
        check_against_minimax(random_position(rng, 3))


def test_compiled_matches_the_reference_on_thousands_of_positions() -> None:
    """The C build against the reference search (``_dds.py`` run by the interpreter)
    on 3,000 random positions of 1 to 6 tricks left: the same value, the same value
    for each card and the same number of positions searched."""
    if solver._load_compiled() is None:
        pytest.skip("the compiled solver is not built (bash scripts/build_solver.sh)")
    rng = random.Random(14)
    states = [random_position(rng, 6) for _ in range(3000)]
    modes = {s.trump for s in states}
    assert modes == set(range(6))
    assert run_under("compiled", states, True) == run_under("pure", states, True)


@pytest.mark.parametrize("moves", [False, True])
def test_engines_search_the_same_positions(moves: bool) -> None:
    """Full deals (every trump mode, random §6 options) and 5-trick endgames: the
    compiled build gives the pure build's values, card values and node counts."""
    if solver._load_compiled() is None:
        pytest.skip("the compiled solver is not built (bash scripts/build_solver.sh)")
    states = full_deals(8, 6) + [random_endgame(random.Random(n), n % 6, 5) for n in range(30)]
    assert run_under("compiled", states, moves) == run_under("pure", states, moves)


def test_node_limit_under_each_engine(engine: str) -> None:
    """``max_nodes`` stops every engine the same way and leaves the position."""
    deck = list(range(32))
    random.Random(4).shuffle(deck)
    state = PlayState(make_rules(), HEARTS, [mask_of(deck[i * 8:i * 8 + 8]) for i in range(4)], 0)
    key = state.key()
    full = solve(state, moves=False)
    with pytest.raises(SearchLimitError) as info:
        solve(state, moves=False, max_nodes=500)
    assert 500 < info.value.nodes < 520  # checked where a trick starts
    assert state.key() == key
    assert solve(state, moves=False, max_nodes=full.nodes).value == full.value


def test_the_c_build_checks_its_arguments() -> None:
    """The C build refuses malformed calls with an error, never a wrong search."""
    if solver._load_compiled() is None:
        pytest.skip("the compiled solver is not built (bash scripts/build_solver.sh)")
    state = full_deals(3, 1)[0]
    build = solver.solver_engine("compiled")
    h = solver._hands(state)
    engine, _ = solver._engine(build, state, h, {}, None)
    with pytest.raises(TypeError):
        engine.boundary(0, 0, 152)  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        engine.boundary(4, 0, 152, 0, 1)
    with pytest.raises(ValueError):
        engine.boundary(0, 0, 153, 0, 1)  # more points than the deck holds
    with pytest.raises(ValueError):
        engine.follow(0, 1, 0, 32, 1, 0, 1, 0, 152, 0, 1)
    h.append(0)
    with pytest.raises(TypeError):
        engine.boundary(0, 0, 152, 0, 1)
    h.pop()
    h[0] |= 1 << 40
    with pytest.raises(ValueError):
        engine.boundary(0, 0, 152, 0, 1)
    h[0] = state.hands[0]
    assert engine.boundary(0, 0, 152, -1, 0) >= 0  # usable after the errors
    with pytest.raises(ValueError, match="do not fit"):
        build.module.Engine(h, {}, [40] * 32, *solver._engine_tables(
            state.rules, state.trump)[1:], 1 << 62, SearchLimitError, [0, 1, 0, 1],
            [2, 3, 0, 1], list(state.hands), [0] * 32, 0, False)


def test_the_two_copies_of_the_c_search_agree_at_four() -> None:
    """The C build compiles the search twice, with the constants of a table of four and
    for any table; at four seats, made to run the second (the node limit checked at
    every position), it gives the first's values and visits its positions."""
    if solver._load_compiled() is None:
        pytest.skip("the compiled solver is not built (bash scripts/build_solver.sh)")
    build = solver.solver_engine("compiled")
    rng = random.Random(23)
    states = full_deals(5, 2) + [random_endgame(rng, n % 6, 2 + n % 5) for n in range(150)]
    checked = 0
    for state in states:
        if state.trick:
            continue
        pts = card_points(state.rules, state.trump)
        rem = sum(pts[c] for c in range(32) if any((h >> c) & 1 for h in state.hands))
        flags = (1 if state.tricks_won[0] else 0) | (2 if state.tricks_won[1] else 0)
        found = []
        for every in (False, True):
            engine = build.module.Engine(
                solver._hands(state), {}, *solver._engine_tables(state.rules, state.trump, True),
                1 << 62, SearchLimitError, [0, 1, 0, 1], [2, 3, 0, 1], list(state.hands),
                [0] * 32, 0, every)
            found.append((engine.boundary(state.turn, flags, rem, -1, 1000),
                          engine.node_count()))
        assert found[0] == found[1]
        checked += 1
    assert checked > 20


def test_the_c_build_searches_in_threads_at_once() -> None:
    """The C build releases the GIL while it searches: solves in several threads
    give the answers of one thread."""
    if solver._load_compiled() is None:
        pytest.skip("the compiled solver is not built (bash scripts/build_solver.sh)")
    from concurrent.futures import ThreadPoolExecutor

    states = full_deals(21, 8)
    alone = run_under("compiled", states, False)
    build = solver.solver_engine("compiled")
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda s: solve(s, moves=False, engine=build), states))
    assert [(r.value, r.moves, r.nodes) for r in results] == alone


def test_solver_engine_refuses_unknown_names(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(OptionError, match=r"solver engine 'fast': one of auto, pure, compiled"):
        solver.solver_engine("fast")
    monkeypatch.setattr(solver, "_load_compiled", lambda: None)
    with pytest.raises(OptionError, match=r"not compiled here .*build_solver\.sh"):
        solver.solver_engine("compiled")
    assert solver.solver_engine("pure").name == "pure"
    assert solver.solver_engine("auto").name == "pure"  # where the C build is missing


def test_a_bad_belote_solver_variable_is_named_at_the_first_solve(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``BELOTE_SOLVER`` is read by each solve that is not given an engine; a bad
    value fails the first solve clearly."""
    monkeypatch.setenv("BELOTE_SOLVER", "quick")
    state = full_deals(1, 1)[0]
    with pytest.raises(OptionError, match="'quick'"):
        solve(state)


@pytest.mark.skipif(os.environ.get("BELOTE_REQUIRE_COMPILED") != "1",
                    reason="only where the compiled solver must be built (CI)")
def test_the_compiled_solver_is_built_and_used() -> None:
    """CI builds the compiled search, the C build (scripts/setup.sh), and every test
    runs it."""
    compiled = solver._load_compiled()
    assert compiled is not None
    assert compiled.__name__ == "belote._dds_c"
    assert solver.solver_engine().name == "compiled"


def test_bots_holding_different_builds_decide_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """No process-wide switch: a PIMC bot holds the build it was made with, and two bots
    holding the pure and the compiled build, side by side, make the same decision
    from the same worlds (same values, same node counts)."""
    if solver._load_compiled() is None:
        pytest.skip("the compiled solver is not built (bash scripts/build_solver.sh)")
    from belote.bots import make_bot
    from belote.bots.pimc import PimcBot
    from belote.round import PLAY, Round

    # (v5's reading: the card model, the announcements not read, the hand's score)
    spec = "pimc:read_fit=fixed,heard_reads=ignore,objective=score,worlds=6,nodes=200000"
    monkeypatch.setenv("BELOTE_SOLVER", "pure")
    slow = make_bot(spec, seed=9)
    monkeypatch.setenv("BELOTE_SOLVER", "compiled")
    fast = make_bot(spec, seed=9)
    assert isinstance(slow, PimcBot) and isinstance(fast, PimcBot)
    assert (slow.engine.name, fast.engine.name) == ("pure", "compiled")
    deck = list(range(32))
    random.Random(7).shuffle(deck)
    rnd = Round(make_rules(), 0, deck)
    helper = make_bot("heuristic", seed=1)
    while rnd.phase != PLAY:
        rnd.call(helper.call(rnd.view(rnd.current_player())))
    while len(rnd.view(0).tricks) < 4:
        rnd.play_card(helper.play(rnd.view(rnd.current_player())))
    view = rnd.view(rnd.current_player())
    assert slow.play(view) == fast.play(view)
    assert slow.last_values == fast.last_values and slow.last_nodes == fast.last_nodes > 0
