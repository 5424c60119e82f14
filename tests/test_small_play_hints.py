"""The calls read in the card play at three and two players (docs/rules.md §3.2–§3.4,
§12): :func:`belote.bots.small_bid.play_hints`, checked against a slow exact count of the
first hands each world allows, on deals the heuristic bid, and the PIMC bot's worlds
with ``play_calls=hints`` against those it solves without."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from belote.bots import Bot, make_bot
from belote.bots.base import played_by
from belote.bots.heuristic import SMALL_TAKE, small_call
from belote.bots.knowledge import World
from belote.bots.pimc import PimcBot
from belote.bots.pimc_config import CallReading
from belote.bots.small_bid import PlayHint, deal_of, play_hints
from belote.cards import SUIT_LETTERS, Card, CardMask, mask_of, scan_forward, suit_of
from belote.deal import new_deck
from belote.options import Rules, ThreeDeal, TwoDeal, make_rules
from belote.round import PLAY, PlayerView, Round
from tests.helpers import bid_to_play, world_behind, worlds_solved

MODES: list[tuple[str, dict[str, Any]]] = [
    ("classic-3p", {}),
    ("classic-3p", {"three_deal": "kitty"}),
    ("classic-3p", {"three_deal": "six_each"}),
    ("classic-2p", {}),
]
MODE_IDS = ["24_cards", "kitty", "six_each", "stock"]


def _pool(hint: PlayHint, world: World, before: list[CardMask], turned: Card | None) -> list[Card]:
    full = world.hands[hint.seat] | before[hint.seat] | (world.out if hint.with_out else 0)
    if turned is not None:
        full &= ~(1 << turned)
    return list(scan_forward(full))


def _chance(hint: PlayHint, world: World, before: list[CardMask], turned: Card | None,
            mode: ThreeDeal | TwoDeal, need: int) -> float:
    """The slow reference: the share of the seat's possible first hands in ``world``
    (every ``first`` of its cards) with which the heuristic makes every call it made."""
    pool = _pool(hint, world, before, turned)
    hands = [mask_of(h) for h in itertools.combinations(pool, hint.first)]
    fit = sum(1 for h in hands
              if all(small_call(h, turned, calls, mode, need) == call
                     for calls, call in hint.said))
    return fit / len(hands)


def _bid_by_heuristic(rules: Rules, seed: int) -> tuple[Round, list[CardMask]] | None:
    """A seeded deal bid by the heuristic to its card play, with each seat's first hand
    (the cards dealt before the bidding); None when everybody passed."""
    deck = new_deck(rules.players, rules.three_deal)
    random.Random(seed).shuffle(deck)
    rnd = Round(rules, seed % rules.players, deck)
    first = list(rnd.hands)
    bots: list[Bot] = [make_bot("heuristic", seed + s) for s in range(rules.players)]
    bid_to_play(rnd, bots)
    return (rnd, first) if rnd.phase == PLAY else None


@pytest.mark.parametrize("mode", range(len(MODES)), ids=MODE_IDS)
def test_12_play_hints_hold_for_the_true_deal_and_draw_the_exact_chance(mode: int) -> None:
    """On deals the heuristic bid, at cards all along the play: each other seat that
    called has a hint naming its calls in order; its real first hand is among the hands
    the hint draws from and makes every call it made (so the true deal is always
    possible); and the hint keeps a world as often as the exact share of its first hands
    that fit (the slow reference, within sampling error)."""
    profile, options = MODES[mode]
    rules = make_rules(profile, options)
    rng = random.Random(mode)
    checked = drawn = 0
    for seed in range(40):
        got = _bid_by_heuristic(rules, 500 + seed)
        if got is None:
            continue
        rnd, first = got
        play = random.Random(seed)
        while rnd.phase == PLAY:
            seat = rnd.current_player()
            view = rnd.view(seat)
            hints = play_hints(view)
            callers = sorted({c.seat for c in view.calls if c.seat != seat})
            assert [h.seat for h in hints] == callers
            world = world_behind(rnd, seat)
            before = played_by(view)
            mode_of, need = deal_of(view), SMALL_TAKE[deal_of(view)]
            for h in hints:
                assert h.said == tuple(_said(view, h.seat))
                pool = _pool(h, world, before, view.turned)
                assert first[h.seat] & ~mask_of(pool) == 0 and len(pool) >= h.first
                assert all(small_call(first[h.seat], view.turned, calls, mode_of, need) == call
                           for calls, call in h.said)
                checked += 1
                if len(view.tricks) == 0 and drawn < 6:  # (the draws: a few, they are slow)
                    exact = _chance(h, world, before, view.turned, mode_of, need)
                    assert exact > 0
                    kept = sum(h.fits(world, before, view.turned, mode_of, need, rng)
                               for _ in range(400)) / 400
                    assert abs(kept - exact) < 0.1, (exact, kept)
                    drawn += 1
            rnd.play_card(play.choice(rnd.legal_cards()))
    assert checked > 100 and drawn == 6


def _said(view: PlayerView, seat: int) -> list[tuple[tuple[str, ...], str]]:
    """A seat's calls with the calls legal then, read from the rules (§3.2, §3.3,
    §12.1): take or pass while the turned card is on offer in the first round; then
    a suit other than the turned card's, or pass; the kitty deal names any suit."""
    out: list[tuple[tuple[str, ...], str]] = []
    for i, c in enumerate(view.calls):
        if c.seat != seat:
            continue
        if view.turned is not None and i < view.rules.players:
            out.append((("pass", "take"), c.call))
        else:
            suits = tuple(SUIT_LETTERS[s] for s in range(4)
                          if view.turned is None or s != suit_of(view.turned))
            out.append((("pass", *suits), c.call))
    return out


