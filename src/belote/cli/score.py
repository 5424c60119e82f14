"""`belote score`: the score calculator (docs/rules.md §8-§11).

* ``belote score hand --json`` and ``belote score game --json`` (with ``--file``,
  ``--jsonl``) answer as docs/json.md says.
* ``belote score`` (and ``belote score hand`` without ``--json``) is an
  interactive calculator for a person: each hand it asks who took, the
  contract and coinche level where the profile has them, one team's trick
  points (the other's are worked out), a capot, the validated declarations and
  belote-rebelote; it shows the hand's score, the running totals, the reserve,
  and goes on until the game is won or the user answers ``q``.  An impossible
  answer is refused with the reason and asked again.  At three and two players
  (``classic-3p``, ``classic-2p``, docs/rules.md §12) it asks per seat: who took
  (nobody in découverte), a capot, each seat's trick points (the last worked
  out where the whole pack is played), declarations per seat compared side
  against side, belote, and who led the first trick when that decides an odd
  point of the defenders' shares; each seat keeps its own total.
* ``belote score game`` without ``--json`` shows a score sheet as a table.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from belote.cards import ALL_TRUMP, NO_TRUMP, TRUMP_MODE_NAMES
from belote.cli.common import (
    check_int,
    fail,
    fail_interrupted,
    plural,
    read_object,
    rules_flags,
    run_json,
    targets_text,
)
from belote.cli.flags import FileOpt, JsonlOpt, JsonOpt, OptionOpt
from belote.cli.questions import (
    Best,
    _ask_until,
    _compare_declarations,
    _Quit,
    _read_contract,
    _read_level,
    _read_number,
    _read_ta_belote,
    _read_team,
    _read_trump,
    _Undo,
    parse_declarations,
)
from belote.cli.typerapp import sub_app
from belote.errors import BeloteError
from belote.options import DeclTie, Limit, Rules, make_rules, parse_option_assignment
from belote.scoring import (
    EW,
    NS,
    SEAT_LETTERS,
    SIDE_NAMES_3P,
    TEAM_NAMES,
    GameScore,
    entry_to_json,
    is_decouverte,
    parse_game,
    parse_seat_entry,
    partial_pack,
    score_game,
    score_game_json,
    score_hand_json,
    score_names,
    score_seat_hand,
    seat_capot_total,
    trick_total,
)
from belote.sheets import SheetStore
from belote.table import DealMode
from belote.table import Table as GameTable

T = TypeVar("T")

MAX_TARGET = 1_000_000

ProfileOpt = Annotated[
    str | None, typer.Option("--profile", metavar="NAME",
        help="classic (default), moroccan, coinche, contree; classic-3p or classic-2p, each "
             "seat scoring its own total. With --json: the profile of an input that names "
             "none.")
]
SheetOpt = Annotated[
    str | None,
    typer.Option("--sheet", metavar="NAME",
                 help="Write each hand to the score sheet NAME as it is entered (created if "
                 "new, resumed if it exists; see `belote sheet`)."),
]
NoSheetOpt = Annotated[
    bool,
    typer.Option("--no-sheet",
                 help="Keep nothing: the hands are lost when the calculator stops (without "
                 "it, and without --sheet, every hand is kept on a new sheet named "
                 "'calculator' and the date and time)."),
]
DbOpt = Annotated[
    Path | None,
    typer.Option("--db", metavar="PATH", envvar="BELOTE_DB", show_envvar=True,
                 help="The sheets database where the calculator keeps the hands (default: "
                 "~/.local/share/belote/sheets.db)."),
]
TargetOpt = Annotated[
    int | None, typer.Option("--target", metavar="N",
                             help="Points to reach (or deals to play); customary: "
                             f"{targets_text()}.")
]

OUTCOME_WORDS = {
    "made": "made", "failed": "failed (dedans)", "litige": "litige (tie)",
    "void": "all passed", "counted": "counted (each his own)",
}


def _ask_hand(console: Console, rules: Rules, number: int,
              undo: bool = False, reserve: int = 0) -> dict[str, Any] | None:
    """The questions of one hand; None for an all-pass deal.

    ``u`` at the first question raises :class:`_Undo` when ``undo`` (there is a
    hand to undo); at a later question it starts this hand again.  At a table of
    three or two the questions are per seat (``reserve``: the one carried in, which
    may decide an odd point of the defenders' shares).
    """
    while True:
        started = [False]
        try:
            if rules.players != 4:
                return _ask_seat_hand_once(console, rules, number, undo, started, reserve)
            return _ask_hand_once(console, rules, number, undo, started)
        except _Undo:
            if not started[0]:
                if undo:
                    raise
                console.print("[red]refused:[/red] no hand to undo yet")
            else:
                console.print(f"Hand {number} again from the start.")


def ask_hand(console: Console, rules: Rules, number: int,
             reserve: int = 0) -> dict[str, Any] | str | None:
    """The calculator's questions for one hand (`belote sheet add` on a terminal):
    the HandEntry, ``"pass"`` for an all-pass deal, None when the user quits."""
    try:
        hand = _ask_hand(console, rules, number, reserve=reserve)
    except (_Quit, _Undo):
        return None
    return "pass" if hand is None else hand


def _ask_taker(console: Console, number: int, names: tuple[str, ...],
               read: Callable[[str], int | None], undo: bool, started: list[bool]) -> int | None:
    """Who took (a team or a seat of ``names``, read by ``read``); None when all passed."""
    answer = _ask_until(
        console, f"Hand {number}: who took? ({', '.join(names)}; pass = all passed; "
                 + ("u = undo the last hand; " if undo else "") + "q = quit)",
        lambda a: "pass" if a.lower() in ("pass", "p") else read(a),
    )
    started[0] = True
    if answer == "pass":
        return None
    assert isinstance(answer, int)
    return answer


def _ask_trump(console: Console, obj: dict[str, Any], offered: bool) -> int | None:
    """The trump mode when SA and TA are offered (§3.5, §4.2); None: a suit."""
    if not offered:
        return None
    trump = _ask_until(console, "Trump (S, H, D, C, SA, TA; Enter = a suit)", _read_trump, "")
    if trump is not None:
        obj["trump"] = TRUMP_MODE_NAMES[trump]
    return trump


def _ask_hand_once(console: Console, rules: Rules, number: int, undo: bool,
                   started: list[bool]) -> dict[str, Any] | None:
    taker = _ask_taker(console, number, TEAM_NAMES,
                       lambda a: _read_team(a, allow_none=False), undo, started)
    if taker is None:
        return None
    obj: dict[str, Any] = {"taker": TEAM_NAMES[taker]}
    if rules.is_auction:
        top = "" if rules.max_bid is None else str(rules.max_bid)
        extra = ", generale" if rules.generale else ""
        contract = _ask_until(console, f"Contract (80..{top}, capot{extra})",
                              lambda a: _read_contract(a, rules))
        obj["contract"] = contract
        if contract != "capot" or rules.capot_doublable:
            obj["multiplier"] = _ask_until(
                console, "Coinche? (none, coinche, surcoinche)", _read_level, "none")
    trump = _ask_trump(console, obj, rules.sa_ta if rules.is_auction else rules.sa_ta_in_classic)
    total = trick_total(rules, trump)
    taker_name, other_name = TEAM_NAMES[taker], TEAM_NAMES[1 - taker]
    taker_points = _ask_until(
        console, f"Trick points of {taker_name} (takers), last trick included "
                 f"(0..{total}; {other_name} get the rest)",
        lambda a: _read_number(a, 0, total, f"the two teams' trick points add to {total}"),
    )
    pair = [0, 0]
    pair[taker], pair[1 - taker] = taker_points, total - taker_points
    points = (pair[NS], pair[EW])
    console.print(f"  NS {points[NS]}, EW {points[EW]}")

    def read_capot(answer: str) -> int | None:
        team = _read_team(answer)
        if team is not None and points[1 - team] > 0:
            other = TEAM_NAMES[1 - team]
            raise ValueError(f"a capot by {TEAM_NAMES[team]} leaves {other} no trick, "
                             f"but {other} has {points[1 - team]} trick points")
        return team

    capot = _ask_until(console, "Capot: did a team take all 8 tricks? (no, NS, EW)",
                       read_capot, "no")
    if capot is None:
        obj["trick_points"] = {taker_name: taker_points}
    else:
        obj["capot"] = TEAM_NAMES[capot]
    if rules.declarations:
        while True:
            given = [
                _ask_until(console, f"Declarations of {name}: names or points "
                           "(tierce, quarte, quinte, carre, carre9, carreJ; tierce+carre)",
                           lambda answer: parse_declarations(answer, rules), "0")
                for name in TEAM_NAMES
            ]
            decl = [given[NS][0], given[EW][0]]
            if decl[NS] and decl[EW]:
                winner = _compare_declarations(console, given, rules)
                if winner is None:
                    console.print(
                        "[red]refused:[/red] both teams have declaration points: only the "
                        "team that wins the comparison scores its declarations (§7.6); "
                        "give them by name to have them compared")
                    continue
                if winner < 0:
                    decl = [0, 0]
                else:
                    decl[1 - winner] = 0
            break
        obj["declarations"] = {"NS": decl[NS], "EW": decl[EW]}
    _ask_belote(console, obj, trump, TEAM_NAMES, _read_team)
    return obj


def _ask_belote(console: Console, obj: dict[str, Any], trump: int | None,
                names: tuple[str, ...], read: Callable[[str], int | None]) -> None:
    """§7.7 belote: in tout-atout the points of each team or seat (``names``), in a
    suit who announced it (``read`` reads a name), in sans-atout nothing."""
    if trump == ALL_TRUMP:
        obj["belote"] = {
            name: _ask_until(console, f"Belote points of {name} (0, 20, 40, ...)",
                             _read_ta_belote, "0")
            for name in names
        }
    elif trump != NO_TRUMP:
        belote = _ask_until(console, f"Belote-rebelote announced by (no, {', '.join(names)})",
                            read, "no")
        if belote is not None:
            obj["belote"] = names[belote]


# --- three and two players: questions per seat (docs/rules.md §12) ----------------------


def _read_seat(answer: str, seats: tuple[str, ...], allow_none: bool = True) -> int | None:
    word = answer.strip().upper()
    if word in seats:
        return seats.index(word)
    if allow_none and word in ("", "NO", "NONE", "-", "0"):
        return None
    raise ValueError(f"{answer!r}: answer {', '.join(seats)}" + (" (or no)" if allow_none else ""))


def _read_capot(answer: str, players: int) -> str | None:
    word = answer.strip().lower()
    if word in ("", "no", "none", "-", "0"):
        return None
    if players == 3:
        if word in ("taker", "t"):
            return "taker"
        if word in ("defenders", "d", "defence", "defense"):
            return "defenders"
        raise ValueError(f"{answer!r}: answer no, taker or defenders")
    if word.upper() in SEAT_LETTERS[:2]:
        return word.upper()
    raise ValueError(f"{answer!r}: answer no, N or E")


def _ask_seat_hand_once(console: Console, rules: Rules, number: int, undo: bool,
                        started: list[bool], reserve: int) -> dict[str, Any] | None:
    """One hand at a table of three or two: who took (nobody in découverte), a capot,
    each seat's trick points (the last worked out where the whole pack is played),
    the declarations per seat compared side against side, belote, and who led the
    first trick when it decides an odd point of the defenders' shares."""
    n = rules.players
    seats = SEAT_LETTERS[:n]
    obj: dict[str, Any] = {}
    taker: int | None = None
    if not is_decouverte(rules):
        taker = _ask_taker(console, number, seats,
                           lambda a: _read_seat(a, seats, allow_none=False), undo, started)
        if taker is None:
            return None
        obj["taker"] = seats[taker]
    else:
        quit_help = ("u = undo the last hand; " if undo else "") + "q = quit"
        console.print(f"Hand {number} (découverte: each seat counts its own; {quit_help} "
                      "at the first question)")
    trump = _ask_trump(console, obj, rules.sa_ta_in_classic and not is_decouverte(rules))
    capot_text = "(no, taker, defenders)" if n == 3 else "(no, N, E)"
    capot = _ask_until(console, f"Capot: did one side take every trick? {capot_text}",
                       lambda a: _read_capot(a, n), "no")
    started[0] = True
    if capot is not None:
        obj["capot"] = capot
    obj["trick_points"] = _ask_seat_points(console, rules, seats, taker, capot, trump)
    if partial_pack(rules) and capot is None:
        obj["trick_total"] = sum(obj["trick_points"].values())
    elif partial_pack(rules):
        obj["trick_total"] = sum(obj["trick_points"].values()) - 90
    if rules.declarations and not is_decouverte(rules):
        obj["declarations"] = _ask_seat_declarations(console, rules, seats, taker)
    _ask_belote(console, obj, trump, seats, lambda a: _read_seat(a, seats))
    if n == 3 and taker is not None:
        _ask_leader_if_it_matters(console, rules, obj, reserve)
    return obj


def _ask_seat_points(console: Console, rules: Rules, seats: tuple[str, ...],
                     taker: int | None, capot: str | None, trump: int | None) -> dict[str, int]:
    """Each seat's trick points, as the engine counts them (the taker's with the
    kitty's discards); the last seat worked out where it can be."""
    n = len(seats)
    kitty = GameTable.of(rules).mode is DealMode.KITTY
    total: int | None = None  # what the seats asked add to, when it is known
    if capot is None:
        # the taker first, then the others in play order
        start = 0 if taker is None else taker
        winners = [(start + i) % n for i in range(n)]
        if not partial_pack(rules):
            total = trick_total(rules, trump)
    else:
        if n == 2:
            winners = [seats.index(capot)]
        else:
            assert taker is not None
            winners = ([taker] if capot == "taker"
                       else [(taker + 1) % 3, (taker + 2) % 3])
        # with a partial pack the capot counts the cards played + 100; after a capot
        # against the kitty's taker his discards are lost: each defender's own points
        if not partial_pack(rules) and not (kitty and len(winners) == 2):
            total = seat_capot_total(rules, trump, None)
    top = seat_capot_total(rules, trump, None) if total is None else total
    points = dict.fromkeys(seats, 0)
    last = winners[-1]
    if total is not None and len(winners) == 1:
        points[seats[last]] = total
        console.print(f"  {seats[last]} {total}")
        return points
    for seat in winners:
        role = " (taker)" if seat == taker else ""
        if total is not None and seat == last:
            rest = total - sum(points.values())
            console.print(f"  {seats[seat]}{role} {rest} (the rest)")
            points[seats[seat]] = rest
            break
        left = top if total is None else total - sum(points.values())
        hint = "last trick included" + (
            "; with the 2 cards laid aside" if kitty and seat == taker else "")
        points[seats[seat]] = _ask_until(
            console, f"Trick points of {seats[seat]}{role}, {hint} (0..{left})",
            _points_reader(left))
    return points


def _points_reader(top: int) -> Callable[[str], int]:
    return lambda answer: _read_number(answer, 0, top, "more than the trick total")


def _ask_seat_declarations(console: Console, rules: Rules, seats: tuple[str, ...],
                           taker: int | None) -> dict[str, int]:
    """Declarations per seat, by name or points; when the taker's side and the other
    side both declared, the best of each is compared (§7.5) and only the winner's
    side scores (§7.6)."""
    n = len(seats)

    def side(seat: int) -> int:
        return seat if n == 2 else (0 if seat == taker else 1)

    names = ("taker", "defenders") if n == 3 else seats
    while True:
        given = [
            _ask_until(console, f"Declarations of {seats[s]}: names or points "
                       "(tierce, quarte, quinte, carre, carre9, carreJ; tierce+carre)",
                       lambda answer: parse_declarations(answer, rules), "0")
            for s in range(n)
        ]
        by_side: list[list[tuple[int, Best | None]]] = [[], []]
        for s in range(n):
            if given[s][0]:
                by_side[side(s)].append(given[s])
        if not by_side[0] or not by_side[1]:
            break
        if any(best is None for _, best in by_side[0] + by_side[1]):
            console.print("[red]refused:[/red] both sides have declaration points: only the "
                          "side that wins the comparison scores (§7.6); give them by name to "
                          "have them compared")
            continue
        best = [max((b for _, b in by_side[k] if b is not None), key=lambda b: b[:2])
                for k in (0, 1)]
        winner = _compare_sides(console, rules, best, names)
        for s in range(n):
            if winner is None or side(s) != winner:
                given[s] = (0, None)
        break
    return {seats[s]: given[s][0] for s in range(n)}


def _compare_sides(console: Console, rules: Rules, best: list[Best],
                   names: tuple[str, ...]) -> int | None:
    """The side whose best declaration wins (§7.5), asked when that does not decide;
    None when neither scores."""
    if best[0][:2] != best[1][:2]:
        higher = 0 if best[0][:2] > best[1][:2] else 1
        console.print(f"  {names[higher]}: {best[higher][2]} beats {names[1 - higher]}: "
                      f"{best[1 - higher][2]} (§7.5); only {names[higher]} score "
                      "declarations (§7.6).")
        return higher

    def read_side(answer: str, allow_none: bool = True) -> int | None:
        word = answer.strip().lower()
        for k, name in enumerate(names):
            if word in (name.lower(), name.lower().rstrip("s")):
                return k
        if allow_none and word in ("", "no", "none", "-", "equal"):
            return None
        raise ValueError(f"{answer!r}: answer {' or '.join(names)}"
                         + (" (or none)" if allow_none else ""))

    kind = "carrés" if best[0][1] else "sequences"
    choices = ", ".join(names)
    winner: int | None = _ask_until(
        console, f"Both best declarations are {kind} worth {best[0][0]}: which side's is "
                 "higher (§7.5: " + ("jacks, nines, aces, tens, kings, queens" if best[0][1]
                                     else "the higher top card, then trump")
                 + f"; {choices}, or none if equal)?", read_side, "none")
    if winner is None and rules.decl_tie is DeclTie.FIRST_ANNOUNCER:
        winner = _ask_until(console, f"Equal: which side announced first (decl_tie)? "
                                     f"({choices})", lambda a: read_side(a, False))
    if winner is None:
        console.print("  Equal: neither side scores its declarations (§7.6).")
    return winner


def _ask_leader_if_it_matters(console: Console, rules: Rules, obj: dict[str, Any],
                              reserve: int) -> None:
    """Three players: ask who led the first trick only when it decides which defender
    gets the odd point of the shares (§12.1)."""
    scores = set()
    try:
        for leader in SEAT_LETTERS[:3]:
            entry = parse_seat_entry({**obj, "leader": leader, "reserve": reserve}, rules)
            scores.add(score_seat_hand(rules, entry).score)
    except BeloteError:
        return  # the sheet says what is wrong when the hand is added
    if len(scores) > 1:
        first = _ask_until(
            console, "The defenders share an odd point: who led the first trick "
                     "(the seat after the dealer)? (N, E, S)",
            lambda a: _read_seat(a, SEAT_LETTERS[:3], allow_none=False))
        assert first is not None
        obj["leader"] = SEAT_LETTERS[first]


# --- showing scores -------------------------------------------------------------------


def _state_status(state: dict[str, Any]) -> str:
    """How a game stands (a sheet's state or ``score game``'s answer): the teams', or
    at a table of three or two each seat's total (§12)."""
    totals = state["totals"]
    if state.get("players") in (2, 3):
        text = ", ".join(f"{s} {totals[s]}" for s in totals)
        if not state["finished"]:
            return f"{text}: the game goes on."
        if state["winner"] is None:
            return f"The game is drawn at {text}."
        winner = state["winner"]
        return f"[bold]{winner} wins the game[/bold] with {totals[winner]} ({text})."
    if not state["finished"]:
        return f"NS {totals['NS']}, EW {totals['EW']}: the game goes on."
    winner = state.get("winner")
    if winner not in TEAM_NAMES:
        return f"The game is drawn at NS {totals['NS']}, EW {totals['EW']}."
    loser = TEAM_NAMES[1 - TEAM_NAMES.index(winner)]
    return f"[bold]{winner} win the game[/bold], {totals[winner]} to {totals[loser]}."


def render_game(console: Console, game: GameScore, target: int, rules: Rules) -> None:
    """The human form of a score sheet: per team, or per seat at a table of three or
    two (§12)."""
    unit = "deals" if rules.limit is Limit.DEALS else "points"
    names = score_names(game.players)
    table = Table(title=f"{rules.profile}, {target} {unit}")
    table.add_column("#", justify="right")
    table.add_column("outcome")
    for name in (*names, *(f"total {n}" for n in names), "reserve"):
        table.add_column(name, justify="right")
    for number, (hand, running) in enumerate(zip(game.hands, game.running, strict=True), 1):
        table.add_row(str(number), OUTCOME_WORDS.get(hand.outcome, hand.outcome),
                      *(str(v) for v in hand.score), *(str(v) for v in running),
                      str(hand.reserve) if hand.reserve else "")
    console.print(table)
    console.print(_state_status({**game.to_json(), "players": game.players}))


def _open_sheet(
    store: SheetStore, sheet: str | None, profile: str, options: dict[str, Any],
    target: int | None, console: Console,
) -> tuple[int, dict[str, Any]]:
    """The sheet named ``sheet`` (the latest of that name, resumed), else a new one."""
    if sheet is not None:
        if not sheet.strip():
            raise BeloteError("--sheet: the sheet needs a name")
        same = [s for s in store.sheets() if s["name"] == sheet.strip()]
        if same:
            state = store.state(same[-1]["id"])
            console.print(f"Sheet {state['id']} '{state['name']}' resumed "
                          f"({plural(len(state['hands']), 'hand')}; its own rules: "
                          f"{state['profile']}"
                          + "".join(f", {k}={v}" for k, v in state["options"].items()) + ").")
            return int(state["id"]), state
    state = store.create(profile, options, target=target, name=sheet or "calculator")
    return int(state["id"]), state


def calculator(profile: str, option_texts: list[str] | None, target: int | None,
               sheet: str | None = None, db: Path | None = None,
               no_sheet: bool = False) -> None:
    """The interactive calculator, hand after hand until the game ends or ``q``.

    Every hand is written to a score sheet as it is entered (the database of
    `belote sheet`), so that nothing is lost, as a club's treasurer expects:
    the sheet named ``sheet`` (created if new, resumed if it exists), else a new
    sheet named "calculator" and the date and time (removed again when no hand
    was entered).  ``no_sheet``: the hands live in memory only, and the
    calculator says so at once.  ``u`` undoes the last hand.
    """
    console = Console()
    if no_sheet and sheet is not None:
        fail("--no-sheet and --sheet: choose one (--sheet NAME keeps the hands on that sheet)")
    dated = not no_sheet and sheet is None
    try:
        options = dict(parse_option_assignment(text) for text in option_texts or [])
        make_rules(profile, options)
        store = SheetStore(":memory:" if no_sheet else db, small_tables=True)
        if dated:
            name = f"calculator {datetime.now():%Y-%m-%d %H:%M}"
            state = store.create(profile, options, target=target, name=name)
            sid = int(state["id"])
        else:
            sid, state = _open_sheet(store, sheet, profile, options, target, console)
        rules = make_rules(state["profile"], state["options"])
    except OverflowError:
        fail("a number is too large for the database")
    except BeloteError as exc:
        fail(str(exc) + ("; --no-sheet keeps nothing" if dated else ""))
    unit = "deals" if rules.limit is Limit.DEALS else "points"
    console.print(f"Belote score calculator: {rules.profile}, game in {state['target']} {unit}. "
                  "Answer q to stop, u to undo the last hand.")
    if no_sheet:
        console.print("[bold]Nothing is kept[/bold] (--no-sheet): these hands are lost when "
                      "the calculator stops.")
    elif dated:
        console.print(f"Every hand is kept in sheet {sid} '{state['name']}' ({store.path}).",
                      soft_wrap=True)
    try:
        state = _calculate(console, store, sid, state, rules, dated)
    finally:
        store.close()


def _calculate(console: Console, store: SheetStore, sid: int, state: dict[str, Any],
               rules: Rules, dated: bool = False) -> dict[str, Any]:
    quit_early = interrupted = False
    while not state["finished"]:
        number = len(state["hands"]) + 1
        try:
            obj = _ask_hand(console, rules, number, undo=bool(state["hands"]),
                            reserve=state["reserve"])
        except _Undo:
            state = store.undo(sid)
            console.print(f"Hand {number - 1} undone. " + _state_status(state))
            continue
        except _Quit:
            quit_early = True
            break
        except KeyboardInterrupt:
            quit_early = interrupted = True
            break
        if obj is None:
            console.print(f"Hand {number}: all passed: nothing scored"
                          + (f", the reserve of {state['reserve']} stays" if state["reserve"]
                             else "") + "; the next dealer deals.")
            continue
        try:
            state = store.add_hand(sid, obj)
        except BeloteError as exc:
            console.print(f"[red]refused:[/red] {exc}; enter the hand again.")
            continue
        _show_state_hand(console, number, state, obj)
    if quit_early and state["hands"]:
        from belote.cli.sheetview import render_state

        console.print()
        _, entries = store.load_entries(sid)
        render_state(state, [entry_to_json(e) for e in entries], console)
    console.print(_state_status(state))
    if dated and not state["hands"]:
        store.delete(sid, purge=True)  # no hand entered: no empty sheet left behind
        console.print(f"No hand entered: sheet {sid} '{state['name']}' is removed again.")
    elif store.path != ":memory:":
        console.print(f"Every hand is kept in sheet {sid} '{state['name']}': "
                      f"`belote score --sheet '{state['name']}'` goes on with it.")
    elif quit_early and state["hands"]:
        console.print("These hands are not saved (--no-sheet).")
    if interrupted:
        fail_interrupted()
    return state


def _show_state_hand(console: Console, number: int, state: dict[str, Any],
                     entry: dict[str, Any] | None = None) -> None:
    """The hand just added: each team's or seat's score and running total; the
    sides' totals (tricks + declarations + belote) for two teams or, at a table of
    three, taker against defenders (§12.1), with each seat's own trick points
    (``entry``'s)."""
    hand = state["hands"][-1]
    running = state["running"][-1] if state.get("running") else state["totals"]
    names = list(hand["score"])
    table = Table(title=f"Hand {number}: {OUTCOME_WORDS.get(hand['outcome'], hand['outcome'])}")
    table.add_column("")
    for name in names:
        table.add_column(name, justify="right")
    if state.get("players") not in (2, 3):
        table.add_row("tricks + declarations + belote",
                      *(str(hand["totals"][name]) for name in names))
    elif state.get("players") == 3 and entry and isinstance(entry.get("trick_points"), dict):
        own = entry["trick_points"]
        table.add_row("own trick points", *(str(own.get(name, 0)) for name in names))
    table.add_row("hand score", *(str(hand["score"][name]) for name in names))
    table.add_row("running total", *(str(running[name]) for name in names))
    console.print(table)
    if list(hand["totals"]) == list(SIDE_NAMES_3P):
        console.print(f"  Taker {hand['totals']['taker']} against defenders "
                      f"{hand['totals']['defenders']} (tricks + declarations + belote).")
    if hand["reserve"]:
        console.print(f"Reserve (litige): {hand['reserve']} for the winner of the next hand.")


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the flag ``name`` was typed (not its default nor the environment's)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


def _one_flag(flag: str, outer: T | None, inner: T | None, json_mode: bool) -> T | None:
    """A flag given before the command (`belote score --profile P hand`) or after it;
    both, differing, is refused."""
    if outer is not None and inner is not None and outer != inner:
        fail(f"{flag}: given twice ({outer} and {inner})", json_mode)
    return inner if inner is not None else outer


def register(app: typer.Typer) -> None:
    score_app = sub_app(
        "Score hands and games: the interactive calculator, or JSON (docs/rules.md §8-§11).",
        invoke_without_command=True,
    )

    @score_app.callback()
    def score_main(
        ctx: typer.Context, profile: ProfileOpt = None, option: OptionOpt = None,
        target: TargetOpt = None, sheet: SheetOpt = None, no_sheet: NoSheetOpt = False,
        db: DbOpt = None,
    ) -> None:
        """Without a command: the interactive score calculator.

        Each hand it asks who took, the contract and coinche where the profile
        has them, one team's trick points (the other's are worked out), a capot,
        the declarations (points or names) and belote; an impossible answer is
        refused at its own question.  With classic-3p and classic-2p it asks
        per seat and keeps each seat's total.  u undoes the last hand, q (or Ctrl-C)
        stops.  Every hand is kept as it is entered: on the score sheet --sheet
        NAME, else on a new sheet named "calculator" and the date and time (see
        `belote sheet list`); --no-sheet keeps nothing.
        """
        check_int("--target", target, 1, MAX_TARGET)
        if ctx.invoked_subcommand is None:
            calculator(profile or "classic", option, target, sheet, db, no_sheet)
            return
        # `belote score --profile P hand --json`: the flags go to the command
        ctx.obj = {"profile": profile, "option": option, "target": target, "sheet": sheet,
                   "db": db if _given(ctx, "db") else None, "no_sheet": no_sheet}

    @score_app.command("hand", short_help="Score one hand (JSON with --json), or the calculator.")
    def hand_command(
        ctx: typer.Context,
        json_mode: JsonOpt = False, jsonl: JsonlOpt = False, file: FileOpt = None,
        profile: ProfileOpt = None, option: OptionOpt = None, target: TargetOpt = None,
        sheet: SheetOpt = None, no_sheet: NoSheetOpt = False, db: DbOpt = None,
    ) -> None:
        """Score one hand: a HandEntry in JSON with --json; else the calculator.

        The HandEntry (docs/json.md): {"profile", "options", "taker",
        "trick_points", "capot", "contract", "multiplier", "trump",
        "declarations", "belote", "reserve"}; only "taker" and the trick points
        (or "capot") are needed.  The answer: {"outcome", "totals", "score",
        "reserve"}.  classic-3p and classic-2p take a per-seat entry: {"taker":
        "E", "trick_points": {"N": .., "E": .., "S": ..}, "trick_total",
        "capot": "taker"|"defenders" (a seat at two), "declarations",
        "belote", "trump", "leader"}; the score is per seat.  In JSON the
        input's "profile" and "options" are filled in by --profile and --option
        (an input that says otherwise is refused); without --json they set up
        the calculator, with --target and --sheet.
        """
        json_face = json_mode or jsonl
        outer = ctx.obj or {}
        profile = _one_flag("--profile", outer.get("profile"), profile, json_face)
        target = _one_flag("--target", outer.get("target"), target, json_face)
        sheet = _one_flag("--sheet", outer.get("sheet"), sheet, json_face)
        option = [*(outer.get("option") or []), *(option or [])]
        check_int("--target", target, 1, MAX_TARGET, json_face)
        if json_face:
            db_given = outer.get("db") is not None or _given(ctx, "db")
            for flag, value in (("--target", target), ("--sheet", sheet),
                                ("--db", True if db_given else None)):
                if value is not None:
                    fail(f"{flag}: `belote score hand --json` scores one hand and keeps "
                         + ("no game" if flag == "--target" else "nothing")
                         + "; `belote score game --json` scores a game, `belote sheet add "
                         "ID --json` keeps a hand on a sheet", json_mode=True)
            try:
                apply = rules_flags(profile, option)
            except BeloteError as exc:
                fail(str(exc), json_mode=True)
            run_json(lambda obj: score_hand_json(apply(obj)), file, jsonl, json_mode=True)
            return
        calculator(profile or "classic", option, target, sheet, db or outer.get("db"),
                   no_sheet or bool(outer.get("no_sheet")))

    @score_app.command("game", short_help="Score a whole score sheet (JSON with --json).")
    def game_command(
        ctx: typer.Context,
        json_mode: JsonOpt = False, jsonl: JsonlOpt = False, file: FileOpt = None,
        profile: ProfileOpt = None, option: OptionOpt = None, target: TargetOpt = None,
    ) -> None:
        """Score a whole score sheet: {"profile", "options", "target", "hands"}.

        "hands" is a list of HandEntry objects (docs/json.md); the answer has
        each hand's score, the running totals, the reserve and the winner.
        --profile, --option and --target fill in the input's own (an input
        that says otherwise is refused).  Without --json the sheet is shown as
        a table.
        """
        json_face = json_mode or jsonl
        outer = ctx.obj or {}
        profile = _one_flag("--profile", outer.get("profile"), profile, json_face)
        target = _one_flag("--target", outer.get("target"), target, json_face)
        check_int("--target", target, 1, MAX_TARGET, json_face)
        if outer.get("sheet") is not None or outer.get("db") is not None:
            fail("--sheet, --db: `belote score game` keeps nothing; `belote sheet import "
                 "FILE` makes a sheet of a game", json_face)
        try:
            apply = rules_flags(profile, [*(outer.get("option") or []), *(option or [])],
                                target)
        except BeloteError as exc:
            fail(str(exc), json_face)
        if json_face:
            run_json(lambda obj: score_game_json(apply(obj)), file, jsonl, json_mode=True)
            return
        try:
            obj = apply(read_object(file))
            rules, entries, target = parse_game(obj)
            game = score_game(rules, entries, target)
        except BeloteError as exc:
            fail(str(exc))
        render_game(Console(), game, target or rules.target, rules)

    app.add_typer(score_app, name="score")
