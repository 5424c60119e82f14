"""A hand scored at every table, and a whole game (docs/rules.md §11, §12).

:func:`score_hand` checks an entry and scores it: per team with four players, at a
table of three or two by the hand's two sides (the taker against the others, or seat
against seat) shared out per seat (§12.1).  A game is kept by one :class:`GameTally`
at every table; the end of the game (§11) is decided by :func:`game_status`, where the
few rules that differ by table are written once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Final

from belote.errors import InvalidRecordError, Refusal
from belote.options import BothCross, Limit, NoWinOnBelote, ReachRule, Rounding, Rules
from belote.scoring.arithmetic import belote_scored, score_counted, score_valid_hand, seat_shares
from belote.scoring.checks import check_entry
from belote.scoring.codec import (
    GAME_KEYS,
    check_object,
    parse_entry,
    rules_of,
    table_rules_of,
    two_team_rules,
)
from belote.scoring.values import (
    GameScore,
    HandEntry,
    HandScore,
    Outcome,
    is_int,
    score_names,
    side_entry,
    void_hand,
)
from belote.table import Table

_DEALS: Final = Limit.DEALS

#: a hand of a game: two teams (four players), or per seat at a table of three or two
Entry = HandEntry


def score_hand(
    rules: Rules, entry: HandEntry, *, last_deal: bool = False, rounded: bool = True,
    where: str = "hand",
) -> HandScore:
    """The score of one hand under ``rules`` (§8 classic and moroccan, §9 coinche and
    contrée, §10 rounding), at any table: per team, or per seat at a table of three or
    two (§12) as the engine scores the same hand played (belote.hand.HandPlay.result).

    ``last_deal``: the last deal of a deal-limited game (a litige then gives each team
    its own points, §8.4).  ``rounded = False`` counts the trick points exactly (the
    final hand with ``round_final_hand = false``, §10).  The entry is checked first
    (:func:`belote.scoring.checks.check_entry`).
    """
    check_entry(rules, entry, where)
    if not entry.per_seat:
        return score_valid_hand(rules, entry, last_deal=last_deal, rounded=rounded)
    n = entry.players
    if entry.taker is None:  # belote découverte: each scores his own (§12.2)
        hand = score_counted(entry.trick_points, entry.belote)
    else:
        hand = score_valid_hand(rules, side_entry(rules, entry), last_deal=last_deal,
                                rounded=rounded)
    seats = hand.score
    if n == 3:
        assert entry.taker is not None
        seats = seat_shares(rules, hand.score, entry.taker, entry.first_leader(),
                            entry.trick_points, entry.belote, entry.trump)
    return HandScore(hand.outcome, hand.totals, seats, hand.reserve, n, hand.breakdown)


def score_entry(
    rules: Rules, entry: Entry, *, last_deal: bool = False, rounded: bool = True,
    where: str = "hand",
) -> HandScore:
    """One hand of a game: :func:`score_hand`, a team entry only under four-player
    rules."""
    if not entry.per_seat:
        two_team_rules(rules)
    return score_hand(rules, entry, last_deal=last_deal, rounded=rounded, where=where)


def parse_hand_input(obj: Any) -> tuple[Rules, HandEntry]:
    """The ``score hand`` input of four players: a HandEntry with its own ``profile``
    and ``options``."""
    if not isinstance(obj, dict):
        raise InvalidRecordError(f"hand: expected a JSON object, got {type(obj).__name__}")
    rules = rules_of(obj)
    return rules, parse_entry(obj, rules)


def score_hand_json(obj: Any) -> dict[str, Any]:
    """``belote score hand --json``: the HandScore of a HandEntry object (per seat at a
    table of three or two)."""
    if not isinstance(obj, dict):
        raise InvalidRecordError(f"hand: expected a JSON object, got {type(obj).__name__}")
    rules = table_rules_of(obj)
    return score_hand(rules, parse_entry(obj, rules)).to_json()


def reached(rules: Rules, total: int, target: int) -> bool:
    """Whether ``total`` reaches ``target`` under ``reach_rule`` (§11.2)."""
    if rules.reach_rule is ReachRule.STRICTLY_EXCEED:
        return total > target
    return total >= target


def game_status(
    rules: Rules,
    totals: Sequence[int],
    target: int,
    entry: Entry | None = None,
    hand: HandScore | None = None,
    deals_played: int = 0,
) -> tuple[bool, int | None]:
    """(finished, winner) after a hand that brought the game to ``totals`` (§11): the
    winning team, or at a table of three or two the winning seat (§12).

    ``entry`` and ``hand`` are the last hand (for ``both_cross =
    taker_must_make`` and ``no_win_on_belote``); ``deals_played`` counts the
    deals played, all-pass ones left out (for ``limit = "deals"``).  A finished
    game without a winner is a draw.  The columns at the target (every one once
    the deals are played) are the candidates; the highest total among them wins,
    equal highest totals play on (``draw``: the game ends without a winner).
    """
    return _game_end(rules, not Table.of(rules).scores_per_seat, totals, target, entry, hand,
                     deals_played)


def _game_end(
    rules: Rules, teams: bool, totals: Sequence[int], target: int, entry: Entry | None,
    hand: HandScore | None, deals_played: int,
) -> tuple[bool, int | None]:
    """:func:`game_status`, told whether the score is the two teams' (``teams``)."""
    columns = range(len(totals))
    if rules.limit is _DEALS:
        # §11.1: after the last deal the higher total wins
        if deals_played < target:
            return False, None
        candidates = list(columns)
        if teams:
            return _highest(rules, totals, candidates)
    else:
        candidates = [c for c in columns if reached(rules, totals[c], target)]
        if teams and entry is not None and hand is not None:
            # §11.4 no win on belote alone: four players only
            candidates = [c for c in candidates
                          if not _held_by_belote(rules, totals, target, entry, hand, c)]
        if teams and len(candidates) > 1 and rules.both_cross is BothCross.DRAW:
            return True, None  # §11.3 draw: both teams over on one hand
    # §11.3 taker_must_make: takers who did not make the last hand do not win on it
    # (per seat also after the last deal of a deal-limited game)
    if (rules.both_cross is BothCross.TAKER_MUST_MAKE and entry is not None and hand is not None
            and hand.outcome is not Outcome.MADE and len(candidates) > 1
            and entry.taker in candidates):
        candidates.remove(entry.taker)
    return _highest(rules, totals, candidates)


