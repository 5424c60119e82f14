"""A score sheet's values, its state and its export (docs/json.md, score sheets):
what :class:`belote.sheets.SheetStore` keeps, scores and writes out.  A sheet's hands
are scored by :func:`belote.scoring.score_game`; its rotation (five to seven players)
by :mod:`belote.rotation`."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, TypedDict, Unpack

from belote.errors import BeloteError, InvalidRecordError, Refusal
from belote.options import Limit, Rules, make_rules
from belote.rotation import Seating, cycle_ends, dealer_for, fair_cycle, individual_totals
from belote.scoring import (
    SEAT_LETTERS,
    Entry,
    GameScore,
    HandEntry,
    check_object,
    entry_to_json,
    parse_entry,
    reached,
    score_game,
    score_names,
)

EXPORT_FORMAT: Final = "belote-sheet"
EXPORT_VERSION: Final = 1
EXPORT_KEYS: Final = (
    "format", "version", "name", "profile", "options", "target", "team_names", "players",
    "player_names", "hands",
)
DEFAULT_TEAM_NAMES: Final = ("NS", "EW")
PLAYER_COUNTS: Final = (5, 6, 7)
SMALL_TABLES: Final = (3, 2)
# N-player sheets end on individual totals; their team slots never reach this.
_OPEN_TARGET: Final = 2**62


def csv_columns(players: int) -> tuple[str, ...]:
    """The CSV export's columns for a table of ``players`` (before an N-player
    sheet's seatings and players' totals): per team, or per seat (§12) with
    ``trick_total`` and ``leader`` in place of ``contract`` and ``multiplier``."""
    names = score_names(players)
    small = players != 4

    def per(field: str) -> list[str]:
        return [f"{field}_{name}" for name in names]

    return ("hand", "taker", *per("trick_points"), *(["trick_total"] if small else []),
            "capot", *per("declarations"), *per("belote"), *([] if small else ["contract"]),
            "trump", "leader" if small else "multiplier", "outcome", *per("score"),
            *per("total"), "reserve")


CSV_COLUMNS: Final = csv_columns(4)


class SheetError(BeloteError):
    """A sheet that does not exist or was deleted, an undo on an empty sheet, a
    database that cannot be opened or stays busy."""


class SheetNotFoundError(SheetError):
    """No sheet with this id (or it was deleted)."""


def no_such_sheet(sheet_id: int) -> SheetNotFoundError:
    """The refusal of a sheet that does not exist, or that its reader may not see (the
    web answers both alike)."""
    return SheetNotFoundError.refused(Refusal.NO_SUCH_SHEET, f"sheet {sheet_id}",
                                      sheet=sheet_id)


# --- values --------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetInfo:
    """What a sheet is, apart from its hands."""

    id: int
    name: str
    profile: str
    options: Mapping[str, Any]
    target: int
    team_names: tuple[str, str] = DEFAULT_TEAM_NAMES
    players: int | None = None
    player_names: tuple[str, ...] | None = None

    def rules(self) -> Rules:
        return make_rules(self.profile, dict(self.options))


@dataclass(frozen=True)
class Event:
    """One line of a sheet's history: ``kind`` is ``add``, ``undo`` or ``edit``;
    ``hand`` the hand number it concerns (added, removed or replaced);
    ``entry`` the HandEntry JSON it brings (None for an undo)."""

    seq: int
    kind: str
    hand: int
    entry: dict[str, Any] | None
    created: str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "hand": self.hand, "entry": self.entry,
                "created": self.created}


@dataclass(frozen=True)
class Rotation:
    """The seatings of an N-player sheet, hand by hand (docs/rules.md §13)."""

    seatings: tuple[Seating, ...]  # one per hand played, then the next hand's
    dealers: tuple[int, ...]  # same length
    totals: Mapping[int, int]  # individual totals after the hands played
    cycle_ends: tuple[int, ...]  # hand counts up to now that end a cycle
    finished_after: int | None
    player_winner: int | None


def replay_events(events: Sequence[Event], rules: Rules) -> list[Entry]:
    """The hands of a sheet: its events applied in order, each entry checked."""
    hands: list[Entry] = []
    for event in events:
        where = f"hand {event.hand}"
        if event.kind == "add":
            if event.hand != len(hands) + 1:
                raise SheetError(f"history event {event.seq}: adds hand {event.hand} "
                                 f"to a sheet of {len(hands)} hands")
            hands.append(parse_entry(event.entry, rules, where, allow_reserve=False))
        elif event.kind == "undo":
            if event.hand != len(hands):
                raise SheetError(f"history event {event.seq}: undoes hand {event.hand} "
                                 f"of a sheet of {len(hands)} hands")
            hands.pop()
        elif event.kind == "edit":
            if not 1 <= event.hand <= len(hands):
                raise SheetError(f"history event {event.seq}: edits hand {event.hand} "
                                 f"of a sheet of {len(hands)} hands")
            hands[event.hand - 1] = parse_entry(event.entry, rules, where, allow_reserve=False)
        else:
            raise SheetError(f"history event {event.seq}: unknown kind {event.kind!r}")
    return hands


def _rotation(info: SheetInfo, rules: Rules, game: GameScore, count: int) -> Rotation:
    """Seatings, dealers, individual totals and the end of an N-player sheet."""
    assert info.players is not None
    n = info.players
    cycle = fair_cycle(n)
    length = len(cycle)
    seatings = tuple(cycle[i % length] for i in range(count + 1))
    dealt = dict.fromkeys(range(1, n + 1), 0)
    dealers: list[int] = []
    for seating in seatings:
        dealer = dealer_for(seating, dealt)
        dealers.append(dealer)
        dealt[dealer] += 1
    scores = [(hand.score[0], hand.score[1]) for hand in game.hands]  # two teams (§13.1)
    ends = tuple(cycle_ends(n, count))
    finished_after: int | None = None
    player_winner: int | None = None
    for h in ends:
        totals = individual_totals(n, seatings[:h], scores[:h])
        if rules.limit is Limit.DEALS:
            over = h >= info.target
        else:
            over = any(reached(rules, t, info.target) for t in totals.values())
        best = max(totals.values())
        leaders = [p for p, t in totals.items() if t == best]
        if over and len(leaders) == 1:
            finished_after, player_winner = h, leaders[0]
            break
    if finished_after is not None and finished_after < count:
        raise InvalidRecordError(
            f"hand {finished_after + 1}: the game was already won by player "
            f"{player_winner} after hand {finished_after}")
    totals = individual_totals(n, seatings[:count], scores)
    return Rotation(seatings, tuple(dealers), totals, ends, finished_after, player_winner)


def _team_entries(entries: Sequence[Entry]) -> list[HandEntry]:
    return [e for e in entries if not e.per_seat]


def is_small(info: SheetInfo) -> bool:
    """A sheet of three or two players, scored per seat (docs/rules.md §12)."""
    return info.players in SMALL_TABLES


def score_sheet(info: SheetInfo, entries: Sequence[Entry]) -> dict[str, Any]:
    """The state of a sheet (docs/json.md): ``score game``'s output plus ``id``,
    ``name``, ``profile``, ``options``, ``target``, ``team_names`` and, for an
    N-player sheet, the players, seatings, standings and the next hand's seating;
    at a table of three or two the totals per seat, ``players`` and
    ``player_names`` (one per seat).

    Raises :class:`~belote.errors.InvalidRecordError` when a hand comes after
    the end of the game.
    """
    rules = info.rules()
    n = info.players
    rotation = n in PLAYER_COUNTS  # §13: the players' totals decide, not the teams'
    game = score_game(rules, entries, _OPEN_TARGET if rotation else info.target)
    state = _head(info)
    state.update(game.to_json())
    state["team_names"] = _team_names_json(info)
    state["players"] = n
    if is_small(info):
        state["player_names"] = list(info.player_names or SEAT_LETTERS[:rules.players])
    if n is None or not rotation:
        return state
    count = len(entries)
    rot = _rotation(info, rules, game, count)
    names = info.player_names or tuple(f"Player {p}" for p in range(1, n + 1))
    played = dict.fromkeys(range(1, n + 1), 0)
    for seating in rot.seatings[:count]:
        for team in seating.teams:
            for player in team:
                played[player] += 1
    state["finished"] = rot.finished_after is not None
    state["winner"] = None
    state["player_winner"] = rot.player_winner
    state["player_names"] = list(names)
    state["cycle_length"] = len(fair_cycle(n))
    state["cycle_ends"] = list(rot.cycle_ends)
    state["at_cycle_end"] = count in rot.cycle_ends or count == 0
    state["seatings"] = [
        _seating_json(rot.seatings[i], rot.dealers[i], i + 1) for i in range(count)
    ]
    state["next"] = None if state["finished"] else _seating_json(
        rot.seatings[count], rot.dealers[count], count + 1)
    state["standings"] = [
        {"player": p, "name": names[p - 1], "total": rot.totals.get(p, 0),
         "played": played[p], "sat_out": count - played[p]}
        for p in range(1, n + 1)
    ]
    return state


def _team_names_json(info: SheetInfo) -> dict[str, str] | None:
    """The teams' names; none at a table of three or two, where each seat scores (§12)."""
    if is_small(info):
        return None
    return {"NS": info.team_names[0], "EW": info.team_names[1]}


