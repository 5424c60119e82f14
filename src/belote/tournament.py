"""Bot tournaments: duplicate pairs, statistics, an Elo ladder (issue 5).

Every pair of bots meets over the same *boards*.  A board is one deal (mode
``"deals"``) or one game to the target (mode ``"games"``), and it is played at
two tables with the same cards: at table 0 the first bot of the pairing holds
North–South (seats 0 and 2) and the second East–West; at table 1 they swap.
The luck of the cards cancels out, what is left is the bots' play.

Three and two players (docs/rules.md §12, profiles ``classic-3p`` and ``classic-2p``):
there are no two teams to swap, so a board is played at as many tables as there
are seats, the seats rotated.  One bot of the pairing sits alone (the first at
even boards, the second at odd ones) and moves round the seats, one seat a table,
the other bot filling the other seats.  Each bot is credited at each table with
the mean of its seats' own scores (§12: per-seat totals); at every board each
bot has sat at every seat equally often, so the luck of the seats cancels; over
an even number of boards each bot sits alone as often, so a game's winner is
each bot's as often by chance (games mode: the winner of a game is the bot at
the winning seat).

Decks.  A tournament shuffles every deal, whatever ``shuffle_each_deal`` says
(docs/rules.md §2.2): the deck of deal ``k`` of board ``b`` is a fresh shuffle and
cut (§2.3) drawn from the tournament seed, ``b`` and ``k`` alone.  Collecting
the cards of the previous deal, as a game does when it only cuts (or shuffles
the collected pack), would make every deck after the first depend on the play,
so the two tables of a game board would no longer see the same cards.  Asking
for ``shuffle_each_deal = false`` is therefore refused.  In games mode the
two tables see the same deck for deal ``k`` with the same dealer as long as
the dealer moves on the same way: with ``allpass_dealer = same`` an all-pass
at one table only shifts the dealers of that table afterwards.

Scores.  In deals mode each deal is scored on its own, as a one-deal match: no
litige reserve comes in, and a litige gives each team its own points (§8.4, the
last deal of a deal-limited match).  In games mode the game is scored as a
score sheet is (§8–§11), reserve and end of game included.  An all-pass (§2.4)
scores 0 to both.

Determinism.  Deck, dealer and every bot's seed come from the tournament seed
and the indices of the pairing, board, table and seat, so the results do not
depend on how the boards are split between workers, nor on their number.

Statistics (from the first bot's side of each pairing, a tie counting half):
win rates with a 95% Wilson score interval, mean points per deal with a
normal 95% interval over boards, and an Elo ladder fitted by maximum
likelihood (Bradley–Terry) to every game (games mode) or board (deals mode),
anchored so that ``random`` (or else the first bot) stands at 0.

Runners: in-process for one worker, local worker processes
(:class:`concurrent.futures.ProcessPoolExecutor`, spawned) for more, or a Ray
cluster given its address (``ray`` is imported only then).  ``matplotlib`` is
imported only by :func:`plot_results`.  The command is ``belote tournament``.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from belote.cards import Card
from belote.deal import cut, new_deck, shuffle
from belote.errors import BeloteError, OptionError
from belote.options import Rules, make_rules
from belote.round import ALL_PASS, OVER, Round
from belote.scoring import GameTally, HandEntry, score_hand

MODES: Final = ("deals", "games")
Z95: Final = statistics.NormalDist().inv_cdf(0.975)  # 1.959963984540054
ELO_SCALE: Final = 400.0  # Elo points per factor 10 of strength
DEFAULT_PRIOR: Final = 1.0  # virtual drawn games per pairing in the Elo fit
MAX_DEALS_PER_GAME: Final = 1000

BotFactory = Callable[[str, int | None], Any]
"""``make_bot(spec, seed)``: a bot for one seat (default :func:`belote.bots.make_bot`)."""
DealDriver = Callable[[Round, Sequence[Any]], None]
"""``play_deal(round, bots)``: play a deal to its end (default :func:`belote.bots.play_deal`)."""
Progress = Callable[[int, int], None]
"""``progress(boards_done, boards_total)``, called as chunks of boards finish."""


class TournamentError(BeloteError):
    """A tournament that cannot run: bad settings, a missing optional package, a cluster
    that cannot be reached, a file that cannot be written."""


# --- statistics ---------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A value and its 95% interval (``low``/``high`` are None when there is too little data)."""

    value: float
    low: float | None
    high: float | None

    def to_json(self) -> dict[str, float | None]:
        return {"value": self.value, "low": self.low, "high": self.high}


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``.

    ``successes`` may hold halves (ties counted half).

    >>> lo, hi = wilson_interval(5, 10)
    >>> round(lo, 4), round(hi, 4)
    (0.2366, 0.7634)
    """
    if n <= 0:
        raise ValueError(f"wilson_interval: n = {n!r}: at least one trial is needed")
    if not 0 <= successes <= n:
        raise ValueError(f"wilson_interval: successes = {successes!r} is not within 0..{n}")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def rate_estimate(successes: float, n: int) -> Estimate:
    low, high = wilson_interval(successes, n)
    return Estimate(successes / n, low, high)


def mean_estimate(values: Sequence[float], z: float = Z95) -> Estimate:
    """The mean and its normal-approximation interval ``mean ± z·s/√n``."""
    if not values:
        raise ValueError("mean_estimate: no values")
    mean = math.fsum(values) / len(values)
    if len(values) < 2:
        return Estimate(mean, None, None)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return Estimate(mean, mean - half, mean + half)


def fit_elo(
    names: Sequence[str],
    results: Iterable[tuple[int, int, float]],
    *,
    anchor: int = 0,
    prior: float = DEFAULT_PRIOR,
    tol: float = 1e-10,
    max_iter: int = 100_000,
) -> list[float]:
    """Elo ratings by a maximum-likelihood Bradley–Terry fit.

    ``results`` holds ``(i, j, score)``: one game of player ``i`` against player
    ``j``, ``score`` being 1 (i won), 0 (j won) or 0.5 (a draw).  ``prior`` adds
    that many virtual drawn games to every pair that met, which keeps the
    ratings finite when one player won every game.  The fit is the MM iteration
    of Hunter (2004); ratings are ``400·log10(strength)``, shifted so that
    player ``anchor`` stands at 0.  The expected score of ``i`` against ``j`` is
    ``1 / (1 + 10 ** ((elo[j] - elo[i]) / 400))``.
    """
    n = len(names)
    if not 0 <= anchor < n:
        raise ValueError(f"fit_elo: anchor {anchor!r} is not one of {n} players")
    if prior < 0:
        raise ValueError(f"fit_elo: prior {prior!r} is negative")
    games = [[0.0] * n for _ in range(n)]
    wins = [0.0] * n
    for i, j, score in results:
        if i == j or not (0 <= i < n and 0 <= j < n):
            raise ValueError(f"fit_elo: result {(i, j, score)!r} does not name two players")
        if not 0 <= score <= 1:
            raise ValueError(f"fit_elo: score {score!r} is not within 0..1")
        games[i][j] += 1
        games[j][i] += 1
        wins[i] += score
        wins[j] += 1 - score
    if prior:
        for i in range(n):
            for j in range(n):
                if i != j and games[i][j]:
                    games[i][j] += prior
                    wins[i] += prior / 2
    for i in range(n):
        if not any(games[i]):
            raise ValueError(f"fit_elo: {names[i]!r} played no game")
        if wins[i] <= 0 or wins[i] >= sum(games[i]):
            raise ValueError(
                f"fit_elo: {names[i]!r} {'lost' if wins[i] <= 0 else 'won'} every game: "
                "the maximum-likelihood rating is infinite (use a prior > 0)"
            )
    strength = [1.0] * n
    for _ in range(max_iter):
        new = [
            wins[i] / math.fsum(
                games[i][j] / (strength[i] + strength[j]) for j in range(n) if games[i][j]
            )
            for i in range(n)
        ]
        scale = math.exp(math.fsum(math.log(s) for s in new) / n)
        new = [s / scale for s in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < tol:
            break
    base = math.log10(strength[anchor])
    return [ELO_SCALE * (math.log10(s) - base) for s in strength]


def expected_score(elo_i: float, elo_j: float) -> float:
    """The expected score of a player rated ``elo_i`` against one rated ``elo_j``."""
    return 1.0 / (1.0 + math.pow(10.0, (elo_j - elo_i) / ELO_SCALE))


# --- configuration --------------------------------------------------------------


@dataclass(frozen=True)
class TournamentConfig:
    """What to play: the bots (specs for :func:`belote.bots.make_bot`), the mode,
    the number of duplicate boards per pairing, the seed and the rules."""

    bots: tuple[str, ...]
    mode: str = "deals"
    boards: int = 100
    seed: int = 0
    profile: str = "classic"
    options: Mapping[str, Any] = field(default_factory=dict)

    def rules(self) -> Rules:
        """The rules, every deal shuffled (see the module docstring)."""
        if self.options.get("shuffle_each_deal") is False:
            raise OptionError(
                "option 'shuffle_each_deal': a tournament shuffles every deal, so that both "
                "tables of a duplicate board see the same decks (false would make every deck "
                "after the first depend on the play)"
            )
        return make_rules(self.profile, {**self.options, "shuffle_each_deal": True})

    def check(self) -> Rules:
        """Refuse bad settings (:class:`TournamentError`); the rules when all is well."""
        if self.mode not in MODES:
            raise TournamentError(f"mode: {self.mode!r} is not one of {', '.join(MODES)}")
        if len(self.bots) < 2:
            raise TournamentError(f"bots: {list(self.bots)!r}: at least two bots are needed")
        for spec in self.bots:
            if not isinstance(spec, str) or not spec.strip():
                raise TournamentError(f"bots: {spec!r} is not a bot name")
        seen: set[str] = set()
        for spec in self.bots:
            if spec in seen:
                raise TournamentError(f"bots: {spec!r} is named twice")
            seen.add(spec)
        if isinstance(self.boards, bool) or not isinstance(self.boards, int) or self.boards < 1:
            raise TournamentError(f"boards: {self.boards!r} is not a positive whole number")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise TournamentError(f"seed: {self.seed!r} is not a whole number")
        rules = self.rules()
        # a profile the live engine cannot deal fails here
        Round(rules, 0, new_deck(rules.players, rules.three_deal))
        return rules

    @property
    def pairings(self) -> list[tuple[int, int]]:
        """Every pair of bots (a round robin), in order: (0, 1), (0, 2), ..., (1, 2), ..."""
        n = len(self.bots)
        return [(i, j) for i in range(n) for j in range(i + 1, n)]

    @property
    def anchor(self) -> int:
        """The bot rated 0: ``random`` when it plays, else the first bot."""
        return self.bots.index("random") if "random" in self.bots else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots), "mode": self.mode, "boards": self.boards,
            "seed": self.seed, "profile": self.profile, "options": dict(self.options),
        }


# --- seeds and decks --------------------------------------------------------------


def _rng(seed: int, *key: object) -> random.Random:
    # str seeds are hashed with SHA-512 by random.Random: stable across processes.
    return random.Random(":".join(str(k) for k in ("belote-tournament", seed, *key)))


def bot_seed(seed: int, pairing: int, board: int, table: int, seat: int) -> int:
    """The seed of the bot at ``seat`` of ``table`` of ``board`` in ``pairing``."""
    return _rng(seed, "bot", pairing, board, table, seat).getrandbits(63)


def _shuffled(rules: Rules, rng: random.Random) -> list[Card]:
    deck = new_deck(rules.players, rules.three_deal)
    shuffle(deck, rng)
    return cut(deck, rng, rules.min_cut)


def board_deal(rules: Rules, seed: int, board: int) -> tuple[int, list[Card]]:
    """Deals mode: the dealer and the deck of ``board`` (shared by every pairing)."""
    rng = _rng(seed, "deal", board)
    dealer = rng.randrange(rules.players)
    return dealer, _shuffled(rules, rng)


def game_first_dealer(seed: int, board: int, players: int = 4) -> int:
    """Games mode: the first dealer of the game of ``board`` (§2.1, drawn at random)."""
    return _rng(seed, "game", board).randrange(players)


def game_deck(rules: Rules, seed: int, board: int, deal: int) -> list[Card]:
    """Games mode: the deck of deal ``deal`` (0-based) of the game of ``board``."""
    return _shuffled(rules, _rng(seed, "game", board, "deal", deal))


# --- playing ----------------------------------------------------------------------


@dataclass(frozen=True)
class TableResult:
    """One table of a board, from the pairing's point of view (bot A first).

    ``points``: A's and B's points (the deal's score, or the game's totals; with
    three or two players, the mean over each bot's seats of the seat's own score);
    ``deals``: deals dealt (all-passes included); ``deal_record``: deals won by
    A, by B, and tied (an all-pass is a tie at 0–0); ``winner``: games mode,
    0 (A), 1 (B) or None (a draw); always None in deals mode.
    """

    points: tuple[float, float]
    deals: int
    deal_record: tuple[int, int, int]
    winner: int | None = None


@dataclass(frozen=True)
class BoardResult:
    """The tables of one board: 2 with four players, one a seat with three or two."""

    pairing: int
    board: int
    tables: tuple[TableResult, ...]


@dataclass(frozen=True)
class Chunk:
    """A unit of work: boards ``start`` to ``stop - 1`` of one pairing (picklable)."""

    rules: Rules
    mode: str
    seed: int
    pairing: int
    bots: tuple[str, str]
    start: int
    stop: int
    make_bot: BotFactory | None
    play_deal: DealDriver | None


def _engine(job: Chunk) -> tuple[BotFactory, DealDriver]:
    make_bot, play_deal = job.make_bot, job.play_deal
    if make_bot is None or play_deal is None:
        from belote import bots

        make_bot = make_bot or bots.make_bot
        play_deal = play_deal or bots.play_deal
    return make_bot, play_deal


def seating(players: int, board: int, table: int) -> tuple[int, ...]:
    """Which bot of the pairing (0: A, 1: B) sits at each seat of ``table`` of ``board``.

    Four players: A holds NS at table 0 and EW at table 1.  Three or two (§12): the
    seats rotate; one bot sits alone at seat ``table`` (A at even boards, B at odd
    ones), the other at the other seats.

    >>> [seating(3, 0, t) for t in range(3)]
    [(0, 1, 1), (1, 0, 1), (1, 1, 0)]
    >>> [seating(2, 1, t) for t in range(2)]
    [(1, 0), (0, 1)]
    """
    if players == 4:
        return (0, 1, 0, 1) if table == 0 else (1, 0, 1, 0)
    alone = board % 2
    return tuple(alone if s == table else 1 - alone for s in range(players))


def tables_per_board(players: int) -> int:
    """Tables a board is played at: 2 (teams swapped), or one a seat (rotated, §12)."""
    return 2 if players == 4 else players


def _seat_bots(job: Chunk, make_bot: BotFactory, board: int, table: int) -> list[Any]:
    n = job.rules.players
    places = seating(n, board, table)
    return [
        make_bot(job.bots[places[s]], bot_seed(job.seed, job.pairing, board, table, s))
        for s in range(n)
    ]


def _bot_points(places: Sequence[int], seats: Sequence[int]) -> tuple[float, float]:
    """Each bot's mean seat score (§12: every seat scores for itself)."""
    out = []
    for bot in (0, 1):
        own = [seats[s] for s in range(len(places)) if places[s] == bot]
        out.append(sum(own) / len(own))
    return out[0], out[1]


