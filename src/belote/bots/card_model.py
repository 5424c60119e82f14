"""The others' cards read through a model of how they play (docs/rules.md §5–§7, §12),
for the card play's worlds at every table but découverte.

:class:`~belote.bots.card_reading.CardReading` reads one clue (the cheapest card
into a lost trick).  :class:`PlayModel` reads every card the chosen seats played
that was a real choice: a world is the more likely, the more of their past cards
the model itself would have played with the hands that world gives them.  The
model is :class:`~belote.bots.heuristic.HeuristicBot`'s card play (deterministic:
the tips of seed 000 §9), so the reading is sharpest against players who follow
those tips and blunt, not wrong, against others (at two and three players the
model is the heuristic's play at that table, §12): a world is weighed down by each
card the model would not have played, never ruled out (``weight ** misses``, in
:class:`~belote.bots.pimc.PimcBot` with ``card_reads=model``).

For each past card of a seat read, :meth:`PlayModel.misses` rebuilds that seat's
view as it stood then in the world (its hand then: the world's hand now with the
cards it has played since; the tricks, the trick, the trumps, the declarations
shown and the belote said until then, §7.6, §7.7; at §12's tables the cards face
up, and the kitty's taker's own two cards aside, in a world its cards out of play),
finds its legal cards by
replaying the deal's cards from the world's hands (§6), and asks the model.  A
forced card (one legal card) tells nothing and is not asked.

The calls of a take-or-pass bidding (§3.1–§3.3) are read too, for the seats asked
(``callers``): a seat called with its first five cards, and which five of the
eight a world gives it were dealt first is not known, so five are drawn at random
(each five alike; the taker's turned card left out, §3.4) and the model's calls
with them are compared with the calls made.  One draw a world makes the reading
noisy but fair: a world keeps on average the weight the calls give it.

What the seats asked (``announcers``) announced with their first card (§7.4) is
read too: the table hears each combination's kind and height, not its cards, and
the side that loses the comparison never shows them (§7.6).  A heard combination
is hard knowledge (nobody may announce what he does not hold): a world in which
the seat's hand at trick 1 (its hand now with the cards it has played) holds no
combination of that kind and height is ruled out.  What the seat announced is
soft knowledge too: the model announces every combination it holds, best
grouped (:func:`~belote.declarations.best_announcement`), so a world in which it
would have announced something else (a tierce held and nothing said) is one miss.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Final

from belote.bidding import TakePassBidding
from belote.bots.base import played_by
from belote.bots.bid_sampling import FIRST_DEAL
from belote.bots.heuristic import HeuristicBot
from belote.bots.knowledge import Unseen, World
from belote.bots.sampling import DealSampler
from belote.cards import Card, CardMask, cards_of, mask_of, scan_forward
from belote.declarations import Declaration, best_announcement, every_declaration
from belote.play import PlayState, Trick
from belote.records import record_of
from belote.round import Announced, PlayerView
from belote.table import DealMode, Phase, Table

__all__ = ["HeldSampler", "PlayModel"]


class PlayModel:
    """The past cards of ``seats`` in ``view``'s deal, ready to be read in a world."""

    __slots__ = ("_answers", "_aside", "_bot", "_calls", "_cards", "_fields", "_first",
                 "_heard", "_played", "_said_at", "_table", "_templates", "_unseen", "_view")

    def __init__(self, view: PlayerView, seats: Sequence[int], table: Table | None = None,
                 bot: HeuristicBot | None = None, callers: Sequence[int] = (),
                 announcers: Sequence[int] = (), from_left: int | None = None) -> None:
        """``seats``: the seats whose cards are read (not ``view.seat``); ``bot``: the
        model (default: a :class:`HeuristicBot` with its default settings);
        ``callers``: the seats whose calls are read too (take-or-pass only);
        ``announcers``: the seats whose announcements at trick 1 are read (§7.4);
        ``from_left``: only the cards played with at most this many tricks left are
        read (None: every card)."""
        assert view.contract is not None
        self._view = view
        self._table = table if table is not None else Table.of(view.rules)
        self._bot = bot if bot is not None else HeuristicBot(0)
        n = self._table.players
        # The deal's cards in play order, each with its seat.
        cards: list[tuple[int, Card]] = []
        for t in view.tricks:
            cards.extend(((t.leader + i) % n, c) for i, c in enumerate(t.cards))
        cards.extend(((view.trick_leader + i) % n, c) for i, c in enumerate(view.trick))
        self._cards = cards
        self._played = played_by(view)
        read = frozenset(s for s in seats if s != view.seat)
        said_at = {c: k for k, (_, c) in enumerate(cards)}
        first = [len(cards)] * n  # each seat's first card (its announcement, §7.4)
        for k, (s, _) in reversed(list(enumerate(cards))):
            first[s] = k
        # The view's fields as a plain PlayerView's (a round's views work some out lazily).
        fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(PlayerView)}
        no_shown: tuple[tuple[()], ...] = ((),) * n
        self._fields, self._first, self._said_at = fields, first, said_at
        # For each card read: its index in play order and the view of its seat then,
        # less the hand and the legal cards (a world's own).
        total = self._table.tricks
        self._templates = [(k, self._template(k, seat, tuple(c for _, c in cards[k - k % n:k])))
                           for k, (seat, _) in enumerate(cards) if seat in read
                           and (from_left is None or total - k // n <= from_left)]
        # answer(): the view of the seat to play after each trick so far, and its Unseen.
        self._answers: dict[tuple[Card, ...], tuple[PlayerView, Unseen | None]] = {}
        # The kitty's taker (§12.1), when another seat, saw his own discards: in a world,
        # the cards out of play (-1: no such seat).
        self._aside = (view.contract.taker if self._table.mode is DealMode.KITTY
                       and view.contract.taker != view.seat else -1)
        # Each call read: its seat, the call, and the seat's view then, less its cards.
        self._calls: list[tuple[int, str, PlayerView]] = []
        if callers and view.turned is not None and not view.rules.is_auction and n == 4:
            bidding = TakePassBidding(view.rules, view.dealer, view.turned, n)
            for i, call in enumerate(view.calls):
                if call.seat in callers and call.seat != view.seat:
                    self._calls.append((call.seat, call.call, PlayerView(**{
                        **fields, "seat": call.seat, "phase": Phase.BIDDING, "hand": 0,
                        "calls": view.calls[:i], "contract": None, "tricks": (), "trick": (),
                        "trick_leader": (view.dealer + 1) % n,  # the eldest, as in a bidding view
                        "turn": call.seat, "legal_cards": (),
                        "legal_calls": tuple(bidding.legal_calls()),
                        "announced": (None,) * n, "shown": no_shown, "belote_cards": (),
                        "my_declarations": None, "declaration_result": None, "discards": 0,
                    })))
                bidding.call(call.call)
        # Each announcement read: its seat, what the table heard (as compared), and for
        # each combination heard the card sets that make it (one must be in the hand).
        self._heard: list[tuple[int, tuple[_Heard, ...], tuple[tuple[CardMask, ...], ...]]] = []
        if view.rules.declarations:
            for seat in announcers:
                heard = view.announced[seat] if seat != view.seat else None
                if heard is not None:
                    self._heard.append((seat, _heard(heard), tuple(_made_by(a) for a in heard)))
        # What each past view says of the hidden cards, less its hand: made on first use.
        self._unseen: list[Unseen | None] = [None] * len(self._templates)

    def _template(self, k: int, seat: int, trick: tuple[Card, ...],
                  later: Sequence[Trick] = (), leader: int = -1) -> PlayerView:
        """The view of ``seat`` about to play the deal's card ``k`` (in play order, after
        the trick's cards ``trick``; ``k`` may lie past the view's cards: in its trick,
        or after ``later``, the tricks completed since the view's, then led by
        ``leader``), less the hand and the legal cards (a world's own).  The
        declarations are compared with the first card of trick 2 (card n, §7.4) and
        shown from then on (§7.6): the views after that card see them (past the view's
        cards, those the view knows: a later announcement, belote said later, are not
        foreseen)."""
        view, n = self._view, self._table.players
        done = k // n
        tricks = view.tricks[:done]
        if done < len(view.tricks):
            leader = view.tricks[done].leader
        elif done == len(view.tricks):
            leader = view.trick_leader
        else:
            tricks = (*view.tricks, *later)
        first, said_at = self._first, self._said_at
        return PlayerView(**{
            **self._fields, "seat": seat, "phase": Phase.PLAY, "hand": 0,
            "tricks": tricks, "trick_leader": leader, "trick": trick,
            "turn": seat, "legal_cards": (), "legal_calls": (),
            "announced": tuple(a if first[s] < k else None
                               for s, a in enumerate(view.announced)),
            "shown": view.shown if k > n else ((),) * n,
            "belote_cards": tuple((s, c) for s, c in view.belote_cards if said_at[c] < k),
            "my_declarations": None,
            "declaration_result": view.declaration_result if k > n else None,
            "discards": 0,
        })

    def answer(self, state: PlayState, world: World) -> Card:
        """The model's card for the seat to play in ``state``, a position of ``world``
        after the view's cards and more (:func:`~belote.bots.card_score.world_state`'s,
        then played on: in the view's trick, or in a later trick, those completed since
        the view's in ``state.tricks``): that seat's view then rebuilt as for a past card
        (:meth:`views`), its hand and legal cards the world's; a forced card is not
        asked."""
        legal = state.legal_mask()
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        view, seat = self._view, state.turn
        assert view.contract is not None
        trick = tuple(state.trick)
        key = trick
        if state.tricks:  # (past the view's trick: the cards since it began)
            key = (*(c for t in state.tricks for c in t.cards), *trick)
        got = self._answers.get(key)
        if got is None:
            k = len(self._cards) + len(key) - len(view.trick)
            got = self._answers[key] = (
                self._template(k, seat, trick, state.tricks, state.leader), None)
        template, known = got
        card, known = self._ask(self._seen(template, state, legal, world), known)
        self._answers[key] = (template, known)
        return card

    def _seen(self, template: PlayerView, state: PlayState, legal: CardMask,
              world: World) -> PlayerView:
        """``template``, the view of the seat to play in ``state``, with that seat's hand
        and ``legal`` cards there; the kitty's taker (another seat) with his discards,
        the world's cards out of play.  (The template's fields written into a record:
        dataclasses.replace cost a fifth of a miss count.)"""
        seat = template.seat
        return record_of(PlayerView, **{
            **template.__dict__, "hand": state.hands[seat],
            "legal_cards": tuple(scan_forward(legal)),
            "discards": world.out if seat == self._aside else 0})

    def _ask(self, seen: PlayerView, known: Unseen | None) -> tuple[Card, Unseen]:
        """The model's card in ``seen``, and what ``seen`` says of the hidden cards,
        less its hand (``known``; made here on first use, without the discards: a
        world's own)."""
        if known is None:
            known = self._unseen_of(seen)
        return self._bot.play_knowing(seen, known.knowledge(seen.hand, seen.discards)), known

    def _unseen_of(self, seen: PlayerView) -> Unseen:
        """What ``seen`` says of the hidden cards, less its hand and without its
        discards (a world's own): the same for every world."""
        return Unseen(record_of(PlayerView, **{**seen.__dict__, "discards": 0})
                      if seen.discards else seen, table=self._table)

    def _fits(self, seen: PlayerView, card: Card, known: Unseen | None
              ) -> tuple[bool, Unseen]:
        """Whether the model plays ``card`` in ``seen`` (a past card read), with what
        ``seen`` says of the hidden cards (:meth:`_ask`)."""
        played, known = self._ask(seen, known)
        return played == card, known

    @property
    def calls(self) -> tuple[tuple[int, str, PlayerView], ...]:
        """The calls read, in order: each with its seat and that seat's view when it
        called, less its cards (``hand`` 0)."""
        return tuple(self._calls)

    def views(self, world: World) -> Iterator[tuple[int, Card, PlayerView]]:
        """Each card read that was a choice, with its seat's view then in ``world``
        (in play order, with its index among the cards read; a forced card is left
        out).  The view has the seat's hand and legal cards in ``world``, not what the
        seat would have said with its card (its own declarations, ``belote_due``): the
        model reads which card is played."""
        view, n = self._view, self._table.players
        assert view.contract is not None
        cards, played = self._cards, self._played
        start = [world.hands[s] | played[s] for s in range(n)]
        state = PlayState(view.rules, view.contract.trump, start, cards[0][0],
                          table=self._table, teams=self._table.sides(view.contract.taker))
        done = 0
        for i, (k, template) in enumerate(self._templates):
            while done < k:
                state.push(cards[done][1])
                done += 1
            legal = state.legal_mask()
            if legal.bit_count() > 1:
                yield i, cards[k][1], self._seen(template, state, legal, world)

    def misses(self, world: World, limit: int, rng: random.Random | None = None) -> int:
        """How many of the announcements, calls and cards read the model would not
        have made in ``world`` (counting stops at ``limit``; ``limit`` at least when
        the world does not hold a combination announced).  The calls are read only with
        ``rng``: a seat's first five cards (§3.1) are drawn from the eight the world
        gave it (the turned card, the taker's since §3.4, left out), each five
        alike, and its calls are the model's with them or they are not."""
        misses = 0
        if self._heard:
            view = self._view
            assert view.contract is not None
            rules, trump = view.rules, view.contract.trump
            for seat, heard, made_by in self._heard:
                dealt = world.hands[seat] | self._played[seat]
                if not all(any(m & dealt == m for m in ways) for ways in made_by):
                    return max(limit, 1)  # a combination announced and not held: no world
                if _heard(best_announcement(dealt, rules, trump)) != heard:
                    misses += 1
                    if misses >= limit:
                        return misses
        if self._calls and rng is not None:
            view = self._view
            assert view.contract is not None and view.turned is not None
            taker, turned = view.contract.taker, view.turned
            call = self._bot.call
            fives: dict[int, int] = {}
            for seat, said, template in self._calls:
                five = fives.get(seat)
                if five is None:
                    dealt = world.hands[seat] | self._played[seat]
                    if seat == taker:
                        dealt &= ~(1 << turned)
                    five = fives[seat] = _five_of(dealt, rng)
                if call(record_of(PlayerView, **{**template.__dict__, "hand": five})) != said:
                    misses += 1
                    if misses >= limit:
                        return misses
        if self._templates:
            unseen, ask = self._unseen, self._fits
            for i, card, seen in self.views(world):
                fits, unseen[i] = ask(seen, card, unseen[i])
                if not fits:
                    misses += 1
                    if misses >= limit:
                        break
        return misses


class HeldSampler:
    """Deals drawn uniformly among those a :class:`DealSampler` allows in which each
    of ``seats`` holds, in its hand at trick 1 (its hand now with the cards it has
    played), a combination of each kind and height it announced (§7.4): nobody may
    announce what he does not hold.

    The seat's knowledge does not place those cards (a sequence heard is one of four
    suits), so every way to place them (a suit for each sequence heard) is a
    knowledge of its own, its deals counted exactly; a way is drawn by its count,
    then a deal in it.  A deal that several ways allow (two tierces to the king) is
    kept with chance one in their number, so each deal of the union is as likely.
    With more than ``most`` ways, or none, this is the plain sampler."""

    __slots__ = ("_base", "_played", "_ways")

    def __init__(self, base: DealSampler, view: PlayerView, seats: Sequence[int],
                 most: int = 256) -> None:
        self._base = base
        k = base.knowledge
        played = played_by(view)
        heard = [(seat, a) for seat in seats if seat != view.seat
                 for a in view.announced[seat] or ()] if view.rules.declarations else []
        options: list[list[tuple[int, CardMask]]] = [[]]
        for seat, a in heard:
            ways = [(seat, m) for m in _made_by(a) if not m & ~played[seat] & ~k.possible(seat)]
            options = [[*o, w] for o in options for w in ways]
            if len(options) > most:
                heard = []
                break
        self._ways: list[tuple[int, list[tuple[int, CardMask]], DealSampler]] = []
        if heard:
            for placed in options:
                known, unknown = list(k.known), k.unknown
                taken = 0
                fits = True
                for seat, m in placed:
                    need = m & ~played[seat]
                    if need & taken & ~known[seat]:
                        fits = False  # (a card two seats would need)
                    known[seat] |= need
                    taken |= need
                    unknown &= ~need
                if not fits:
                    continue
                sampler = DealSampler(dataclasses.replace(k, known=tuple(known),
                                                          unknown=unknown))
                count = sampler.count()
                if count:
                    self._ways.append((count, placed, sampler))
        self._played = played

    def sample(self, rng: random.Random) -> World:
        """One deal, uniform among those in which each seat holds what it announced."""
        if not self._ways:
            return self._base.sample(rng)
        total = sum(c for c, _, _ in self._ways)
        while True:
            r = rng.randrange(total)
            chosen = self._ways[-1][2]
            for count, _, sampler in self._ways:
                if r < count:
                    chosen = sampler
                    break
                r -= count
            world = chosen.sample(rng)
            dealt = [h | p for h, p in zip(world.hands, self._played, strict=True)]
            times = sum(all(m & dealt[seat] == m for seat, m in placed)
                        for _, placed, _ in self._ways)
            if times == 1 or rng.randrange(times) == 0:
                return world


# What the table hears of a combination, as compared: its kind, length and height.
_Heard = tuple[str, int, int]


def _heard(said: Sequence[Announced] | Sequence[Declaration]) -> tuple[_Heard, ...]:
    """What the table hears of the combinations ``said``, in one order (§7.4)."""
    return tuple(sorted((d.kind, d.length, d.rank) for d in said))


def _made_by(a: Announced) -> tuple[CardMask, ...]:
    """The card sets of the combinations the table hears as ``a`` (a sequence's four
    suits, a carré's four cards)."""
    return _MADE_BY.get((a.kind, a.length, a.rank), ())


# The card sets of each combination the table may hear, by kind, length and height.
_MADE_BY: Final[Mapping[_Heard, tuple[CardMask, ...]]] = MappingProxyType({
    key: tuple(sorted({d.cards for d in every_declaration()
                       if (d.kind, d.length, d.rank) == key}))
    for key in {(d.kind, d.length, d.rank) for d in every_declaration()}})


def _five_of(dealt: int, rng: random.Random) -> int:
    """Five of the cards of ``dealt``, each five alike (§3.1: the first five dealt)."""
    return mask_of(rng.sample(cards_of(dealt), FIRST_DEAL))
