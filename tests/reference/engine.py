"""The reference engine: classic and Moroccan belote, written plainly from docs/rules.md.

Nothing here is fast and nothing here is clever.  Cards are two-letter strings
("JH", "TS"), hands are lists of such strings, seats are "N" "E" "S" "W" (play
goes N -> E -> S -> W), teams are "NS" and "EW".  Each rule is one function whose
docstring names its docs/rules.md section.  The only project code used is
:func:`belote.options.make_rules` (the option table), never the fast engine.

Public functions:

- :func:`card_points`, :func:`card_strength`, :func:`trick_winner` (§5)
- :func:`legal_cards` (§6), :func:`explain_illegal`
- :func:`held_combinations`, :func:`check_announcement`, :func:`default_announcement`,
  :func:`compare_declarations` (§7.2-7.6), :func:`belote_holders` (§7.7)
- :func:`hand_score` (§8, CONTRACT HandScore)
- :class:`RefPlay` (a play state with push/pop), :func:`ref_count_sequences` (perft)
- :func:`ref_replay` (CONTRACT ``belote replay`` for classic and moroccan; coinche and
  contrée records go to :mod:`tests.reference.auction`)

Choices made where docs/rules.md / docs/json.md are silent are marked "CHOICE:" below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from belote.options import Rules, make_rules

# --- seats and teams (§0.1, CONTRACT "Common conventions") -------------------------

SEATS: tuple[str, ...] = ("N", "E", "S", "W")
TEAMS: tuple[str, ...] = ("NS", "EW")

# --- cards (§1.1) ----------------------------------------------------------------

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
RANKS: tuple[str, ...] = ("7", "8", "9", "T", "J", "Q", "K", "A")  # sequence order (§7.2)
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)  # S H D C, 7..A
TRUMP_MODES: tuple[str, ...] = ("S", "H", "D", "C", "SA", "TA")

# §5.1 orders, weakest first.
TRUMP_ORDER: tuple[str, ...] = ("7", "8", "Q", "K", "T", "A", "9", "J")
PLAIN_ORDER: tuple[str, ...] = ("7", "8", "9", "J", "Q", "K", "T", "A")

# §5.1, §5.3, §5.4 points.
TRUMP_POINTS: dict[str, int] = {
    "J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0,
}
PLAIN_POINTS: dict[str, int] = {
    "A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0,
}
NO_TRUMP_POINTS: dict[str, int] = {
    "A": 19, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0,
}
ALL_TRUMP_POINTS: dict[str, dict[str, int]] = {
    "pc": {"J": 14, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 1, "8": 0, "7": 0},
    "ffbc": {"J": 13, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 2, "8": 0, "7": 0},
    "scaled": TRUMP_POINTS,  # full trump values; the ×162/258 applies to a hand total
}

_RANK_INPUT: dict[str, str] = {
    "7": "7", "8": "8", "9": "9", "T": "T", "10": "T", "J": "J", "Q": "Q", "K": "K", "A": "A",
}
_SUIT_INPUT: dict[str, str] = {
    "S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C",
}


def rank(card: str) -> str:
    """The rank letter of a card: ``rank("TH") == "T"``."""
    return card[0]


def suit(card: str) -> str:
    """The suit letter of a card: ``suit("TH") == "H"``."""
    return card[1]


def deck_index(card: str) -> int:
    """Position of a card in deck order S H D C, 7 to A (CONTRACT: sorting of ``legal``)."""
    return DECK.index(card)


def sort_cards(cards: Sequence[str]) -> list[str]:
    """Cards sorted in deck order."""
    return sorted(cards, key=deck_index)


def parse_card_name(text: object) -> str:
    """A card from its CONTRACT input form: ``JH``, ``jh``, ``10H``, ``10♥`` -> canonical."""
    if not isinstance(text, str):
        raise ValueError(f"not a card: {text!r}")
    t = text.strip().upper()
    if len(t) >= 2 and t[:-1] in _RANK_INPUT and t[-1] in _SUIT_INPUT:
        return _RANK_INPUT[t[:-1]] + _SUIT_INPUT[t[-1]]
    raise ValueError(f"not a card: {text!r}")


def team_of(seat: str) -> str:
    """§0.1: seats 0+2 (N, S) against 1+3 (E, W)."""
    return "NS" if seat in ("N", "S") else "EW"


def next_seat(seat: str, steps: int = 1) -> str:
    """§0.1: the next player in play order N -> E -> S -> W -> N."""
    return SEATS[(SEATS.index(seat) + steps) % 4]


def partner_of(seat: str) -> str:
    return next_seat(seat, 2)


def other_team(team: str) -> str:
    return "EW" if team == "NS" else "NS"


# --- §5 card order and points ------------------------------------------------------


def is_trump_suit(card: str, trump: str) -> bool:
    """Whether a card belongs to the trump suit of a suit contract (never in SA or TA)."""
    return trump in SUITS and suit(card) == trump


def card_strength(card: str, trump: str) -> int:
    """§5.1/§5.4: rank strength of a card within its own suit, 0 = weakest.

    Trump suit (and every suit in TA): J 9 A T K Q 8 7.  Plain (and every suit in
    SA): A T K Q J 9 8 7.
    """
    if trump == "TA" or is_trump_suit(card, trump):
        return TRUMP_ORDER.index(rank(card))
    return PLAIN_ORDER.index(rank(card))


def card_points(card: str, trump: str, ta_values: str = "pc") -> int:
    """§5.1 (suit trump), §5.3 (SA: aces 19), §5.4 (TA by ``ta_values``)."""
    if trump == "SA":
        return NO_TRUMP_POINTS[rank(card)]
    if trump == "TA":
        return ALL_TRUMP_POINTS[ta_values][rank(card)]
    if suit(card) == trump:
        return TRUMP_POINTS[rank(card)]
    return PLAIN_POINTS[rank(card)]


def trick_winner(cards: Sequence[str], trump: str) -> int:
    """§5.5: index (0 = leader) of the card winning the trick so far.

    The highest trump if any trump is in the trick (suit contracts only), else the
    highest card of the led suit.  In TA every suit ranks as trump, yet only the
    led suit can win; in SA there is no trump.
    """
    if trump in SUITS:
        trump_indexes = [i for i, c in enumerate(cards) if suit(c) == trump]
        if trump_indexes:
            best = trump_indexes[0]
            for i in trump_indexes:
                if card_strength(cards[i], trump) > card_strength(cards[best], trump):
                    best = i
            return best
    led = suit(cards[0])
    best = 0
    for i, c in enumerate(cards):
        if suit(c) == led and card_strength(c, trump) > card_strength(cards[best], trump):
            best = i
    return best


def trick_points(cards: Sequence[str], trump: str, ta_values: str = "pc") -> int:
    """§5.1: the card points of a trick (no last-trick bonus)."""
    return sum(card_points(c, trump, ta_values) for c in cards)


# --- §6 legal moves ------------------------------------------------------------------


def _higher_than(cards: Sequence[str], top: str, trump: str) -> list[str]:
    """The cards among ``cards`` of ``top``'s suit that rank above ``top``."""
    return [
        c for c in cards
        if suit(c) == suit(top) and card_strength(c, trump) > card_strength(top, trump)
    ]


