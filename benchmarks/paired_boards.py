"""Two bots against one opponent on the same duplicate boards: the difference of their
margins, board by board, with its 95% interval.

``belote tournament`` measures each pairing on its own; two pairings with the same
seed share their decks but not their bots' seeds, and their margins come with wide
intervals (each about ±7 points a deal over 200 boards).  Here both bots play every
board (its two tables, seats swapped) against the same opponent, with the same bot
seeds, so a board where the two bots choose alike counts zero and the interval of
the difference is the difference's own.  Run:

    .venv/bin/python benchmarks/paired_boards.py --bots pimc:preset=v1,pimc
        [--opponent heuristic] [--seed 61] [--boards 200:500] [--profile classic]
        [--option three_deal=kitty] [--out results.jsonl]

Each board prints nothing; every 25 boards a line gives the boards done, each bot's
margin per deal over the opponent, their difference (second minus first) with its
95% interval (normal, from the boards' spread), the boards on which both scored the
same, and CPU seconds per board (and, for a bot with ``answers=model``, how many of its
card decisions the model answered, its gate on, of those it could).  ``--out`` appends
one JSON line per board and bot (its margin, and each table's points: the opponent's,
the bot's).

``oracle`` as a bot is a yardstick, not a bot: PIMC's bidding, and a card play that
solves the true deal (it sees every hand), so its margin over ``pimc`` is the most
that reading the others' cards could ever bring.

``oracle:model`` is a second yardstick, for an opponent that plays by a fixed rule (the
heuristic, deterministic): PIMC's bidding, and a card play that sees every hand and knows
how the others play.  Each legal card is valued by playing the deal out from a copy of
the true round (``Round.clone``): that card, then every other seat the card a fresh bot
of the opponent's spec plays from its own view of the copy, the bot's own later cards
searched (each of its legal cards tried, the others answering by their rule: a search
of one player, the others a fixed policy; with ``--own-tricks N`` only in the deal's
last N tricks, double dummy before), or with ``oracle:model=solver`` the true
position's double-dummy card at each of its turns; the value is the bot's side's score
of the deal as ``oracle``'s (:class:`~belote.bots.card_score.CardScorer`).  Its margin
over ``oracle`` is what knowing the others' rule for the rest of the deal could bring
beyond seeing their cards; over ``pimc``, all that the card play could bring against
them.  Meant for a deterministic opponent: against one that draws at random the copy's
bots are not the real ones.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import weakref
from collections.abc import Sequence
from typing import Any

from belote.bots import make_bot
from belote.bots.base import BaseBot, Bot, play_deal
from belote.bots.card_score import CardScorer, world_state
from belote.bots.knowledge import World
from belote.bots.pimc import PimcBot
from belote.bots.registry import split_bot_specs
from belote.errors import BeloteError
from belote.options import make_rules, parse_option_assignment
from belote.play import PlayState
from belote.round import PlayerView, Round
from belote.table import Phase, Table
from belote.tournament.config import TournamentError, board_range
from belote.tournament.play import Chunk, play_chunk


class _Oracle(PimcBot):
    """PIMC whose card play solves the true deal of the round being played."""

    current: Round | None = None

    def evaluate(self, view: PlayerView) -> dict[int, float]:
        from belote.solver import solve

        rnd = _Oracle.current
        assert rnd is not None and rnd.contract is not None
        table = Table.of(view.rules)
        world = World(tuple(rnd.hand(s) for s in table.seats))
        result = solve(world_state(view, world, table), engine=self.engine)
        totals: dict[int, float] = {}
        self._add(totals, world, result.moves, CardScorer(view, table), 1)
        return totals


class _Modelled(_Oracle):
    """``oracle:model``: the true deal played out after each legal card, the other seats
    by fresh bots of :attr:`others`' spec, the bot's own later cards searched (a search of
    one player: the others' cards follow from the bot's), or with :attr:`solver` each the
    true position's double-dummy card."""

    others = "heuristic"  # the other seats' spec (the opponent's: set by main)
    solver = False  # the bot's own later cards double dummy instead of searched
    own_tricks: int | None = None  # searched only in the deal's last own_tricks tricks
    foreseen: dict[int, int]  # the last decision's (set by evaluate)

    def evaluate(self, view: PlayerView) -> dict[int, float]:
        rnd = _Oracle.current
        assert rnd is not None and rnd.contract is not None
        table = Table.of(view.rules)
        world = World(tuple(rnd.hand(s) for s in table.seats))
        base = world_state(view, world, table)
        bots: list[Bot] = [make_bot(_Modelled.others) for _ in table.seats]
        sides = table.sides(rnd.contract.taker)
        sign = 1 if sides[view.seat] == 0 else -1
        moves: dict[int, int] = {}
        for c in view.legal_cards:
            twin, state = rnd.clone(), base.copy()
            twin.play_card(c)
            state.push(c)
            moves[c] = (self._rest(twin, state, view.seat, bots, sign, world)
                        - base.trick_points[0])
        past = sum(t.points for t in rnd.tricks if sides[t.winner] == 0)
        # (each card's side 0's trick points at the end of the deal, as foreseen: checked)
        self.foreseen = {c: past + v for c, v in moves.items()}
        totals: dict[int, float] = {}
        self._add(totals, world, moves, CardScorer(view, table), 1)
        return totals

    def _rest(self, rnd: Round, state: PlayState, seat: int, bots: Sequence[Bot],
              sign: int, world: World) -> int:
        """Side 0's trick points at the end of ``rnd`` (``state`` its position, kept
        alike; ``world`` its true deal), the other seats playing ``bots``' cards,
        ``seat`` the best of its own for its side (``sign``: 1 side 0, -1 side 1),
        searched or double dummy."""
        while rnd.phase is Phase.PLAY:
            turn = state.turn
            if turn != seat:
                c = bots[turn].play(rnd.view())
            else:
                legal = rnd.legal_cards()
                if len(legal) > 1 and not _Modelled.solver and (
                        _Modelled.own_tricks is None
                        or state.tricks_left <= _Modelled.own_tricks):
                    best: int | None = None
                    for i, x in enumerate(legal):
                        twin, after = (rnd, state) if i == len(legal) - 1 else (
                            rnd.clone(), state.copy())
                        twin.play_card(x)
                        after.push(x)
                        v = self._rest(twin, after, seat, bots, sign, world)
                        if best is None or sign * v > sign * best:
                            best = v
                    assert best is not None
                    return best
                c = self._double_dummy(state, world, None)[0]
            rnd.play_card(c)
            state.push(c)
        return state.trick_points[0]


