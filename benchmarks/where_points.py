"""Where one bot's points against another come from, decision by decision: each board
played at the tournament's tables (``belote tournament``'s seating: at three players one
bot alone at one seat, the other at the two others, every seat in turn) and once more
with the opponent at every seat (the reference table), the same seeds at every seat.

Every seat of every table is played by a bot seeded by the board and the seat alone, so
a table differs from the reference only from the first decision where the bot under test
chooses otherwise than the opponent did there (its first *divergence*: a call, the kitty
discard, or a card, a lead or a follow at some trick).  The table's margin (the tested
bot's mean seat score less the opponent's, as the tournament counts it) less the
reference's margin for the same seats is what the tested bot's play brought on that
table; at three and two players the reference margins of a board's tables add up to
zero, so the board's mean of these differences is its tournament margin.  Each table's
difference is put down to its first divergence and to the deal as played (who took, in
what trump, at which round of the bidding, made or failed, the tested bot's role).

    .venv/bin/python benchmarks/where_points.py --bots heuristic,pimc \\
        --profile classic-3p --seed 7001 --boards 0:200 --out /tmp/where.jsonl
    .venv/bin/python benchmarks/where_points.py --read /tmp/where.jsonl

``oracle`` as the bot tested is :mod:`paired_boards`'s yardstick (PIMC's calls, a card
play that solves the true deal): what seeing every card would bring, seat by seat.
``--out`` appends one JSON line a table (its reference's figures with it); ``--read``
prints the split of such a file.  Development seeds only: a split chooses what to try.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from belote.actions import Action, Call, Discard, Play
from belote.bots.base import next_action
from belote.cards import card_name, trump_name
from belote.options import Rules, make_rules, parse_option_assignment
from belote.round import ALL_PASS, OVER, Round
from belote.tournament.config import TournamentError, board_range
from belote.tournament.play import deal_seat_scores
from belote.tournament.seeding import board_deal, bot_seed, seating, tables_per_board


def _kind(rnd: Round, action: Action) -> str:
    """What a decision is: a call, the discard, a lead or a follow (with its trick)."""
    if isinstance(action, Call):
        return "call"
    if isinstance(action, Discard):
        return "discard"
    trick = len(rnd.tricks) + 1
    return f"{'lead' if not rnd.trick else 'follow'} {trick}"


def _make(spec: str, seed: int) -> Any:
    """A bot, or ``oracle``: :mod:`paired_boards`'s yardstick, PIMC's calls and a card
    play that solves the true deal (it sees every hand); made by paired_boards."""
    from paired_boards import _factory  # (beside this script)

    return _factory(spec, seed)


def _play(rules: Rules, seed: int, board: int, specs: Sequence[str]) -> dict[str, Any]:
    """One deal of ``board``, seat ``i`` played by ``specs[i]`` seeded by board and seat."""
    dealer, deck = board_deal(rules, seed, board)
    rnd = Round(rules, dealer, deck)
    bots = [_make(s, bot_seed(seed, 0, board, 0, i)) for i, s in enumerate(specs)]
    if "oracle" in specs:
        from paired_boards import _Oracle  # (beside this script)

        _Oracle.current = rnd
    log: list[tuple[int, str, str]] = []
    take_at: int | None = None
    while rnd.phase not in (OVER, ALL_PASS):
        view = rnd.view()
        action = next_action(bots[view.seat], view)
        kind = _kind(rnd, action)
        if isinstance(action, Play):
            text = card_name(action.card)
        elif isinstance(action, Discard):
            text = " ".join(card_name(c) for c in sorted(action.cards))
        else:
            text = action.call
        if kind == "call" and action != Call("pass") and take_at is None:
            take_at = len([e for e in log if e[1] == "call"])
        log.append((view.seat, kind, text))
        rnd.apply(action)
    out: dict[str, Any] = {"scores": list(deal_seat_scores(rnd)), "log": log}
    if rnd.phase == OVER:
        res = rnd.result()
        c = res.contract
        out.update(
            taker=c.taker,
            trump=trump_name(c.trump),
            round=1 if take_at is not None and take_at < rules.players else 2,
            outcome=str(res.score.outcome),
            capot=res.capot is not None,
            tricks_by_seat=[sum(1 for t in res.tricks if t.winner == s)
                            for s in range(rules.players)],
        )
    return out


def _margin(places: Sequence[int], scores: Sequence[int]) -> float:
    own = [scores[s] for s, p in enumerate(places) if p == 1]
    other = [scores[s] for s, p in enumerate(places) if p == 0]
    return sum(own) / len(own) - sum(other) / len(other)


def _divergence(log: Sequence[Sequence[Any]], ref: Sequence[Sequence[Any]],
                places: Sequence[int]) -> dict[str, Any] | None:
    for i, (mine, theirs) in enumerate(zip(log, ref, strict=False)):
        if list(mine) != list(theirs):
            seat = mine[0]
            return {"index": i, "seat": seat, "kind": mine[1], "by_tested": places[seat] == 1,
                    "tested": mine[2], "reference": theirs[2]}
    return None


def play_board(rules: Rules, seed: int, board: int, bots: Sequence[str]) -> list[dict[str, Any]]:
    """The board's tables, each with its reference (the opponent at every seat)."""
    n = rules.players
    ref = _play(rules, seed, board, [bots[0]] * n)
    rows = []
    for table in range(tables_per_board(n)):
        places = seating(n, board, table)
        began = time.process_time()
        got = _play(rules, seed, board, [bots[p] for p in places])
        cpu = time.process_time() - began
        margin = _margin(places, got["scores"])
        ref_margin = _margin(places, ref["scores"])
        row = {"seed": seed, "board": board, "table": table, "places": list(places),
               "margin": margin, "reference_margin": ref_margin, "delta": margin - ref_margin,
               "divergence": _divergence(got["log"], ref["log"], places), "cpu": cpu,
               **{k: v for k, v in got.items() if k != "log"},
               "ref": {k: v for k, v in ref.items() if k != "log"}}
        rows.append(row)
    return rows


