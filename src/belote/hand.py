"""One hand from the contract to the score, with every check (docs/rules.md §5–§8).

:class:`HandPlay` wraps the fast :class:`~belote.play.PlayState` with the
checked path: a card that is not held or not legal is refused with an
:class:`~belote.errors.IllegalPlayError` naming the rule; declarations are
announced with a seat's first card and compared when trick 2 starts (§7.4);
belote-rebelote is said as the trump king and queen are played (§7.7).  In
belote découverte (§12.2) a seat says belote only from the cards it can see:
its face-up cards and the cards it has already played, never a face-down one.

With three players (§12.1) the taker plays against the other two: they form
side 1 for the contract, the comparison of declarations and the score, which
:func:`seat_scores` then shares out.  With two players each is a side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import repeat
from types import MappingProxyType
from typing import Any, Final, NamedTuple, NoReturn

from belote.cards import (
    KING,
    QUEEN,
    Card,
    CardMask,
    TrumpMode,
    card_name,
    rank_of,
    scan_forward,
    suit_of,
    trump_name,
)
from belote.declarations import (
    NOTHING_DECLARED,
    Declaration,
    DeclarationResult,
    belote_cards,
    best_announcement,
    check_announcement,
    resolve,
)
from belote.errors import IllegalPlayError, RuleCode
from belote.options import Rules
from belote.play import (
    SEAT_NAMES,
    TEAM_NAMES,
    PlayState,
    Trick,
    card_points,
    illegal_card,
    illegal_code,
)
from belote.records import record_of
from belote.scoring import (
    HandEntry,
    HandScore,
    capot_trick_points,
    score_counted,
    score_valid_hand,
    seat_shares,
)
from belote.table import Table

BELOTE_POINTS: Final = 20


DECOUVERTE: Final = "decouverte"  # the contract value of a belote découverte deal


@dataclass(frozen=True)  # (no slots: one is made a deal, by records.record_of)
class Contract:
    """Who took, in what trump, for what value (coinche), at what multiplier.

    ``players`` is 4, or 3 / 2 (§12).  In belote découverte nobody takes: the value
    is ``"decouverte"`` and ``taker`` is the non-dealer, who leads.
    """

    taker: int
    trump: TrumpMode
    value: int | str | None = None
    multiplier: int = 1
    players: int = 4

    @property
    def team(self) -> int:
        """The taker's side: NS/EW with four players, side 0 with three, the seat with two."""
        return Table.seated(self.players).sides(self.taker)[self.taker]

    def teams(self) -> tuple[int, ...]:
        """Each seat's side (:meth:`belote.table.Table.sides`)."""
        return Table.seated(self.players).sides(self.taker)

    def to_json(self) -> dict[str, Any]:
        if self.value == DECOUVERTE:
            taker: str | None = None
            team: str | None = None
        else:
            taker = SEAT_NAMES[self.taker]
            team = TEAM_NAMES[self.team] if Table.seated(self.players).partnerships else taker
        return {
            "taker": taker,
            "team": team,
            "trump": trump_name(self.trump),
            "value": self.value,
            "multiplier": self.multiplier,
        }


# The contract of each take of a take-or-pass bidding, by (taker, trump, players), made
# once: a contract is a value that deals may share (one is taken every deal).
TAKEN: Final = MappingProxyType({
    (taker, trump, players): Contract(taker, trump, players=players)
    for players in (2, 3, 4) for taker in range(players) for trump in range(6)})


class CardPlayed(NamedTuple):
    """A card played, with what was said with it (an event of the deal's log).

    A named tuple: one is made for every card, in the hot path of the bots' games.
    """

    seat: int
    card: Card
    declarations: tuple[Declaration, ...] = ()
    # "belote" or "rebelote" when said with this card; "belote-rebelote" when both are
    # said with the second card (belote découverte: the first was played while the
    # other lay face down, §12.2)
    belote: str | None = None
    # What the player chose, as a record of the deal writes it (Round.actions_json):
    # declarations given explicitly (None given: the default announcement) ...
    declared: bool = False
    # ... and whether belote / rebelote is said when due (False: declined, §7.7).
    says_belote: bool = True


