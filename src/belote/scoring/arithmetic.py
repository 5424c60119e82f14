"""The score of one hand (docs/rules.md §8 classic and moroccan, §9 coinche and contrée,
§10 rounding, §12 three and two players), as a :class:`Breakdown`: the terms the rules
add and multiply, from which the score is summed.  A face that shows how a hand was
counted ("(160 + 100) × 2") prints the breakdown (:meth:`Breakdown.formula`); it never
counts a hand again.

>>> from belote.options import make_rules
>>> entry = HandEntry(taker=0, trick_points=(70, 92), declarations=(0, 20), belote=(20, 0))
>>> hand = score_valid_hand(make_rules("classic"), entry)
>>> hand.outcome, hand.score, hand.breakdown.formula(1)
(<Outcome.FAILED: 'failed'>, (20, 182), '162 + 20')
>>> coinched = HandEntry(taker=0, trick_points=(102, 60), contract=100, multiplier=2)
>>> score_valid_hand(make_rules("coinche"), coinched).breakdown.formula(0)
'(160 + 100) × 2'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from belote.options import (
    BeloteOnFailure,
    BidCapotScoring,
    CapotLoserDeclarations,
    CountMode,
    DoubleScope,
    Rounding,
    Rules,
    TakerDeclOnFailure,
    TieRule,
)
from belote.records import record_of
from belote.scoring.values import (
    CAPOT_CONTRACT_VALUE,
    COUNTED,
    DOUBLED_BASE,
    FLAT_CAPOT_VALUE,
    UNBID_CAPOT_BASE,
    Breakdown,
    HandEntry,
    HandScore,
    Outcome,
    Part,
    Term,
    multiplier_factor,
    round_points,
    scale_ta_points,
    scaled_ta,
    scored_totals,
)

# (Members read once where every deal reads them: a member read from its class is slow.)
_MADE, _FAILED, _NO_ROUNDING = Outcome.MADE, Outcome.FAILED, Rounding.NONE
_TIE_OUTCOME: Final = {TieRule.LITIGE: Outcome.LITIGE, TieRule.FAIL: Outcome.FAILED,
                       TieRule.MADE: Outcome.MADE}


# (the terms, in the order of their class)
_POINTS, _DECL, _BELOTE, _CONTRACT, _BASE, _FLAT, _RESERVE = tuple(Term)


_Parts = tuple[tuple[Part, ...], tuple[Part, ...]]
# A part and a breakdown are named tuples, made with tuple.__new__: a few every deal.
_new_tuple: Final = tuple.__new__


def _part(*terms: tuple[Term, int], factor: int = 1) -> Part:
    """A part of the terms given."""
    return _new_tuple(Part, (terms, factor))


def score_valid_hand(
    rules: Rules, entry: HandEntry, *, last_deal: bool = False, rounded: bool = True
) -> HandScore:
    """The score of a two-sided entry known to be valid, unchecked: one the engine made
    itself from a hand played under ``rules`` (:meth:`belote.hand.HandPlay.result`), or
    one :func:`belote.scoring.checks.check_entry` accepted.

    ``last_deal``: the last deal of a deal-limited game (a litige then gives each team
    its own points, §8.4).  ``rounded = False`` counts the trick points exactly (the
    final hand with ``round_final_hand = false``, §10).
    """
    capot = entry.capot
    if capot is not None:
        points = [0, 0]
        points[capot] = scored_totals(rules, entry)[1]
    elif scaled_ta(rules, entry.trump):
        points = [scale_ta_points(p) for p in entry.trick_points]
    else:
        points = list(entry.trick_points)
    decl = list(entry.declarations)
    if capot is not None:
        loser = 1 - capot
        moved, decl[loser] = decl[loser], 0
        if rules.capot_loser_declarations is CapotLoserDeclarations.KEPT:
            decl[loser] = moved
        elif rules.capot_loser_declarations is CapotLoserDeclarations.TO_CAPOT_TEAM:
            decl[capot] += moved
    belote = entry.belote
    totals = (points[0] + decl[0] + belote[0], points[1] + decl[1] + belote[1])
    rounding = rules.rounding if rounded else _NO_ROUNDING
    if rules.is_auction:
        outcome, parts, contract, m = _auction(rules, entry, points, decl, totals, rounding)
        reserve = 0
    else:
        outcome, parts, reserve = _classic(rules, entry, points, decl, totals, rounding,
                                           last_deal)
        contract, m = None, 1
    breakdown = _new_tuple(Breakdown, (
        outcome, (points[0], points[1]), (decl[0], decl[1]), (belote[0], belote[1]), totals,
        contract, m, rounding, parts, reserve))
    return record_of(HandScore, outcome=outcome, totals=totals, score=_score_of(parts),
                     reserve=reserve, breakdown=breakdown)


def _score_of(parts: _Parts) -> tuple[int, int]:
    """Each side's score: the sum of its parts (:attr:`Breakdown.score`)."""
    score = [0, 0]
    for side in (0, 1):
        for terms, factor in parts[side]:
            value = 0
            for _, v in terms:
                value += v
            score[side] += value * factor
    return (score[0], score[1])


