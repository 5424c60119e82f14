"""Two bots' games against one opponent, paired game by game: the same decks and the
same seatings for both, each game of the first bot matched with the second's.

``belote tournament --bots heuristic,A`` and ``--bots heuristic,B`` on the same seed
deal the same decks (drawn from the seed, the board and the deal alone), seat the bots
alike (:func:`belote.tournament.seeding.seating`) and give every seat the same bot seed
(the pairing's index is 0 in both).  Here each board of such a tournament is played by
the tournament's own code (:func:`belote.tournament.play.play_chunk`, games mode) for
A and then for B, so a run stopped at any time leaves whole pairs, and each game (a
board's table: the same decks, the same seats) is matched with its twin.  Most twins end
alike; only the *discordant* pairs, won under one bot and lost under the other, say which
bot wins more games.

Reported, from the tested bots' side (the opponent is the tournament's first bot):

- the games won by A and by B (each with its 95% Wilson interval);
- the discordant pairs: won by A and lost by B, and the reverse;
- the paired difference in win rate, B's less A's, with its 95% normal interval from the
  pairs' differences (the discordant-pairs interval: with wins and losses only it is
  ``(n01 - n10) / n ± 1.96 * sqrt(n01 + n10 - (n01 - n10)**2 / n) / n``), the exact
  McNemar test's two-sided p (the discordant pairs as fair coin tosses under no
  difference), and, as a check, the normal interval of the boards' mean difference (the
  three games of a board share their decks, so they need not be independent);
- each bot's points a deal over the opponent (a board's points over its deals, as
  ``belote tournament`` counts them) and their paired difference, by board.

``oracle`` may stand for a bot: ``paired_boards.py``'s yardstick (PIMC's calls and a card
play that solves the true deal, seeing every hand), so ``--bots pimc,oracle`` measures the
most that reading the others' cards could bring in games won.

    .venv/bin/python benchmarks/paired_games.py run --bots pimc,pimc:objective=game \\
        --profile classic-3p --seed 7501 --boards 0:200 \\
        --out docs/results/dev10-3p-score-vs-game.json [--opponent heuristic] \\
        [--option three_deal=kitty]
    .venv/bin/python benchmarks/paired_games.py pool docs/results/dev10-3p-*.json [--json]
    .venv/bin/python benchmarks/paired_games.py cross RUN1.json:a RUN2.json:b \\
        [--names X,Y] [--out FILE]

``cross`` pairs one bot of a run with one bot of another on the games both played (the
same seed, boards, opponent and rules): with ``pimc`` the A of both runs, the two Bs are
compared without a third run, and one spec run on two versions of the code is told apart
by ``--names``.

``run`` without ``--seed`` draws a fresh seed (as ``benchmarks/strength.py`` does) and
records it with its source.  ``--out`` is rewritten after every board with every pair so
far (seed, board, table, who sat alone, and under each bot the winner, the points and the
deals), so a stopped run keeps its whole pairs.  ``pool`` reads several such files of the
same bots, opponent and rules, refuses a board seen twice, and reports the pairs pooled.
"""

from __future__ import annotations

import argparse
import json
import math
import secrets
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist
from typing import Any

from belote.bots import make_bot
from belote.bots.registry import split_bot_specs
from belote.errors import BeloteError
from belote.options import Rules, make_rules, parse_option_assignment
from belote.tournament.config import TournamentConfig, TournamentError, board_range
from belote.tournament.play import Chunk, TableResult, play_chunk
from belote.tournament.seeding import seating
from belote.tournament.stats import Z95, Estimate, mean_estimate, rate_estimate

KIND = "paired-games"
# ``oracle``, as a bot: paired_boards's yardstick (PIMC's calls, a card play that solves the
# true deal): its games against the opponent's beside pimc's say what winning every card
# would be worth in games won
ORACLE = "oracle"
GAIN = 0.036  # a gain in win rate worth seeing (playing for the game's, at four players)