# the yardsticks by spec
_YARDSTICKS: dict[str, type[_Oracle]] = {"oracle": _Oracle, "oracle:model": _Modelled,
                                         "oracle:model=solver": _Modelled}


# answers=model's gate, added up by spec over the deals played: [answered by the model,
# by double dummy, seats left out by answer_check=deal] (PimcBot.answers_on, answers_off,
# answers_checked), each deal's share read off its bots
# by the driver, so that no bot is kept once its board is over
_SPEC: weakref.WeakKeyDictionary[BaseBot, str] = weakref.WeakKeyDictionary()
_GATE: dict[str, list[int]] = {}


def _factory(spec: str, seed: int | None) -> BaseBot:
    yardstick = _YARDSTICKS.get(spec)
    bot = yardstick(seed) if yardstick is not None else make_bot(spec, seed)
    _SPEC[bot] = spec
    return bot


def _answers(bot: Any) -> tuple[int, int, int]:
    return (getattr(bot, "answers_on", 0), getattr(bot, "answers_off", 0),
            getattr(bot, "answers_checked", 0))


def _gate(spec: str) -> str:
    """``answers=model``'s gate over the deals of ``spec``'s bots played so far: the
    card decisions with seats after the bot in the trick the model answered, of all
    such, and the seats ``answer_check=deal`` left out at them; empty when there were
    none."""
    on, off, checked = _GATE.get(spec, (0, 0, 0))
    if not on + off:
        return ""
    left = f", {checked} seats left out within the deal" if checked else ""
    return f"; {spec}'s answers by the model {on} of {on + off}{left}"


