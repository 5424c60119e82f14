"""The values of scoring (docs/rules.md §5, §8–§12): a hand's entry, its score and a
game's, the constants of the rules and the small rules every part of the package reads.

One entry type serves every table (:class:`HandEntry`): its columns are the table's
score columns (:class:`belote.table.Table`): the two teams with four players, each
seat with three or two (§12).  A two-column entry under the rules of a table of three
is the hand's two sides (the taker against the defenders), as the engine and the bots
score a hand played; :func:`side_entry` folds the seats into those sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, NamedTuple

from belote.cards import ALL_TRUMP
from belote.options import Rounding, Rules, TaValues
from belote.table import DealMode, Table

NS: Final = 0
EW: Final = 1
TEAM_NAMES: Final = ("NS", "EW")
SEAT_LETTERS: Final = ("N", "E", "S")  # the seats of a table of three or two (§12)
SIDE_NAMES_3P: Final = ("taker", "defenders")  # the sides at a table of three (§12.1)
TAKER_SIDE: Final = 0
DEFENDERS: Final = 1

CARD_POINTS: Final = 162  # §5.1: 152 card points + 10 de der
CAPOT_POINTS: Final = 252  # §5.2: 152 + 100
SCALED_TA_POINTS: Final = 258  # §5.4: full trump values in four suits + 10
SCALED_TA_CAPOT_POINTS: Final = 348  # 248 + 100, raw, before the capot rule
BELOTE_POINTS: Final = 20
CAPOT_CONTRACT_VALUE: Final = 250  # §4.3: a capot bid is worth 250 as a contract
FLAT_CAPOT_VALUE: Final = 500  # §9.2 bid_capot_scoring = flat: winner 500×M
DOUBLED_BASE: Final = 160  # §9.2 M >= 2 and §9.3: the base of a coinched hand
UNBID_CAPOT_BASE: Final = 250  # §9.2: the base after an unbid capot made by the takers


class Outcome(StrEnum):
    """How a hand ended: the ``outcome`` of docs/json.md's HandScore, a member equal to
    and serialised as its word."""

    MADE = "made"  # the takers made their contract (§8.2, §9.1)
    FAILED = "failed"  # dedans (§8.3, §9.1)
    LITIGE = "litige"  # equal totals, the takers' points held in reserve (§8.4)
    VOID = "void"  # every player passed (§2.4)
    COUNTED = "counted"  # belote découverte: each player scores his own points (§12.2)


OUTCOMES: Final = tuple(o.value for o in Outcome if o is not Outcome.COUNTED)
COUNTED: Final = Outcome.COUNTED  # belote découverte: each player scores his own points


@dataclass(frozen=True)
class HandEntry:
    """What a score calculator is told about one hand, at any table (docs/json.md
    HandEntry, and its per-seat form at three and two players).

    ``players`` says what the columns are: 4 (the default) the two teams, 0 NS and
    1 EW (or, under the rules of a table of three, the hand's two sides as the engine
    scores them: 0 the taker, 1 the defenders); 3 or 2 the seats, 0 N, 1 E, 2 S (§12).
    ``taker`` is the taker's column (None in belote découverte, §12.2).
    ``trick_points`` are card points with the last trick's 10 per column (a capot:
    252 and 0; with three players the taker's include the two cards laid aside from
    the kitty, which after a capot against him count for nobody).  ``capot`` is the
    side that took every trick: a team; with three players 0 (the taker) or 1 (the
    defenders); with two a seat.  ``declarations`` are the validated declaration
    points per column (one side at most above 0), ``belote`` the belote-rebelote
    points per column (20; in tout-atout up to 80).  ``contract`` is the coinche or
    contrée contract: a value 80..max_bid, ``"capot"`` or ``"generale"``; None in
    classic and moroccan.  ``trump`` is a trump mode of :mod:`belote.cards` (0..5,
    S H D C SA TA) when known.  ``multiplier`` is the coinche level: 1, 2 (coinche)
    or 4 (surcoinche, counted by ``surcoinche_factor``).  ``reserve`` is the litige
    reserve carried in.  ``generale_won`` says, for a générale, whether the bidder
    personally won every trick (§4.8); None leaves it to ``capot``.  ``in_play`` is
    the trick total where part of the pack stays out (§12: the cards played + 10);
    None means the usual 162.  ``leader`` is the seat that led the first trick at a
    table of three (it decides which defender gets an odd point of the shares; None:
    the seat after the taker).  A "capot" or "generale" contract is made iff
    ``capot == taker``.
    """

    taker: int | None
    trick_points: tuple[int, ...]
    capot: int | None = None
    declarations: tuple[int, ...] = (0, 0)
    belote: tuple[int, ...] = (0, 0)
    contract: int | str | None = None
    trump: int | None = None
    multiplier: int = 1
    reserve: int = 0
    generale_won: bool | None = None
    in_play: int | None = None
    leader: int | None = None
    players: int = 4

    def __post_init__(self) -> None:
        if self.players != 4:  # per seat: no declarations or belote given reads 0 each
            n = self.players
            for name in ("declarations", "belote"):
                if getattr(self, name) in ((0, 0), None):
                    object.__setattr__(self, name, (0,) * n)

    @property
    def per_seat(self) -> bool:
        """The columns are the seats of a table of three or two (§12)."""
        return self.players != 4

    @property
    def card_total(self) -> int:
        """Both sides' trick points when nobody makes capot: 162, or with two or three
        players dealing part of the pack (§12) the points of the cards played + 10
        (as entered: raw trump values in scaled tout-atout, see :func:`scored_totals`)."""
        return CARD_POINTS if self.in_play is None else self.in_play

    @property
    def capot_total(self) -> int:
        """The capot team's trick points: 252, or the cards played + 100 (§5.2, §12;
        as entered, like :attr:`card_total`)."""
        return CAPOT_POINTS if self.in_play is None else self.in_play + 90

    def side_of(self, column: int) -> int:
        """The side ``column`` counts for: a team is its own side; with three players 0
        the taker, 1 the two others; with two players each seat is a side."""
        if self.players == 3:
            return TAKER_SIDE if column == self.taker else DEFENDERS
        return column

    def first_leader(self) -> int:
        """The seat that led the first trick (three players): given, or the seat after
        the taker."""
        if self.leader is not None:
            return self.leader
        assert self.taker is not None
        return (self.taker + 1) % self.players


def SeatEntry(  # the constructor of a per-seat entry, by its old name
    players: int, taker: int | None, trick_points: tuple[int, ...], capot: int | None = None,
    declarations: tuple[int, ...] | None = None, belote: tuple[int, ...] | None = None,
    trump: int | None = None, in_play: int | None = None, leader: int | None = None,
    reserve: int = 0,
) -> HandEntry:
    """A :class:`HandEntry` at a table of three or two (§12), its values per seat
    (declarations and belote left out read 0 for each seat)."""
    zeros = (0,) * players
    return HandEntry(
        taker=taker, trick_points=trick_points, capot=capot,
        declarations=zeros if declarations is None else declarations,
        belote=zeros if belote is None else belote, trump=trump, in_play=in_play,
        leader=leader, reserve=reserve, players=players,
    )


class Term(StrEnum):
    """What a number of a hand's score is (:class:`Part`)."""

    POINTS = "points"  # a side's trick points as counted: R(P), a capot's, an unbid capot's
    DECLARATIONS = "declarations"  # validated declarations (§7.6)
    BELOTE = "belote"  # belote-rebelote (§7.7, §7.8)
    CONTRACT = "contract"  # C, the contract's value (§9.2)
    BASE = "base"  # the base of a failed or coinched hand (§9.2, §9.3): 160, 162, 250
    FLAT = "flat"  # a flat value: capot or générale (§9.2), the bid alone (§9.4)
    RESERVE = "reserve"  # the litige reserve won (§8.4)


