"""Score sheet pages: list, create, the calculator form, undo, edit, chart, export,
the share links and the live page's WebSocket.

The pages use the same database and the same :class:`~belote.sheets.SheetStore`
as ``belote sheet``.  A refused hand re-renders the page with the message next
to the form and every field as it was typed.

**Owners.**  A sheet belongs to the browser identity that made it (or imported
it); one made by ``belote sheet`` belongs to the machine's owner, who is a
browser on loopback while the server itself serves on loopback only
(``create_app(local_owner=True)``, :func:`machine_owner`).  Its owner may do
everything; a browser that opened its **keep** link (``/sheets/ID/keep/SECRET``)
may add, undo and edit hands; one that opened its **follow** link
(``/sheets/ID/follow/SECRET``) may read it, export it and follow it live.  The
link's secret is checked once (:func:`belote.web.security.secret_equal`), the
browser's identity is remembered with the sheet, and the browser is sent on to
``/sheets/ID`` so that the secret leaves the address bar.  Anyone else gets the
very 404 of a sheet that does not exist, on every page, form, export and API and
on the WebSocket; a follower who tries to change the sheet, or a keeper to
delete it or manage its links, gets 403 (he knows the sheet exists: nothing is
told that he did not know).

**Live.**  ``/ws/sheets/{id}``: the first message, within :data:`HELLO_TIMEOUT_S`,
is ``{"type": "follow"}`` (the cookie's identity decides) or ``{"type": "follow",
"secret": S}`` with the sheet's follow or keep secret; the answer is ``{"type":
"welcome", "role": ..., "events": N}``, then ``{"type": "changed", "events": N}``
each time the sheet changes (:mod:`belote.web.sheet_live`): the page fetches
itself again.  A socket of another site, a hello that is not valid, or one
that never comes is closed; the client may then send only ``{"type": "ping"}``
(answered ``{"type": "pong"}``), at the room sockets' rate.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import dataclasses
import io
import ipaddress
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from fastapi import APIRouter, HTTPException, Request, UploadFile, WebSocket
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect

from belote.errors import BeloteError, InvalidRecordError, Refusal
from belote.options import PROFILES, TARGET_CHOICES, Limit, make_rules
from belote.scoring import (
    Outcome,
    declaration_max,
    hand_entry_to_json,
    parse_hand_entry,
    reached,
    score_hand,
)
from belote.sheets import (
    LINK_KINDS,
    ROLES,
    SheetBusyError,
    SheetError,
    SheetNotFoundError,
    SheetStore,
    link_path,
    no_such_sheet,
)
from belote.web.chart import running_chart
from belote.web.forms import (
    DECL_KINDS,
    DECLARATION_VALUES,
    FORM_FIELDS,
    TEAMS,
    carre_values,
    compare_declarations,
    contract_choices,
    entry_to_form,
    form_to_entry,
    named_declarations,
    trump_choices,
    trump_mode,
    wants_trump,
)
from belote.web.i18n import N_, gettext, lang_of
from belote.web.pages import Refused, SheetAccess, refusal_json, render
from belote.web.present import DECL_LABELS, declaration_comparison, score_calculation
from belote.web.refusals import error_code, refusal_message, say_refusal
from belote.web.security import (
    BadInput,
    Limits,
    RateLimiter,
    loads,
    parse_whole,
    secret_equal,
)
from belote.web.sheet_live import MAX_FOLLOWERS, Follower, SheetLive

router = APIRouter()
T = TypeVar("T")

RANK: Final = {role: k for k, role in enumerate(ROLES)}  # follow < keep < owner
HELLO_TIMEOUT_S: Final = 10.0  # a live socket that says nothing valid by then is closed
MAX_SOCKET_MESSAGE: Final = 512  # bytes of a live socket's message (a hello with a secret)
MAX_SECRET: Final = 100  # characters of a link's secret in an address


def identity_of(conn: HTTPConnection) -> str | None:
    """The browser's identity (the security middleware reads its cookie)."""
    value = conn.scope.get("state", {}).get("identity")
    return value if isinstance(value, str) else None


