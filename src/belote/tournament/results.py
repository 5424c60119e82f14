"""What a tournament produced: each pairing's record and statistics, the Elo ladder,
and the JSON answer of ``belote tournament`` (docs/json.md).

Statistics are from the first bot's side of each pairing, a tie counting half: win
rates with a 95% Wilson interval, mean points per deal with a normal 95% interval
over boards (the board being the independent unit of a duplicate tournament), and
an Elo ladder fitted to every game (games mode) or board (deals mode), anchored so
that ``random`` (or else the first bot) stands at 0.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from belote.tournament.config import TournamentConfig, TournamentError
from belote.tournament.play import BoardResult, TableResult
from belote.tournament.seeding import tables_per_board
from belote.tournament.stats import Estimate, fit_elo, mean_estimate, rate_estimate

__all__ = ["EloEntry", "PairingResult", "Record", "TournamentResult", "summarize"]


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
    """A bot's place on the Elo ladder."""

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
    # with keep_records: each table ((pairing, board, table), its result with its
    # record), in order; not part of the JSON answer
    tables: tuple[tuple[tuple[int, int, int], TableResult], ...] = field(
        default=(), compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        small: dict[str, Any] = {}
        table = self.config.table
        if not table.partnerships:
            players = table.players
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