def _head(info: SheetInfo) -> dict[str, Any]:
    return {
        "id": info.id,
        "name": info.name,
        "profile": info.profile,
        "options": dict(info.options),
        "target": info.target,
    }


def _seating_json(seating: Seating, dealer: int, hand: int) -> dict[str, Any]:
    return {
        "hand": hand,
        "teams": [list(seating.teams[0]), list(seating.teams[1])],
        "out": list(seating.out),
        "dealer": dealer,
    }


# --- checks of what a sheet is made of -------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_names(value: Any, count: int, what: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise InvalidRecordError(f"{what}: {value!r} is not a list of names")
    names = tuple(v.strip() for v in value)
    if len(names) != count:
        raise InvalidRecordError.refused(Refusal.NAMES_COUNT, what, text=value, n=len(names),
                                         count=count)
    for name in names:
        if not name:
            raise InvalidRecordError.refused(Refusal.NAME_EMPTY, what, text=value)
    return names


class SheetFields(TypedDict, total=False):
    """What a new sheet is given beyond its rules (:func:`make_info` checks it):
    ``target`` (default the rules'), ``name``, ``team_names``, ``players`` (5, 6 or
    7 for a rotation sheet, §13) and ``player_names``."""

    target: int | None
    name: str | None
    team_names: Sequence[str] | str | None
    players: int | None
    player_names: Sequence[str] | str | None