def machine_owner(conn: HTTPConnection) -> bool:
    """Whether this request is the machine owner's: the server serves on loopback only
    (``create_app(local_owner=True)``) and the request comes from loopback, not relayed
    by a proxy (a proxy on this machine makes every visitor's request come from
    loopback: only one it names is believed, and then the visitor is not the owner)."""
    if not getattr(conn.app.state, "local_owner", False) or conn.client is None:
        return False
    if "x-forwarded-for" in conn.headers or "forwarded" in conn.headers:
        # Relayed by a proxy on this machine: whoever sent it is not necessarily here.
        return False
    try:
        return ipaddress.ip_address(conn.client.host).is_loopback
    except ValueError:
        return False


def _role(store: SheetStore, conn: HTTPConnection, sheet_id: int, need: str) -> str:
    """What this browser may do with the sheet, at least ``need``: a sheet it may not
    see is refused exactly as one that does not exist (404), a role too small 403."""
    role = store.role(sheet_id, identity_of(conn), machine_owner(conn))
    if role is None:
        raise no_such_sheet(sheet_id)
    if RANK[role] < RANK[need]:
        raise Refused(403, SheetError.refused(
            Refusal.FOLLOW_ONLY if need == "keep" else Refusal.OWNER_ONLY, f"sheet {sheet_id}",
            sheet=sheet_id))
    return role


def _with_store(request: Request, fn: Callable[[SheetStore], T]) -> T:
    """``fn`` on the sheets (in the caller's thread: a worker's); another process
    holding the database past the web's short wait is a 503 with a plain message,
    nothing changed."""
    access: SheetAccess = request.app.state.sheets
    try:
        with access.open() as store:
            return fn(store)
    except SheetBusyError:
        raise Refused(503, SheetError.refused(Refusal.SHEETS_BUSY)) from None


def _with_sheet(request: Request, sheet_id: int, need: str,
                fn: Callable[[SheetStore], T]) -> T:
    """``fn`` on the store once this browser is known to be allowed ``need``."""
    def guarded(store: SheetStore) -> T:
        _role(store, request, sheet_id, need)
        return fn(store)

    return _with_store(request, guarded)


def _changed(request: HTTPConnection, sheet_id: int) -> None:
    """Tell the sheet's live pages (:mod:`belote.web.sheet_live`)."""
    live: SheetLive | None = getattr(request.app.state, "sheet_live", None)
    if live is not None:
        live.changed(sheet_id)


def _not_found(exc: SheetNotFoundError) -> HTTPException:
    return Refused(404, exc)


async def _form(request: Request) -> dict[str, str]:
    data = await request.form()
    return {k: v for k, v in data.items() if isinstance(v, str)}


# --- the list ---------------------------------------------------------------------------


@router.get("/sheets")
def sheet_list(request: Request) -> Response:
    return _list_page(request, {}, None)


def _list_page(request: Request, values: Mapping[str, str], error: BeloteError | None) -> Response:
    identity = identity_of(request)
    machine = machine_owner(request)
    sheets, shared = _with_store(request, lambda s: (
        s.owned_sheets(identity, machine), s.shared_sheets(identity, machine)))
    return render(request, "sheets.html", {
        "sheets": list(reversed(sheets)),
        "shared": list(reversed(shared)),
        "profiles": PROFILES,
        "targets": TARGET_CHOICES,
        "values": values,
        "error": error,
    }, status=200 if error is None else 422)


@router.post("/sheets")
async def sheet_create(request: Request) -> Response:
    form = await _form(request)
    try:
        target = parse_whole(form.get("target"), "target", 1, 100_000)
        names = (form.get("team_ns", "").strip() or "NS", form.get("team_ew", "").strip() or "EW")
        profile = form.get("profile", "classic")
        players_text = form.get("players", "4").strip() or "4"
        if players_text not in ("4", "5", "6", "7"):
            raise InvalidRecordError.refused(Refusal.SHEET_PLAYERS, "players", text=players_text)
        players = None if players_text == "4" else int(players_text)
        player_names = form.get("player_names", "").strip() or None

        def create(store: SheetStore) -> dict[str, Any]:
            return store.create(
                profile, owner=identity_of(request), target=target,
                name=form.get("name") or None,
                team_names=names if players is None else None, players=players,
                player_names=player_names if players is not None else None)

        state = await _run(request, create)
    except BeloteError as exc:
        return await run_in_threadpool(_list_page, request, form, exc)
    return RedirectResponse(f"/sheets/{state['id']}", status_code=303)