@pytest.mark.parametrize("profile", ["classic-3p", "classic-2p"], ids=["24_cards", "stock"])
def test_12_small_pimc_reads_the_calls_in_the_card_play(
        profile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three players with 24 cards and two players with the stock, the first card of a
    seat that did not take after the heuristic took: by default (``play_calls=hints`` at
    three and at two players) every world the bot solves gives each other seat first
    cards with which the heuristic makes its calls (worlds were drawn and left); with
    ``play_calls=ignore`` (the default at two players until small-tables-dev-28, at three
    until small-tables-dev-6) some world it solves gives the taker no hand the heuristic
    takes with."""
    bot = make_bot("pimc")
    assert isinstance(bot, PimcBot)
    assert bot.small_configs[3].play_calls is CallReading.HINTS
    assert bot.small_configs[2].play_calls is CallReading.HINTS
    rules = make_rules(profile, {})
    found = 0
    for seed in range(60):
        got = _bid_by_heuristic(rules, 900 + seed)
        if got is None:
            continue
        rnd, _ = got
        assert rnd.contract is not None
        defender = next(s for s in range(rules.players) if s != rnd.contract.taker)
        while rnd.current_player() != defender:
            rnd.play_card(rnd.legal_cards()[0])
        view = rnd.view(defender)
        before = played_by(view)
        hints = play_hints(view)
        mode = deal_of(view)
        need = SMALL_TAKE[mode]

        def possible(world: World, hints: tuple[PlayHint, ...] = hints,
                     view: PlayerView = view, before: list[CardMask] = before,
                     mode: ThreeDeal | TwoDeal = mode, need: int = need) -> bool:
            return all(_chance(h, world, before, view.turned, mode, need) > 0 for h in hints)

        # the worlds as drawn (card_reads=ignore: both tables' defaults read the cards
        # played too, weighing the worlds drawn)
        reading = make_bot("pimc:worlds=12,nodes=50000000,card_reads=ignore", seed=seed)
        ignoring = make_bot("pimc:worlds=12,nodes=50000000,play_calls=ignore,"
                            "card_reads=ignore", seed=seed)
        assert isinstance(reading, PimcBot) and isinstance(ignoring, PimcBot)
        solved = worlds_solved(reading, view, monkeypatch)
        assert len(solved) == 12 and not reading.last_relaxed
        assert all(possible(w) for w in solved)
        blind = worlds_solved(ignoring, view, monkeypatch)
        assert ignoring.last_rejected == 0
        if reading.last_rejected and not all(possible(w) for w in blind):
            found += 1
        if found == 3:
            break
    assert found == 3
