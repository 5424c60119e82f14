"""The card play's worlds scored: the position of a view in a sampled world, and the
hand's score for the seat's side from the solver's value of the rest, at every
table (docs/rules.md §5, §7.4–§7.7, §8, §9, §12).

:func:`world_state` gives the position of a view in a world (the current trick
played again from the hands it came from); :class:`CardScorer` turns side 0's
double-dummy value of the remaining tricks into the hand's score difference for
the seat's side (made, failed, litige, capot; the contract and its multiplier in
an auction; the declarations compared at trick 2 or guessed before it; the belote
said or held in the world; at three players the kitty discards in the taker's
tricks and the points in play of a deal that leaves cards out; in découverte the
plain trick points).  At three players a defender plays for himself (§12.1): with
``own_points`` the points of a trick his card settles count for him alone
(:meth:`CardScorer.seat_bonus`); :class:`TrickShare` gives the points of the trick a
defender's card settles, for the card play's ``defence=own`` (his own points among the
cards equal for the side).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from belote.bots.base import played_by
from belote.bots.knowledge import World
from belote.cards import (
    ALL_TRUMP,
    KING,
    NO_TRUMP,
    QUEEN,
    SUIT_MASKS,
    Card,
    card,
    scan_forward,
    suit_of,
)
from belote.declarations import CARRE, best_announcement
from belote.errors import BeloteError
from belote.hand import DECOUVERTE
from belote.play import BEATING, PlayState, card_points, trick_winner
from belote.round import PlayerView
from belote.scoring import HandEntry, score_hand
from belote.scoring.values import scaled_ta
from belote.table import DealMode, Table

if TYPE_CHECKING:
    from belote.bots.bid_search import GameOutlook, SeatOutlook

__all__ = ["CardScorer", "TrickShare", "declarations_by_side", "world_state"]


def world_state(view: PlayerView, world: World, table: Table | None = None) -> PlayState:
    """The position of ``view`` in ``world`` (every hand now), ready to solve: the
    cards of the current trick given back to their players and played again."""
    assert view.contract is not None
    table = table if table is not None else Table.of(view.rules)
    n = table.players
    full = list(world.hands)
    for i, c in enumerate(view.trick):
        full[(view.trick_leader + i) % n] |= 1 << c
    sides = table.sides(view.contract.taker)
    won = [0, 0]
    for t in view.tricks:
        won[sides[t.winner]] += 1
    state = PlayState(
        view.rules, view.contract.trump, full, view.trick_leader,
        tricks_left=table.tricks - len(view.tricks), tricks_won=(won[0], won[1]), teams=sides,
    )
    for c in view.trick:
        state.push(c)
    return state


def declarations_by_side(view: PlayerView, sides: Sequence[int]) -> tuple[int, int]:
    """Declaration points per side: the comparison once trick 2 has started (§7.4);
    before, the seat's own combinations (all it holds, announced with its first card)
    against what the others announced (their kind and height only, §7.4), a tie going
    to nobody.  None in belote découverte (§12.2)."""
    if view.declaration_result is not None:
        return view.declaration_result.points
    assert view.contract is not None
    if not view.rules.declarations or view.contract.value == DECOUVERTE:
        return (0, 0)
    seat = view.seat
    mine = view.my_declarations
    if mine is None:
        start = view.hand | played_by(view)[seat]
        mine = tuple(best_announcement(start, view.rules, view.contract.trump))
    keyed: list[list[tuple[tuple[int, ...], int]]] = [[], []]
    for d in mine:
        keyed[sides[seat]].append(((d.points, d.kind == CARRE, d.rank), d.points))
    for other, said in enumerate(view.announced):
        if other == seat or said is None:
            continue
        for a in said:
            keyed[sides[other]].append(((a.points, a.kind == CARRE, a.rank), a.points))
    best = [max((k for k, _ in side), default=None) for side in keyed]
    if best[0] is None and best[1] is None:
        return (0, 0)
    if best[1] is None or (best[0] is not None and best[0] > best[1]):
        winner = 0
    elif best[0] is None or best[1] > best[0]:
        winner = 1
    else:
        return (0, 0)
    points = [0, 0]
    points[winner] = sum(p for _, p in keyed[winner])
    return (points[0], points[1])


class TrickShare:
    """Three players, a defender (§12.1): the points of the current trick that each of his
    legal cards settles, for him or against him, in a world (:meth:`of_world`).

    A card settles the trick when the seat completes it, or when no seat after him holds
    a card that beats the trick's winning card in that world among those he may play:
    the led suit's when he holds it (§6.1), else all (a safe reading: a seat bound to
    trump under, or his partner master, may not beat it either).  The points are those
    that change hands, the trick's cards so far but the winning one (the winner's own
    card was his either way) and the last trick's 10: ``+points`` when the seat wins it
    (his own trick points, §12.1), ``-points`` when the other defender does (his, not the
    seat's), nothing when the taker wins it or when it is not settled.  Within a world,
    among cards of the same side's score, these tell the seat's own points less the other
    defender's (the later tricks, which the side's double-dummy value cannot split,
    counted evenly).
    :meth:`applies` says whether the seat is such a defender."""

    def __init__(self, view: PlayerView, table: Table | None = None) -> None:
        assert view.contract is not None
        self.view = view
        self.table = table = table if table is not None else Table.of(view.rules)
        self.sides = table.sides(view.contract.taker)
        self.trump = view.contract.trump
        self.points = card_points(view.rules, self.trump)
        self._last = 10 if len(view.tricks) == table.tricks - 1 else 0
        self._later = [(view.seat + i) % table.players
                       for i in range(1, table.players - len(view.trick))]

    @staticmethod
    def applies(view: PlayerView, table: Table | None = None) -> bool:
        """Whether ``view``'s seat is a defender at three players (§12.1)."""
        table = table if table is not None else Table.of(view.rules)
        return (table.players == 3 and view.contract is not None
                and view.seat != view.contract.taker)

    def of_world(self, world: World) -> dict[Card, int]:
        """Each legal card's settled points in ``world`` (cards that settle nothing, or
        settle the trick for the taker, left out)."""
        view, n = self.view, self.table.players
        beating = BEATING[self.trump]
        pts = self.points
        out: dict[Card, int] = {}
        for c in view.legal_cards:
            cards = (*view.trick, c)
            i = trick_winner(cards, self.trump)
            led = SUIT_MASKS[suit_of(cards[0])]
            if any((world.hands[s] & led or world.hands[s]) & beating[cards[i]]
                   for s in self._later):
                continue  # (a later seat may still win it)
            won = (view.trick_leader + i) % n
            if self.sides[won] == 0:
                continue
            # (the winner's own card was his either way: the others' cards change hands)
            points = sum(pts[x] for j, x in enumerate(cards) if j != i) + self._last
            out[c] = points if won == view.seat else -points
        return out