@dataclass(frozen=True)
class Game:
    """One bot's game at one table: the winner (1: the tested bot's seat, 0: the
    opponent's, None: a draw), the mean totals of the opponent's and the bot's seats,
    and the deals dealt."""

    winner: int | None
    points: tuple[float, float]
    deals: int

    @property
    def score(self) -> float:
        """The tested bot's score of the game: 1 won, 0 lost, ½ a draw."""
        return 0.5 if self.winner is None else float(self.winner)

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "points": list(self.points), "deals": self.deals}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        a, b = data["points"]
        return cls(data["winner"], (float(a), float(b)), int(data["deals"]))

    @classmethod
    def of(cls, table: TableResult) -> Game:
        return cls(table.winner, table.points, table.deals)


@dataclass(frozen=True)
class Pair:
    """A game under bot A and its twin under bot B: the same seed, board and table
    (the same decks and seats); ``seats``: who sat at each seat (0 the opponent, 1 the
    tested bot)."""

    seed: int
    board: int
    table: int
    seats: tuple[int, ...]
    a: Game
    b: Game

    @property
    def key(self) -> tuple[int, int, int]:
        return self.seed, self.board, self.table

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "board": self.board, "table": self.table,
                "seats": list(self.seats),
                "a": self.a.to_json(), "b": self.b.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pair:
        return cls(int(data["seed"]), int(data["board"]), int(data["table"]),
                   tuple(int(s) for s in data["seats"]),
                   Game.from_json(data["a"]), Game.from_json(data["b"]))


@dataclass(frozen=True)
class Comparison:
    """What the pairs say (see the module): games won (a draw counting half), the
    discordant pairs, the paired difference in win rate (B less A) with its normal
    interval, McNemar's exact p, the difference by board, and the points a deal."""

    pairs: int
    boards: int
    won_a: float
    won_b: float
    a_only: int  # pairs A won and B did not
    b_only: int  # pairs B won and A did not
    difference: Estimate  # B's win rate less A's, discordant-pairs normal interval
    mcnemar_p: float
    by_board: Estimate  # the same difference, normal interval over boards
    margin_a: Estimate  # A's points a deal over the opponent, by board
    margin_b: Estimate
    margin_difference: Estimate  # B's less A's, paired by board

    @property
    def rate_a(self) -> Estimate:
        return rate_estimate(self.won_a, self.pairs)

    @property
    def rate_b(self) -> Estimate:
        return rate_estimate(self.won_b, self.pairs)

    def to_json(self) -> dict[str, Any]:
        return {
            "pairs": self.pairs, "boards": self.boards,
            "games_won": {"a": self.won_a, "b": self.won_b},
            "win_rate": {"a": self.rate_a.to_json(), "b": self.rate_b.to_json()},
            "discordant": {"a_won_b_lost": self.a_only, "b_won_a_lost": self.b_only},
            "difference": self.difference.to_json(),
            "difference_interval": "discordant-pairs normal (Wald), 95%",
            "mcnemar_exact_p": self.mcnemar_p,
            "difference_by_board": self.by_board.to_json(),
            "margin_per_deal": {"a": self.margin_a.to_json(), "b": self.margin_b.to_json(),
                                "difference": self.margin_difference.to_json()},
        }


def paired_difference(a: Sequence[float], b: Sequence[float], z: float = Z95) -> Estimate:
    """The mean of ``b - a`` over pairs and its normal interval, the variance of the
    differences taken over the ``n`` pairs (divided by n): with scores of 0 and 1 it is
    the discordant-pairs (Wald) interval of two paired proportions."""
    n = len(a)
    if n == 0 or n != len(b):
        raise ValueError(f"paired_difference: {len(a)} and {len(b)} scores: pairs needed")
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    mean = math.fsum(diffs) / n
    half = z * math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / n) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half)


def mcnemar_exact(n10: int, n01: int) -> float:
    """McNemar's exact two-sided p: under no difference each of the ``n10 + n01``
    discordant pairs falls either way with chance ½ (the binomial tails, doubled, at
    most 1)."""
    if n10 < 0 or n01 < 0:
        raise ValueError(f"mcnemar_exact: counts {n10}, {n01} must not be negative")
    n = n10 + n01
    if n == 0:
        return 1.0
    k = min(n10, n01)
    tail = Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2 ** n)  # exact
    return min(1.0, float(2 * tail))


