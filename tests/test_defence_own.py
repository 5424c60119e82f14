"""A defender at three players plays for his own points (``pimc:defence=own``, §12.1).

Each defender scores his own trick points and half the rest of the side's score; the
card play solves side against side.  With ``defence=own`` the side's value stays the
first criterion and, among the cards equal for the side, the defender plays the one
whose trick brings him the most of his own points
(:class:`belote.bots.card_score.TrickShare`); the taker plays as before.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from belote.bots import make_bot
from belote.bots.card_score import TrickShare, world_state
from belote.bots.heuristic import HeuristicBot
from belote.bots.knowledge import World, infer
from belote.bots.pimc import PimcBot
from belote.bots.pimc_config import Defence, PimcConfig
from belote.bots.sampling import DealSampler
from belote.cards import card_name, parse_card, scan_forward
from belote.deal import new_deck
from belote.errors import OptionError
from belote.options import Rules, make_rules
from belote.play import PlayState, card_points
from belote.round import PLAY, PlayerView, Round
from belote.table import Table
from tests.helpers import bid_to_play, world_behind

DEALS: tuple[dict[str, Any], ...] = ({}, {"three_deal": "kitty"}, {"three_deal": "six_each"})


def _round(rules: Rules, seed: int) -> tuple[Round, list[HeuristicBot]]:
    deck = new_deck(rules.players, rules.three_deal)
    random.Random(seed).shuffle(deck)
    rnd = Round(rules, 0, deck)
    bots = [HeuristicBot(seed + s) for s in range(rules.players)]
    bid_to_play(rnd, bots)
    return rnd, bots


def _ace_round() -> Round:
    """24 cards, E (seat 1) defends against N's contract; six tricks played, S (the other
    defender) leads T♠, N follows Q♠; E, last, holds K♠ and A♠: the two are equal for the
    side (one trick is left, which the side's value counts whoever of the two wins this
    one), and only the ace wins this trick for E."""
    rnd, _ = _round(make_rules("classic-3p", {}), 538)
    played = "AC JC QD JD 9S KD JH KH AH QC AD 9C TH 9H TD TC JS KC TS QS"
    for t in played.split():
        rnd.play_card(parse_card(t))
    return rnd


def test_12_1_defence_own_wins_the_trick_among_cards_equal_for_the_side() -> None:
    rnd = _ace_round()
    view = rnd.view(1)
    assert view.contract is not None and view.contract.taker == 0
    ace, king = parse_card("AS"), parse_card("KS")
    assert set(view.legal_cards) == {ace, king}
    side, own = PimcBot(0, defence="side"), PimcBot(0, defence="own", own_margin=0)
    assert card_name(side.play(view)) == "KS"  # (equal for the side: the lower card)
    assert card_name(own.play(view)) == "AS"
    assert own.last_values == side.last_values
    assert own.last_values[ace] == own.last_values[king]
    # E completes the trick: the ace wins T♠ and Q♠ for him (13), the king feeds its 4
    # and the taker's queen to S's ten (-7), in every world
    assert own.last_own == {ace: 13.0, king: -7.0}
    assert side.last_own == {}


def test_choose_card_keeps_the_sides_value_first() -> None:
    """The side's value decides first; the own points only among the cards within
    ``margin`` of the best (0: exact ties), then the value, then the lower card."""
    values = {1: 10.0, 2: 10.0, 3: 9.5, 4: 3.0}
    own = {1: -5.0, 2: 4.0, 3: 12.0, 4: 20.0}
    assert PimcBot.choose_card([1, 2, 3, 4], values, {}) == 1
    assert PimcBot.choose_card([1, 2, 3, 4], values, own) == 2
    assert PimcBot.choose_card([1, 2, 3, 4], values, own, 0.5) == 3
    assert PimcBot.choose_card([1, 2, 3, 4], values, own, 0.4) == 2
    assert PimcBot.choose_card([1, 2, 3, 4], values, {1: 0.0, 2: 0.0}) == 1
    # (equal own points: the better value, then the lower card)
    assert PimcBot.choose_card([1, 3], values, {1: 2.0, 3: 2.0}, 1.0) == 1


def test_12_1_defence_own_leaves_the_takers_play_unchanged() -> None:
    """The taker (and every seat at two players) plays with ``defence=own`` as with
    ``side``: the same values, the same cards, no own points weighed."""
    checked = 0
    for seed, deal in ((3, {}), (4, {"three_deal": "kitty"}), (5, {"three_deal": "six_each"})):
        rules = make_rules("classic-3p", deal)
        rnd, bots = _round(rules, seed)
        while rnd.phase == PLAY:
            seat = rnd.current_player()
            view = rnd.view(seat)
            assert view.contract is not None
            if seat == view.contract.taker and len(view.legal_cards) > 1:
                spec = "worlds=6,nodes=20000"
                side = make_bot(f"pimc:{spec},defence=side", 0)
                own = make_bot(f"pimc:{spec},defence=own,own_margin=5", 0)
                assert isinstance(side, PimcBot) and isinstance(own, PimcBot)
                assert own.play(view) == side.play(view)
                assert own.last_values == side.last_values
                assert own.last_own == {} and not TrickShare.applies(view)
                checked += 1
            rnd.play_card(bots[seat].play(view))
    assert checked >= 6
    two = make_rules("classic-2p", {})
    rnd, bots = _round(two, 6)
    view = rnd.view(rnd.current_player())
    assert not TrickShare.applies(view)
    bot = PimcBot(0, defence="own", worlds=4, nodes=20000)
    bot.play(view)
    assert bot.last_own == {}


def _completions(state: PlayState) -> set[tuple[int, int]]:
    """Every (winner, winning card) of the current trick over all its legal completions."""
    if not state.trick:
        last = state.tricks[-1]
        return {(last.winner, last.cards[(last.winner - last.leader) % state.players])}
    out: set[tuple[int, int]] = set()
    for c in scan_forward(state.legal_mask()):
        state.push(c)
        out |= _completions(state)
        state.pop()
    return out


def _reference(view: PlayerView, world: World, table: Table) -> dict[int, int]:
    """:class:`TrickShare`'s answer the slow way: each legal card pushed in the world's
    position and the trick completed in every legal way; settled when every completion
    ends with the same winner and the same winning card played before the seat's turn or
    by him, the points the trick's cards so far less the winning one (+10 at the last
    trick), for the seat (+) or the other defender (-)."""
    assert view.contract is not None
    sides = table.sides(view.contract.taker)
    pts = card_points(view.rules, view.contract.trump)
    last = 10 if len(view.tricks) == table.tricks - 1 else 0
    out: dict[int, int] = {}
    for c in view.legal_cards:
        state = world_state(view, world, table)
        state.push(c)
        ends = _completions(state)
        so_far = (*view.trick, c)
        if len(ends) != 1:
            continue
        [(winner, winning)] = ends
        if sides[winner] == 0 or winning not in so_far:
            continue
        points = sum(pts[x] for x in so_far if x != winning) + last
        out[c] = points if winner == view.seat else -points
    return out


@pytest.mark.parametrize("deal", DEALS, ids=["24_cards", "kitty", "six_each"])
def test_trick_share_agrees_with_every_completion_of_the_trick(deal: dict[str, Any]) -> None:
    """At every card a defender plays in seeded heuristic deals, in the true deal and in
    sampled worlds: each card :class:`TrickShare` calls settled is settled in every legal
    completion of the trick, with the reference's points; it may leave open a trick that
    every completion settles (a later seat holding a card able to beat it that the rules
    of §6 forbid him), which on these deals it never does."""
    rules = make_rules("classic-3p", deal)
    table = Table.of(rules)
    rng = random.Random(7)
    settled = agreed = 0
    for seed in range(10, 22):
        rnd, bots = _round(rules, seed)
        while rnd.phase == PLAY:
            seat = rnd.current_player()
            view = rnd.view(seat)
            if TrickShare.applies(view) and view.trick:
                share = TrickShare(view, table)
                sampler = DealSampler(infer(view))
                for world in (world_behind(rnd, seat), sampler.sample(rng)):
                    fast, slow = share.of_world(world), _reference(view, world, table)
                    for c, p in fast.items():
                        assert slow.get(c) == p, (seed, card_name(c), fast, slow)
                    settled += len(fast)
                    agreed += len(slow)
            rnd.play_card(bots[seat].play(view))
    assert settled > 40
    assert settled >= 0.95 * agreed  # (all of them on these deals)


def test_defence_setting_parsed_and_documented() -> None:
    config = PimcConfig.of({"defence": "own", "own_margin": "2.5"})
    assert config.defence is Defence.OWN and config.own_margin == 2.5
    assert PimcConfig.of().defence is Defence.SIDE and PimcConfig.of().own_margin == 0.0
    # the default at three players (the card play there), not at two
    three, two = (PimcConfig.of().small_table(frozenset(), n) for n in (3, 2))
    assert three.defence is Defence.OWN and three.own_margin == 4.0
    assert two.defence is Defence.SIDE and two.own_margin == 0.0
    given = PimcConfig.of({"defence": "side"}).small_table(frozenset({"defence"}), 3)
    assert given.defence is Defence.SIDE
    with pytest.raises(OptionError, match="defence"):
        PimcConfig.of({"defence": "mine"})
    with pytest.raises(OptionError, match="own_margin"):
        PimcConfig.of({"own_margin": "-1"})
    assert "own_margin" in PimcBot.SETTINGS["defence"].help
    assert PimcBot.__module__ == "belote.bots.pimc"
    import belote.bots.pimc as pimc

    assert pimc.__doc__ is not None and "defence=own" in pimc.__doc__