def small_deal_score(rnd: Round) -> tuple[int, ...]:
    """Deals mode, three or two players: each seat's score of a finished deal scored on
    its own, as a one-deal match (a litige gives each side its own points, §8.4 on
    the last deal); belote découverte's own points (§12.2)."""
    result = rnd.result()
    assert rnd.play is not None and result.seats is not None
    if result.score.outcome == "counted":
        return result.seats
    score = score_hand(rnd.rules, dataclasses.replace(result.entry, reserve=0), last_deal=True)
    return rnd.play.seat_scores(score)


def _record(a_pts: float, b_pts: float) -> tuple[int, int, int]:
    return (1, 0, 0) if a_pts > b_pts else (0, 1, 0) if b_pts > a_pts else (0, 0, 1)


def deal_score(rules: Rules, entry: HandEntry) -> tuple[int, int]:
    """Deals mode: a deal scored on its own, as a one-deal match (no reserve comes in,
    and a litige gives each team its own points, docs/rules.md §8.4 on the last deal)."""
    return score_hand(rules, dataclasses.replace(entry, reserve=0), last_deal=True).score


def _play_deal_table(
    job: Chunk, engine: tuple[BotFactory, DealDriver], board: int, table: int
) -> TableResult:
    make_bot, play_deal = engine
    dealer, deck = board_deal(job.rules, job.seed, board)
    rnd = Round(job.rules, dealer, deck)
    play_deal(rnd, _seat_bots(job, make_bot, board, table))
    _check_finished(rnd, job, board, table, 0)
    n = job.rules.players
    if n != 4:
        seats = small_deal_score(rnd) if rnd.phase == OVER else (0,) * n
        a, b = _bot_points(seating(n, board, table), seats)
        return TableResult((a, b), 1, _record(a, b))
    score = deal_score(job.rules, rnd.result().entry) if rnd.phase == OVER else (0, 0)
    team_a = table  # A holds NS (team 0) at table 0, EW (team 1) at table 1
    a_pts, b_pts = score[team_a], score[1 - team_a]
    return TableResult((a_pts, b_pts), 1, _record(a_pts, b_pts))