def _sides(taker: int, taker_parts: tuple[Part, ...], defender_parts: tuple[Part, ...]
           ) -> _Parts:
    return (taker_parts, defender_parts) if taker == 0 else (defender_parts, taker_parts)


def _own(points: list[int], decl: list[int], belote: Sequence[int], rounding: Rounding,
         side: int, *extra: tuple[Term, int]) -> tuple[Part, ...]:
    """What ``side`` scores of its own: its trick points rounded (§10), its declarations
    and belote (and ``extra`` terms)."""
    return (_new_tuple(Part, (((_POINTS, round_points(points[side], rounding)),
                               (_DECL, decl[side]), (_BELOTE, belote[side]), *extra), 1)),)


def _classic(
    rules: Rules, entry: HandEntry, points: list[int], decl: list[int],
    totals: tuple[int, int], rounding: Rounding, last_deal: bool,
) -> tuple[Outcome, _Parts, int]:
    """§8: made if T_takers > T_def, failed if lower, equality by ``tie_rule``."""
    assert entry.taker is not None
    t, d = entry.taker, 1 - entry.taker
    belote = entry.belote
    if totals[t] > totals[d]:
        outcome = _MADE
    elif totals[t] < totals[d]:
        outcome = _FAILED
    else:
        outcome = _TIE_OUTCOME[rules.tie_rule]
    reserve = 0
    if outcome is _MADE:
        taker = _own(points, decl, belote, rounding, t, (_RESERVE, entry.reserve))
        defender = _own(points, decl, belote, rounding, d)
    elif outcome is _FAILED:
        card_total, capot_total = scored_totals(rules, entry)
        base = capot_total if entry.capot == d else card_total
        moved_decl = decl[t] if rules.taker_decl_on_failure is TakerDeclOnFailure.TRANSFER \
            else 0
        defenders_belote = rules.belote_on_failure is BeloteOnFailure.DEFENDERS
        defender = (_new_tuple(Part, (((_POINTS, round_points(base, rounding)), (_DECL, decl[d]),
                          (_BELOTE, belote[d]), (_DECL, moved_decl),
                          (_BELOTE, belote[t] if defenders_belote else 0),
                          (_RESERVE, entry.reserve)), 1)),)
        taker = (_new_tuple(Part, (((_BELOTE, 0 if defenders_belote else belote[t]),), 1)),)
    elif last_deal:
        # §8.4: a litige on the last deal of a deal-limited match: each team its own
        taker = _own(points, decl, belote, rounding, t)
        defender = _own(points, decl, belote, rounding, d)
    else:
        defender = _own(points, decl, belote, rounding, d)
        taker = (_new_tuple(Part, (((_BELOTE, belote[t]),), 1)),)
        reserve = entry.reserve + round_points(points[t], rounding) + decl[t]
    return outcome, ((taker, defender) if t == 0 else (defender, taker)), reserve