def games_to_decide(discordant: float, gain: float, power: float = 0.8) -> int:
    """The pairs needed to see a paired difference ``gain`` in win rate at the 5% level
    (two-sided) with chance ``power``, when a share ``discordant`` of the pairs are
    discordant (Connor's approximation for McNemar's test):
    ``((z₀.₉₇₅ √q + z_power √(q − gain²)) / gain)²``, rounded up."""
    if not 0 < gain * gain < discordant <= 1:
        raise ValueError(f"games_to_decide: gain {gain!r} and discordant share "
                         f"{discordant!r}: 0 < gain² < share <= 1 needed")
    z_power = NormalDist().inv_cdf(power)
    root = Z95 * math.sqrt(discordant) + z_power * math.sqrt(discordant - gain * gain)
    return math.ceil((root / gain) ** 2)


def _board_margin(games: Sequence[Game]) -> float:
    """A board's points a deal of the bot over the opponent: its tables' points over
    their deals (as ``belote tournament`` counts its margin)."""
    return math.fsum(g.points[1] - g.points[0] for g in games) / sum(g.deals for g in games)


def compare(pairs: Sequence[Pair]) -> Comparison:
    """The comparison of ``pairs`` (see :class:`Comparison`)."""
    if not pairs:
        raise ValueError("compare: no pairs")
    a = [p.a.score for p in pairs]
    b = [p.b.score for p in pairs]
    boards: dict[tuple[int, int], list[Pair]] = {}
    for p in pairs:
        boards.setdefault((p.seed, p.board), []).append(p)
    groups = list(boards.values())
    by_board = [math.fsum(q.b.score - q.a.score for q in g) / len(g) for g in groups]
    margin_a = [_board_margin([q.a for q in g]) for g in groups]
    margin_b = [_board_margin([q.b for q in g]) for g in groups]
    a_only = sum(1 for x, y in zip(a, b, strict=True) if x > y)
    b_only = sum(1 for x, y in zip(a, b, strict=True) if y > x)
    return Comparison(
        pairs=len(pairs), boards=len(groups), won_a=math.fsum(a), won_b=math.fsum(b),
        a_only=a_only, b_only=b_only, difference=paired_difference(a, b),
        mcnemar_p=mcnemar_exact(a_only, b_only), by_board=mean_estimate(by_board),
        margin_a=mean_estimate(margin_a), margin_b=mean_estimate(margin_b),
        margin_difference=mean_estimate([y - x for x, y in zip(margin_a, margin_b,
                                                                strict=True)]))


def _interval(e: Estimate, scale: float = 1.0, unit: str = "") -> str:
    if e.low is None or e.high is None:
        return f"{e.value * scale:+.1f}{unit}"
    return f"{e.value * scale:+.1f}{unit} [{e.low * scale:+.1f}, {e.high * scale:+.1f}]"


def describe(bots: Sequence[str], c: Comparison) -> str:
    """The comparison in a few lines."""
    ra, rb = c.rate_a, c.rate_b
    share = (c.a_only + c.b_only) / c.pairs
    return "\n".join([
        f"{c.pairs} pairs of games ({c.boards} boards)",
        f"  A {bots[0]}: {c.won_a:g} won ({ra.value:.1%} [{ra.low:.1%}, {ra.high:.1%}]), "
        f"{_interval(c.margin_a)} points a deal over the opponent",
        f"  B {bots[1]}: {c.won_b:g} won ({rb.value:.1%} [{rb.low:.1%}, {rb.high:.1%}]), "
        f"{_interval(c.margin_b)} points a deal over the opponent",
        f"  discordant: A won and B lost {c.a_only}, B won and A lost {c.b_only}",
        f"  B less A: {_interval(c.difference, 100, ' points')} of win rate "
        f"(discordant pairs, normal 95%), McNemar exact p = {c.mcnemar_p:.3f}; "
        f"by board {_interval(c.by_board, 100)}; "
        f"points a deal {_interval(c.margin_difference)}",
        *([f"  pairs to see {GAIN:.1%} of win rate either way (80%, 5% two-sided) at "
           f"this share of discordant pairs ({share:.1%}): "
           f"{games_to_decide(share, GAIN)}"] if share > GAIN * GAIN else []),
    ])