class Part(NamedTuple):
    """Terms added, then multiplied by ``factor``: ``(160 + 100) × 2``.  (A named
    tuple: a hand's score is made of a few, every deal.)"""

    terms: tuple[tuple[Term, int], ...]
    factor: int = 1

    @property
    def value(self) -> int:
        total = 0
        for _, v in self.terms:
            total += v
        return total * self.factor

    @property
    def shown(self) -> tuple[int, ...]:
        """The terms a formula writes: a side's 0 declarations, belote or reserve are
        left out, its trick points kept even at 0."""
        return tuple(v for kind, v in self.terms if v or kind is Term.POINTS)

    def text(self) -> str:
        shown = self.shown
        inner = " + ".join(map(str, shown)) or "0"
        if self.factor == 1:
            return inner
        if len(shown) > 1:
            inner = f"({inner})"
        return f"{inner} × {self.factor}"


class Breakdown(NamedTuple):
    """How one hand's two sides were scored: what the rules computed, term by term.

    ``points`` are each side's trick points as scored (scaled in scaled tout-atout, a
    capot's value), before rounding; ``declarations`` after the capot rule (§8.5);
    ``belote`` as said; ``totals`` their sums (§8.2, §9.1).  ``contract`` is C (a
    capot bid 250; None in classic and moroccan), ``multiplier`` M (§4.7),
    ``rounding`` the rounding applied to trick points (``none`` when counted exactly,
    §10).  ``parts`` is each side's score as sums of terms (:class:`Part`), the litige
    reserve won included; ``reserve`` the reserve after the hand (§8.4).
    """

    outcome: Outcome
    points: tuple[int, int]
    declarations: tuple[int, int]
    belote: tuple[int, int]
    totals: tuple[int, int]
    contract: int | None
    multiplier: int
    rounding: Rounding
    parts: tuple[tuple[Part, ...], tuple[Part, ...]]
    reserve: int

    @property
    def score(self) -> tuple[int, int]:
        """Each side's score: the sum of its parts."""
        return (sum(p.value for p in self.parts[0]), sum(p.value for p in self.parts[1]))

    def counted_by_points(self, side: int) -> bool:
        """Whether ``side``'s score holds its own trick points (a made hand at M = 1,
        §8, §9.2–9.3), rather than a base, a contract or a flat value alone."""
        return any(kind is Term.POINTS for part in self.parts[side] for kind, _ in part.terms)

    def formula(self, side: int) -> str:
        """``side``'s score as the rules count it: ``(160 + 100 + 20) × 2``."""
        return " + ".join(p.text() for p in self.parts[side] if p.shown) or "0"


