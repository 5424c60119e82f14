"""What a seat may infer of the hidden hands, and exact sampling of the deals it allows.

docs/rules.md §3.4 (the taker holds the turned card), §6 (voids revealed by the
legal-move rules, under every option), §7.6 (declarations shown at trick 2),
§7.7 (belote said).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from belote.bots import knowledge, make_bot, played_by
from belote.bots.base import Bot, next_action
from belote.bots.knowledge import (
    InconsistentViewError,
    Knowledge,
    World,
    forbidden_after,
    infer,
    relax,
)
from belote.bots.sampling import DealSampler
from belote.cards import ALL_CARDS, HEARTS, KING, QUEEN, SPADES, SUIT_MASKS, scan_forward
from belote.options import make_rules
from belote.play import PlayState, explain_illegal
from belote.round import OVER, PLAY, PlayerView, Round
from belote.table import DealMode, Table
from tests.helpers import mask

# --- the pairwise void rule, checked against the engine on random positions ---------

RULE_OPTIONS = st.fixed_dictionaries({
    "partner_master_exemption": st.booleans(),
    "undertrump_partner": st.sampled_from(
        ["allowed", "only_if_only_trumps", "must_overtrump_if_only_trumps"]),
    "must_undertrump": st.booleans(),
    "overtrump_partner_on_trump_lead": st.booleans(),
})


def _check_forbidden_is_exact(profile: str, opts: dict[str, object], sides: tuple[int, ...],
                              trump: int, leader: int, perm: list[int], before_len: int,
                              hand_len: int) -> None:
    """``before`` (the first ``before_len`` cards of ``perm``) played from ``leader``,
    then ``c`` (the next) from a hand of ``c`` and the ``hand_len`` cards after it: the
    engine finds ``c`` legal exactly when that hand holds none of ``forbidden_after``."""
    before = perm[:before_len]
    c = perm[before_len]
    hand = 1 << c
    for x in perm[before_len + 1:before_len + 1 + hand_len]:
        hand |= 1 << x
    rules = make_rules(profile, opts)
    free = ALL_CARDS & ~sum(1 << b for b in before)
    forbidden = forbidden_after(rules, trump, leader, before, c, free, sides)
    n = len(sides)
    state = PlayState(rules, trump, [0] * n, leader, tricks_left=1, teams=sides)
    for i, b in enumerate(before):
        state.hands[(leader + i) % n] = 1 << b
        state.push(b)
    state.hands[state.turn] = hand
    assert bool(state.legal_mask() >> c & 1) == (hand & forbidden == 0)


@settings(max_examples=400, deadline=None)
@example(  # §6.3a: a discard held forbids undertrumping the master partner (found by Hypothesis)
    opts={"partner_master_exemption": True, "undertrump_partner": "only_if_only_trumps",
          "must_undertrump": False, "overtrump_partner_on_trump_lead": False},
    trump=3, leader=0, perm=[8, 25, 2, 24, 4, 0, 1, 3, 5, 6, 7, *range(9, 24), *range(26, 32)],
    before_len=3, hand_len=1)
@given(
    opts=RULE_OPTIONS,
    trump=st.integers(0, 5),
    leader=st.integers(0, 3),
    perm=st.permutations(list(range(32))),
    before_len=st.integers(1, 3),
    hand_len=st.integers(0, 7),
)
def test_6_forbidden_set_is_exact(
    opts: dict[str, object], trump: int, leader: int, perm: list[int], before_len: int,
    hand_len: int,
) -> None:
    """§6 under every option: ``c`` is legal from hand H (H holds ``c``) exactly when H
    holds none of ``forbidden_after`` (the pairwise rule of belote.bots.sampling)."""
    _check_forbidden_is_exact("classic", opts, (0, 1, 0, 1), trump, leader, perm,
                              before_len, hand_len)


@settings(max_examples=300, deadline=None)
@given(
    opts=RULE_OPTIONS,
    players=st.sampled_from([3, 2]),
    taker=st.integers(0, 2),
    trump=st.integers(0, 5),
    leader=st.integers(0, 2),
    perm=st.permutations(list(range(32))),
    before_len=st.integers(1, 2),
    hand_len=st.integers(0, 7),
)
def test_6_forbidden_set_is_exact_at_three_and_two(
    opts: dict[str, object], players: int, taker: int, trump: int, leader: int,
    perm: list[int], before_len: int, hand_len: int,
) -> None:
    """§6 and §12 at three and two players (the sides the taker makes: two defenders
    together at three, each seat alone at two; no seat has a partner in the play, so
    §6.3a's exemption never applies): ``c`` is legal from hand H exactly when H holds
    none of ``forbidden_after`` with those sides."""
    taker, leader = taker % players, leader % players
    sides = Table.of(make_rules(f"classic-{players}p", opts)).sides(taker)
    _check_forbidden_is_exact(f"classic-{players}p", opts, sides, trump, leader, perm,
                              min(before_len, players - 1), hand_len)


def test_forbidden_after_kept_answers_as_worked_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """The answers kept by position (the seats' knowledge reads every card again at each
    turn) are those worked out afresh, whatever the candidates, at each of the rules'
    options, and still once the kept positions have turned over twice."""
    monkeypatch.setattr(knowledge.FORBIDDEN, "size", 50)
    rng = random.Random(5)
    options = [{}, {"partner_master_exemption": False}, {"must_undertrump": True},
               {"overtrump_partner_on_trump_lead": False}]
    rules = [make_rules("classic", o) for o in options]
    # Positions the options answer differently (§6.3a, §6.3c, §6.2), then random ones.
    positions = [(r, HEARTS, 0, [parse(b) for b in before.split()], parse(c))
                 for r in range(4) for before, c in (("AS 7S", "7D"), ("AS 9H", "7D"),
                                                     ("AH 8H", "7H"))]
    for _ in range(60):
        cards = rng.sample(range(32), 4)
        positions.append((rng.randrange(4), rng.randrange(6), rng.randrange(4),
                          cards[:rng.randint(1, 3)], cards[3]))
    for _ in range(3):  # the kept answers read again, after turning over
        for r, trump, leader, before, c in positions:
            for candidates in (ALL_CARDS, rng.getrandbits(32), 0):
                # (a copy of the rules: nothing kept for it, worked out afresh)
                fresh = forbidden_after(dataclasses.replace(rules[r]), trump, leader, before,
                                        c, candidates)
                assert forbidden_after(rules[r], trump, leader, before, c,
                                       candidates) == fresh
    assert len(knowledge.FORBIDDEN.new) <= 50


def test_6_1_discard_on_plain_lead_reveals_no_trump() -> None:
    """§6.3b: E discards a diamond on a spade lead by N (an opponent, master): E holds
    neither spades nor hearts (trump)."""
    rules = make_rules()
    got = forbidden_after(rules, HEARTS, 0, [parse("AS")], parse("7D"))
    assert got == (SUIT_MASKS[SPADES] | SUIT_MASKS[HEARTS]) & ~(1 << parse("AS"))


def test_6_3a_partner_master_discard_reveals_only_the_suit() -> None:
    """§6.3a partner_master_exemption: S discards while N (partner) holds the trick:
    only a void in spades; with the exemption off, a void in trumps too."""
    got = forbidden_after(make_rules(), HEARTS, 0, [parse("AS"), parse("7S")], parse("7D"))
    assert got == SUIT_MASKS[SPADES] & ~mask("AS 7S")
    strict = make_rules("classic", {"partner_master_exemption": False})
    got = forbidden_after(strict, HEARTS, 0, [parse("AS"), parse("7S")], parse("7D"))
    assert got == (SUIT_MASKS[SPADES] | SUIT_MASKS[HEARTS]) & ~mask("AS 7S")


def test_6_3c_undertrump_reveals_no_higher_trump() -> None:
    """§6.3c: on a spade lead trumped with the 9, a lower trump played by the next seat
    means no spade and no higher trump (J); must_undertrump=false: a discard says the same."""
    rules = make_rules()
    before = [parse("AS"), parse("9H")]
    got = forbidden_after(rules, HEARTS, 0, before, parse("7H"))
    assert got == (SUIT_MASKS[SPADES] & ~mask("AS")) | mask("JH")
    got = forbidden_after(rules, HEARTS, 0, before, parse("7D"))
    assert got == (SUIT_MASKS[SPADES] & ~mask("AS")) | mask("JH")
    must = make_rules("classic", {"must_undertrump": True})
    got = forbidden_after(must, HEARTS, 0, before, parse("7D"))
    assert got == (SUIT_MASKS[SPADES] & ~mask("AS")) | (SUIT_MASKS[HEARTS] & ~mask("9H"))


def test_6_2_trump_lead_not_overtrumped() -> None:
    """§6.2: on a trump lead of the ace, playing the 7 of trumps means no J nor 9;
    with overtrump_partner_on_trump_lead=false the partner of the leader reveals nothing."""
    got = forbidden_after(make_rules(), HEARTS, 0, [parse("AH")], parse("7H"))
    assert got == mask("JH 9H")
    lax = make_rules("classic", {"overtrump_partner_on_trump_lead": False})
    got = forbidden_after(lax, HEARTS, 0, [parse("AH"), parse("8H")], parse("7H"))
    assert got == 0


def parse(name: str) -> int:
    return mask(name).bit_length() - 1


# --- whole deals: what is inferred is true, and every sampled world fits the view ------


def _deals(profile: str, specs: list[str], n: int, seed: int) -> Iterator[tuple[Round, int]]:
    """Seeded deals played by ``specs``; yields the round before every card (and the seat)."""
    rules = make_rules(profile)
    rng = random.Random(seed)
    for d in range(n):
        bots: list[Bot] = [make_bot(s, seed * 100 + d * 4 + i) for i, s in enumerate(specs)]
        deck = list(range(32))
        rng.shuffle(deck)
        rnd = Round(rules, d % 4, deck)
        while rnd.phase not in (OVER, "all_pass"):
            seat = rnd.current_player()
            view = rnd.view(seat)
            if rnd.phase == PLAY:
                yield rnd, seat
                rnd.play_card(bots[seat].play(view))
            else:
                rnd.call(bots[seat].call(view))


def _world_fits(view: PlayerView, hands: list[int]) -> None:
    """The world ``hands`` (the four hands now) agrees with everything in ``view``."""
    assert view.contract is not None
    by_seat = played_by(view)
    assert hands[view.seat] == view.hand
    assert sum(h.bit_count() for h in hands) + view.played.bit_count() == 32
    union = 0
    for s in range(4):
        assert hands[s] & union == 0 and hands[s] & view.played == 0
        union |= hands[s]
        assert hands[s].bit_count() == 8 - by_seat[s].bit_count()
    start = [hands[s] | by_seat[s] for s in range(4)]
    if view.turned is not None:
        assert start[view.contract.taker] >> view.turned & 1  # §3.4
    for s in range(4):
        for d in view.shown[s]:
            assert start[s] & d.cards == d.cards  # §7.6
    for s, c in view.belote_cards:
        assert start[s] >> (c ^ (KING ^ QUEEN)) & 1  # §7.7
    # §6: every card of the history was legal from the world's hands.
    first = view.tricks[0].leader if view.tricks else view.trick_leader
    state = PlayState(view.rules, view.contract.trump, start, first)
    history = [c for t in view.tricks for c in t.cards] + list(view.trick)
    for c in history:
        assert explain_illegal(state, c) is None, state.turn
        state.push(c)
    assert state.turn == view.seat


@pytest.mark.parametrize("profile", ["classic", "coinche", "classic-3p"])
def test_voids_kept_by_tricks_are_those_read_card_by_card(
        profile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What each seat reads of the others' voids, kept trick by trick from one turn to
    the next (``revealed``), is what every card of the deal read again gives, at every
    card of whole deals, kept answers turning over included."""
    monkeypatch.setattr(knowledge.REVEALED, "size", 40)
    rules = make_rules(profile)
    table = Table.of(rules)
    n = table.players
    checked = 0
    for d in range(12):
        pack = list(scan_forward(table.deck_mask))
        rnd = Round(rules, d % n, random.Random(d).sample(pack, len(pack)))
        bots = [make_bot("heuristic", d * 10 + i) for i in range(n)]
        while rnd.phase not in (OVER, "all_pass"):
            seat = rnd.current_player()
            view = rnd.view(seat)
            if rnd.phase != PLAY:
                rnd.apply(next_action(bots[seat], view))
                continue
            if table.mode is not DealMode.DECOUVERTE:
                unseen = knowledge.Unseen(view)
                assert view.contract is not None
                trump, sides = view.contract.trump, table.sides(view.contract.taker)
                expected = [0] * n
                tricks = [(t.leader, t.cards) for t in view.tricks]
                if view.trick:
                    tricks.append((view.trick_leader, view.trick))
                for leader, cards in tricks:
                    for i in range(1, len(cards)):
                        p = (leader + i) % n
                        if p != seat:
                            expected[p] |= forbidden_after(
                                rules, trump, leader, cards[:i], cards[i],
                                unseen.unknown | unseen.known[p], sides)
                assert unseen.voids == expected
                checked += 1
            rnd.apply(next_action(bots[seat], view))
    assert checked > 150


@pytest.mark.parametrize("profile,specs", [
    ("classic", ["random"] * 4),
    ("classic", ["heuristic", "random", "heuristic", "random"]),
    ("coinche", ["random", "heuristic"] * 2),
])
def test_inferred_knowledge_is_true_and_worlds_fit(profile: str, specs: list[str]) -> None:
    """Soundness: the real hands always satisfy what a seat infers; every sampled world
    agrees with the view (sizes, played cards, §3.4, §7.6, §7.7, and §6 for every card)."""
    rng = random.Random(5)
    checked = 0
    for rnd, seat in _deals(profile, specs, 25, seed=3):
        view = rnd.view(seat)
        k = infer(view)
        assert rnd.contract is not None
        truth = [rnd.hand(s) for s in range(rnd.players)]
        assert k.allows(World(tuple(truth))), (seat, view.tricks, view.trick)
        if rng.random() < 0.3:
            sampler = DealSampler(k)
            assert sampler.count() > 0
            for _ in range(3):
                world = sampler.sample(rng)
                assert k.allows(world)
                _world_fits(view, list(world.hands))
                checked += 1
    assert checked > 100


def test_3_4_turned_card_and_7_7_belote_are_placed() -> None:
    """§3.4: the taker is known to hold the turned card until he plays it; §7.7: after
    "belote" the other trump honour is known to be in the same hand."""
    turned_seen = belote_seen = 0
    for rnd, seat in _deals("classic", ["heuristic"] * 4, 60, seed=11):
        view = rnd.view(seat)
        assert view.contract is not None and view.turned is not None
        k = infer(view)
        taker = view.contract.taker
        if taker != seat and not view.played >> view.turned & 1:
            assert k.known[taker] >> view.turned & 1
            turned_seen += 1
        for s, c in view.belote_cards:
            other = c ^ (KING ^ QUEEN)
            if s != seat and not view.played >> other & 1:
                assert k.known[s] >> other & 1
                belote_seen += 1
    assert turned_seen > 50 and belote_seen > 0


def test_7_6_shown_declarations_are_placed() -> None:
    """§7.6: the winners of the comparison show their combinations at trick 2; the
    cards not yet played are known to be in the shower's hand."""
    seen = 0
    for rnd, seat in _deals("classic", ["heuristic"] * 4, 80, seed=2):
        view = rnd.view(seat)
        k = infer(view)
        for s in range(4):
            if s == seat:
                continue
            for d in view.shown[s]:
                left = d.cards & ~view.played
                assert k.known[s] & left == left
                seen += left.bit_count() > 0
    assert seen > 0


# --- exact, uniform sampling ---------------------------------------------------------------


def _brute_force(k: Knowledge) -> list[tuple[int, ...]]:
    """Every deal of the unknown cards to the other seats that the knowledge allows."""
    others = [s for s in range(4) if s != k.seat]
    cards = list(scan_forward(k.unknown))
    out = []
    for owners in itertools.product(others, repeat=len(cards)):
        hands = list(k.known)
        for c, s in zip(cards, owners, strict=True):
            hands[s] |= 1 << c
        if k.allows(World(tuple(hands))):
            out.append(tuple(hands))
    return out


def _small_views(limit: int) -> Iterator[PlayerView]:
    """Views with at most 8 unknown cards, from seeded random deals."""
    found = 0
    for rnd, seat in _deals("classic", ["random"] * 4, 40, seed=8):
        view = rnd.view(seat)
        k = infer(view)
        if 4 <= k.unknown.bit_count() <= 8 and any(k.forbidden[s] & k.unknown for s in range(4)):
            yield view
            found += 1
            if found == limit:
                return


def test_sampler_counts_and_draws_uniformly() -> None:
    """The sampler's count is the brute-force count of consistent deals (voids included),
    and its draws are uniform over them (chi-square, fixed seed)."""
    rng = random.Random(1)
    views = list(_small_views(6))
    assert len(views) == 6
    for view in views:
        k = infer(view)
        deals = _brute_force(k)
        sampler = DealSampler(k)
        assert sampler.count() == len(deals) > 0
        n = 60 * len(deals)
        counts = Counter(sampler.sample(rng).hands for _ in range(n))
        assert set(counts) <= set(deals)
        if len(deals) > 1:
            expected = n / len(deals)
            chi2 = sum((counts.get(d, 0) - expected) ** 2 / expected for d in deals)
            dof = len(deals) - 1
            assert chi2 < dof + 6 * (2 * dof) ** 0.5 + 10, (chi2, dof)


def test_no_deal_fits_raises_and_relax_drops_the_voids() -> None:
    view = next(_small_views(1))
    k = infer(view)
    other = (k.seat + 1) & 3
    # Forbid the other seat every unknown card: nothing fits any more.
    f = list(k.forbidden)
    f[other] |= k.unknown
    bad = Knowledge(k.seat, k.table, k.trump, k.sizes, k.known, tuple(f), k.unknown)
    sampler = DealSampler(bad)
    if k.need(other):
        assert sampler.count() == 0
        with pytest.raises(InconsistentViewError, match="no deal fits"):
            sampler.sample(random.Random(0))
    assert DealSampler(relax(bad)).count() >= DealSampler(k).count() > 0


def test_infer_refuses_the_bidding_phase() -> None:
    rnd = Round(make_rules(), 0, list(range(32)))
    with pytest.raises(InconsistentViewError, match="phase 'bidding'"):
        infer(rnd.view(1))