def _beside() -> None:
    """paired_boards (this script's neighbour) importable, however this was loaded."""
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)


def _game_chunk(rules: Rules, seed: int, opponent: str, bot: str, board: int) -> Chunk:
    # pairing 0: the bot seeds of `belote tournament --bots OPPONENT,BOT`'s only pairing;
    # paired_boards's bots (beside this script): its yardstick, which sees every hand, and
    # the bots made kept for their counters (the same bots, the same seeds)
    _beside()
    from paired_boards import _driver, _factory

    return Chunk(rules, "games", seed, 0, (opponent, bot), board, board + 1, _factory,
                 _driver)


def play_board(rules: Rules, seed: int, opponent: str, bots: Sequence[str],
               board: int) -> tuple[list[Pair], tuple[float, float]]:
    """One board played under A and then under B (each its tables, one a seating):
    its pairs, and the CPU seconds of each bot's games."""
    results: list[list[TableResult]] = []
    cpu: list[float] = []
    for bot in bots:
        began = time.process_time()
        [played] = play_chunk(_game_chunk(rules, seed, opponent, bot, board))
        cpu.append(time.process_time() - began)
        results.append(list(played.tables))
    players = rules.players
    pairs = [Pair(seed, board, t, seating(players, board, t), Game.of(x), Game.of(y))
             for t, (x, y) in enumerate(zip(*results, strict=True))]
    return pairs, (cpu[0], cpu[1])


