"""Card tables: a game against bots, rooms with friends, and their WebSocket.

A table against bots is a room where the player takes seat S and bots the
three others; a room with friends starts with four open seats.  Belote for
three (N E S, the player at S) and for two (N E, the player at N) seat as many
(docs/rules.md §12, profiles ``classic-3p`` and ``classic-2p`` with their deal
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

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.requests import HTTPConnection

from belote.bots import BOT_NAMES
from belote.errors import BeloteError, Refusal
from belote.options import ALL_PROFILES, CHOICE_OPTIONS
from belote.play import SEAT_NAMES
from belote.web.chat import CHAT_LENGTH, QUICK
from belote.web.i18n import lang_of
from belote.web.network import network_of
from belote.web.pages import PROFILE_LABELS, Refused, refusal_json, render
from belote.web.present import parse_seat
from belote.web.refusals import refusal_message
from belote.web.room_manager import RoomManager
from belote.web.rooms import Client, NoAccess, Room, RoomError
from belote.web.seats import SeatKind, Visibility
from belote.web.security import (
    BadInput,
    Limits,
    NotJSON,
    RateLimiter,
    loads,
    parse_whole,
)
from belote.web.store import StoreError

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


MAX_TARGET: Final = 1_000_000  # points of a game (a long one: the load benchmark's)


def player_seat(players: int) -> int:
    """Where the player sits at a table against bots: S, or N with two players."""
    return PLAYER_SEAT if players > 2 else 0


def _rooms(request: HTTPConnection) -> RoomManager:
    manager: RoomManager = request.app.state.rooms
    return manager


def _limits(request: HTTPConnection) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


def identity(request: HTTPConnection) -> str | None:
    """The browser's identity (cookie), set by the security middleware."""
    value = request.scope.get("state", {}).get("identity")
    return value if isinstance(value, str) else None


def client_key(request: HTTPConnection) -> str:
    """Who a request comes from, for the per-client limits: the network (/24 or
    /64) of its address, the client behind a trusted proxy (web.security)."""
    network = request.scope.get("state", {}).get("network")
    if isinstance(network, str):
        return network
    return network_of(request.client.host if request.client is not None else None)


async def _form(request: Request) -> dict[str, str]:
    data = await request.form()
    return {k: v for k, v in data.items() if isinstance(v, str)}


class TooFast(RoomError):
    """A client opening tables faster than its limit (429, retry in a minute)."""


async def _create(request: Request, form: Mapping[str, Any], visibility: Visibility) -> Room:
    limiter: RateLimiter = request.app.state.room_limiter
    client = client_key(request)
    if not limiter.allow(client):
        raise TooFast.refused(Refusal.TOO_MANY_NEW_TABLES)
    profile = form.get("profile") or "classic"
    if not isinstance(profile, str):
        raise RoomError.refused(Refusal.BAD_FIELD, "profile", field="profile",
                                detail=f"{profile!r} is not a profile name")
    bots = form.get("bots") or "heuristic"
    if not isinstance(bots, str) or bots.split(":")[0] not in BOT_NAMES:
        raise RoomError.refused(Refusal.BAD_FIELD, "bots", field="bots",
                                detail=f"{bots!r} is not one of {', '.join(BOT_NAMES)}")
    target = form.get("target")
    if isinstance(target, int) and not isinstance(target, bool):
        if not 1 <= target <= MAX_TARGET:
            raise RoomError.refused(Refusal.OUT_OF_RANGE, "target", value=target, low=1,
                                    high=MAX_TARGET)
        target_value: int | None = target
    elif target is None or isinstance(target, str):
        target_value = parse_whole(target, "target", 1, MAX_TARGET)
    else:
        raise RoomError.refused(Refusal.NOT_WHOLE, "target", text=target)
    options = form.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RoomError.refused(Refusal.BAD_FIELD, "options", field="options",
                                detail=f"{options!r} is not an object of option names")
    # The form's deal select (§12.1 three_deal, §12.2 two_deal) for its own profile.
    deal_option = DEAL_OPTIONS.get(profile)
    chosen = form.get(deal_option) if deal_option is not None else None
    if deal_option is not None and isinstance(chosen, str) and chosen:
        options = {**options, deal_option: chosen}
    name = form.get("name")
    if name is not None and not isinstance(name, str):
        raise RoomError.refused(Refusal.BAD_FIELD, "name", field="name",
                                detail=f"{name!r} is not text")
    return await _rooms(request).create(profile, options, target_value, bots, name or "",
                                        visibility=visibility, client=client,
                                        creator=identity(request))