async def _run(request: Request, fn: Callable[[SheetStore], T]) -> T:
    """``fn`` on the sheets, in a worker thread (:func:`_with_store`)."""
    return await run_in_threadpool(_with_store, request, fn)


@router.post("/sheets/import")
async def sheet_import(request: Request, file: UploadFile) -> Response:
    raw = await file.read()
    limits: Limits = request.app.state.limits
    try:
        try:
            obj = loads(raw, dataclasses.replace(limits, max_json=limits.max_body), "the file")
        except BadInput as exc:
            raise InvalidRecordError.refused(Refusal.IMPORT_NOT_JSON, "import",
                                             file=file.filename, detail=str(exc)) from None
        try:
            state = await _run(request, lambda s: s.import_json(obj,
                                                                owner=identity_of(request)))
        except BeloteError as exc:
            if error_code(exc) is not None:
                raise
            # the record's own checks (a key missing, a value of the wrong kind): said
            # as a file that cannot be imported, its English kept as the message
            raise InvalidRecordError.refused(Refusal.IMPORT_INVALID, file=file.filename,
                                             detail=str(exc)) from None
    except BeloteError as exc:
        return await run_in_threadpool(_list_page, request, {}, exc)
    return RedirectResponse(f"/sheets/{state['id']}", status_code=303)


# --- one sheet ----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Loaded:
    """A sheet as its page shows it to this browser."""

    state: dict[str, Any]
    entries: list[dict[str, Any]]
    role: str
    events: int  # the count the live page starts from
    links: dict[str, str | None]  # the owner's share links (full addresses), else {}


def _load(request: Request, sheet_id: int, need: str = "follow") -> Loaded:
    def load(store: SheetStore) -> Loaded:
        role = _role(store, request, sheet_id, need)
        state = store.state(sheet_id)
        _, entries = store.load(sheet_id)
        events = store.pulse([state["id"]]).get(state["id"], (0, None, None))[0]
        links: dict[str, str | None] = {}
        if role == "owner":
            base = str(request.base_url).rstrip("/")
            links = {kind: None if secret is None else base + link_path(
                state["id"], kind, secret) for kind, secret in store.links(sheet_id).items()}
        return Loaded(state, [hand_entry_to_json(e) for e in entries], role, events, links)

    try:
        return _with_store(request, load)
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None


def _sheet_context(
    state: dict[str, Any], entries: list[dict[str, Any]], lang: str = "en"
) -> dict[str, Any]:
    rules = make_rules(state["profile"], state["options"])
    names = state["team_names"]
    seatings: list[dict[str, Any]] = []
    if state.get("players"):
        # docs/rules.md §13: the teams change every hand; "NS" is the hand's first team.
        player_names = state["player_names"]
        seatings = state["seatings"]

        def teams(seating: dict[str, Any]) -> dict[str, str]:
            return {t: " & ".join(player_names[p - 1] for p in seating["teams"][k])
                    for k, t in enumerate(("NS", "EW"))}

        names = teams(state["next"]) if state.get("next") else {
            "NS": gettext(lang, N_("1st team")), "EW": gettext(lang, N_("2nd team"))}
    rows = []
    carried = 0  # the litige reserve the hand plays for (§8.3)
    for i, entry in enumerate(entries):
        row_names = names
        out: list[str] = []
        if state.get("players"):
            row_names = teams(seatings[i])
            out = [state["player_names"][p - 1] for p in seatings[i]["out"]]
        score = state["hands"][i]
        reserve_won = None
        if carried and score["outcome"] in (Outcome.MADE, Outcome.FAILED):
            won_by = entry["taker"] if score["outcome"] == Outcome.MADE else (
                "EW" if entry["taker"] == "NS" else "NS")
            reserve_won = {"team": won_by, "points": carried}
        rows.append({
            "number": i + 1,
            "entry": entry,
            "score": score,
            "running": state["running"][i],
            "names": row_names,
            "out": out,
            "reserve_won": reserve_won,
            "reserve_kept": score["reserve"] if score["outcome"] == Outcome.LITIGE else 0,
            "calculation": score_calculation(rules, parse_hand_entry(entry, rules)),
        })
        carried = score["reserve"]
    next_out: list[str] = []
    next_dealer = None
    if state.get("players") and state.get("next"):
        next_out = [state["player_names"][p - 1] for p in state["next"]["out"]]
        next_dealer = state["player_names"][state["next"]["dealer"] - 1]
    return {
        "state": state,
        "rows": rows,
        "rules": rules,
        "names": names,
        "next_out": next_out,
        "next_dealer": next_dealer,
        "chart": "" if state.get("players") else running_chart(
            state["running"], state["target"], (names["NS"], names["EW"]),
            lambda text: gettext(lang, text)),
        "contracts": contract_choices(rules) if rules.is_auction else [],
        "trumps": trump_choices(rules),
        "wants_trump": wants_trump(rules),
        "declaration_values": DECLARATION_VALUES,
        "declaration_max": declaration_max(rules),
        "decl_kinds": [(k, DECL_LABELS[k]) for k in DECL_KINDS],
        "decl_points": carre_values(rules),
        "deciding_hand": _deciding_hand(state, rules),
    }


