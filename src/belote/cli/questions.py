"""The questions of the score calculator (``belote score`` without ``--json``): asking
until an answer reads, and the readers of each answer (teams, numbers, contracts,
declarations by name or points, trump, belote in tout-atout).  A declaration total is
checked by the scoring's rule (:func:`belote.scoring.declaration_total_problem`, §7)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import typer
from rich.console import Console

from belote.cards import parse_trump
from belote.cli.common import fail, fit, terminal_width
from belote.errors import BeloteError
from belote.options import DeclTie, Rules
from belote.scoring import EW, NS, TEAM_NAMES, declaration_total_problem

T = TypeVar("T")


class _Quit(Exception):
    """The user asked to stop (``q``) or the input ended."""


class _Undo(Exception):
    """The user asked to undo the last hand (``u``)."""


# --- questions ---------------------------------------------------------------------


def _ask(text: str, default: str | None = None) -> str:
    """One answer; ``q`` or the end of the input raise :class:`_Quit`, ``u``
    :class:`_Undo`, Ctrl-C KeyboardInterrupt (exit status 130, docs/json.md)."""
    width = terminal_width()
    if width is not None:  # a long question wraps between words, its default kept
        width -= len(f" [{default}]: ") if default else 2
    try:
        answer = typer.prompt(fit(text, width), default=default, show_default=bool(default))
    except typer.Abort as exc:
        # click turns Ctrl-C and the end of the input alike into Abort
        if isinstance(exc.__context__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise _Quit from None
    except EOFError:
        raise _Quit from None
    answer = str(answer).strip()
    if answer.lower() in ("q", "quit", "exit"):
        raise _Quit
    if answer.lower() in ("u", "undo"):
        raise _Undo
    if answer.startswith(("{", "[")):
        fail("this is JSON, not an answer: `belote score hand --json` scores a HandEntry "
             "(docs/json.md)")
    return answer


def _ask_until(console: Console, text: str, read: Callable[[str], T],
               default: str | None = None) -> T:
    """Ask until ``read`` accepts the answer; a ValueError's message is the reason."""
    while True:
        answer = _ask(text, default)
        try:
            return read(answer)
        except ValueError as exc:
            console.print(f"[red]refused:[/red] {exc}")


def _read_team(answer: str, allow_none: bool = True) -> int | None:
    word = answer.strip().upper()
    if word in TEAM_NAMES:
        return TEAM_NAMES.index(word)
    if allow_none and word in ("", "NO", "N", "NONE", "-", "0"):
        return None
    raise ValueError(f"{answer!r}: answer NS or EW" + (" (or no)" if allow_none else ""))


def _read_number(answer: str, low: int, high: int, what: str) -> int:
    shown = answer if len(answer) <= 24 else answer[:20] + "..."
    if len(answer.strip()) > 12:
        raise ValueError(f"{shown!r} is outside {low}..{high} ({what})")
    try:
        value = int(answer)
    except ValueError:
        raise ValueError(f"{shown!r} is not a whole number") from None
    if not low <= value <= high:
        raise ValueError(f"{value} is outside {low}..{high} ({what})")
    return value


def _read_contract(answer: str, rules: Rules) -> int | str:
    word = answer.strip().lower()
    if word == "capot":
        return "capot"
    if word in ("generale", "générale"):
        if not rules.generale:
            raise ValueError("the générale is not played here (option generale is false)")
        return "generale"
    try:
        value = int(word)
    except ValueError:
        raise ValueError(f"{answer!r} is not a contract (80, 90, ..., capot)") from None
    top = rules.max_bid
    if value < 80 or value % 10 or (top is not None and value > top):
        raise ValueError(f"{value} is not a multiple of 10 in 80..{top or ''}")
    return value


#: the value of each declaration by name (docs/rules.md §7)
DECLARATION_NAMES: dict[str, int] = {
    "tierce": 20, "quarte": 50, "cinquante": 50, "quinte": 100, "cent": 100,
    "carre": 100, "carré": 100, "carre9": 150, "carré9": 150, "carre de 9": 150,
    "carré de 9": 150, "carre de neuf": 150, "carré de neuf": 150,
    "carrej": 200, "carréj": 200, "carre de valets": 200, "carré de valets": 200,
}