def _highest(cards: Sequence[str], trump: str) -> str:
    """The strongest of some cards of one suit."""
    best = cards[0]
    for c in cards:
        if card_strength(c, trump) > card_strength(best, trump):
            best = c
    return best


def _void_partner_master(
    hand: list[str], trumps: list[str], table_trumps: list[str], trump: str, rules: Rules
) -> list[str]:
    """§6.3 a: void in the led plain suit, partner master, ``partner_master_exemption``.

    ``undertrump_partner`` (only matters when the partner's master card is a trump):
    ``allowed``: any card; ``only_if_only_trumps``: any card except a trump lower
    than the highest trump on the table, unless the hand holds only trumps;
    ``must_overtrump_if_only_trumps``: as the previous, and a hand of only trumps
    must overtrump if able.
    """
    if rules.undertrump_partner == "allowed" or not table_trumps:
        return list(hand)
    top = _highest(table_trumps, trump)
    higher = _higher_than(trumps, top, trump)
    only_trumps = len(trumps) == len(hand)
    if only_trumps:
        if rules.undertrump_partner == "must_overtrump_if_only_trumps" and higher:
            return higher
        return list(hand)
    return [c for c in hand if not is_trump_suit(c, trump) or c in higher]


def legal_cards(hand: Sequence[str], trick: Sequence[str], trump: str, rules: Rules) -> list[str]:
    """§6: the cards of ``hand`` that may be played on ``trick`` (cards so far, leader first).

    The player's partner played ``trick[-2]`` (when there are two or more cards);
    "master" is the player currently winning the trick (§5.5).  Sorted in deck order.
    """
    hand = list(hand)
    if not trick:
        return sort_cards(hand)  # the leader plays anything
    led = suit(trick[0])
    following = [c for c in hand if suit(c) == led]
    partner_master = len(trick) >= 2 and trick_winner(trick, trump) == len(trick) - 2

    if trump == "SA":
        # §6.1 SA: follow suit, no duty to beat; §6.4: void -> any card.
        return sort_cards(following if following else hand)
    if trump == "TA":
        # §6.1 TA: follow suit and beat the master card of the led suit if able; §6.4.
        if not following:
            return sort_cards(hand)
        master_card = trick[trick_winner(trick, trump)]
        higher = _higher_than(following, master_card, trump)
        return sort_cards(higher if higher else following)
    if led == trump:
        # §6.2: trump led.
        if not following:
            return sort_cards(hand)  # §6.4
        if partner_master and not rules.overtrump_partner_on_trump_lead:
            return sort_cards(following)
        top = _highest([c for c in trick if suit(c) == trump], trump)
        higher = _higher_than(following, top, trump)
        return sort_cards(higher if higher else following)
    # Plain suit led.
    if following:
        return sort_cards(following)  # §6.1
    trumps = [c for c in hand if suit(c) == trump]
    if not trumps:
        return sort_cards(hand)  # §6.3 d
    table_trumps = [c for c in trick if suit(c) == trump]
    if partner_master and rules.partner_master_exemption:
        return sort_cards(_void_partner_master(hand, trumps, table_trumps, trump, rules))  # 6.3 a
    if not table_trumps:
        return sort_cards(trumps)  # §6.3 b
    higher = _higher_than(trumps, _highest(table_trumps, trump), trump)
    if higher:
        return sort_cards(higher)  # §6.3 c
    return sort_cards(trumps if rules.must_undertrump else hand)  # §6.3 c


