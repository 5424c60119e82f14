"""Deal after deal between bots at one table: what ``belote simulate`` runs.

:func:`simulate` plays ``deals`` deals at one table, the dealer moving on as
in a game (docs/rules.md §2.1, §2.4 ``allpass_dealer``), each deck shuffled and cut
from one seeded generator (§2.2, §2.3; with ``shuffle_each_deal`` false the
previous deal's cards are gathered and only cut, as a table does).  The scores
add up as on a score sheet without a target: a litige reserve (§8.4) passes to
the next deal that is not tied.  All-passes count as deals played, with no score.
The same seed gives the same deals and the same result.

Belote for three and two players (docs/rules.md §12, profiles ``classic-3p`` and
``classic-2p``) seats three or two bots, N E S or N E, and adds up each seat's
own score (:attr:`~belote.hand.HandResult.seats`); belote découverte's hand
winner deals the next deal (§12.2).  Their JSON gives per-seat results instead
of the two teams' (see :meth:`SimulationResult.to_json`).

>>> from belote.options import make_rules
>>> out = simulate(make_rules(), ["random"] * 4, deals=5, seed=1)
>>> out.deals, out == simulate(make_rules(), ["random"] * 4, deals=5, seed=1)
(5, True)
>>> small = simulate(make_rules("classic-3p"), ["heuristic", "random", "random"], 4, seed=2)
>>> sorted(small.to_json()["score"])
['E', 'N', 'S']
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from belote.bots.base import Bot, check_table, play_deal
from belote.bots.registry import make_bot
from belote.cards import Card, scan_forward
from belote.deal import cut, make_rng, new_deck, shuffle
from belote.hand import HandResult
from belote.options import AllpassDealer, Rules
from belote.play import SEAT_NAMES, TEAM_NAMES
from belote.round import ALL_PASS, Round
from belote.scoring import Outcome
from belote.table import DealMode, Table

__all__ = ["SimulationResult", "bot_seed", "simulate"]

_DECOUVERTE: Final = DealMode.DECOUVERTE  # (read once: a member read from its class is slow)
_COUNTED: Final = Outcome.COUNTED
_MADE: Final = Outcome.MADE
_FAILED: Final = Outcome.FAILED


def bot_seed(seed: int | None, seat: int) -> int | None:
    """The seed of the bot at ``seat`` in a simulation seeded by ``seed``."""
    return None if seed is None else seed * 4 + seat


@dataclass(frozen=True)
class SimulationResult:
    """What a simulation produced (``seconds`` is left out of equality).

    Four players: ``score``, ``taken``, ``made``, ``failed`` and ``capots`` per team
    (NS, EW).  Three or two (§12): per seat (N E S, or N E): the seat's score, the
    contracts it took, made and failed as taker, the capots its side made, and
    ``counted`` the belote découverte deals (no contract, §12.2).
    """

    deals: int
    score: tuple[int, ...]
    all_passes: int
    taken: tuple[int, ...]  # contracts taken per team (per seat at small tables)
    made: tuple[int, ...]
    failed: tuple[int, ...]
    litiges: int
    capots: tuple[int, ...]
    reserve: int  # a litige reserve still open at the end
    bots: tuple[str, ...]
    seed: int | None
    seconds: float = field(default=0.0, compare=False)
    players: int = 4
    counted: int = 0

    def to_json(self) -> dict[str, Any]:
        """docs/json.md ``belote simulate``.  Three and two players add to it:
        ``"players"``, every per-team object keyed by seat instead (``"score": {"N": ..,
        "E": .., "S": ..}``), and ``"counted"``."""
        per_seat = Table.seated(self.players).scores_per_seat
        columns = _column_names(self.players)

        def keyed(values: tuple[int, ...]) -> dict[str, int]:
            return dict(zip(columns, values, strict=True))

        return {
            "deals": self.deals,
            "seconds": round(self.seconds, 3),
            **({"players": self.players} if per_seat else {}),
            "score": keyed(self.score),
            "all_passes": self.all_passes,
            "taken": keyed(self.taken),
            "made": keyed(self.made),
            "failed": keyed(self.failed),
            "litiges": self.litiges,
            **({"counted": self.counted} if per_seat else {}),
            "capots": keyed(self.capots),
            "reserve": self.reserve,
            "bots": dict(zip(SEAT_NAMES[:self.players], self.bots, strict=True)),
            "seed": self.seed,
        }


def _column_names(players: int) -> tuple[str, ...]:
    """The score's columns: the two teams (NS, EW), or each seat at three and two (§12)."""
    return tuple(SEAT_NAMES[:players]) if Table.seated(players).scores_per_seat else TEAM_NAMES


