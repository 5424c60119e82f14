"""The PIMC bot's worlds at the tables of three and two (docs/rules.md §12): the bidding
search's worlds (bots/small_bid.py) and the card play's, checked against what each seat
said and showed, over many seeds of every small-table deal; the solver's yes-or-no of
the bidding against the full solve; the search's calls."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from belote.bots import play_deal
from belote.bots.base import discard_of, played_by
from belote.bots.bid_search import BidMemo, WorldsSolved, solve_worlds
from belote.bots.heuristic import SMALL_TAKE, HeuristicBot, small_call
from belote.bots.knowledge import infer
from belote.bots.pimc import PimcBot
from belote.bots.pimc_config import SETTINGS, SMALL_BID_DEFAULTS, TWO_PLAYER_BID_DEFAULTS
from belote.bots.sampling import DealSampler
from belote.bots.small_bid import (
    FIRST_HAND,
    SmallBidSampler,
    SmallBidSearch,
    SmallOutcome,
    SmallWorld,
    deal_of,
    defence_points,
    small_options,
)
from belote.cards import KING, QUEEN, SUIT_MASKS, card, rank_of, scan_forward, suit_of
from belote.deal import new_deck
from belote.errors import BeloteError
from belote.options import Rules, make_rules
from belote.play import PlayState, card_points
from belote.round import BIDDING, DISCARD, OVER, PLAY, PlayerView, Round
from belote.scoring import HandEntry, score_hand
from belote.scoring import Outcome as HandOutcome
from belote.solver import SearchLimitError, reaches, solve
from belote.table import DealMode, Table
from tests.helpers import bid_to_play, world_behind

MODES: list[tuple[str, dict[str, Any]]] = [
    ("classic-3p", {}),
    ("classic-3p", {"three_deal": "kitty"}),
    ("classic-3p", {"three_deal": "six_each"}),
    ("classic-2p", {}),
    ("classic-2p", {"two_deal": "decouverte"}),
]
MODE_IDS = ["24_cards", "kitty", "six_each", "stock", "decouverte"]
BIDDING_MODES = range(4)  # découverte has no bidding (§12.2)


def _rules(i: int) -> Rules:
    profile, options = MODES[i]
    return make_rules(profile, options)


def _deal(rules: Rules, seed: int) -> Round:
    deck = new_deck(rules.players, rules.three_deal)
    rng = random.Random(seed)
    rng.shuffle(deck)
    return Round(rules, rng.randrange(rules.players), deck)


def _true_world(rnd: Round) -> SmallWorld:
    """The real deal as far as the bidding goes."""
    assert rnd.first is not None
    return SmallWorld(tuple(rnd.first.hands), tuple(rnd.first.stock))


# --- the bidding's worlds ------------------------------------------------------------------


@pytest.mark.parametrize("mode", BIDDING_MODES, ids=MODE_IDS[:4])
def test_bidding_worlds_fit_what_each_seat_said_and_the_true_deal_is_one(mode: int) -> None:
    """At every call of 30 seeded deals bid by the heuristic: each world drawn holds the
    seat's own cards, never the turned card, every other card of the pack once, as
    many cards a seat as the deal gives (§3.1, §12); those kept fit every pass; and the
    deal as it was is a possible world that fits the passes (the sampler accepts it)."""
    rules = _rules(mode)
    table = Table.of(rules)
    rng = random.Random(mode)
    checked = 0
    for seed in range(30):
        rnd = _deal(rules, 1000 * mode + seed)
        truth = _true_world(rnd)
        heuristic = HeuristicBot(0)
        while rnd.phase is BIDDING:
            view = rnd.view()
            sampler = SmallBidSampler(view)
            assert sampler.possible(truth) and sampler.fits(truth), (seed, view.calls)
            passed = {c.seat for c in view.calls if c.seat != view.seat}
            assert {h.seat for h in sampler.hints} == passed
            for _ in range(20):
                world = sampler.draw(rng)
                assert sampler.possible(world)
                assert world.hands[view.seat] == view.hand
                assert len(world.hands) == table.players
                for s in range(table.players):
                    if s != view.seat:
                        assert world.hands[s].bit_count() == FIRST_HAND[table.mode]
                    assert view.turned is None or not world.hands[s] >> view.turned & 1
                if sampler.fits(world):  # a seat that passed holds a hand the heuristic passes
                    for hint in sampler.hints:
                        assert small_call(world.hands[hint.seat], view.turned, hint.calls,
                                          deal_of(view), SMALL_TAKE[deal_of(view)]) == "pass"
                checked += 1
            rnd.call(heuristic.call(view))
    assert checked >= 30 * 20


def test_the_sampler_refuses_impossible_worlds_and_other_phases() -> None:
    """A world that moves the seat's card, deals the turned card or places a card twice is
    not possible; a view outside the bidding, or at four players, has no such worlds."""
    rules = _rules(3)
    rnd = _deal(rules, 5)
    view = rnd.view()
    sampler = SmallBidSampler(view)
    truth = _true_world(rnd)
    assert sampler.possible(truth)
    other = 1 - view.seat
    mine = truth.hands[view.seat]
    swapped = list(truth.hands)
    swapped[view.seat], swapped[other] = truth.hands[other], mine
    assert not sampler.possible(SmallWorld(tuple(swapped), truth.stock))
    assert view.turned is not None
    turned_in = list(truth.hands)
    c = next(iter(truth.stock))
    turned_in[other] = (truth.hands[other] & ~(1 << (truth.hands[other].bit_length() - 1))
                        | 1 << view.turned)
    assert not sampler.possible(SmallWorld(tuple(turned_in), truth.stock))
    twice = (*truth.stock[:-1], c)
    assert not sampler.possible(SmallWorld(truth.hands, twice))
    with pytest.raises(BeloteError):
        SmallBidSampler(_deal(make_rules("classic"), 1).view())
    rnd.call("take")
    with pytest.raises(BeloteError):
        SmallBidSampler(rnd.view())


def test_the_kitty_world_gives_the_taker_the_kitty() -> None:
    """§12.1 kitty: the true deal completed for its taker is the engine's hands; the
    taker lays two aside before the solver sees the hands."""
    rules = _rules(1)
    rnd = _deal(rules, 3)
    truth = _true_world(rnd)
    view = rnd.view()
    search = SmallBidSearch(view, worlds=2, nodes=10**6, min_worlds=1, caution=0,
                            hints=False, rollout=False)
    hands = truth.complete(search.table, view.dealer, view.turned, view.seat)
    assert hands[view.seat].bit_count() == 12 and sum(h.bit_count() for h in hands) == 32
    rnd.call("H")
    assert rnd.phase is DISCARD and rnd.hands == hands


# --- the card play's worlds ----------------------------------------------------------------


def _check_world(view: PlayerView, hands: tuple[int, ...], rnd: Round) -> None:
    """The hands of a card-play world against the view, read straight from the view
    (not through the knowledge): §6 voids, §7.6 shown declarations, §7.7 belote, the
    cards seen face up, laid aside or played."""
    n = rnd.players
    assert hands[view.seat] == view.hand
    true_hands = tuple(rnd.hand(s) for s in range(n))
    played = played_by(view)
    seen = view.played | view.public | view.discards | view.hand
    for s in range(n):
        assert hands[s].bit_count() == true_hands[s].bit_count()
        if s != view.seat:
            assert not hands[s] & seen & ~view.public or rnd.mode == "decouverte"
            assert not hands[s] & (view.played | view.discards)
    if rnd.mode.leaves_cards_out and view.turned is not None:  # §12: on the table
        assert not any(h >> view.turned & 1 for h in hands)
    # §6: a seat that did not follow the suit led holds none of it
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick_leader, view.trick))
    for leader, cards in tricks:
        led = suit_of(cards[0])
        for i, c in enumerate(cards[1:], 1):
            seat = (leader + i) % n
            if suit_of(c) != led and rnd.mode != "decouverte":
                assert not hands[seat] & SUIT_MASKS[led], (seat, led)
    # §7.6: the cards shown and not yet played are in the hand that showed them
    for s, shown in enumerate(view.shown):
        for d in shown:
            assert d.cards & ~played[s] & ~hands[s] == 0, (s, d)
    # §7.7: a seat that said belote with one card holds or has played the other
    for s, c in view.belote_cards:
        other = card(suit_of(c), QUEEN if rank_of(c) == KING else KING)
        assert (hands[s] | played[s]) >> other & 1 or rnd.mode == "decouverte"
    # the turned card taken at 24 cards (§3.4) is the taker's until played
    if rnd.mode is DealMode.CARDS_24 and view.contract is not None and view.turned is not None:
        taker = view.contract.taker
        if taker != view.seat and not view.played >> view.turned & 1:
            assert hands[taker] >> view.turned & 1


@pytest.mark.parametrize("mode", range(5), ids=MODE_IDS)
def test_card_worlds_never_contradict_what_was_said_or_shown(mode: int) -> None:
    """At every card of 25 seeded deals played by the heuristic (declarations, belote
    and a taker's kitty included): every world the PIMC bot's sampler draws agrees with
    the view, checked rule by rule, and the true deal is allowed by its knowledge."""
    rules = _rules(mode)
    rng = random.Random(10 + mode)
    pimc = PimcBot(1)
    checked = 0
    for seed in range(25):
        rnd = _deal(rules, 500 + seed)
        bots = [HeuristicBot(s) for s in range(rules.players)]
        bid_to_play(rnd, bots)
        while rnd.phase is PLAY:
            seat = rnd.current_player()
            view = rnd.view(seat)
            sampler = pimc.sampler(view)
            assert sampler is not None
            if rnd.mode != "decouverte":
                assert infer(view).allows(world_behind(rnd, seat))
            for _ in range(4):
                _check_world(view, sampler.sample(rng).hands, rnd)
                checked += 1
            action = bots[seat].play(view)
            rnd.play_card(action, belote=True)
    assert checked > 400


def test_the_card_sampler_is_the_pimc_bots() -> None:
    """(The sampler checked above is the one the bot draws its card worlds from.)"""
    rnd = _deal(_rules(0), 1)
    while rnd.phase is BIDDING:
        rnd.call(HeuristicBot(0).call(rnd.view()))
    if rnd.phase is PLAY:
        sampler = PimcBot(0).sampler(rnd.view())
        assert isinstance(sampler, DealSampler)


# --- the solver's question ------------------------------------------------------------------


def _independent_state(rules: Rules, view: PlayerView, world: SmallWorld, trump: int,
                       taker: int) -> PlayState:
    """``world`` dealt for ``taker`` in ``trump`` by hand, as the engine deals it (§3.4,
    §12; the kitty's taker lays aside the heuristic's two), the eldest to lead."""
    table = Table.of(rules)
    hands = world.complete(table, view.dealer, view.turned, taker)
    if table.mode is DealMode.KITTY:
        for c in discard_of(hands[taker], trump):
            hands[taker] &= ~(1 << c)
    return PlayState(rules, trump, hands, table.next(view.dealer), teams=table.sides(taker),
                     table=table)


def _made_with(rules: Rules, trump: int, out: SmallOutcome, takers: int) -> bool:
    """Whether the taker (side 0) makes it with ``takers`` trick points of the world
    ``out``, the kitty's discards included (§8, §12), as the scoring says."""
    total = out.cards + 10 + out.aside
    entry = HandEntry(taker=0, trick_points=(takers, total - takers),
                      declarations=out.declarations, belote=out.belote, trump=trump,
                      in_play=out.in_play)
    return score_hand(rules, entry).outcome is HandOutcome.MADE


@pytest.mark.parametrize("mode", BIDDING_MODES, ids=MODE_IDS[:4])
def test_each_world_is_solved_for_its_value_and_agrees_with_the_yes_or_no(mode: int) -> None:
    """Each world is solved for its value (the full solve's), and scored made exactly
    when the yes-or-no search (solver.reaches, a null window) says the takers reach the
    fewest points with which the scoring makes the contract (caution and noise 0):
    a world whose value reaches the contract answers yes, one whose value falls short
    answers no."""
    rules = _rules(mode)
    table = Table.of(rules)
    rng = random.Random(mode)
    checked = 0
    for seed in range(2):
        rnd = _deal(rules, 70 + seed)
        view = rnd.view()
        search = SmallBidSearch(view, worlds=1, nodes=10**8, min_worlds=1, caution=0,
                                hints=False, rollout=False)
        world = search.sampler.draw(rng)
        for taker in range(rules.players):
            trump = rng.randrange(4)
            out, nodes = search.solve(world, trump, taker, 10**8)
            state = _independent_state(rules, view, world, trump, taker)
            assert out.ns == solve(state, moves=False).value and nodes > 0
            pts = card_points(rules, trump)
            assert out.cards == sum(pts[c] for h in state.hands for c in scan_forward(h))
            side = table.sides(taker)[taker]
            # the scoring's made-or-not at every value of side 0 the play could have
            made = [search.value(trump, taker, dataclasses.replace(out, ns=ns))[1]
                    for ns in range(out.cards + 101)]
            assert set(made) <= {0.0, 1.0}
            made_here = search.value(trump, taker, out)[1] == 1.0
            if side == 0:  # the takers make it from some value of theirs upwards
                need = made.index(1.0) if 1.0 in made else out.cards + 101
                assert made[need:] == [1.0] * (len(made) - need)
                if 0 < need <= out.cards:  # the scoring's own threshold, discards counted
                    assert _made_with(rules, trump, out, need + out.aside)
                    assert not _made_with(rules, trump, out, need - 1 + out.aside)
                yes, bound, _ = reaches(state, need)
                assert yes == made_here and (bound >= need) == yes
            else:  # two players, the taker North's opponent: made while N stays low
                most = max((ns for ns, m in enumerate(made) if m == 1.0), default=-1)
                assert made[:most + 1] == [1.0] * (most + 1)
                yes, bound, _ = reaches(state, most + 1)
                assert yes == (not made_here) and (bound > most) == yes
            checked += 1
    assert checked == 2 * rules.players
    with pytest.raises(SearchLimitError):
        search.solve(world, 0, view.seat, 1)


@pytest.mark.parametrize("mode", [2, 1], ids=["six_each", "kitty"])
def test_a_capot_counts_in_the_value(mode: int) -> None:
    """§5.2, §12: a world in which the taker takes every trick scores his capot (six
    each, a deal that leaves cards out: the trick total of the cards in play + 90; the
    kitty: 252, his discards counted in), more than all the points without it; one in
    which he takes none scores the defence's capot (the kitty: 252 to them, 0 to him).
    Three players: the taker's value is his score less half the defence's."""
    rules = _rules(mode)
    view = _deal(rules, 3).view()
    search = SmallBidSearch(view, worlds=1, nodes=10**6, min_worlds=1, caution=0,
                            hints=False, rollout=False)
    world = search.sampler.draw(random.Random(1))
    out, _ = search.solve(world, 0, view.seat, 10**8)
    kitty = mode == 1
    assert out.in_play == (None if kitty else out.cards + 10) and (out.aside > 0) == kitty
    capot_points = out.cards + out.aside + 100  # 252 with the kitty

    def scored(points: tuple[int, int], capot: int) -> float:
        entry = HandEntry(taker=0, trick_points=points, declarations=out.declarations,
                          belote=out.belote, trump=0, reserve=view.reserve,
                          in_play=out.in_play, capot=capot)
        score = score_hand(rules, entry).score
        return score[0] - score[1] / 2

    capot, made = search.value(0, view.seat, dataclasses.replace(out, ns=out.cards + 100))
    assert made == 1.0 and capot == scored((capot_points, 0), 0)
    assert capot > search.value(0, view.seat, dataclasses.replace(out, ns=out.cards + 10))[0]
    lost, made = search.value(0, view.seat, dataclasses.replace(out, ns=0))
    assert made == 0.0 and lost == scored((0, capot_points), 1)
    assert lost < search.value(0, view.seat, dataclasses.replace(out, ns=1))[0]


# --- the calls ------------------------------------------------------------------------------


def test_small_options_search_only_near_the_take() -> None:
    """Only the calls within bid_band of the heuristic's take are searched, the
    strongest first; far from it (either way) the heuristic's call stands."""
    rules = _rules(3)
    near = far = 0
    for seed in range(60):
        view = _deal(rules, seed).view()
        options = small_options(view, list(view.legal_calls), 20, 1, 0.0)
        wide = small_options(view, list(view.legal_calls), 10_000, 1, 0.0)
        assert len(wide) == 1 and all(o.team == view.seat for o in options)
        near += bool(options)
        far += not options
        bot = PimcBot(seed)
        call = bot.call(view)
        assert call in view.legal_calls
        if not options:
            assert call == HeuristicBot(0).call(view) and bot.last_bid_worlds == 0
    assert near and far


@pytest.mark.parametrize("mode", BIDDING_MODES, ids=MODE_IDS[:4])
def test_pimc_bids_by_search_at_every_small_deal(mode: int) -> None:
    """Whole deals with the search bidding at every seat: legal calls, worlds solved
    within twice the positions budget, the same seed the same calls."""
    rules = _rules(mode)
    budget = SMALL_BID_DEFAULTS["bid_nodes"]
    searched = 0
    for seed in range(8):
        if seed >= 2 and searched:
            break
        calls = []
        for _ in range(2):
            rnd = _deal(rules, 40 + seed)
            bots = [PimcBot(seed * 10 + s, worlds=2, tricks=3, nodes=2000)
                    for s in range(rules.players)]
            made: list[str] = []
            while rnd.phase is BIDDING:
                view = rnd.view()
                bot = bots[view.seat]
                call = bot.call(view)
                assert call in view.legal_calls
                assert bot.last_bid_nodes <= 2 * budget + 1  # (the search stops one past)
                searched += bot.last_bid_nodes > 0
                made.append(call)
                rnd.call(call)
            calls.append(made)
        assert calls[0] == calls[1]
    assert searched


def test_bidding_heuristic_setting_turns_the_search_off() -> None:
    rules = _rules(3)
    for seed in range(20):
        view = _deal(rules, seed).view()
        bot = PimcBot(seed, bidding="heuristic")
        assert bot.call(view) == HeuristicBot(0).call(view)
        assert bot.last_bid_nodes == 0


def _seeded(rules: Rules, seed: int) -> Round:
    """The deal of ``seed``: the pack shuffled by ``random.Random(seed)``, dealt by the
    seat ``seed`` modulo the players."""
    deck = new_deck(rules.players, rules.three_deal)
    random.Random(seed).shuffle(deck)
    return Round(rules, seed % rules.players, deck)


def _pimc_takes_and_wins(rules: Rules, seed: int) -> None:
    """The eldest's hand falls short of the heuristic's take; the search's worlds show
    the contract made: the bot takes (no fallback to the heuristic), plays the deal
    against the heuristic, makes the contract and scores the most."""
    view = _seeded(rules, seed).view()
    seat = view.seat
    assert HeuristicBot(0).call(view) == "pass"
    bot = PimcBot(seed)
    call = bot.call(view)
    assert call != "pass" and bot.last_bid_worlds >= 4 and not bot.last_bid_fallback
    assert bot.last_bid_values[call] > bot.last_bid_values["pass"]
    bots = [PimcBot(seed) if s == seat else HeuristicBot(s) for s in range(rules.players)]
    played = _seeded(rules, seed)
    play_deal(played, bots)
    assert played.phase is OVER and played.contract is not None
    assert played.contract.taker == seat
    result = played.result()
    assert str(result.score.outcome) == "made"
    score = result.seats  # per seat (§12.1: each defender his own share)
    assert score is not None
    assert score[seat] > max(s for i, s in enumerate(score) if i != seat)


def test_stock_deal_the_search_takes_what_the_heuristic_passes_and_makes_it() -> None:
    """§12.2 stock, seed 27: North's six cards and the turned card fall short of the
    heuristic's take; the search takes over its 64 worlds, and makes it, 78 to 37."""
    _pimc_takes_and_wins(_rules(3), 27)



def test_kitty_deal_the_search_takes_what_the_heuristic_passes_and_makes_it() -> None:
    """§12.1 kitty, seed 24: East's ten cards fall short of the heuristic's take (the
    kitty unseen); the search names diamonds over its worlds (each solved for its
    value, the kitty dealt as the engine deals it: 7 within the budget), and makes it: 106
    against 37 and 39."""
    _pimc_takes_and_wins(_rules(1), 24)

def test_three_players_bid_on_the_takers_points_of_double_dummy() -> None:
    """At three players the settings not given take THREE_PLAYER_BID_DEFAULTS over the
    small tables' (no caution: §12.1's two defenders do not see each other's cards, the
    solve's do); at four players, and wherever given, they do not."""
    bot = PimcBot(0)
    assert bot.small_configs[3].bid_caution == 0
    assert bot.small_configs[3].bid_own_offset == bot.config.bid_own_offset == 0
    assert bot.config.bid_caution == 10
    assert bot.small_configs[3].bid_worlds == SMALL_BID_DEFAULTS["bid_worlds"]
    given = PimcBot(0, bid_caution=5)
    assert given.small_configs[3].bid_caution == given.small_configs[2].bid_caution == 5
    assert PimcBot(0, bid_caution=-20).small_configs[2].bid_caution == -20


def test_two_players_take_the_two_player_defaults_and_a_given_setting_wins() -> None:
    """At two players the settings not given take TWO_PLAYER_BID_DEFAULTS over the small
    tables' (the others' takes counted with a caution of 5, the bot's own 8 points
    bolder); a setting given in the spec is used as given, the other one still takes
    its two-player default; three and four players keep theirs."""
    bot = PimcBot(0)
    two = bot.small_configs[2]
    assert (two.bid_caution, two.bid_own_offset) == (5, -8)
    assert TWO_PLAYER_BID_DEFAULTS == {"bid_caution": 5, "bid_own_offset": -8,
                                       "bid_worlds": 256, "bid_nodes": 16_000_000}
    assert (two.bid_worlds, two.bid_nodes) == (256, 16_000_000)
    assert bot.small_configs[3].bid_worlds == SMALL_BID_DEFAULTS["bid_worlds"]
    assert (bot.config.bid_caution, bot.config.bid_own_offset) == (10, 0)
    assert (bot.small_configs[3].bid_caution, bot.small_configs[3].bid_own_offset) == (0, 0)
    caution = PimcBot(0, bid_caution=10).small_configs[2]
    assert (caution.bid_caution, caution.bid_own_offset) == (10, -8)
    offset = PimcBot(0, bid_own_offset=0).small_configs[2]
    assert (offset.bid_caution, offset.bid_own_offset) == (5, 0)
    assert PimcBot(0, bid_own_offset=-4).small_configs[3].bid_own_offset == -4


@pytest.mark.parametrize("mode", [3, 0], ids=["stock", "24_cards"])
def test_the_own_offset_moves_the_seats_own_takes_only(mode: int) -> None:
    """``own_offset`` is added to the caution when the seat is the taker, never when it
    weighs another seat's take: the seat's own take is valued as with the caution
    ``caution + own_offset``, another's as with ``caution`` alone, at every value of
    the solve (and the two differ somewhere)."""
    rules = _rules(mode)
    view = _deal(rules, 3).view()
    other = (view.seat + 1) % rules.players

    def search(caution: int, own_offset: int) -> SmallBidSearch:
        return SmallBidSearch(view, worlds=1, nodes=10**6, min_worlds=1, caution=caution,
                              hints=False, rollout=False, own_offset=own_offset)

    offset, bolder, plain = search(5, -8), search(-3, 0), search(5, 0)
    world = offset.sampler.draw(random.Random(mode))
    out, _ = offset.solve(world, 0, view.seat, 10**8)
    theirs, _ = offset.solve(world, 0, other, 10**8)
    own_moved = others_moved = 0
    for ns in range(0, out.cards + 101, 3):
        mine = dataclasses.replace(out, ns=ns)
        assert offset.value(0, view.seat, mine) == bolder.value(0, view.seat, mine)
        own_moved += offset.value(0, view.seat, mine) != plain.value(0, view.seat, mine)
        them = dataclasses.replace(theirs, ns=ns)
        assert offset.value(0, other, them) == plain.value(0, other, them)
        others_moved += offset.value(0, other, them) != bolder.value(0, other, them)
    assert own_moved > 0 and others_moved > 0


def test_the_own_offset_setting_reaches_the_search() -> None:
    """§12.2 stock, seed 27: with the same caution and the same worlds, the setting
    ``bid_own_offset`` (8 points bolder) raises the value of the bot's own take, and
    leaves the pass's (each seat, the bot too, calling as the heuristic after it) no
    higher."""
    view = _seeded(_rules(3), 27).view()
    plain = PimcBot(27, bid_caution=5, bid_own_offset=0)
    bolder = PimcBot(27, bid_caution=5, bid_own_offset=-8)
    call = plain.call(view)
    assert bolder.call(view) == call == "take"
    assert bolder.last_bid_worlds == plain.last_bid_worlds >= 4
    assert bolder.last_bid_values["take"] > plain.last_bid_values["take"]
    assert bolder.last_bid_values["pass"] >= plain.last_bid_values["pass"]


@pytest.mark.parametrize("mode", [3, 0], ids=["stock", "24_cards"])
def test_the_own_leak_takes_a_share_of_the_defences_points_off_own_takes_only(
        mode: int) -> None:
    """``own_leak`` (the defence's share the seat's own takes win at the table) values the
    seat's own take as with the caution less ``round(own_leak * defence)``, the defence's
    double-dummy points of that world, on top of ``own_offset``; another seat's take as
    without it; at every value of the solve (and the leak moves the own take somewhere)."""
    rules = _rules(mode)
    table = Table.of(rules)
    view = _deal(rules, 3).view()
    other = (view.seat + 1) % rules.players

    def search(caution: int, own_offset: int, own_leak: float) -> SmallBidSearch:
        return SmallBidSearch(view, worlds=1, nodes=10**6, min_worlds=1, caution=caution,
                              hints=False, rollout=False, own_offset=own_offset,
                              own_leak=own_leak)

    leak, plain = search(5, -3, 0.2), search(5, -3, 0.0)
    world = leak.sampler.draw(random.Random(mode))
    out, _ = leak.solve(world, 0, view.seat, 10**8)
    theirs, _ = leak.solve(world, 0, other, 10**8)
    side = table.sides(view.seat)[view.seat]
    moved = 0
    for ns in range(0, out.cards + 101, 3):
        mine = dataclasses.replace(out, ns=ns)
        shifted = search(5 - round(0.2 * defence_points(ns, side, out.cards)), -3, 0.0)
        assert leak.value(0, view.seat, mine) == shifted.value(0, view.seat, mine)
        moved += leak.value(0, view.seat, mine) != plain.value(0, view.seat, mine)
        them = dataclasses.replace(theirs, ns=ns)
        assert leak.value(0, other, them) == plain.value(0, other, them)
    assert moved > 0


def test_the_defences_points_of_a_solve() -> None:
    """The defence's double-dummy points, side 0's ``ns`` given (the last trick's 10 in):
    the rest of the deal's; none when the takers take every trick (a capot's 100), all
    when they take none, whichever side takes."""
    cards = 152
    assert defence_points(100, 0, cards) == 62
    assert defence_points(100, 1, cards) == 100
    assert defence_points(cards + 100, 0, cards) == 0  # the takers' capot
    assert defence_points(0, 1, cards) == 0  # side 1 takes: side 0's none is its capot
    assert defence_points(0, 0, cards) == cards + 10
    assert defence_points(cards + 100, 1, cards) == cards + 10


def test_the_own_leak_setting_is_read_documented_and_reaches_the_search() -> None:
    """``bid_own_leak`` is a setting of its own (0 by default at every table size, never
    below 0, its help saying what it is); §12.2 stock, seed 27: with the same worlds a
    leak of 0.2 raises the value of the bot's own take and leaves the pass's no higher."""
    assert SETTINGS["bid_own_leak"].default == 0.0
    assert "defence's double-dummy" in SETTINGS["bid_own_leak"].help
    bot = PimcBot(0)
    assert bot.config.bid_own_leak == bot.small_configs[3].bid_own_leak == 0.0
    assert bot.small_configs[2].bid_own_leak == 0.0
    assert PimcBot(0, bid_own_leak="0.25").small_configs[3].bid_own_leak == 0.25
    with pytest.raises(BeloteError):
        PimcBot(0, bid_own_leak=-0.1)
    view = _seeded(_rules(3), 27).view()
    plain = PimcBot(27, bid_caution=5, bid_own_offset=0)
    leak = PimcBot(27, bid_caution=5, bid_own_offset=0, bid_own_leak=0.2)
    call = plain.call(view)
    assert leak.call(view) == call == "take"
    assert leak.last_bid_worlds == plain.last_bid_worlds >= 4
    assert leak.last_bid_values["take"] > plain.last_bid_values["take"]
    assert leak.last_bid_values["pass"] >= plain.last_bid_values["pass"]


def test_24_cards_the_search_takes_what_the_four_players_caution_passes_and_makes_it() -> None:
    """§12.1 24 cards, seed 64: South's five cards and the turned card reach the
    heuristic's take; counted as at four players (the takers losing 10 card points on
    the solve) the worlds show a pass, 29 points over the take; counted as at three (the
    solve's points) the take is worth as much as the pass, and the bot keeps the
    heuristic's take.  It plays the deal against the heuristic and makes it, 173 against
    39 and 0."""
    rules = _rules(0)
    view = _seeded(rules, 64).view()
    seat = view.seat
    assert HeuristicBot(0).call(view) == "take"
    four = PimcBot(64, bid_caution=10)
    assert four.call(view) == "pass" and four.last_bid_worlds >= 4
    assert four.last_bid_values["pass"] > four.last_bid_values["take"] + 20
    bot = PimcBot(64)
    assert bot.call(view) == "take" and bot.last_bid_worlds >= 4 and not bot.last_bid_fallback
    assert bot.last_bid_values["take"] >= bot.last_bid_values["pass"]
    played = _seeded(rules, 64)
    play_deal(played, [PimcBot(64) if s == seat else HeuristicBot(s)
                       for s in range(rules.players)])
    assert played.phase is OVER and played.contract is not None
    assert played.contract.taker == seat
    result = played.result()
    assert str(result.score.outcome) == "made"
    score = result.seats
    assert score is not None
    assert score[seat] > max(s for i, s in enumerate(score) if i != seat)


# --- the budget loop, one for every table -----------------------------------------------------


class _Worlds:
    """A stand-in sampler: world ``i`` is the number ``i``; the hint keeps the even ones
    (none at all with ``fit=False``)."""

    def __init__(self, fit: bool = True, max_draws: int = 50) -> None:
        self.hints = ("even",)
        self.max_draws = max_draws
        self.fit = fit
        self.count = 0

    def draw(self, rng: random.Random) -> int:
        self.count += 1
        return self.count - 1

    def fits(self, world: int) -> bool:
        return self.fit and world % 2 == 0


def _loop(memo: BidMemo[int, int], sampler: _Worlds, cost: dict[int, int],
          asked: list[tuple[int, tuple[int, int]]], **budget: Any) -> WorldsSolved:
    """solve_worlds with a solve that costs ``cost[world]`` positions (100 by default)."""
    def solve(world: int, key: tuple[int, int], cap: int) -> tuple[int, int]:
        asked.append((world, key))
        nodes = cost.get(world, 100)
        if nodes > cap:
            raise SearchLimitError(cap + 1)
        return world * 10 + key[0], nodes

    settings = {"worlds": 5, "nodes": 1000, "min_worlds": 2, "seconds": 0.0, **budget}
    return solve_worlds(memo, sampler, random.Random(0), lambda w: [(0, 0), (1, 0)], solve,
                        **settings)


def test_the_budget_loop_stops_skips_relaxes_and_reuses_its_worlds() -> None:
    """bid_search.solve_worlds, the bidding search's loop at every table: the worlds that
    fit the hints, each solved for every contract, until ``worlds`` are; stopped by the
    positions budget once ``min_worlds`` are solved, never past twice the budget; a world
    one of whose solves passes the whole budget left out for good; the hints dropped when
    too few worlds fit them; the memo's solves never asked again."""
    memo: BidMemo[int, int] = BidMemo((), ())
    asked: list[tuple[int, tuple[int, int]]] = []
    worlds = _Worlds()
    done = _loop(memo, worlds, {}, asked)
    assert [memo.draws[i] for i in done.used] == [0, 2, 4, 6, 8]  # the even ones: 5 worlds
    assert done.nodes == 5 * 2 * 100 and not done.relaxed and done.skipped == 0
    assert memo.solved[done.used[1]] == {(0, 0): 20, (1, 0): 21}
    assert len(asked) == 10
    again = _loop(memo, worlds, {}, asked, worlds=6)  # the same memo: no solve again
    assert [memo.draws[i] for i in again.used] == [0, 2, 4, 6, 8, 10]
    assert again.nodes == 2 * 100 and asked[10:] == [(10, (0, 0)), (10, (1, 0))]
    # the budget: 1,000 positions stop it once 2 worlds are solved
    memo = BidMemo((), ())
    done = _loop(memo, _Worlds(), {0: 400, 2: 400}, [], worlds=40)
    assert [memo.draws[i] for i in done.used] == [0, 2] and done.nodes == 2 * 2 * 400
    # a world too hard for the whole budget is left out; the others still count
    memo = BidMemo((), ())
    done = _loop(memo, _Worlds(), {2: 5000}, [], worlds=3, min_worlds=3)
    assert [memo.draws[i] for i in done.used] == [0, 4, 6] and done.skipped == 1
    assert memo.solved[2] == {(0, 0): None}
    # never past twice the budget, even short of min_worlds
    memo = BidMemo((), ())
    asked = []
    done = _loop(memo, _Worlds(), {w: 900 for w in range(0, 40, 2)}, asked, worlds=40,
                 min_worlds=10)
    assert done.nodes == 2 * 1000 + 1 and done.used == [0]  # (a solve stops one past)
    assert asked == [(0, (0, 0)), (0, (1, 0)), (2, (0, 0))]  # nothing asked after
    # no world fits the hints within the draws: they are dropped, every world counts
    memo = BidMemo((), ())
    done = _loop(memo, _Worlds(fit=False, max_draws=6), {}, [], worlds=3)
    assert done.relaxed and [memo.draws[i] for i in done.used] == [0, 1, 2]


def test_the_search_solves_only_worlds_that_fit_the_passes() -> None:
    """The worlds a call is searched over are possible (the seat's cards, the turned
    card, every card once) and fit every pass unless the hints were dropped; at each
    seat that searched, the true deal fits them too (the calls made are the
    heuristic's)."""
    searched = 0
    for mode in BIDDING_MODES:
        rules = _rules(mode)
        for seed in range(12):
            rnd = _deal(rules, 300 + seed)
            truth = _true_world(rnd)
            while rnd.phase is BIDDING:
                view = rnd.view()
                bot = PimcBot(seed, bid_worlds=6, bid_nodes=400_000, bid_min_worlds=2)
                bot.call(view)
                memo = bot._small_memo
                if bot.last_bid_nodes and memo is not None:
                    sampler = SmallBidSampler(view)
                    assert sampler.possible(truth) and sampler.fits(truth)
                    for world in memo.draws:
                        assert sampler.possible(world)
                    kept = [i for i, solved in enumerate(memo.solved) if solved]
                    if not bot.last_bid_relaxed:
                        assert all(sampler.fits(memo.draws[i]) for i in kept)
                    searched += 1
                rnd.call(HeuristicBot(0).call(view))
    assert searched >= 8
