"""What a seat knows of a deal: :class:`PlayerView` and the records it is made from
(docs/rules.md §7.4, §7.6: what is announced, heard and shown; §12: what lies face up).

``Round.view`` (:mod:`belote.round`) makes each seat's view: one of the card play
(:class:`LiveView`) with the seat's own fields and the number of cards played, over
the deal's :class:`PlayRecord`, or one before it (:class:`BidView`) over the
:class:`BidRecord` of the calls; the other fields are worked out on first read from
records that are only ever added to, so that a view is cheap to make and stays what
it was.  Nothing here holds another seat's hand.  (Split out of :mod:`belote.round`,
which names these types too.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Generic, TypeAlias, TypeVar, overload

from belote.auction import AuctionCall
from belote.bidding import Call
from belote.cards import Card, CardMask, TrumpMode
from belote.declarations import Declaration, DeclarationResult, every_declaration
from belote.hand import CardPlayed, Contract, HandPlay
from belote.options import Rules
from belote.play import Trick, played_cards
from belote.table import Phase

PLAY: Final = Phase.PLAY
OVER: Final = Phase.OVER


@dataclass(frozen=True, slots=True)
class Announced:
    """What the table hears when a player announces at trick 1 (§7.4): the kind of
    combination and its height, never its cards (those are shown at trick 2 by the
    winning side only, §7.6)."""

    kind: str  # "sequence" or "carre"
    name: str  # tierce, cinquante, cent, or "carré of J"...
    points: int
    length: int
    rank: int  # the top rank of a sequence, the rank of a carré

    @classmethod
    def of(cls, d: Declaration) -> Announced:
        return cls(d.kind, d.name, d.points, d.length, d.rank)


# What the table hears of each combination, made once (keyed by cards and points).
_HEARD: Final = MappingProxyType(
    {(d.cards, d.points): Announced.of(d) for d in every_declaration()})


def heard_of(d: Declaration) -> Announced:
    """:meth:`Announced.of` ``d``, from the table when it is there."""
    heard = _HEARD.get((d.cards, d.points))
    return heard if heard is not None else Announced.of(d)


@dataclass(frozen=True, slots=True)
class Discarded:
    """The taker's kitty discard (§12.1 ``kitty``): two cards laid aside."""

    seat: int
    cards: CardMask


# One event of a deal, in the order of ``Round.events``: a call (§3, §4), the kitty
# discard (§12.1), a card played with what was said with it (§7.4, §7.7).
Event: TypeAlias = Call | AuctionCall | Discarded | CardPlayed


@dataclass(frozen=True)
class PlayerView:
    """What one seat knows: its cards, the calls, the cards played, what was said.

    Bots receive this and nothing else (the other hands are never in it).  Its legal
    actions are two typed lists: ``legal_cards`` in the card play, ``legal_calls`` in
    the bidding (empty when it is not the seat's turn).
    """

    seat: int
    rules: Rules
    dealer: int
    phase: Phase
    hand: CardMask  # the seat's cards now
    turned: Card | None  # the card turned up (§3.1); None in an auction (§4.1)
    calls: tuple[Call | AuctionCall, ...]
    contract: Contract | None
    tricks: tuple[Trick, ...]  # completed tricks
    trick_leader: int
    trick: tuple[Card, ...]  # cards of the current trick, in play order
    announced: tuple[tuple[Announced, ...] | None, ...]  # per seat, once said (§7.4)
    shown: tuple[tuple[Declaration, ...], ...]  # per seat: combinations shown at trick 2 (§7.6)
    belote_cards: tuple[tuple[int, Card], ...]  # (seat, card) said "belote"/"rebelote" with
    turn: int
    legal_cards: tuple[Card, ...] = ()  # the seat's legal cards, when its turn to play (§6)
    legal_calls: tuple[str, ...] = ()  # the seat's legal calls, when its turn to call (§3, §4)
    # The trump kings and queens with which the seat, when its turn to play, would say
    # belote or rebelote (§7.7): of a pair it holds or held, the other one seen by it.
    belote_due: CardMask = 0
    public: CardMask = 0  # other cards face up for all: the bergère, découverte's top cards
    my_declarations: tuple[Declaration, ...] | None = None  # the seat's own, once announced
    declaration_result: DeclarationResult | None = None  # the comparison, once trick 2 starts
    reserve: int = 0  # the litige reserve carried into this deal (§8.4)
    discards: CardMask = 0  # the taker's own kitty discards, to him only (§12.1)
    # Belote découverte (§12.2): the face-up cards, of both seats, that still cover a
    # face-down card (the cards of the current trick included: theirs turn after it).
    covering: CardMask = 0
    # The game as the whole table knows it (§11): each score column's total (per team;
    # per seat at §12's tables) and the target; () and None for a deal outside a game.
    game_score: tuple[int, ...] = ()
    target: int | None = None

    @property
    def played(self) -> CardMask:
        return played_cards(self.tricks, self.trick)