def _gathered(rnd: Round) -> list[Card]:
    """The pack after an all-pass (§2.4), gathered as the table does: four players pick
    up each hand in turn, the stock and the turned card on top; at three and two the
    cards are gathered as they lie (the deck as dealt)."""
    if rnd.table.scores_per_seat:
        return list(rnd.deck)
    pack = [c for h in rnd.hands for c in scan_forward(h)]
    if rnd.first is not None:
        pack += [*rnd.first.stock, rnd.first.turned]
    return pack


class _Tally:
    """What the deals of a simulation add up to, column by column of the score (the two
    teams, or each seat at three and two, §12)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.column = tuple(table.score_column(s) for s in table.seats)
        width = max(self.column) + 1
        self.score, self.taken, self.made, self.failed, self.capots = (
            [0] * width for _ in range(5))
        self.all_passes = self.litiges = self.counted = self.reserve = 0

    def add(self, result: HandResult) -> None:
        """A deal played out: its score, what became of the contract, a capot."""
        hand = result.score
        for c, points in enumerate(hand.score if result.seats is None else result.seats):
            self.score[c] += points
        self.reserve = hand.reserve
        outcome = hand.outcome
        if outcome is _COUNTED:  # découverte: no contract (§12.2)
            self.counted += 1
        else:
            taker = self.column[result.contract.taker]
            self.taken[taker] += 1
            if outcome is _MADE:
                self.made[taker] += 1
            elif outcome is _FAILED:
                self.failed[taker] += 1
            else:
                self.litiges += 1
        if result.capot is not None:
            sides = result.contract.teams()
            for c in {self.column[s] for s in self.table.seats if sides[s] == result.capot}:
                self.capots[c] += 1


def simulate(
    rules: Rules,
    bots: Sequence[str | Bot],
    deals: int,
    seed: int | None = None,
    first_dealer: int | None = None,
    on_deal: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``deals`` deals with ``bots`` (specs for :func:`make_bot`, or bots) at seats N E S W
    (N E S with three players, N E with two).

    ``on_deal(k)`` is called after each deal (``k`` deals done), for a progress bar.
    """
    if deals < 0:
        raise ValueError(f"deals: {deals!r} is not a number of deals")
    check_table(rules, bots, "simulate")
    seated: list[Bot] = [
        make_bot(b, bot_seed(seed, i)) if isinstance(b, str) else b for i, b in enumerate(bots)
    ]
    table = Table.of(rules)
    tally = _Tally(table)
    rng: random.Random = make_rng(seed)
    dealer = first_dealer if first_dealer is not None else rng.randrange(table.players)
    pack: list[Card] = new_deck(table.players, rules.three_deal)
    shuffle(pack, rng)
    start = time.perf_counter()
    for k in range(deals):
        deck = list(pack)
        if rules.shuffle_each_deal:
            shuffle(deck, rng)
        deck = cut(deck, rng, rules.min_cut)
        rnd = Round(rules, dealer, deck, reserve=tally.reserve)
        play_deal(rnd, seated)
        if rnd.phase is ALL_PASS:
            tally.all_passes += 1  # §2.4: no score, the reserve waits for the next deal
            pack = _gathered(rnd)
            if rules.allpass_dealer is AllpassDealer.NEXT:
                dealer = table.next(dealer)
        else:
            result = rnd.result()
            tally.add(result)
            pack = rnd.cards_played()  # (the tricks' cards, in play order)
            if len(pack) < len(rnd.deck):  # §12: the cards left out go under, as dealt
                gone = set(pack)
                pack += [c for c in rnd.deck if c not in gone]
            seats = result.seats
            if rnd.mode is _DECOUVERTE and seats is not None and seats[0] != seats[1]:
                dealer = 0 if seats[0] > seats[1] else 1  # §12.2: the hand's winner deals
            else:
                dealer = table.next(dealer)
        if on_deal is not None:
            on_deal(k + 1)
    return SimulationResult(
        deals=deals, score=tuple(tally.score), all_passes=tally.all_passes,
        taken=tuple(tally.taken), made=tuple(tally.made), failed=tuple(tally.failed),
        litiges=tally.litiges, capots=tuple(tally.capots), reserve=tally.reserve,
        bots=tuple(b.name for b in seated), seed=seed, seconds=time.perf_counter() - start,
        players=table.players, counted=tally.counted,
    )
