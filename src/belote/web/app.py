"""The web application: score sheets, a table against bots, rooms with friends.

:func:`create_app` builds the FastAPI application; ``belote serve`` runs it with
uvicorn.  Pages are rendered by the server (Jinja2 templates); a little plain
JavaScript (``static/``, no build step, nothing fetched from elsewhere) works
out the other team's points live and drives the card table over a WebSocket.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from belote import __version__
from belote.errors import BeloteError, Refusal
from belote.web import i18n, pwa, routes_history, routes_review, routes_rooms, routes_sheets
from belote.web.i18n import lang_of
from belote.web.pages import (
    BOT_LABELS,
    HERE,
    PROFILE_LABELS,
    Refused,
    SheetAccess,
    make_templates,
    refusal_json,
    render,
)
from belote.web.refusals import say_refusal
from belote.web.review import Reviews
from belote.web.room_manager import RoomManager
from belote.web.rooms import RoomSettings
from belote.web.security import (
    Guard,
    GuardMiddleware,
    Limits,
    RateLimiter,
    allowed_host_names,
    parse_proxies,
)
from belote.web.sheet_live import SheetLive
from belote.web.store import RoomStore

# The pages' shared pieces live in belote.web.pages; named here as well, as before.
__all__ = ["BOT_LABELS", "FULL_SCAN_S", "GC_THRESHOLDS", "PROFILE_LABELS", "SWEEP_EVERY_S",
           "SheetAccess", "create_app", "full_scan", "make_templates", "render", "serving_gc",
           "uvicorn_options"]

SWEEP_EVERY_S: Final = 60.0

# The garbage collector of a serving process (:func:`serving_gc`): young collections
# a little rarer than Python's (700), each short (a young generation holds at most some
# 20,000 objects).  The two older thresholds never come into play: every collection
# freezes what it leaves, and gc.freeze() sets the collections' counters back to 0.
GC_THRESHOLDS: Final = (2_000, 10, 100)

# A collection of the older generations goes through every object they hold: with
# thousands of rooms in memory (their deals kept for the game's history), a full one
# took some 0.75 s at 2,000 tables with 500 players, every minute or two, and a
# middle one tens of milliseconds.  So what survives a collection, a young one
# included, is frozen out of the next ones (gc.freeze: it was alive a moment ago, and
# the rooms' objects live as long as their rooms): the collector only ever goes
# through what came since the last collection.  What was frozen and has since become
# garbage held in a cycle (a closed room's, a closed connection's) is freed by a full
# scan every FULL_SCAN_S, on a thread of its own: everything unfrozen, collected and
# frozen again.  That scan holds the interpreter for the whole collection (0.6-0.9 s
# at 2,000 tables, measured by a session whose work did not land): once an hour.
FULL_SCAN_S = 3600.0

_scanning = [False]  # a full scan is running (_freeze_survivors leaves it alone)
_scanner: list[threading.Thread] = []  # the thread started by serving_gc, once


def serving_gc() -> None:
    """Set the garbage collector of a process that serves the app (``belote serve``),
    once its start-up is done: what start-up made (modules, the app, the templates)
    is frozen out of every collection (``gc.freeze``), the thresholds are
    :data:`GC_THRESHOLDS`, what survives any collection is frozen out of the next
    ones, and a daemon thread runs :func:`full_scan` every :data:`FULL_SCAN_S`.  Not
    for a process that creates apps again and again (the tests): what is frozen is
    freed an hour later at the soonest."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    if _freeze_survivors not in gc.callbacks:
        gc.callbacks.append(_freeze_survivors)
    if not _scanner:
        thread = threading.Thread(target=_scan_every, name="belote-gc-scan", daemon=True)
        _scanner.append(thread)
        thread.start()


def full_scan() -> int:
    """Go through everything the collector tracks, what is frozen included, free the
    garbage held in cycles and freeze what is left again; answers how many
    unreachable objects the collection found."""
    _scanning[0] = True
    try:
        gc.unfreeze()
        return gc.collect()
    finally:
        gc.freeze()
        _scanning[0] = False


