"""Legal play, trick winners and points (docs/rules.md §5, §6)."""

from __future__ import annotations

import random

import pytest

from belote.cards import HEARTS, SUIT_OF, mask_of, order_table
from belote.options import make_rules
from belote.play import BEATING, PlayState, explain_illegal, trick_winner
from tests.helpers import mask, names, position

# Seats: N=0 E=1 S=2 W=3; N+S vs E+W.


def legal(*args: object, **kw: object) -> str:
    state = position(*args, **kw)  # type: ignore[arg-type]
    return names(state.legal_mask())


def test_leader_plays_anything() -> None:
    assert legal(("7S JH AD", "", "", ""), "H") == "7S JH AD"


def test_6_1_follow_plain_suit_any_card_of_it() -> None:
    # N leads AS; E holds spades: any spade, even a lower one.
    assert legal(("", "7S KS JH", "", ""), "H", 0, "AS") == "7S KS"


def test_6_2_trump_led_must_overtrump_if_able() -> None:
    assert legal(("", "7H AH KS", "", ""), "H", 0, "TH") == "AH"


def test_6_2_trump_led_any_trump_when_unable_to_overtrump() -> None:
    assert legal(("", "7H 8H KS", "", ""), "H", 0, "9H") == "7H 8H"


def test_6_2_overtrump_partner_on_trump_lead_default_true() -> None:
    # N leads 9H, E plays 7H, S (partner of N, master) must still overtrump.
    assert legal(("", "", "8H JH", ""), "H", 0, "9H 7H") == "JH"


def test_6_2_overtrump_partner_on_trump_lead_false() -> None:
    s = "8H JH"
    assert legal(("", "", s, ""), "H", 0, "9H 7H", overtrump_partner_on_trump_lead=False) == s


def test_6_4_void_in_led_trump_any_card() -> None:
    assert legal(("", "7S AD", "", ""), "H", 0, "JH") == "7S AD"


def test_6_3b_void_must_trump_when_no_trump_on_table() -> None:
    assert legal(("", "7H JH AD", "", ""), "H", 0, "AS") == "7H JH"


def test_6_3c_void_must_overtrump_a_trump_on_table() -> None:
    # N leads AS, E trumps 9H, S (void) holds 7H JH: must play JH.
    assert legal(("", "", "7H JH AD", ""), "H", 0, "AS 9H") == "JH"


def test_6_3c_must_undertrump_false_any_card_when_unable() -> None:
    assert legal(("", "", "7H AD", ""), "H", 0, "AS 9H") == "7H AD"


def test_6_3c_must_undertrump_true_any_trump_when_unable() -> None:
    assert legal(("", "", "7H AD", ""), "H", 0, "AS 9H", must_undertrump=True) == "7H"


def test_6_3a_partner_master_exemption_any_card() -> None:
    # N leads AS (master); S is N's partner and void in spades.
    assert legal(("", "", "7H AD", ""), "H", 0, "AS 7S") == "7H AD"


def test_6_3a_without_exemption_must_trump_partner() -> None:
    assert legal(("", "", "7H AD", ""), "H", 0, "AS 7S", partner_master_exemption=False) == "7H"


def test_6_3a_undertrump_partner_allowed() -> None:
    # N leads AS, E plays 7S, S trumps 9H (master), W plays 8S? no: make W void.
    # W's partner E is not master; take W's partner master: E trumps.
    # N leads AS, E trumps JH (master), S plays 7S, W (partner of E) void in spades.
    assert legal(("", "", "", "7H AD"), "H", 0, "AS JH 7S") == "7H AD"


def test_6_3a_undertrump_only_if_only_trumps() -> None:
    opts = {"undertrump_partner": "only_if_only_trumps"}
    # W holds 7H (lower than partner's 9H) and AD: may not undertrump.
    assert legal(("", "", "", "7H AD"), "H", 0, "AS 9H 7S", **opts) == "AD"
    # ... but a higher trump is fine.
    assert legal(("", "", "", "JH 7H AD"), "H", 0, "AS 9H 7S", **opts) == "JH AD"
    # holding only trumps: any.
    assert legal(("", "", "", "7H 8H"), "H", 0, "AS 9H 7S", **opts) == "7H 8H"


def test_6_3a_must_overtrump_if_only_trumps() -> None:
    opts = {"undertrump_partner": "must_overtrump_if_only_trumps"}
    assert legal(("", "", "", "7H JH"), "H", 0, "AS 9H 7S", **opts) == "JH"
    assert legal(("", "", "", "7H 8H"), "H", 0, "AS 9H 7S", **opts) == "7H 8H"
    assert legal(("", "", "", "7H AD"), "H", 0, "AS 9H 7S", **opts) == "AD"


def test_6_3d_no_trump_any_card() -> None:
    assert legal(("", "7D AC", "", ""), "H", 0, "AS") == "7D AC"


def test_sans_atout_follow_or_anything() -> None:
    # §6.1 SA: no duty to beat; §6.4 void: any card.
    assert legal(("", "7S KS", "", ""), "SA", 0, "AS") == "7S KS"
    assert legal(("", "7H AD", "", ""), "SA", 0, "AS") == "7H AD"


