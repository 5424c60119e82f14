"""The heuristic bot: bidding by hand strength and card play by rules of thumb.

Bidding follows the tips of seed 000 §9: take with two master trumps (the jack
with the nine or the ace, tip 1) and enough strength, counting the trump points,
the number of trumps, the side aces and guarded tens (the turned card joins the
hand, docs/rules.md §3.4); a hand without two master trumps only from a higher
strength (setting ``loose``, :data:`LOOSE`; 0 keeps tip 1 strictly).  Round 2
names the best other suit by the same measure.  With ``game=aware`` the
threshold moves with the game score (:func:`game_shift`).

Card play follows the other tips of seed 000 §9: count the trumps played and
track every card (tip 2); as taker, draw trumps while holding the master trump,
then lead small trumps when long (tips 8); lead masters, then long plain suits
(tip 3); do not trump first without reason (tip 4); keep the trump ten from
being captured (tip 5); feed points to a partner who holds the trick; play low
when the trick is lost; keep the trump ace on defence (tip 9) and a master trump
for the last trick (tip 7, dix de der).

The bot is deterministic: ties are broken by card order, not at random.

At the tables of three and two (docs/rules.md §12) the same tips are applied by side:
with three the taker plays alone against the two defenders, who count as one
side, so a defender feeds points to the other defender holding the trick (there
is no partner at the table: the §6.3a exemption never applies, and a void
defender must still trump his fellow defender's trick); with two each plays
alone.  What each seat may hold comes from :func:`belote.bots.knowledge.infer`
(the stock, the kitty, the turned card and the bergère taken into account); in
belote découverte the other player's face-up cards are seen, so the bot knows
exactly what can still be played to the trick.  Bidding counts the same
strength on the cards held, with a take threshold per deal (:data:`SMALL_TAKE`,
measured by simulation); the kitty discard is :func:`belote.bots.base.default_discard`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Protocol

from belote.bots.base import BaseBot, BotSetting, GameWeighing, legal_calls, legal_cards
from belote.bots.knowledge import InconsistentViewError, Knowledge, Reading, infer
from belote.cards import (
    ACE,
    ALL_CARDS,
    ALL_TRUMP,
    BELOTE_MASKS,
    JACK,
    NINE,
    NO_TRUMP,
    SUIT_LETTERS,
    SUIT_MASKS,
    TEN,
    TRUMP_POINTS,
    Card,
    CardMask,
    TrumpMode,
    beats,
    card,
    order_table,
    rank_of,
    scan_forward,
    suit_of,
)
from belote.options import Limit, ThreeDeal, TwoDeal
from belote.play import card_points, trick_winner
from belote.round import PlayerView
from belote.table import DealMode

__all__ = [
    "GAME_REACH",
    "GAME_SHIFT",
    "LOOSE",
    "SMALL_TAKE",
    "HeuristicBot",
    "best_round2_suit",
    "bid_strength",
    "game_needs",
    "game_shift",
    "small_call",
    "small_strength",
    "suit_strength",
]

TAKE_THRESHOLD = 45
# A hand without two master trumps is taken (or bid) from this strength: measured
# better than never (docs/results/bidding.md: +7.6 points a deal, 60% of games; all-pass deals
# 42.5% -> 13% of deals at a classic table).  ``heuristic:loose=0`` is the bot of before.
LOOSE = 50
GAME_SHIFT = 10  # the strength a take needs more, or less, near the end of a game
# (points a failed contract gives the others, points a made one brings its takers), by
# table: take-or-pass (162 and about 100), auction (a 160 failure plus an 80 contract,
# about 180 for a made 80): what game_shift weighs the game's needs against.
GAME_REACH: Final[tuple[tuple[int, int], tuple[int, int]]] = ((162, 100), (240, 180))


def bid_strength(hand: CardMask, trump: int, loose: int = 0) -> int:
    """How strong ``hand`` is with ``trump`` as trump, or -1 without two master trumps.

    Seed 000 §9 tip 1: no take without the jack and the nine, or the jack and the
    ace, of trumps.  Otherwise: trump points + 6 a trump + 10 a side ace + 4 a
    guarded side ten + 10 for belote (K+Q of trumps).  With ``loose`` (0: never)
    a hand without two master trumps counts too when that count reaches ``loose``.

    >>> from belote.cards import mask_of, parse_card, HEARTS
    >>> h = mask_of(parse_card(c) for c in "JH 9H 7H AS 8D 7C".split())
    >>> bid_strength(h, HEARTS)
    62
    >>> bid_strength(mask_of(parse_card(c) for c in "9H AH TH KH AS AC".split()), HEARTS)
    -1
    """
    base = trump * 8
    if not (hand >> (base + JACK) & 1 and (hand >> (base + NINE) & 1 or hand >> (base + ACE) & 1)):
        if loose:
            value = suit_strength(hand, trump)
            return value if value >= loose else -1
        return -1
    return suit_strength(hand, trump)


def suit_strength(hand: CardMask, trump: int) -> int:
    """:func:`bid_strength`'s count for a suit ``trump``, without its first rule: trump
    points + 6 a trump + 10 a side ace + 4 a guarded side ten + 10 for belote."""
    trumps = hand & SUIT_MASKS[trump]
    score = sum(TRUMP_POINTS[rank_of(c)] for c in scan_forward(trumps)) + 6 * trumps.bit_count()
    for suit in range(4):
        if suit == trump:
            continue
        if hand >> (suit * 8 + ACE) & 1:
            score += 10
        elif hand >> (suit * 8 + TEN) & 1 and (hand & SUIT_MASKS[suit]).bit_count() >= 2:
            score += 4
    belote = BELOTE_MASKS[trump]
    if hand & belote == belote:
        score += 10
    return score


def best_round2_suit(hand: CardMask, turned: Card, loose: int = 0) -> tuple[int, int]:
    """The best suit to name in round 2 and its strength (the turned card joins as plain)."""
    full = hand | 1 << turned
    best = (-1, -1)
    for suit in range(4):
        if suit == suit_of(turned):
            continue
        value = bid_strength(full, suit, loose)
        if value > best[1]:
            best = (suit, value)
    return best


def auction_value(strength: int, threshold: int) -> int:
    """The contract a hand of ``strength`` (:func:`bid_strength`, 8 cards) is worth bidding.

    80 at ``threshold + 15``, then 10 more for every 10 of strength, at most 160;
    0 when too weak.
    """
    if strength < threshold + 15:
        return 0
    return min(160, 80 + 10 * ((strength - threshold - 15) // 10))


def game_needs(view: PlayerView) -> tuple[int, int] | None:
    """What the seat's score column and the best other one still need to reach the
    game's target (§11.1; per team, or per seat at §12's tables), or None outside a
    game to a points target."""
    score = view.game_score
    if view.target is None or not score or view.rules.limit is not Limit.POINTS:
        return None
    mine = view.seat & 1 if view.rules.players == 4 else view.seat
    best = max(v for column, v in enumerate(score) if column != mine)
    return view.target - score[mine], view.target - best


def game_shift(view: PlayerView) -> int:
    """The strength a take or a bid needs more (or less) for the game score: GAME_SHIFT
    more when a failed contract would give the others the game and they are nearer to
    it, GAME_SHIFT less when a made one would likely end it for us and a failed one
    would not for them (the points of :data:`GAME_REACH`; 0 outside a game)."""
    needs = game_needs(view)
    if needs is None:
        return 0
    ours, theirs = needs
    failed, made = GAME_REACH[view.rules.is_auction]
    if theirs <= failed and ours > theirs:
        return GAME_SHIFT
    if ours <= made and theirs > failed:
        return -GAME_SHIFT
    return 0


def auction_call(view: PlayerView, calls: list[str], threshold: int, loose: int = 0) -> str:
    """Numeric auction (docs/rules.md §4): bid the best suit by strength, a little more over a
    partner's bid with side aces; coinche holding the jack and nine of the opponents'
    trump; never surcoinche, capot or générale."""
    seat = view.seat
    best: tuple[int, int, int] | None = None  # value, trump, seat of the highest bid
    for call in view.calls:
        bid = getattr(call, "bid", None)
        if bid is not None and isinstance(bid.value, int):
            best = (bid.value, bid.trump, call.seat)
        elif bid is not None:
            best = (1000, bid.trump, call.seat)
    current = best[0] if best is not None else 0
    if best is not None and best[2] & 1 != seat & 1 and best[1] < NO_TRUMP and "coinche" in calls:
        base = best[1] * 8
        if view.hand >> (base + JACK) & 1 and view.hand >> (base + NINE) & 1:
            return "coinche"
    options: list[tuple[int, int]] = []
    for suit in range(4):
        value = auction_value(bid_strength(view.hand, suit, loose), threshold)
        if best is not None and best[2] == seat ^ 2 and best[1] == suit:
            aces = sum(
                1 for s in range(4)
                if s != suit and view.hand >> (s * 8 + ACE) & 1
            )
            if aces:
                value = max(value, min(160, best[0] + 10 * aces))
        options.append((value, suit))
    value, suit = max(options)
    if best is not None and best[2] == seat ^ 2 and best[1] != suit:
        value -= 20  # do not take the partner's contract away without a clear reason
    if value > current:
        name = f"{value}{SUIT_LETTERS[suit]}"
        if name in calls:
            return name
    return "pass"


class _Decision(Protocol):
    """What a card decision knows, at any table: the view, the trump, the card order and
    points, the hand, the cards still out, whether the seat defends, who is on its side
    and who might beat a card."""

    view: PlayerView
    trump: TrumpMode
    order: tuple[int, ...]
    points: tuple[int, ...]
    hand: CardMask
    out: CardMask

    @property
    def defends(self) -> bool: ...

    def is_trump(self, c: Card) -> bool: ...

    def master(self, c: Card) -> bool: ...

    def friend(self, seat: int) -> bool: ...

    def beaten_by(self, card: Card, seats: Sequence[int]) -> bool: ...


def _keep_cost(d: _Decision, c: Card) -> float:
    """How much keeping ``c`` is worth (low: a good card to throw away)."""
    cost: float = 2 * d.points[c] + d.order[c] * 0.5
    if d.is_trump(c):
        cost += 30 + 3 * d.order[c]
        if rank_of(c) == ACE and d.defends:
            cost += 15  # tip 9: the defence keeps its trump ace
    if d.master(c):
        cost += 15
    suit = suit_of(c)
    suit_cards = d.hand & SUIT_MASKS[suit]
    ten = card(suit, TEN)
    if (
        not d.is_trump(c)
        and c != ten
        and suit_cards >> ten & 1
        and suit_cards.bit_count() == 2
        and d.out >> card(suit, ACE) & 1
    ):
        cost += 12  # do not bare a ten under an ace still out
    if d.hand.bit_count() == 2 and d.is_trump(c) and d.master(c):
        cost += 40  # tip 7: keep the master trump for the dix de der
    return cost


def _low(d: _Decision, cards: Sequence[Card]) -> Card:
    """The card of ``cards`` cheapest to give away (ties: the lowest)."""
    return min(cards, key=lambda c: (_keep_cost(d, c), c))


def _lead_plain(d: _Decision, legal: list[Card]) -> Card:
    """A lead once no master is worth leading: with two cards, keep a master trump for
    the last trick (tip 7); lead the long plain suit from the bottom, not from a bare
    ten (tip 3); else the lowest card."""
    if d.hand.bit_count() == 2:
        rest = [c for c in legal if not (d.is_trump(c) and d.master(c))]
        if rest:
            return _low(d, rest)
    plain = [c for c in legal if not d.is_trump(c)]
    if plain:
        def length(c: Card) -> int:
            return (d.hand & SUIT_MASKS[suit_of(c)]).bit_count()

        longest = max(length(c) for c in plain)
        return _low(d, [c for c in plain if length(c) == longest])
    return min(legal, key=lambda c: (d.order[c], c))


def _feed(d: _Decision, legal: list[Card]) -> Card:
    """A partner (four players) or the other defender (three) holds the trick: give it
    points, but not trumps nor our sure winners."""

    def gift(c: Card) -> tuple[float, int]:
        value: float = d.points[c]
        if d.is_trump(c):
            value -= 40 + d.order[c]
        elif d.master(c) and rank_of(c) == ACE:
            value -= 8  # an ace that will win its own trick
        return (value, -c)

    return max(legal, key=gift)


def _follow(d: _Decision, legal: list[Card]) -> Card:
    """A card to a trick already led: feed a friend who holds it safely, else take it
    with the cheapest winner sure to hold (trumping last), or with a plain winner when
    it is worth 10 or more; else the cheapest card."""
    view = d.view
    trick = view.trick
    n = view.rules.players
    win_index = trick_winner(trick, d.trump)
    win_seat = (view.trick_leader + win_index) % n
    win_card = trick[win_index]
    after = [(view.seat + i) % n for i in range(1, n - len(trick))]
    if d.friend(win_seat):
        if not d.beaten_by(win_card, after):
            return _feed(d, legal)
        return _low(d, legal)
    winners = [c for c in legal if beats(c, win_card, d.trump)]
    if not winners:
        return _low(d, legal)
    # the cheapest winner that holds the trick against the players still to come
    sure = [c for c in winners if not d.beaten_by(c, after)]
    if sure:
        return min(sure, key=lambda c: (d.is_trump(c), d.order[c], c))
    if all(d.is_trump(c) for c in legal):
        return min(winners, key=lambda c: (d.order[c], c))
    trick_points = sum(d.points[c] for c in trick)
    if trick_points >= 10 and any(not d.is_trump(c) for c in winners):
        return min((c for c in winners if not d.is_trump(c)), key=lambda c: (d.order[c], c))
    return _low(d, legal)


@dataclass(slots=True)
class _FourPlay:
    """What the bot works with for one card decision at four players."""

    view: PlayerView
    trump: TrumpMode
    order: tuple[int, ...]
    points: tuple[int, ...]
    hand: CardMask
    out: CardMask  # cards the other three seats still hold
    knowing: Callable[[], Knowledge]  # what the seat knows, worked out on first read (know)
    _know: Knowledge | None = None

    @property
    def know(self) -> Knowledge:
        """What the seat knows (``knowing()``, once)."""
        know = self._know
        if know is None:
            know = self._know = self.knowing()
        return know

    def is_trump(self, c: Card) -> bool:
        return self.trump == ALL_TRUMP or suit_of(c) == self.trump

    @property
    def defends(self) -> bool:
        contract = self.view.contract
        return contract is not None and contract.team != self.view.seat & 1

    def friend(self, seat: int) -> bool:
        """The partner, across the table."""
        return seat == self.view.seat ^ 2

    def master(self, c: Card) -> bool:
        """No card still out in ``c``'s suit ranks above it."""
        order = self.order
        same = self.out & SUIT_MASKS[suit_of(c)]
        return all(order[x] < order[c] for x in scan_forward(same))

    def beaten_by(self, card: Card, seats: Sequence[int]) -> bool:
        """Whether one of ``seats`` (playing after) might beat ``card`` at the head of the trick."""
        led = suit_of(self.view.trick[0] if self.view.trick else card)
        for s in seats:
            if s & 1 == self.view.seat & 1:
                continue
            poss = self.know.possible(s)
            same = poss & SUIT_MASKS[suit_of(card)]
            if any(beats(x, card, self.trump) for x in scan_forward(same)):
                return True
            if (
                not self.is_trump(card)
                and self.trump < NO_TRUMP
                and poss & SUIT_MASKS[self.trump]
                and not poss & SUIT_MASKS[led] & self.out
            ):
                return True  # known void in the led suit and may hold trumps
            if (
                not self.is_trump(card)
                and self.trump < NO_TRUMP
                and poss & SUIT_MASKS[self.trump]
                and (self.out & SUIT_MASKS[led]).bit_count() < 3
            ):
                return True  # few cards of the suit left: a ruff is likely
        return False