def _check_finished(rnd: Round, job: Chunk, board: int, table: int, deal: int) -> None:
    if rnd.phase not in (OVER, ALL_PASS):
        raise TournamentError(
            f"pairing {job.bots[0]!r} vs {job.bots[1]!r}, board {board}, table {table}, "
            f"deal {deal + 1}: the deal driver left the deal unfinished ({rnd.describe()})"
        )


def _play_game_table(
    job: Chunk, engine: tuple[BotFactory, DealDriver], board: int, table: int
) -> TableResult:
    make_bot, play_deal = engine
    rules = job.rules
    bots = _seat_bots(job, make_bot, board, table)
    if rules.players != 4:
        return _play_small_game(job, play_deal, bots, board, table)
    tally = GameTally(rules)
    dealer = game_first_dealer(job.seed, board)
    team_a = table
    won = [0, 0, 0]
    deal = 0
    while not tally.finished:
        if deal >= MAX_DEALS_PER_GAME:
            raise TournamentError(
                f"pairing {job.bots[0]!r} vs {job.bots[1]!r}, board {board}, table {table}: "
                f"no end after {MAX_DEALS_PER_GAME} deals"
            )
        rnd = Round(rules, dealer, game_deck(rules, job.seed, board, deal), tally.reserve)
        play_deal(rnd, bots)
        _check_finished(rnd, job, board, table, deal)
        if rnd.phase == ALL_PASS:
            won[2] += 1  # §2.4: no score; the deal passes on unless allpass_dealer = same
            if rules.allpass_dealer == "next":
                dealer = (dealer + 1) & 3
        else:
            score = tally.add(rnd.result().entry).score
            for i, n in enumerate(_record(score[team_a], score[1 - team_a])):
                won[i] += n
            dealer = (dealer + 1) & 3
        deal += 1
    totals = tally.totals
    winner = None if tally.winner is None else (0 if tally.winner == team_a else 1)
    return TableResult(
        (totals[team_a], totals[1 - team_a]), deal, (won[0], won[1], won[2]), winner
    )


