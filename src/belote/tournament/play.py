"""Playing the boards of a tournament: one table of a board is one deal (deals mode) or one
game to the target (games mode), the same code for four, three and two players.

Each seat's score is what the table makes of a hand: its team's score with four
players (docs/rules.md §8), its own with three and two (§12).  Each bot of the
pairing is credited with the mean of its seats' scores, so with four players a bot
gets its team's points.  Deals mode scores each deal on its own, as a one-deal
match (no reserve comes in; a litige gives each side its own points, §8.4 on the
last deal); games mode plays a :class:`~belote.game.Match` to the target (§11).

A bot that raises is reported as a :class:`~belote.tournament.config.TournamentError`
naming the pairing, the board and the table, its one-line message kept and the
bot's full traceback carried along (``traceback_text``).
"""

from __future__ import annotations

import dataclasses
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from belote.errors import BeloteError
from belote.game import Match
from belote.options import Rules
from belote.play import SEAT_NAMES
from belote.round import ALL_PASS, OVER, Round
from belote.scoring import HandEntry, HandScore, Outcome, score_hand
from belote.table import Table
from belote.tournament.config import TournamentError
from belote.tournament.seeding import (
    board_deal,
    bot_seed,
    game_deck,
    game_first_dealer,
    seating,
    tables_per_board,
)

__all__ = [
    "MAX_DEALS_PER_GAME",
    "BoardResult",
    "BotFactory",
    "Chunk",
    "DealDriver",
    "TableResult",
    "deal_score",
    "deal_seat_scores",
    "play_chunk",
]

MAX_DEALS_PER_GAME: Final = 1000

BotFactory = Callable[[str, int | None], Any]
"""``make_bot(spec, seed)``: a bot for one seat (default :func:`belote.bots.make_bot`)."""
DealDriver = Callable[[Round, Sequence[Any]], None]
"""``play_deal(round, bots)``: play a deal to its end (default :func:`belote.bots.play_deal`)."""


@dataclass(frozen=True)
class TableResult:
    """One table of a board, from the pairing's point of view (bot A first).

    ``points``: A's and B's points (the deal's score, or the game's totals), each
    the mean over the bot's seats of the seat's score; ``deals``: deals dealt
    (all-passes included); ``deal_record``: deals won by A, by B, and tied (an
    all-pass is a tie at 0–0); ``winner``: games mode, 0 (A), 1 (B) or None (a
    draw); always None in deals mode.
    """

    points: tuple[float, float]
    deals: int
    deal_record: tuple[int, int, int]
    winner: int | None = None
    # With Chunk.keep_records: the table's game record (docs/json.md; deals mode: a
    # game of its one deal) and the bot at each seat.
    record: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    seats: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class BoardResult:
    """The tables of one board: 2 with four players, one a seat with three or two."""

    pairing: int
    board: int
    tables: tuple[TableResult, ...]


@dataclass(frozen=True)
class Chunk:
    """A unit of work: boards ``start`` to ``stop - 1`` of one pairing, and the bot
    factory and deal driver that play them (picklable: module-level functions)."""

    rules: Rules
    mode: str
    seed: int
    pairing: int
    bots: tuple[str, str]
    start: int
    stop: int
    make_bot: BotFactory
    play_deal: DealDriver
    keep_records: bool = False  # each table's record in its TableResult (--keep-records)

    def where(self, board: int, table: int) -> str:
        """The pairing, board and table, as errors name them."""
        return f"pairing {self.bots[0]!r} vs {self.bots[1]!r}, board {board}, table {table}"


def deal_score(rules: Rules, entry: HandEntry) -> tuple[int, ...]:
    """Deals mode: a deal scored on its own, as a one-deal match (no reserve comes in,
    and a litige gives each team its own points, docs/rules.md §8.4 on the last deal)."""
    return _one_deal(rules, entry).score


def _one_deal(rules: Rules, entry: HandEntry) -> HandScore:
    return score_hand(rules, dataclasses.replace(entry, reserve=0), last_deal=True)


def _per_seat(table: Table, scores: Sequence[int]) -> tuple[int, ...]:
    """A score kept by column (the teams, or the seats at three and two, §12) as each
    seat's: its column's."""
    return tuple(scores[table.score_column(s)] for s in table.seats)


def deal_seat_scores(rnd: Round) -> tuple[int, ...]:
    """Deals mode: each seat's score of a deal, scored on its own (:func:`deal_score`);
    0 to everyone after an all-pass (§2.4); belote découverte's own points (§12.2)."""
    if rnd.phase != OVER:
        return (0,) * rnd.table.players
    result = rnd.result()
    if result.score.outcome is Outcome.COUNTED:  # découverte: no contract to score (§12.2)
        assert result.seats is not None
        return result.seats
    score = _one_deal(rnd.rules, result.entry)
    if rnd.table.scores_per_seat:
        return rnd.seat_scores(score)  # §12.1: the defenders share their side's
    return _per_seat(rnd.table, score.score)


