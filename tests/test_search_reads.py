"""The others' past cards read through a search of their own (``pimc:search_reads``,
:class:`belote.bots.solved_reading.SearchModel`) at two and three players (docs/rules.md
§6, §12): each card a seat chose with few tricks left is searched over deals drawn as
that seat's view then allowed them, and a card far below the best average is a miss."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from belote.bots import Bot, make_bot
from belote.bots.base import next_action
from belote.bots.card_score import world_state
from belote.bots.knowledge import World, infer
from belote.bots.pimc import PimcBot
from belote.bots.pimc_config import SETTINGS
from belote.bots.sampling import DealSampler
from belote.bots.solved_reading import SearchModel
from belote.cards import Card
from belote.round import PLAY, PlayerView
from belote.solver import SolveResult, solve
from belote.table import Table
from tests.helpers import RecordingHeuristic, bid_to_play, shuffled_rounds, world_behind

SMALL: list[tuple[str, dict[str, Any]]] = [
    ("classic-2p", {}),
    ("classic-3p", {}),
    ("classic-3p", {"three_deal": "kitty"}),
]
SMALL_IDS = ["2p-stock", "3p-24", "3p-kitty"]


def _turns(profile: str, options: dict[str, Any], deals: int, seed: int, left: int
           ) -> Iterator[tuple[PlayerView, World, list[tuple[PlayerView, Card]]]]:
    """The first turn with ``left`` tricks left in each of ``deals`` deals played by
    heuristic bots: the view, the real world behind it, and every card chosen before
    it with the view it was chosen in."""
    for rnd in shuffled_rounds(profile, options, deals, seed):
        rules = rnd.rules
        log: list[tuple[PlayerView, Card]] = []
        bots: list[Bot] = [RecordingHeuristic(s, log) for s in range(rules.players)]
        bid_to_play(rnd, bots)
        tricks = Table.of(rules).tricks
        while rnd.phase is PLAY:
            seat = rnd.current_player()
            view = rnd.view(seat)
            if tricks - len(view.tricks) == left:
                yield view, world_behind(rnd, seat), list(log)
                break
            rnd.apply(next_action(bots[seat], view))


def _reference_misses(view: PlayerView, log: list[tuple[PlayerView, Card]],
                      from_left: int, worlds: int, margin: float, seed: int) -> int:
    """The misses of the other seats' cards in the real deal, the slow way: each card a
    seat chose (more than one legal card) with at most ``from_left`` tricks left,
    searched from the very view it was chosen in (the round's own, not rebuilt) over
    ``worlds`` deals drawn from that view's knowledge (:func:`belote.bots.knowledge.infer`)
    in play order with one generator, each card's points for the seat's side summed and
    the best found by :meth:`belote.solver.SolveResult.ranked`."""
    table = Table.of(view.rules)
    rng = random.Random(seed)
    misses = 0
    for seen, card in log:
        if seen.seat == view.seat or table.tricks - len(seen.tricks) > from_left:
            continue
        if len(seen.legal_cards) < 2:
            continue
        sampler = DealSampler(infer(seen))
        totals: dict[Card, int] = {}
        for _ in range(worlds):
            result = solve(world_state(seen, sampler.sample(rng), table))
            for c, v in result.moves.items():
                totals[c] = totals.get(c, 0) + v
        assert seen.contract is not None
        maximize = table.sides(seen.contract.taker)[seen.seat] == 0
        best = SolveResult(0, totals, 0).ranked(maximize)[0]
        misses += abs(totals[best] - totals[card]) > margin * worlds
    return misses


@pytest.mark.parametrize(("profile", "options"), SMALL, ids=SMALL_IDS)
def test_misses_match_a_search_from_the_real_views(profile: str,
                                                   options: dict[str, Any]) -> None:
    """§6, §12: in the real deal, the misses counted from the views the model rebuilds
    are those of the same search run from the views the seats really had (same draws);
    over these deals some cards are read, some are misses and some are not."""
    read = missed = 0
    for view, world, log in _turns(profile, options, 6, 11, 3):
        for margin in (0.0, 4.0):
            model = SearchModel(view, [s for s in range(view.rules.players) if s != view.seat],
                                from_left=5, worlds=6, margin=margin, max_nodes=10**9,
                                rng=random.Random(5))
            got = model.misses(world, 99)
            assert got == _reference_misses(view, log, 5, 6, margin, 5), (view.seat, margin)
            read += model.nodes > 0
            missed += got
    assert read > 0 and missed > 0


def test_only_the_late_cards_are_read() -> None:
    """§12.2: ``from_left`` bounds the cards read: none yet when no other seat has played
    with that few tricks left; once one has, the model reads."""
    for view, _world, log in _turns("classic-2p", {}, 4, 3, 4):
        other = [v for v, _ in log if v.seat != view.seat]
        assert other
        late = [v for v in other if 9 - len(v.tricks) <= 5]
        model = SearchModel(view, [1 - view.seat], from_left=5, worlds=4, margin=0.0,
                            max_nodes=10**9, rng=random.Random(1))
        assert model.reads == bool(late)
        early = SearchModel(view, [1 - view.seat], from_left=1, worlds=4, margin=0.0,
                            max_nodes=10**9, rng=random.Random(1))
        assert not early.reads


def test_a_wide_margin_reads_no_miss() -> None:
    """A card is a miss only beyond the margin: with more than the deal's points no card
    ever is (§12.2, the stock)."""
    for view, world, _log in _turns("classic-2p", {}, 4, 7, 2):
        model = SearchModel(view, [1 - view.seat], from_left=9, worlds=4, margin=200.0,
                            max_nodes=10**9, rng=random.Random(2))
        assert model.misses(world, 99) == 0
        assert model.nodes > 0


def test_the_setting_is_off_by_default_and_reads_when_set() -> None:
    """``search_reads`` 1 (the default) reads nothing and searches nothing more; below 1
    the bot's card decisions with an earlier card of the opponent in the tricks read
    search it, and play a legal card (§6)."""
    assert SETTINGS["search_reads"].default == 1.0
    plain = make_bot("pimc", 4)
    reading = make_bot("pimc:search_reads=0.5,search_from=9", 4)
    assert isinstance(plain, PimcBot) and isinstance(reading, PimcBot)
    checked = 0
    for view, _world, _log in _turns("classic-2p", {}, 6, 21, 4):
        card = plain.play(view)
        assert card in view.legal_cards and plain.last_search_nodes == 0
        card = reading.play(view)
        assert card in view.legal_cards and reading.last_search_nodes > 0
        checked += 1
    assert checked >= 4  # (a deal all pass now and then: no card play)


def test_one_model_reads_every_world_as_a_fresh_one() -> None:
    """§12.1, the kitty: what a past view says of the hidden cards is kept between the
    worlds a model reads, never a world's own cards out of play (the taker's discards,
    which differ from world to world): one model over many worlds counts the misses of a
    fresh model for each."""
    bot = make_bot("pimc", 1)
    assert isinstance(bot, PimcBot)
    compared = 0
    for view, _world, _log in _turns("classic-3p", {"three_deal": "kitty"}, 6, 13, 4):
        assert view.contract is not None
        if view.contract.taker == view.seat:
            continue
        sampler = bot.sampler(view)
        assert sampler is not None
        worlds = [sampler.sample(random.Random(k)) for k in range(4)]
        assert len({w.out for w in worlds}) > 1  # (the discards differ between worlds)
        rng = random.Random()
        shared = SearchModel(view, [view.contract.taker], from_left=9, worlds=3, margin=0.0,
                             max_nodes=10**9, rng=rng)
        for k, w in enumerate(worlds):
            rng.seed(k)
            fresh = SearchModel(view, [view.contract.taker], from_left=9, worlds=3,
                                margin=0.0, max_nodes=10**9, rng=random.Random(k))
            assert shared.misses(w, 99) == fresh.misses(w, 99), k
        compared += 1
    assert compared >= 2
