"""The double dummy's error at a table of three (or two): per deal taken, the taker's
card points of the deal's double-dummy solve against those he really takes when the deal
is played out, and how well the bidding search's error model (``bid_caution``,
``bid_noise``: the takers' points as the solve's less the caution, give or take a normal
error, :func:`belote.bots.bid_search.trick_cases`) tells the takes made from the takes
failed.

Seeded deals of a small table's mode (the deal of ``seed + n`` for n = 1, 2, ...; the
tested seat ``n mod players``).  With ``--calls table`` (the default) each seat calls
and plays as its bot: the tested seat as ``--taker``, the others as ``--defence``, and a
deal counts when the tested seat takes (the tournament's tables: ``pimc`` alone taking
against two heuristic defenders, or the heuristic alone taking against two ``pimc``
defenders).  With ``--calls heuristic`` every seat calls as the heuristic and any taker
counts (``benchmarks/bid_caution.py``'s deals).  Each deal counted is solved double
dummy for the takers' points of the whole deal as dealt (the last trick's 10 in, a
capot's 100 left out), with the fewest points that make the contract (the scoring's own,
declarations and belote as the search counts them), then played out.

Prints the real points less the solve's (mean, spread, 95% interval), the same by the
taker's trumps and by the solve's margin over the contract, how often the solve and the
play disagree on made or failed, and for each error model (caution, noise) the mean
squared error of its chance that the contract is made (the Brier score: lower tells the
two apart better).  ``--json`` writes the deals and the figures.

    .venv/bin/python benchmarks/dd_error.py --taker pimc --defence heuristic \\
        [--profile classic-3p] [--option three_deal=six_each] [--deals 200] \\
        [--seed 7701] [--json out.json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from belote.bots import make_bot, play_deal
from belote.bots.base import BaseBot
from belote.bots.bid_search import Errors, noise_errors
from belote.bots.heuristic import HeuristicBot
from belote.bots.small_bid import SmallBidSearch
from belote.cards import scan_forward, suit_of
from belote.errors import BeloteError
from belote.options import make_rules, parse_option_assignment
from belote.round import BIDDING
from belote.table import DealMode, Table

MODELS: tuple[tuple[int, int], ...] = (
    (10, 25), (0, 25), (0, 0), (0, 10), (0, 15), (0, 20), (0, 30), (0, 40),
    (-10, 15), (-10, 25), (-15, 20),
)
"""The error models weighed by default: (caution, noise) pairs."""

MARGINS: tuple[tuple[int, int], ...] = (
    (-999, -20), (-20, 0), (0, 10), (10, 20), (20, 40), (40, 999))
"""The solve's margin over the contract (its points less the fewest that make it),
``[low, high)``, by which the deals are told apart."""


@dataclass(frozen=True, slots=True)
class Taken:
    """One deal taken: its number, the taker's seat and trump, the taker's real points
    and the solve's, the deal's trick total (the last trick's 10 in), the fewest points
    that make the contract, the taker's trumps, and the chance of making it that the
    taker's own bidding search gave its take (None: the call was not searched)."""

    n: int
    seat: int
    trump: int
    real: int
    dd: int
    total: int
    need: int
    trumps: int
    searched: float | None = None


def _fewest(search: SmallBidSearch, trump: int, seat: int, out: Any, side: int,
            total: int) -> int:
    """The fewest of the takers' points that make the contract in the solved deal
    ``out`` (the search's scoring, no caution, no noise); ``total + 1``: none."""
    for takers in range(total + 1):
        ns = takers if side == 0 else total - takers
        if search.value(trump, seat, dataclasses.replace(out, ns=ns))[1] == 1.0:
            return takers
    return total + 1


def taken(taker: str, defence: str, profile: str, options: dict[str, Any], deals: int,
          seed: int, calls: str = "table") -> list[Taken]:
    """The first ``deals`` deals taken (see the module), in order."""
    from bid_caution import seeded_deal  # (beside this script: bid_caution's deals)

    rules = make_rules(profile, options)
    table = Table.of(rules)
    if rules.players == 4 or table.mode in (DealMode.KITTY, DealMode.DECOUVERTE):
        raise BeloteError("a table of three or two whose deal has a turned card: 24_cards, "
                          "six_each or stock")
    if calls not in ("table", "heuristic"):
        raise BeloteError(f"calls: {calls!r} is not one of table, heuristic")
    out: list[Taken] = []
    n = 0
    while len(out) < deals:
        n += 1
        rnd, first, world = seeded_deal(rules, seed, n)
        tested = n % rules.players
        bots: list[BaseBot] = [make_bot(taker if s == tested else defence, seed + n * 7 + s)
                               for s in range(rules.players)]
        callers: list[BaseBot] = (bots if calls == "table"
                                  else [HeuristicBot(s) for s in range(rules.players)])
        searched: float | None = None  # the chance behind the last call not a pass: the take
        while rnd.phase is BIDDING:
            seat = rnd.view().seat
            call = callers[seat].call(rnd.view())
            made = getattr(callers[seat], "last_bid_made", {})
            rnd.call(call)
            if call != "pass":
                searched = made.get(call) if isinstance(made, dict) else None
        if rnd.contract is None or (calls == "table" and rnd.contract.taker != tested):
            continue
        seat, trump = rnd.contract.taker, rnd.contract.trump
        if calls == "heuristic":
            bots = [make_bot(taker if s == seat else defence, seed + n * 7 + s)
                    for s in range(rules.players)]
        search = SmallBidSearch(first, worlds=1, nodes=1, min_worlds=1, caution=0,
                                hints=False, rollout=False)
        solved, _ = search.solve(world, trump, seat, 10**12)
        side = table.sides(seat)[seat]
        total = solved.cards + 10
        dd = solved.ns if side == 0 else total - solved.ns
        need = _fewest(search, trump, seat, solved, side, total)
        hand = rnd.hand(seat)
        trumps = (sum(1 for c in scan_forward(hand) if suit_of(c) == trump)
                  if 0 <= trump < 4 else -1)
        play_deal(rnd, bots)
        out.append(Taken(n, seat, int(trump), min(rnd.trick_points[side], total),
                         min(dd, total), total, need, trumps,
                         None if searched is None else float(searched)))
    return out


def made_chance(dd: int, need: int, caution: int, errors: Errors) -> float:
    """The error model's chance that takers with the solve's ``dd`` points make a
    contract that needs ``need``: the weight of the errors with which the solve less
    ``caution`` reaches it."""
    return sum(w for e, w in errors if dd - caution + e >= need)


def brier(deals: Sequence[Taken], caution: int, noise: int) -> float:
    """The mean squared error of the model's chance of making against the play's made
    (1) or failed (0)."""
    errors = noise_errors(noise)
    return statistics.fmean(
        (made_chance(d.dd, d.need, caution, errors) - (d.real >= d.need)) ** 2 for d in deals)


def searched_figures(deals: Sequence[Taken]) -> dict[str, Any]:
    """Over the deals whose take was searched: how often they were made in play, the
    search's mean chance of making them, and its Brier score (its chance against the
    play's made or failed)."""
    group = [d for d in deals if d.searched is not None]
    if not group:
        return {"deals": 0}
    return {"deals": len(group),
            "made": round(statistics.fmean(d.real >= d.need for d in group), 3),
            "chance": round(statistics.fmean(d.searched or 0.0 for d in group), 3),
            "brier": round(statistics.fmean(
                ((d.searched or 0.0) - (d.real >= d.need)) ** 2 for d in group), 4),
            "brier_models": {f"caution={c},noise={s}": round(brier(group, c, s), 4)
                             for c, s in ((0, 25), (0, 10), (-15, 10))}}


def _stats(gaps: Sequence[int]) -> dict[str, float]:
    mean = statistics.fmean(gaps) if gaps else 0.0
    spread = statistics.stdev(gaps) if len(gaps) > 1 else 0.0
    half = 1.96 * spread / len(gaps) ** 0.5 if gaps else 0.0
    return {"deals": len(gaps), "mean": round(mean, 2), "low": round(mean - half, 2),
            "high": round(mean + half, 2), "spread": round(spread, 2)}


def figures(deals: Sequence[Taken],
            models: Sequence[tuple[int, int]] = MODELS) -> dict[str, Any]:
    """The figures of the module's doc over ``deals``."""
    gaps = [d.real - d.dd for d in deals]
    by_trumps: dict[str, dict[str, float]] = {}
    for k in sorted({min(d.trumps, 5) for d in deals}):
        key = f"{k}+" if k == 5 else str(k)
        by_trumps[key] = _stats([d.real - d.dd for d in deals if min(d.trumps, 5) == k])
    by_margin: dict[str, dict[str, float]] = {}
    for low, high in MARGINS:
        group = [d for d in deals if low <= d.dd - d.need < high]
        if group:
            row = _stats([d.real - d.dd for d in group])
            row["made"] = round(statistics.fmean(d.real >= d.need for d in group), 3)
            by_margin[f"[{low}, {high})"] = row
    return {
        "all": _stats(gaps),
        "by_trumps": by_trumps,
        "by_margin": by_margin,
        "made_dd": sum(d.dd >= d.need for d in deals),
        "made_real": sum(d.real >= d.need for d in deals),
        "disagree": sum((d.dd >= d.need) != (d.real >= d.need) for d in deals),
        "brier": {f"caution={c},noise={s}": round(brier(deals, c, s), 4) for c, s in models},
        "searched": searched_figures(deals),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taker", default="pimc")
    parser.add_argument("--defence", default="heuristic")
    parser.add_argument("--calls", default="table", choices=("table", "heuristic"))
    parser.add_argument("--profile", default="classic-3p")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7701)
    parser.add_argument("--json", default=None, metavar="PATH")
    args = parser.parse_args(argv)
    bad = [o for o in args.option if "=" not in o]
    if bad:
        print(f"error: --option {bad[0]!r}: KEY=VALUE expected", file=sys.stderr)
        return 2
    try:
        options = dict(parse_option_assignment(o) for o in args.option)
        started = time.process_time()
        found = taken(args.taker, args.defence, args.profile, options, args.deals, args.seed,
                      args.calls)
    except BeloteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    cpu = time.process_time() - started
    got = figures(found)
    head = got["all"]
    print(f"{args.taker} taking against {args.defence} ({' '.join([args.profile, *args.option])}"
          f", calls {args.calls}, seed {args.seed}): {len(found)} deals, real less double "
          f"dummy {head['mean']:+.1f} [{head['low']:+.1f}, {head['high']:+.1f}], spread "
          f"{head['spread']:.1f}; {cpu:.1f} s of CPU")
    for name in ("by_trumps", "by_margin"):
        for key, row in got[name].items():
            made = f", made {row['made']:.0%}" if "made" in row else ""
            print(f"  {name[3:]} {key}: {row['deals']} deals, {row['mean']:+.1f} "
                  f"[{row['low']:+.1f}, {row['high']:+.1f}], spread {row['spread']:.1f}{made}")
    print(f"  made double dummy {got['made_dd']}, in play {got['made_real']}, "
          f"disagree {got['disagree']}")
    for key, score in got["brier"].items():
        print(f"  brier {key}: {score:.4f}")
    found_by = got["searched"]
    if found_by["deals"]:
        print(f"  takes searched {found_by['deals']}: made {found_by['made']:.0%}, the search's "
              f"chance {found_by['chance']:.0%}, its brier {found_by['brier']:.4f} (on the true "
              f"deal: " + ", ".join(f"{k} {v:.4f}" for k, v in found_by["brier_models"].items())
              + ")")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"taker": args.taker, "defence": args.defence, "calls": args.calls,
                       "profile": args.profile, "options": args.option, "seed": args.seed,
                       "cpu_s": round(cpu, 1), "figures": got,
                       "deals": [dataclasses.asdict(d) for d in found]}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
