"""Hypothesis properties of the fast engine (docs/rules.md §5, §6, §7)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from belote.cards import mask_of
from belote.declarations import best_announcement, check_announcement
from belote.options import make_rules
from belote.play import PlayState

OPTION_SPACE = st.fixed_dictionaries({
    "overtrump_partner_on_trump_lead": st.booleans(),
    "partner_master_exemption": st.booleans(),
    "undertrump_partner": st.sampled_from(
        ["allowed", "only_if_only_trumps", "must_overtrump_if_only_trumps"]),
    "must_undertrump": st.booleans(),
    "ta_values": st.sampled_from(["pc", "ffbc"]),
})


def deal(seed: int) -> list[int]:
    deck = list(range(32))
    random.Random(seed).shuffle(deck)
    return [mask_of(deck[i * 8:i * 8 + 8]) for i in range(4)]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), trump=st.integers(0, 5), leader=st.integers(0, 3),
       options=OPTION_SPACE, choices=st.lists(st.integers(0, 7), min_size=32, max_size=32))
def test_a_whole_hand(seed: int, trump: int, leader: int, options: dict[str, object],
                      choices: list[int]) -> None:
    """Legal cards are held and never empty (§6); card points add to 152 + 10, or 252
    on a capot (§5.1, §5.2, §5.3, §5.4); pop restores every earlier position."""
    state = PlayState(make_rules("classic", options), trump, deal(seed), leader)
    keys = []
    for pick in choices:
        legal = state.legal_cards()
        assert legal
        hand = state.hands[state.turn]
        assert all(hand >> c & 1 for c in legal)
        keys.append((state.key(), state.turn, list(state.trick_points)))
        state.push(legal[pick % len(legal)])
    assert state.is_over()
    assert sum(state.trick_points) == (252 if state.capot() is not None else 162)
    assert len(state.tricks) == 8 and sum(state.tricks_won) == 8
    while keys:
        state.pop()
        assert (state.key(), state.turn, state.trick_points) == keys.pop()


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), trump=st.integers(0, 5), reuse=st.booleans(),
       split=st.booleans())
def test_default_announcement_is_valid(seed: int, trump: int, reuse: bool, split: bool) -> None:
    """The best grouping of a hand is a valid announcement under §7.3's options."""
    rules = make_rules("classic", {"card_reuse": reuse, "split_long_runs": split})
    for hand in deal(seed):
        decls = best_announcement(hand, rules, trump)
        check_announcement(decls, rules, "test")
        for d in decls:
            assert d.cards & ~hand == 0