def _deciding_hand(state: Mapping[str, Any], rules: Any) -> bool:
    """Both teams at the target with the same total: a deciding hand is played (§11)."""
    if state.get("players") or state.get("finished") or not state.get("hands"):
        return False
    ns, ew = state["totals"]["NS"], state["totals"]["EW"]
    if rules.limit is Limit.DEALS:
        return bool(ns == ew and len(state["hands"]) >= state["target"])
    return bool(ns == ew and reached(rules, ns, state["target"]))


def error_field(error: BeloteError | None) -> str | None:
    """The form field a refused hand's message is about, to show it there.

    >>> from belote.errors import Refusal
    >>> error_field(InvalidRecordError.refused(Refusal.DECLARATIONS_MAX, "hand 3",
    ...                                        "declarations.NS", value=1000, limit=550))
    'decl_points'
    >>> error_field(InvalidRecordError.refused(Refusal.NOT_WHOLE, "points", text="x")) is None
    True
    """
    if error is not None and any(_DECL_FIELD.fullmatch(part) for part in error.context):
        return "decl_points"
    return None


# The fields of the declarations, as a refusal's context names them (its field names).
_DECL_FIELD: Final = re.compile(r"decl(arations|_points|_team|_tie|_(NS|EW)_\w+)?(\.\w+)?")


def _sheet_page(request: Request, sheet_id: int, values: Mapping[str, str] | None = None,
                error: BeloteError | None = None) -> Response:
    loaded = _load(request, sheet_id)
    context = _form_context(request, loaded, dict(values or {}), error)
    return render(request, "sheet.html", context, status=200 if error is None else 422)


def _form_context(request: Request, loaded: Loaded, values: dict[str, str],
                  error: BeloteError | None) -> dict[str, Any]:
    """The sheet's page context with a hand's form: its values and the error, if any;
    what this browser may do (``role``, ``may_keep``) and the owner's links."""
    context = _sheet_context(loaded.state, loaded.entries, lang_of(request))
    context["values"] = values
    context["error"] = error
    context["error_field"] = error_field(error)
    context["error_code"] = None if error is None else error_code(error)
    context["role"] = loaded.role
    context["may_keep"] = RANK[loaded.role] >= RANK["keep"]
    context["links"] = loaded.links
    context["events"] = loaded.events
    return context


@router.get("/sheets/{sheet_id}")
def sheet_show(request: Request, sheet_id: int) -> Response:
    return _sheet_page(request, sheet_id)


async def _change_sheet(request: Request, sheet_id: int, change: Callable[[SheetStore], object],
                        values: Mapping[str, str] | None = None) -> Response:
    """Apply ``change`` to the sheet (a keeper's or the owner's), then back to its
    hands; a refused change shows the sheet again with the error (422) and the form
    as it was sent."""
    try:
        await run_in_threadpool(_with_sheet, request, sheet_id, "keep", change)
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None
    except BeloteError as exc:
        return await run_in_threadpool(_sheet_page, request, sheet_id, values, exc)
    _changed(request, sheet_id)
    return RedirectResponse(f"/sheets/{sheet_id}#hands", status_code=303)