def _knowledge(view: PlayerView, reading: Reading | None = None) -> Knowledge:
    """What the seat knows (:func:`~belote.bots.knowledge.infer`), read by ``reading``
    when given: the bot's own, kept from its decision before."""
    try:
        return infer(view) if reading is None else reading.infer(view)
    except InconsistentViewError:  # pragma: no cover - only a view that contradicts itself
        return infer(view, voids=False)


class HeuristicBot(BaseBot):
    """Rule-of-thumb bidding and play after the tips of seed 000 §9."""

    kind = "heuristic"
    SETTINGS: ClassVar[Mapping[str, BotSetting]] = {
        "threshold": BotSetting(int, TAKE_THRESHOLD, "strength needed to take", 0),
        "loose": BotSetting(int, LOOSE, "take too without two master trumps from this "
                            "strength (0: never, seed 000 §9 tip 1 kept strictly)", 0),
        "game": BotSetting(GameWeighing, GameWeighing.IGNORE, "bidding: ignore the game "
                           "score, or take it into account (aware: a stricter take when a "
                           "failure would give the others the game, a lighter one when a make "
                           "would end it for us)"),
    }

    def __init__(self, seed: int | None = None, **settings: object) -> None:
        super().__init__(seed, **settings)
        # What the bot's seat has read of the deal's completed tricks, kept from one of
        # its cards to the next (each decision reads only the tricks completed since).
        self.reading = Reading()

    # --- bidding ------------------------------------------------------------------

    def call(self, view: PlayerView) -> str:
        calls = legal_calls(view)
        threshold, loose = self.settings["threshold"], self.settings["loose"]
        if view.rules.players != 4:
            return _small_call(view, calls, threshold - TAKE_THRESHOLD)
        if self.settings["game"] is GameWeighing.AWARE:
            shift = game_shift(view)
            threshold += shift
            loose = max(1, loose + shift) if loose else 0
        if view.rules.is_auction or view.turned is None:
            return auction_call(view, calls, threshold, loose)
        if "take" in calls:
            value = bid_strength(view.hand | 1 << view.turned, suit_of(view.turned), loose)
            return "take" if value >= threshold else "pass"
        suit, value = best_round2_suit(view.hand, view.turned, loose)
        if suit >= 0 and value >= threshold and SUIT_LETTERS[suit] in calls:
            return SUIT_LETTERS[suit]
        return "pass"

    # --- card play ------------------------------------------------------------------

    def play(self, view: PlayerView) -> int:
        legal = legal_cards(view)
        if len(legal) == 1:
            return legal[0]
        assert view.contract is not None
        if view.rules.players != 4:
            return _SmallPlay(view, self.reading).choose(legal)
        reading = self.reading
        # What the seat knows, worked out only if the decision reads it (a card that
        # follows with no winner, or the trick's last, does not): the same card.
        return self._play_four(view, lambda: _knowledge(view, reading))

    def play_knowing(self, view: PlayerView, know: Knowledge) -> Card:
        """The card :meth:`play` chooses at the view's table, ``know`` being what the
        seat knows (:func:`~belote.bots.knowledge.infer` of ``view``, given by a caller
        that has it already); the view holds two legal cards or more."""
        if view.rules.players != 4:
            return _SmallPlay(view, know=know).choose(list(view.legal_cards))
        return self._play_four(view, lambda: know)

    def _play_four(self, view: PlayerView, knowing: Callable[[], Knowledge]) -> Card:
        """The card at four players, ``knowing()`` answering what the seat knows
        (called at most once, when the decision first reads it)."""
        assert view.contract is not None
        legal = list(view.legal_cards)
        trump = view.contract.trump
        t = _FourPlay(
            view=view,
            trump=trump,
            order=order_table(trump),
            points=card_points(view.rules, trump),
            hand=view.hand,
            out=ALL_CARDS & ~view.played & ~view.hand,
            knowing=knowing,
        )
        if not view.trick:
            return self._lead(t, legal)
        return _follow(t, legal)

    def _lead(self, t: _FourPlay, legal: list[Card]) -> Card:
        view = t.view
        assert view.contract is not None
        seat = view.seat
        takers = view.contract.team == seat & 1
        trumps_mine = [c for c in legal if t.is_trump(c)] if t.trump < NO_TRUMP else []
        opponents = (seat + 1) & 3, (seat + 3) & 3
        opp_trumps = 0
        if takers and trumps_mine:  # (only they read it: the knowledge only if needed)
            for s in opponents:
                opp_trumps |= t.know.possible(s) & SUIT_MASKS[t.trump]
        # Tips 8 and 2: the takers draw the opponents' trumps while they hold the master.
        if takers and trumps_mine and opp_trumps:
            top = max(trumps_mine, key=lambda c: t.order[c])
            if t.master(top):
                return top
            if seat == view.contract.taker and len(trumps_mine) >= 3:
                small = [c for c in trumps_mine if rank_of(c) != TEN]
                return min(small or trumps_mine, key=lambda c: t.order[c])
        # Lead a master plain card that no opponent is likely to ruff.
        masters = [
            c for c in legal
            if not t.is_trump(c) and t.master(c) and not self._ruff_risk(t, c, opponents)
        ]
        if masters:
            return max(masters, key=lambda c: (t.points[c], c))
        return _lead_plain(t, legal)

    def _ruff_risk(self, t: _FourPlay, c: Card, opponents: Sequence[int]) -> bool:
        if t.trump >= NO_TRUMP:
            return False
        for s in opponents:
            poss = t.know.possible(s)
            if poss & SUIT_MASKS[t.trump] and not poss & SUIT_MASKS[suit_of(c)]:
                return True
        return False


