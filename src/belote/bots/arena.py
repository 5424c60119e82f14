"""Deal after deal between bots at one table: what ``belote simulate`` runs.

:func:`simulate` plays ``deals`` deals at one table, the dealer moving on as
in a game (RULES.md §2.1, §2.4 ``allpass_dealer``), each deck shuffled and cut
from one seeded generator (§2.2, §2.3; with ``shuffle_each_deal`` false the
previous deal's cards are gathered and only cut, as a table does).  The scores
add up as on a score sheet without a target: a litige reserve (§8.4) passes to
the next deal that is not tied.  All-passes count as deals played, with no score.
The same seed gives the same deals and the same result.

Belote for three and two players (RULES.md §12, profiles ``classic-3p`` and
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
from typing import Any

from belote.bots.base import Bot, check_table, play_deal
from belote.bots.registry import make_bot
from belote.cards import Card
from belote.deal import cut, make_rng, new_deck, shuffle
from belote.options import Rules
from belote.play import SEAT_NAMES, TEAM_NAMES
from belote.round import ALL_PASS, Round
from belote.scoring import GameTally

__all__ = ["SimulationResult", "bot_seed", "simulate"]

# A target no score reaches: the tally never ends the game.
_NO_TARGET = 1 << 62


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
        """CONTRACT.md ``belote simulate --json``.  Three and two players add to it:
        ``"players"``, every per-team object keyed by seat instead (``"score": {"N": ..,
        "E": .., "S": ..}``), and ``"counted"``."""
        if self.players != 4:
            return self._small_json()

        def teams(pair: tuple[int, ...]) -> dict[str, int]:
            return {TEAM_NAMES[0]: pair[0], TEAM_NAMES[1]: pair[1]}

        return {
            "deals": self.deals,
            "seconds": round(self.seconds, 3),
            "score": teams(self.score),
            "all_passes": self.all_passes,
            "taken": teams(self.taken),
            "made": teams(self.made),
            "failed": teams(self.failed),
            "litiges": self.litiges,
            "capots": teams(self.capots),
            "reserve": self.reserve,
            "bots": {seat: name for seat, name in zip("NESW", self.bots, strict=True)},
            "seed": self.seed,
        }

    def _small_json(self) -> dict[str, Any]:
        names = SEAT_NAMES[:self.players]

        def seats(values: tuple[int, ...]) -> dict[str, int]:
            return dict(zip(names, values, strict=True))

        return {
            "deals": self.deals,
            "seconds": round(self.seconds, 3),
            "players": self.players,
            "score": seats(self.score),
            "all_passes": self.all_passes,
            "taken": seats(self.taken),
            "made": seats(self.made),
            "failed": seats(self.failed),
            "litiges": self.litiges,
            "counted": self.counted,
            "capots": seats(self.capots),
            "reserve": self.reserve,
            "bots": dict(zip(names, self.bots, strict=True)),
            "seed": self.seed,
        }


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
    check_table(rules, seated, "simulate")
    if rules.players != 4:
        return _simulate_small(rules, seated, deals, seed, first_dealer, on_deal)
    rng: random.Random = make_rng(seed)
    dealer = first_dealer if first_dealer is not None else rng.randrange(4)
    pack: list[Card] = new_deck()
    shuffle(pack, rng)
    tally = GameTally(rules, _NO_TARGET)
    all_passes = litiges = 0
    taken, made, failed, capots = [0, 0], [0, 0], [0, 0], [0, 0]
    start = time.perf_counter()
    for k in range(deals):
        deck = list(pack)
        if rules.shuffle_each_deal:
            shuffle(deck, rng)
        deck = cut(deck, rng, rules.min_cut)
        rnd = Round(rules, dealer, deck, reserve=tally.reserve)
        play_deal(rnd, seated)
        if rnd.phase == ALL_PASS:
            all_passes += 1
            tally.add_all_pass()
            pack = [c for h in rnd.hands for c in range(32) if h >> c & 1]
            if rnd.first is not None:
                pack += [*rnd.first.stock, rnd.first.turned]
            if rules.allpass_dealer == "next":
                dealer = (dealer + 1) & 3
        else:
            result = rnd.result()
            hand = tally.add(result.entry)
            team = result.contract.team
            taken[team] += 1
            if hand.outcome == "made":
                made[team] += 1
            elif hand.outcome == "failed":
                failed[team] += 1
            else:
                litiges += 1
            if result.capot is not None:
                capots[result.capot] += 1
            pack = [c for t in result.tricks for c in t.cards]
            dealer = (dealer + 1) & 3
        if on_deal is not None:
            on_deal(k + 1)
    return SimulationResult(
        deals=deals,
        score=tally.totals,
        all_passes=all_passes,
        taken=(taken[0], taken[1]),
        made=(made[0], made[1]),
        failed=(failed[0], failed[1]),
        litiges=litiges,
        capots=(capots[0], capots[1]),
        reserve=tally.reserve,
        bots=tuple(b.name for b in seated),
        seed=seed,
        seconds=time.perf_counter() - start,
    )


def _simulate_small(
    rules: Rules,
    seated: Sequence[Bot],
    deals: int,
    seed: int | None,
    first_dealer: int | None,
    on_deal: Callable[[int], None] | None,
) -> SimulationResult:
    """Three or two players (§12): each seat's own score, deal after deal."""
    n = rules.players
    rng: random.Random = make_rng(seed)
    dealer = first_dealer if first_dealer is not None else rng.randrange(n)
    pack: list[Card] = new_deck(n, rules.three_deal)
    shuffle(pack, rng)
    score = [0] * n
    taken, made, failed, capots = [0] * n, [0] * n, [0] * n, [0] * n
    all_passes = litiges = counted = reserve = 0
    start = time.perf_counter()
    for k in range(deals):
        deck = list(pack)
        if rules.shuffle_each_deal:
            shuffle(deck, rng)
        deck = cut(deck, rng, rules.min_cut)
        rnd = Round(rules, dealer, deck, reserve=reserve)
        play_deal(rnd, seated)
        if rnd.phase == ALL_PASS:
            all_passes += 1
            pack = list(rnd.deck)  # §2.4: the cards are gathered as they lie
            if rules.allpass_dealer == "next":
                dealer = (dealer + 1) % n
        else:
            result = rnd.result()
            assert result.seats is not None
            for s in range(n):
                score[s] += result.seats[s]
            reserve = result.score.reserve
            outcome = result.score.outcome
            taker = result.contract.taker
            teams = result.contract.teams()
            if outcome == "counted":
                counted += 1
            else:
                taken[taker] += 1
                if outcome == "made":
                    made[taker] += 1
                elif outcome == "failed":
                    failed[taker] += 1
                else:
                    litiges += 1
            if result.capot is not None:
                for s in range(n):
                    capots[s] += teams[s] == result.capot
            played = [c for t in result.tricks for c in t.cards]
            gone = set(played)
            pack = played + [c for c in rnd.deck if c not in gone]
            if rnd.mode == "decouverte" and result.seats[0] != result.seats[1]:
                dealer = 0 if result.seats[0] > result.seats[1] else 1  # §12.2
            else:
                dealer = (dealer + 1) % n
        if on_deal is not None:
            on_deal(k + 1)
    return SimulationResult(
        deals=deals, score=tuple(score), all_passes=all_passes, taken=tuple(taken),
        made=tuple(made), failed=tuple(failed), litiges=litiges, capots=tuple(capots),
        reserve=reserve, bots=tuple(b.name for b in seated), seed=seed,
        seconds=time.perf_counter() - start, players=n, counted=counted,
    )