# A CardPlayed from its six fields, without the named tuple's own __new__ (one is made
# for every card played with something said or chosen: a measured hot path).
_new_record: Final = tuple.__new__
# The CardPlayed of each seat and card played with nothing said and nothing chosen (the
# defaults), made once: the record of most cards, a value that a hand's log may share.
PLAIN_PLAYED: Final = tuple(tuple(CardPlayed(seat, c) for c in range(32)) for seat in range(4))


@dataclass(frozen=True)
class HandResult:
    """Everything a finished hand produced, and its score."""

    contract: Contract
    tricks: tuple[Trick, ...]
    declarations: DeclarationResult
    belote_team: int | None
    belote_points: tuple[int, int]
    trick_points: tuple[int, int]
    capot: int | None
    score: HandScore
    entry: HandEntry = field(repr=False)
    seats: tuple[int, ...] | None = None  # per-seat scores with two or three players


class HandPlay:
    """The card play of a hand under a contract, checked card by card."""

    __slots__ = (
        "_announcing", "_belote_order", "_belote_refused", "_belote_said", "_declarations",
        "_said", "announced", "belote_pairs", "beneath", "contract", "discards",
        "first_leader", "holdings", "in_play", "initial_hands", "players", "reserve", "rules",
        "state", "table", "teams",
    )

    def __init__(
        self,
        rules: Rules,
        contract: Contract,
        hands: Sequence[CardMask],
        leader: int,
        reserve: int = 0,
        *,
        beneath: dict[Card, Card] | None = None,
        discards: CardMask = 0,
        in_play: int | None = None,
        table: Table | None = None,
    ) -> None:
        """``hands`` are the cards each seat may play from.  Belote découverte (§12.2):
        ``beneath`` maps each face-up card to the face-down card under it, turned
        up when the card above is played.  ``discards``: the cards the taker laid
        aside from the kitty (§12.1), counted in his tricks.  ``in_play``: the trick
        total of a deal that leaves cards out (§12).  ``table``: the seats (by default
        the table of as many seats as ``hands``)."""
        self.table = table if table is not None else Table.seated(len(hands))
        self.rules = rules
        self.contract = contract
        self.players = len(hands)
        self.teams = self.table.sides(contract.taker)
        self.beneath = dict(beneath) if beneath else {}
        self.discards = discards
        self.in_play = in_play
        self.initial_hands = tuple(hands)
        # everything each seat will hold (the face-down cards of découverte included)
        self.holdings = tuple(
            h | _under(h, self.beneath) for h in hands
        ) if beneath else self.initial_hands
        self.state = PlayState(
            rules, contract.trump, hands, leader,
            tricks_left=max(map(int.bit_count, self.holdings)), teams=self.teams,
            table=self.table,
        )
        self.first_leader = leader
        self.reserve = reserve
        # What was said or chosen with each card played with more than the defaults, by
        # card (a card is played once a hand): the cards themselves, in play order, are
        # the state's tricks only (:attr:`history` reads them there).
        self._said: dict[Card, CardPlayed] = {}
        self.announced: list[list[Declaration] | None] = [None] * self.players
        self._declarations: DeclarationResult | None = None
        # Whether combinations are announced at all (§7.1 declarations; none in découverte).
        self._announcing = contract.value != DECOUVERTE and bool(rules.declarations)
        # belote per seat (§7.7): the trump kings and queens it holds as a pair
        # (``belote_pairs``), and the announcement state per suit
        trump = contract.trump
        self.belote_pairs = tuple(map(belote_cards, self.holdings, repeat(trump)))
        self._belote_said: dict[tuple[int, int], list[Card]] = {}
        self._belote_refused: set[tuple[int, int]] = set()
        self._belote_order: list[int] = []  # seats in order of first announcement

    # --- queries ----------------------------------------------------------

    @property
    def turn(self) -> int:
        return self.state.turn

    def is_over(self) -> bool:
        return self.state.is_over()

    def legal_cards(self) -> list[Card]:
        return [] if self.is_over() else self.state.legal_cards()

    def trick_number(self) -> int:
        return len(self.state.tricks) + 1

    @property
    def history(self) -> list[CardPlayed]:
        """Every card played so far, in order, with what was said with it: read from the
        state's tricks (the one store of the cards played) and the records of what was
        said (:meth:`play_legal`'s, the same objects)."""
        state = self.state
        said = self._said
        orders = self.table.orders
        out: list[CardPlayed] = []
        for leader, cards in [*((t.leader, t.cards) for t in state.tricks),
                              (state.leader, state.trick)]:
            for seat, c in zip(orders[leader], cards, strict=False):
                out.append(said.get(c) or PLAIN_PLAYED[seat][c])
        return out

    def declaration_result(self) -> DeclarationResult | None:
        """The comparison, once the first card of trick 2 is played (§7.4)."""
        return self._declarations

    # --- the checked triad ------------------------------------------------

    def verify_play(self, c: Card) -> None:
        seat = self.state.turn
        if self.is_over():
            raise IllegalPlayError(RuleCode.HAND_OVER, seat=seat, card=card_name(c))
        err = illegal_card(self.state, c, (f"trick {self.trick_number()}",))
        if err is not None:
            raise err

    def can_play(self, c: Card) -> bool:
        return not self.is_over() and illegal_code(self.state, c) is None

    def play(
        self,
        c: Card,
        declarations: Sequence[Declaration] | None = None,
        belote: bool = True,
    ) -> CardPlayed:
        """Play ``c`` for the seat to play.

        ``declarations``: what the seat announces with its first card (§7.4);
        None announces all it holds, best grouped (the default announcement).
        ``belote``: whether the seat says belote / rebelote when this card is the
        trump king or queen it holds together (§7.7).
        """
        if not self.state.legal_mask() >> c & 1:
            self.verify_play(c)  # raises, naming the rule
        return self.play_legal(c, declarations, belote)

    def play_legal(
        self, c: Card, declarations: Sequence[Declaration] | None, belote: bool
    ) -> CardPlayed:
        """:meth:`play` for a card already known to be legal now (one of
        ``state.legal_mask()`` at this position): what the seat announces and says
        with it is still checked."""
        state = self.state
        seat = state.turn
        announced: tuple[Declaration, ...] = ()
        early = self._declarations is None  # trick 1, or the first card of trick 2 (§7.4)
        if early and not state.tricks and self.announced[seat] is None:
            decls = self._announcement(seat, declarations)
            self.announced[seat] = decls
            announced = tuple(decls)
        elif declarations:
            self._too_late(seat)
        pairs = self.belote_pairs[seat]  # (0 for most seats: tested first, it saves a shift)
        said = self._say_belote(seat, c, belote) if pairs and pairs >> c & 1 else None
        if self.beneath:
            self._push_turning_up(c)
        else:
            state.push(c)
        if early and (
            state.tricks_left == 0 or (len(state.tricks) == 1 and len(state.trick) == 1)
        ):
            self._declarations = self._resolve()
        if announced or said is not None or declarations is not None or not belote:
            record = self._said[c] = _new_record(
                CardPlayed, (seat, c, announced, said, declarations is not None, belote))
            return record
        return PLAIN_PLAYED[seat][c]  # nothing said, nothing chosen: most cards

    def verify_announcement(self, declarations: Sequence[Declaration]) -> None:
        """Raise :class:`IllegalPlayError` when the seat to play may not announce
        ``declarations`` with its card now (§7.4: with its first card only, what it
        holds, as the rules allow); :meth:`play_legal` checks the same."""
        seat = self.state.turn
        if self._declarations is None and not self.state.tricks and self.announced[seat] is None:
            self._announcement(seat, declarations)
        elif declarations:
            self._too_late(seat)

    def _too_late(self, seat: int) -> NoReturn:
        raise IllegalPlayError(RuleCode.ANNOUNCE_WITH_FIRST_CARD,
                               where=(f"trick {self.trick_number()}",), seat=seat)

    def _push_turning_up(self, c: Card) -> None:
        """§12.2 découverte: play ``c``; when the trick is complete the card under each
        card of it is turned up."""
        state = self.state
        tricks_before = len(state.tricks)
        state.push(c)
        if len(state.tricks) > tricks_before:
            last = state.tricks[-1]
            for seat, played in zip(self.table.order(last.leader), last.cards, strict=True):
                under = self.beneath.get(played)
                if under is not None:
                    state.hands[seat] |= 1 << under

    def _announcement(
        self, seat: int, declarations: Sequence[Declaration] | None
    ) -> list[Declaration]:
        if declarations is None:  # the default announcement: all held, best grouped
            if not self._announcing:
                return []
            return best_announcement(self.initial_hands[seat], self.rules, self.contract.trump)
        if self.contract.value == DECOUVERTE:
            if declarations:
                raise IllegalPlayError(RuleCode.NO_DECLARATIONS_DECOUVERTE, seat=seat)
            return []
        if not self.rules.declarations:
            if declarations:
                raise IllegalPlayError(RuleCode.DECLARATIONS_OFF, seat=seat)
            return []
        hand = self.initial_hands[seat]
        for d in declarations:
            if d.cards & ~hand:
                raise IllegalPlayError(RuleCode.DECLARATION_NOT_HELD, seat=seat,
                                       declaration=str(d))
        check_announcement(declarations, self.rules, f"seat {SEAT_NAMES[seat]}")
        return list(declarations)

    def _say_belote(self, seat: int, c: Card, belote: bool) -> str | None:
        """What ``seat`` says with ``c``, the king or queen of a trump suit whose pair it
        holds (§7.7)."""
        key = (seat, suit_of(c))
        if key in self._belote_refused:
            return None
        played = self._belote_said.get(key)
        if played is None:
            first = self._hidden_belote(seat, c)
            if first == -1:
                return None  # §12.2: the other card lies face down, unknown to the seat
            if not belote:
                self._belote_refused.add(key)
                return None
            self._belote_said[key] = [c] if first is None else [first, c]
            if seat not in self._belote_order:
                self._belote_order.append(seat)
            return "belote" if first is None else "belote-rebelote"
        played.append(c)
        return "rebelote"

    def sees_belote(self, seat: int, c: Card) -> bool:
        """Whether ``seat`` sees both cards of the belote pair of ``c``, one of its trump
        king and queen (in belote découverte the other is not face down, §12.2)."""
        return self._hidden_belote(seat, c) != -1

    def _hidden_belote(self, seat: int, c: Card) -> Card | None:
        """Belote découverte (§12.2, §7.7): a seat says belote only from the cards it can
        see, its face-up cards and those it has already played; face-down cards do not
        count.  For the trump king or queen ``c`` about to be played, with the other card
        of the pair: None when the other is face up (the usual belote, rebelote to
        follow); the other card when the seat has already played it unannounced because it
        lay face down then (belote and rebelote are both said with ``c``); -1 when the
        other still lies face down (nothing can be said yet)."""
        if self.contract.value != DECOUVERTE:
            return None
        other = c ^ (KING ^ QUEEN)
        state = self.state
        if state.hands[seat] >> other & 1:
            return None
        # the other is the seat's own (it holds the pair): played by it, or face down
        return other if state.played_mask() >> other & 1 else -1

    def _resolve(self) -> DeclarationResult:
        announced = [a or [] for a in self.announced]
        return resolve(
            announced, self.rules, self.contract.trump, self.first_leader, self.teams
        )

    # --- the result -------------------------------------------------------

    def belote_by_seat(self) -> list[int]:
        """Belote points per seat so far: 20 for each belote said and completed (§7.7)."""
        points = [0] * self.players
        for (seat, _suit), cards in self._belote_said.items():
            if len(cards) == 2 and (not self.rules.king_first or rank_of(cards[0]) == KING):
                points[seat] += BELOTE_POINTS
        return points

    def belote_points(self) -> tuple[int, int]:
        """Belote points per team (side) so far."""
        if not self._belote_said:
            return 0, 0  # (most hands: nobody said belote)
        points = [0, 0]
        for seat, p in enumerate(self.belote_by_seat()):
            points[self.teams[seat]] += p
        return points[0], points[1]

    def belote_refused(self) -> set[tuple[int, int]]:
        """(seat, suit) of each belote held but not said (§7.7: omission scores 0)."""
        return set(self._belote_refused)

    def belote_team(self, points: tuple[int, int] | None = None) -> int | None:
        """The side that said belote first and scores it (``points``: the sides' belote
        points, when already worked out)."""
        if points is None:
            points = self.belote_points()
        for seat in self._belote_order:
            if points[self.teams[seat]]:
                return self.teams[seat]
        return None

    def result(self) -> HandResult:
        if not self.is_over():
            raise IllegalPlayError(RuleCode.DEAL_NOT_OVER, trick=self.trick_number(),
                                   turn=self.turn)
        state = self.state
        contract = self.contract
        decls = self._declarations or NOTHING_DECLARED
        capot = state.capot()
        belote = self.belote_points()
        trick_points = [state.trick_points[0], state.trick_points[1]]
        if self.discards:
            # §12.1 kitty: the taker's discards count in his tricks, unless the others
            # took every trick: a capot counts 252 and 0 whatever was laid aside.
            if capot is None or capot == contract.team:
                pts = card_points(self.rules, contract.trump)
                trick_points[contract.team] += sum(
                    pts[c] for c in scan_forward(self.discards)
                )
            else:
                trick_points = [0, 0]
                trick_points[capot] = capot_trick_points(self.rules, contract.trump)
        value = contract.value
        if value == DECOUVERTE:
            return self._counted_result(decls, capot, belote, trick_points)
        entry = record_of(  # (HandEntry: made from a hand played, so valid)
            HandEntry,
            taker=contract.team,
            trick_points=(trick_points[0], trick_points[1]),
            capot=capot,
            declarations=decls.points,
            belote=belote,
            contract=value,
            trump=contract.trump,
            multiplier=contract.multiplier,
            reserve=self.reserve,
            generale_won=(
                all(t.winner == contract.taker for t in state.tricks)
                if value == "generale" else None
            ),
            in_play=self.in_play,
        )
        score = score_valid_hand(self.rules, entry)  # made here: valid
        return record_of(
            HandResult,
            contract=contract,
            tricks=tuple(state.tricks),
            declarations=decls,
            belote_team=self.belote_team(belote),
            belote_points=belote,
            trick_points=(trick_points[0], trick_points[1]),
            capot=capot,
            score=score,
            entry=entry,
            seats=self.seat_scores(score) if self.table.scores_per_seat else None,
        )

    def _counted_result(
        self, decls: DeclarationResult, capot: int | None, belote: tuple[int, int],
        trick_points: list[int],
    ) -> HandResult:
        """Belote découverte has no contract: each player scores his own points (§12.2),
        as :func:`belote.scoring.score_counted` counts them."""
        entry = HandEntry(taker=self.contract.team, trick_points=(trick_points[0],
                          trick_points[1]), capot=capot, belote=belote)
        score = score_counted(trick_points, belote)
        return HandResult(
            contract=self.contract, tricks=tuple(self.state.tricks), declarations=decls,
            belote_team=self.belote_team(), belote_points=belote,
            trick_points=(trick_points[0], trick_points[1]), capot=capot, score=score,
            entry=entry, seats=score.score,
        )

    def seat_scores(self, score: HandScore) -> tuple[int, ...]:
        """Each seat's score with two or three players.

        Two players: each seat is a side.  Three (§12.1): the taker scores his
        side's score; each defender scores his own trick points and belote, and
        the two share equally what their side scores beyond that (declarations,
        the taker's points after a failure, a reserve), an odd point going to the
        first defender in play order from the trick-1 leader.
        """
        if self.players == 2:
            return score.score
        return seat_shares(
            self.rules, score.score, self.contract.taker, self.first_leader,
            self.state.points_by_seat(), self.belote_by_seat(), self.contract.trump,
        )


def _under(hand: CardMask, beneath: dict[Card, Card]) -> CardMask:
    m = 0
    for c in scan_forward(hand):
        under = beneath.get(c)
        if under is not None:
            m |= 1 << under
    return m


def card_names(cards: Sequence[Card]) -> list[str]:
    return [card_name(c) for c in cards]