# --- three and two players (docs/rules.md §12) ---------------------------------------------

SMALL_TAKE: dict[ThreeDeal | TwoDeal, int] = {
    ThreeDeal.CARDS_24: 60,
    ThreeDeal.KITTY: 60,
    ThreeDeal.SIX_EACH: 60,
    TwoDeal.STOCK: 35,
}
"""The strength (:func:`small_strength`) needed to take, per deal of §12: where the
taker's mean score over the mean of the others' turned positive in 2,500–3,000
seeded deals per deal type, every seat played by this bot (``kitty``: the ten
cards before the kitty; ``stock``: a little lower, the lone opponent taking
otherwise)."""


def small_strength(hand: CardMask, trump: int) -> int:
    """How strong ``hand`` is with ``trump`` as trump at a small table: trump points,
    6 a trump, 10 a side ace, 4 a guarded side ten, 10 for belote, and 12 more for
    the two master trumps of seed 000 §9 tip 1 (the jack with the nine or the ace),
    20 less without the jack.

    >>> from belote.cards import mask_of, parse_card, HEARTS
    >>> small_strength(mask_of(parse_card(c) for c in "JH 9H 7H AS 8D".split()), HEARTS)
    74
    """
    base = trump * 8
    score = suit_strength(hand, trump)
    if hand >> (base + JACK) & 1:
        if hand >> (base + NINE) & 1 or hand >> (base + ACE) & 1:
            score += 12
    else:
        score -= 20
    return score