def _held_by_belote(
    rules: Rules, totals: Sequence[int], target: int, entry: Entry, hand: HandScore,
    team: int,
) -> bool:
    """§11.4: ``team`` reaches the target only thanks to this hand's belote, after a
    capot against it (or, with ``capot_or_failed``, as failed takers)."""
    if rules.no_win_on_belote is NoWinOnBelote.OFF or entry.per_seat:
        return False
    credit = belote_scored(rules, entry, hand.outcome)[team]
    capoted = entry.capot == 1 - team
    failed = (rules.no_win_on_belote is NoWinOnBelote.CAPOT_OR_FAILED
              and team == entry.taker and hand.outcome is Outcome.FAILED)
    return ((capoted or failed) and credit > 0
            and not reached(rules, totals[team] - credit, target))


def _highest(
    rules: Rules, totals: Sequence[int], candidates: Sequence[int],
) -> tuple[bool, int | None]:
    """The candidate with the highest total wins; equal highest totals play on, or
    with ``both_cross = "draw"`` end the game drawn (§11.3)."""
    if not candidates:
        return False, None
    best = max(totals[c] for c in candidates)
    leaders = [c for c in candidates if totals[c] == best]
    if len(leaders) == 1:
        return True, leaders[0]
    if rules.both_cross is BothCross.DRAW:
        return True, None
    return False, None