def make_info(
    profile: str = "classic", options: Mapping[str, Any] | None = None, sheet_id: int = 0,
    **fields: Unpack[SheetFields],
) -> SheetInfo:
    """Check what a new sheet is made of (its id comes later)."""
    target, name = fields.get("target"), fields.get("name")
    team_names, players = fields.get("team_names"), fields.get("players")
    player_names = fields.get("player_names")
    opts = dict(options or {})
    rules = make_rules(profile, opts)
    if target is None:
        target = rules.target
    if not _is_int(target) or target <= 0:
        raise InvalidRecordError(f"target: {target!r} is not a positive whole number")
    if rules.players in SMALL_TABLES:
        return _small_info(rules, opts, target, name, team_names, players, player_names,
                           sheet_id)
    if players == 4:
        players = None
    if players is not None and (not _is_int(players) or players not in PLAYER_COUNTS):
        raise InvalidRecordError(
            f"players: {players!r} is not 5, 6 or 7 (docs/rules.md §13; 4 is an ordinary sheet)")
    if players is not None and team_names is not None:
        raise InvalidRecordError(
            f"team_names: {team_names!r}: with {players} players the teams change every "
            "hand (docs/rules.md §13); name the players instead")
    if players is None and player_names is not None:
        raise InvalidRecordError(
            f"player_names: {player_names!r}: only for sheets of 5, 6 or 7 players")
    teams = (DEFAULT_TEAM_NAMES if team_names is None
             else _check_names(team_names, 2, "team_names"))
    pnames = None if player_names is None or players is None else _check_names(
        player_names, players, "player_names")
    return SheetInfo(sheet_id, _sheet_name(name, profile), profile, opts, target,
                     (teams[0], teams[1]), players, pnames)


def _sheet_name(name: Any, profile: str) -> str:
    if name is not None and not isinstance(name, str):
        raise InvalidRecordError(f"name: {name!r} is not text")
    if name is None or not name.strip():
        name = f"{profile} {datetime.now(UTC).astimezone().strftime('%Y-%m-%d %H:%M')}"
    return str(name).strip()


def _small_info(
    rules: Rules, opts: dict[str, Any], target: int, name: str | None,
    team_names: Sequence[str] | str | None, players: int | None,
    player_names: Sequence[str] | str | None, sheet_id: int,
) -> SheetInfo:
    """A sheet of three or two players: each seat keeps its own total (§12)."""
    n = rules.players
    if players is not None and players != n:
        raise InvalidRecordError(
            f"players: {players!r}: profile {rules.profile} is played by {n} "
            "(docs/rules.md §12)")
    if team_names is not None:
        raise InvalidRecordError(
            f"team_names: {team_names!r}: at a table of {n} each seat scores for itself "
            "(docs/rules.md §12); name the players instead (N, E" + (", S)" if n == 3 else ")"))
    pnames = None if player_names is None else _check_names(
        player_names, n, "player_names")
    return SheetInfo(sheet_id, _sheet_name(name, rules.profile), rules.profile, opts, target,
                     DEFAULT_TEAM_NAMES, n, pnames)


def _entry_of(hand: Mapping[str, Any] | Entry, rules: Rules, number: int) -> Entry:
    obj: Any = entry_to_json(hand) if isinstance(hand, HandEntry) else hand
    return parse_entry(obj, rules, f"hand {number}", allow_reserve=False)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# --- export ------------------------------------------------------------------------------