def _small_call(view: PlayerView, calls: list[str], offset: int) -> str:
    """Take or name a suit when the hand is strong enough for the deal (§12.1, §12.2):
    :func:`small_call` of the view's cards."""
    mode: ThreeDeal | TwoDeal = (view.rules.three_deal if view.rules.players == 3
                                 else view.rules.two_deal)
    return small_call(view.hand, view.turned, calls, mode, SMALL_TAKE.get(mode, 60) + offset)


def small_call(hand: CardMask, turned: Card | None, calls: Sequence[str],
               mode: ThreeDeal | TwoDeal, need: int) -> str:
    """The heuristic's call at a table of three or two with ``hand`` (a strength of
    ``need`` takes, :data:`SMALL_TAKE` and the ``threshold`` setting's offset):

    ``24_cards``: the turned card joins the taker's hand (§3.4); ``six_each`` and
    ``stock``: it stays on the table; ``kitty``: one round naming any suit, the two
    unseen kitty cards to come.
    """
    if "take" in calls and turned is not None:
        held = hand | 1 << turned if mode is ThreeDeal.CARDS_24 else hand
        return "take" if small_strength(held, suit_of(turned)) >= need else "pass"
    best: tuple[int, int] | None = None
    for suit in range(4):
        if SUIT_LETTERS[suit] not in calls:
            continue
        held = (hand | 1 << turned if mode is ThreeDeal.CARDS_24 and turned is not None
                else hand)
        value = small_strength(held, suit)
        if best is None or value > best[0]:
            best = (value, suit)
    if best is not None and best[0] >= need:
        return SUIT_LETTERS[best[1]]
    return "pass"


