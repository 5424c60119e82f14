"""Belote at three with the kitty (docs/rules.md §12.1): a defender's worlds read the
taker's two cards aside as the discard rule's (``pimc:kitty_read=rule``,
:class:`belote.bots.sampling.DiscardReadSampler`), checked against the real deals and
against a slow reference (uniform deals kept when the rule lays their two aside).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from belote.bots import Bot, make_bot
from belote.bots.base import next_action, played_by
from belote.bots.knowledge import Knowledge, World, infer
from belote.bots.pimc import PimcBot
from belote.bots.pimc_config import KittyRead, PimcConfig
from belote.bots.sampling import DealSampler, DiscardReadSampler
from belote.cards import Card, scan_forward
from belote.deal import new_deck
from belote.options import make_rules
from belote.round import PLAY, PlayerView, Round
from tests.helpers import bid_to_play, world_behind, worlds_solved

KITTY = make_rules("classic-3p", {"three_deal": "kitty"})


def _defenders_turns(bots: list[Bot], deals: int, seed: int
                     ) -> Iterator[tuple[Round, PlayerView]]:
    """Each defender's turn in the card play of ``deals`` kitty deals played by ``bots``
    (the round and the defender's view; the deal goes on when the caller resumes)."""
    rng = random.Random(seed)
    for d in range(deals):
        deck = new_deck(3, KITTY.three_deal)
        rng.shuffle(deck)
        rnd = Round(KITTY, d % 3, deck)
        bid_to_play(rnd, bots)
        while rnd.phase is PLAY:
            seat = rnd.current_player()
            view = rnd.view(seat)
            assert view.contract is not None
            if seat != view.contract.taker:
                yield rnd, view
            rnd.apply(next_action(bots[seat], view))


def _reader(view: PlayerView, tries: int = 64) -> tuple[Knowledge, DiscardReadSampler]:
    assert view.contract is not None
    k = infer(view)
    taker = view.contract.taker
    return k, DiscardReadSampler(DealSampler(k), taker, played_by(view)[taker],
                                 view.contract.trump, tries)


def test_the_true_deal_fits_and_every_world_is_the_rules() -> None:
    """Heuristic players (their discard is the rule's): at every defender's turn the
    real deal is one of the model's worlds, and every world drawn is allowed by what
    the defender knows (its cards, the cards played, the voids, the declarations shown
    and belote said) with the two aside the rule's from the taker's twelve, unless the
    rule's draws fell back to the uniform one (rarely: the turn is counted)."""
    bots: list[Bot] = [make_bot("heuristic", seed=s) for s in range(3)]
    rng = random.Random(5)
    turns = said = fell = 0
    for rnd, view in _defenders_turns(bots, 40, seed=11):
        k, reader = _reader(view)
        assert reader.fits(world_behind(rnd, view.seat))
        for _ in range(8):
            world = reader.sample(rng)
            assert reader.fits(world) if not reader.fallbacks else k.allows(world)
        assert reader.kept + reader.fallbacks == 8
        turns += 1
        fell += reader.fallbacks > 0
        said += bool(k.known[reader.taker])
    assert turns > 300 and said > 0  # (some turns knew a card of the taker's hand)
    assert fell <= turns // 100


def test_the_uniform_worlds_do_not_read_the_discard() -> None:
    """The same turns with the uniform draw (:class:`DealSampler`): its worlds' two aside
    are mostly not the rule's (what the reading changes)."""
    bots: list[Bot] = [make_bot("heuristic", seed=s) for s in range(3)]
    rng = random.Random(5)
    fit = drawn = 0
    for _, view in _defenders_turns(bots, 10, seed=11):
        k, reader = _reader(view)
        uniform = DealSampler(k)
        for _ in range(4):
            fit += reader.fits(uniform.sample(rng))
            drawn += 1
    assert drawn > 50 and 4 * fit < drawn


def _reference(k: Knowledge, reader: DiscardReadSampler, rng: random.Random) -> World:
    """The slow reference: uniform deals of what the seat knows, until one whose two aside
    are the rule's (exact for the model: each twelve is as likely, and one split of it
    fits the rule)."""
    uniform = DealSampler(k)
    while True:
        world = uniform.sample(rng)
        if reader.fits(world):
            return world


def test_the_reads_match_the_slow_reference() -> None:
    """Late turns (two to four tricks left), where the aside is uncertain: how often each
    card lies aside, and in the taker's hand, over 1,500 worlds of the sampler and of
    the reference, alike within 0.08 (a few standard errors of 0.018)."""
    bots: list[Bot] = [make_bot("heuristic", seed=s) for s in range(3)]
    rng = random.Random(9)
    compared = 0
    for _, view in _defenders_turns(bots, 12, seed=3):
        if not 2 <= 10 - len(view.tricks) <= 4 or view.trick:
            continue
        k, reader = _reader(view)
        taker = reader.taker
        n = 1500
        fast: Counter[tuple[str, Card]] = Counter()
        slow: Counter[tuple[str, Card]] = Counter()
        for counts, slowly in ((fast, False), (slow, True)):
            for _ in range(n):
                world = _reference(k, reader, rng) if slowly else reader.sample(rng)
                for c in scan_forward(world.out):
                    counts["aside", c] += 1
                for c in scan_forward(world.hands[taker]):
                    counts["hand", c] += 1
        assert reader.fallbacks == 0
        for key in fast.keys() | slow.keys():
            assert abs(fast[key] - slow[key]) / n < 0.08, (key, fast[key], slow[key])
        compared += 1
        if compared == 4:
            break
    assert compared == 4


def test_past_its_tries_the_sampler_draws_uniform_and_counts_it() -> None:
    """No draw allowed (``tries=0``): every world is the uniform draw's, counted."""
    bots: list[Bot] = [make_bot("heuristic", seed=s) for s in range(3)]
    rng = random.Random(1)
    _, view = next(_defenders_turns(bots, 1, seed=2))
    k, reader = _reader(view, tries=0)
    worlds = [reader.sample(rng) for _ in range(5)]
    assert all(k.allows(w) for w in worlds)
    assert reader.fallbacks == 5 and reader.kept == 0 and reader.draws == 0


def test_pimc_defends_on_worlds_that_read_the_discard(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``kitty_read=rule``: every world a defender solves lays aside the rule's two cards
    (with ``uniform`` some do not); the taker's own worlds are drawn as before."""
    bots: list[Bot] = [make_bot("heuristic", seed=s) for s in range(3)]
    checked = 0
    for _, view in _defenders_turns(bots, 20, seed=4):
        if not 1 <= len(view.tricks) <= 3:
            continue
        _, reader = _reader(view)
        # the worlds as drawn (card_reads=ignore: the three players' default weighs them
        # by the card model since small-tables-dev-18)
        spec = "pimc:worlds=12,nodes=50000000,play_calls=ignore,card_reads=ignore,kitty_read="
        reading, blind = make_bot(spec + "rule", seed=1), make_bot(spec + "uniform", seed=1)
        assert isinstance(reading, PimcBot) and isinstance(blind, PimcBot)
        assert isinstance(reading.sampler(view), DiscardReadSampler)
        assert type(blind.sampler(view)) is DealSampler
        solved = worlds_solved(reading, view, monkeypatch)
        assert len(solved) == 12 and reading.last_kitty_kept == 12
        assert all(reader.fits(w) for w in solved)
        assert not all(reader.fits(w) for w in worlds_solved(blind, view, monkeypatch))
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_the_reading_is_a_kitty_defenders_only() -> None:
    """The taker (who knows his discard) and the other deals draw as before."""
    bot = make_bot("pimc:kitty_read=rule", seed=0)
    assert isinstance(bot, PimcBot)
    heuristic: list[Bot] = [make_bot("heuristic", seed=s) for s in range(3)]
    for rules in (KITTY, make_rules("classic-3p", {})):
        rng = random.Random(6)
        deck = new_deck(3, rules.three_deal)
        for _ in range(20):
            rng.shuffle(deck)
            rnd = Round(rules, 0, deck)
            bid_to_play(rnd, heuristic)
            if rnd.phase is PLAY:
                break
        assert rnd.contract is not None
        view = rnd.view(rnd.contract.taker)
        assert type(bot.sampler(view)) is DealSampler
        if rules is not KITTY:
            defender = next(s for s in range(3) if s != rnd.contract.taker)
            assert type(bot.sampler(rnd.view(defender))) is DealSampler


def test_the_setting() -> None:
    assert PimcConfig.of().kitty_read is KittyRead.RULE
    bot = make_bot("pimc", seed=0)
    assert isinstance(bot, PimcBot) and bot.small_configs[3].kitty_read is KittyRead.RULE
    assert PimcConfig.of({"kitty_read": "rule"}).kitty_read is KittyRead.RULE
    assert PimcConfig.of({"preset": "v1"}).kitty_read is KittyRead.UNIFORM