# --- reading a file of tables ---------------------------------------------------------


def _role(row: dict[str, Any]) -> str:
    places = row["places"]
    alone = "alone" if places.count(1) == 1 else "two seats"
    if "taker" not in row:
        return f"{alone}, all pass"
    took = "tested takes" if places[row["taker"]] == 1 else "opponent takes"
    return f"{alone}, {took}"


def _contract(row: dict[str, Any]) -> str:
    if "taker" not in row:
        return "all pass"
    ref = row["ref"]
    same = ("same contract" if ref.get("taker") == row["taker"]
            and ref.get("trump") == row["trump"] else
            "other contract" if "taker" in ref else "reference all pass")
    return f"{same}, round {row['round']}, {row['outcome']}"


def _first(row: dict[str, Any]) -> str:
    d = row["divergence"]
    if d is None:
        return "alike"
    kind = d["kind"].split()
    if kind[0] in ("lead", "follow"):
        trick = int(kind[1])
        kind = [kind[0], "trick 1" if trick == 1 else "tricks 2-5" if trick <= 5 else "tricks 6+"]
    if not d["by_tested"]:
        return "opponent first (" + " ".join(kind) + ")"
    return " ".join(kind)


def _defence_first(row: dict[str, Any]) -> str:
    """The first divergence, with whose side the tested bot was on when it came."""
    d = row["divergence"]
    if d is None or "taker" not in row:
        return _first(row)
    if d["kind"] in ("call", "discard"):
        return _first(row)
    side = "as taker" if d["seat"] == row["taker"] else "as defender"
    return f"{_first(row)}, {side}"


def _outcomes(row: dict[str, Any]) -> str:
    """The seating, and the taker's result at the reference table and at this one."""
    ref = row["ref"]
    before = ref.get("outcome", "all pass") + (" capot" if ref.get("capot") else "")
    after = row.get("outcome", "all pass") + (" capot" if row.get("capot") else "")
    return f"{_role(row)}; {before} -> {after}"