def test_tout_atout_must_beat_master_of_led_suit() -> None:
    # §6.1 TA: every suit ranks as trump; E must beat 9S with JS.
    assert legal(("", "7S JS", "", ""), "TA", 0, "9S") == "JS"
    assert legal(("", "7S 8S", "", ""), "TA", 0, "9S") == "7S 8S"
    assert legal(("", "7H AD", "", ""), "TA", 0, "9S") == "7H AD"


def test_5_5_trick_winner() -> None:
    from belote.cards import parse_card

    def w(cards: str, trump: int = HEARTS) -> int:
        return trick_winner([parse_card(c) for c in cards.split()], trump)

    assert w("AS TS KS 7S") == 0
    assert w("7S AS 7H KS") == 2  # trumped
    assert w("7S 9H JH AS") == 2  # J over 9 in trumps
    assert w("7S AD AC 8S") == 3  # off-suit aces do not win
    assert w("9S JS AS TS", 4) == 2  # SA: plain order
    assert w("9S JS AS TS", 5) == 1  # TA: trump order in every suit


def test_5_1_points_add_to_162_and_capot_252() -> None:
    rng = random.Random(5)
    rules = make_rules()
    for _ in range(300):
        deck = list(range(32))
        rng.shuffle(deck)
        s = PlayState(rules, rng.randrange(4), [mask_of(deck[i * 8:i * 8 + 8]) for i in range(4)],
                      rng.randrange(4))
        while not s.is_over():
            s.push(rng.choice(s.legal_cards()))
        total = sum(s.trick_points)
        assert total == (252 if s.capot() is not None else 162)


def test_5_2_capot_last_trick_is_100() -> None:
    # N holds all trumps and wins every trick.
    hands = ("JH 9H AH TH KH QH 8H 7H", "7S 8S 9S TS JS QS KS AS",
             "7D 8D 9D TD JD QD KD AD", "7C 8C 9C TC JC QC KC AC")
    s = position(hands, "H")
    while not s.is_over():
        s.push(s.legal_cards()[-1] if s.turn == 0 else s.legal_cards()[0])
    assert s.capot() == 0
    assert s.tricks[-1].points >= 100
    assert s.trick_points == [252, 0]


@pytest.mark.parametrize("trump", [0, 1, 2, 3, 4, 5])
def test_push_pop_restores_everything(trump: int) -> None:
    rng = random.Random(trump)
    rules = make_rules()
    for _ in range(50):
        deck = list(range(32))
        rng.shuffle(deck)
        s = PlayState(rules, trump, [mask_of(deck[i * 8:i * 8 + 8]) for i in range(4)], 1)
        keys = []
        while not s.is_over():
            keys.append((s.key(), s.turn, list(s.trick_points), s.master(), s.legal_mask()))
            s.push(rng.choice(s.legal_cards()))
        while keys:
            s.pop()
            assert (s.key(), s.turn, s.trick_points, s.master(), s.legal_mask()) == keys.pop()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pop_restores_the_master_in_a_search(players: int) -> None:
    """Pushes and pops interleaved as a search makes them, at every table size: each
    pop brings back the position (the master of the trick included) of before its push."""
    rng = random.Random(players)
    rules = make_rules()
    teams = (0, 1, 1) if players == 3 else None
    for trump in range(6):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [mask_of(deck[i * 8:i * 8 + 8]) for i in range(players)]
        s = PlayState(rules, trump, hands, players - 1, teams=teams)
        keys: list[tuple[object, ...]] = []
        for _ in range(200):
            if keys and (s.is_over() or rng.random() < 0.4):
                s.pop()
                assert (s.key(), s.turn, s.trick_points, s.master(), s.legal_mask()) == keys.pop()
            else:
                keys.append((s.key(), s.turn, list(s.trick_points), s.master(), s.legal_mask()))
                s.push(rng.choice(s.legal_cards()))


@pytest.mark.parametrize("trump", [0, 1, 2, 3, 4, 5])
def test_beating_is_a_higher_card_of_the_suit_or_a_trump_on_a_plain_card(trump: int) -> None:
    """§5.5: a card takes the trick over from the master card when it is higher in the
    master's suit, or a trump (of a trump suit) played on a plain card."""
    order = order_table(trump)
    for master in range(32):
        for c in range(32):
            if SUIT_OF[c] == SUIT_OF[master]:
                beats = order[c] > order[master]
            else:
                beats = SUIT_OF[c] == trump
            assert bool(BEATING[trump][master] >> c & 1) == beats


def test_explain_illegal_names_the_rule() -> None:
    from belote.cards import parse_card

    s = position(("", "", "7H JH AD", ""), "H", 0, "AS 9H")
    assert explain_illegal(s, parse_card("7H")) == "must overtrump (§6.3c)"
    assert explain_illegal(s, parse_card("KC")) == "S does not hold KC"
    assert explain_illegal(s, parse_card("JH")) is None
    s = position(("", "7S KS", "", ""), "H", 0, "AS")
    assert explain_illegal(s, parse_card("KS")) is None
    s = position(("", "7S JH", "", ""), "H", 0, "AS")
    assert explain_illegal(s, parse_card("JH")) == "must follow suit (§6.1)"


def test_copy_is_independent() -> None:
    s = position(("7S", "8S", "9S", "TS"), "H")
    t = s.copy()
    t.push(t.legal_cards()[0])
    assert s.hands[0] == mask("7S") and s.trick == []
