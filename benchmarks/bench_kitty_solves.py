"""Where the solver's positions go in the kitty taker's two searches at three players
(``kitty`` deal, docs/rules.md §12.1): the discard search and the bidding search.

Seeded kitty deals are bid by the heuristic at every seat.

- **The discard** (:class:`belote.bots.kitty_discard.DiscardSearch`): at each deal that
  reaches the discard, ``--worlds`` worlds of the taker's search, each candidate pair
  solved in each (no budget), once from scratch and once with the values of the pairs
  solved before it in the world as the solver's first tests (``guess=world``): the
  positions per solve by the pair's rank, the share of worlds one of whose solves
  passes a quarter of the budget (left out by the search), how often a pair's value
  equals the one before it, where the zero-window tests' positions go (by the
  distance of the test from the value) and the positions with guesses against
  without.  Then each discard as the bot searches it (``--bot``), both ways: worlds
  solved, discards with fewer than ``discard_min_worlds`` worlds (the rule's pair
  kept), CPU.
- **The bidding** (:meth:`belote.bots.pimc.PimcBot.call` at each call of ``--calls``
  deals, the bot at every seat in turn): the positions per contract solved (the seat's
  own take, or the contract the others reach after its pass), the worlds a call
  solves, the worlds left out, the calls that fall back to the heuristic, CPU.

CPU by ``process_time``; the load average (``uptime``) is printed.  Run:

    .venv/bin/python benchmarks/bench_kitty_solves.py [--deals N] [--seed S]
        [--worlds W] [--calls N] [--bot SPEC]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import Any

import belote.solver as solver_module
from belote.bots import make_bot
from belote.bots.base import next_action
from belote.bots.kitty_discard import DiscardSearch, guesses_of
from belote.bots.pimc import PimcBot
from belote.bots.pimc_config import DiscardGuess
from belote.bots.small_bid import SmallBidSearch, SmallOutcome, SmallWorld, deal_for_play
from belote.deal import new_deck
from belote.options import make_rules
from belote.round import BIDDING, DISCARD, PlayerView, Round
from belote.solver import solve, solver_engine

RULES = make_rules("classic-3p", {"three_deal": "kitty"})
BANDS = ((1, "within 1"), (4, "2 to 4"), (10, "5 to 10"), (25, "11 to 25"), (10**9, "over 25"))


def _rounds(deals: int, seed: int) -> list[Round]:
    """The kitty deals of ``seed`` at the start of their bidding (the dealer in turn)."""
    rng = random.Random(seed)
    out = []
    for d in range(deals):
        deck = new_deck(3, RULES.three_deal)
        rng.shuffle(deck)
        out.append(Round(RULES, d % 3, deck))
    return out


def _discard_views(deals: int, seed: int) -> list[PlayerView]:
    """The taker's view at the discard of each deal the heuristic's bidding takes."""
    callers = [make_bot("heuristic", seed=s) for s in range(3)]
    views = []
    for rnd in _rounds(deals, seed):
        while rnd.phase is BIDDING:
            seat = rnd.current_player()
            rnd.apply(next_action(callers[seat], rnd.view(seat)))
        if rnd.phase is DISCARD:
            views.append(rnd.view(rnd.current_player()))
    return views


class _Tests:
    """The zero-window tests of the solves run while it is installed: each one's
    threshold and positions, per solve with its value (:func:`belote.solver._value`
    and ``_engine`` wrapped)."""

    def __init__(self) -> None:
        self.solves: list[tuple[int, list[tuple[int, int]]]] = []
        self._engine: Any = None

    def __enter__(self) -> _Tests:
        value, engine = solver_module._value, solver_module._engine
        self._saved = (value, engine)

        def engine_of(*args: Any, **kwargs: Any) -> Any:
            made = engine(*args, **kwargs)
            self._engine = made[0]
            return made

        def value_of(search: Callable[[int, int], int], guess: int, hints: Sequence[int],
                     lo: int, hi: int) -> int:
            tests: list[tuple[int, int]] = []
            live = self._engine

            def counted(alpha: int, beta: int) -> int:
                before = live.node_count()
                got = search(alpha, beta)
                tests.append((beta, live.node_count() - before))
                return got

            found = value(counted, guess, hints, lo, hi)
            self.solves.append((found, tests))
            return found

        solver_module._engine = engine_of
        solver_module._value = value_of
        return self

    def __exit__(self, *exc: object) -> None:
        solver_module._value, solver_module._engine = self._saved


def discard_profile(views: list[PlayerView], worlds: int, budget: int) -> None:
    engine = solver_engine()
    by_rank: dict[int, list[int]] = {}
    plain = guessed = equal = pairs_after = hard = drawn = 0
    with _Tests() as tests:
        for d, view in enumerate(views):
            search = DiscardSearch(view, pairs=4, worlds=worlds, nodes=budget, min_worlds=4,
                                   noise=25, engine=engine)
            rng = random.Random(d)
            for _ in range(worlds):
                world = search.draw(rng)
                drawn += 1
                states = [deal_for_play(view.rules, search.table, list(world.hands),
                                        search.trump, search.taker, search.leader,
                                        1 << a | 1 << b).state
                          for a, b in search.candidates]
                found: list[int] = []
                for rank, state in enumerate(states):
                    got = solve(state, moves=False, engine=engine)
                    by_rank.setdefault(rank, []).append(got.nodes)
                    plain += got.nodes
                    if found:
                        pairs_after += 1
                        equal += got.value == found[-1]
                    found.append(got.value)
                hard += max(by_rank[r][-1] for r in range(len(states))) > budget // 4
        scratch = list(tests.solves)
        tests.solves.clear()
        for d, view in enumerate(views):
            search = DiscardSearch(view, pairs=4, worlds=worlds, nodes=budget, min_worlds=4,
                                   noise=25, engine=engine)
            rng = random.Random(d)
            for _ in range(worlds):
                world = search.draw(rng)
                found = []
                for a, b in search.candidates:
                    state = deal_for_play(view.rules, search.table, list(world.hands),
                                          search.trump, search.taker, search.leader,
                                          1 << a | 1 << b).state
                    got = solve(state, moves=False, engine=engine, guesses=guesses_of(found))
                    guessed += got.nodes
                    found.append(got.value)
    print(f"discard: {len(views)} discards, {drawn} worlds of 4 pairs (no budget)")
    for rank, nodes in sorted(by_rank.items()):
        print(f"  pair {rank + 1}: positions a solve median {statistics.median(nodes):,.0f}, "
              f"mean {statistics.mean(nodes):,.0f}, max {max(nodes):,}")
    print(f"  worlds one of whose solves passes a quarter of {budget:,} (left out): "
          f"{hard} of {drawn}")
    print(f"  a pair's value equal to the pair's before it: {equal} of {pairs_after}")
    total = sum(n for _, t in scratch for _, n in t)
    print(f"  zero-window tests a solve: mean {statistics.mean(len(t) for _, t in scratch):.1f};"
          " positions by the test's distance from the value:")
    for top, label in BANDS:
        low = next((b for b, _ in reversed(BANDS) if b < top), -1)
        share = sum(n for v, t in scratch for g, n in t if low < abs(g - v) <= top)
        print(f"    {label}: {share / total:.1%}")
    print(f"  positions with the world's values as guesses: {guessed:,} against {plain:,} "
          f"from scratch ({guessed / plain:.3f})")


def discard_decisions(views: list[PlayerView], spec: str, seed: int) -> None:
    for guess in (DiscardGuess.NONE, DiscardGuess.WORLD):
        full = f"{spec}{',' if ':' in spec else ':'}discard_guess={guess}"
        bot = make_bot(full, seed=seed)
        assert isinstance(bot, PimcBot)
        config = bot.small_configs[3]
        least = config.discard_min_worlds or config.bid_min_worlds
        cpu, worlds, nodes = [], [], []
        for view in views:
            start = time.process_time()
            bot.discard(view)
            cpu.append(time.process_time() - start)
            worlds.append(bot.last_discard_worlds)
            nodes.append(bot.last_discard_nodes)
        short = sum(w < least for w in worlds)
        under4 = sum(w < 4 for w in worlds)
        print(f"discard as {full}: worlds median "
              f"{statistics.median(worlds)}, mean {statistics.mean(worlds):.2f}; fewer than "
              f"{least} (the rule's pair kept): {short} of {len(views)}; fewer than 4: "
              f"{under4}; CPU median "
              f"{statistics.median(cpu):.3f} s, max {max(cpu):.3f} s; positions mean "
              f"{statistics.mean(nodes):,.0f}")


def bid_profile(deals: int, seed: int, spec: str) -> None:
    by_kind: dict[str, list[int]] = {"own take": [], "after a pass": []}
    saved = SmallBidSearch.solve

    def solve_counted(self: SmallBidSearch, world: SmallWorld, trump: int, taker: int,
                      cap: int) -> tuple[SmallOutcome, int]:
        try:
            out, nodes = saved(self, world, trump, taker, cap)
        except solver_module.SearchLimitError as stop:
            by_kind["own take" if taker == self.view.seat else "after a pass"].append(
                stop.nodes)
            raise
        by_kind["own take" if taker == self.view.seat else "after a pass"].append(nodes)
        return out, nodes

    SmallBidSearch.solve = solve_counted  # type: ignore[method-assign]
    try:
        bot = make_bot(spec, seed=seed)
        assert isinstance(bot, PimcBot)
        callers = [make_bot("heuristic", seed=s) for s in range(3)]
        cpu, worlds, skipped = [], [], []
        fallbacks = searched = 0
        for d, rnd in enumerate(_rounds(deals, seed)):
            me = d % 3
            while rnd.phase is BIDDING:
                seat = rnd.current_player()
                view = rnd.view(seat)
                if seat != me:
                    rnd.apply(next_action(callers[seat], view))
                    continue
                start = time.process_time()
                call = bot.call(view)
                spent = time.process_time() - start
                if bot.last_bid_worlds or bot.last_bid_fallback:
                    searched += 1
                    cpu.append(spent)
                    worlds.append(bot.last_bid_worlds)
                    skipped.append(bot.last_bid_skipped)
                    fallbacks += bot.last_bid_fallback
                rnd.call(call)
    finally:
        SmallBidSearch.solve = saved  # type: ignore[method-assign]
    print(f"bidding as {spec}: {searched} calls searched of {deals} deals")
    if searched:
        print(f"  worlds a call: median {statistics.median(worlds)}, mean "
              f"{statistics.mean(worlds):.2f}; worlds left out a call: mean "
              f"{statistics.mean(skipped):.2f}; the heuristic's call (too few worlds): "
              f"{fallbacks} of {searched}; CPU median {statistics.median(cpu):.3f} s, "
              f"max {max(cpu):.3f} s")
    for kind, nodes in by_kind.items():
        if nodes:
            print(f"  {kind}: {len(nodes)} solves, positions median "
                  f"{statistics.median(nodes):,.0f}, mean {statistics.mean(nodes):,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7611)
    parser.add_argument("--worlds", type=int, default=4)
    parser.add_argument("--calls", type=int, default=30, help="deals whose calls are timed")
    parser.add_argument("--bot", default="pimc")
    args = parser.parse_args()
    views = _discard_views(args.deals, args.seed)
    if args.worlds:
        discard_profile(views, args.worlds, 5_000_000)
    if views:
        discard_decisions(views, args.bot, args.seed)
    if args.calls:
        bid_profile(args.calls, args.seed, args.bot)
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"load: {load}")


if __name__ == "__main__":
    main()