class GameTally:
    """A game scored one hand at a time (score sheets, the calculator, belote.game),
    at any table: per team with four players, per seat with three or two (§12).

    >>> from belote.options import make_rules
    >>> from belote.scoring.values import SeatEntry
    >>> tally = GameTally(make_rules("classic"), target=150)
    >>> tally.add(HandEntry(taker=0, trick_points=(92, 70))).score
    (92, 70)
    >>> tally.add(HandEntry(taker=1, trick_points=(40, 122))).score
    (40, 122)
    >>> tally.finished, tally.winner, tally.totals
    (True, 1, (132, 192))
    >>> tally = GameTally(make_rules("classic-3p"), target=150)
    >>> tally.add(SeatEntry(3, 0, (92, 40, 30))).score
    (92, 40, 30)
    >>> tally.add(SeatEntry(3, 1, (10, 40, 112))).score  # E fails: N and S share 40
    (30, 0, 132)
    >>> tally.finished, tally.winner, tally.totals
    (True, 2, (122, 40, 162))
    """

    def __init__(self, rules: Rules, target: int | None = None) -> None:
        if target is None:
            target = rules.target
        if not is_int(target) or target <= 0:
            raise InvalidRecordError(f"target: {target!r} is not a positive whole number")
        self.rules = rules
        self.table = Table.of(rules)
        self._teams = not self.table.scores_per_seat
        self.target = target
        self.players = rules.players
        self.hands: list[HandScore] = []
        self.entries: list[Entry | None] = []
        self.running: list[tuple[int, ...]] = []
        self.totals: tuple[int, ...] = (0,) * len(score_names(rules.players))
        self.reserve = 0
        self.deals_played = 0
        self.finished = False
        self.winner: int | None = None
        self.ended_after = 0

    def _refuse_when_over(self) -> None:
        if self.finished:
            number = len(self.hands) + 1
            refusal = (Refusal.GAME_ALREADY_WON if self.winner is not None
                       else Refusal.GAME_ALREADY_DRAWN)
            raise InvalidRecordError.refused(refusal, f"hand {number}", hand=self.ended_after)

    def add(self, entry: Entry) -> HandScore:
        """Score the next hand (its reserve is the one the game carries) and record it."""
        self._refuse_when_over()
        number = len(self.hands) + 1
        where = f"hand {number}"
        if entry.reserve not in (0, self.reserve):
            raise InvalidRecordError(
                f"{where}: reserve: {entry.reserve!r} is not the reserve the game carries "
                f"({self.reserve})")
        # §12.2: belote découverte (no taker) carries no reserve
        entry = dataclasses.replace(entry, reserve=0 if entry.taker is None else self.reserve)
        deals = self.deals_played + 1
        # The team game (§11.1) drops the reserve of a litige on the last deal of a
        # deal-limited game and (§10 round_final_hand = false) counts the hand that
        # ends the game exactly; the per-seat game (§12) scores every hand as played.
        teams = self._teams
        last_deal = teams and self.rules.limit is _DEALS and deals >= self.target
        hand = score_entry(self.rules, entry, last_deal=last_deal, where=where)
        finished, winner = self._status(entry, hand, deals)
        if teams and self.rules.rounding is not Rounding.NONE and not self.rules.round_final_hand:
            exact = score_entry(self.rules, entry, last_deal=last_deal, rounded=False,
                                where=where)
            exact_status = self._status(entry, exact, deals)
            if finished or exact_status[0]:
                hand, (finished, winner) = exact, exact_status
        self.deals_played = deals
        self._record(entry, hand)
        self.finished, self.winner = finished, winner
        if finished:
            self.ended_after = number
            self.reserve = 0  # §8.4: a reserve open at the end is discarded
        return hand

    def add_all_pass(self) -> HandScore:
        """An all-pass deal (§2.4): nothing scored, not counted in a deal limit."""
        self._refuse_when_over()
        hand = void_hand(self.reserve)
        self._record(None, hand)
        return hand

    def _status(self, entry: Entry, hand: HandScore, deals: int) -> tuple[bool, int | None]:
        totals = tuple(t + s for t, s in zip(self.totals, hand.score, strict=True))
        return _game_end(self.rules, self._teams, totals, self.target, entry, hand, deals)

    def _record(self, entry: Entry | None, hand: HandScore) -> None:
        self.entries.append(entry)
        self.hands.append(hand)
        self.totals = tuple(t + s for t, s in zip(self.totals, hand.score, strict=True))
        self.running.append(self.totals)
        self.reserve = hand.reserve

    def result(self) -> GameScore:
        return GameScore(
            hands=tuple(self.hands), running=tuple(self.running), totals=self.totals,
            reserve=self.reserve, finished=self.finished, winner=self.winner,
            players=self.players,
        )


def score_game(
    rules: Rules, entries: Sequence[Entry], target: int | None = None,
) -> GameScore:
    """Score a score sheet: every hand in order, the reserve carried from hand to
    hand, the end of the game checked after each (§11).  A hand after the end
    raises ``InvalidRecordError("hand 7: the game was already won after hand 6")``.
    """
    tally = GameTally(rules, target)
    for entry in entries:
        tally.add(entry)
    return tally.result()


def parse_game(obj: Any) -> tuple[Rules, list[Entry], int | None]:
    """The ``score game`` input: ``{"profile", "options", "target", "hands"}``; the
    hands are per seat at a table of three or two."""
    obj = check_object(obj, GAME_KEYS, "game")
    rules = table_rules_of(obj)
    target = obj.get("target")
    if target is not None and (not is_int(target) or target <= 0):
        raise InvalidRecordError(f"game: target: {target!r} is not a positive whole number")
    hands = obj.get("hands")
    if not isinstance(hands, list):
        raise InvalidRecordError(f"game: hands: {hands!r} is not a list of hand entries")
    entries = [parse_entry(_game_hand(hand, number), rules, f"hand {number}",
                           allow_reserve=False)
               for number, hand in enumerate(hands, start=1)]
    return rules, entries, target


def _game_hand(hand: Any, number: int) -> Any:
    """A hand of a game object: its ``profile`` and ``options`` belong at the top."""
    if isinstance(hand, dict):
        for key in ("profile", "options"):
            if key in hand:
                raise InvalidRecordError(
                    f"hand {number}: {key!r} belongs at the top level of the game")
    return hand


def score_game_json(obj: Any) -> dict[str, Any]:
    """``belote score game --json``: the GameScore of a game object (per seat at a
    table of three or two)."""
    rules, entries, target = parse_game(obj)
    return score_game(rules, entries, target).to_json()
