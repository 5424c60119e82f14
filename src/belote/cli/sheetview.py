"""How a score sheet is shown in the terminal: its hands, standings and the list of sheets.

Shared by ``belote sheet`` (:mod:`belote.cli.sheet`) and ``belote score --sheet``
(:mod:`belote.cli.score`, when the calculator stops early), so that neither
command module imports the other's rendering.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from belote.cli.common import plural
from belote.scoring import SEAT_LETTERS

OUTCOME_WORDS = {"made": "made", "failed": "failed", "litige": "litige", "void": "all passed",
                 "counted": "counted"}


def _hand_cell(entry: dict[str, Any]) -> str:
    """``110H ×2: 117-45, decl. NS 20, belote EW``: what was entered for a hand."""
    parts: list[str] = []
    head = ""
    if entry.get("contract") is not None:
        head = str(entry["contract"]) + str(entry.get("trump") or "")
    elif entry.get("trump"):
        head = str(entry["trump"])
    multiplier = entry.get("multiplier", 1)
    if multiplier in (2, 4):
        head += " ×2" if multiplier == 2 else " ×4 (sur)"
    tricks = entry.get("trick_points", {})
    text = f"{tricks.get('NS', '')}-{tricks.get('EW', '')}"
    if entry.get("capot"):
        text += f" capot {entry['capot']}"
    parts.append(f"{head}: {text}" if head else text)
    for key, word in (("declarations", "decl."), ("belote", "belote")):
        value = entry.get(key)
        if isinstance(value, dict):
            for team, pts in value.items():
                if pts:
                    parts.append(f"{word} {team} {pts}")
        elif value:
            parts.append(f"{word} {value}")
    return ", ".join(parts)


def render_state(state: dict[str, Any], entries: list[dict[str, Any]],
                 console: Console) -> None:
    """The sheet as a table: every hand, the running totals, the reserve, the
    winner; for an N-player sheet the seatings and individual standings."""
    options = state.get("options") or {}
    extra = ", ".join(f"{k}={v}" for k, v in options.items())
    console.print(
        f"[bold]Sheet {state['id']}[/bold]: {state['name']}  "
        f"({state['profile']}{', ' + extra if extra else ''}; target {state['target']})")
    if state.get("deleted"):
        console.print("[red]deleted[/red]")
        return
    players = state.get("players")
    if players in (2, 3):
        _render_seats(state, entries, console)
        return
    names = state["team_names"]
    ns, ew = names["NS"], names["EW"]
    if players:
        ns, ew = "1st", "2nd"
    label = {"NS": ns, "EW": ew}
    any_reserve = any(h["reserve"] for h in state["hands"])
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("#", justify="right", no_wrap=True)
    if players:
        table.add_column("1st v 2nd team (out)", no_wrap=True)
        table.add_column("dealer", justify="right", no_wrap=True)
    table.add_column("taker", no_wrap=True)
    table.add_column("hand", overflow="fold")
    table.add_column("result", no_wrap=True)
    table.add_column(ns, justify="right", no_wrap=True)
    table.add_column(ew, justify="right", no_wrap=True)
    if not players:
        table.add_column(f"Σ {ns}", justify="right", no_wrap=True)
        table.add_column(f"Σ {ew}", justify="right", no_wrap=True)
    if any_reserve:
        table.add_column("reserve", justify="right", no_wrap=True)
    for i, hand in enumerate(state["hands"]):
        entry = entries[i] if i < len(entries) else {}
        row = [str(i + 1)]
        if players:
            seat = state["seatings"][i]
            row += [
                "+".join(map(str, seat["teams"][0])) + " v "
                + "+".join(map(str, seat["teams"][1]))
                + " (" + " ".join(map(str, seat["out"])) + ")",
                str(seat["dealer"]),
            ]
        row += [
            label.get(entry.get("taker", ""), ""),
            _hand_cell(entry) if entry else "",
            OUTCOME_WORDS.get(hand["outcome"], hand["outcome"]),
            str(hand["score"]["NS"]), str(hand["score"]["EW"]),
        ]
        if not players:
            running = state["running"][i]
            row += [str(running["NS"]), str(running["EW"])]
        if any_reserve:
            row.append(str(hand["reserve"]) if hand["reserve"] else "")
        table.add_row(*row)
    _print_hands(table, state, console)
    if players:
        _render_players(state, console)
        return
    _print_totals(state, label, console)


def _print_hands(table: Table, state: dict[str, Any], console: Console) -> None:
    if state["hands"]:
        console.print(table)
    else:
        console.print("No hand yet.")


def _print_totals(state: dict[str, Any], heads: dict[str, str], console: Console) -> None:
    """Each team's or seat's total (``heads`` names them), the reserve, the winner."""
    totals = state["totals"]
    console.print("Totals: " + ", ".join(f"{head} {totals[key]}" for key, head in heads.items())
                  + (f"  (reserve {state['reserve']})" if state["reserve"] else ""))
    if state["finished"]:
        winner = state["winner"]
        console.print(f"[bold]{heads[winner]} won.[/bold]" if winner else
                      "[bold]The game ended in a draw.[/bold]")


def _seat_cell(entry: dict[str, Any], seats: tuple[str, ...]) -> str:
    """``H: N92 E40 S30, capot defenders, decl. S 20, belote N``: a per-seat hand."""
    tricks = entry.get("trick_points", {})
    text = " ".join(f"{s}{tricks.get(s, 0)}" for s in seats)
    if entry.get("trump"):
        text = f"{entry['trump']}: {text}"
    parts = [text]
    if entry.get("capot"):
        parts.append(f"capot {entry['capot']}")
    decl = entry.get("declarations") or {}
    parts += [f"decl. {s} {decl[s]}" for s in seats if decl.get(s)]
    belote = entry.get("belote")
    if isinstance(belote, dict):
        parts += [f"belote {s} {belote[s]}" for s in seats if belote.get(s)]
    elif belote:
        parts.append(f"belote {belote}")
    return ", ".join(parts)


def _render_seats(state: dict[str, Any], entries: list[dict[str, Any]],
                  console: Console) -> None:
    """A sheet of three or two players: each seat's score and running total (§12)."""
    seats = SEAT_LETTERS[: state["players"]]
    names = dict(zip(seats, state.get("player_names") or seats, strict=True))
    heads = {s: s if names[s] == s else f"{names[s]} ({s})" for s in seats}
    any_reserve = any(h["reserve"] for h in state["hands"])
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False,
                  caption="each seat: running total (+ this hand)")
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("taker", no_wrap=True)
    table.add_column("hand", overflow="fold", min_width=14)
    table.add_column("result", no_wrap=True)
    for s in seats:
        table.add_column(heads[s], justify="right", no_wrap=True)
    if any_reserve:
        table.add_column("res.", justify="right", no_wrap=True)
    for i, hand in enumerate(state["hands"]):
        entry = entries[i] if i < len(entries) else {}
        row = [str(i + 1), entry.get("taker") or "", _seat_cell(entry, seats) if entry else "",
               OUTCOME_WORDS.get(hand["outcome"], hand["outcome"])]
        row += [f"{state['running'][i][s]} (+{hand['score'][s]})" for s in seats]
        if any_reserve:
            row.append(str(hand["reserve"]) if hand["reserve"] else "")
        table.add_row(*row)
    _print_hands(table, state, console)
    _print_totals(state, heads, console)