def _auction(
    rules: Rules, entry: HandEntry, points: list[int], decl: list[int],
    totals: tuple[int, int], rounding: Rounding,
) -> tuple[Outcome, _Parts, int | None, int]:
    """§9: made by the contract (§9.1), scored by ``count_mode`` (§9.2-9.4); the
    outcome, each side's parts, C and M.

    Readings of §9 where its text is short (each checked against the reference
    engine in tests/reference/auction.py):

    - ``fail_base`` is a fixed value, not rounded (the option exists to choose
      between 160 and the unrounded 162); the base of a coinched or surcoinched
      hand is 160, or 250 when the takers made an unbid capot; ``forfeit`` is
      160×M + C×M whatever the tricks.
    - ``made_only`` (§9.3): a failed or doubled hand gives the winner 160×M and no
      declarations; ``bid_only`` (§9.4): the winner scores C×M only, no belote, a
      capot contract counting C = 250.
    - Belote is never multiplied; a failed taker keeps his (``kept``) or it goes to
      the defenders (``defenders``), §7.8.
    """
    assert entry.taker is not None
    t, d = entry.taker, 1 - entry.taker
    belote = entry.belote
    contract = entry.contract
    m = multiplier_factor(rules, entry.multiplier)
    unbid_capot = isinstance(contract, int) and entry.capot == t
    if contract == "generale" and entry.generale_won is not None:
        made = entry.generale_won and entry.capot == t  # §4.8: the bidder alone
    elif contract in ("capot", "generale"):
        made = entry.capot == t
    else:
        assert isinstance(contract, int)
        threshold = max(contract, rules.min_80) if contract == 80 else contract
        counted = points[t] + belote[t] + (decl[t] if rules.decl_count_for_contract else 0)
        made = counted >= threshold and (not rules.beat_defence or totals[t] > totals[d])
    winner, loser = (t, d) if made else (d, t)
    own_belote = list(belote)
    if not made and rules.belote_on_failure is BeloteOnFailure.DEFENDERS:
        own_belote[d] += own_belote[t]
        own_belote[t] = 0
    outcome = _MADE if made else _FAILED
    c = contract if isinstance(contract, int) else CAPOT_CONTRACT_VALUE
    shown_c = c if contract != "generale" else None

    def to_winner(*won: Part) -> tuple[Outcome, _Parts, int | None, int]:
        """The winner scores ``won`` and his belote, the loser his own belote."""
        win = (*won, _part((_BELOTE, own_belote[winner])))
        lose = (_part((_BELOTE, own_belote[loser])),)
        return outcome, _sides(winner, win, lose), shown_c, m

    if rules.count_mode is CountMode.BID_ONLY:
        value = contract if isinstance(contract, int) else (
            CAPOT_CONTRACT_VALUE if contract == "capot" else rules.generale_value)
        return outcome, _sides(winner, (_part((_FLAT, value), factor=m),), ()), shown_c, m
    if contract == "generale" or (contract == "capot" and (
            rules.bid_capot_scoring is BidCapotScoring.FLAT
            or rules.count_mode is CountMode.MADE_ONLY)):
        if contract == "generale":
            value = rules.generale_value
        else:
            value = FLAT_CAPOT_VALUE if made else rules.capot_fail_value
        return to_winner(_part((_FLAT, value), factor=m))
    if rules.count_mode is CountMode.MADE_ONLY:
        if m == 1 and made:
            return (outcome, (_own(points, decl, belote, rounding, 0),
                              _own(points, decl, belote, rounding, 1)), shown_c, m)
        return to_winner(_part((_BASE, DOUBLED_BASE), factor=m))
    # made_plus_bid (§9.2)
    if m == 1:
        if made and unbid_capot:
            # §9.2: unbid_capot_points is a fixed value, never rounded (252 + 120 = 372).
            taker = (_part((_POINTS, rules.unbid_capot_points), (_DECL, decl[t]),
                           (_BELOTE, belote[t]), (_CONTRACT, c)),)
            defender = (_part((_DECL, decl[d]), (_BELOTE, belote[d])),)
            return outcome, _sides(t, taker, defender), shown_c, m
        if made:
            return (outcome, _sides(t, _own(points, decl, belote, rounding, t, (_CONTRACT, c)),
                                    _own(points, decl, belote, rounding, d)), shown_c, m)
        return to_winner(_part((_BASE, rules.fail_base), (_CONTRACT, c), (_DECL, decl[t]),
                               (_DECL, decl[d])))
    base = UNBID_CAPOT_BASE if (made and unbid_capot) else DOUBLED_BASE
    if rules.double_scope is DoubleScope.WHOLE:
        return to_winner(_part((_BASE, base), (_CONTRACT, c), (_DECL, decl[t]),
                               (_DECL, decl[d]), factor=m))
    if rules.double_scope is DoubleScope.CONTRACT_ONLY:
        return to_winner(_part((_BASE, base), (_DECL, decl[t]), (_DECL, decl[d])),
                         _part((_CONTRACT, c), factor=m))
    # forfeit: 320 (M=2) or 640 (M=4) + C×M
    return to_winner(_part((_BASE, DOUBLED_BASE), factor=m), _part((_CONTRACT, c), factor=m))


