"""The review of a finished deal: ``/review/{game}/{deal}`` (the deal replayed with
every hand open, each card marked by what it lost, the bidding weighed, a summary per
player), its analysis (``/review/{game}/{deal}/analysis``: GET its state, POST to start
it) and its share link (``.../link``: POST makes one, ``.../link/revoke`` revokes it).
The work, the limits, the cache and the links are :mod:`belote.web.review`'s.

Who may see a review:

* a browser whose identity held a person's seat of the game (the history's rule,
  :mod:`belote.web.routes_history`), one that brings the deal's share link
  (``?key=SECRET``; it opens that one deal only), or the room's invitation
  (``?invite=``, as the room's link: whoever was invited could watch the game); each
  secret compared in constant time (:func:`belote.web.security.secret_equal`);
* anyone, for a public room (listed on /rooms with its link: anyone could watch its
  game live): once a deal is over its hands tell nothing of the deals to come.  The
  outsiders of a table against bots or of a room with friends get the 404 below;
* only once the deal is over: nobody sees the hands of a deal still played, not even
  its players (refused with 403 for them, 404 for everyone else).

A game of another browser, one that does not exist, a malformed id or deal number, a
forged or revoked key and a browser without an identity all get the same 404, which
says nothing of whether the game exists.  Every refusal is one of
:class:`belote.errors.Refusal` (``no_page``, ``deal_in_play``, ``no_identity``,
``one_analysis_at_a_time``, ``analyses_busy``): a page says it in its language from its
code, a JSON answer as ``{"error": WORDS, "code": CODE}``, its words in the reader's
language (the page's script shows them).  Making or revoking a link is for the game's
seats only (never through a key).  The analysis's settings are the server's
(:class:`~belote.web.review.ReviewSettings`); the client only asks for it to start.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from belote.errors import BeloteError, Refusal
from belote.history import check_game_id
from belote.web import routes_history
from belote.web.i18n import N_, gettext, lang_of
from belote.web.pages import Refused, render
from belote.web.refusals import error_code, say_refusal
from belote.web.review import MAX_DEAL, FoundDeal, ReviewBusy, Reviews, replay_steps
from belote.web.room_manager import RoomManager
from belote.web.routes_rooms import identity

router = APIRouter()

FAILED: Final = N_("The analysis could not be finished.")


def _no_page() -> Refused:
    """The one 404 (module doc): an address that leads to no page."""
    return Refused(404, BeloteError.refused(Refusal.NO_PAGE))


def _reviews(request: Request) -> Reviews:
    reviews: Reviews | None = getattr(request.app.state, "reviews", None)
    if reviews is None:
        raise _no_page()
    return reviews


def seat_of_game(request: Request, game_id: str) -> bool:
    """Whether this browser's identity held a person's seat of game ``game_id``."""
    me = identity(request)
    manager: RoomManager = request.app.state.rooms
    store = manager.store
    return me is not None and store is not None and store.holds_room_seat(me, game_id)


async def access(request: Request, game_id: str, n: int, key: str | None,
                 invite: str | None = None) -> tuple[FoundDeal, bool]:
    """Deal ``n`` of game ``game_id`` if this browser may review it (module doc), and
    whether it holds a seat of the game (else it came with the deal's share link or the
    room's invitation, or the room is public)."""
    try:
        check_game_id(game_id)
    except BeloteError:
        raise _no_page() from None
    if not 1 <= n <= MAX_DEAL:
        raise _no_page()
    reviews = _reviews(request)
    seat = seat_of_game(request, game_id)
    if not (seat or reviews.link_opens(game_id, n, key)
            or reviews.invite_opens(game_id, invite) or reviews.public_room(game_id)):
        raise _no_page()
    deal = await asyncio.to_thread(reviews.find_deal, game_id, n)
    if deal is None:
        raise _no_page()
    if not deal.finished:
        raise Refused(403, BeloteError.refused(Refusal.DEAL_IN_PLAY))
    return deal, seat


def review_path(game_id: str, n: int, key: str | None = None) -> str:
    path = f"/review/{quote(game_id)}/{n}"
    return path if key is None else f"{path}?key={quote(key)}"


def _query(seat: bool, key: str | None, invite: str | None) -> str:
    """What the page's script adds to its requests: the key or the invitation it came
    with (nothing for a seat of the game)."""
    if seat:
        return ""
    if key:
        return f"?key={quote(key)}"
    return f"?invite={quote(invite)}" if invite else ""


def _deal_link(game_id: str, n: int) -> str | None:
    return review_path(game_id, n)


routes_history.deal_links.append((N_("Review"), _deal_link))

# Not kept by caches; the site's Referrer-Policy (same-origin) keeps a key in the
# address from other sites.
_HEADERS: Final = {"Cache-Control": "no-store"}


def _json_refused(request: Request, refused: Refused) -> Response:
    """A refusal as the page's script reads it: ``{"error": WORDS, "code": CODE}``, its
    words in the reader's language, said from its code (a page's refusal is the app's
    error page, :func:`belote.web.app.create_app`)."""
    body: dict[str, Any] = {"error": say_refusal(lang_of(request), refused.error)}
    code = error_code(refused.error)
    if code is not None:
        body["code"] = code
    return JSONResponse(body, status_code=refused.status_code, headers=_HEADERS)


@router.get("/review/{game_id}/{n}")
async def review_page(request: Request, game_id: str, n: int, key: str | None = None,
                      invite: str | None = None) -> Response:
    deal, seat = await access(request, game_id, n, key, invite)
    reviews = _reviews(request)
    replay = replay_steps(deal.record)
    share = None
    if seat:
        secret = reviews.link_secret(game_id, n)
        share = None if secret is None else review_path(game_id, n, secret)
    data: dict[str, Any] = {
        **replay,
        "game": game_id, "deal": n,
        "endpoint": review_path(game_id, n) + "/analysis" + _query(seat, key, invite),
        "link_endpoint": review_path(game_id, n) + "/link" if seat else None,
        "share": share,
        "analysis": reviews.cached(deal.record),
        "dd_only": reviews.settings.dd_only,
    }
    response = render(request, "review.html", {
        "data": data, "deal": n, "game_id": game_id, "seat": seat, "nav": "history"})
    response.headers.update(_HEADERS)
    return response


@router.get("/review/{game_id}/{n}/analysis")
async def analysis_state(request: Request, game_id: str, n: int,
                         key: str | None = None, invite: str | None = None) -> Response:
    """The analysis if done (``{"state": "done", "analysis": ...}``), else how far it
    is (``waiting``, ``running`` with ``done`` and ``total``, ``failed``, ``none``)."""
    try:
        deal, _seat = await access(request, game_id, n, key, invite)
    except Refused as exc:
        return _json_refused(request, exc)
    return JSONResponse(_state(request, deal), headers=_HEADERS)


def _state(request: Request, deal: FoundDeal) -> dict[str, Any]:
    reviews = _reviews(request)
    cached = reviews.cached(deal.record)
    if cached is not None:
        return {"state": "done", "analysis": cached}
    job = reviews.job(deal.record)
    if job is None:
        return {"state": "none"}
    out = job.to_json()
    if job.state == "failed":
        out["error"] = gettext(lang_of(request), FAILED)
    return out


@router.post("/review/{game_id}/{n}/analysis")
async def analysis_start(request: Request, game_id: str, n: int,
                         key: str | None = None, invite: str | None = None) -> Response:
    """Start the analysis (the server's settings), unless it is done or under way."""
    try:
        deal, _seat = await access(request, game_id, n, key, invite)
        me = identity(request)
        if me is None:
            raise Refused(403, BeloteError.refused(Refusal.NO_IDENTITY))
        reviews = _reviews(request)
        if reviews.cached(deal.record) is None:
            try:
                reviews.start(me, deal.record)
            except ReviewBusy as exc:
                raise Refused(429, exc) from None
    except Refused as exc:
        return _json_refused(request, exc)
    return JSONResponse(_state(request, deal), status_code=202, headers=_HEADERS)


async def _seat_only(request: Request, game_id: str, n: int) -> Reviews:
    """Deal ``n`` must be over and this browser a seat of the game (never a key)."""
    _deal, seat = await access(request, game_id, n, None)
    if not seat:
        raise _no_page()
    return _reviews(request)


@router.post("/review/{game_id}/{n}/link")
async def make_link(request: Request, game_id: str, n: int) -> Response:
    """A new share link for the deal's review (the one before stops opening it)."""
    try:
        reviews = await _seat_only(request, game_id, n)
    except Refused as exc:
        return _json_refused(request, exc)
    secret = await reviews.make_link(game_id, n)
    return JSONResponse({"link": review_path(game_id, n, secret)}, headers=_HEADERS)


@router.post("/review/{game_id}/{n}/link/revoke")
async def revoke_link(request: Request, game_id: str, n: int) -> Response:
    """The deal's share link no longer opens its review."""
    try:
        reviews = await _seat_only(request, game_id, n)
    except Refused as exc:
        return _json_refused(request, exc)
    await reviews.revoke_link(game_id, n)
    return JSONResponse({"link": None}, headers=_HEADERS)