def _play_small_game(
    job: Chunk, play_deal: DealDriver, bots: Sequence[Any], board: int, table: int
) -> TableResult:
    """Games mode with three or two players (§12): a :class:`~belote.game.Match` to the
    target, each seat for itself; the winning seat's bot wins the game."""
    from belote.game import Match

    rules = job.rules
    n = rules.players
    places = seating(n, board, table)
    match = Match(rules, seed=0, first_dealer=game_first_dealer(job.seed, board, n))
    won = [0, 0, 0]
    deal = 0
    while not match.finished:
        if deal >= MAX_DEALS_PER_GAME:
            raise TournamentError(
                f"pairing {job.bots[0]!r} vs {job.bots[1]!r}, board {board}, table {table}: "
                f"no end after {MAX_DEALS_PER_GAME} deals"
            )
        rnd = match.new_round(game_deck(rules, job.seed, board, deal))
        play_deal(rnd, bots)
        _check_finished(rnd, job, board, table, deal)
        if rnd.phase == ALL_PASS:
            won[2] += 1
        match.finish_round()
        if rnd.phase == OVER:
            a, b = _bot_points(places, match.seat_hands[-1])
            for i, k in enumerate(_record(a, b)):
                won[i] += k
        deal += 1
    winner = None if match.winner is None else places[match.winner]
    return TableResult(
        _bot_points(places, match.seat_totals), deal, (won[0], won[1], won[2]), winner
    )