@dataclass(frozen=True)
class HandScore:
    """The score of one hand, at any table.

    ``totals``: each side's trick points + validated declarations + belote,
    before the outcome is applied and before any rounding: the two teams, or at
    a table of three the taker and the defenders, at two each seat (§12).
    ``score``: what each score column adds for this hand, any reserve awarded
    included: per team with four players, per seat with three or two (§12).
    ``reserve``: the litige reserve after this hand.  ``players`` names the
    columns.  ``breakdown`` is how the two sides' score was counted
    (:class:`Breakdown`; None for a deal not scored).
    """

    outcome: Outcome
    totals: tuple[int, int]
    score: tuple[int, ...]
    reserve: int
    players: int = 4
    breakdown: Breakdown | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if type(self.outcome) is not Outcome:  # a word given: its member
            object.__setattr__(self, "outcome", Outcome(self.outcome))

    def to_json(self) -> dict[str, Any]:
        sides = side_names(self.players)
        return {
            "outcome": str(self.outcome),
            "totals": {sides[0]: self.totals[0], sides[1]: self.totals[1]},
            "score": score_dict(self.score, self.players),
            "reserve": self.reserve,
        }


@dataclass(frozen=True)
class GameScore:
    """A score sheet at any table: every hand's score, running totals, and how the
    game stands; per team with four players, per seat with three or two (§12)."""

    hands: tuple[HandScore, ...]
    running: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    reserve: int
    finished: bool
    winner: int | None
    players: int = 4

    def to_json(self) -> dict[str, Any]:
        n = self.players
        return {
            "hands": [h.to_json() for h in self.hands],
            "running": [score_dict(r, n) for r in self.running],
            "totals": score_dict(self.totals, n),
            "reserve": self.reserve,
            "finished": self.finished,
            "winner": None if self.winner is None else score_names(n)[self.winner],
        }


def score_names(players: int) -> tuple[str, ...]:
    """The columns a game's score is kept in: the teams NS and EW with four players
    (§11), each seat N, E (, S) with three or two (§12)."""
    return TEAM_NAMES if players == 4 else SEAT_LETTERS[:players]


def side_names(players: int) -> tuple[str, str]:
    """The two sides of a hand's contract: the teams; at a table of three the taker
    and the defenders (§12.1); at two each seat."""
    if players == 4:
        return TEAM_NAMES
    if players == 3:
        return SIDE_NAMES_3P
    return ("N", "E")


def score_dict(values: Sequence[int], players: int) -> dict[str, int]:
    """``values`` per score column, named (``{"NS": .., "EW": ..}`` or per seat)."""
    return dict(zip(score_names(players), values, strict=True))


def team_dict(pair: Sequence[int]) -> dict[str, int]:
    return {"NS": pair[0], "EW": pair[1]}


def seat_dict(values: Sequence[int]) -> dict[str, int]:
    return {SEAT_LETTERS[s]: v for s, v in enumerate(values)}


def void_hand(reserve: int = 0) -> HandScore:
    """An all-pass deal (§2.4): no score, the reserve carried unchanged."""
    return HandScore(Outcome.VOID, (0, 0), (0, 0), reserve)


# --- small rules ---------------------------------------------------------------

_ROUND_5UP: Final = Rounding.NEAREST10_5UP
_ROUND_6UP: Final = Rounding.NEAREST10_6UP