def _render_players(state: dict[str, Any], console: Console) -> None:
    names = state["player_names"]
    standings = sorted(state["standings"], key=lambda s: (-s["total"], s["player"]))
    table = Table(title="Standings")
    for title in ("player", "name", "total", "played", "sat out"):
        table.add_column(title, justify="right" if title != "name" else "left")
    for s in standings:
        table.add_row(str(s["player"]), s["name"], str(s["total"]), str(s["played"]),
                      str(s["sat_out"]))
    console.print(table)
    count = len(state["hands"])
    if state["at_cycle_end"] and count:
        console.print(f"After {plural(count, 'hand')} a cycle ends: the standings compare fairly "
                      "(docs/rules.md §13.2).")
    elif count:
        length = state["cycle_length"]
        left = plural(length - count % length, "more hand", "more hands")
        console.print(f"{left} to the end of the cycle of {length}.")
    if state["reserve"]:
        console.print(f"Reserve: {state['reserve']}")
    if state["finished"]:
        winner = state["player_winner"]
        console.print(f"[bold]{names[winner - 1]} (player {winner}) won.[/bold]")
        return
    nxt = state["next"]
    if nxt:
        def team(t: list[int]) -> str:
            return " + ".join(names[p - 1] for p in t)
        console.print(
            f"Hand {nxt['hand']}: {team(nxt['teams'][0])} (NS) against "
            f"{team(nxt['teams'][1])} (EW); out: "
            f"{', '.join(names[p - 1] for p in nxt['out'])}; dealer: {names[nxt['dealer'] - 1]}")


def _local_time(stamp: Any) -> str:
    try:
        return datetime.fromisoformat(str(stamp)).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return str(stamp or "")


def render_list(sheets: list[dict[str, Any]], console: Console) -> None:
    if not sheets:
        console.print("No sheet yet: `belote sheet new --profile classic` starts one.")
        return
    table = Table(title="Score sheets")
    for title in ("id", "name", "profile", "hands", "finished", "updated"):
        table.add_column(title)
    for s in sheets:
        finished = "error" if s.get("error") else ("yes" if s["finished"] else "")
        table.add_row(str(s["id"]), s["name"], s["profile"], str(s["hands"]), finished,
                      _local_time(s.get("updated")))
    console.print(table)