class PlayRecord:
    """The deal's card play as the whole table sees it, for the views (:class:`LiveView`).

    Fixed when the play starts, then only added to (by ``Round.play_card``): the
    number of cards played, what was said with them, each with the number of cards
    played before it.  The cards themselves are the hand's (the state's completed
    tricks, a list only ever added to, and the trick in progress, the list
    ``trick`` names after each card): the record reads them there and keeps none of
    its own.  A view holds this record and the number of cards played when it was
    made, and reads no further.  Nothing hidden is in it: no hand, no announced
    combination's cards before they are shown (§7.4, §7.6).
    """

    __slots__ = ("belote", "calls", "cards_in_play", "contract", "dealer", "heard",
                 "heard_at", "leader", "orders", "played", "players", "public", "reserve",
                 "result", "result_at", "rules", "shown", "trick", "tricks", "turned")

    rules: Rules
    dealer: int
    turned: Card | None
    reserve: int
    players: int
    calls: tuple[Call | AuctionCall, ...]
    contract: Contract
    leader: int
    orders: tuple[tuple[int, ...], ...]  # the seats in play order from each leader
    cards_in_play: int  # the cards the play will see played
    public: CardMask
    played: int  # the cards played so far
    tricks: list[Trick]  # the completed tricks (the hand's own list)
    trick: list[Card]  # the cards of the trick in progress (the hand's own list)
    heard: list[tuple[Announced, ...]]  # per seat: what it announced with its first card
    heard_at: list[int]  # per seat: the cards played before that one
    belote: list[tuple[int, int, Card]]  # (cards played before, seat, card) of each belote
    result: DeclarationResult | None  # the comparison of declarations (§7.4) ...
    result_at: int  # ... made when this many cards had been played
    shown: tuple[tuple[Declaration, ...], ...]  # what the winning side shows then (§7.6)

    def __init__(self, rules: Rules, dealer: int, turned: Card | None, reserve: int,
                 calls: tuple[Call | AuctionCall, ...], public: CardMask,
                 play: HandPlay) -> None:
        n = play.table.players
        self.rules = rules
        self.dealer = dealer
        self.turned = turned
        self.reserve = reserve
        self.players = n
        self.calls = calls
        self.contract = play.contract
        self.leader = play.first_leader
        self.orders = play.table.orders
        self.cards_in_play = play.state.tricks_left * n
        self.public = public  # face up for all: the bergère, a turned card left out (§12)
        self.played = 0
        self.tricks = play.state.tricks  # (the hand's own list: only ever added to)
        self.trick = play.state.trick  # (named again by Round.play_card after each card)
        self.heard = [()] * n
        self.heard_at = [NEVER] * n
        self.belote = []
        self.result = None
        self.result_at = NEVER
        self.shown = ((),) * n


NEVER: Final = 99  # more cards than a deal has

# A view without its dataclass __init__ (its fields are written into its __dict__), the
# method read once: a view is made for every card and call.
new_view: Final = object.__new__



_T = TypeVar("_T")
_V = TypeVar("_V", bound=PlayerView)


class _Lazy(Generic[_V, _T]):
    """A field of a view (:class:`LiveView`, :class:`BidView`), worked out on its
    first read and kept."""

    __slots__ = ("compute", "name")

    def __init__(self, compute: Callable[[_V], _T]) -> None:
        self.compute = compute
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, view: None, owner: type) -> _Lazy[_V, _T]: ...

    @overload
    def __get__(self, view: _V, owner: type) -> _T: ...

    def __get__(self, view: _V | None, owner: type) -> _T | _Lazy[_V, _T]:
        if view is None:
            return self
        value = view.__dict__[self.name] = self.compute(view)
        return value


def _live(compute: Callable[[LiveView], _T]) -> _Lazy[LiveView, _T]:
    """A lazy field of a view of the card play."""
    return _Lazy(compute)


def _bid(compute: Callable[[BidView], _T]) -> _Lazy[BidView, _T]:
    """A lazy field of a view of the bidding."""
    return _Lazy(compute)