Best = tuple[int, bool, str]  # value, a carré (beats a sequence of its value), name


def parse_declarations(answer: str, rules: Rules | None = None) -> tuple[int, Best | None]:
    """A team's declarations: their points, and the best one (value, carré, name)
    when they are given by name (None when given as points); a total no hand makes
    under ``rules`` (the scoring's rule, §7; a four-player table's when None) is
    refused."""
    text = answer.strip().lower()
    if not text or text in ("no", "none", "-"):
        return 0, None
    total = 0
    best: Best | None = (0, False, "")
    for part in text.replace(",", "+").split("+"):
        word = " ".join(part.split())
        if word in DECLARATION_NAMES:
            value = DECLARATION_NAMES[word]
            total += value
            rank = (value, word.startswith(("carre", "carré")), word)
            if best is not None and rank[:2] > best[:2]:
                best = rank
            continue
        if not word.isdigit() or len(word) > 5:
            raise ValueError(f"{part.strip()!r} is not a declaration (tierce 20, quarte 50, "
                             "quinte 100, carre 100, carre9 150, carreJ 200) nor points")
        total += int(word)
        best = None
    problem = declaration_total_problem(total, rules)
    if problem:
        raise ValueError(problem)
    return total, best


def _read_declarations(answer: str) -> int:
    """A team's declaration points: a number, or names added with ``+`` or ``,``."""
    return parse_declarations(answer)[0]


def _compare_declarations(
    console: Console, given: list[tuple[int, Best | None]], rules: Rules
) -> int | None:
    """The team whose best declaration wins (§7.5: the higher value, a carré before
    a sequence of its value), asked when that does not decide; -1 when neither
    scores (an exact tie); None when either was given as points."""
    best_ns, best_ew = given[NS][1], given[EW][1]
    if best_ns is None or best_ew is None:
        return None
    if best_ns[:2] != best_ew[:2]:
        winner = NS if best_ns[:2] > best_ew[:2] else EW
        loser_best = (best_ns, best_ew)[1 - winner]
        console.print(f"  {TEAM_NAMES[winner]}'s {(best_ns, best_ew)[winner][2]} beats "
                      f"{TEAM_NAMES[1 - winner]}'s {loser_best[2]} (§7.5): only "
                      f"{TEAM_NAMES[winner]} scores its declarations (§7.6).")
        return winner
    kind = "carrés" if best_ns[1] else "sequences"
    team = _ask_until(
        console, f"Both best declarations are {kind} worth {best_ns[0]}: which team's is "
                 "higher (§7.5: "
                 + ("jacks, nines, aces, tens, kings, queens" if best_ns[1] else
                    "the higher top card, then trump")
                 + "; NS, EW, or none if equal)?",
        _read_team, "none")
    if team is None and rules.decl_tie is DeclTie.FIRST_ANNOUNCER:
        team = _ask_until(console, "Equal: which team announced first (decl_tie)? (NS, EW)",
                          lambda a: _read_team(a, allow_none=False))
    if team is None:
        console.print("  Equal: neither team scores its declarations (§7.6).")
        return -1
    return team

def _read_ta_belote(answer: str) -> int:
    value = _read_number(answer, 0, 80, "20 per belote, four at most")
    if value % 20:
        raise ValueError(f"{value} is not 0, 20, 40, 60 or 80 (20 per belote)")
    return value


def _read_level(answer: str) -> int:
    word = answer.strip().lower()
    levels = {"": 1, "no": 1, "none": 1, "1": 1, "coinche": 2, "contre": 2, "2": 2,
              "surcoinche": 4, "surcontre": 4, "4": 4}
    if word not in levels:
        raise ValueError(f"{answer!r}: answer none, coinche or surcoinche")
    return levels[word]


def _read_trump(answer: str) -> int | None:
    if not answer.strip():
        return None
    try:
        return parse_trump(answer)
    except BeloteError:
        raise ValueError(f"{answer!r}: answer S, H, D, C, SA or TA") from None