def score_counted(trick_points: Sequence[int], belote: Sequence[int]) -> HandScore:
    """Belote découverte (§12.2): no contract; each player scores his own trick points
    and belote (no declarations)."""
    totals = (trick_points[0] + belote[0], trick_points[1] + belote[1])
    parts = tuple((_part((_POINTS, trick_points[s]), (_BELOTE, belote[s])),) for s in (0, 1))
    breakdown = Breakdown(COUNTED, (trick_points[0], trick_points[1]), (0, 0),
                          (belote[0], belote[1]), totals, None, 1, _NO_ROUNDING,
                          (parts[0], parts[1]), 0)
    return HandScore(COUNTED, totals, totals, 0, breakdown=breakdown)


def seat_shares(
    rules: Rules, side_score: Sequence[int], taker: int, leader: int,
    trick_points: Sequence[int], belote: Sequence[int], trump: int | None,
) -> tuple[int, int, int]:
    """Each seat's score with three players (§12.1): the taker scores his side's
    score; each defender his own trick points and belote, the two sharing equally
    the rest of their side's score (declarations, a failed taker's points, a
    reserve), an odd point going to the first defender in play order from
    ``leader`` (who led the first trick).  In scaled tout-atout the defenders' own
    points are scaled like the side's (§5.4)."""
    defenders = [s for s in ((leader + i) % 3 for i in range(3)) if s != taker]
    own_points = list(trick_points)
    if scaled_ta(rules, trump):
        own_points = [scale_ta_points(p) for p in own_points]
    own = [own_points[s] + belote[s] for s in defenders]
    half, odd = divmod(side_score[1] - sum(own), 2)
    out = [0, 0, 0]
    out[taker] = side_score[0]
    out[defenders[0]] = own[0] + half + odd
    out[defenders[1]] = own[1] + half
    return (out[0], out[1], out[2])


def belote_scored(rules: Rules, entry: HandEntry, outcome: Outcome) -> tuple[int, int]:
    """The belote points each team adds with this hand's score (§7.8)."""
    if outcome is Outcome.VOID:
        return (0, 0)
    if outcome is Outcome.FAILED and rules.belote_on_failure is BeloteOnFailure.DEFENDERS:
        assert entry.taker is not None
        bel = [0, 0]
        bel[1 - entry.taker] = entry.belote[0] + entry.belote[1]
        return (bel[0], bel[1])
    return (entry.belote[0], entry.belote[1])