def room_link(room: Room) -> str:
    """The room's address; a room with friends' carries its invitation."""
    return f"/rooms/{room.id}" if room.invite is None else \
        f"/rooms/{room.id}?invite={room.invite}"


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
async def play_form(request: Request) -> Response:
    return render(request, "play.html", {**_choices(), "values": {}, "error": None})


@router.post("/play")
async def play_create(request: Request) -> Response:
    """A game against bots: the player holds S (N with two players, §12), the
    game starts at once.  The table is private: nobody else sees or joins it."""
    form = await _form(request)
    try:
        room = await _create(request, form, Visibility.PRIVATE)
        seat = player_seat(room.players)
        token = await room.join(seat, form.get("player") or "You", owner=identity(request))
        for other in range(room.players):
            if other != seat:
                await room.fill_bot(other)
        await room.start()
    except BeloteError as exc:
        return render(request, "play.html", {**_choices(), "values": form, "error": exc},
                      status=422)
    return RedirectResponse(
        f"/rooms/{room.id}#seat={SEAT_NAMES[seat]}&token={token}", status_code=303)


@router.get("/rooms")
async def room_list(request: Request) -> Response:
    return _room_list(request, {}, None)


def _room_list(request: Request, values: Mapping[str, str],
               error: BeloteError | None) -> Response:
    """The public rooms (their hosts chose to list them) and the new-room form."""
    rooms = _rooms(request).public_rooms(50)
    listed = [{
        "id": r.id,
        "link": room_link(r),
        "name": r.name or f"Room {r.id}",
        "profile": r.rules.profile,
        "deal": _deal_label(r),
        "status": r.status,
        "open": sum(1 for s in r.seats if s.kind == SeatKind.OPEN),
        "players": [s.name for s in r.seats if s.kind == SeatKind.HUMAN],
    } for r in rooms[:50]]
    return render(request, "rooms.html", {**_choices(), "rooms": listed, "values": values,
                                          "error": error}, status=200 if error is None else 422)


def _deal_label(room: Room) -> str:
    option = DEAL_OPTIONS.get(room.rules.profile)
    return "" if option is None else DEAL_NAMES.get(getattr(room.rules, option), "")


@router.post("/rooms")
async def room_create(request: Request) -> Response:
    """A room with friends: its link (with the invitation) is shared; listed on
    /rooms only when the host ticked "public"."""
    form = await _form(request)
    try:
        visibility = Visibility.PUBLIC if form.get("public") else Visibility.INVITE
        room = await _create(request, form, visibility)
    except BeloteError as exc:
        return _room_list(request, form, exc)
    return RedirectResponse(room_link(room), status_code=303)


def _visible(request: HTTPConnection, room_id: str, invite: object = None,
             token: object = None) -> Room:
    """The room, if this browser may see it (its link, or a seat of its own);
    otherwise answered exactly as a room that does not exist."""
    try:
        room = _rooms(request).get(room_id)
    except RoomError as exc:
        raise Refused(404, exc) from None
    if not room.may_see(identity(request), invite, token):
        raise Refused(404, RoomError.refused(Refusal.NO_SUCH_ROOM, room=room_id))
    room.visit()
    return room


