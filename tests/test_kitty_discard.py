"""The kitty taker's discard chosen by search at three players (docs/rules.md §12.1;
``pimc:discard=search``, :mod:`belote.bots.kitty_discard`): held to a slow reference,
legal, better than the rule's on a deal where the rule breaks a carré, and the rule's
when the setting says ``rule``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from belote.actions import Discard as DiscardAction
from belote.bots import make_bot
from belote.bots.base import discard_of, discard_pairs, discard_trump, next_action
from belote.bots.kitty_discard import (
    DiscardSearch,
    discard_candidates,
    guesses_of,
    reference_values,
)
from belote.bots.pimc import PimcBot
from belote.bots.pimc_config import Discard, DiscardGuess, DiscardPool, PimcConfig
from belote.cards import ALL_TRUMP, NO_TRUMP, card_name, mask_names, mask_of, parse_card
from belote.deal import new_deck
from belote.options import make_rules
from belote.round import BIDDING, DISCARD, PLAY, PlayerView, Round

KITTY = make_rules("classic-3p", {"three_deal": "kitty"})

# A deal bid by the heuristic (the dealer seat 1): seat 2, the taker in
# diamonds, holds 8S 9S JS QS AS 8H JH QH JD KD AD JC, a carré of jacks (200).  The rule
# lays aside QS and JC (a void in clubs), breaking the carré; QS with QH keeps it.
CARRE_DECK = ("QD 8D KC JC AD KD 9H 9C KS 7D TS AS 9S 8C TC TH AC KH JD QH JH TD AH 7H 7S "
              "QC 8H 8S 9D 7C QS JS")
CARRE_DEALER = 1


def _names(cards: Iterator[int] | list[int] | tuple[int, ...]) -> list[str]:
    return [card_name(c) for c in cards]


def _bid(rnd: Round) -> None:
    callers = [make_bot("heuristic", seed=s) for s in range(3)]
    while rnd.phase is BIDDING:
        seat = rnd.current_player()
        rnd.apply(next_action(callers[seat], rnd.view(seat)))


def _discards(deals: int, seed: int) -> Iterator[tuple[Round, PlayerView]]:
    """The taker's view at the discard of ``deals`` seeded kitty deals bid by the
    heuristic (those that reach a discard)."""
    rng = random.Random(seed)
    for d in range(deals):
        deck = new_deck(3, KITTY.three_deal)
        rng.shuffle(deck)
        rnd = Round(KITTY, d % 3, deck)
        _bid(rnd)
        if rnd.phase is DISCARD:
            yield rnd, rnd.view(rnd.current_player())


def _carre() -> tuple[Round, PlayerView]:
    rnd = Round(KITTY, CARRE_DEALER, [parse_card(n) for n in CARRE_DECK.split()])
    _bid(rnd)
    assert rnd.phase is DISCARD
    view = rnd.view(rnd.current_player())
    assert " ".join(mask_names(view.hand)) == "8S 9S JS QS AS 8H JH QH JD KD AD JC"
    assert discard_trump(view) == 2  # diamonds
    return rnd, view


def test_the_rule_pairs_rank_the_rule_first() -> None:
    """discard_pairs: every pair of the rule's pool once, in card order, the first the
    rule's (discard_of), for random twelve-card hands under every trump."""
    rng = random.Random(2)
    for _ in range(300):
        hand = mask_of(rng.sample(range(32), 12))
        trump = rng.choice([0, 1, 2, 3, NO_TRUMP, ALL_TRUMP])
        pairs = discard_pairs(hand, trump)
        assert list(pairs[0]) == discard_of(hand, trump)
        assert len(set(pairs)) == len(pairs)
        assert all(a < b and hand >> a & 1 and hand >> b & 1 for a, b in pairs)
        plain = [c for c in range(32) if hand >> c & 1
                 and (trump >= NO_TRUMP or c // 8 != trump)]
        pool = plain if len(plain) >= 2 else [c for c in range(32) if hand >> c & 1]
        assert len(pairs) == len(pool) * (len(pool) - 1) // 2
        assert discard_pairs(hand, trump, 3) == pairs[:3]


def test_the_candidates_keep_the_declarations() -> None:
    """With ``announce`` the last candidate gives way to the rule's best pair keeping the
    carré; with ``rule`` the rule's best four, which all break it."""
    _, view = _carre()
    hand, trump = view.hand, discard_trump(view)
    assert trump is not None
    rule = discard_candidates(hand, KITTY, trump, 4, DiscardPool.RULE)
    kept = discard_candidates(hand, KITTY, trump, 4, DiscardPool.ANNOUNCE)
    assert rule == discard_pairs(hand, trump, 4)
    assert kept[:3] == rule[:3] and kept[3] not in rule
    jacks = mask_of(parse_card(n) for n in ("JS", "JH", "JD", "JC"))
    assert all(jacks >> c & 1 for c in (parse_card(n) for n in ("JS", "JC")))
    assert not any(jacks >> c & 1 for c in kept[3])
    assert all(any(jacks >> c & 1 for c in p) for p in rule)


@pytest.mark.parametrize("pool", [DiscardPool.RULE, DiscardPool.ANNOUNCE])
def test_the_search_matches_the_reference(pool: DiscardPool) -> None:
    """Every pair of the rule's pool (or with ``announce`` the candidates) solved in the
    same worlds: the search's values are the slow reference's (each position built
    afresh, solved without a budget, scored from the hands), and its choice is the
    reference's best mean, the rule's pair on a tie."""
    checked = 0
    for _, view in itertools.islice(_discards(12, seed=31), 3):
        search = DiscardSearch(view, pairs=15 if pool is DiscardPool.RULE else 4,
                               worlds=2, nodes=10**12, min_worlds=2, noise=25, pool=pool)
        search.run(random.Random(checked))
        assert search.used == 2 and len(search.solved) == 2
        ref = reference_values(view, search.solved, search.candidates, noise=25)
        for pair in search.candidates:
            assert search.values[pair] == pytest.approx(ref[pair])
        means = {p: sum(v) / 2 for p, v in ref.items()}
        best = max(means.values())
        rule = search.candidates[0]
        want = rule if means[rule] == best else next(
            p for p in search.candidates if means[p] == best)
        assert search.choice() == want
        checked += 1
    assert checked == 3


def test_every_pair_of_the_twelve_in_the_reference() -> None:
    """The reference over every pair of the twelve (66): each value is the taker's
    score less the defenders' mean with those two aside, and the pairs of the rule's
    pool among them are valued as the search values them."""
    _, view = next(_discards(4, seed=5))
    every = list(itertools.combinations(sorted(mask_names(view.hand)), 2))
    pairs = [tuple(sorted((parse_card(a), parse_card(b)))) for a, b in every]
    assert len(pairs) == 66
    search = DiscardSearch(view, pairs=100, worlds=1, nodes=10**12, min_worlds=1,
                           noise=25, pool=DiscardPool.RULE)
    search.run(random.Random(0))
    ref = reference_values(view, search.solved, [(a, b) for a, b in pairs], noise=25)
    assert len(ref) == 66
    for pair in search.candidates:
        assert search.values[pair] == pytest.approx(ref[pair])


def test_every_searched_discard_is_two_of_the_twelve() -> None:
    """``discard=search`` lays aside two different cards of the taker's twelve, which
    the round accepts, at every discard of 20 deals (a small budget)."""
    bot = make_bot("pimc:discard=search,discard_nodes=400000", seed=3)
    assert isinstance(bot, PimcBot)
    seen = 0
    for rnd, view in _discards(20, seed=17):
        action = next_action(bot, view)
        assert isinstance(action, DiscardAction)
        cards = action.cards
        assert len(cards) == 2 and cards[0] != cards[1]
        assert all(view.hand >> c & 1 for c in cards)
        assert rnd.can_discard(cards)
        rnd.discard(cards)
        assert rnd.phase is PLAY
        seen += 1
    assert seen >= 15 and bot.discards_searched == seen


def test_the_search_keeps_the_carre_and_scores_more() -> None:
    """On the carré deal the search lays aside a pair that keeps the four jacks, unlike
    the rule, and that pair scores more than the rule's in the worlds solved (held to
    the reference on the same worlds)."""
    _, view = _carre()
    a, b = discard_of(view.hand, discard_trump(view))
    rule = (a, b)
    assert _names(rule) == ["QS", "JC"]
    bot = make_bot("pimc:discard=search", seed=1)
    assert isinstance(bot, PimcBot)
    c, d = sorted(bot.discard(view))
    chosen = (c, d)
    assert chosen != rule and "JC" not in _names(chosen)
    values = bot.last_discard_values
    assert values[chosen] > values[rule] + 50  # (the carré's 200 is the taker's)
    assert bot.discards_changed == 1
    search = DiscardSearch(view, pairs=4, worlds=6, nodes=10**12, min_worlds=6, noise=25)
    search.run(random.Random(4))
    ref = reference_values(view, search.solved, [rule, chosen], noise=25)
    assert sum(ref[chosen]) > sum(ref[rule])


def test_the_rule_when_the_setting_says_rule() -> None:
    """``discard=rule`` (preset v1's; ``search`` is the default) lays aside the rule's
    pair, searching nothing, also on the carré deal."""
    assert PimcConfig.of().discard is Discard.SEARCH
    _, view = _carre()
    for spec in ("pimc:discard=rule", "pimc:preset=v1"):
        bot = make_bot(spec, seed=1)
        assert isinstance(bot, PimcBot)
        assert bot.discard(view) == discard_of(view.hand, discard_trump(view))
        assert bot.discards_searched == 0 and not bot.last_discard_values


def test_the_guesses_of_a_world() -> None:
    """A pair's solve tests first the last value found in its world, then the others
    by their distance from it, each once; none for the first pair."""
    assert guesses_of([]) == []
    assert guesses_of([90]) == [90]
    assert guesses_of([90, 102, 95, 90]) == [90, 95, 102]
    assert guesses_of([80, 100, 96, 104]) == [104, 100, 96, 80]


def test_the_guessed_solves_value_the_pairs_alike_with_fewer_positions() -> None:
    """``guess=world`` (the default) against ``none``, the solves from scratch, on the
    same worlds (a budget that never binds): every pair's value in every world is the
    same, and so the choice, over 6 discards of random deals, the values held to the
    slow reference too; the positions searched are fewer in all."""
    assert PimcConfig.of().discard_guess is DiscardGuess.WORLD
    plain = guessed = checked = 0
    for _, view in itertools.islice(_discards(30, seed=44), 6):
        runs = []
        for guess in (DiscardGuess.NONE, DiscardGuess.WORLD):
            search = DiscardSearch(view, pairs=4, worlds=2, nodes=10**12, min_worlds=2,
                                   noise=25, guess=guess)
            search.run(random.Random(checked))
            assert search.used == 2
            runs.append(search)
        scratch, fast = runs
        assert fast.solved == scratch.solved
        assert fast.values == scratch.values
        assert fast.choice() == scratch.choice()
        if checked == 0:
            ref = reference_values(view, fast.solved, fast.candidates, noise=25)
            for pair in fast.candidates:
                assert fast.values[pair] == pytest.approx(ref[pair])
        plain += scratch.nodes
        guessed += fast.nodes
        checked += 1
    assert checked == 6
    assert guessed < 0.95 * plain


def test_the_bot_reads_the_guess_setting() -> None:
    """``pimc:discard_guess=none`` solves from scratch: on the carré deal, with worlds
    enough that the budget never binds, the same values as the default's and more
    positions searched."""
    _, view = _carre()
    got = []
    for spec in ("pimc:discard_worlds=3,discard_nodes=1000000000",
                 "pimc:discard_worlds=3,discard_nodes=1000000000,discard_guess=none"):
        bot = make_bot(spec, seed=1)
        assert isinstance(bot, PimcBot)
        bot.discard(view)
        assert bot.last_discard_worlds == 3
        got.append((bot.last_discard_values, bot.last_discard_nodes))
    (world, world_nodes), (none, none_nodes) = got
    assert world == none
    assert world_nodes < none_nodes


def test_the_discard_has_its_own_least_worlds() -> None:
    """``discard_min_worlds``: fewer worlds solved than it asks, the rule's pair; 0
    takes ``bid_min_worlds``; the default is two, within 8,000,000 positions.  On the
    carré deal, five worlds solved (a budget that never binds): the search's pair (not
    the rule's) unless six are asked, by either setting; the discard's own setting over
    the bidding's."""
    config = PimcConfig.of()
    assert (config.discard_min_worlds, config.discard_nodes) == (2, 8_000_000)
    _, view = _carre()
    rule = discard_of(view.hand, discard_trump(view))
    base = "pimc:discard_worlds=5,discard_nodes=1000000000"
    for more, searched in (("", True), (",discard_min_worlds=6", False),
                           (",bid_min_worlds=6", True),
                           (",discard_min_worlds=0,bid_min_worlds=6", False),
                           (",bid_min_worlds=6,discard_min_worlds=2", True),
                           (",discard_min_worlds=5", True)):
        bot = make_bot(base + more, seed=1)
        assert isinstance(bot, PimcBot)
        chosen = sorted(bot.discard(view))
        assert bot.last_discard_worlds == 5
        assert (chosen != rule) is searched, more
