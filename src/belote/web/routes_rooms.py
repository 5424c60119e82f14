"""Card tables: a game against bots, rooms with friends, and their WebSocket.

A table against bots is a room where the player takes seat S and bots the
three others; a room with friends starts with four open seats.  Belote for
three (N E S, the player at S) and for two (N E, the player at N) seat as many
(RULES.md §12, profiles ``classic-3p`` and ``classic-2p`` with their deal
options ``three_deal`` and ``two_deal``).  The page (``/rooms/{id}``) is the
same; ``static/table.js`` keeps the seat's token in the browser and talks to
``/ws/rooms/{id}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Mapping
from typing import Any, Final

from fastapi import APIRouter, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, RedirectResponse, Response

from belote.bots import BOT_NAMES
from belote.errors import BeloteError
from belote.options import ALL_PROFILES, CHOICE_OPTIONS
from belote.play import SEAT_NAMES
from belote.web.app import PROFILE_LABELS, render
from belote.web.present import parse_seat
from belote.web.rooms import FINISHED, OPEN, Client, Room, RoomError, RoomManager

router = APIRouter()
log = logging.getLogger("belote.web")

PLAYER_SEAT = 2  # S: the player sits at the bottom, as in card diagrams

# The profiles of the small tables (§12) and how each names its deal.
SMALL_LABELS: Final = {"classic-3p": "Belote for three", "classic-2p": "Belote for two"}
DEAL_OPTIONS: Final = {"classic-3p": "three_deal", "classic-2p": "two_deal"}
DEAL_LABELS: Final = {
    "24_cards": "24 cards (7s and 8s out), 5 + 3 with a turned card",
    "kitty": "32 cards, 10 each and a 2-card kitty to the taker",
    "six_each": "6 + 3 each, the turned card and a bergère left face up",
    "stock": "6 + 3 each, the turned card and a bergère left face up, 12 cards out",
    "decouverte": "belote découverte: 8 face-up cards on 8 face-down, no bidding",
}

DEAL_NAMES: Final = {"24_cards": "24 cards", "kitty": "kitty", "six_each": "six each",
                     "stock": "stock", "decouverte": "découverte"}


def player_seat(players: int) -> int:
    """Where the player sits at a table against bots: S, or N with two players."""
    return PLAYER_SEAT if players > 2 else 0


def _rooms(request: Request) -> RoomManager:
    manager: RoomManager = request.app.state.rooms
    return manager


async def _form(request: Request) -> dict[str, str]:
    data = await request.form()
    return {k: v for k, v in data.items() if isinstance(v, str)}


def _target(text: str | None) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise RoomError(f"target: {text!r} is not a whole number") from None


def _create(manager: RoomManager, form: Mapping[str, Any]) -> Room:
    profile = form.get("profile") or "classic"
    bots = form.get("bots") or "heuristic"
    if not isinstance(bots, str) or bots.split(":")[0] not in BOT_NAMES:
        raise RoomError(f"bots: {bots!r} is not one of {', '.join(BOT_NAMES)}")
    target = form.get("target")
    if isinstance(target, int) and not isinstance(target, bool):
        target_value: int | None = target
    else:
        target_value = _target(target if isinstance(target, str) else None)
    options = form.get("options") or {}
    if not isinstance(options, dict):
        raise RoomError(f"options: {options!r} is not an object of option names")
    # The form's deal select (§12.1 three_deal, §12.2 two_deal) for its own profile.
    deal_option = DEAL_OPTIONS.get(str(profile))
    chosen = form.get(deal_option) if deal_option is not None else None
    if deal_option is not None and isinstance(chosen, str) and chosen:
        options = {**options, deal_option: chosen}
    name = form.get("name") if isinstance(form.get("name"), str) else ""
    return manager.create(str(profile), options, target_value, bots, str(name or ""))


# --- pages --------------------------------------------------------------------------


def _choices() -> dict[str, Any]:
    return {
        "profiles": ALL_PROFILES,
        "bot_names": BOT_NAMES,
        "profile_labels": {**PROFILE_LABELS, **SMALL_LABELS},
        "deal_options": {
            profile: (option, [(v, DEAL_LABELS.get(str(v), str(v)))
                               for v in CHOICE_OPTIONS[option]])
            for profile, option in DEAL_OPTIONS.items()
        },
    }


@router.get("/play")
def play_form(request: Request) -> Response:
    return render(request, "play.html", {**_choices(), "values": {}, "error": None})


@router.post("/play")
async def play_create(request: Request) -> Response:
    """A game against bots: the player holds S (N with two players, §12), the
    game starts at once."""
    form = await _form(request)
    try:
        room = _create(_rooms(request), form)
        seat = player_seat(room.players)
        token = room.join(seat, form.get("player") or "You")
        for other in range(room.players):
            if other != seat:
                room.fill_bot(other)
        room.start()
    except BeloteError as exc:
        return render(request, "play.html", {**_choices(), "values": form, "error": str(exc)},
                      status=422)
    return RedirectResponse(
        f"/rooms/{room.id}#seat={SEAT_NAMES[seat]}&token={token}", status_code=303)


@router.get("/rooms")
def room_list(request: Request) -> Response:
    return _room_list(request, {}, None)


def _room_list(request: Request, values: Mapping[str, str], error: str | None) -> Response:
    rooms = [r for r in _rooms(request).rooms.values() if r.status != FINISHED]
    rooms.sort(key=lambda r: -r.created)
    listed = [{
        "id": r.id,
        "name": r.name or f"Room {r.id}",
        "profile": r.rules.profile,
        "deal": _deal_label(r),
        "status": r.status,
        "open": sum(1 for s in r.seats if s.kind == OPEN),
        "players": [s.name for s in r.seats if s.kind == "human"],
    } for r in rooms[:50]]
    return render(request, "rooms.html", {**_choices(), "rooms": listed, "values": values,
                                          "error": error}, status=200 if error is None else 422)


def _deal_label(room: Room) -> str:
    option = DEAL_OPTIONS.get(room.rules.profile)
    return "" if option is None else DEAL_NAMES.get(getattr(room.rules, option), "")


@router.post("/rooms")
async def room_create(request: Request) -> Response:
    form = await _form(request)
    try:
        room = _create(_rooms(request), form)
    except BeloteError as exc:
        return _room_list(request, form, str(exc))
    return RedirectResponse(f"/rooms/{room.id}", status_code=303)


@router.get("/rooms/{room_id}")
def room_page(request: Request, room_id: str) -> Response:
    try:
        room = _rooms(request).get(room_id)
    except RoomError as exc:
        raise HTTPException(status_code=404, detail=str(exc)) from None
    return render(request, "room.html", {
        "room": room, "profile": room.rules.profile, "deal_label": _deal_label(room),
        "profile_labels": {**PROFILE_LABELS, **SMALL_LABELS}})


# --- JSON ---------------------------------------------------------------------------


async def _json(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise HTTPException(status_code=400, detail="expected a JSON object")
    return body


def _get(request: Request, room_id: str) -> Room:
    try:
        return _rooms(request).get(room_id)
    except RoomError as exc:
        raise HTTPException(status_code=404, detail=str(exc)) from None


@router.post("/api/rooms")
async def api_room_create(request: Request) -> Response:
    """``{"profile", "options", "target", "bots", "name"}`` → ``{"id", "url", "state"}``."""
    body = await _json(request)
    try:
        room = _create(_rooms(request), body)
    except BeloteError as exc:
        return JSONResponse({"error": str(exc)}, status_code=422)
    return JSONResponse({"id": room.id, "url": f"/rooms/{room.id}",
                         "state": room.state_for(None)}, status_code=201)


@router.get("/api/rooms/{room_id}")
def api_room(request: Request, room_id: str) -> Response:
    """What a spectator sees (no hand)."""
    return JSONResponse(_get(request, room_id).state_for(None))


@router.post("/api/rooms/{room_id}/seats")
async def api_room_join(request: Request, room_id: str) -> Response:
    """``{"seat": "N", "name": "Ann"}`` → ``{"seat", "token"}``; ``{"seat", "bot": true}``
    puts a bot there instead."""
    room = _get(request, room_id)
    body = await _json(request)
    try:
        seat = parse_seat(body.get("seat"), room.players)
        if body.get("bot") is True:
            room.fill_bot(seat)
            return JSONResponse({"seat": SEAT_NAMES[seat], "bot": True})
        token = room.join(seat, body.get("name"))
    except (BeloteError, ValueError) as exc:
        return JSONResponse({"error": str(exc)}, status_code=409)
    return JSONResponse({"seat": SEAT_NAMES[seat], "token": token})


@router.post("/api/rooms/{room_id}/start")
async def api_room_start(request: Request, room_id: str) -> Response:
    """``{"token"}`` of a seated player: empty seats get bots, the first deal is dealt."""
    room = _get(request, room_id)
    body = await _json(request)
    if room.seat_of_token(body.get("token")) is None:
        return JSONResponse({"error": "only a seated player may start the game"},
                            status_code=403)
    try:
        room.start()
    except BeloteError as exc:
        return JSONResponse({"error": str(exc)}, status_code=409)
    return JSONResponse(room.state_for(None))


# --- the WebSocket ----------------------------------------------------------------------


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str) -> None:
    """One connection to a room.  The first message should be ``{"type": "hello",
    "token": ...}`` (the token left out for a spectator); see :mod:`belote.web.rooms`."""
    await websocket.accept()
    manager: RoomManager = websocket.app.state.rooms
    try:
        room = manager.get(room_id)
    except RoomError as exc:
        await websocket.send_text(json.dumps({"type": "error", "message": str(exc),
                                              "fatal": True}))
        await websocket.close(code=4404)
        return
    client = Client(websocket.send_text)
    writer = asyncio.create_task(_write(client))
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            try:
                msg = json.loads(text) if text is not None else None
            except ValueError:
                msg = None
            if msg is None:
                client.push_json({"type": "error", "message": "a message is JSON text"})
                continue
            try:
                room.handle(client, msg)
            except Exception:  # a bug must not cut the connection
                log.exception("room %s: message %r", room.id, text)
                client.push_json({"type": "error", "message": "internal error"})
    except WebSocketDisconnect:
        pass
    finally:
        room.detach(client)
        client.close()
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _write(client: Client) -> None:
    with contextlib.suppress(Exception):
        await client.pump()