class LiveView(PlayerView):
    """A :class:`PlayerView` of the card play made by ``Round.view``, cheap to make.

    Made with what is the seat's own (its hand, legal cards, announcement,
    discards), the phase and the turn, the deal's :class:`PlayRecord` record and the
    number of cards played; the other fields are worked out from those on their
    first read.  The record is only added to, and a view reads it only up to its
    number of cards: a view stays what it was when made, and holds nothing of
    another seat's cards.
    """

    # The fields ``Round.view`` writes for every view, in slots (a slot is read without a
    # look-up in the view's dict, and written so too while the view is made, see
    # :data:`OPEN_LIVE_VIEW`); the rest, in the view's dict, are worked out on first
    # read or written only when they are not the default.
    __slots__ = ("_played", "_pub", "hand", "legal_cards", "my_declarations", "seat")

    _pub: PlayRecord
    _played: int  # cards played when the view was made

    def _seen(self, at: int) -> bool:
        """Whether what was said with a card played after ``at`` others is in the view."""
        return at < self._played

    def tricks_done(self) -> int:
        """``len(self.tricks)``, without making the tuple."""
        return self._played // self._pub.players

    def _trick_so_far(self) -> tuple[Card, ...]:
        """The cards of the trick in progress when the view was made: the first of the
        trick the record holds in progress, or of the one completed since."""
        pub = self._pub
        done, cards = divmod(self._played, pub.players)
        if not cards:
            return ()
        if len(pub.tricks) > done:  # completed since the view was made
            return pub.tricks[done].cards[:cards]
        return tuple(pub.trick[:cards])

    def said_seen(self) -> int:
        """How many of the things said in the deal the view sees: the seats'
        announcements (one a seat, with its first card), each belote or rebelote, the
        comparison of declarations.  The record is only added to, each of them at the
        number of cards played then: of one deal, ``announced``, ``belote_cards``,
        ``declaration_result`` and ``shown`` change only with this count (a text of
        them is kept until it changes: :func:`belote.web.room_state.public_text`)."""
        played = self._played
        pub = self._pub
        return (len([at for at in pub.heard_at if at < played])
                + len([b for b in pub.belote if b[0] < played])
                + (pub.result_at < played))

    rules = _live(lambda v: v._pub.rules)
    dealer = _live(lambda v: v._pub.dealer)
    turned = _live(lambda v: v._pub.turned)
    reserve = _live(lambda v: v._pub.reserve)
    calls = _live(lambda v: v._pub.calls)
    contract = _live(lambda v: v._pub.contract)
    public = _live(lambda v: v._pub.public)
    tricks = _live(lambda v: tuple(v._pub.tricks[:v.tricks_done()]))
    trick_leader = _live(
        lambda v: v._pub.tricks[v.tricks_done() - 1].winner if v.tricks_done()
        else v._pub.leader)
    trick = _live(lambda v: v._trick_so_far())
    phase = _live(lambda v: PLAY if v._played < v._pub.cards_in_play else OVER)
    turn = _live(lambda v: v._pub.orders[v.trick_leader][v._played % v._pub.players]
                 if v._played < v._pub.cards_in_play else -1)
    announced = _live(lambda v: tuple(
        heard if v._seen(at) else None for heard, at in zip(v._pub.heard, v._pub.heard_at,
                                                             strict=True)))
    belote_cards = _live(
        lambda v: tuple((seat, c) for at, seat, c in v._pub.belote if v._seen(at)))
    declaration_result = _live(
        lambda v: v._pub.result if v._seen(v._pub.result_at) else None)
    shown = _live(lambda v: v._pub.shown if v._seen(v._pub.result_at)
                  else ((),) * v._pub.players)


class _OpenLiveView(LiveView):
    """A :class:`LiveView` being made: its fields written as attributes (the frozen
    dataclass's ``__setattr__`` refuses them), then its class made :class:`LiveView`
    (``view.__class__ = LiveView``), frozen from then on."""

    __slots__ = ()
    # (both the object's own: the type's one slot for them is then the plain C one, and
    # a write is not a call)
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__


OPEN_LIVE_VIEW: Final = _OpenLiveView


class BidRecord:
    """What the whole table knows before the card play, for the views of the bidding
    (:class:`BidView`): fixed when the deal is dealt, but for the calls, a list the
    bidding only adds to.  No hand is in it."""

    __slots__ = ("calls", "dealer", "eldest", "game_score", "players", "reserve", "rules",
                 "target", "turned")

    rules: Rules
    dealer: int
    turned: Card | None
    reserve: int
    players: int
    eldest: int
    calls: Sequence[Call | AuctionCall]
    game_score: tuple[int, ...]
    target: int | None

    def __init__(self, rules: Rules, dealer: int, turned: Card | None, reserve: int,
                 players: int, eldest: int, calls: Sequence[Call | AuctionCall],
                 game_score: tuple[int, ...], target: int | None) -> None:
        self.rules = rules
        self.dealer = dealer
        self.turned = turned
        self.reserve = reserve
        self.players = players
        self.eldest = eldest
        self.calls = calls
        self.game_score = game_score
        self.target = target


class BidView(PlayerView):
    """A :class:`PlayerView` before the card play (the bidding, the kitty discard, an
    all-pass) made by ``Round.view``: with the seat's own fields, the phase, the
    turn, the round's :class:`BidRecord` record and the number of calls made; the rest is
    worked out on first read, and stays what it was when the view was made."""

    _said: BidRecord
    _called: int  # calls made when the view was made

    rules = _bid(lambda v: v._said.rules)
    dealer = _bid(lambda v: v._said.dealer)
    turned = _bid(lambda v: v._said.turned)
    reserve = _bid(lambda v: v._said.reserve)
    calls = _bid(lambda v: tuple(v._said.calls[:v._called]))
    trick_leader = _bid(lambda v: v._said.eldest)
    announced = _bid(lambda v: (None,) * v._said.players)
    shown = _bid(lambda v: ((),) * v._said.players)
    game_score = _bid(lambda v: v._said.game_score)
    target = _bid(lambda v: v._said.target)
    contract = _bid(lambda v: None)
    tricks = _bid(lambda v: ())
    trick = _bid(lambda v: ())
    belote_cards = _bid(lambda v: ())


def trump_of(view: PlayerView) -> TrumpMode | None:
    return view.contract.trump if view.contract is not None else None
