"""Deal after deal between four bots: what ``belote simulate`` runs.

:func:`simulate` plays ``deals`` deals at one table, the dealer moving on as
in a game (RULES.md §2.1, §2.4 ``allpass_dealer``), each deck shuffled and cut
from one seeded generator (§2.2, §2.3; with ``shuffle_each_deal`` false the
previous deal's cards are gathered and only cut, as a table does).  The scores
add up as on a score sheet without a target: a litige reserve (§8.4) passes to
the next deal that is not tied.  All-passes count as deals played, with no score.
The same seed gives the same deals and the same result.

>>> from belote.options import make_rules
>>> out = simulate(make_rules(), ["random"] * 4, deals=5, seed=1)
>>> out.deals, out == simulate(make_rules(), ["random"] * 4, deals=5, seed=1)
(5, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from belote.bots.base import Bot, check_four_players, make_bot, play_deal
from belote.cards import Card
from belote.deal import cut, make_rng, new_deck, shuffle
from belote.options import Rules
from belote.play import TEAM_NAMES
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
    """What a simulation produced (``seconds`` is left out of equality)."""

    deals: int
    score: tuple[int, int]
    all_passes: int
    taken: tuple[int, int]  # contracts taken per team
    made: tuple[int, int]
    failed: tuple[int, int]
    litiges: int
    capots: tuple[int, int]
    reserve: int  # a litige reserve still open at the end
    bots: tuple[str, ...]
    seed: int | None
    seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, Any]:
        def teams(pair: tuple[int, int]) -> dict[str, int]:
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


def simulate(
    rules: Rules,
    bots: Sequence[str | Bot],
    deals: int,
    seed: int | None = None,
    first_dealer: int | None = None,
    on_deal: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``deals`` deals with ``bots`` (specs for :func:`make_bot`, or bots) at seats N E S W.

    ``on_deal(k)`` is called after each deal (``k`` deals done), for a progress bar.
    """
    check_four_players(rules)
    if len(bots) != 4:
        raise ValueError(f"simulate needs 4 bots (N E S W), got {len(bots)}")
    if deals < 0:
        raise ValueError(f"deals: {deals!r} is not a number of deals")
    seated: list[Bot] = [
        make_bot(b, bot_seed(seed, i)) if isinstance(b, str) else b for i, b in enumerate(bots)
    ]
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