def play_chunk(job: Chunk) -> list[BoardResult]:
    """Play boards ``job.start`` to ``job.stop - 1`` of one pairing, every table of each
    (two, or one a seat with three or two players).

    The unit of work of every runner (a worker process, a Ray task).
    """
    engine = _engine(job)
    play = _play_deal_table if job.mode == "deals" else _play_game_table

    def table(board: int, index: int) -> TableResult:
        try:
            return play(job, engine, board, index)
        except TournamentError:
            raise
        except Exception as exc:  # a bot's failure, reported with where it happened
            what = str(exc) if isinstance(exc, BeloteError) else (
                f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
            raise TournamentError(
                f"pairing {job.bots[0]!r} vs {job.bots[1]!r}, board {board}, table {index}: "
                f"{what}"
            ) from exc

    count = tables_per_board(job.rules.players)
    return [
        BoardResult(job.pairing, board, tuple(table(board, t) for t in range(count)))
        for board in range(job.start, job.stop)
    ]


# --- results ----------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """Wins, losses and ties of the first bot of a pairing, and its win rate
    (a tie counting half) with a 95% Wilson interval."""

    wins: int
    losses: int
    ties: int

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.ties

    @property
    def score(self) -> float:
        return self.wins + self.ties / 2

    @property
    def rate(self) -> Estimate:
        return rate_estimate(self.score, self.played)

    def to_json(self) -> dict[str, Any]:
        return {
            "wins": self.wins, "losses": self.losses, "ties": self.ties,
            "played": self.played, "rate": self.rate.to_json(),
        }


@dataclass(frozen=True)
class PairingResult:
    """One pairing: bot ``bots[0]`` (A) against ``bots[1]`` (B), from A's side.

    ``games``: games mode, every game of both tables (2 per board).
    ``deal_results``: deals mode, one result per board (the bot whose points over
    its two tables are higher wins the board); games mode, every deal dealt.
    ``points_per_deal``: A's and B's mean points per deal dealt.
    ``margin_per_deal``: A's points minus B's per deal, mean and 95% interval over
    boards (the board being the independent unit of a duplicate tournament).
    """

    bots: tuple[str, str]
    boards: int
    deals: int
    games: Record | None
    deal_results: Record
    points_per_deal: tuple[float, float]
    margin_per_deal: Estimate

    @property
    def win_rate(self) -> Estimate:
        """A's game win rate (games mode) or board win rate (deals mode)."""
        return (self.games or self.deal_results).rate

    def to_json(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "boards": self.boards,
            "deals": self.deals,
            "games": None if self.games is None else self.games.to_json(),
            "deal_results": self.deal_results.to_json(),
            "points_per_deal": list(self.points_per_deal),
            "margin_per_deal": self.margin_per_deal.to_json(),
        }


@dataclass(frozen=True)
class EloEntry:
    bot: str
    elo: float
    played: int  # games (games mode) or boards (deals mode) in the fit
    score: float  # wins + draws/2

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "elo": self.elo, "played": self.played, "score": self.score}


