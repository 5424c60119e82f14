"""The reference engine for belote with three and with two players (docs/rules.md §12).

Written plainly from the rules as the project plays them (the lead's decisions on
§12, repeated in each docstring below), independently of the fast engine.  Cards
are two-letter strings ("JH"), seats are numbered in play order (three players:
N E S = 0 1 2; two players: N E = 0 1).  Card points, trick winners, declarations
and the belote order come from :mod:`tests.reference.engine` (§5, §7); everything
particular to two and three players is here:

- the deals (:func:`pack`, :func:`first_deal`, :func:`rest_of_deal`, :func:`deal_piles`);
- take-or-pass bidding for n players and the kitty's single round (:class:`SmallBidding`),
  with SA and TA named where ``sa_ta_in_classic`` offers them (§3.5);
- card play with nobody a partner (:func:`legal_cards_no_partner`, :class:`SmallPlay`),
  belote découverte's piles included, in a suit, SA or TA;
- the side score (:func:`side_score`, §8 between the taker and the rest) and each
  seat's share (:func:`seat_scores`), with the trick total of the mode and of the
  trump kind (:func:`counted_trick_points`: §5.1-5.4, ``ta_values``);
- a live deal (:class:`RefSmallRound`) and a record checker (:func:`ref_replay_small`).

Modes: three players ``24_cards`` [D], ``kitty``, ``six_each`` (option ``three_deal``);
two players ``stock`` [D], ``decouverte`` (option ``two_deal``).  Sides: side 0 is the
taker, side 1 the two others (three players); with two players each seat is its
own side.

SA / TA at a small table (``sa_ta_in_classic`` = true, §3.5; §12 itself names suits
only, so these are CHOICES, the four-player rules carried over):

- offered where a suit is named: round 2 after a turned card (24_cards, six_each,
  stock), and the kitty's single round; never in belote découverte (no bidding);
- §5.3 SA points (aces 19), §5.4 TA points by ``ta_values``; §5.5 only the led suit
  wins; §6.1 SA: follow suit, no duty to beat; TA: follow suit and beat the master
  card of the led suit if able; §6.4 void: any card (nobody being a partner changes
  nothing here);
- §7.2 SA carrés (A 200, T 150, K Q J 9 100); §7.5 no suit is "trump" in SA and all
  are in TA, so step (3) never decides; §7.7 no belote in SA, one per suit in TA
  (each seat holding and playing a suit's K and Q, said, scores 20 for it);
- ``ta_values`` = scaled: every card counts its trump value (258 in all with the 10
  of the last trick) and each side's hand points are ×162/258 rounded
  (:func:`tests.reference.auction.scaled_points`); the trick total of the deal is
  the scaled total (162 when the whole pack is played), a capot counts that total
  + 90 (252, as at four), the 100 of the last trick not being scaled; with three
  players a defender's own trick points are his points scaled the same way.

Choices made where the spec is silent are marked "CHOICE:".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from belote.options import Rules, make_rules

from .auction import scaled_points
from .engine import (
    DECK,
    SUITS,
    Combination,
    belote_counts,
    card_points,
    card_strength,
    check_announcement,
    comparison_key,
    default_announcement,
    parse_card_name,
    rank,
    sort_cards,
    suit,
    trick_winner,
)

SEATS_BY_PLAYERS: dict[int, tuple[str, ...]] = {3: ("N", "E", "S"), 2: ("N", "E")}
THREE_MODES: tuple[str, ...] = ("24_cards", "kitty", "six_each")
TWO_MODES: tuple[str, ...] = ("stock", "decouverte")
PROFILE_OF_MODE: dict[str, str] = {
    "24_cards": "classic-3p", "kitty": "classic-3p", "six_each": "classic-3p",
    "stock": "classic-2p", "decouverte": "classic-2p",
}
# Cards each seat holds in the record's ``hands`` (after the whole deal; kitty: as dealt).
HAND_SIZE: dict[str, int] = {"24_cards": 8, "kitty": 10, "six_each": 9, "stock": 9}
# Cards played in a whole deal.
CARDS_PLAYED: dict[str, int] = {
    "24_cards": 24, "kitty": 30, "six_each": 27, "stock": 18, "decouverte": 32,
}
TAKE = "take"
PASS = "pass"
NO_TRUMP = "SA"
ALL_TRUMP = "TA"
SA_TA: tuple[str, ...] = (NO_TRUMP, ALL_TRUMP)

# Phases (the same words as belote.round).
BIDDING = "bidding"
DISCARD = "discard"
PLAY = "play"
OVER = "over"
ALL_PASS = "all_pass"


def mode_of(rules: Rules) -> str:
    """§12: the deal of a small table: ``three_deal`` for three, ``two_deal`` for two."""
    if rules.players == 3:
        return rules.three_deal
    if rules.players == 2:
        return rules.two_deal
    raise ValueError(f"profile {rules.profile!r} is not a two- or three-player profile")


def players_of(mode: str) -> int:
    return 3 if mode in THREE_MODES else 2


def pack(mode: str) -> list[str]:
    """§12.1: ``24_cards`` plays without the 7s and 8s (24 cards); every other mode
    plays all 32.  Deck order S H D C, 7 to A."""
    if mode == "24_cards":
        return [c for c in DECK if rank(c) not in ("7", "8")]
    return list(DECK)


def from_eldest(dealer: int, players: int) -> list[int]:
    """The seats in play order from the eldest (the seat after the dealer)."""
    return [(dealer + 1 + i) % players for i in range(players)]


# --- the deal (§12.1, §12.2) -----------------------------------------------------------


@dataclass
class FirstDeal:
    """What is dealt before the bidding: the hands, the turned card (none with the
    kitty), the kitty (three players, ``kitty`` only), and where the deck goes on."""

    hands: list[list[str]]
    turned: str | None
    kitty: list[str]
    position: int


def _give_round(
    deck: Sequence[str], position: int, order: Sequence[int], sizes: Mapping[int, int],
    hands: list[list[str]],
) -> int:
    """One round of packets: to each seat of ``order`` in turn, ``sizes[seat]`` cards."""
    for seat in order:
        hands[seat].extend(deck[position:position + sizes[seat]])
        position += sizes[seat]
    return position


def first_deal(mode: str, dealer: int, deck: Sequence[str], deal_pattern: str = "3-2") -> FirstDeal:
    """The deal before the bidding, from the eldest.

    - ``24_cards``: 5 each in two packets by ``deal_pattern`` (3-2 or 2-3); the 16th
      card is turned.
    - ``kitty``: 10 each in packets 3-2-3-2; the last 2 cards are the kitty; nothing
      turned.
    - ``six_each`` (three) and ``stock`` (two): 6 each, 3 + 3; the next card (19th,
      13th) is turned.
    """
    players = players_of(mode)
    if len(deck) != len(pack(mode)) or sorted(deck, key=DECK.index) != pack(mode):
        raise ValueError(f"deck: {list(deck)!r} is not the {len(pack(mode))}-card pack")
    order = from_eldest(dealer, players)
    hands: list[list[str]] = [[] for _ in range(players)]
    if mode == "24_cards":
        packets = [3, 2] if deal_pattern == "3-2" else [2, 3]
    elif mode == "kitty":
        packets = [3, 2, 3, 2]
    elif mode in ("six_each", "stock"):
        packets = [3, 3]
    else:
        raise ValueError(f"{mode!r} has no bidding deal")
    position = 0
    for size in packets:
        position = _give_round(deck, position, order, dict.fromkeys(order, size), hands)
    if mode == "kitty":
        return FirstDeal(hands, None, list(deck[position:position + 2]), position + 2)
    return FirstDeal(hands, deck[position], [], position + 1)


@dataclass
class FullDeal:
    """The hands once the deal is complete (kitty: before the taker adds it), the
    bergère (six_each, stock), and the cards set aside after it."""

    hands: list[list[str]]
    bergere: str | None
    set_aside: list[str]


def rest_of_deal(
    mode: str, dealer: int, deck: Sequence[str], first: FirstDeal, taker: int
) -> FullDeal:
    """The deal after a take.

    - ``24_cards``: the taker gets the turned card, then from the eldest 3 cards each,
      2 to the taker (§3.4 with three players).
    - ``six_each`` / ``stock``: 3 more cards each from the eldest; the turned card
      stays on the table; the next card (the bergère) is turned face up, the rest
      set aside.
    - ``kitty``: nothing more is dealt (the taker adds the kitty himself, see
      :class:`RefSmallRound`).
    """
    players = players_of(mode)
    hands = [list(h) for h in first.hands]
    order = from_eldest(dealer, players)
    position = first.position
    if mode == "24_cards":
        assert first.turned is not None
        hands[taker].append(first.turned)
        sizes = {seat: 2 if seat == taker else 3 for seat in order}
        position = _give_round(deck, position, order, sizes, hands)
        assert position == len(deck)
        return FullDeal(hands, None, [])
    if mode in ("six_each", "stock"):
        position = _give_round(deck, position, order, dict.fromkeys(order, 3), hands)
        return FullDeal(hands, deck[position], list(deck[position + 1:]))
    return FullDeal(hands, None, [])


def deal_piles(dealer: int, deck: Sequence[str]) -> tuple[list[list[tuple[str, str]]], str]:
    """§12.2 belote découverte: each of two dealing rounds gives 4 face-down cards to the
    non-dealer, 4 face-down to the dealer, then a face-up card on each of those, the
    non-dealer's first, in the same order.  Each seat ends with 8 piles
    (face-down, face-up) in dealing order.  The last card dealt (the dealer's 8th
    face-up card) fixes trump.  Returns (piles per seat, trump suit)."""
    if sorted(deck, key=DECK.index) != list(DECK):
        raise ValueError(f"deck: {list(deck)!r} is not the 32-card pack")
    non_dealer = 1 - dealer
    piles: list[list[tuple[str, str]]] = [[], []]
    position = 0
    for _round in range(2):
        down = {non_dealer: deck[position:position + 4], dealer: deck[position + 4:position + 8]}
        up = {non_dealer: deck[position + 8:position + 12],
              dealer: deck[position + 12:position + 16]}
        position += 16
        for seat in (non_dealer, dealer):
            piles[seat].extend(zip(down[seat], up[seat], strict=True))
    return piles, suit(deck[31])


# --- bidding (§3.2-3.3 for n players; §12.1 kitty) -------------------------------------


def normalise_call(text: object) -> str:
    """A call as written in a record: ``pass``, ``take`` (any case), a suit letter, or
    ``SA`` / ``TA`` (any case)."""
    if not isinstance(text, str):
        raise ValueError(f"not a call: {text!r}")
    t = text.strip()
    if t.lower() in (PASS, TAKE):
        return t.lower()
    if t.upper() in SUITS or t.upper() in SA_TA:
        return t.upper()
    return t


class SmallBidding:
    """Take or pass with ``players`` seats: round 1, from the eldest, each "take"s the
    turned suit or passes; round 2 (after ``players`` passes) each names a suit other
    than the turned one or passes; the first take or naming ends the bidding;
    ``2 * players`` passes are an all-pass.

    Kitty deal (``turned`` None): ONE round; each from the eldest names any suit or
    passes; the first to name takes; ``players`` passes are an all-pass.

    ``sa_ta`` (§3.5 ``sa_ta_in_classic``): wherever a suit may be named (round 2, the
    kitty's round), SA and TA may be named too, after the suits (CHOICE for the
    kitty: its one round is a naming round, so it offers them as round 2 does).
    """

    def __init__(
        self, players: int, dealer: int, turned: str | None, sa_ta: bool = False
    ) -> None:
        self.players = players
        self.eldest = (dealer + 1) % players
        self.turned = turned
        self.sa_ta = sa_ta
        self.rounds = 1 if turned is None else 2
        self.calls: list[str] = []
        self.taker: int | None = None
        self.trump: str | None = None

    @property
    def finished(self) -> bool:
        return self.taker is not None or len(self.calls) == self.rounds * self.players

    @property
    def turn(self) -> int:
        return (self.eldest + len(self.calls)) % self.players

    def legal(self) -> list[str]:
        if self.finished:
            return []
        extra = list(SA_TA) if self.sa_ta else []
        if self.turned is None:
            return [PASS, *SUITS, *extra]
        if len(self.calls) < self.players:
            return [PASS, TAKE]
        return [PASS] + [s for s in SUITS if s != suit(self.turned)] + extra

    def call(self, text: object) -> None:
        if self.finished:
            raise ValueError(f"call {text!r} after the bidding ended")
        c = normalise_call(text)
        allowed = self.legal()
        if c not in allowed:
            round_no = 1 + len(self.calls) // self.players
            raise ValueError(
                f"call {len(self.calls) + 1}: seat {self.turn} may not call {text!r} in round "
                f"{round_no} (one of {', '.join(allowed)})"
            )
        seat = self.turn
        self.calls.append(c)
        if c == TAKE:
            assert self.turned is not None
            self.taker, self.trump = seat, suit(self.turned)
        elif c != PASS:
            self.taker, self.trump = seat, c


# --- card play (§5, §6 with nobody a partner) ------------------------------------------


def _beats(a: str, b: str, trump: str) -> bool:
    """Whether ``a`` ranks above ``b`` within their common suit."""
    return suit(a) == suit(b) and card_strength(a, trump) > card_strength(b, trump)


def legal_cards_no_partner(
    hand: Sequence[str], trick: Sequence[str], trump: str, rules: Rules
) -> list[str]:
    """§6 for a suit trump when nobody at the table is a partner (§12: the taker
    against two others who are a side for the score only).

    §6.1 follow the led plain suit; §6.2 trump led: a higher trump than the highest
    on the table if able, else any trump; §6.4 void in trump led: any card; §6.3
    void in a plain suit: §6.3a never applies (no partner), b) no trump on the table:
    any trump, c) a trump on the table: a higher trump if able, else any trump with
    ``must_undertrump``, otherwise any card; d) no trump: any card.  Hence
    ``partner_master_exemption``, ``undertrump_partner`` and
    ``overtrump_partner_on_trump_lead`` change nothing here.

    SA and TA (no partner matters in either): §6.1 follow the led suit, in TA with a
    card beating the master card of the led suit (§5.5: the highest card of the led
    suit, TA order J 9 A T K Q 8 7) if able, in SA any card of it; §6.4 void in the
    led suit: any card.
    """
    if trump not in SUITS and trump not in SA_TA:
        raise ValueError(f"trump {trump!r} is not a suit, SA or TA")
    hand = list(hand)
    if not trick:
        return sort_cards(hand)
    led = suit(trick[0])
    following = [c for c in hand if suit(c) == led]
    if trump in SA_TA:
        if not following:
            return sort_cards(hand)  # §6.4
        if trump == NO_TRUMP:
            return sort_cards(following)  # §6.1 SA: no duty to beat
        master = trick[trick_winner(trick, trump)]
        higher = [c for c in following if _beats(c, master, trump)]
        return sort_cards(higher or following)  # §6.1 TA
    table_trumps = [c for c in trick if suit(c) == trump]
    trumps = [c for c in hand if suit(c) == trump]
    if led == trump:
        if not following:
            return sort_cards(hand)
        higher = [c for c in following if all(_beats(c, t, trump) for t in table_trumps)]
        return sort_cards(higher or following)
    if following:
        return sort_cards(following)
    if not trumps:
        return sort_cards(hand)
    if not table_trumps:
        return sort_cards(trumps)
    higher = [c for c in trumps if all(_beats(c, t, trump) for t in table_trumps)]
    if higher:
        return sort_cards(higher)
    return sort_cards(trumps if rules.must_undertrump else hand)


@dataclass
class SmallTrick:
    leader: int
    cards: list[str]
    winner: int
    points: int  # with the last trick's bonus (10, or 100 when it completes a capot)


class SmallPlay:
    """The card play: ``hands`` are the playable cards of each seat (belote
    découverte: the face-up ones, ``beneath`` giving the face-down card under each);
    ``side_of`` the side of each seat (a capot is one side winning every trick).

    In découverte, when a trick is complete, the card beneath each card played is
    turned up and becomes playable (§12.2).
    """

    def __init__(
        self,
        rules: Rules,
        trump: str,
        hands: Sequence[Sequence[str]],
        leader: int,
        side_of: Sequence[int],
        beneath: Sequence[Mapping[str, str]] | None = None,
    ) -> None:
        self.rules = rules
        self.trump = trump
        self.players = len(hands)
        self.hands: list[list[str]] = [sort_cards(h) for h in hands]
        self.beneath: list[dict[str, str]] = (
            [dict(b) for b in beneath] if beneath is not None else [{} for _ in hands]
        )
        self.leader = leader
        self.side_of = list(side_of)
        self.trick: list[str] = []
        self.tricks: list[SmallTrick] = []
        self.played: list[tuple[int, str]] = []
        total = sum(len(h) for h in self.hands) + sum(len(b) for b in self.beneath)
        if total % self.players or len({len(h) + len(b) for h, b in
                                        zip(self.hands, self.beneath, strict=True)}) != 1:
            raise ValueError("the seats do not hold the same number of cards")
        self.trick_count = total // self.players

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    @property
    def over(self) -> bool:
        return len(self.tricks) == self.trick_count

    def legal(self) -> list[str]:
        if self.over:
            return []
        return legal_cards_no_partner(self.hands[self.turn], self.trick, self.trump, self.rules)

    def push(self, card: str) -> None:
        seat = self.turn
        if self.over:
            raise ValueError(f"{card} played after the last trick")
        if card not in self.hands[seat]:
            raise ValueError(f"seat {seat} does not hold {card} (playable: {self.hands[seat]})")
        if card not in self.legal():
            raise ValueError(f"seat {seat} may not play {card} (legal: {self.legal()})")
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.played.append((seat, card))
        if len(self.trick) < self.players:
            return
        winner = (self.leader + trick_winner(self.trick, self.trump)) % self.players
        points = sum(card_points(c, self.trump, self.rules.ta_values) for c in self.trick)
        if len(self.tricks) + 1 == self.trick_count:
            sides = {self.side_of[t.winner] for t in self.tricks} | {self.side_of[winner]}
            points += 100 if len(sides) == 1 else 10  # §5.1, §5.2
        self.tricks.append(SmallTrick(self.leader, list(self.trick), winner, points))
        # §12.2: the card beneath each card played is turned up.
        for i, c in enumerate(self.trick):
            who = (self.leader + i) % self.players
            under = self.beneath[who].pop(c, None)
            if under is not None:
                self.hands[who] = sort_cards([*self.hands[who], under])
        self.leader = winner
        self.trick = []

    def capot_side(self) -> int | None:
        """The side that won every trick (a finished play), or None."""
        sides = {self.side_of[t.winner] for t in self.tricks}
        return sides.pop() if self.over and len(sides) == 1 else None

    def seat_trick_points(self) -> list[int]:
        """Each seat's card points of the tricks it won, the last trick's bonus included."""
        points = [0] * self.players
        for t in self.tricks:
            points[t.winner] += t.points
        return points


# --- declarations and belote (§7, between two sides) ---------------------------------


def compare_sides(
    announced: Sequence[Sequence[Combination]],
    side_of: Sequence[int],
    trump: str,
    rules: Rules,
    first_seat: int,
) -> tuple[int | None, list[int]]:
    """§7.5-7.6 between the two sides: each side's best combination; the side whose
    best wins scores all its seats' combinations.  Equality: ``decl_tie`` = nobody, or
    first_announcer: the side of the first seat in play order from ``first_seat`` (the
    leader of trick 1) holding a combination equal to the tied best (CHOICE, as the
    four-player reference).  Returns (winning side or None, points per side)."""
    players = len(announced)
    best: dict[int, tuple[int, ...]] = {}
    for seat in range(players):
        for combo in announced[seat]:
            key = comparison_key(combo, trump, rules)
            side = side_of[seat]
            if side not in best or key > best[side]:
                best[side] = key
    winner: int | None = None
    if len(best) == 1:
        winner = next(iter(best))
    elif len(best) == 2:
        if best[0] != best[1]:
            winner = 0 if best[0] > best[1] else 1
        elif rules.decl_tie == "first_announcer":
            for step in range(players):
                seat = (first_seat + step) % players
                if any(comparison_key(c, trump, rules) == best[0] for c in announced[seat]):
                    winner = side_of[seat]
                    break
    points = [0, 0]
    if winner is not None:
        for seat in range(players):
            if side_of[seat] == winner:
                points[winner] += sum(c.value for c in announced[seat])
    return winner, points


def belote_suits(trump: str) -> list[str]:
    """§7.7: the suits whose K and Q make a belote: the trump suit; none in SA; every
    suit in TA."""
    if trump == NO_TRUMP:
        return []
    if trump == ALL_TRUMP:
        return list(SUITS)
    return [trump]


def holds_belote(hand: Sequence[str], trump: str) -> bool:
    """Whether a hand holds the K and Q of a belote suit (§7.7)."""
    return any("K" + s in hand and "Q" + s in hand for s in belote_suits(trump))


def belote_seats(
    played: Sequence[tuple[int, str]], trump: str, said: Sequence[bool], rules: Rules
) -> list[int]:
    """§7.7: 20 to each seat for each belote suit whose K and Q it played and said
    (``king_first``: king first); TA: one per suit, so up to 80 for one seat.
    Holding both = playing both, since every card held is played."""
    plays = [(str(seat), card) for seat, card in played]
    return [
        20 * sum(1 for s in belote_suits(trump) if belote_counts(str(seat), s, plays, rules))
        if said[seat] else 0
        for seat in range(len(said))
    ]


# --- the score (§8 between the taker's side and the other; §12 shares) ----------------


@dataclass(frozen=True)
class SideScore:
    outcome: str  # made, failed, litige
    totals: tuple[int, int]  # side 0 (taker), side 1
    score: tuple[int, int]
    reserve: int


def side_score(
    rules: Rules,
    trick_pts: Sequence[int],
    base: int,
    capot: int | None,
    decl: Sequence[int],
    bel: Sequence[int],
    reserve: int = 0,
) -> SideScore:
    """§8 with side 0 the taker('s side) and side 1 the defenders.

    ``trick_pts``: each side's counted trick points (the last trick's bonus and, with
    the kitty, the laid-aside cards included; a capot 252/0 where the cards total 152;
    scaled TA: already ×162/258, see :func:`counted_trick_points`).
    ``base``: what defenders score for the tricks when the taker fails: 162, or 252
    when the defenders made capot (§8.3); in six_each and stock the trick total (the
    played cards + 10, or + 100 on the defenders' capot) instead.
    §8.5 ``capot_loser_declarations``, §8.2 made, §8.3 failed (``taker_decl_on_failure``,
    ``belote_on_failure``), §8.4 equality (``tie_rule``; litige: the defenders score their
    total, the taker his belote, the rest of his total goes to the reserve), the reserve
    going to the side that wins the hand.
    """
    d = [decl[0], decl[1]]
    if capot is not None:
        loser = 1 - capot
        if rules.capot_loser_declarations == "to_capot_team":
            d[capot] += d[loser]
            d[loser] = 0
        elif rules.capot_loser_declarations == "void":
            d[loser] = 0
    totals = (trick_pts[0] + d[0] + bel[0], trick_pts[1] + d[1] + bel[1])
    if totals[0] > totals[1]:
        outcome = "made"
    elif totals[0] < totals[1]:
        outcome = "failed"
    else:
        outcome = {"litige": "litige", "fail": "failed", "made": "made"}[rules.tie_rule]
    new_reserve = 0
    if outcome == "made":
        score = (totals[0] + reserve, totals[1])
    elif outcome == "failed":
        defenders = base + d[1] + bel[1] + reserve
        if rules.taker_decl_on_failure == "transfer":
            defenders += d[0]
        taker = bel[0]
        if rules.belote_on_failure == "defenders":
            defenders += bel[0]
            taker = 0
        score = (taker, defenders)
    else:
        score = (bel[0], totals[1])
        new_reserve = reserve + totals[0] - bel[0]
    return SideScore(outcome, totals, score, new_reserve)


def seat_scores(
    side_pts: Sequence[int],
    taker: int,
    eldest: int,
    own_trick_pts: Sequence[int],
    own_belote: Sequence[int],
    slack: int = 0,
) -> list[int]:
    """§12 three players: the taker scores his side's score; each defender his own trick
    points and belote, and the two share equally what their side scores beyond that,
    an odd point to the first defender in play order from the eldest.

    ``slack``: how far below 0 the rest may fall (1 in scaled TA, where each
    defender's own points and the side's are rounded apart: 1 + 1 raw points scale
    to 1 + 1 for the seats but to 1 for the side); the share is then floored
    (divmod), the odd point still to the first defender."""
    players = len(own_trick_pts)
    defenders = [s for s in from_eldest(eldest - 1, players) if s != taker]
    seats = [0] * players
    seats[taker] = side_pts[0]
    beyond = side_pts[1] - sum(own_trick_pts[s] + own_belote[s] for s in defenders)
    if beyond < -slack:
        raise AssertionError(f"the defenders score less than their own points: {beyond}")
    half, odd = divmod(beyond, 2)
    for i, s in enumerate(defenders):
        seats[s] = own_trick_pts[s] + own_belote[s] + half + (odd if i == 0 else 0)
    return seats


def is_scaled(rules: Rules, trump: str) -> bool:
    """§5.4 ``ta_values`` = scaled applies in TA only."""
    return trump == ALL_TRUMP and rules.ta_values == "scaled"


def counted_trick_points(
    rules: Rules, trump: str, raw: Sequence[int], capot: int | None, cards_total: int
) -> tuple[list[int], int]:
    """The trick points that count in the score, per side, and the deal's trick total.

    ``raw``: each side's points as the cards count (§5.1 suit, §5.3 SA, §5.4 TA by
    ``ta_values``; the last trick's 10 or 100 included); ``cards_total``: the points
    of every card in play (the kitty's laid-aside cards included; six_each and
    stock: only the cards dealt to the players, §12).

    The trick total is ``cards_total`` + 10: 162 when the whole pack is played (152
    in a suit, SA, TA pc/ffbc), the cards played + 10 in six_each and stock (§12).
    Scaled TA (§5.4, CHOICE as for four players): the total and each side's points
    are ×162/258 rounded (:func:`scaled_points`); the whole pack: 258 -> 162.
    A capot (§5.2) counts the total + 90 for the capot side and 0 for the other:
    252 with the whole pack (in every trump kind, scaled TA included), the cards
    played + 100 in six_each and stock (scaled TA: the scaled total + 90).
    """
    scaled = is_scaled(rules, trump)
    total = scaled_points(cards_total + 10) if scaled else cards_total + 10
    if capot is not None:
        counted = [0, 0]
        counted[capot] = total + 90
        return counted, total
    if scaled:
        return [scaled_points(raw[0]), scaled_points(raw[1])], total
    return [raw[0], raw[1]], total


@dataclass
class RefResult:
    """A finished deal: tricks, the side score, and what each seat scores."""

    tricks: list[SmallTrick]
    outcome: str  # made, failed, litige, counted
    totals: list[int]  # per side (three players: taker, defenders); two players: per seat
    score: list[int]  # per side as totals
    reserve: int
    seats: list[int]  # per seat
    trick_points: list[int]  # per side, as the cards count (scaled TA: before scaling)
    seat_trick_points: list[int]  # per seat, likewise
    declarations: list[int]  # validated points per side
    belote: list[int]  # per seat


def score_deal(
    rules: Rules,
    mode: str,
    play: SmallPlay,
    taker: int,
    eldest: int,
    announced: Sequence[Sequence[Combination]],
    said: Sequence[bool],
    discards: Sequence[str] = (),
    reserve: int = 0,
) -> RefResult:
    """Score a finished play by §8 between the sides (§12), or by belote découverte's
    count (each seat its own trick points + belote; declarations never count; CHOICE:
    no reserve is carried in or out).  ``reserve``: the litige reserve carried in."""
    trump = play.trump
    seat_tp = play.seat_trick_points()
    belote = belote_seats(play.played, trump, said, rules)
    players = play.players
    if mode == "decouverte":
        seats = [seat_tp[s] + belote[s] for s in range(players)]
        return RefResult(
            play.tricks, "counted", list(seats), list(seats), 0, seats,
            list(seat_tp), list(seat_tp), [0, 0], belote,
        )
    side_of = play.side_of
    capot = play.capot_side()
    tv = rules.ta_values
    cards_total = sum(card_points(c, trump, tv) for _s, c in play.played)
    discard_pts = sum(card_points(c, trump, tv) for c in discards)
    cards_total += discard_pts
    tp = [0, 0]
    for s in range(players):
        tp[side_of[s]] += seat_tp[s]
    # §12.1 kitty: the laid-aside cards count for the taker, unless the defenders took
    # every trick (then 252 and 0).
    if capot == 1:
        tp = [0, cards_total + 100]
    else:
        tp[0] += discard_pts
    counted, total = counted_trick_points(rules, trump, tp, capot, cards_total)
    base = total + (90 if capot == 1 else 0)
    _winner, decl = compare_sides(
        announced if rules.declarations else [[] for _ in range(players)],
        side_of, trump, rules, eldest,
    )
    bel_side = [0, 0]
    for s in range(players):
        bel_side[side_of[s]] += belote[s]
    ss = side_score(rules, counted, base, capot, decl, bel_side, reserve)
    if players == 3:
        if is_scaled(rules, trump):
            own = [scaled_points(p) for p in seat_tp]
            seats = seat_scores(ss.score, taker, eldest, own, belote, slack=1)
        else:
            seats = seat_scores(ss.score, taker, eldest, seat_tp, belote)
        totals, score, sides_tp = list(ss.totals), list(ss.score), tp
    else:
        # Two players: each seat is a side; report per seat.
        other = 1 - taker
        seats = [0, 0]
        seats[taker], seats[other] = ss.score
        totals = [0, 0]
        totals[taker], totals[other] = ss.totals
        score = list(seats)
        sides_tp = [0, 0]
        sides_tp[taker], sides_tp[other] = tp
        d2 = [0, 0]
        d2[taker], d2[other] = decl
        decl = d2
    return RefResult(
        play.tricks, ss.outcome, totals, score, ss.reserve, seats, sides_tp, seat_tp,
        list(decl), belote,
    )


# --- a live deal ------------------------------------------------------------------------


@dataclass
class RefSmallRound:
    """One deal for three or two players stepped like ``belote.round.Round``.

    ``deck`` is the shuffled pack in dealing order (the 24-card pack for
    ``24_cards``).  Declarations: every seat announces, with its first card, all it
    holds grouped for the most points (:func:`default_announcement`); ``said`` gives
    per seat whether it says belote.
    """

    rules: Rules
    dealer: int
    deck: list[str]
    reserve: int = 0
    mode: str = ""
    players: int = 0
    phase: str = BIDDING
    hands: list[list[str]] = field(default_factory=list)
    turned: str | None = None
    kitty: list[str] = field(default_factory=list)
    bergere: str | None = None
    discards: list[str] = field(default_factory=list)
    piles: list[list[tuple[str, str]]] = field(default_factory=list)
    taker: int | None = None
    trump: str | None = None
    bidding: SmallBidding | None = None
    play: SmallPlay | None = None
    announced: list[list[Combination]] = field(default_factory=list)
    said: list[bool] = field(default_factory=list)
    # every card played: (seat, card, what the seat said with it, §7.7)
    words: list[tuple[int, str, str | None]] = field(default_factory=list)
    record_hands: list[list[str]] = field(default_factory=list)
    _first: FirstDeal | None = None

    def __post_init__(self) -> None:
        self.mode = mode_of(self.rules)
        self.players = players_of(self.mode)
        self.said = [True] * self.players
        eldest = (self.dealer + 1) % self.players
        if self.mode == "decouverte":
            self.piles, trump = deal_piles(self.dealer, self.deck)
            self.trump, self.taker = trump, eldest
            self.hands = [[up for _d, up in p] for p in self.piles]
            self.record_hands = [list(h) for h in self.hands]
            beneath = [{up: down for down, up in p} for p in self.piles]
            self.play = SmallPlay(self.rules, trump, self.hands, eldest, [0, 1], beneath)
            self.announced = [[], []]
            self.phase = PLAY
            return
        self._first = first_deal(self.mode, self.dealer, self.deck, self.rules.deal_pattern)
        self.hands = [list(h) for h in self._first.hands]
        self.turned, self.kitty = self._first.turned, self._first.kitty
        self.bidding = SmallBidding(
            self.players, self.dealer, self.turned, self.rules.sa_ta_in_classic
        )

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % self.players

    def current_player(self) -> int:
        if self.phase == BIDDING:
            assert self.bidding is not None
            return self.bidding.turn
        if self.phase == DISCARD:
            assert self.taker is not None
            return self.taker
        if self.phase == PLAY:
            assert self.play is not None
            return self.play.turn
        raise ValueError(f"nobody is to act in phase {self.phase!r}")

    def legal_calls(self) -> list[str]:
        return self.bidding.legal() if self.bidding is not None and self.phase == BIDDING else []

    def call(self, text: str) -> None:
        if self.phase != BIDDING or self.bidding is None:
            raise ValueError(f"call {text!r} outside the bidding")
        self.bidding.call(text)
        if not self.bidding.finished:
            return
        if self.bidding.taker is None:
            self.phase = ALL_PASS
            return
        assert self._first is not None and self.bidding.trump is not None
        self.taker, self.trump = self.bidding.taker, self.bidding.trump
        full = rest_of_deal(self.mode, self.dealer, self.deck, self._first, self.taker)
        self.hands, self.bergere = full.hands, full.bergere
        self.record_hands = [sort_cards(h) for h in self.hands]
        if self.mode == "kitty":
            self.hands[self.taker] = sort_cards([*self.hands[self.taker], *self.kitty])
            self.phase = DISCARD
            return
        self._start_play()

    def legal_discards(self) -> list[str]:
        """§12.1 kitty: the taker lays aside any 2 of his 12 cards."""
        if self.phase != DISCARD or self.taker is None:
            return []
        return sort_cards(self.hands[self.taker])

    def discard(self, cards: Sequence[str]) -> None:
        if self.phase != DISCARD or self.taker is None:
            raise ValueError(f"discard {list(cards)!r} outside the discard")
        if len(cards) != 2 or len(set(cards)) != 2:
            raise ValueError(f"discard {list(cards)!r}: two different cards are laid aside")
        for c in cards:
            if c not in self.hands[self.taker]:
                raise ValueError(f"discard: the taker does not hold {c}")
        self.discards = list(cards)
        self.hands[self.taker] = [c for c in self.hands[self.taker] if c not in cards]
        self._start_play()

    def _start_play(self) -> None:
        assert self.taker is not None and self.trump is not None
        side_of = [0 if s == self.taker else 1 for s in range(self.players)]
        self.announced = [
            default_announcement(h, self.trump, self.rules) if self.rules.declarations else []
            for h in self.hands
        ]
        self.play = SmallPlay(self.rules, self.trump, self.hands, self.eldest, side_of)
        self.phase = PLAY

    def legal_cards(self) -> list[str]:
        return self.play.legal() if self.play is not None and self.phase == PLAY else []

    def play_card(self, card: str, belote: bool = True) -> str | None:
        """Play ``card`` for the seat to play; ``belote``: whether the seat says belote
        when it can.  Returns what the seat says with the card (§7.7): "belote",
        "rebelote", "belote-rebelote" (découverte, below) or None.

        §7.7 with §12.2: a seat says belote when it plays the first of its trump K and
        Q, knowing the other is its own, and rebelote with the second.  In belote
        découverte it knows only what it sees: its face-up cards and the cards it has
        already played, never a face-down card.  So with the other card face up it
        says belote (rebelote to follow); with the other face down it says nothing; and
        when it then plays that other card, turned up since, with the first already
        played unannounced, it says belote and rebelote together.  ``belote`` counts
        only where something could be said (a refusal there is the seat's for good);
        elsewhere it changes nothing."""
        if self.phase != PLAY or self.play is None:
            raise ValueError(f"card {card!r} outside the play")
        seat = self.play.turn
        if card not in self.play.legal():
            self.play.push(card)  # refuses it, saying why
        word = self._belote_word(seat, card, belote)
        self.play.push(card)
        self.words.append((seat, card, word))
        if self.play.over:
            self.phase = OVER
        return word

    def _belote_word(self, seat: int, card: str, belote: bool) -> str | None:
        assert self.play is not None
        if suit(card) not in belote_suits(self.play.trump) or rank(card) not in ("K", "Q"):
            return None
        other = ("Q" if rank(card) == "K" else "K") + suit(card)
        mine_played = [c for s, c in self.play.played if s == seat]
        if other in mine_played:
            said_first = [w for s, c, w in self.words if s == seat and c == other]
            if said_first and said_first[0] == "belote":
                return "rebelote"  # said belote with the other card (never refused since)
            if self.mode != "decouverte":
                return None  # the other was played unannounced: refused (§7.7 omission)
            first_time = True  # découverte: only now does the seat see both
        elif other in self.play.hands[seat]:  # découverte: face up
            first_time = False
        else:
            return None  # not the seat's, or (découverte) still face down
        if not belote:
            self.said[seat] = False
        if not self.said[seat]:
            return None
        return "belote-rebelote" if first_time else "belote"

    def result(self, reserve: int | None = None) -> RefResult:
        """The score; ``reserve`` (default: the round's) is the litige reserve carried in.
        CHOICE: belote découverte never takes a reserve (no contract, no litige)."""
        if self.phase != OVER or self.play is None or self.taker is None:
            raise ValueError(f"no result in phase {self.phase!r}")
        carried = self.reserve if reserve is None else reserve
        return score_deal(
            self.rules, self.mode, self.play, self.taker, self.eldest, self.announced,
            self.said, self.discards, 0 if self.mode == "decouverte" else carried,
        )


# --- records (CONTRACT HandRecord, extended for §12 as Round.to_record documents) -------

COMMON_KEYS: tuple[str, ...] = ("profile", "options", "dealer", "plays", "declarations", "belote")
MODE_KEYS: dict[str, tuple[str, ...]] = {
    "24_cards": ("hands", "turned", "bids"),
    "kitty": ("hands", "kitty", "bids", "discards"),
    "six_each": ("hands", "turned", "bergere", "bids"),
    "stock": ("hands", "turned", "bergere", "bids"),
    "decouverte": ("piles",),
}
OPTIONAL_KEYS: tuple[str, ...] = ("options", "plays", "declarations", "belote", "discards")


def _card_list(value: object, where: str) -> list[str]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: {value!r} is not a list of cards")
    return [parse_card_name(c) for c in value]


def _seat_map(value: object, where: str, seats: Sequence[str]) -> dict[str, Any]:
    if not isinstance(value, dict) or sorted(value) != sorted(seats):
        raise ValueError(f"{where}: {value!r} must give each of {', '.join(seats)}")
    return value


def ref_replay_small(record: Mapping[str, Any]) -> dict[str, Any]:
    """Check and score a three- or two-player record; raise ValueError if it is invalid.

    The record is the CONTRACT HandRecord with Round.to_record's §12 extensions:
    ``hands`` for N E S (or N E) after the whole deal (kitty: the 10 cards dealt,
    plus ``kitty`` and, once laid aside, ``discards``); ``turned`` (not with the
    kitty); ``bergere`` (six_each, stock); belote découverte: ``piles`` (per seat, 8
    [face-down, face-up] pairs in dealing order) and no ``bids``/``turned``.

    Answer (a subset of ``belote replay``'s): ``complete``; ``tricks`` (leader, cards,
    winner, points); ``trump`` (S H D C SA TA, once the contract and the discard are
    made; absent before); ``score`` (outcome; ``totals``: taker/defenders, or per seat with
    two players; ``score`` per seat; ``reserve``), or None; ``next`` (the seat to act
    and its legal calls or cards; ``discard``: 2 while the kitty's taker lays aside;
    in the play, ``playable``: every card the seat could play but for §6), or None.
    The record carries no reserve: it counts from 0.

    Refused (ValueError): a key outside the mode's; hands of the wrong size, a card
    twice, a card outside the pack (24_cards: 7s and 8s); the turned card outside the
    taker's hand (24_cards) or inside a hand (six_each, stock; likewise the bergère);
    an illegal call or a call after the end; discards that are not two different
    cards of the taker's 12, or given before the take; a card not held (découverte:
    not face up) or not legal (§6, nobody a partner); a play before the contract (and
    the discard) or after the last trick; an announcement the seat cannot make
    (§7.2-7.3, from its hand at its first card) or any while ``declarations`` is off;
    ``belote: true`` for a seat without the trump K and Q (SA: every seat; TA: a seat
    holding no suit's K and Q); an SA or TA call without ``sa_ta_in_classic``.
    Découverte: announcements are checked against the seat's face-up cards (what it
    holds at its first card) but never scored.
    """
    if not isinstance(record, Mapping):
        raise ValueError(f"record: {record!r} is not an object")
    profile = record.get("profile")
    if profile not in ("classic-3p", "classic-2p"):
        raise ValueError(f"profile: {profile!r} is not classic-3p or classic-2p")
    options = record.get("options") or {}
    rules = make_rules(profile, options)
    mode = mode_of(rules)
    players = rules.players
    seats = SEATS_BY_PLAYERS[players]
    allowed = COMMON_KEYS + MODE_KEYS[mode]
    for key in record:
        if key not in allowed:
            raise ValueError(f"record: key {key!r} does not belong to a {mode} record")
    for key in allowed:
        if key not in OPTIONAL_KEYS and key not in record:
            raise ValueError(f"record: {key!r} is missing")
    dealer_name = record["dealer"]
    if dealer_name not in seats:
        raise ValueError(f"dealer: {dealer_name!r} is not a seat ({', '.join(seats)})")
    dealer = seats.index(dealer_name)
    eldest = (dealer + 1) % players
    plays = _card_list(record.get("plays", []), "plays")
    if len(plays) > CARDS_PLAYED[mode]:
        raise ValueError(f"plays: {len(plays)} cards, at most {CARDS_PLAYED[mode]}")

    if mode == "decouverte":
        return _replay_decouverte(record, rules, seats, dealer, plays)

    hands_raw = _seat_map(record["hands"], "hands", seats)
    hands = [_card_list(hands_raw[s], f"hands: {s}") for s in seats]
    for s, h in zip(seats, hands, strict=True):
        if len(h) != HAND_SIZE[mode]:
            raise ValueError(f"hands: {s} holds {len(h)} cards, not {HAND_SIZE[mode]}")
    extra: list[str] = []  # six_each, stock: the turned card and the bergère
    turned: str | None = None
    kitty: list[str] = []
    if mode == "kitty":
        kitty = _card_list(record["kitty"], "kitty")
        if len(kitty) != 2:
            raise ValueError(f"kitty: {len(kitty)} cards, not 2")
    else:
        turned = parse_card_name(record["turned"])
        if mode in ("six_each", "stock"):
            extra = [turned, parse_card_name(record["bergere"])]
    the_pack = pack(mode)
    seen: set[str] = set()
    for where, cards in [*((f"hands: {s}", h) for s, h in zip(seats, hands, strict=True)),
                         ("kitty", kitty), ("turned", [turned] if turned else []),
                         ("bergere", extra[1:])]:
        for c in cards:
            if c not in the_pack:
                raise ValueError(f"{where}: {c} is not in the {len(the_pack)}-card pack")
            if c in seen and not (where == "turned" and mode == "24_cards"):
                raise ValueError(f"{where}: {c} is dealt twice")
            seen.add(c)

    bidding = SmallBidding(players, dealer, turned, rules.sa_ta_in_classic)
    bids = record["bids"]
    if not isinstance(bids, list):
        raise ValueError(f"bids: {bids!r} is not a list of calls")
    for i, b in enumerate(bids):
        try:
            bidding.call(b)
        except ValueError as exc:
            raise ValueError(f"bid {i + 1}: {exc}") from None
    discards_raw = record.get("discards")
    if not bidding.finished or bidding.taker is None:
        if plays:
            raise ValueError(f"plays: {plays[0]} played with no contract")
        if discards_raw is not None:
            raise ValueError("discards: given with no contract")
        if not bidding.finished:
            return {"complete": False, "tricks": [], "score": None,
                    "next": {"seat": seats[bidding.turn], "legal": bidding.legal()}}
        zero = dict.fromkeys(seats, 0)
        return {"complete": True, "tricks": [], "next": None,
                "score": {"outcome": "void", "score": zero, "reserve": 0}}
    taker, trump = bidding.taker, bidding.trump
    assert trump is not None
    if mode == "24_cards" and turned not in hands[taker]:
        raise ValueError(f"turned: {turned} is not in the taker {seats[taker]}'s hand")
    discards: list[str] = []
    if mode == "kitty":
        twelve = sort_cards([*hands[taker], *kitty])
        if discards_raw is None:
            if plays:
                raise ValueError(f"plays: {plays[0]} played before the discard")
            return {"complete": False, "tricks": [], "score": None,
                    "next": {"seat": seats[taker], "discard": 2, "legal": twelve}}
        discards = _card_list(discards_raw, "discards")
        if len(discards) != 2 or len(set(discards)) != 2:
            raise ValueError(f"discards: {discards!r} are not two different cards")
        for c in discards:
            if c not in twelve:
                raise ValueError(f"discards: the taker does not hold {c}")
        hands[taker] = [c for c in twelve if c not in discards]
    announced = _record_announcements(record, rules, seats, hands, trump)
    said = _record_belote(record, seats, hands, trump)
    side_of = [0 if s == taker else 1 for s in range(players)]
    play = SmallPlay(rules, trump, hands, eldest, side_of)
    _push_all(play, plays, seats)
    return _answer(rules, mode, play, taker, eldest, announced, said, discards, seats)


def _push_all(play: SmallPlay, plays: Sequence[str], seats: Sequence[str]) -> None:
    for i, c in enumerate(plays):
        try:
            play.push(c)
        except ValueError as exc:
            raise ValueError(
                f"trick {i // play.players + 1}: {seats[play.turn]}: {exc}"
            ) from None


def _answer(
    rules: Rules, mode: str, play: SmallPlay, taker: int, eldest: int,
    announced: Sequence[Sequence[Combination]], said: Sequence[bool],
    discards: Sequence[str], seats: Sequence[str],
) -> dict[str, Any]:
    tricks = [(seats[t.leader], list(t.cards), seats[t.winner], t.points) for t in play.tricks]
    if not play.over:
        return {"complete": False, "tricks": tricks, "score": None, "trump": play.trump,
                "next": {"seat": seats[play.turn], "legal": play.legal(),
                         "playable": sort_cards(play.hands[play.turn])}}
    res = score_deal(rules, mode, play, taker, eldest, announced, said, discards)
    if len(seats) == 3:
        totals = {"taker": res.totals[0], "defenders": res.totals[1]}
    else:
        totals = dict(zip(seats, res.totals, strict=True))
    return {"complete": True, "tricks": tricks, "next": None, "trump": play.trump,
            "score": {"outcome": res.outcome, "totals": totals,
                      "score": dict(zip(seats, res.seats, strict=True)),
                      "reserve": res.reserve}}


def _record_announcements(
    record: Mapping[str, Any], rules: Rules, seats: Sequence[str],
    hands: Sequence[Sequence[str]], trump: str,
) -> list[list[Combination]]:
    """CONTRACT ``declarations``: absent, every seat announces all it holds (grouped for
    the most points); given, a seat left out announces nothing.  Off: none allowed."""
    given = record.get("declarations")
    if given is None:
        if not rules.declarations:
            return [[] for _ in seats]
        return [default_announcement(h, trump, rules) for h in hands]
    if not isinstance(given, dict):
        raise ValueError(f"declarations: {given!r} is not an object of seats")
    result: list[list[Combination]] = [[] for _ in seats]
    for key, combos in given.items():
        if key not in seats:
            raise ValueError(f"declarations: {key!r} is not a seat")
        if not rules.declarations:
            if combos:
                raise ValueError(f"declarations: {key} announces {combos!r} but they are off")
            continue
        i = seats.index(key)
        result[i] = check_announcement(key, hands[i], combos, trump, rules)
    return result


def _record_belote(
    record: Mapping[str, Any], seats: Sequence[str], hands: Sequence[Sequence[str]], trump: str
) -> list[bool]:
    """CONTRACT ``belote``: per seat, whether it says belote (default true); true for a
    seat without the trump K and Q in its playing hand is refused (SA: every seat;
    TA: a seat holding no suit's K and Q).  A seat's false covers all its belotes
    (TA: every suit)."""
    given = record.get("belote")
    said = [True] * len(seats)
    if given is None:
        return said
    if not isinstance(given, dict):
        raise ValueError(f"belote: {given!r} is not an object of seats")
    for key, value in given.items():
        if key not in seats or not isinstance(value, bool):
            raise ValueError(f"belote: {key!r}: {value!r}")
        i = seats.index(key)
        if value and not holds_belote(hands[i], trump):
            raise ValueError(f"belote: {key} does not hold the trump king and queen")
        said[i] = value
    return said


def _replay_decouverte(
    record: Mapping[str, Any], rules: Rules, seats: Sequence[str], dealer: int,
    plays: Sequence[str],
) -> dict[str, Any]:
    """Belote découverte records: ``piles`` per seat, 8 [face-down, face-up] pairs."""
    piles_raw = _seat_map(record["piles"], "piles", seats)
    piles: list[list[tuple[str, str]]] = []
    for s in seats:
        raw = piles_raw[s]
        if not isinstance(raw, list) or len(raw) != 8:
            raise ValueError(f"piles: {s}: {raw!r} is not 8 piles")
        seat_piles = []
        for pair in raw:
            cards = _card_list(pair, f"piles: {s}")
            if len(cards) != 2:
                raise ValueError(f"piles: {s}: {pair!r} is not [face-down, face-up]")
            seat_piles.append((cards[0], cards[1]))
        piles.append(seat_piles)
    every = [c for p in piles for pair in p for c in pair]
    if len(set(every)) != 32:
        raise ValueError("piles: a card is dealt twice")
    trump = suit(piles[dealer][7][1])
    eldest = 1 - dealer
    hands = [[up for _d, up in p] for p in piles]
    beneath = [{up: down for down, up in p} for p in piles]
    all16 = [[c for pair in p for c in pair] for p in piles]
    # §12.2 "declarations off": no seat announces anything in belote découverte.
    given = record.get("declarations")
    if isinstance(given, dict) and any(given.values()):
        raise ValueError("declarations: none in belote découverte (§12.2)")
    if given is not None and not isinstance(given, dict):
        raise ValueError(f"declarations: {given!r} is not an object of seats")
    said = _record_belote(record, seats, all16, trump)
    play = SmallPlay(rules, trump, hands, eldest, [0, 1], beneath)
    _push_all(play, plays, seats)
    return _answer(rules, "decouverte", play, eldest, eldest, [[], []], said, [], seats)