def _scan_every() -> None:
    while True:
        time.sleep(FULL_SCAN_S)  # read at each turn (a test makes it shorter)
        full_scan()


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    """A collector's callback: after any collection (but a full scan's, which freezes
    at its end), what is left in the collector's generations (alive a moment ago) is
    frozen out of the next collections."""
    if phase == "stop" and not _scanning[0]:
        gc.freeze()


def uvicorn_options(limits: Limits) -> dict[str, Any]:
    """The options ``belote serve`` gives uvicorn for the app (its benchmark too).

    Frames and bodies are bounded (the app checks JSON sizes; uvicorn drops larger
    WebSocket frames).  WebSocket messages are sent uncompressed: uvicorn would
    compress each with permessage-deflate (on by default), which costs the server
    CPU on every state it sends (the most frequent thing it does) to save little: a
    state is some 2 KB, a few milliseconds on the slowest link.

    The HTTP parser is h11, named: uvicorn would take httptools wherever it is
    installed, and httptools puts no bound on a request's head, where h11 refuses a
    head over ``h11_max_incomplete_event_size`` (64 KiB)."""
    return {"http": "h11", "ws_max_size": limits.max_json * 2,
            "h11_max_incomplete_event_size": 64 * 1024, "ws_per_message_deflate": False}