@dataclass(frozen=True)
class TournamentResult:
    """Everything a tournament produced; :meth:`to_json` is the ``--json`` answer."""

    config: TournamentConfig
    pairings: tuple[PairingResult, ...]
    elo: tuple[EloEntry, ...]  # the ladder, best first
    runner: str = "local"
    workers: int = 1
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        small: dict[str, Any] = {}
        players = make_rules(self.config.profile, self.config.options).players
        if players != 4:
            small = {"players": players, "tables_per_board": tables_per_board(players),
                     "seating": "rotated"}
        return {
            **self.config.to_json(),
            "duplicate": True,
            **small,
            "shuffle_each_deal": True,
            "pairings": [p.to_json() for p in self.pairings],
            "elo": [e.to_json() for e in self.elo],
            "elo_anchor": self.config.bots[self.config.anchor],
            "run": {"runner": self.runner, "workers": self.workers, "seconds": self.seconds},
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_json` to ``path`` (UTF-8, indented)."""
        text = json.dumps(self.to_json(), ensure_ascii=False, indent=2) + "\n"
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise TournamentError(
                f"cannot write {str(path)!r}: {exc.strerror or exc}"
            ) from None


def _pairing_result(
    mode: str, bots: tuple[str, str], boards: Sequence[BoardResult]
) -> PairingResult:
    tables = [t for b in boards for t in b.tables]
    deals = sum(t.deals for t in tables)
    margins = [
        sum(t.points[0] - t.points[1] for t in b.tables) / sum(t.deals for t in b.tables)
        for b in boards
    ]
    games: Record | None = None
    if mode == "deals":
        wins = sum(1 for m in margins if m > 0)
        losses = sum(1 for m in margins if m < 0)
        deal_results = Record(wins, losses, len(margins) - wins - losses)
    else:
        games = Record(
            sum(1 for t in tables if t.winner == 0),
            sum(1 for t in tables if t.winner == 1),
            sum(1 for t in tables if t.winner is None),
        )
        deal_results = Record(*(sum(t.deal_record[i] for t in tables) for i in range(3)))
    return PairingResult(
        bots=bots, boards=len(boards), deals=deals, games=games, deal_results=deal_results,
        points_per_deal=(
            sum(t.points[0] for t in tables) / deals, sum(t.points[1] for t in tables) / deals
        ),
        margin_per_deal=mean_estimate(margins),
    )


def summarize(config: TournamentConfig, boards: Iterable[BoardResult]) -> tuple[
    tuple[PairingResult, ...], tuple[EloEntry, ...]
]:
    """Pairing statistics and the Elo ladder from every board played."""
    by_pairing: dict[int, list[BoardResult]] = {}
    for b in sorted(boards, key=lambda b: (b.pairing, b.board)):
        by_pairing.setdefault(b.pairing, []).append(b)
    pairings: list[PairingResult] = []
    results: list[tuple[int, int, float]] = []
    for index, (i, j) in enumerate(config.pairings):
        played = by_pairing.get(index, [])
        if len(played) != config.boards:
            raise TournamentError(
                f"pairing {config.bots[i]!r} vs {config.bots[j]!r}: {len(played)} boards "
                f"played of {config.boards}"
            )
        pairings.append(_pairing_result(config.mode, (config.bots[i], config.bots[j]), played))
        for b in played:
            if config.mode == "games":
                for t in b.tables:
                    results.append((i, j, 0.5 if t.winner is None else 1.0 - t.winner))
            else:
                m = sum(t.points[0] - t.points[1] for t in b.tables)
                results.append((i, j, 1.0 if m > 0 else 0.0 if m < 0 else 0.5))
    elo = fit_elo(config.bots, results, anchor=config.anchor)
    counts = [0] * len(config.bots)
    score = [0.0] * len(config.bots)
    for i, j, s in results:
        counts[i] += 1
        counts[j] += 1
        score[i] += s
        score[j] += 1 - s
    ladder = sorted(
        (EloEntry(bot, elo[k], counts[k], score[k]) for k, bot in enumerate(config.bots)),
        key=lambda e: (-e.elo, e.bot),
    )
    return tuple(pairings), tuple(ladder)


# --- running ----------------------------------------------------------------------


def _check_bots(
    config: TournamentConfig, make_bot: BotFactory | None, rules: Rules | None = None
) -> None:
    """Build each bot once here, so that a bad spec (or a bot that cannot sit at the
    profile's table) fails before any work is sent out."""
    if make_bot is None:
        try:
            from belote import bots
        except ImportError as exc:
            raise TournamentError(f"the bots package cannot be loaded: {exc}") from None
        make_bot = bots.make_bot
    for spec in config.bots:
        try:
            bot = make_bot(spec, 0)
        except BeloteError:
            raise
        except (ValueError, TypeError, KeyError) as exc:
            raise TournamentError(f"bot {spec!r}: {exc}") from None
        if rules is not None and rules.players != 4:
            from belote.bots.base import check_table

            check_table(rules, [bot] * rules.players, "tournament")


def default_chunk_size(boards: int, pairings: int, workers: int) -> int:
    """Boards per unit of work: about eight units per worker, at most 50 boards."""
    return max(1, min(boards, 50, math.ceil(boards * pairings / (8 * max(1, workers)))))


def _jobs(
    config: TournamentConfig, rules: Rules, chunk: int,
    make_bot: BotFactory | None, play_deal: DealDriver | None,
) -> list[Chunk]:
    return [
        Chunk(rules, config.mode, config.seed, index, (config.bots[i], config.bots[j]),
             start, min(start + chunk, config.boards), make_bot, play_deal)
        for index, (i, j) in enumerate(config.pairings)
        for start in range(0, config.boards, chunk)
    ]


class _Tracker:
    def __init__(self, total: int, progress: Progress | None) -> None:
        self.total = total
        self.done = 0
        self.progress = progress
        self.boards: list[BoardResult] = []
        if progress is not None:
            progress(0, total)

    def add(self, chunk: Sequence[BoardResult]) -> None:
        self.boards.extend(chunk)
        self.done += len(chunk)
        if self.progress is not None:
            self.progress(self.done, self.total)


def _run_local(jobs: Sequence[Chunk], workers: int, tracker: _Tracker) -> None:
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            tracker.add(play_chunk(job))
        return
    from concurrent.futures.process import BrokenProcessPool

    # Spawned workers: no fork of a process that may run threads (a progress bar, Ray).
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context)
    try:
        pending: set[Future[list[BoardResult]]] = {pool.submit(play_chunk, j) for j in jobs}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                tracker.add(future.result())
    except BrokenProcessPool as exc:
        pool.shutdown(wait=False, cancel_futures=True)
        raise TournamentError(f"a worker process died: {exc}") from None
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


EXTRAS: Final = {"matplotlib": "plot", "ray": "cluster"}  # pyproject optional dependencies


def _import_optional(module: str, why: str) -> Any:
    package = module.split(".")[0]
    try:
        return importlib.import_module(module)
    except ImportError:
        raise TournamentError(
            f"{why} needs the {package!r} package: pip install 'belote[{EXTRAS[package]}]'"
        ) from None


def _check_reachable(address: str, timeout: float = 10.0) -> None:
    """Fail fast on a ``host:port`` (or ``ray://host:port``) nobody answers at: Ray
    itself retries for minutes.  Other addresses (``auto``, ``local``) pass."""
    import socket

    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise TournamentError(
            f"cannot reach the Ray cluster at {address!r}: {exc.strerror or exc}"
        ) from None


def _run_ray(
    address: str, make_jobs: Callable[[int], list[Chunk]], tracker: _Tracker
) -> int:
    """Run on a Ray cluster (``ray.init(address=...)`` unless Ray is already
    initialised in this process); one task per chunk.  Returns the cluster's CPUs."""
    import logging

    ray = _import_optional("ray", "--ray")
    started = False
    if not ray.is_initialized():
        _check_reachable(address)
        try:
            ray.init(address=address, logging_level=logging.WARNING)
        except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError...
            raise TournamentError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(play_chunk)
        pending = [remote.remote(job) for job in make_jobs(cpus)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                tracker.add(ray.get(ref))
        return cpus
    except BeloteError:
        raise
    except Exception as exc:
        raise TournamentError(f"Ray: {exc}") from None
    finally:
        if started:
            ray.shutdown()


def run_tournament(
    config: TournamentConfig,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Progress | None = None,
    chunk_size: int | None = None,
    make_bot: BotFactory | None = None,
    play_deal: DealDriver | None = None,
) -> TournamentResult:
    """Play a round robin of duplicate boards and summarise it.

    ``workers``: local worker processes (default: the CPU count; 1 plays in this
    process).  ``ray_address``: run on that Ray cluster instead (``"auto"``,
    ``"ray://host:10001"``, ``"local"`` for a fresh local instance); when Ray is
    already initialised in this process, that instance is used.  ``progress``
    is called with (boards done, boards in all) as work comes back.
    ``make_bot`` and ``play_deal`` replace :func:`belote.bots.make_bot` and
    :func:`belote.bots.play_deal` (module-level functions: they travel to the
    workers by pickling).  The result does not depend on ``workers``, the
    runner or ``chunk_size``.
    """
    rules = config.check()
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise TournamentError(f"workers: {workers!r} is not a positive whole number")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size < 1):
        raise TournamentError(f"chunk_size: {chunk_size!r} is not a positive whole number")
    _check_bots(config, make_bot, rules)
    pairings = len(config.pairings)
    tracker = _Tracker(config.boards * pairings, progress)

    def make_jobs(n: int) -> list[Chunk]:
        chunk = chunk_size or default_chunk_size(config.boards, pairings, n)
        return _jobs(config, rules, chunk, make_bot, play_deal)

    start = time.perf_counter()
    if ray_address is not None:
        runner = "ray"
        workers = _run_ray(ray_address, make_jobs, tracker)
    else:
        runner = "local"
        # One worker: every board is its own chunk, for a smooth progress bar.
        _run_local(make_jobs(workers) if workers > 1 else
                   _jobs(config, rules, chunk_size or 1, make_bot, play_deal),
                   workers, tracker)
    seconds = time.perf_counter() - start
    results, ladder = summarize(config, tracker.boards)
    return TournamentResult(config, results, ladder, runner, workers, round(seconds, 3))


# --- plot -------------------------------------------------------------------------


def plot_results(result: TournamentResult, path: str | os.PathLike[str]) -> None:
    """Save a PNG: each pairing's win rate with its 95% interval, and the Elo ladder.

    matplotlib is imported here only, and draws on an Agg canvas (no display, no
    change to the caller's pyplot backend).
    """
    figure_mod = _import_optional("matplotlib.figure", "a plot")
    agg = _import_optional("matplotlib.backends.backend_agg", "a plot")
    config = result.config
    n = len(result.pairings)
    fig = figure_mod.Figure(figsize=(11, max(3.5, 0.45 * max(n, len(result.elo)) + 1.8)),
                            layout="constrained")
    agg.FigureCanvasAgg(fig)
    ax_rate, ax_elo = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})

    ys = list(range(n))
    rates = [p.win_rate for p in result.pairings]
    values = [r.value for r in rates]
    below = [r.value - (r.low if r.low is not None else r.value) for r in rates]
    above = [(r.high if r.high is not None else r.value) - r.value for r in rates]
    ax_rate.errorbar(values, ys, xerr=[below, above], fmt="o", capsize=4, color="tab:blue")
    ax_rate.axvline(0.5, linestyle="--", color="grey", linewidth=1)
    ax_rate.set_yticks(ys, [f"{p.bots[0]} vs {p.bots[1]}" for p in result.pairings])
    ax_rate.set_ylim(n - 0.5, -0.5)
    ax_rate.set_xlim(-0.02, 1.02)
    unit = "games" if config.mode == "games" else "boards (duplicate deals)"
    ax_rate.set_xlabel(f"win rate of the first bot over {unit}, 95% Wilson interval")
    ax_rate.set_title("Pairings")

    ladder = result.elo
    ax_elo.barh(range(len(ladder)), [e.elo for e in ladder], color="tab:orange")
    ax_elo.set_yticks(range(len(ladder)), [e.bot for e in ladder])
    ax_elo.set_ylim(len(ladder) - 0.5, -0.5)
    ax_elo.axvline(0, color="black", linewidth=0.8)
    for k, e in enumerate(ladder):
        ax_elo.annotate(f"{e.elo:+.0f}", (e.elo, k), va="center",
                        ha="left" if e.elo >= 0 else "right",
                        xytext=(3 if e.elo >= 0 else -3, 0), textcoords="offset points")
    ax_elo.set_xlabel(f"Elo ({config.bots[config.anchor]} = 0)")
    ax_elo.set_title("Elo ladder")
    ax_elo.margins(x=0.2)
    players = make_rules(config.profile, config.options).players
    played = "played twice" if players == 4 else f"played {players} times, seats rotated"
    fig.suptitle(
        f"belote tournament: {config.boards} {config.mode} per pairing, {played} "
        f"(duplicate), profile {config.profile}, seed {config.seed}"
    )
    try:
        fig.savefig(os.fspath(path), format="png", dpi=110)
    except OSError as exc:
        raise TournamentError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
