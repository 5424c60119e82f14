"""One deal played live, from the shuffled deck to the score (docs/rules.md §2–§8, §12).

:class:`Round` chains the phases (:class:`~belote.table.Phase`) explicitly: the
first deal and the turned card, the bidding, the kitty discard (§12.1), the card
play, the score.  Every action is a triad: ``verify_call`` / ``can_call`` /
``call``, ``verify_discard`` / ``can_discard`` / ``discard``, ``verify_play`` /
``can_play`` / ``play_card``; a refusal raises an
:class:`~belote.errors.IllegalActionError` saying what and where.

The deal's log is :meth:`Round.events`: the calls, the discard and the cards with
what was said, each recorded once where its rule is checked (the bidding, the
hand); :meth:`Round.actions_json` and :meth:`Round.to_record` are written from it.
:meth:`Round.view` gives a seat's :class:`PlayerView`, everything that seat may
know and nothing more, its legal cards and calls as two typed lists.  A view of
the card play is made with the seat's own fields and the number of cards played;
the rest it works out on first read from the deal's public record, which is only
ever added to, so it is cheap to make and stays what it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from belote import actions as _actions
from belote.actions import Action, Discard, Play, action_from_json, combination_cards
from belote.auction import GENERALE, AuctionCall, NumericAuction
from belote.bidding import Call, TakePassBidding, normalise_call
from belote.cards import (
    MASK_PIECES,
    Card,
    CardMask,
    card_name,
    mask_names,
    mask_of,
    parse_card,
    scan_forward,
)
from belote.deal import (
    FirstDeal,
    bergere,
    deal_all,
    deal_first,
    deal_piles,
    deal_rest,
)
from belote.declarations import (
    Declaration,
    DeclarationResult,
    parse_combination,
)
from belote.errors import BeloteError, IllegalActionError, InvalidRecordError, RuleCode, allowed
from belote.hand import (
    DECOUVERTE,
    PLAIN_PLAYED,
    TAKEN,
    CardPlayed,
    Contract,
    HandPlay,
    HandResult,
)
from belote.options import Rules, make_rules
from belote.play import SEAT_NAMES, Trick, card_points, played_cards
from belote.scoring import HandEntry, HandScore
from belote.table import DealMode, Phase, Table, parse_seat
from belote.views import (
    OPEN_LIVE_VIEW,
    Announced,
    BidRecord,
    BidView,
    Discarded,
    Event,
    LiveView,
    PlayerView,
    PlayRecord,
    heard_of,
    new_view,
    trump_of,
)

__all__ = [  # (the views are belote.views's, named here too as they always were)
    "ALL_PASS", "BIDDING", "DISCARD", "OVER", "PLAY", "Announced", "Discarded", "Event",
    "PlayerView", "Round", "action_of", "seat_entry", "trump_of",
]

# The phases by their old names (``Phase.BIDDING``...): they compare equal to the words.
BIDDING: Final = Phase.BIDDING
PLAY: Final = Phase.PLAY
OVER: Final = Phase.OVER
ALL_PASS: Final = Phase.ALL_PASS
DISCARD: Final = Phase.DISCARD  # three players, kitty deal: the taker lays two cards aside
# The deal modes a deal tests, read once (a member read from its enum class is slow).
_AUCTION: Final = DealMode.AUCTION
_DECOUVERTE: Final = DealMode.DECOUVERTE
_KITTY: Final = DealMode.KITTY
# The cards of each value of three pieces of a mask (cards.MASK_PIECES), for the view's
# legal tuple.
_LOW, _MIDDLE, _HIGH = MASK_PIECES


class Round:
    """A live deal: take-or-pass belote (§3), a coinche / contrée auction (§4), or
    belote for three or two players (§12)."""

    def __init__(
        self, rules: Rules, dealer: int, deck: Sequence[Card], reserve: int = 0,
        game_score: tuple[int, ...] = (), target: int | None = None,
    ) -> None:
        self.table = Table.of(rules)
        self.players = rules.players
        self.mode = self.table.mode
        self._face_up = self.mode is _DECOUVERTE  # §12.2: the views show piles
        expected = self.table.deck
        if tuple(sorted(deck)) != expected:
            raise ValueError(f"the deck must hold the {len(expected)} cards of this game once each")
        if not 0 <= dealer < self.players:
            raise ValueError(f"dealer {dealer!r} is not a seat 0..{self.players - 1}")
        self.rules = rules
        self.dealer = dealer
        self.eldest = self.table.next(dealer)  # who calls and leads first (§0.1)
        self.deck = list(deck)
        self.reserve = reserve
        # the game's score and target, for the views (PlayerView.game_score, .target)
        self._game: dict[str, Any] = (
            {"game_score": game_score, "target": target} if target is not None else {})
        self.first: FirstDeal | None = None
        self.turned: Card | None = None  # the card turned up (§3.1), once dealt
        self.bidding: TakePassBidding | NumericAuction
        self.bergere: Card | None = None
        self.piles: list[list[tuple[Card, Card]]] | None = None
        self.discards: CardMask = 0
        self._play: HandPlay | None = None  # the card play: private, read by the accessors
        self.phase: Phase = BIDDING
        # Views (:meth:`view`): the card play as the table sees it (made when it starts:
        # read only once ``play`` is set; no None to test for every card), what was said
        # so far, each seat's own announcement.
        self._pub: PlayRecord
        self._announced: list[tuple[Declaration, ...] | None] = [None] * self.players
        # The legal cards of the seat to play, as its last view worked them out: they
        # serve the next card only (0: none worked out since the last card).
        self._legal: CardMask = 0
        self._said: BidRecord | None = None  # the views' record of the bidding, once asked
        self._more_to_see = False  # (set when the card play starts, see _begin)
        if self.mode is _AUCTION:
            self.hands: list[CardMask] = deal_all(self.deck, dealer, rules.deal_pattern)
            self.bidding = NumericAuction(rules, dealer)
        elif self.mode is _DECOUVERTE:
            # §12.2: no bidding; the last card dealt fixes trump; the non-dealer leads.
            self.piles, trump = deal_piles(self.deck, dealer)
            self.hands = [mask_of(up for _down, up in p) for p in self.piles]
            self.bidding = TakePassBidding(rules, dealer, -1, 2)  # never called
            beneath = {up: down for p in self.piles for down, up in p}
            leader = self.table.next(dealer)
            contract = Contract(leader, trump, DECOUVERTE, players=2)
            self._begin(HandPlay(rules, contract, self.hands, leader, reserve, beneath=beneath,
                                 table=self.table))
        else:
            self.first = deal_first(self.deck, dealer, rules.deal_pattern, self.players, self.mode)
            if self.first.turned >= 0:  # (the kitty deal turns none, §12.1)
                self.turned = self.first.turned
            self.hands = list(self.first.hands)
            self.bidding = TakePassBidding(rules, dealer, self.first.turned, self.players)

    # --- state --------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act: to play, to call, or (§12.1) to lay the kitty discard aside;
        -1 once the deal is over."""
        if self.phase is PLAY:
            assert self._play is not None
            return self._play.state.turn
        if self.phase is BIDDING:
            return self.bidding.turn
        if self.phase is DISCARD:
            assert self.bidding.taker is not None
            return self.bidding.taker
        return -1

    def legal_calls(self) -> list[str]:
        return self.bidding.legal_calls() if self.phase == BIDDING else []

    def legal_cards(self) -> list[Card]:
        if self.phase != PLAY:
            return []
        assert self._play is not None
        return self._play.legal_cards()

    @property
    def contract(self) -> Contract | None:
        return self._play.contract if self._play is not None else None

    def result(self) -> HandResult:
        if self.phase is not OVER:
            raise IllegalActionError(RuleCode.DEAL_NOT_OVER, phase=self.phase)
        assert self._play is not None
        return self._play.result()

    # --- actions --------------------------------------------------------------

    def _checked_call(self, call: str, seat: int | None) -> str:
        """``call`` spelt as the bidding knows it, after the checks that are the round's:
        the phase, and (take or pass) the seat to call."""
        if self.phase is not BIDDING:
            raise IllegalActionError(RuleCode.WRONG_PHASE, act="call", phase=self.phase)
        text = normalise_call(call)
        bidding = self.bidding
        if seat is not None and isinstance(bidding, TakePassBidding) and seat != bidding.turn:
            raise IllegalActionError(RuleCode.NOT_YOUR_TURN, turn=bidding.turn, act="call")
        return text

    def verify_call(self, call: str, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` (:class:`~belote.errors.IllegalBidError`
        for the bidding's own rules, §3, §4) saying why ``call`` is refused now."""
        self.bidding.verify(self._checked_call(call, seat), seat)

    def can_call(self, call: str, seat: int | None = None) -> bool:
        """Whether :meth:`call` would accept ``call`` now."""
        return allowed(lambda: self.verify_call(call, seat))

    def call(self, call: str, seat: int | None = None) -> Call | AuctionCall:
        """A call of the bidding, checked as by :meth:`verify_call`; after a take, the
        rest is dealt (§3.4).

        ``seat`` is for an out-of-turn coinche (``coinche_in_turn`` false, §4.5).
        """
        call = self._checked_call(call, seat)
        bidding = self.bidding
        record: Call | AuctionCall
        if isinstance(bidding, NumericAuction):
            record = bidding.call(call, seat)
            if bidding.all_pass:
                self.phase = ALL_PASS
            elif bidding.finished:
                assert bidding.bidder is not None and bidding.best is not None
                best = bidding.best
                contract = Contract(bidding.bidder, best.trump, best.value, bidding.multiplier)
                # §4.9: the eldest leads, except after a générale, whose bidder leads.
                leader = bidding.bidder if best.value == GENERALE else self.eldest
                self._begin(HandPlay(self.rules, contract, self.hands, leader, self.reserve,
                                     table=self.table))
            return record
        record = bidding.call(call, seat)
        if bidding.all_pass:
            self.phase = ALL_PASS
        elif bidding.taker is not None:
            taker = bidding.taker
            assert bidding.trump is not None and self.first is not None
            self.hands = deal_rest(self.first, self.dealer, taker, self.players, self.mode)
            if self.mode is _KITTY:
                self.phase = DISCARD  # §12.1: the taker lays two cards aside first
            else:
                self._start_play()
        return record

    def _start_play(self) -> None:
        assert isinstance(self.bidding, TakePassBidding)
        taker = self.bidding.taker
        trump = self.bidding.trump
        assert taker is not None and trump is not None and self.first is not None
        in_play: int | None = None
        if self.mode.leaves_cards_out:
            # §12: part of the pack stays out; the trick total is what is played + 10.
            self.bergere = bergere(self.first, self.players)
            pts = card_points(self.rules, trump)
            in_play = sum(pts[c] for h in self.hands for c in scan_forward(h)) + 10
        contract = TAKEN[taker, trump, self.players]
        self._begin(HandPlay(
            self.rules, contract, self.hands, self.eldest, self.reserve,
            discards=self.discards, in_play=in_play, table=self.table,
        ))

    def _begin(self, play: HandPlay) -> None:
        """The card play starts (and with it the views' record of it)."""
        self._play = play
        self.phase = PLAY
        public = 0  # face up for all: the bergère, the turned card of a deal leaving cards out
        if self.bergere is not None:
            public |= 1 << self.bergere
        if self.mode.leaves_cards_out and self.turned is not None:
            public |= 1 << self.turned  # §12: the turned card stays on the table
        self._pub = PlayRecord(self.rules, self.dealer, self.turned, self.reserve,
                               tuple(self.bidding.calls), public, play)
        # Whether a view shows more than the seat's hand, legal cards and announcement:
        # the game's score, the kitty discards, découverte's face-up cards (one test a view).
        self._more_to_see = bool(self._game or self.discards or self._face_up)

    def verify_discard(self, cards: Sequence[Card]) -> None:
        """Raise :class:`IllegalActionError` saying why the taker may not lay ``cards``
        aside now (§12.1 ``kitty``: two different cards of his twelve)."""
        if self.phase != DISCARD:
            raise IllegalActionError(RuleCode.NO_DISCARD_NOW, phase=self.phase)
        taker = self.bidding.taker
        assert taker is not None
        m = mask_of(cards)
        if len(cards) != 2 or m.bit_count() != 2:
            raise IllegalActionError(RuleCode.DISCARD_TWO_CARDS, seat=taker)
        if m & ~self.hands[taker]:
            missing = [card_name(c) for c in scan_forward(m & ~self.hands[taker])]
            raise IllegalActionError(RuleCode.CARD_NOT_HELD, seat=taker, cards=missing)

    def can_discard(self, cards: Sequence[Card]) -> bool:
        """Whether :meth:`discard` would accept ``cards`` now."""
        return allowed(lambda: self.verify_discard(cards))

    def discard(self, cards: Sequence[Card]) -> Discarded:
        """The taker lays two cards aside after taking the kitty (§12.1 ``kitty``),
        checked as by :meth:`verify_discard`; then the card play starts."""
        self.verify_discard(cards)
        taker = self.bidding.taker
        assert taker is not None
        m = mask_of(cards)
        self.hands[taker] &= ~m
        self.discards = m
        self._start_play()
        return Discarded(taker, m)

    def _checked_play(self) -> HandPlay:
        if self.phase != PLAY:
            raise IllegalActionError(RuleCode.WRONG_PHASE, act="card", phase=self.phase)
        assert self._play is not None
        return self._play

    def verify_play(self, c: Card) -> None:
        """Raise :class:`IllegalActionError` (:class:`~belote.errors.IllegalPlayError`
        naming the rule of §6) when the seat to play may not play ``c`` now."""
        self._checked_play().verify_play(c)

    def can_play(self, c: Card) -> bool:
        """Whether :meth:`play_card` would accept ``c`` now."""
        return self.phase == PLAY and self._checked_play().can_play(c)

    def play_card(
        self, c: Card, declarations: Sequence[Declaration] | None = None, belote: bool = True
    ) -> CardPlayed:
        """Play ``c`` for the seat to play, checked as by :meth:`verify_play`; what the
        seat announces and says with it: see :meth:`HandPlay.play` (:meth:`apply` of a
        :class:`~belote.actions.Play` with the combinations as values)."""
        play = self._play
        if self.phase is not PLAY or play is None:
            play = self._checked_play()  # raises: no card now
        pub = self._pub
        state = play.state
        legal, self._legal = self._legal, 0
        if legal >> c & 1:  # checked by the last view
            seat = state.turn
            if (pub.result is not None and declarations is None and belote
                    and not play.belote_pairs[seat] >> c & 1 and not play.beneath):
                # Nothing to announce (the declarations are compared, §7.4), no belote to
                # say (§7.7), no face-down card to turn (§12.2): HandPlay.play_legal's
                # path for such a card, written out (most cards; a measured hot path;
                # tests/test_round_actions.py plays deals both ways).
                state.push(c)
                pub.played += 1
                pub.trick = state.trick  # (a new list once a trick is complete)
                if state.tricks_left == 0:
                    self.phase = OVER
                return PLAIN_PLAYED[seat][c]  # (nothing heard with it)
            record = play.play_legal(c, declarations, belote)
        else:
            record = play.play(c, declarations, belote)
        pub.played += 1
        pub.trick = state.trick  # (a new list once a trick is complete)
        if pub.result is None or record.belote:
            self._hear(pub, play, record)
        if state.tricks_left == 0:
            self.phase = OVER
        return record

    # --- actions as values (belote.actions) ----------------------------------------

    def legal_actions(self) -> list[Action]:
        """The actions the seat to act may take now (:meth:`current_player`): its legal
        calls, every pair of its cards to lay aside (§12.1), or its legal cards, each
        with the default announcement and belote said when due (the other choices of
        a card, :class:`~belote.actions.Play`'s ``declarations`` and ``belote``, are
        checked by :meth:`verify`).  An out-of-turn coinche (§4.5) is not listed.
        Empty once the deal is over."""
        phase = self.phase
        if phase is PLAY:
            return [_actions.plain_play(c) for c in self.legal_cards()]
        if phase is BIDDING:
            return [_actions.Call(c) for c in self.bidding.legal_calls()]
        if phase is DISCARD:
            held = list(scan_forward(self.hands[self.current_player()]))
            return [Discard((a, b)) for i, a in enumerate(held) for b in held[i + 1:]]
        return []

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming the rule when :meth:`apply` would
        refuse ``action`` now (the messages of :meth:`verify_call`,
        :meth:`verify_discard`, :meth:`verify_play`, and of the announcement, §7.4)."""
        if isinstance(action, Play):
            self.verify_play(action.card)
            if action.declarations is not None:
                play = self._checked_play()
                play.verify_announcement(self._declarations_of(action, "action"))
        elif isinstance(action, _actions.Call):
            self.verify_call(action.call, action.seat)
        elif isinstance(action, Discard):
            self.verify_discard(action.cards)
        else:
            raise IllegalActionError(f"not an action: {action!r}")

    def can(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action`` now."""
        return allowed(lambda: self.verify(action))

    def apply(self, action: Action) -> Event:
        """Do ``action`` for the seat to act, checked as by :meth:`verify`; the event it
        made, the deal's log's last (:meth:`events`)."""
        if type(action) is Play:  # (a card: the hot path of the bots' games)
            if action.declarations is None:
                return self.play_card(action.card, None, action.belote)
            return self.play_card(action.card, self._declarations_of(action, "action"),
                              action.belote)
        return self._apply(action, "action")

    def _apply(self, action: Action, where: str) -> Event:
        kind = type(action)
        if kind is Play:
            assert isinstance(action, Play)
            decls = None if action.declarations is None else self._declarations_of(action, where)
            return self.play_card(action.card, decls, action.belote)
        if kind is _actions.Call:
            assert isinstance(action, _actions.Call)
            return self.call(action.call, action.seat)
        if kind is Discard:
            assert isinstance(action, Discard)
            return self.discard(action.cards)
        raise IllegalActionError(f"{where}: not an action: {action!r}")

    def _declarations_of(self, action: Play, where: str) -> list[Declaration]:
        """The combinations a :class:`~belote.actions.Play` announces, read against the
        hand of the seat to play (§7.2)."""
        play = self._checked_play()
        assert action.declarations is not None
        hand = play.initial_hands[play.turn]
        return [parse_combination(list(combo), hand, self.rules, play.contract.trump, where)
                for combo in action.declarations]

    def clone(self) -> Round:
        """A separate deal in the same state: the same deck and the same actions applied
        again (each checked); what is done to one leaves the other as it was."""
        twin = Round(self.rules, self.dealer, self.deck, self.reserve,
                     self._game.get("game_score", ()), self._game.get("target"))
        for action in self.actions():
            twin.apply(action)
        return twin

    # --- what the faces show (read only) -----------------------------------------

    @property
    def calls(self) -> tuple[Call | AuctionCall, ...]:
        """The calls made so far, in order."""
        return tuple(self.bidding.calls)

    @property
    def taker(self) -> int | None:
        """The taker, once known (the bidder of a coinche contract; découverte's
        leader, §12.2); None before."""
        if self._play is not None:
            return self._play.contract.taker
        return self.bidding.taker if isinstance(self.bidding, TakePassBidding) else None

    def hand(self, seat: int) -> CardMask:
        """The cards ``seat`` holds now (in découverte, those it may play: the face-up
        ones, §12.2)."""
        return self._play.state.hands[seat] if self._play is not None else self.hands[seat]

    def card_counts(self) -> tuple[int, ...]:
        """How many cards each seat holds now (:meth:`hand`'s, by seat)."""
        hands = self._play.state.hands if self._play is not None else self.hands
        return tuple([h.bit_count() for h in hands])

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The tricks completed so far."""
        return tuple(self._play.state.tricks) if self._play is not None else ()

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the trick in progress, in play order."""
        return tuple(self._play.state.trick) if self._play is not None else ()

    @property
    def trick_points(self) -> tuple[int, int]:
        """The card points each side of the hand has taken so far (§5, §12)."""
        if self._play is None:
            return 0, 0
        points = self._play.state.trick_points
        return points[0], points[1]

    @property
    def announced(self) -> tuple[tuple[Declaration, ...] | None, ...]:
        """Per seat, the combinations it announced with its first card (None before)."""
        return tuple(None if a is None else tuple(a) for a in self._play.announced) \
            if self._play is not None else (None,) * self.players

    def declaration_result(self) -> DeclarationResult | None:
        """The comparison of declarations, once the first card of trick 2 is played
        (§7.4); None before."""
        return self._play.declaration_result() if self._play is not None else None

    def covering(self) -> CardMask:
        """Belote découverte (§12.2): the face-up cards, of both seats, that still cover
        a face-down card; 0 in any other deal."""
        if self._play is None or not self._play.beneath:
            return 0
        held = self._play.state.hands[0] | self._play.state.hands[1]
        return sum(1 << c for c in self._play.beneath if held >> c & 1)

    def seat_entry(self) -> HandEntry:
        """The finished deal as a per-seat score sheet writes it (§12, :func:`seat_entry`)."""
        result = self.result()
        assert self._play is not None
        return seat_entry(result, self._play)

    def seat_scores(self, score: HandScore) -> tuple[int, ...]:
        """The sides' ``score`` of this deal shared out per seat (§12.1)."""
        if self._play is None:
            raise IllegalActionError(RuleCode.WRONG_PHASE, phase=self.phase)
        return self._play.seat_scores(score)

    @property
    def trick_leader(self) -> int:
        """Who led the trick in progress (the seat to lead when none is; the eldest
        before the card play)."""
        return self._play.state.leader if self._play is not None else self.eldest

    def dealt(self, seat: int) -> CardMask:
        """The cards ``seat`` plays this hand from, as the card play started: its hand
        after the bidding (the taker's less his kitty discard, §12.1), in belote
        découverte its face-up and face-down cards (§12.2); before the card play, the
        cards it holds now."""
        return self._play.holdings[seat] if self._play is not None else self.hands[seat]

    def belote_points(self) -> tuple[int, int]:
        """The belote points each side has completed so far (§7.7)."""
        return self._play.belote_points() if self._play is not None else (0, 0)

    def belote_team(self) -> int | None:
        """The side that said belote first and scores it (§7.7), once completed."""
        return self._play.belote_team() if self._play is not None else None

    def points_by_seat(self) -> list[int]:
        """The trick points each seat has won so far (last-trick bonus included)."""
        if self._play is None:
            return [0] * self.players
        return self._play.state.points_by_seat()

    def cards_played(self) -> list[Card]:
        """The cards played so far, in play order."""
        if self._play is None:
            return []
        state = self._play.state  # (the tricks: the one store of the cards played)
        played: list[Card] = []
        for t in state.tricks:
            played += t.cards
        played += state.trick
        return played

    def _hear(self, pub: PlayRecord, play: HandPlay, record: CardPlayed) -> None:
        """What the table heard with the card of ``record``: a seat's announcement at
        trick 1 (§7.4), belote or rebelote (§7.7), then what the side that won the
        comparison of declarations shows (§7.6)."""
        seat, card, declared, belote, _chosen, _says = record  # (unpacked: a hot path)
        played = pub.played - 1
        if self._announced[seat] is None:
            self._announced[seat] = declared
            if declared:  # (nothing announced: the () it holds already)
                pub.heard[seat] = tuple(heard_of(d) for d in declared)
            pub.heard_at[seat] = played
        if belote:
            pub.belote.append((played, seat, card))
        result = play.declaration_result()
        if pub.result is None and result is not None:
            pub.result = result
            pub.result_at = played
            if result.winner is not None:  # (nobody scores: nobody shows, the () it holds)
                pub.shown = tuple(
                    tuple(a) if result.winner == play.teams[s] and a else ()
                    for s, a in enumerate(play.announced)
                )

    # --- what a seat sees -----------------------------------------------------

    def view(self, seat: int | None = None) -> PlayerView:
        """What ``seat`` knows now: its hand, its legal actions when it is its turn, its
        own announcement and discards, and what the whole table knows.  Without a
        seat: the view of the seat to act (:meth:`current_player`; -1 once over).

        A view of the card play is made with what is the seat's own and works out
        the rest on its first read (:class:`LiveView`)."""
        play = self._play
        if play is None:
            return self._bidding_view(self.current_player() if seat is None else seat)
        state = play.state
        turn = state.turn if self.phase is PLAY else -1  # (the seat to play, read once)
        if seat is None:
            seat = turn
        view: Any = new_view(OPEN_LIVE_VIEW)  # (its fields written as attributes, then frozen)
        pub = view._pub = self._pub
        view._played = pub.played
        view.seat = seat
        view.hand = state.hands[seat]
        if turn == seat >= 0:
            legal = self._legal = state.legal_mask()  # (play_card need not work it out again)
            view.legal_cards = (  # card_tuple(legal), written out
                _LOW[legal & 0x7FF] + _MIDDLE[legal >> 11 & 0x7FF] + _HIGH[legal >> 22])
            pairs = play.belote_pairs[seat]  # (0 for most seats: one test)
            if pairs:
                self._belote_due(view, play, seat, pairs & state.hands[seat])
        else:
            view.legal_cards = ()
        view.my_declarations = self._announced[seat]
        if self._more_to_see:
            if self._game:
                view.__dict__.update(self._game)
            if self.discards and play.contract.taker == seat:
                view.__dict__["discards"] = self.discards
            if self._face_up:
                self._decouverte(view, state.hands[1 - seat])  # the other's face-up cards
        view.__class__ = LiveView
        made: LiveView = view
        return made

    def _belote_due(self, view: LiveView, play: HandPlay, seat: int, due: CardMask) -> None:
        """The trump kings and queens with which ``seat``, to play, would say belote or
        rebelote (§7.7): those of a pair it holds or held, the other seen by it (in
        découverte not a face-down card, §12.2)."""
        if self._face_up:
            due = sum(1 << c for c in scan_forward(due) if play.sees_belote(seat, c))
        if due:
            view.__dict__["belote_due"] = due

    def spectator_view(self) -> PlayerView:
        """What someone who holds no seat knows: only what lies face up and what was
        said.  The view's ``seat`` is -1; its hand, legal actions, own declarations
        and discards are empty, and découverte's face-up cards of both players
        are in ``public``."""
        play = self._play
        if play is None:
            return self._bidding_view(-1)
        view: Any = new_view(OPEN_LIVE_VIEW)
        view._pub = self._pub
        view._played = self._pub.played
        view.seat = -1
        view.hand = 0
        view.legal_cards = ()
        view.my_declarations = None
        view.__dict__.update(
            phase=self.phase, turn=play.state.turn if self.phase is PLAY else -1, **self._game)
        if self.mode is DealMode.DECOUVERTE:
            self._decouverte(view, play.state.hands[0] | play.state.hands[1])
        view.__class__ = LiveView
        made: LiveView = view
        return made

    def _decouverte(self, view: LiveView, public: CardMask) -> None:
        """Belote découverte (§12.2): the face-up cards the view shows, and those of
        them that still cover a face-down card."""
        assert self.piles is not None
        tops = mask_of(up for pile in self.piles for _down, up in pile)
        view.__dict__["public"] = public
        view.__dict__["covering"] = tops & ~played_cards(self._pub.tricks, ())

    def _bidding_view(self, seat: int) -> PlayerView:
        """A view before the card play: the bidding, the kitty discard, an all-pass."""
        turn = self.current_player()
        phase = self.phase
        said = self._said
        if said is None:
            said = self._said = BidRecord(
                self.rules, self.dealer, self.turned, self.reserve, self.players, self.eldest,
                self.bidding.calls, self._game.get("game_score", ()), self._game.get("target"))
        view = new_view(BidView)
        fields = view.__dict__  # (a frozen dataclass: its fields are written there)
        fields["_said"] = said
        fields["_called"] = len(said.calls)
        fields["seat"] = seat
        fields["phase"] = phase
        fields["hand"] = self.hands[seat] if seat >= 0 else 0
        fields["turn"] = turn
        if turn == seat and phase is BIDDING:
            fields["legal_calls"] = tuple(self.bidding.legal_calls())
        return view

    def describe(self) -> str:
        return f"deal by {SEAT_NAMES[self.dealer]}, phase {self.phase}"

    def events(self) -> list[Event]:
        """The deal's log: every call, the kitty discard and every card, in order.

        Each event is recorded once, where its rule is checked (the bidding's
        ``calls``, the hand's ``history``); the phases never overlap, so the log is
        those records one after the other."""
        log: list[Event] = list(self.bidding.calls)
        if self.discards:
            assert self.bidding.taker is not None
            log.append(Discarded(self.bidding.taker, self.discards))
        if self._play is not None:
            log += self._play.history
        return log

    def actions(self) -> list[Action]:
        """Every action so far, in order: the deal's log (:meth:`events`) as the
        actions that made it; applied in order to the same deal they make it again."""
        return [action_of(e) for e in self.events()]

    def actions_json(self) -> list[dict[str, Any]]:
        """Every call and card so far, in order: ``{"call": "take"}``, ``{"card": "JH"}``
        (with ``"declarations"`` when announced explicitly and ``"belote": false`` when
        belote was not said): each action's ``to_json``.  :meth:`apply_actions` replays
        them."""
        return [action_of(e).to_json() for e in self.events()]

    def apply_actions(self, actions: Sequence[Any]) -> None:
        """Replay actions written by :meth:`actions_json`, each checked."""
        for i, data in enumerate(actions):
            where = f"action {i + 1}"
            self._apply(action_from_json(data, where), where)

    def record(self) -> dict[str, Any]:
        """The deal's record (docs/json.md): the rules, the dealer, the deck as dealt
        and every action so far (:meth:`actions_json`), with the litige reserve it
        carries (``reserve``, when not 0) and the game around it (``game_score`` and
        ``target``, for the views, when in a game).  :meth:`from_record` reads it
        back, every action checked again; a game's record (``Match.to_record``) holds
        one a deal, the rules said once."""
        out: dict[str, Any] = {
            "profile": self.rules.profile,
            "options": self.rules.overrides(),
            "dealer": SEAT_NAMES[self.dealer],
            "deck": [card_name(c) for c in self.deck],
            "actions": self.actions_json(),
        }
        if self.reserve:
            out["reserve"] = self.reserve
        if self._game:
            out["game_score"] = list(self._game["game_score"])
            out["target"] = self._game["target"]
        return out

    @classmethod
    def from_record(cls, data: Any, where: str = "deal record") -> Round:
        """The deal of a record written by :meth:`record`: dealt from its deck, then each
        action applied again (:meth:`apply`); a record that is not one, or an action
        refused, raises :class:`~belote.errors.InvalidRecordError` saying where."""
        if not isinstance(data, dict):
            raise InvalidRecordError(f"{where}: expected an object, got {type(data).__name__}")
        try:
            rules = make_rules(data.get("profile", "classic"), data.get("options") or {})
            dealer = parse_seat(data.get("dealer"), f"{where}.dealer", rules.players)
            deck = data.get("deck")
            if not isinstance(deck, list):
                raise InvalidRecordError(f"{where}: 'deck' must list the cards as dealt")
            reserve = data.get("reserve", 0)
            if isinstance(reserve, bool) or not isinstance(reserve, int) or reserve < 0:
                raise InvalidRecordError(f"{where}: 'reserve' must be a whole number ≥ 0")
            score, target = data.get("game_score", []), data.get("target")
            if not isinstance(score, list) or not all(
                    isinstance(x, int) and not isinstance(x, bool) for x in score):
                raise InvalidRecordError(f"{where}: 'game_score' must list whole numbers")
            if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
                raise InvalidRecordError(f"{where}: 'target' must be a whole number")
            actions = data.get("actions", [])
            if not isinstance(actions, list):
                raise InvalidRecordError(f"{where}: 'actions' must be a list")
            rnd = cls(rules, dealer, [parse_card(t) for t in deck], reserve,
                      tuple(score), target)
            for i, item in enumerate(actions):
                at = f"action {i + 1}"
                try:
                    rnd._apply(action_from_json(item, at), at)
                except IllegalActionError as exc:
                    text = str(exc)
                    err = InvalidRecordError(
                        f"{where}: {text if text.startswith(at + ':') else f'{at}: {text}'}")
                    err.code = exc.code  # the rule the record's action breaks
                    raise err from None
        except InvalidRecordError:
            raise
        except (BeloteError, ValueError) as exc:
            raise InvalidRecordError(f"{where}: {exc}") from None
        return rnd

    def _call_text(self, c: Call | AuctionCall) -> str:
        """A call as the record writes it; an out-of-turn coinche carries its seat."""
        if isinstance(c, AuctionCall) and not c.in_turn:
            return f"{SEAT_NAMES[c.seat]}:{c.call}"
        return c.call

    def to_record(self) -> dict[str, Any]:
        """The HandRecord (docs/json.md) of this deal so far (`belote replay` reads it back).

        Three and two players (§12) extend it: ``hands`` has 3 or 2 seats (N E S, or
        N E); the kitty deal adds ``kitty`` and ``discards``; the six-each and stock
        deals add ``bergere``; belote découverte gives ``piles`` (per seat, eight
        [face-down, face-up] pairs in dealing order) instead of ``hands``.
        """
        n = self.players
        record: dict[str, Any] = {
            "profile": self.rules.profile,
            "options": self.rules.overrides(),
            "dealer": SEAT_NAMES[self.dealer],
        }
        if self.piles is not None:
            record["piles"] = {
                SEAT_NAMES[s]: [[card_name(d), card_name(u)] for d, u in self.piles[s]]
                for s in self.table.seats
            }
        else:
            if self.mode is DealMode.KITTY:
                assert self.first is not None
                hands = list(self.first.hands)
                record["kitty"] = [card_name(c) for c in self.first.stock]
                if self.discards:
                    record["discards"] = mask_names(self.discards)
            elif self._play is not None:
                hands = list(self._play.initial_hands)
            elif self.first is None:
                hands = list(self.hands)
            else:
                # Bidding unfinished or all-pass: the deal as it would have ended (turned
                # card to the dealer), so that the record still holds every hand in full.
                hands = deal_rest(self.first, self.dealer, self.dealer, n, self.mode)
            record["hands"] = {SEAT_NAMES[s]: mask_names(hands[s]) for s in self.table.seats}
            record["bids"] = [self._call_text(c) for c in self.bidding.calls]
        if self.turned is not None:
            record["turned"] = card_name(self.turned)
        if self.first is not None and self.mode.leaves_cards_out:
            record["bergere"] = card_name(bergere(self.first, n))
        record["plays"] = []
        if self._play is not None:
            record["plays"] = [card_name(h.card) for h in self._play.history]
            record["declarations"] = {
                SEAT_NAMES[s]: [d.card_names() for d in a]
                for s, a in enumerate(self._play.announced)
                if a
            }
            refused = sorted({seat for seat, _suit in self._play.belote_refused()})
            if refused:
                record["belote"] = {SEAT_NAMES[s]: False for s in refused}
        return record


def action_of(event: Event) -> Action:
    """The action that made ``event`` (one of :meth:`Round.events`)."""
    if isinstance(event, CardPlayed):
        if not event.declared:
            if event.says_belote:
                return _actions.plain_play(event.card)
            return Play(event.card, None, False)
        return Play(event.card, tuple(combination_cards(d.cards) for d in event.declarations),
                    event.says_belote)
    if isinstance(event, Discarded):
        return Discard(tuple(scan_forward(event.cards)))
    return _actions.Call(event.call, event.seat if event.named else None)


def seat_entry(result: HandResult, play: HandPlay) -> HandEntry:
    """A deal played at a table of three or two, as its score sheet writes it (§12):
    the taker's seat (none in belote découverte), each seat's trick points (the
    taker's with the cards laid aside from a kitty), the capot side, the validated
    declarations (a side's written against its first seat) and each seat's belote."""
    contract = result.contract
    n = play.players
    decouverte = contract.value == DECOUVERTE
    points = list(result.trick_points)
    if n == 3:
        points = play.state.points_by_seat()
        points[contract.taker] = result.trick_points[0]  # the kitty's discards included
    sides = contract.teams()
    decl = [0] * n
    for side, value in enumerate(result.declarations.points):
        if value:
            decl[sides.index(side)] = value
    return HandEntry(
        players=n, taker=None if decouverte else contract.taker, trick_points=tuple(points),
        capot=result.capot, declarations=tuple(decl), belote=tuple(play.belote_by_seat()),
        trump=contract.trump, in_play=play.in_play,
        leader=play.first_leader if n == 3 else None, reserve=play.reserve,
    )