def _table(rows: Sequence[dict[str, Any]], key: Any, title: str, boards: int,
           into: dict[str, Any] | None = None) -> None:
    groups: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        groups[key(r)].append(r["delta"])
    n_tables = len(rows)
    if into is not None:
        into["boards"], into["tables"] = boards, n_tables
        into[title] = {k: {"tables": len(v), "mean": round(sum(v) / len(v), 2),
                           "part_a_board": round(sum(v) / n_tables, 3)}
                       for k, v in sorted(groups.items(), key=lambda kv: -abs(sum(kv[1])))}
    print(f"\n{title}: tables, mean difference, part of the margin a board ({boards} boards)")
    print(f"| {title} | tables | mean a table | part a board |")
    print("| --- | --- | --- | --- |")
    for k, v in sorted(groups.items(), key=lambda kv: -abs(sum(kv[1]))):
        print(f"| {k} | {len(v)} | {sum(v) / len(v):+.1f} | "
              f"{sum(v) / n_tables:+.2f} |")
    total = sum(r["delta"] for r in rows)
    print(f"| all | {n_tables} | {total / n_tables:+.1f} | {total / n_tables:+.2f} |")


def read(rows: Iterable[dict[str, Any]], into: dict[str, Any] | None = None) -> None:
    """Print the split of ``rows`` (tables), and put its figures ``into`` a dict."""
    rows = list(rows)
    # a board is its seed and number (lines written before the seed was kept: the number)
    boards = len({(r.get("seed"), r["board"]) for r in rows})
    mean = sum(r["margin"] for r in rows) / len(rows)
    print(f"{len(rows)} tables of {boards} boards; mean margin {mean:+.2f}"
          f" a table (the board's margin: its tables' mean); CPU "
          f"{sum(r['cpu'] for r in rows) / boards:.2f} s a board")
    _table(rows, _role, "seating, taker", boards, into)
    _table(rows, _contract, "contract as played", boards, into)
    _table(rows, _first, "first divergence", boards, into)
    _table(rows, _defence_first, "first divergence by role", boards, into)
    _table(rows, lambda r: f"{_role(r)}; {_first(r)}", "seating and first divergence", boards, into)
    _table(rows, _outcomes, "seating, the taker's result (reference, then tested)", boards, into)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="heuristic,pimc",
                        help="the opponent (the reference) and the bot tested, comma separated")
    parser.add_argument("--seed", type=int, default=7001)
    parser.add_argument("--boards", default="0:100", help="START:STOP")
    parser.add_argument("--profile", default="classic-3p")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--out", help="append one JSON line a table here")
    parser.add_argument("--read", help="print the split of a file written by --out")
    parser.add_argument("--json", help="with --read: also write the split's figures here")
    args = parser.parse_args(argv)
    if args.read:
        split: dict[str, Any] = {}
        with open(args.read) as f:
            read((json.loads(line) for line in f if line.strip()), split)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(split, f, indent=1)
        return 0
    from belote.bots.registry import split_bot_specs
    bots = split_bot_specs(args.bots)
    rules = make_rules(args.profile, dict(parse_option_assignment(o) for o in args.option))
    try:
        boards = board_range(args.boards)
    except TournamentError as exc:
        parser.error(str(exc))
    done: list[dict[str, Any]] = []
    out = open(args.out, "a") if args.out else None  # noqa: SIM115
    try:
        for board in boards:
            for row in play_board(rules, args.seed, board, bots):
                done.append(row)
                if out is not None:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
            if len(done) % 75 == 0:
                b = len({r["board"] for r in done})
                print(f"{b} boards: margin {sum(r['margin'] for r in done) / len(done):+.2f}",
                      flush=True)
    finally:
        if out is not None:
            out.close()
    read(done)
    return 0


if __name__ == "__main__":
    sys.exit(main())