@router.get("/rooms/{room_id}")
async def room_page(request: Request, room_id: str, invite: str | None = None) -> Response:
    room = _visible(request, room_id, invite)
    return render(request, "room.html", {
        "room": room, "profile": room.rules.profile, "deal_label": _deal_label(room),
        "profile_labels": {**PROFILE_LABELS, **SMALL_LABELS},
        "share": room_link(room) if room.invite is not None else None, "quick": QUICK,
        "chat_length": CHAT_LENGTH})


# --- JSON ---------------------------------------------------------------------------


async def _json(request: Request) -> dict[str, Any]:
    try:
        body = loads(await request.body(), _limits(request))
    except BadInput as exc:
        raise Refused(400, exc) from None
    if not isinstance(body, dict):
        raise Refused(400, BadInput.refused(Refusal.EXPECTED_OBJECT))
    return body


@router.get("/api/session")
async def api_session(request: Request) -> Response:
    """This browser's CSRF token (its identity cookie comes with the answer): a
    program sends it as ``X-CSRF-Token`` with every POST."""
    return JSONResponse({"csrf": request.scope["state"]["csrf"]})


# The visibilities a room with friends may have (``private`` is a table against
# bots, /play: nobody could sit at a private room opened empty).
API_VISIBILITIES: Final = (Visibility.INVITE, Visibility.PUBLIC)


@router.post("/api/rooms")
async def api_room_create(request: Request) -> Response:
    """``{"profile", "options", "target", "bots", "name", "visibility"}`` →
    ``{"id", "url", "invite", "state"}``; visibility ``invite`` (the default) or
    ``public`` (listed on /rooms)."""
    body = await _json(request)
    visibility = body.get("visibility", Visibility.INVITE)
    if visibility not in API_VISIBILITIES:
        return refusal_json(RoomError.refused(
            Refusal.BAD_FIELD, "visibility", field="visibility",
            detail=f"{repr(visibility)[:40]} is not {' or '.join(API_VISIBILITIES)} (a "
            "private table, against bots, is opened by /play)"), 400)
    try:
        room = await _create(request, body, Visibility.of(visibility))
    except TooFast as exc:
        return refusal_json(exc, 429, headers={"Retry-After": "60"})
    except StoreError as exc:  # the database is held: nothing was created
        return refusal_json(exc, 503)
    except BeloteError as exc:
        return refusal_json(exc, 422)
    return JSONResponse({"id": room.id, "url": room_link(room), "invite": room.invite,
                         "state": room.state_for(None)}, status_code=201)


INVITE_HEADER: Final = "x-invite"
TOKEN_HEADER: Final = "x-seat-token"


@router.get("/api/rooms/{room_id}")
async def api_room(request: Request, room_id: str, invite: str | None = None) -> Response:
    """What a spectator sees (no hand): for the room's invitation (its link's
    ``?invite=``, or the ``X-Invite`` header) or a seat's token (the
    ``X-Seat-Token`` header: a token never travels in an address, which logs keep);
    once the room's pending write, if any, is settled."""
    invite = request.headers.get(INVITE_HEADER, invite)
    token = request.headers.get(TOKEN_HEADER)
    room = _visible(request, room_id, invite, token)
    return JSONResponse(await room.settled_state(None))


@router.post("/api/rooms/{room_id}/seats")
async def api_room_join(request: Request, room_id: str) -> Response:
    """``{"seat": "N", "name": "Ann", "invite": ...}`` → ``{"seat", "token"}``;
    ``{"seat", "bot": true, "token": ...}`` (a seated player) puts a bot there."""
    body = await _json(request)
    room = _visible(request, room_id, body.get("invite"), body.get("token"))
    try:
        seat = parse_seat(body.get("seat"), room.players)
        if body.get("bot") is True:
            if room.seat_of_token(body.get("token")) is None and not room.invited(
                    body.get("invite")):
                return refusal_json(RoomError.refused(Refusal.BOT_NEEDS_SEAT), 403)
            await room.fill_bot(seat)
            return JSONResponse({"seat": SEAT_NAMES[seat], "bot": True})
        if not room.invited(body.get("invite")):
            return refusal_json(RoomError.refused(Refusal.JOIN_NEEDS_INVITATION), 403)
        token = await room.join(seat, body.get("name"), owner=identity(request))
    except BeloteError as exc:
        return refusal_json(exc, 409)
    return JSONResponse({"seat": SEAT_NAMES[seat], "token": token})