def explain_illegal(
    hand: Sequence[str], trick: Sequence[str], trump: str, rules: Rules, card: str
) -> str:
    """Why ``card`` may not be played here (a short phrase naming the rule)."""
    if card not in hand:
        return "not in hand"
    legal = legal_cards(hand, trick, trump, rules)
    if card in legal:
        return "legal"
    led = suit(trick[0])
    if suit(card) != led and any(suit(c) == led for c in legal):
        return f"must follow suit {led} (docs/rules.md §6.1/§6.2)"
    if suit(card) == led:
        if trump == "TA":
            return "must beat the master card (docs/rules.md §6.1, TA)"
        return "must overtrump (docs/rules.md §6.2)"
    if all(is_trump_suit(c, trump) for c in legal):
        if any(is_trump_suit(c, trump) for c in trick):
            return "must overtrump (docs/rules.md §6.3 c)"
        return "must trump (docs/rules.md §6.3 b)"
    return f"may not undertrump partner (docs/rules.md §6.3 a, {rules.undertrump_partner})"


# --- §7 declarations -------------------------------------------------------------------


@dataclass(frozen=True)
class Combination:
    """A declaration (§7.2): a sequence (tierce, cinquante, cent) or a carré."""

    kind: str  # "sequence" or "carre"
    cards: tuple[str, ...]  # deck order
    value: int
    suit: str  # sequence: its suit; carré: ""
    rank: str  # carré: its rank; sequence: the top card's rank
    low: int  # sequence: index in RANKS of the lowest card; carré: -1
    high: int  # sequence: index in RANKS of the top card; carré: -1

    @property
    def length(self) -> int:
        return len(self.cards)


def sequence_value(length: int) -> int:
    """§7.2: tierce (3) 20, cinquante (4) 50, cent (5 or more) 100."""
    if length >= 5:
        return 100
    return {3: 20, 4: 50}[length]


def carre_value(rank_letter: str, trump: str) -> int:
    """§7.2: carré values; 0 for a rank that makes no carré (7s, 8s).

    Suit trump (and TA): J 200, 9 150, A T K Q 100.  SA: A 200, T 150, K Q J 9 100.
    """
    if trump == "SA":
        return {"A": 200, "T": 150, "K": 100, "Q": 100, "J": 100, "9": 100}.get(rank_letter, 0)
    return {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}.get(rank_letter, 0)


def make_combination(cards: Sequence[str], trump: str) -> Combination:
    """§7.2: read some cards as one combination, or raise ValueError saying why not."""
    cs = sort_cards(cards)
    if len(set(cs)) != len(cs):
        raise ValueError(f"{cs!r} repeats a card")
    if len(cs) == 4 and len({rank(c) for c in cs}) == 1:
        value = carre_value(rank(cs[0]), trump)
        if value == 0:
            raise ValueError(
                f"{cs!r}: a carré of {rank(cs[0])}s is worth nothing (docs/rules.md §7.2)")
        return Combination("carre", tuple(cs), value, "", rank(cs[0]), -1, -1)
    if len(cs) >= 3 and len({suit(c) for c in cs}) == 1:
        indexes = [RANKS.index(rank(c)) for c in cs]  # increasing, as deck order is
        if indexes == list(range(indexes[0], indexes[0] + len(indexes))):
            return Combination(
                "sequence", tuple(cs), sequence_value(len(cs)), suit(cs[0]),
                rank(cs[-1]), indexes[0], indexes[-1],
            )
    raise ValueError(f"{cs!r} is not a sequence or a carré (docs/rules.md §7.2)")


def held_combinations(hand: Sequence[str], trump: str) -> list[Combination]:
    """§7.2: every combination the hand holds: every run of 3+ consecutive cards of a suit
    (sub-runs of longer runs included) and every carré of J 9 A T K Q."""
    found: list[Combination] = []
    for s in SUITS:
        for low in range(8):
            for high in range(low + 2, 8):
                run = [RANKS[i] + s for i in range(low, high + 1)]
                if all(c in hand for c in run):
                    found.append(make_combination(run, trump))
    for r in RANKS:
        four = [r + s for s in SUITS]
        if all(c in hand for c in four) and carre_value(r, trump) > 0:
            found.append(make_combination(four, trump))
    return found


def compatible(a: Combination, b: Combination, rules: Rules) -> bool:
    """§7.3: whether one seat may announce both ``a`` and ``b``.

    ``card_reuse`` false: no card in two combinations; true: a card may serve a carré
    and a sequence (never two sequences).  ``split_long_runs`` false: two sequences
    of one suit may not touch (a run of 6-8 is one cent); true: they may.
    """
    shared = set(a.cards) & set(b.cards)
    if shared and (not rules.card_reuse or a.kind == b.kind):
        return False
    touching = (
        a.kind == "sequence" and b.kind == "sequence" and a.suit == b.suit
        and (a.high + 1 == b.low or b.high + 1 == a.low)
    )
    return not (touching and not rules.split_long_runs)