def _driver(rnd: Round, bots: Sequence[Any]) -> None:
    _Oracle.current = rnd
    before = [_answers(b) for b in bots]
    play_deal(rnd, bots)
    for bot, was in zip(bots, before, strict=True):
        now = _answers(bot)
        if now != was:
            counts = _GATE.setdefault(_SPEC[bot], [0, 0, 0])
            for i, (a, b) in enumerate(zip(now, was, strict=True)):
                counts[i] += a - b


def _interval(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, 1.96 * sd / math.sqrt(n)


def _board_range(text: str) -> range:
    """``START:STOP`` as the boards it names (an argparse type)."""
    try:
        return board_range(text)
    except TournamentError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", required=True, help="two bot specs, comma separated")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--seed", type=int, default=61)
    parser.add_argument("--boards", type=_board_range, default="0:200", help="START:STOP")
    parser.add_argument("--profile", default="classic")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option over the profile's (repeatable)")
    parser.add_argument("--out", help="append one JSON line per board and bot here")
    parser.add_argument("--own-tricks", type=int, metavar="N",
                        help="oracle:model: its own later cards searched only in the "
                             "deal's last N tricks (double dummy before; default: all)")
    args = parser.parse_args(argv)
    bots = split_bot_specs(args.bots)  # a spec's own settings stay with it
    if len(bots) != 2:
        parser.error("--bots: give two bot specs")
    boards: range = args.boards
    bad = [o for o in args.option if "=" not in o]
    if bad:
        parser.error(f"--option {bad[0]!r}: KEY=VALUE expected")
    try:
        rules = make_rules(args.profile,
                           dict(parse_option_assignment(o) for o in args.option))
        for spec in (args.opponent, *bots):
            if spec not in _YARDSTICKS:
                make_bot(spec)
    except BeloteError as exc:
        parser.error(str(exc))
    _Modelled.others = args.opponent
    _Modelled.solver = "oracle:model=solver" in bots
    if {"oracle:model", "oracle:model=solver"} <= set(bots):
        parser.error("--bots: oracle:model and oracle:model=solver not together")
    if args.own_tricks is not None:
        if "oracle:model" not in bots:
            parser.error("--own-tricks: only with oracle:model among --bots")
        if args.own_tricks < 1:
            parser.error(f"--own-tricks: {args.own_tricks} is below 1 (oracle:model=solver "
                         "searches none)")
    _Modelled.own_tricks = args.own_tricks
    margins: list[list[float]] = [[], []]
    cpu = [0.0, 0.0]
    out = open(args.out, "a") if args.out else None  # noqa: SIM115
    try:
        for board in boards:
            for i, bot in enumerate(bots):
                began = time.process_time()
                job = Chunk(rules, "deals", args.seed, 0, (args.opponent, bot), board,
                            board + 1, _factory, _driver)
                [result] = play_chunk(job)
                margin = sum(t.points[1] - t.points[0] for t in result.tables) / len(
                    result.tables)
                cpu[i] += time.process_time() - began
                margins[i].append(margin)
                if out is not None:
                    tables = [[t.points[0], t.points[1]] for t in result.tables]
                    out.write(json.dumps({"board": board, "bot": bot, "margin": margin,
                                          "tables": tables}) + "\n")
                    out.flush()
            done = len(margins[0])
            if done % 25 == 0 or board == boards[-1]:
                diff, half = _interval([b - a for a, b in zip(*margins, strict=True)])
                same = sum(1 for a, b in zip(*margins, strict=True) if a == b)
                print(f"{done} boards: {bots[0]} {sum(margins[0]) / done:+.1f}, "
                      f"{bots[1]} {sum(margins[1]) / done:+.1f} a deal over {args.opponent}; "
                      f"difference {diff:+.2f} ± {half:.2f} (95%); {same} boards alike; "
                      f"CPU {cpu[0] / done:.2f} s and {cpu[1] / done:.2f} s a board"
                      f"{''.join(_gate(b) for b in bots)}", flush=True)
    finally:
        if out is not None:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