@router.post("/api/rooms/{room_id}/start")
async def api_room_start(request: Request, room_id: str) -> Response:
    """``{"token"}`` of a seated player: empty seats get bots, the first deal is dealt."""
    body = await _json(request)
    room = _visible(request, room_id, None, body.get("token"))
    try:
        await room.start()
    except BeloteError as exc:
        return refusal_json(exc, 409)
    return JSONResponse(room.state_for(None))


# --- the WebSocket ----------------------------------------------------------------------


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str) -> None:
    """One connection to a room.  The first message is ``{"type": "hello", "token":
    ..., "invite": ...}`` (a seat's token, or the room's invitation to watch and
    sit); see :mod:`belote.web.rooms`.  A connection from another site's page is
    refused; one that sends too much, too fast or too deep is closed."""
    await websocket.accept()
    manager: RoomManager = websocket.app.state.rooms
    limits = _limits(websocket)
    state = websocket.scope.get("state", {})
    if not state.get("same_origin", False):
        await _fatal(websocket, 4403, RoomError.refused(Refusal.CROSS_SITE))
        return
    try:
        room = manager.get(room_id)
    except RoomError as exc:
        await _fatal(websocket, 4404, exc)
        return
    client = Client(websocket.send_text, identity(websocket))
    client.lang = lang_of(websocket)
    bucket = RateLimiter(limits.messages_per_second, limits.messages_burst)
    network_bucket: RateLimiter = websocket.app.state.message_limiter
    network = client_key(websocket)
    writer = asyncio.create_task(_write(client))
    first = True
    try:
        while not client.closed:
            if first:  # the hello, within limits.hello_seconds
                try:
                    message = await asyncio.wait_for(websocket.receive(),
                                                     limits.hello_seconds)
                except TimeoutError:
                    await _fatal(websocket, 4408, RoomError.refused(Refusal.NO_HELLO))
                    break
                first = False
            else:
                message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not bucket.allow("messages") or not network_bucket.allow(network):
                await _fatal(websocket, 1008, RoomError.refused(Refusal.TOO_MANY_MESSAGES))
                break
            text = message.get("text")
            try:
                if text is None:
                    raise NotJSON.refused(Refusal.NOT_JSON_TEXT)
                msg = loads(text, limits, "the message")
            except NotJSON:
                client.push_json(refusal_message(NotJSON.refused(Refusal.NOT_JSON_TEXT),
                                                 client.lang))
                continue
            except BadInput as exc:
                client.push_json(refusal_message(exc, client.lang))
                continue
            try:
                await room.handle(client, msg)
            except NoAccess as exc:
                await _fatal(websocket, 4404, exc)
                break
            except Exception:  # a bug must not cut the connection
                # the message's type only: a hello or a join carries a secret
                log.exception("room %s: a %r message", room.id,
                              str(msg.get("type"))[:40] if isinstance(msg, dict) else "")
                client.push_json(refusal_message(RoomError.refused(Refusal.INTERNAL_ERROR),
                                                 client.lang))
            if room.id not in manager.rooms:
                break
    except WebSocketDisconnect:
        pass
    finally:
        room.detach(client)
        client.close()
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        with contextlib.suppress(Exception):
            await websocket.close()


async def _fatal(websocket: WebSocket, code: int, refusal: BeloteError) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(
            {**refusal_message(refusal, lang_of(websocket)), "fatal": True}))
        await websocket.close(code=code)


async def _write(client: Client) -> None:
    with contextlib.suppress(Exception):
        await client.pump()