def comparison_key(combo: Combination, trump: str, rules: Rules) -> tuple[int, ...]:
    """§7.5: a key ordering combinations of different teams, higher wins.

    (1) value; a carré beats a sequence of equal value; carrés J > 9 > A > T > K > Q
    (SA: A > T > K > Q > J > 9, CHOICE for the order among equal values);
    (2) top card (``longer_run_first``: length first); (3) trump beats plain.
    """
    if combo.kind == "carre":
        order = "9JQKTA" if trump == "SA" else "QKTA9J"  # weakest first
        return (combo.value, 1, order.index(combo.rank), 0, 0, 0)
    length = combo.length if rules.longer_run_first else 0
    in_trump = 1 if combo.suit == trump else 0
    return (combo.value, 0, 0, length, combo.high, in_trump)


def check_announcement(
    seat: str, hand: Sequence[str], announced: object, trump: str, rules: Rules
) -> list[Combination]:
    """§7.2-7.3: check a seat's announced combinations; return them, or raise ValueError."""
    if not isinstance(announced, list):
        raise ValueError(f"declarations of {seat}: {announced!r} is not a list of combinations")
    combos: list[Combination] = []
    for item in announced:
        if not isinstance(item, list):
            raise ValueError(f"declarations of {seat}: {item!r} is not a list of cards")
        cards = [parse_card_name(t) for t in item]
        for c in cards:
            if c not in hand:
                raise ValueError(f"declarations of {seat}: {seat} does not hold {c}")
        try:
            combo = make_combination(cards, trump)
        except ValueError as exc:
            raise ValueError(f"declarations of {seat}: {exc}") from None
        for other in combos:
            if not compatible(other, combo, rules):
                raise ValueError(
                    f"declarations of {seat}: {list(combo.cards)!r} may not be announced "
                    f"with {list(other.cards)!r} (docs/rules.md §7.3)"
                )
        combos.append(combo)
    return combos


def _compatible_sets(
    candidates: list[Combination], rules: Rules, start: int, chosen: list[Combination]
) -> list[list[Combination]]:
    """Every set of pairwise compatible candidates from ``start`` on, added to ``chosen``."""
    if start == len(candidates):
        return [list(chosen)]
    sets = _compatible_sets(candidates, rules, start + 1, chosen)  # without candidates[start]
    combo = candidates[start]
    if all(compatible(other, combo, rules) for other in chosen):
        sets += _compatible_sets(candidates, rules, start + 1, [*chosen, combo])
    return sets


def default_announcement(hand: Sequence[str], trump: str, rules: Rules) -> list[Combination]:
    """CONTRACT ``declarations`` absent: all the seat holds, grouped for the most points.

    Every compatible set of held combinations is tried; the most points wins.
    CHOICE: between sets of equal points, the one whose strongest combination is
    strongest by §7.5 (so a split 8-run 7-9 + T-A beats 7-J + Q-A).
    """
    best: list[Combination] = []
    best_score: tuple[Any, ...] = (0, ())
    for group in _compatible_sets(held_combinations(hand, trump), rules, 0, []):
        if not group:
            continue
        points = sum(c.value for c in group)
        top = max(comparison_key(c, trump, rules) for c in group)
        if (points, top) > best_score:
            best, best_score = group, (points, top)
    return best


def compare_declarations(
    announced: Mapping[str, Sequence[Combination]], trump: str, rules: Rules, first_seat: str
) -> dict[str, Any]:
    """§7.5-7.6: the team whose best combination wins scores all its combinations.

    ``first_seat`` leads trick 1; for ``decl_tie`` = first_announcer the tie goes to
    the team of the first seat in play order from it holding a combination equal to
    the tied best (CHOICE: "first announcer" read as the first holder of the tied best).
    Returns ``{"winner": team or None, "points": {"NS": .., "EW": ..}}``.
    """
    best: dict[str, tuple[int, ...] | None] = {"NS": None, "EW": None}
    for seat in SEATS:
        for combo in announced.get(seat, []):
            key = comparison_key(combo, trump, rules)
            current = best[team_of(seat)]
            if current is None or key > current:
                best[team_of(seat)] = key
    ns, ew = best["NS"], best["EW"]
    winner: str | None
    if ns is None and ew is None:
        winner = None
    elif ew is None or (ns is not None and ns > ew):
        winner = "NS"
    elif ns is None or ew > ns:
        winner = "EW"
    elif rules.decl_tie == "first_announcer":
        winner = None
        for step in range(4):
            seat = next_seat(first_seat, step)
            if any(comparison_key(c, trump, rules) == ns for c in announced.get(seat, [])):
                winner = team_of(seat)
                break
    else:
        winner = None  # decl_tie = nobody
    points = {"NS": 0, "EW": 0}
    if winner is not None:
        for seat in SEATS:
            if team_of(seat) == winner:
                points[winner] += sum(c.value for c in announced.get(seat, []))
    return {"winner": winner, "points": points}


def belote_holders(hands: Mapping[str, Sequence[str]], trump: str) -> list[tuple[str, str]]:
    """§7.7: (seat, suit) for each trump suit whose K and Q one seat holds.

    One per suit in TA; none in SA.
    """
    suits = [] if trump == "SA" else list(SUITS) if trump == "TA" else [trump]
    found = []
    for s in suits:
        for seat in SEATS:
            if "K" + s in hands[seat] and "Q" + s in hands[seat]:
                found.append((seat, s))
    return found