def _bot_points(places: Sequence[int], seats: Sequence[int]) -> tuple[float, float]:
    """Each bot's mean seat score."""
    out = []
    for bot in (0, 1):
        own = [seats[s] for s in range(len(places)) if places[s] == bot]
        out.append(sum(own) / len(own))
    return out[0], out[1]


def _record(a_pts: float, b_pts: float) -> tuple[int, int, int]:
    return (1, 0, 0) if a_pts > b_pts else (0, 1, 0) if b_pts > a_pts else (0, 0, 1)


def _seat_bots(job: Chunk, places: Sequence[int], board: int, table: int) -> list[Any]:
    return [
        job.make_bot(job.bots[bot], bot_seed(job.seed, job.pairing, board, table, seat))
        for seat, bot in enumerate(places)
    ]


def _check_finished(rnd: Round, job: Chunk, board: int, table: int, deal: int) -> None:
    if rnd.phase not in (OVER, ALL_PASS):
        raise TournamentError(
            f"{job.where(board, table)}, deal {deal + 1}: the deal driver left the deal "
            f"unfinished ({rnd.describe()})"
        )


def _play_deal_table(job: Chunk, board: int, table: int) -> TableResult:
    places = seating(job.rules.players, board, table)
    dealer, deck = board_deal(job.rules, job.seed, board)
    rnd = Round(job.rules, dealer, deck)
    job.play_deal(rnd, _seat_bots(job, places, board, table))
    _check_finished(rnd, job, board, table, 0)
    a, b = _bot_points(places, deal_seat_scores(rnd))
    if not job.keep_records:
        return TableResult((a, b), 1, _record(a, b))
    deal = rnd.record()
    record = {"version": 1, "profile": deal["profile"], "options": deal["options"],
              "first_dealer": SEAT_NAMES[dealer],
              "deals": [{k: deal[k] for k in ("dealer", "deck", "actions")}]}
    return TableResult((a, b), 1, _record(a, b), record=record,
                       seats=tuple(job.bots[p] for p in places))


def _play_game_table(job: Chunk, board: int, table: int) -> TableResult:
    rules = job.rules
    places = seating(rules.players, board, table)
    bots = _seat_bots(job, places, board, table)
    match = Match(rules, seed=0, first_dealer=game_first_dealer(job.seed, board, rules.players))
    layout = Table.of(rules)
    won = [0, 0, 0]
    while not match.finished:
        deal = match.deals
        if deal >= MAX_DEALS_PER_GAME:
            raise TournamentError(
                f"{job.where(board, table)}: no end after {MAX_DEALS_PER_GAME} deals"
            )
        rnd = match.new_round(game_deck(rules, job.seed, board, deal))
        job.play_deal(rnd, bots)
        _check_finished(rnd, job, board, table, deal)
        match.finish_round()
        if rnd.phase == OVER:  # the hand's score: per team, or per seat at three and two
            hand = _per_seat(layout, match.score.hands[-1].score)
            record = _record(*_bot_points(places, hand))
        else:
            record = (0, 0, 1)  # §2.4: an all-pass scores nothing, a tie
        for i, k in enumerate(record):
            won[i] += k
    # Match.winner: the winning seat (§12), or the winning team, which holds seat 0 or 1
    winner = None if match.winner is None else places[match.winner]
    totals = _bot_points(places, _per_seat(layout, match.score.totals))
    if not job.keep_records:
        return TableResult(totals, match.deals, (won[0], won[1], won[2]), winner)
    return TableResult(totals, match.deals, (won[0], won[1], won[2]), winner,
                       record=match.to_record(), seats=tuple(job.bots[p] for p in places))


def play_chunk(job: Chunk) -> list[BoardResult]:
    """Play boards ``job.start`` to ``job.stop - 1`` of one pairing, every table of each
    (two, or one a seat with three or two players).

    The unit of work of every runner (a worker process, a Ray task).
    """
    play = _play_deal_table if job.mode == "deals" else _play_game_table

    def table(board: int, index: int) -> TableResult:
        try:
            return play(job, board, index)
        except TournamentError:
            raise
        except Exception as exc:  # a bot's failure, reported with where it happened
            what = str(exc) if isinstance(exc, BeloteError) else (
                f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
            raise TournamentError(
                f"{job.where(board, index)}: {what}",
                traceback_text="".join(traceback.format_exception(exc)),
            ) from exc

    count = tables_per_board(job.rules.players)
    return [
        BoardResult(job.pairing, board, tuple(table(board, t) for t in range(count)))
        for board in range(job.start, job.stop)
    ]
