"""My games: the finished games of this browser's rooms and tables against bots.

``/history`` lists the games where this browser's identity (the signed cookie,
:mod:`belote.web.security`) held a person's seat, the last opened first: each
finished game, and the finished deals of a room closed before its end (a game still
played is the table's to show).  ``/history/{id}`` shows one game's deals and results
and ``/history/{id}/record.json`` gives its record (docs/json.md, the game's record:
``belote replay`` reads it).  The games are read from the rooms' logs
(:meth:`belote.web.store.RoomStore.summarise_room`) and kept summed up in the history's
tables, so they survive a restart as the rooms do.

The list carries the player's statistics (:func:`my_stats`): over the games of his
last :data:`MAX_STATS` rooms, the deals played at the seats his identity held, the
contracts taken and made, the points per deal, the points his cards lost on average
(double dummy, and given what he knew) over the deals whose analysis is kept
(:mod:`belote.analysis_cache`: the page analyses nothing, it hands the deals not
analysed yet to the server's background analyses, :mod:`belote.web.analysis_fill`),
and a chart of each by ISO week (:func:`belote.web.chart.week_chart`).

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

from belote.analysis_cache import DD_MEASURE, VIEW_MEASURE
from belote.errors import BeloteError
from belote.history import GameSummary, Player, check_game_id, stats
from belote.web.analysis_fill import AnalysisFiller
from belote.web.chart import week_chart
from belote.web.i18n import N_, gettext, lang_of
from belote.web.pages import PROFILE_LABELS, render
from belote.web.present import OUTCOME_LABELS
from belote.web.room_manager import RoomManager
from belote.web.routes_rooms import SMALL_LABELS, identity
from belote.web.seats import RoomStatus
from belote.web.store import RoomStore

router = APIRouter()

MAX_LISTED: Final = 50
MAX_STATS: Final = 200  # the rooms whose games the statistics count, the last first
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


def my_stats(request: Request, listed: list[GameSummary]) -> dict[str, Any] | None:
    """This browser's statistics (module doc): :func:`belote.history.stats`'s row for
    the seats its identity held, or None before any scored deal.  ``listed``: the
    games just read for the list (those summed up from their logs are not in the
    history's tables yet)."""
    store = _store(request)
    me = identity(request)
    if store is None or me is None:
        return None
    fresh = {g.id: g for g in listed if g.deals}
    games = []
    for room, _closed in store.rooms_of(me, MAX_STATS):
        game = fresh.get(room) or store.kept_game(room)
        if game is not None:
            games.append(game)
    held = store.seats_held(me, [g.id for g in games])

    def mine(game: GameSummary, player: Player) -> tuple[str, str] | None:
        return ("human", "me") if player.seat in held.get(game.id, ()) else None

    rows = stats(games, store.loss_measures(games), who=mine)
    manager: RoomManager = request.app.state.rooms
    if rows and manager.settings.background_analyses:
        _filler(request, store).want(store.not_analysed(games))
    return rows[0] if rows else None


def _filler(request: Request, store: RoomStore) -> AnalysisFiller:
    """The server's one :class:`AnalysisFiller` (made on the first visit)."""
    filler: AnalysisFiller | None = getattr(request.app.state, "analysis_filler", None)
    if filler is None:
        manager: RoomManager = request.app.state.rooms
        filler = request.app.state.analysis_filler = AnalysisFiller(
            store, cache_bytes=int(manager.settings.analysis_cache_bytes))
    return filler


def _stats_context(row: dict[str, Any] | None, lang: str) -> dict[str, Any]:
    """The stats panel's numbers and its two charts by week."""
    if row is None:
        return {"stats": None}

    def num(value: float, places: int) -> str:
        text = f"{value:.{places}f}"
        return text.replace(".", ",") if lang == "fr" else text

    weeks = [w["week"] for w in row["weeks"]]
    return {
        "stats": row,
        "num": num,
        "dd_loss": row["measures"][DD_MEASURE],
        "dd_deals": row["measured"][DD_MEASURE],
        "view_loss": row["measures"][VIEW_MEASURE],
        "view_deals": row["measured"][VIEW_MEASURE],
        "points_chart": week_chart(
            weeks, [w["points_per_deal"] for w in row["weeks"]],
            gettext(lang, N_("Points per deal, by week")), lambda t: gettext(lang, t)),
        "loss_chart": week_chart(
            weeks, [w["measures"][DD_MEASURE] for w in row["weeks"]],
            gettext(lang, N_("Points lost per card, by week")),
            lambda t: gettext(lang, t)),
    }


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
        "profile_labels_all": {**PROFILE_LABELS, **SMALL_LABELS},
        **_stats_context(my_stats(request, games), lang_of(request))})


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