class CardScorer:
    """The hand's score difference for the seat's side in a world, from side 0's value
    of the remaining tricks (§8, §9 with the contract's value and multiplier, and
    §12's trick totals: the kitty discards in the taker's tricks, the points in play
    of a deal that leaves cards out, découverte's plain trick points).

    With an ``outlook`` (a game to a points target, §11) the hand's scores are weighed
    by the game so far instead (:meth:`~belote.bots.bid_search.GameOutlook.value` at
    four players: about the score difference far from the target, the chance to win
    the game near it).  At three players (``seat_outlook``, a
    :class:`~belote.bots.bid_search.SeatOutlook`) the hand's score per seat is weighed
    (:meth:`seat_scores`): the taker's is his side's; each defender's his own trick
    points and half the rest of the side's (§12.1), where the double-dummy value of
    the remaining tricks cannot tell which defender takes them: they are split
    evenly, as is the side's belote; the tricks already played count for the defender
    who won them."""

    def __init__(self, view: PlayerView, table: Table | None = None,
                 outlook: GameOutlook | None = None, own_points: float = 0.0,
                 seat_outlook: SeatOutlook | None = None) -> None:
        assert view.contract is not None
        self.view = view
        self.outlook = outlook
        self.seat_outlook = seat_outlook
        self.rules = view.rules
        self.contract = view.contract
        self.table = table = table if table is not None else Table.of(view.rules)
        self.sides = table.sides(view.contract.taker)
        self.side = self.sides[view.seat]
        self.trump = view.contract.trump
        self.points = pts = card_points(view.rules, self.trump)
        self.card_total = sum(pts[c] for c in table.deck)
        self.past = [0, 0]
        self.past_tricks = [0, 0]
        self.seat_past = [0] * table.players
        for t in view.tricks:
            self.past[self.sides[t.winner]] += t.points
            self.past_tricks[self.sides[t.winner]] += 1
            self.seat_past[t.winner] += t.points
        self.by_seat = played_by(view)
        self.played = 0
        for m in self.by_seat:
            self.played |= m
        self.declarations = declarations_by_side(view, self.sides)
        self._cache: dict[tuple[int, tuple[int, int], int | None, int], float] = {}
        # A defender's own trick points in the side's score's units (§12.1: scaled as
        # the side's in scaled tout-atout)
        self.own_scale = 162 / 258 if scaled_ta(self.rules, self.trump) else 1
        self.own_points = 0.0
        if own_points and table.players == 3 and self.side == 1:
            self.own_points = own_points * self.own_scale
        self._last = 10 if len(view.tricks) == table.tricks - 1 else 0
        self._later = [(view.seat + i) % table.players
                       for i in range(1, table.players - len(view.trick))]

    def seat_bonus(self, world: World) -> dict[int, float]:
        """Three players, a defender (§12.1), with ``own_points``: each card's bonus for
        the seat in ``world``, in the units of :meth:`utility`, when the card settles
        who wins the trick (the seat completes it, or the seats after him in this
        world hold no card that beats it): ``own_points * 2 * (own - other)``, the
        points of the trick's cards so far that change hands, all but the winning card
        (the last trick's 10 included), when the seat wins it (``own``) or the other
        defender does (``other``): a card fed to the other defender's trick costs him
        its points, the leader's card he takes gains them.

        Each defender scores his own trick points and belote and half the rest of the
        side's score: his score less the others' mean is, within a world, 3/8 of the
        side's score difference plus 3/4 of (his trick points less the other
        defender's) and a constant, so that each point he takes from the other
        defender weighs twice a point the side takes from the taker.  The side's
        double-dummy search cannot tell which defender takes the later tricks (they
        count half to each); a trick settled now it can.  Empty elsewhere (four or two
        players, the taker, ``own_points`` 0)."""
        if not self.own_points:
            return {}
        view, n = self.view, self.table.players
        beating = BEATING[self.trump]
        pts = self.points
        bonus: dict[int, float] = {}
        for c in view.legal_cards:
            cards = (*view.trick, c)
            i = trick_winner(cards, self.trump)
            if any(world.hands[s] & beating[cards[i]] for s in self._later):
                continue  # (a later seat may still win it)
            won = (view.trick_leader + i) % n
            if self.sides[won] == 0:
                continue
            # (the winner's own card was his either way: the others' cards change hands)
            points = sum(pts[x] for j, x in enumerate(cards) if j != i) + self._last
            bonus[c] = 2 * self.own_points * (points if won == view.seat else -points)
        return bonus

    def belote(self, world: World) -> tuple[int, int]:
        """Belote points per side in this world: said already, or trump K+Q held
        (découverte: among the face-up cards and those beneath them)."""
        if self.trump == NO_TRUMP:
            return (0, 0)
        n = self.table.players
        said = {(s, suit_of(c)) for s, c in self.view.belote_cards}
        points = [0, 0]
        suits = range(4) if self.trump == ALL_TRUMP else (self.trump,)
        under = [0] * n
        for c, u in world.beneath.items():
            for s in range(n):
                if world.covering and world.covering[s] >> c & 1:
                    under[s] |= 1 << u
        for suit in suits:
            k, q = card(suit, KING), card(suit, QUEEN)
            for seat in range(n):
                start = world.hands[seat] | self.by_seat[seat] | under[seat]
                if start >> k & 1 and start >> q & 1 and (
                    (seat, suit) in said or not self.by_seat[seat] & (1 << k | 1 << q)
                ):
                    points[self.sides[seat]] += 20
        return (points[0], points[1])

    def in_play(self, world: World) -> tuple[int | None, int]:
        """The card points of the deal's cards in play in ``world`` (None: the whole
        pack, as at four players), and those of the kitty discards (§12.1)."""
        if self.table.players == 4:
            return None, 0
        pts = self.points
        cards = self.played
        for h in world.hands:
            cards |= h
        for u in world.beneath.values():
            cards |= 1 << u
        aside = 0
        if self.table.mode is DealMode.KITTY:
            laid = self.view.discards if self.view.discards else world.out
            aside = sum(pts[c] for c in scan_forward(laid))
        return sum(pts[c] for c in scan_forward(cards)), aside

    def seat_scores(self, score: Sequence[int]) -> tuple[float, ...]:
        """Three players (§12.1): each seat's score of a hand that scores ``score`` per
        side (the taker's side first): the taker's is his side's; a defender's is his
        own trick points and belote and half the rest of the side's, that is half the
        side's score and half the difference of the two defenders' own points, of
        which only the tricks already played are known (the later ones and the belote
        counted evenly: the double-dummy value cannot tell which defender takes them;
        the odd point of the shares left out)."""
        taker = self.contract.taker
        out = [0.0] * self.table.players
        defenders = [s for s in range(self.table.players) if s != taker]
        out[taker] = score[0]
        a, b = defenders
        lead = (self.seat_past[a] - self.seat_past[b]) * self.own_scale / 2
        out[a] = score[1] / 2 + lead
        out[b] = score[1] / 2 - lead
        return tuple(out)

    def utility(self, value: int, belote: tuple[int, int], cards: int | None = None,
                aside: int = 0) -> float:
        """The seat's side's score minus the other side's (or, with an outlook, its
        value in the game), for side 0's ``value`` of the remaining tricks, the belote
        per side and the world's :meth:`in_play` (with the side's own trick points /
        1000 as a tie-break)."""
        key = (value, belote, cards, aside)
        got = self._cache.get(key)
        if got is not None:
            return got
        total = self.card_total if cards is None else cards
        final0 = self.past[0] + value
        capot: int | None = None
        if self.past_tricks[1] == 0 and final0 > total + 10:
            capot, tp = 0, [final0, 0]
        elif self.past_tricks[0] == 0 and final0 == 0:
            capot, tp = 1, [0, total + 100]
        else:
            tp = [final0, total + 10 - final0]
        me, other = self.side, 1 - self.side
        mode = self.table.mode
        if mode is DealMode.DECOUVERTE:
            got = float(tp[me] + belote[me] - tp[other] - belote[other])
            self._cache[key] = got
            return got
        if mode is DealMode.KITTY:
            if capot == 1:
                tp = [0, 252]
            else:
                tp[0] += aside  # §12.1: the discards count in the taker's tricks
        entry = HandEntry(
            taker=self.contract.team, trick_points=(tp[0], tp[1]), capot=capot,
            declarations=self.declarations, belote=belote, trump=self.trump,
            contract=self.contract.value, multiplier=self.contract.multiplier,
            reserve=self.view.reserve, in_play=total + 10 if mode.leaves_cards_out else None,
        )
        own = tp[me]
        try:
            score = score_hand(self.rules, entry).score
            if self.seat_outlook is not None:
                got = self.seat_outlook.value(self.seat_scores(score)) + own / 1000
            elif self.outlook is not None:
                got = self.outlook.value(score[me], score[other]) + own / 1000
            else:
                got = score[me] - score[other] + own / 1000
        except BeloteError:
            got = float(own)
        self._cache[key] = got
        return got