@dataclass
class Series:
    """The pairs of one run, or of several pooled: the bots (A, B), the opponent, the
    rules (profile and options), the seeds with their sources, and the CPU seconds of
    each bot's games."""

    bots: tuple[str, str]
    opponent: str
    profile: str
    options: dict[str, Any]
    pairs: list[Pair]
    seeds: dict[int, str]  # seed -> "fresh" or "given"
    cpu: tuple[float, float] = (0.0, 0.0)

    @property
    def setting(self) -> tuple[tuple[str, str], str, str, str]:
        """What must agree for runs to pool."""
        return self.bots, self.opponent, self.profile, json.dumps(self.options, sort_keys=True)

    def about(self) -> str:
        extra = "".join(f" --option {k}={v}" for k, v in sorted(self.options.items()))
        seeds = ", ".join(f"{s} ({src})" for s, src in sorted(self.seeds.items()))
        return (f"benchmarks/paired_games.py: games to the target paired game by game (the "
                f"same decks, seatings and bot seeds), A {self.bots[0]} and B "
                f"{self.bots[1]} each against {self.opponent}, {self.profile}{extra}, "
                f"seed {seeds}; pairs: each game's seed, board, table, seats (0 the "
                f"opponent, 1 the bot) and under each bot its winner (1 the bot), the "
                f"mean totals of the opponent's and the bot's seats, and the deals")

    def to_json(self, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        summary = compare(self.pairs).to_json() if self.pairs else None
        return {"about": self.about(), "kind": KIND, "version": 1,
                "bots": list(self.bots), "opponent": self.opponent, "profile": self.profile,
                "options": dict(self.options),
                "seeds": [{"seed": s, "source": src} for s, src in sorted(self.seeds.items())],
                **(extra or {}),
                "cpu_seconds": {"a": round(self.cpu[0], 2), "b": round(self.cpu[1], 2)},
                "summary": summary, "pairs": [p.to_json() for p in self.pairs]}


def load(path: Path) -> Series:
    """A run's (or a pool's) file read back."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BeloteError(f"{path}: not a readable JSON file ({exc})") from None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise BeloteError(f"{path}: not a paired-games file (kind {KIND!r})")
    a, b = data["bots"]
    cpu = data.get("cpu_seconds", {})
    return Series((str(a), str(b)), str(data["opponent"]), str(data["profile"]),
                  dict(data["options"]),
                  [Pair.from_json(p) for p in data["pairs"]],
                  {int(s["seed"]): str(s["source"]) for s in data["seeds"]},
                  (float(cpu.get("a", 0.0)), float(cpu.get("b", 0.0))))


def pool(runs: Sequence[Series]) -> Series:
    """Several runs' pairs as one series: the same bots, opponent and rules, and no
    game (seed, board, table) twice (the same deals are not new evidence)."""
    if not runs:
        raise BeloteError("pool: no runs")
    first = runs[0]
    out = Series(first.bots, first.opponent, first.profile, dict(first.options), [], {})
    seen: set[tuple[int, int, int]] = set()
    cpu = [0.0, 0.0]
    for run in runs:
        if run.setting != first.setting:
            raise BeloteError(f"pool: {run.setting} is not {first.setting}: only runs of the "
                              "same bots, opponent and rules pool")
        for p in run.pairs:
            if p.key in seen:
                raise BeloteError(f"pool: seed {p.seed}, board {p.board}, table {p.table} "
                                  "is pooled already (the same deals twice are not new "
                                  "evidence)")
            seen.add(p.key)
            out.pairs.append(p)
        out.seeds.update(run.seeds)
        cpu = [cpu[0] + run.cpu[0], cpu[1] + run.cpu[1]]
    out.cpu = (cpu[0], cpu[1])
    return out


def cross(first: Series, second: Series, sides: tuple[str, str],
          names: tuple[str, str] | None = None) -> Series:
    """The games of one bot of ``first`` (``sides[0]``: ``a`` or ``b``) paired with those
    of one bot of ``second`` (``sides[1]``), game by game where both runs played the same
    game (seed, board, table) against the same opponent under the same rules: two runs
    that share a bot (``pimc`` against X, then ``pimc`` against Y) compare X with Y
    without playing X again, and so can two runs of one spec on two versions of the code
    (``names`` tells them apart; default: the specs)."""
    for side in sides:
        if side not in ("a", "b"):
            raise BeloteError(f"cross: the side {side!r} is not a or b")
    if first.setting[1:] != second.setting[1:]:
        raise BeloteError(f"cross: {first.setting[1:]} is not {second.setting[1:]}: only "
                          "runs against the same opponent under the same rules pair")
    specs = (first.bots["ab".index(sides[0])], second.bots["ab".index(sides[1])])
    theirs = {p.key: p for p in second.pairs}
    pairs = []
    for p in first.pairs:
        q = theirs.get(p.key)
        if q is None:
            continue
        if q.seats != p.seats:
            raise BeloteError(f"cross: seed {p.seed}, board {p.board}, table {p.table} "
                              f"seats {p.seats} in one run and {q.seats} in the other")
        pairs.append(Pair(p.seed, p.board, p.table, p.seats, getattr(p, sides[0]),
                          getattr(q, sides[1])))
    if not pairs:
        raise BeloteError("cross: the two runs share no game")
    cpu = (first.cpu["ab".index(sides[0])], second.cpu["ab".index(sides[1])])
    return Series(names if names is not None else specs, first.opponent, first.profile,
                  dict(first.options), pairs, {**first.seeds, **second.seeds}, cpu)


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    part.replace(path)


def run(bots: Sequence[str], opponent: str, profile: str, options: dict[str, Any],
        seed: int | None, boards: range, out: Path | None, every: int = 10,
        argv: Sequence[str] | None = None) -> Series:
    """Play ``boards`` under both bots (a fresh seed when ``seed`` is None), the file
    ``out`` rewritten after each board, a line printed every ``every`` boards."""
    rules = TournamentConfig((opponent, bots[0]), "games", 1, seed or 0, profile,
                             options).rules()  # every deal shuffled, as a tournament
    source = "given" if seed is not None else "fresh"
    chosen = seed if seed is not None else secrets.randbits(63)
    series = Series((bots[0], bots[1]), opponent, profile, dict(options), [],
                    {chosen: source})
    words = ["benchmarks/paired_games.py", *argv] if argv is not None else sys.argv
    extra = {"boards": [boards.start, boards.stop],
             "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
             "command": " ".join(shlex.quote(w) for w in words)}
    cpu = [0.0, 0.0]
    for done, board in enumerate(boards, 1):
        pairs, spent = play_board(rules, chosen, opponent, series.bots, board)
        series.pairs.extend(pairs)
        cpu = [cpu[0] + spent[0], cpu[1] + spent[1]]
        series.cpu = (cpu[0], cpu[1])
        if out is not None:
            _write(out, series.to_json({**extra, "boards_done": done}))
        if done % every == 0 or board == boards[-1]:
            _beside()
            from paired_boards import _gate

            print(f"seed {chosen} ({source}), {done} boards, CPU {cpu[0]:.0f} s and "
                  f"{cpu[1]:.0f} s{''.join(_gate(b) for b in series.bots)}\n"
                  f"{describe(series.bots, compare(series.pairs))}", flush=True)
    return series


def _board_range(text: str) -> range:
    """``START:STOP`` as the boards it names (an argparse type)."""
    try:
        return board_range(text)
    except TournamentError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="play boards under both bots, paired game by game")
    r.add_argument("--bots", required=True, help="two bot specs, comma separated (A,B)")
    r.add_argument("--opponent", default="heuristic")
    r.add_argument("--profile", default="classic-3p")
    r.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule option over the profile's (repeatable)")
    r.add_argument("--seed", type=int, help="a development seed (default: a fresh one)")
    r.add_argument("--boards", type=_board_range, default="0:10", help="START:STOP")
    r.add_argument("--every", type=int, default=10, help="print every N boards")
    r.add_argument("--out", type=Path, help="the JSON, rewritten after every board")
    p = sub.add_parser("pool", help="pool the pairs of several runs")
    p.add_argument("files", nargs="+", type=Path)
    p.add_argument("--json", action="store_true", help="the pooled comparison as JSON")
    p.add_argument("--out", type=Path, help="write the pooled pairs here")
    c = sub.add_parser("cross", help="pair one bot of a run with one bot of another, game "
                       "by game, on the games both played (FILE:a or FILE:b each)")
    c.add_argument("first", help="FILE:a or FILE:b")
    c.add_argument("second", help="FILE:a or FILE:b")
    c.add_argument("--names", help="the two bots' names, comma separated (default: "
                   "their specs)")
    c.add_argument("--out", type=Path, help="write the paired games here")
    args = parser.parse_args(argv)
    try:
        if args.command == "cross":
            runs, sides = [], []
            for arg in (args.first, args.second):
                path, sep, side = arg.rpartition(":")
                if not sep or side not in ("a", "b"):
                    parser.error(f"{arg}: give FILE:a or FILE:b")
                runs.append(load(Path(path)))
                sides.append(side)
            names = None
            if args.names is not None:
                given = [n.strip() for n in args.names.split(",")]
                if len(given) != 2 or not all(given):
                    parser.error("--names: give two names, comma separated")
                names = (given[0], given[1])
            series = cross(runs[0], runs[1], (sides[0], sides[1]), names)
            print(describe(series.bots, compare(series.pairs)))
            if args.out is not None:
                _write(args.out, series.to_json(
                    {"crossed_from": [args.first, args.second]}))
            return 0
        if args.command == "run":
            bots = split_bot_specs(args.bots)  # a spec's own settings stay with it
            if len(bots) != 2:
                parser.error("--bots: give two bot specs")
            options = dict(parse_option_assignment(o) for o in args.option)
            make_rules(args.profile, options)
            for spec in (args.opponent, *bots):
                if spec != ORACLE:
                    make_bot(spec)
            run(bots, args.opponent, args.profile, options, args.seed, args.boards,
                args.out, max(1, args.every),
                argv=list(argv) if argv is not None else None)
            return 0
        series = pool([load(f) for f in args.files])
        if not series.pairs:
            print("error: no pairs to pool", file=sys.stderr)
            return 2
        result = compare(series.pairs)
        if args.json:
            print(json.dumps({"bots": list(series.bots), "opponent": series.opponent,
                              "profile": series.profile, "options": series.options,
                              "seeds": sorted(series.seeds), **result.to_json()}, indent=1))
        else:
            print(f"{len(args.files)} files, seeds {sorted(series.seeds)}, CPU "
                  f"{series.cpu[0]:.0f} s and {series.cpu[1]:.0f} s")
            print(describe(series.bots, result))
        if args.out is not None:
            _write(args.out, series.to_json({"pooled_from": [str(f) for f in args.files]}))
        return 0
    except BeloteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