def create_app(
    db_path: str | os.PathLike[str] | None = None,
    *,
    settings: RoomSettings | None = None,
    seed: int | None = None,
    limits: Limits | None = None,
    secure_cookie: bool = False,
    local_owner: bool = False,
    allowed_hosts: Iterable[str] = (),
    trusted_proxies: Iterable[str] = (),
) -> FastAPI:
    """The application over the sheets database ``db_path`` (as ``belote sheet``'s
    ``--db``; None: ``$BELOTE_DB`` or the user data folder).  The rooms and their
    games are kept in the same database and come back after a restart.

    ``settings`` pace the bots of the rooms and set the grace and turn timers;
    ``seed`` makes every room's deals and bots reproducible (tests,
    demonstrations); ``limits`` bound what one client may send or create;
    ``secure_cookie`` marks the identity cookie ``Secure`` (behind HTTPS);
    ``local_owner`` says the server serves on loopback only, so that a browser on
    loopback is the machine's owner and sees the sheets of ``belote sheet``
    (:mod:`belote.web.routes_sheets`).
    ``allowed_hosts`` are the names the app answers to besides the loopback
    ones (a ``Host`` header naming another is refused: DNS rebinding);
    ``trusted_proxies`` the addresses or networks whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed (none by default).  A name or an
    address that cannot be read is a :class:`BeloteError`.
    """
    try:
        hosts = allowed_host_names(allowed_hosts)
    except ValueError as exc:
        raise BeloteError(f"allowed host: {exc}") from None
    try:
        proxies = parse_proxies(trusted_proxies)
    except ValueError as exc:
        raise BeloteError(f"trusted proxy: {exc}") from None
    sheets = SheetAccess(db_path)
    limits = limits or Limits()
    store = RoomStore(sheets.path)
    rooms = RoomManager(settings, seed=seed, store=store,
                        rooms_per_client=limits.rooms_per_client)
    live = SheetLive(sheets)  # the sheets' live pages
    # the deals' analyses (web/review.py), their cache bounded
    reviews = Reviews(store, cache_bytes=int(rooms.settings.analysis_cache_bytes))

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        rooms.restore()
        sweeper = asyncio.create_task(_sweep(rooms))
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            await live.close()
            reviews.close()
            await rooms.close()
            store.close()

    app = FastAPI(title="belote", version=__version__, lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url=None)
    app.add_middleware(GuardMiddleware, guard=Guard(store.secret_key()), limits=limits,
                       secure_cookie=secure_cookie, allowed_hosts=hosts,
                       trusted_proxies=proxies, known=lambda identity: any(
                           room.seat_of_owner(identity) is not None
                           for room in rooms.rooms.values()) or store.holds_seat(identity))
    app.state.sheets = sheets
    app.state.local_owner = local_owner
    app.state.sheet_live = live
    app.state.rooms = rooms
    app.state.reviews = reviews
    app.state.limits = limits
    app.state.room_limiter = RateLimiter(limits.rooms_per_minute / 60.0, limits.rooms_burst)
    app.state.message_limiter = RateLimiter(limits.network_messages_per_second,
                                            limits.network_messages_burst)
    app.state.templates = make_templates()
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(routes_sheets.router)
    app.include_router(routes_rooms.router)
    app.include_router(routes_history.router)
    app.include_router(routes_review.router)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if isinstance(exc, Refused):
            error = exc.error
        elif exc.status_code == 404:  # an address that leads to no page (its detail kept)
            error = BeloteError.refused(Refusal.NO_PAGE)
            error.args = (str(exc.detail),)
        elif exc.status_code == 405:  # a GET of a form's address, a PUT...
            error = BeloteError.refused(Refusal.METHOD_NOT_ALLOWED, detail=str(exc.detail),
                                        method=request.method)
        else:  # Starlette's own (a form it cannot read...): its English kept, its status said
            error = BeloteError.refused(Refusal.REQUEST_REFUSED, detail=str(exc.detail),
                                        status=exc.status_code)
        return _error(request, exc.status_code, error, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        return _error(request, *_invalid_request(request, exc.errors()))

    @app.exception_handler(BeloteError)
    async def refused(request: Request, exc: BeloteError) -> Response:
        return _error(request, 422, exc)

    @app.exception_handler(sqlite3.Error)
    async def database(request: Request, exc: sqlite3.Error) -> Response:
        return _error(request, 503, BeloteError.refused(Refusal.DATABASE_UNAVAILABLE,
                                                        detail=str(exc)))

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        data = (HERE / "static" / "favicon.svg").read_bytes()
        return Response(data, media_type="image/svg+xml")

    app.include_router(i18n.router)
    app.include_router(pwa.router)

    @app.api_route("/", methods=["GET", "HEAD"], response_class=HTMLResponse)
    async def home(request: Request) -> Response:
        templates: Jinja2Templates = request.app.state.templates
        return templates.TemplateResponse(request, "index.html", {})

    return app


async def _sweep(rooms: RoomManager) -> None:
    while True:
        await asyncio.sleep(SWEEP_EVERY_S)
        await rooms.sweep()


def _invalid_request(request: Request, errors: Sequence[Any]) -> tuple[int, BeloteError]:
    """A request FastAPI could not read into its route's arguments (a path's or a
    query's value, a form's file), refused by code (pydantic's English kept as the
    JSON's ``error``, never said on a page): an address that leads to no page
    (``/sheets/abc``, 404), or the fields that are not valid (400).  (A JSON body is
    read by its route, :func:`belote.web.security.loads`: ``not_json``.)"""
    locations = [".".join(str(p) for p in e.get("loc", ())) for e in errors]
    if not request.url.path.startswith("/api/") and any(
            tuple(e.get("loc", ()))[:1] == ("path",) for e in errors):
        # /sheets/abc: an address that leads to no page, said as a page says it
        return 404, BeloteError.refused(Refusal.NO_PAGE)
    problems = "; ".join(f"{where}: {e.get('msg', 'invalid')}"
                         for where, e in zip(locations[:3], errors[:3], strict=True))
    return 400, BeloteError.refused(Refusal.BAD_REQUEST, problems=problems,
                                    fields=", ".join(dict.fromkeys(locations[:3])))


def _error(request: Request, status: int, error: BeloteError,
           headers: Mapping[str, str] | None = None) -> Response:
    """A refusal answered: its English and code in JSON (/api/), else a page that
    says it in its language from its code."""
    if request.url.path.startswith("/api/"):
        return refusal_json(error, status, dict(headers) if headers else None)
    response = render(request, "error.html", {
        "status": status, "message": say_refusal(lang_of(request), error)}, status)
    if headers:
        response.headers.update(headers)
    return response
