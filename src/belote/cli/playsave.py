"""`belote play`'s saved games: where a game is saved, its file written, read back,
described and removed.

A save holds the game's record (docs/json.md, the deal in progress included: its
deck and every call and card so far, which resuming replays through
:meth:`Match.from_record`) under ``"match"``, and under ``"belote_play"`` the
person's seat, the bots and the game's id in the history.  A save is written to a
file beside it first, then put in its place, so that a save is never half written.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any, NamedTuple

from rich.console import Console
from rich.markup import escape

from belote import jsonsafe
from belote.cli.playscreen import SEAT_WORDS, score_line
from belote.errors import BeloteError
from belote.game import Match
from belote.history import check_game_id, new_game_id
from belote.play import SEAT_NAMES, TEAM_NAMES


def default_save_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "belote" / "saved-game.json"


class Saved(NamedTuple):
    """A game saved by `belote play`: the game, the person's seat, the bots, the game's
    id in the history."""

    match: Match
    seat: int
    bots: str
    game_id: str


def write_save(path: Path, saved: Saved) -> None:
    """Write ``saved`` at ``path`` (its folder made), whole or not at all; raises
    :class:`OSError` when it cannot be written."""
    data = {
        "belote_play": {"seat": SEAT_NAMES[saved.seat], "bots": saved.bots,
                        "game_id": saved.game_id},
        "match": saved.match.to_record(),
    }
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def load_saved(path: Path) -> Saved:
    """The game saved at ``path``.  The game is a game's record (docs/json.md), read
    through :meth:`Match.from_record`; a save of an earlier version, without a
    ``game_id``, gets a new one (its finished deals are kept in the history from the
    next deal's end)."""
    try:
        text = jsonsafe.decode(path.read_bytes(), str(path))
        # a saved game may hold a generator's state: numbers longer than an input's
        data: Any = jsonsafe.loads(text, str(path), max_digits=400)
    except OSError as exc:
        raise BeloteError(f"cannot read saved game {str(path)!r}: {exc}") from None
    except BeloteError as exc:
        raise BeloteError(f"cannot read saved game: {exc}") from None
    meta = data.get("belote_play") if isinstance(data, dict) else None
    if not isinstance(meta, dict):
        raise BeloteError(f"{str(path)!r} is not a game saved by belote play")
    seat = "NESW".find(str(meta.get("seat", "")))
    if seat < 0:
        raise BeloteError(f"{str(path)!r}: bad seat {meta.get('seat')!r}")
    match = Match.from_record(data.get("match"))
    if seat >= match.players:
        raise BeloteError(f"{str(path)!r}: bad seat {meta.get('seat')!r} for "
                          f"{match.players} players")
    game_id = meta.get("game_id")
    if game_id is None:  # a save of before the history: a new id
        game_id = new_game_id()
    check_game_id(game_id, f"{str(path)!r}: game_id")
    return Saved(match, seat, str(meta.get("bots", "heuristic")), game_id)


def describe_save(path: Path) -> str:
    """A saved game in a few words, for the question before overwriting it."""
    try:
        match = load_saved(path).match
    except BeloteError:
        return "a file that is not a readable saved game"
    names = TEAM_NAMES if match.players == 4 else SEAT_WORDS[:match.players]
    score = score_line(names, match.score.totals)
    return f"a {match.rules.profile} game at deal {max(match.deals, 1)}, {score}"


def ask_before_overwrite(console: Console, path: Path) -> str:
    """A game is saved at ``path``: ``new`` (overwrite it), ``resume`` or ``keep``."""
    console.print(f"A game is saved at {escape(str(path))}: {describe_save(path)}.",
                  soft_wrap=True)
    console.print("Start a new game and overwrite it?  y: a new game over it  r: resume it  "
                  "anything else: keep it and stop", soft_wrap=True)
    try:
        answer = console.input("> ")
    except (EOFError, KeyboardInterrupt):
        answer = ""
        console.print()
    answer = answer.strip().lower()
    if answer in ("y", "yes", "o", "oui"):
        return "new"
    if answer in ("r", "resume"):
        return "resume"
    return "keep"


def remove_save(path: Path) -> bool:
    """Remove the save at ``path`` (a finished game leaves none behind); True when one
    was there."""
    if not path.exists():
        return False
    with contextlib.suppress(OSError):
        path.unlink()
    return True