@router.post("/sheets/{sheet_id}/hands")
async def sheet_add(request: Request, sheet_id: int) -> Response:
    form = await _form(request)

    def add(store: SheetStore) -> dict[str, Any]:
        info, _ = store.load(sheet_id)
        return store.add_hand(sheet_id, form_to_entry(form, info.rules()))

    return await _change_sheet(request, sheet_id, add, {k: form.get(k, "") for k in FORM_FIELDS})


@router.post("/sheets/{sheet_id}/undo")
async def sheet_undo(request: Request, sheet_id: int) -> Response:
    return await _change_sheet(request, sheet_id, lambda s: s.undo(sheet_id))


@router.post("/sheets/{sheet_id}/delete")
async def sheet_delete(request: Request, sheet_id: int) -> Response:
    try:
        await run_in_threadpool(_with_sheet, request, sheet_id, "owner",
                                lambda s: s.delete(sheet_id))
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None
    _changed(request, sheet_id)
    return RedirectResponse("/sheets", status_code=303)


@router.post("/sheets/{sheet_id}/share")
async def sheet_share(request: Request, sheet_id: int) -> Response:
    """The owner makes, renews or revokes the sheet's follow or keep link."""
    form = await _form(request)
    kind, action = form.get("kind", ""), form.get("action", "")
    if kind not in LINK_KINDS or action not in ("make", "renew", "revoke"):
        raise Refused(400, SheetError.refused(
            Refusal.BAD_FIELD, "share", field="share",
            detail=f"kind {kind[:20]!r} and action {action[:20]!r} are not follow or keep, "
            "and make, renew or revoke"))
    try:
        await run_in_threadpool(_with_sheet, request, sheet_id, "owner",
                                lambda s: s.set_link(sheet_id, kind, action))
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None
    _changed(request, sheet_id)
    return RedirectResponse(f"/sheets/{sheet_id}#share", status_code=303)


@router.get("/sheets/{sheet_id}/{kind}/{secret}")
def sheet_link(request: Request, sheet_id: int, kind: str, secret: str) -> Response:
    """A follow or keep link: its secret checked, this browser remembered with the
    sheet, then on to the sheet's page (the secret leaves the address bar).  A wrong
    or old secret is answered as a sheet that does not exist."""
    if kind not in LINK_KINDS:
        raise Refused(404, SheetError.refused(Refusal.NO_PAGE))
    identity = identity_of(request)

    def enter(store: SheetStore) -> None:
        known = store.links(sheet_id)[kind] if len(secret) <= MAX_SECRET else None
        if identity is None or not secret_equal(known, secret):
            raise no_such_sheet(sheet_id)
        role = store.role(sheet_id, identity, machine_owner(request))
        if role is None or RANK[role] < RANK[kind]:
            store.grant(sheet_id, identity, kind)

    try:
        _with_store(request, enter)
    except SheetNotFoundError:
        raise _not_found(no_such_sheet(sheet_id)) from None
    return RedirectResponse(f"/sheets/{sheet_id}", status_code=303)


def _edit_page(request: Request, sheet_id: int, number: int,
               values: Mapping[str, str] | None, error: BeloteError | None) -> Response:
    loaded = _load(request, sheet_id, "keep")
    entries = loaded.entries
    if not 1 <= number <= len(entries):
        raise Refused(404, SheetError.refused(Refusal.NO_SUCH_HAND, sheet=sheet_id,
                                              hand=number))
    context = _form_context(request, loaded, dict(values) if values is not None
                            else entry_to_form(entries[number - 1]), error)
    context["number"] = number
    return render(request, "edit_hand.html", context, status=200 if error is None else 422)


@router.get("/sheets/{sheet_id}/hands/{number}/edit")
def sheet_edit_form(request: Request, sheet_id: int, number: int) -> Response:
    return _edit_page(request, sheet_id, number, None, None)


