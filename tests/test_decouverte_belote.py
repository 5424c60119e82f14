"""Belote in belote découverte (docs/rules.md §12.2 with §7.7): only from visible cards.

A seat says belote when it plays the first of its trump king and queen knowing that
the other is its own, and rebelote with the second (§7.7).  In découverte a seat sees
its face-up cards and the cards it has already played, never a face-down card
(§12.2).  So:

- the other card face up: belote with the first, rebelote with the second, as usual;
- the other card face down: nothing is said with the first (the seat cannot know it,
  and the opponent must not learn it); when the seat plays the other card, turned up
  since, it says belote and rebelote together, and the belote counts its 20;
- a seat that declines where it could say it scores nothing (§7.7 omission).

The fast engine (``belote.round.Round``) and the small-table reference engine
(``tests.reference.small.RefSmallRound``) play the same deals side by side.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from belote.options import make_rules
from belote.replay import replay
from belote.round import OVER, Round
from tests.reference.engine import DECK
from tests.reference.small import RefSmallRound, ref_replay_small

RULES = make_rules("classic-2p", {"two_deal": "decouverte"})
DEALER = 1  # E deals, N (the non-dealer) leads (§12.2)


def deck_with(placed: dict[int, str]) -> list[str]:
    """A découverte deck (dealing order) with the given cards at the given places; the
    other cards follow in deck order.  Places: 0-3 N's first face-down cards, 8-11 the
    face-up cards on them; 16-19 N's next face-down cards, 24-27 the face-up ones on
    them; E's at 4-7, 12-15, 20-23, 28-31; the last card (31) fixes trump."""
    rest = iter(c for c in DECK if c not in placed.values())
    return [placed[i] if i in placed else next(rest) for i in range(32)]


Chooser = Callable[[int, list[str]], str]


def first_legal(seat: int, legal: list[str]) -> str:
    return legal[0]


def play_both(deck: list[str], choose: Chooser = first_legal,
              belote: Callable[[int, str], bool] = lambda seat, card: True
              ) -> tuple[list[tuple[int, str, str | None]], Round, RefSmallRound]:
    """Play the deal in both engines, the same cards; each card's words, checked equal."""
    fast = Round(RULES, DEALER, [DECK.index(c) for c in deck])
    ref = RefSmallRound(RULES, DEALER, list(deck))
    said: list[tuple[int, str, str | None]] = []
    while fast.phase != OVER:
        seat = ref.current_player()
        assert fast.current_player() == seat
        legal = ref.legal_cards()
        assert sorted(DECK[c] for c in fast.legal_cards()) == sorted(legal)
        card = choose(seat, legal)
        flag = belote(seat, card)
        f_word = fast.play_card(DECK.index(card), belote=flag).belote
        r_word = ref.play_card(card, flag)
        assert f_word == r_word, (card, f_word, r_word)
        said.append((seat, card, f_word))
    return said, fast, ref


def words_of(said: list[tuple[int, str, str | None]], seat: int) -> list[tuple[str, str]]:
    return [(card, word) for s, card, word in said if s == seat and word]


def king_first(seat: int, legal: list[str]) -> str:
    return "KH" if "KH" in legal else legal[0]


# N: the king of hearts face up on the queen of hearts; trump hearts (the ace, last dealt).
HIDDEN = deck_with({0: "QH", 8: "KH", 31: "AH"})
# N: king and queen of hearts both face up.
VISIBLE = deck_with({8: "KH", 9: "QH", 31: "AH"})


def test_queen_face_down_no_belote_with_the_king() -> None:
    """§12.2/§7.7: the queen lies face down under the king: nothing is said with the
    king; the queen, turned up and played later, carries belote and rebelote, and the
    belote counts 20 for N."""
    said, fast, ref = play_both(HIDDEN, king_first)
    assert said[0] == (0, "KH", None)
    assert words_of(said, 0) == [("QH", "belote-rebelote")]
    assert fast._play is not None and fast._play.belote_by_seat() == [20, 0]
    assert ref.result().belote == [20, 0]


def test_the_opponent_learns_nothing_from_a_face_down_queen() -> None:
    """What E sees after N's king: no belote said (it would reveal N's face-down queen)."""
    fast = Round(RULES, DEALER, [DECK.index(c) for c in HIDDEN])
    fast.play_card(DECK.index("KH"))
    assert fast.view(1).belote_cards == ()


def test_king_and_queen_face_up_belote_then_rebelote() -> None:
    """§7.7 as usual when both cards are face up: belote with the first, rebelote with
    the second."""
    said, fast, ref = play_both(VISIBLE, king_first)
    assert words_of(said, 0) == [("KH", "belote"), ("QH", "rebelote")]
    assert fast._play is not None and fast._play.belote_by_seat() == [20, 0]
    assert ref.result().belote == [20, 0]


def test_declining_where_it_could_be_said_scores_nothing() -> None:
    """§7.7 omission → 0: N declines with the queen, the first card with which it could
    say belote; declining with the king (queen face down) is no refusal at all."""
    said, fast, ref = play_both(HIDDEN, king_first, lambda seat, card: card != "QH")
    assert words_of(said, 0) == []
    assert fast._play is not None and fast._play.belote_by_seat() == [0, 0]
    assert ref.result().belote == [0, 0]
    said, fast, ref = play_both(HIDDEN, king_first, lambda seat, card: card != "KH")
    assert words_of(said, 0) == [("QH", "belote-rebelote")]
    assert fast._play is not None and fast._play.belote_by_seat() == [20, 0]


@pytest.mark.parametrize("deck", [HIDDEN, VISIBLE])
def test_records_replay_alike(deck: list[str]) -> None:
    """The records of these deals replay with the same score in ``belote replay`` and in
    the reference's record checker, belote said or declined."""
    for flag in (True, False):
        fast = Round(RULES, DEALER, [DECK.index(c) for c in deck])
        while fast.phase != OVER:
            legal = sorted(DECK[c] for c in fast.legal_cards())
            card = king_first(fast.current_player(), legal)
            fast.play_card(DECK.index(card), belote=flag or fast.current_player() == 1)
        record = fast.to_record()
        assert replay(record)["score"]["score"] == ref_replay_small(record)["score"]["score"]
        assert fast.result().seats is not None
        assert list(fast.result().seats or ()) == list(
            ref_replay_small(record)["score"]["score"].values())