class _SmallPlay:
    """One card decision at a table of three or two (§12), after the tips of seed 000 §9
    applied by side (see the module docstring)."""

    def __init__(self, view: PlayerView, reading: Reading | None = None,
                 know: Knowledge | None = None) -> None:
        """``know``: what the seat knows, when the caller has it (else inferred from
        ``view``, through ``reading`` when given)."""
        assert view.contract is not None
        self.view = view
        self.n = view.rules.players
        self.seat = view.seat
        self.trump: TrumpMode = view.contract.trump
        self.order = order_table(self.trump)
        self.points = card_points(view.rules, self.trump)
        self.hand = view.hand
        self.know = know if know is not None else _knowledge(view, reading)
        taker = view.contract.taker
        if self.n == 3:
            self.teams: tuple[int, ...] = tuple(0 if s == taker else 1 for s in range(3))
        else:
            self.teams = (0, 1)
        self.decouverte = self.know.table.mode is DealMode.DECOUVERTE  # no taker (§12.2)
        self.taking = not self.decouverte and self.teams[self.seat] == self.teams[taker]
        self.foes = [s for s in range(self.n) if self.teams[s] != self.teams[self.seat]]
        self.out = self.know.others()

    # --- what may be where -------------------------------------------------------------

    def is_trump(self, c: Card) -> bool:
        return self.trump == ALL_TRUMP or suit_of(c) == self.trump

    @property
    def defends(self) -> bool:
        return not self.taking

    def friend(self, s: int) -> bool:
        return s != self.seat and self.teams[s] == self.teams[self.seat]

    def master(self, c: Card) -> bool:
        """No other seat may hold a card of ``c``'s suit ranking above it."""
        order = self.order
        held = 0
        for s in range(self.n):
            if s != self.seat:
                held |= self.know.possible(s)
        same = held & SUIT_MASKS[suit_of(c)]
        return all(order[x] < order[c] for x in scan_forward(same))

    def beaten_by(self, card: Card, seats: Sequence[int]) -> bool:
        """Whether a foe among ``seats`` (playing after) might beat ``card`` heading the trick."""
        view = self.view
        led = suit_of(view.trick[0] if view.trick else card)
        trump = self.trump
        for s in seats:
            if s not in self.foes:
                continue
            poss = self.know.possible(s)
            if any(beats(x, card, trump) for x in scan_forward(poss & SUIT_MASKS[suit_of(card)])):
                return True
            if not self.is_trump(card) and trump < NO_TRUMP and poss & SUIT_MASKS[trump]:
                if not poss & SUIT_MASKS[led]:
                    return True  # void in the led suit, and may hold trumps
                if not self.decouverte and (
                    (self.out & SUIT_MASKS[led]).bit_count() < 3
                ):
                    return True  # few cards of the suit left: a ruff is likely
        return False

    def ruff_risk(self, c: Card) -> bool:
        if self.trump >= NO_TRUMP:
            return False
        for s in self.foes:
            poss = self.know.possible(s)
            if poss & SUIT_MASKS[self.trump] and not poss & SUIT_MASKS[suit_of(c)]:
                return True
        return False

    # --- the decision ---------------------------------------------------------------------

    def choose(self, legal: list[Card]) -> Card:
        return self.lead(legal) if not self.view.trick else _follow(self, legal)

    def lead(self, legal: list[Card]) -> Card:
        view = self.view
        assert view.contract is not None
        order = self.order
        trumps_mine = [c for c in legal if self.is_trump(c)] if self.trump < NO_TRUMP else []
        foe_trumps = 0
        if self.trump < NO_TRUMP:
            for s in self.foes:
                foe_trumps |= self.know.possible(s) & SUIT_MASKS[self.trump]
        draw = self.taking or self.decouverte
        # Tips 8 and 2: the taker draws the others' trumps while he holds the master.
        if draw and trumps_mine and foe_trumps:
            top = max(trumps_mine, key=lambda c: order[c])
            if self.master(top):
                return top
            if self.taking and len(trumps_mine) >= 3:
                small = [c for c in trumps_mine if rank_of(c) != TEN]
                return min(small or trumps_mine, key=lambda c: order[c])
        masters = [
            c for c in legal if not self.is_trump(c) and self.master(c) and not self.ruff_risk(c)
        ]
        if masters:
            return max(masters, key=lambda c: (self.points[c], c))
        return _lead_plain(self, legal)