@router.post("/sheets/{sheet_id}/hands/{number}")
async def sheet_edit(request: Request, sheet_id: int, number: int) -> Response:
    form = await _form(request)
    values = {k: form.get(k, "") for k in FORM_FIELDS}
    try:
        def edit(store: SheetStore) -> dict[str, Any]:
            info, _ = store.load(sheet_id)
            return store.edit_hand(sheet_id, number, form_to_entry(form, info.rules()))

        await run_in_threadpool(_with_sheet, request, sheet_id, "keep", edit)
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None
    except BeloteError as exc:
        return await run_in_threadpool(_edit_page, request, sheet_id, number, values, exc)
    _changed(request, sheet_id)
    return RedirectResponse(f"/sheets/{sheet_id}#hands", status_code=303)


@router.get("/sheets/{sheet_id}/export.json")
def sheet_export_json(request: Request, sheet_id: int) -> Response:
    try:
        doc = _with_sheet(request, sheet_id, "follow", lambda s: s.export_json(sheet_id))
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None
    return Response(
        json.dumps(doc, ensure_ascii=False, indent=2), media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="sheet-{sheet_id}.json"'})


def named_players_csv(text: str, names: list[str]) -> str:
    """A 5-7 player sheet's CSV with the players named (the CLI's numbers them):
    ``team_NS``/``team_EW`` "Ann & Bob", ``out``, ``dealer`` and one running-total
    column per player headed by the name.

    >>> print(named_players_csv("hand,team_NS,team_EW,out,dealer,player_1,player_2\\n"
    ...                         "1,1 2,3 4,5,1,92,92\\n", ["Ann", "Bob", "Cy", "Di", "Ed"]),
    ...       end="")
    hand,team_NS,team_EW,out,dealer,Ann,Bob
    1,Ann & Bob,Cy & Di,Ed,Ann,92,92
    """
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return text
    head = rows[0]

    def name(number: str) -> str:
        n = int(number) if number.isdigit() else 0
        return names[n - 1] if 1 <= n <= len(names) else number

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([name(h[len("player_"):]) if h.startswith("player_") else h for h in head])
    for row in rows[1:]:
        cells = list(row)
        for k, h in enumerate(head):
            if k >= len(cells):
                break
            if h in ("team_NS", "team_EW", "out"):
                sep = " & " if h != "out" else ", "
                cells[k] = sep.join(name(x) for x in cells[k].split())
            elif h == "dealer":
                cells[k] = name(cells[k])
        writer.writerow(cells)
    return out.getvalue()


@router.get("/sheets/{sheet_id}/export.csv")
def sheet_export_csv(request: Request, sheet_id: int) -> Response:
    def export(store: SheetStore) -> str:
        text = store.export_csv(sheet_id)
        state = store.state(sheet_id)
        if state.get("players") and state.get("player_names") and state.get("seatings"):
            return named_players_csv(text, state["player_names"])
        return text

    try:
        text = _with_sheet(request, sheet_id, "follow", export)
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None
    return Response(
        text, media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="sheet-{sheet_id}.csv"'})


# --- JSON ---------------------------------------------------------------------------


@router.get("/api/sheets/{sheet_id}")
def api_sheet(request: Request, sheet_id: int) -> Response:
    try:
        return JSONResponse(_with_sheet(request, sheet_id, "follow",
                                        lambda s: s.state(sheet_id)))
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None


def _page_names(state: Mapping[str, Any], lang: str) -> dict[str, str]:
    """The two teams as the sheet's page names them (a 5-7 player sheet: the next hand's)."""
    if not state.get("players"):
        return dict(state["team_names"])
    nxt = state.get("next")
    if not nxt:
        return {"NS": gettext(lang, N_("1st team")), "EW": gettext(lang, N_("2nd team"))}
    player_names = state["player_names"]
    return {t: " & ".join(player_names[p - 1] for p in nxt["teams"][k])
            for k, t in enumerate(TEAMS)}


@router.post("/api/sheets/{sheet_id}/preview")
async def api_preview(request: Request, sheet_id: int) -> Response:
    """What the calculator form would add: both teams' trick points (the other
    team's worked out by the server) and the hand's score with the sheet's reserve."""
    try:
        form = loads(await request.body(), request.app.state.limits)
    except BadInput as exc:
        return refusal_json(exc, 400)
    if not isinstance(form, dict):
        return refusal_json(BadInput.refused(
            Refusal.BAD_FIELD, field="form",
            detail="the preview takes the form as a JSON object"), 400)

    lang = lang_of(request)

    def preview(store: SheetStore) -> dict[str, Any]:
        info, _ = store.load(sheet_id)
        state = store.state(sheet_id)
        reserve = state["reserve"]
        rules = info.rules()
        entry_json = form_to_entry(form, rules)
        entry = parse_hand_entry(entry_json, rules, "hand")
        score = score_hand(rules, dataclasses.replace(entry, reserve=reserve)).to_json()
        out: dict[str, Any] = {
            "trick_points": {"NS": entry.trick_points[0], "EW": entry.trick_points[1]},
            "score": score,
        }
        out.update(_comparison(form, rules, state, lang))
        calc = score_calculation(rules, dataclasses.replace(entry, reserve=reserve))
        if calc:
            out["calculation"] = calc
        return out

    try:
        return JSONResponse(await run_in_threadpool(
            _with_sheet, request, sheet_id, "keep", preview))
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None
    except BeloteError as exc:
        error = exc

        def refused(store: SheetStore) -> dict[str, Any]:
            # the declarations' comparison is shown even while the hand is not complete
            info, _ = store.load(sheet_id)
            state = store.state(sheet_id)
            out: dict[str, Any] = {"error": say_refusal(
                lang, error, teams=dict(state["team_names"]))}
            code = error_code(error)
            if code is not None:
                out["code"] = code
            with contextlib.suppress(BeloteError):
                out.update(_comparison(form, info.rules(), state, lang))
            return out

        return JSONResponse(await _run(request, refused), status_code=422)


def _comparison(form: Mapping[str, Any], rules: Any, state: Mapping[str, Any],
                lang: str) -> dict[str, Any]:
    """The comparison of the declarations entered by name, in words (§7.5)."""
    named = named_declarations(form) if rules.declarations else None
    if named is None:
        return {}
    compared = compare_declarations(named, rules, trump_mode(form),
                                    str(form.get("decl_tie") or "") or None)
    return {"declarations": declaration_comparison(lang, compared, _page_names(state, lang)),
            "declarations_tied": compared["tied"],
            # what the comparison scores: the form's "declarations won" shows it
            "declarations_won": {"team": compared["winner"], "points": compared["points"]}}


# --- the live page's WebSocket ----------------------------------------------------------


@router.websocket("/ws/sheets/{sheet_id}")
async def sheet_socket(websocket: WebSocket, sheet_id: str) -> None:
    """A page following a sheet live (the module's docstring says what it sends
    and receives).  Refused as a sheet that does not exist (4404) when this browser
    may not see it; from another site's page 4403; a first message that is not a
    valid hello, or none within :data:`HELLO_TIMEOUT_S`, 4400."""
    await websocket.accept()
    state = websocket.scope.get("state", {})
    if not state.get("same_origin", False):
        await _close(websocket, 4403, SheetError.refused(Refusal.CROSS_SITE))
        return
    try:
        text = await asyncio.wait_for(_receive_text(websocket), HELLO_TIMEOUT_S)
    except TimeoutError:
        await _close(websocket, 4400, SheetError.refused(Refusal.NO_FOLLOW_IN_TIME,
                                                         seconds=f"{HELLO_TIMEOUT_S:g}"))
        return
    except WebSocketDisconnect:
        return
    hello = _hello(websocket, text)
    if hello is None:
        await _close(websocket, 4400, SheetError.refused(Refusal.FOLLOW_FIRST))
        return
    try:
        follower, role, pulse = await run_in_threadpool(_follow, websocket, sheet_id, hello)
    except BeloteError as exc:
        await _close(websocket, 4404, exc)
        return
    live: SheetLive = websocket.app.state.sheet_live
    if live.count(follower.sheet_id) >= MAX_FOLLOWERS:
        await _close(websocket, 4429, SheetError.refused(Refusal.TOO_MANY_FOLLOWERS))
        return
    live.add(follower, pulse)
    limits: Limits = websocket.app.state.limits
    bucket = RateLimiter(limits.messages_per_second, limits.messages_burst)
    writer = asyncio.create_task(_follow_writer(websocket, follower))
    try:
        await websocket.send_text(json.dumps(
            {"type": "welcome", "role": role, "events": follower.events}))
        while not follower.ended:
            text = await _receive_text(websocket)
            if not bucket.allow("messages"):
                await _close(websocket, 1008, SheetError.refused(Refusal.TOO_MANY_MESSAGES))
                break
            if len(text) > MAX_SOCKET_MESSAGE:
                await _close(websocket, 1008, SheetError.refused(
                    Refusal.TOO_BIG, size=len(text), limit=MAX_SOCKET_MESSAGE))
                break
            try:
                msg = loads(text, limits, "the message")
            except BadInput:
                msg = None
            if not isinstance(msg, dict) or msg.get("type") != "ping":
                await _close(websocket, 4400, SheetError.refused(Refusal.PING_ONLY))
                break
            await websocket.send_text('{"type": "pong"}')
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        live.remove(follower)
        follower.end()  # its page left (nothing to tell it)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        with contextlib.suppress(Exception):
            await websocket.close()


async def _receive_text(websocket: WebSocket) -> str:
    """The next text message (a binary one reads as an invalid text)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if isinstance(text, str) else "\x00"


def _hello(websocket: WebSocket, text: str) -> dict[str, Any] | None:
    """The hello as ``{"secret": str | None}``, or None when it is not one."""
    if len(text) > MAX_SOCKET_MESSAGE:
        return None
    try:
        msg = loads(text, websocket.app.state.limits, "the message")
    except BadInput:
        return None
    if not isinstance(msg, dict) or msg.get("type") != "follow" or not set(msg) <= {
            "type", "secret"}:
        return None
    secret = msg.get("secret")
    if secret is not None and (not isinstance(secret, str) or len(secret) > MAX_SECRET):
        return None
    return {"secret": secret}


def _follow(websocket: WebSocket, sheet_id: str, hello: dict[str, Any]
            ) -> tuple[Follower, str, tuple[int, str | None, str | None]]:
    """Who follows (its role, how it came in) and the sheet as it stands; refused
    as a sheet that does not exist when this browser may not see it."""
    identity = identity_of(websocket)
    machine = machine_owner(websocket)
    access: SheetAccess = websocket.app.state.sheets
    with access.open() as store:
        role = store.role(sheet_id, identity, machine)
        sid = int(sheet_id)  # role() has read it as a sheet id
        came: str | None = None
        secret = hello["secret"]
        if secret is not None:
            links = store.links(sid) if role is not None or _exists(store, sid) else {}
            for kind in ("keep", "follow"):
                if secret_equal(links.get(kind), secret):
                    came = kind
                    break
        if came is not None and (role is None or RANK[came] > RANK[role]):
            role = came
        else:
            came = None
        if role is None:
            raise no_such_sheet(sid)
        pulse = store.pulse([sid]).get(sid)
        if pulse is None:  # pragma: no cover - deleted between the two reads
            raise no_such_sheet(sid)
    follower = Follower(sid, identity, machine, came, secret if came else None)
    return follower, role, pulse


def _exists(store: SheetStore, sheet_id: int) -> bool:
    return sheet_id in store.pulse([sheet_id])


async def _follow_writer(websocket: WebSocket, follower: Follower) -> None:
    """Send the follower each new event count; close the socket when it has ended."""
    sent = follower.events
    with contextlib.suppress(Exception):
        while True:
            await follower.wake.wait()
            follower.wake.clear()
            if follower.ended:
                if follower.why is not None:
                    await _close(websocket, 4404, follower.why)
                return
            if follower.events != sent:
                sent = follower.events
                await websocket.send_text(json.dumps({"type": "changed", "events": sent}))


async def _close(websocket: WebSocket, code: int, refusal: BeloteError) -> None:
    """Close the live page's socket with ``code``, after a last ``error`` message
    that says ``refusal`` in the page's language, with its code (as a room's socket
    does)."""
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(
            {**refusal_message(refusal, lang_of(websocket)), "fatal": True}))
        await websocket.close(code=code)
