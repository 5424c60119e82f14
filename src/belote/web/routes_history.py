"""My games: the finished games of this browser's rooms and tables against bots.

``/history`` lists the games where this browser's identity (the signed cookie,
:mod:`belote.web.security`) held a person's seat, the last opened first: each
finished game, and the finished deals of a room closed before its end (a game still
played is the table's to show).  ``/history/{id}`` shows one game's deals and results
and ``/history/{id}/record.json`` gives its record (docs/json.md, the game's record:
``belote replay`` reads it).  The games are read from the rooms' logs
(:meth:`belote.web.store.RoomStore.summarise_room`) and kept summed up in the history's
tables, so they survive a restart as the rooms do.

Nobody sees another identity's games: a game of another browser, one that does not
exist, a malformed id and a browser without an identity all get the same 404, which
says nothing of whether the game exists.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any, Final

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response

from belote.errors import BeloteError
from belote.history import GameSummary, check_game_id
from belote.web.i18n import N_, gettext, lang_of
from belote.web.pages import PROFILE_LABELS, render
from belote.web.present import OUTCOME_LABELS
from belote.web.rooms import RoomManager
from belote.web.routes_rooms import SMALL_LABELS, identity
from belote.web.seats import RoomStatus
from belote.web.store import RoomStore

router = APIRouter()

MAX_LISTED: Final = 50
NO_PAGE: Final = "this address leads to no page"  # the one refusal (module doc)

# The words of the pages that come from here, for the catalogue.
HISTORY_LABELS: Final = (N_("finished"), N_("not finished"), N_("everybody passed"))

DealLink = Callable[[str, int], str | None]
"""A page about one deal of a game (the game's id, the deal's number from 1): its
address, or None when there is none.  :data:`deal_links` holds the ones the game's
page offers beside each deal (none until a page for a deal exists)."""

deal_links: list[tuple[str, DealLink]] = []


def _store(request: Request) -> RoomStore | None:
    manager: RoomManager = request.app.state.rooms
    return manager.store


def my_games(request: Request) -> list[GameSummary]:
    """The games of this browser (module doc), the last opened first."""
    store = _store(request)
    me = identity(request)
    if store is None or me is None:
        return []
    manager: RoomManager = request.app.state.rooms
    rooms = store.rooms_of(me, MAX_LISTED)
    kept = store.kept_games([room for room, _closed in rooms])
    games = []
    for room, closed in rooms:
        game = kept.get(room)
        if game is None:
            live = manager.rooms.get(room)
            if live is not None and live.status != RoomStatus.FINISHED and not closed:
                continue  # a game still played: shown at its table
            game = store.summarise_room(room, closed)
        if game is not None:
            games.append(game)
    return games


def my_game(request: Request, game_id: str) -> GameSummary:
    """The game ``game_id`` with its deals, if it is one of this browser's; else the
    404 of any address that leads to no page."""
    store = _store(request)
    me = identity(request)
    try:
        check_game_id(game_id)
    except BeloteError:
        raise HTTPException(status_code=404, detail=NO_PAGE) from None
    if store is None or me is None or not store.holds_room_seat(me, game_id):
        raise HTTPException(status_code=404, detail=NO_PAGE)
    game = store.kept_game(game_id)
    if game is None:
        game = store.summarise_room(game_id, store.closed_reason(game_id) is not None)
    if game is None:
        raise HTTPException(status_code=404, detail=NO_PAGE)
    return game


SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
TRUMP_WORDS: Final = {"SA": N_("sans-atout"), "TA": N_("tout-atout")}


def _trump_text(lang: str, trump: str) -> str:
    if trump in TRUMP_WORDS:
        return gettext(lang, TRUMP_WORDS[trump])
    return SUIT_SYMBOLS.get(trump, trump)


def _contract(result: dict[str, Any], lang: str) -> str:
    contract = result.get("contract")
    if contract is None:
        return ""
    words = [contract["taker"] or "", _trump_text(lang, contract["trump"])]
    if isinstance(contract.get("value"), int):
        words.append(str(contract["value"]))
    elif contract.get("value") in ("capot", "generale"):
        words.append("générale" if contract["value"] == "generale" else "capot")
    if contract.get("multiplier", 1) > 1:
        words.append(f"×{contract['multiplier']}")
    return " ".join(w for w in words if w)


def _context(game: GameSummary, lang: str) -> dict[str, Any]:
    return {
        "game": game,
        "profile_name": {**PROFILE_LABELS, **SMALL_LABELS}.get(game.profile, game.profile),
        "columns": list(game.totals),
        "outcome_labels": OUTCOME_LABELS,
        "contract_text": lambda result: _contract(result, lang),
        "deal_links": [(label, link) for label, link in deal_links],
    }


@router.get("/history")
async def history_page(request: Request) -> Response:
    games = my_games(request)
    when = {g.id: datetime.datetime.fromtimestamp(g.created, datetime.UTC)
            .strftime("%Y-%m-%d %H:%M UTC") for g in games}
    return render(request, "history.html", {
        "games": games, "when": when, "nav": "history",
        "profile_labels_all": {**PROFILE_LABELS, **SMALL_LABELS}})


@router.get("/history/{game_id}")
async def history_game(request: Request, game_id: str) -> Response:
    game = my_game(request, game_id)
    lang = lang_of(request)
    return render(request, "history_game.html", {**_context(game, lang), "nav": "history"})


@router.get("/history/{game_id}/record.json")
async def history_record(request: Request, game_id: str) -> Response:
    """The game's record (docs/json.md), as a file to keep."""
    game = my_game(request, game_id)
    return JSONResponse(game.record, headers={
        "Content-Disposition": f'attachment; filename="belote-{game.id}.json"',
        "Cache-Control": "no-store"})