def belote_counts(
    seat: str, belote_suit: str, plays: Sequence[tuple[str, str]], rules: Rules
) -> bool:
    """§7.7: whether an announced belote of ``seat`` scores, given the plays so far.

    It scores once both the king and the queen have been played (CHOICE for
    unfinished records); with ``king_first`` only if the king came before the queen
    (our reading of the option).
    """
    king, queen = "K" + belote_suit, "Q" + belote_suit
    order = [card for who, card in plays if who == seat and card in (king, queen)]
    if len(order) < 2:
        return False
    return not (rules.king_first and order[0] != king)


# --- §8 classic / Moroccan hand score ------------------------------------------------


def hand_score(
    rules: Rules,
    taker_team: str,
    trick_pts: Mapping[str, int],
    capot: str | None,
    declarations: Mapping[str, int],
    belote: Mapping[str, int],
    reserve: int = 0,
) -> dict[str, Any]:
    """§8: CONTRACT HandScore of a classic/Moroccan hand.

    ``trick_pts`` includes the last trick's bonus (252/0 on capot); ``declarations``
    are the validated points per team after the §7.5 comparison; ``belote`` the
    belote points per team.  CHOICE: ``capot_loser_declarations`` is applied before
    the totals are formed, so ``totals`` already show it.
    """
    takers, defenders = taker_team, other_team(taker_team)
    decl = {"NS": declarations.get("NS", 0), "EW": declarations.get("EW", 0)}
    bel = {"NS": belote.get("NS", 0), "EW": belote.get("EW", 0)}
    # §8.5 capot_loser_declarations.
    if capot is not None:
        loser = other_team(capot)
        if rules.capot_loser_declarations == "to_capot_team":
            decl[capot] += decl[loser]
            decl[loser] = 0
        elif rules.capot_loser_declarations == "void":
            decl[loser] = 0
    # §8.1 totals.
    totals = {t: trick_pts[t] + decl[t] + bel[t] for t in TEAMS}
    if totals[takers] > totals[defenders]:
        outcome = "made"
    elif totals[takers] < totals[defenders]:
        outcome = "failed"
    else:
        outcome = {"litige": "litige", "fail": "failed", "made": "made"}[rules.tie_rule]
    score = {"NS": 0, "EW": 0}
    new_reserve = 0
    if outcome == "made":
        # §8.2: each team scores its total; the reserve goes to the takers (§8.4).
        score[takers] = totals[takers] + reserve
        score[defenders] = totals[defenders]
    elif outcome == "failed":
        # §8.3 with §7.8 belote_on_failure and taker_decl_on_failure.
        base = 252 if capot == defenders else 162
        score[defenders] = base + decl[defenders] + bel[defenders] + reserve
        if rules.taker_decl_on_failure == "transfer":
            score[defenders] += decl[takers]
        if rules.belote_on_failure == "kept":
            score[takers] = bel[takers]
        else:
            score[defenders] += bel[takers]
    else:
        # §8.4 litige.
        score[defenders] = totals[defenders]
        score[takers] = bel[takers]
        new_reserve = reserve + totals[takers] - bel[takers]
    return {"outcome": outcome, "totals": totals, "score": score, "reserve": new_reserve}


# --- a play state (for perft and the cross-check) ------------------------------------


@dataclass
class RefTrick:
    """A finished trick."""

    leader: str
    cards: list[str]
    winner: str
    points: int


class RefPlay:
    """The card play of one hand, plainly (§5, §6): hands, the current trick, tricks won.

    ``hands`` maps seats to the cards they still hold; ``trick`` holds the cards of
    the current trick, led by ``leader``.  ``push`` checks legality; ``pop`` restores a
    full copy of the previous state.  The last trick's bonus (§5.1, §5.2) is added
    when every hand is empty: 10, or 100 when one team then holds all 8 tricks.
    """

    def __init__(
        self,
        rules: Rules,
        trump: str,
        hands: Mapping[str, Sequence[str]],
        leader: str,
        trick: Sequence[str] = (),
    ) -> None:
        if trump not in TRUMP_MODES:
            raise ValueError(f"not a trump: {trump!r}")
        self.rules = rules
        self.trump = trump
        self.hands: dict[str, list[str]] = {s: sort_cards(hands[s]) for s in SEATS}
        self.leader = leader
        self.trick: list[str] = list(trick)
        self.tricks: list[RefTrick] = []
        self.trick_points: dict[str, int] = {"NS": 0, "EW": 0}
        self._history: list[tuple[Any, ...]] = []
        sizes = [len(self.hands[next_seat(leader, i)]) + (1 if i < len(self.trick) else 0)
                 for i in range(4)]
        if len(set(sizes)) != 1 or len(self.trick) > 3:
            raise ValueError(f"hand sizes {sizes!r} do not fit a trick of {self.trick!r}")

    @property
    def turn(self) -> str:
        return next_seat(self.leader, len(self.trick))

    def is_over(self) -> bool:
        return not self.trick and all(not h for h in self.hands.values())

    def cards_left(self) -> int:
        return sum(len(h) for h in self.hands.values())

    def legal(self) -> list[str]:
        return legal_cards(self.hands[self.turn], self.trick, self.trump, self.rules)

    def push(self, card: str) -> None:
        seat = self.turn
        if card not in self.legal():
            reason = explain_illegal(self.hands[seat], self.trick, self.trump, self.rules, card)
            raise ValueError(f"{seat} may not play {card}: {reason}")
        self._history.append((
            {s: list(h) for s, h in self.hands.items()}, self.leader, list(self.trick),
            list(self.tricks), dict(self.trick_points),
        ))
        self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) == 4:
            winner = next_seat(self.leader, trick_winner(self.trick, self.trump))
            points = trick_points(self.trick, self.trump, self.rules.ta_values)
            if all(not h for h in self.hands.values()):
                winners = {team_of(t.winner) for t in self.tricks} | {team_of(winner)}
                capot = len(self.tricks) == 7 and len(winners) == 1
                points += 100 if capot else 10
            self.tricks.append(RefTrick(self.leader, list(self.trick), winner, points))
            self.trick_points[team_of(winner)] += points
            self.leader = winner
            self.trick = []

    def pop(self) -> None:
        hands, leader, trick, tricks, tp = self._history.pop()
        self.hands, self.leader, self.trick, self.tricks, self.trick_points = (
            hands, leader, trick, tricks, tp
        )