def sheet_to_json(info: SheetInfo, entries: Sequence[Entry]) -> dict[str, Any]:
    """Everything needed to rebuild the sheet (:func:`sheet_from_json` reads it)."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "name": info.name,
        "profile": info.profile,
        "options": dict(info.options),
        "target": info.target,
        "team_names": _team_names_json(info),
        "players": info.players,
        "player_names": None if info.player_names is None else list(info.player_names),
        "hands": [entry_to_json(e) for e in entries],
    }


def sheet_from_json(obj: Any) -> tuple[SheetInfo, list[Entry]]:
    """A sheet exported by :func:`sheet_to_json` (or a ``score game`` input:
    ``profile``, ``options``, ``target``, ``hands``), every hand checked."""
    obj = check_object(obj, EXPORT_KEYS, "sheet")
    if obj.get("format", EXPORT_FORMAT) != EXPORT_FORMAT:
        raise InvalidRecordError(f"sheet: format: {obj['format']!r} is not {EXPORT_FORMAT!r}")
    if obj.get("version", EXPORT_VERSION) != EXPORT_VERSION:
        raise InvalidRecordError(
            f"sheet: version: {obj['version']!r} is not {EXPORT_VERSION} (this program "
            "reads version 1)")
    options = obj.get("options") or {}
    if not isinstance(options, dict):
        raise InvalidRecordError(f"sheet: options: {options!r} is not an object")
    name = obj.get("name")
    if name is not None and not isinstance(name, str):
        raise InvalidRecordError(f"sheet: name: {name!r} is not text")
    teams = obj.get("team_names")
    if isinstance(teams, dict):
        if set(teams) != {"NS", "EW"}:
            raise InvalidRecordError(f"sheet: team_names: {teams!r} is not {{NS, EW}}")
        teams = [teams["NS"], teams["EW"]]
    players = obj.get("players")
    if (players is not None and isinstance(teams, (list, tuple))
            and list(teams) == list(DEFAULT_TEAM_NAMES)):
        teams = None
    info = make_info(
        profile=obj.get("profile") or "classic", options=options, target=obj.get("target"),
        name=name, team_names=teams, players=players, player_names=obj.get("player_names"),
    )
    hands = obj.get("hands", [])
    if not isinstance(hands, list):
        raise InvalidRecordError(f"sheet: hands: {hands!r} is not a list of hand entries")
    rules = info.rules()
    entries = [_entry_of(h, rules, i) for i, h in enumerate(hands, start=1)]
    score_sheet(info, entries)  # a hand after the end of the game is refused
    return info, entries


def sheet_to_csv(info: SheetInfo, entries: Sequence[Entry]) -> str:
    """One row per hand: the entry, the outcome, each team's score, the running
    totals and the reserve; for an N-player sheet also the seating, the dealer
    and every player's running total.  At a table of three or two the same per
    seat (§12): ``taker`` is empty in découverte, ``trick_total`` follows the
    trick points and ``leader`` the trump, in place of ``contract`` and
    ``multiplier``."""
    state = score_sheet(info, entries)
    players = info.rules().players
    names = score_names(players)
    n = None if is_small(info) else info.players
    columns = list(csv_columns(players))
    if n is not None:
        columns[1:1] = ["team_NS", "team_EW", "out", "dealer"]
        columns += [f"player_{p}" for p in range(1, n + 1)]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for i, entry in enumerate(entries):
        j = entry_to_json(entry)
        hand = state["hands"][i]
        running = state["running"][i]
        decl, bel, total, contract, last = _csv_cells(entry, j)
        row: list[Any] = [
            i + 1, j["taker"] or "", *entry.trick_points, *total, j["capot"] or "", *decl,
            *bel, *contract, j.get("trump", ""), last, hand["outcome"],
            *(hand["score"][name] for name in names), *(running[name] for name in names),
            hand["reserve"],
        ]
        if n is not None:
            seat = state["seatings"][i]
            row[1:1] = [
                " ".join(map(str, seat["teams"][0])), " ".join(map(str, seat["teams"][1])),
                " ".join(map(str, seat["out"])), seat["dealer"],
            ]
            cycle = fair_cycle(n)
            seatings = [cycle[k % len(cycle)] for k in range(i + 1)]
            scores = [(h["score"]["NS"], h["score"]["EW"]) for h in state["hands"][: i + 1]]
            totals = individual_totals(n, seatings, scores)
            row += [totals.get(p, 0) for p in range(1, n + 1)]
        writer.writerow(row)
    return out.getvalue()


def _csv_cells(
    entry: Entry, j: Mapping[str, Any],
) -> tuple[Sequence[int], Sequence[int], list[Any], list[Any], Any]:
    """The cells of a hand that differ by table (:func:`csv_columns`): declarations,
    belote, the trick total, the contract, and the multiplier or the leader."""
    if entry.per_seat:
        return entry.declarations, entry.belote, [entry.in_play or ""], [], j.get("leader", "")
    return entry.declarations, entry.belote, [], [j.get("contract", "")], entry.multiplier