def round_points(points: int, rounding: Rounding) -> int:
    """R of §10 applied to trick points: ``nearest10_5up`` 85→90, 84→80;
    ``nearest10_6up`` 85→80, 86→90; ``none`` unchanged.

    >>> round_points(117, Rounding.NEAREST10_5UP), round_points(156, Rounding.NEAREST10_6UP)
    (120, 160)
    """
    if rounding is _ROUND_5UP:
        return (points + 5) // 10 * 10
    if rounding is _ROUND_6UP:
        return (points + 4) // 10 * 10
    return points


def scale_ta_points(raw: int) -> int:
    """§5.4 ``ta_values = "scaled"``: raw points × 162/258, nearest point."""
    return (2 * raw * CARD_POINTS + SCALED_TA_POINTS) // (2 * SCALED_TA_POINTS)


def scaled_ta(rules: Rules, trump: int | None) -> bool:
    """Trick points entered raw and scaled ×162/258 (§5.4 scaled tout-atout)."""
    return trump == ALL_TRUMP and rules.ta_values is TaValues.SCALED


def scored_totals(rules: Rules, entry: HandEntry) -> tuple[int, int]:
    """The trick total and the capot value as scored: 162 and 252; with two or three
    players dealing part of the pack (§12), the cards played + 10 and that + 90, the
    cards played scaled ×162/258 in scaled tout-atout (§5.4) like the teams' points."""
    if entry.in_play is None:
        return CARD_POINTS, CAPOT_POINTS
    total = scale_ta_points(entry.in_play) if scaled_ta(rules, entry.trump) else entry.in_play
    return total, total + CAPOT_POINTS - CARD_POINTS


def multiplier_factor(rules: Rules, multiplier: int) -> int:
    """M of §4.7: coinche 2; a surcoinche (level 4) counts ``surcoinche_factor``."""
    if multiplier == 4:
        return rules.surcoinche_factor
    return multiplier


def trick_total(rules: Rules, trump: int | None) -> int:
    """What both teams' trick points add to as entered: 162, or 258 raw in scaled TA."""
    return SCALED_TA_POINTS if scaled_ta(rules, trump) else CARD_POINTS


def capot_trick_points(rules: Rules, trump: int | None) -> int:
    """The capot team's trick points as the play gives them (§5.2): 252, or 348 in
    raw trump values in scaled tout-atout (§5.4; scored 252 like every capot)."""
    return SCALED_TA_CAPOT_POINTS if scaled_ta(rules, trump) else CAPOT_POINTS


def seat_capot_total(rules: Rules, trump: int | None, in_play: int | None) -> int:
    """The capot side's trick points as counted on its tricks: 252 (raw 348 in scaled
    tout-atout), or with part of the pack out the cards played + 100 (§5.2, §12)."""
    return capot_trick_points(rules, trump) if in_play is None else in_play + 90


def capot_values(rules: Rules, trump: int | None) -> tuple[int, ...]:
    """What a capot team's trick points may be entered as with a whole pack: 252 or 162
    (raw 348 or 258 too in scaled tout-atout)."""
    if scaled_ta(rules, trump):
        return (CAPOT_POINTS, CARD_POINTS, SCALED_TA_CAPOT_POINTS, SCALED_TA_POINTS)
    return (CAPOT_POINTS, CARD_POINTS)


def is_decouverte(rules: Rules) -> bool:
    """Belote découverte (§12.2): no bidding, no taker; each seat counts its own points."""
    return Table.of(rules).mode is DealMode.DECOUVERTE


def partial_pack(rules: Rules) -> bool:
    """Whether part of the pack stays out (§12: ``six_each``, ``stock``), so that the
    trick total is the points of the cards played + 10, not 162."""
    return Table.of(rules).mode.leaves_cards_out


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def side_entry(rules: Rules, entry: HandEntry) -> HandEntry:
    """The two-sided entry of a hand at a table of three or two (the taker's side 0
    against the defenders 1, or N against E), as the engine scores a played hand
    (belote.hand.HandPlay.result); a team entry is its own."""
    if not entry.per_seat:
        return entry
    assert entry.taker is not None
    points = [0, 0]
    decl = [0, 0]
    bel = [0, 0]
    for seat in range(entry.players):
        side = entry.side_of(seat)
        points[side] += entry.trick_points[seat]
        decl[side] += entry.declarations[seat]
        bel[side] += entry.belote[seat]
    if entry.capot is not None:
        # a capot counts its fixed value, whatever was laid aside (§12.1 kitty)
        points = [0, 0]
        points[entry.capot] = seat_capot_total(rules, entry.trump, entry.in_play)
    return HandEntry(
        taker=entry.side_of(entry.taker), trick_points=(points[0], points[1]),
        capot=entry.capot, declarations=(decl[0], decl[1]), belote=(bel[0], bel[1]),
        trump=entry.trump, reserve=entry.reserve, in_play=entry.in_play,
    )