def ref_count_sequences(
    rules: Rules,
    trump: str,
    hands: Mapping[str, Sequence[str]],
    leader: str,
    trick: Sequence[str],
    depth: int,
) -> int:
    """Perft: the number of legal play sequences of exactly ``depth`` cards from a position.

    ``leader`` led the current trick, whose cards so far are ``trick``; ``hands`` hold
    the cards left.  ``depth`` may not exceed the cards left.
    """
    state = RefPlay(rules, trump, hands, leader, trick)
    if depth > state.cards_left():
        raise ValueError(f"depth {depth} exceeds the {state.cards_left()} cards left")
    return _count(state, depth)


def _count(state: RefPlay, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for card in state.legal():
        state.push(card)
        total += _count(state, depth - 1)
        state.pop()
    return total


def ref_divide(
    rules: Rules,
    trump: str,
    hands: Mapping[str, Sequence[str]],
    leader: str,
    trick: Sequence[str],
    depth: int,
) -> dict[str, int]:
    """Perft split by the first card played (python-chess "divide")."""
    state = RefPlay(rules, trump, hands, leader, trick)
    result = {}
    for card in state.legal():
        state.push(card)
        result[card] = _count(state, depth - 1)
        state.pop()
    return result


# --- CONTRACT `belote replay` for classic and Moroccan -------------------------------


def _parse_seat(value: object, field: str) -> str:
    if not isinstance(value, str) or value not in SEATS:
        raise ValueError(f"{field}: {value!r} is not a seat (N E S W)")
    return value


def _parse_hands(value: object) -> dict[str, list[str]]:
    """CONTRACT ``hands``: each seat's 8 cards after the whole deal, 32 different cards."""
    if not isinstance(value, dict) or sorted(value) != sorted(SEATS):
        raise ValueError(f"hands: {value!r} must give the cards of N, E, S and W")
    hands: dict[str, list[str]] = {}
    for seat in SEATS:
        cards = value[seat]
        if not isinstance(cards, list):
            raise ValueError(f"hands: {seat}: {cards!r} is not a list of cards")
        hands[seat] = [parse_card_name(c) for c in cards]
        if len(hands[seat]) != 8:
            raise ValueError(f"hands: {seat} holds {len(hands[seat])} cards, not 8")
    seen: set[str] = set()
    for seat in SEATS:
        for c in hands[seat]:
            if c in seen:
                raise ValueError(f"hands: {c} is dealt twice")
            seen.add(c)
    return hands


def _calls_allowed(round_no: int, turned_suit: str) -> list[str]:
    """§3.2-3.3: the calls of round 1 ("pass", "take") or round 2 ("pass", another suit)."""
    if round_no == 1:
        return ["pass", "take"]
    return ["pass"] + [s for s in SUITS if s != turned_suit]


def _parse_call(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"not a call: {value!r}")
    t = value.strip()
    if t.lower() in ("pass", "take"):
        return t.lower()
    if t.upper() in _SUIT_INPUT:
        return _SUIT_INPUT[t.upper()]
    return t


@dataclass
class _Bidding:
    finished: bool
    taker: str | None  # None: all passed (when finished)
    trump: str | None
    next_seat: str | None
    next_calls: list[str]


def run_bidding(dealer: str, turned: str, calls: object) -> _Bidding:
    """§3.2-3.3: take/pass from the eldest, then a second round naming another suit."""
    if not isinstance(calls, list):
        raise ValueError(f"bids: {calls!r} is not a list of calls")
    eldest = next_seat(dealer)
    for i, raw in enumerate(calls):
        round_no = 1 if i < 4 else 2
        seat = next_seat(eldest, i)
        if i >= 8:
            raise ValueError(
                f"bid {i + 1}: {raw!r} after four passes in each round (docs/rules.md §3.3)"
            )
        call = _parse_call(raw)
        allowed = _calls_allowed(round_no, suit(turned))
        if call not in allowed:
            raise ValueError(
                f"bid {i + 1}: {seat} may not call {raw!r} in round {round_no} "
                f"(one of {', '.join(allowed)}; docs/rules.md §3.{round_no + 1})"
            )
        if call != "pass":
            if i != len(calls) - 1:
                raise ValueError(f"bid {i + 2}: {calls[i + 1]!r} after the bidding ended")
            trump = suit(turned) if call == "take" else call
            return _Bidding(True, seat, trump, None, [])
    n = len(calls)
    if n == 8:
        return _Bidding(True, None, None, None, [])
    return _Bidding(False, None, None, next_seat(eldest, n),
                    _calls_allowed(1 if n < 4 else 2, suit(turned)))


def _bidding_result(bidding: _Bidding) -> dict[str, Any]:
    """The answer while no contract is fixed (CHOICES, as the fast engine answers).

    All-pass (CONTRACT): ``{"complete": true, "contract": null, "score": {"outcome":
    "void", "totals": 0/0, "score": 0/0, "reserve": 0}}`` and nothing else.
    Bidding unfinished: ``{"complete": false, "contract": null, "tricks": [],
    "score": null, "next": {"seat": who calls next, "legal": the calls allowed}}``.
    """
    if bidding.finished:
        zero = {"NS": 0, "EW": 0}
        return {"complete": True, "contract": None,
                "score": {"outcome": "void", "totals": dict(zero), "score": dict(zero),
                          "reserve": 0}}
    return {"complete": False, "contract": None, "tricks": [], "score": None,
            "next": {"seat": bidding.next_seat, "legal": bidding.next_calls}}


def play_through(state: RefPlay, plays_raw: Sequence[Any]) -> list[tuple[str, str]]:
    """Play the record's cards on ``state`` (§6 legality), naming the trick of a
    bad card; the (seat, card) pairs in order."""
    played: list[tuple[str, str]] = []
    for i, raw in enumerate(plays_raw):
        trick_no = i // 4 + 1
        seat = state.turn
        card = parse_card_name(raw)
        if card not in state.hands[seat]:
            raise ValueError(f"trick {trick_no}: {seat} does not hold {card}")
        try:
            state.push(card)
        except ValueError as exc:
            raise ValueError(f"trick {trick_no}: {exc}") from None
        played.append((seat, card))
    return played


def _announcements(
    record: Mapping[str, Any], hands: Mapping[str, Sequence[str]], trump: str, rules: Rules
) -> dict[str, list[Combination]]:
    """§7.4 / CONTRACT ``declarations``: the combinations each seat announces."""
    given = record.get("declarations")
    if not rules.declarations:
        # CHOICE: with the option off a record may carry no non-empty announcement.
        if given is not None:
            if not isinstance(given, dict):
                raise ValueError(f"declarations: {given!r} is not an object of seats")
            for seat, combos in given.items():
                if combos:
                    raise ValueError(
                        f"declarations: {seat!r} announces {combos!r} but declarations are off"
                    )
        return {s: [] for s in SEATS}
    if given is None:
        return {s: default_announcement(hands[s], trump, rules) for s in SEATS}
    if not isinstance(given, dict):
        raise ValueError(f"declarations: {given!r} is not an object of seats")
    result: dict[str, list[Combination]] = {s: [] for s in SEATS}
    for key, combos in given.items():
        seat = _parse_seat(key, "declarations")
        result[seat] = check_announcement(seat, hands[seat], combos, trump, rules)
    return result


def _belote_flags(record: Mapping[str, Any], holders: Sequence[tuple[str, str]]) -> dict[str, bool]:
    """CONTRACT ``belote``: seat -> announced (default true for every holder)."""
    given = record.get("belote")
    flags = {seat: True for seat, _ in holders}
    if given is None:
        return flags
    if not isinstance(given, dict):
        raise ValueError(f"belote: {given!r} is not an object of seats")
    holder_seats = {seat for seat, _ in holders}
    for key, value in given.items():
        seat = _parse_seat(key, "belote")
        if not isinstance(value, bool):
            raise ValueError(f"belote: {seat}: {value!r} is not true or false")
        if value and seat not in holder_seats:
            # CHOICE: announcing a belote one does not hold is an error.
            raise ValueError(f"belote: {seat} does not hold the trump king and queen")
        if seat in holder_seats:
            flags[seat] = value
    return flags


RECORD_KEYS: tuple[str, ...] = (
    "profile", "options", "dealer", "hands", "turned", "bids", "declarations", "belote", "plays",
)


def check_record_keys(record: object) -> None:
    """A record is an object of the keys CONTRACT lists (CHOICE, as the fast engine:
    any other key is refused)."""
    if not isinstance(record, Mapping):
        raise ValueError(f"record: {record!r} is not an object")
    for key in record:
        if key not in RECORD_KEYS:
            raise ValueError(f"record: unknown key {key!r} (one of {', '.join(RECORD_KEYS)})")


def parse_plays(record: Mapping[str, Any]) -> list[Any]:
    """The record's ``plays``: a list of at most 32 cards (each read by :func:`play_through`)."""
    plays_raw = record.get("plays", [])
    if not isinstance(plays_raw, list):
        raise ValueError(f"plays: {plays_raw!r} is not a list of cards")
    if len(plays_raw) > 32:
        raise ValueError(f"plays: {len(plays_raw)} cards, at most 32")
    return plays_raw


def play_result(state: RefPlay, played: list[tuple[str, str]], contract: dict[str, Any],
                decl: dict[str, Any], belote_team: str | None,
                belote_points: dict[str, int]) -> dict[str, Any]:
    """The answer of a replay whose cards were played: everything but ``score``, which
    the caller fills when ``complete`` (the scoring differs between the profiles).

    ``capot`` is the team that won every trick of a complete deal; while the deal is
    unfinished ``next`` is the seat in turn and its legal cards, and an unfinished
    trick with cards on it is shown as ``"trick": {"leader", "cards"}`` (CHOICE, as the
    fast engine, an addition to CONTRACT)."""
    complete = len(played) == 32
    capot: str | None = None
    if complete:
        winners = {team_of(t.winner) for t in state.tricks}
        if len(winners) == 1:
            capot = winners.pop()
    result: dict[str, Any] = {
        "complete": complete,
        "contract": contract,
        "tricks": [
            {"leader": t.leader, "cards": list(t.cards), "winner": t.winner, "points": t.points}
            for t in state.tricks
        ],
        "declarations": decl,
        "belote": belote_team,
        "belote_points": belote_points,
        "trick_points": dict(state.trick_points),
        "capot": capot,
        "score": None,
        "next": None,
    }
    if len(played) <= 4:
        # §7.4: declarations are resolved when the first card of trick 2 is played.
        result["declarations"] = {"winner": None, "points": {"NS": 0, "EW": 0}}
    if not complete:
        result["next"] = {"seat": state.turn, "legal": state.legal()}
        if state.trick:
            result["trick"] = {"leader": state.leader, "cards": list(state.trick)}
    return result


def ref_replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """CONTRACT ``belote replay --json`` for profiles classic and moroccan (coinche and
    contree: :func:`tests.reference.auction.ref_replay_auction`).

    Raises ValueError naming the field, or the trick, seat, card and rule broken.

    CHOICES where docs/json.md is silent:
    - bidding unfinished or all-pass: see :func:`_bidding_result`; ``plays`` must
      then be empty;
    - ``tricks`` lists finished tricks only; an unfinished trick with cards on it is
      shown as ``"trick": {"leader", "cards"}``;
    - ``declarations`` is ``{"winner": null, "points": 0/0}`` until the first card of
      trick 2 is played (§7.4), and always with the option off;
    - an unfinished belote (king or queen not yet played) scores nothing yet;
    - refused: a key CONTRACT does not list; ``belote: {"S": true}`` for a seat without
      the trump K and Q; a non-empty announcement while ``declarations`` is off; an
      announcement breaking §7.2-7.3 even before its seat has played;
    - cards are read in the French form only, for moroccan too.
    """
    check_record_keys(record)
    profile = record.get("profile", "classic")
    if profile in ("coinche", "contree"):
        from .auction import ref_replay_auction  # (auction.py imports this module)

        return ref_replay_auction(record)
    if profile not in ("classic", "moroccan"):
        raise ValueError(f"profile: {profile!r} is not a profile the reference plays")
    options = record.get("options", {})
    if options is None:
        options = {}
    rules = make_rules(profile, options)
    dealer = _parse_seat(record.get("dealer"), "dealer")
    hands = _parse_hands(record.get("hands"))
    turned = parse_card_name(record.get("turned"))
    plays_raw = parse_plays(record)
    bidding = run_bidding(dealer, turned, record.get("bids"))

    if not bidding.finished:
        if plays_raw:
            raise ValueError(f"plays: {plays_raw[0]!r} played before the bidding ended")
        return _bidding_result(bidding)
    if bidding.taker is None or bidding.trump is None:
        if plays_raw:
            raise ValueError(f"plays: {plays_raw[0]!r} played after an all-pass deal")
        return _bidding_result(bidding)

    taker, trump = bidding.taker, bidding.trump
    if turned not in hands[taker]:
        raise ValueError(
            f"turned: {turned} is not in the taker {taker}'s hand (docs/rules.md §3.4)")
    eldest = next_seat(dealer)
    announced = _announcements(record, hands, trump, rules)
    decl = compare_declarations(announced, trump, rules, eldest)
    holders = belote_holders(hands, trump)
    flags = _belote_flags(record, holders)

    # Play every card (§4.9/§3: the eldest leads trick 1; §6 legality).
    state = RefPlay(rules, trump, hands, eldest)
    played = play_through(state, plays_raw)

    belote_points = {"NS": 0, "EW": 0}
    belote_team: str | None = None
    for seat, s in holders:
        if flags[seat] and belote_counts(seat, s, played, rules):
            belote_points[team_of(seat)] += 20
            belote_team = team_of(seat)

    result = play_result(state, played, {"taker": taker, "team": team_of(taker),
                                         "trump": trump, "value": None, "multiplier": 1},
                         decl, belote_team, belote_points)
    if result["complete"]:
        result["score"] = hand_score(
            rules, team_of(taker), state.trick_points, result["capot"], decl["points"],
            belote_points)
    return result
