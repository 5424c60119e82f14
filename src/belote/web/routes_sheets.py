"""Score sheet pages: list, create, the calculator form, undo, edit, chart, export.

The pages use the same database and the same :class:`~belote.sheets.SheetStore`
as ``belote sheet``.  A refused hand re-renders the page with the message next
to the form and every field as it was typed.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import io
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from fastapi import APIRouter, HTTPException, Request, UploadFile
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from belote.errors import BeloteError, InvalidRecordError
from belote.options import PROFILES, make_rules
from belote.scoring import hand_entry_to_json, parse_hand_entry, reached, score_hand
from belote.sheets import SheetBusyError, SheetNotFoundError, SheetStore
from belote.web.chart import running_chart
from belote.web.forms import (
    DECL_KINDS,
    DECLARATION_MAX,
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
from belote.web.pages import SheetAccess, render
from belote.web.present import (
    DECL_LABELS,
    declaration_comparison,
    score_calculation,
    translate_error,
)
from belote.web.security import BadInput, Limits, loads, parse_whole

router = APIRouter()
T = TypeVar("T")

TARGET_CHOICES = (500, 501, 700, 1000, 1001, 1500, 2000, 3000)


def _with_store(request: Request, fn: Callable[[SheetStore], T]) -> T:
    access: SheetAccess = request.app.state.sheets
    with access.open() as store:
        return fn(store)


def _not_found(exc: SheetNotFoundError) -> HTTPException:
    return HTTPException(status_code=404, detail=str(exc))


async def _form(request: Request) -> dict[str, str]:
    data = await request.form()
    return {k: v for k, v in data.items() if isinstance(v, str)}


# --- the list ---------------------------------------------------------------------------


@router.get("/sheets")
def sheet_list(request: Request) -> Response:
    return _list_page(request, {}, None)


def _list_page(request: Request, values: Mapping[str, str], error: str | None) -> Response:
    sheets = _with_store(request, lambda s: s.sheets())
    return render(request, "sheets.html", {
        "sheets": list(reversed(sheets)),
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
            raise InvalidRecordError(f"players: {players_text!r} is not 4, 5, 6 or 7")
        players = None if players_text == "4" else int(players_text)
        player_names = form.get("player_names", "").strip() or None

        def create(store: SheetStore) -> dict[str, Any]:
            return store.create(
                profile, target=target, name=form.get("name") or None,
                team_names=names if players is None else None, players=players,
                player_names=player_names if players is not None else None)

        state = await _run(request, create)
    except BeloteError as exc:
        return await run_in_threadpool(_list_page, request, form, str(exc))
    return RedirectResponse(f"/sheets/{state['id']}", status_code=303)


SHEETS_BUSY: Final = ("the score sheets are busy: another program is writing to them; "
                       "nothing was changed, try again in a moment")


async def _run(request: Request, fn: Callable[[SheetStore], T]) -> T:
    """``fn`` on the sheets, in a worker thread; another process holding the database
    past the web's short wait is a 503 with a plain message, nothing changed."""
    try:
        return await run_in_threadpool(_with_store, request, fn)
    except SheetBusyError:
        raise HTTPException(status_code=503, detail=SHEETS_BUSY) from None


@router.post("/sheets/import")
async def sheet_import(request: Request, file: UploadFile) -> Response:
    raw = await file.read()
    limits: Limits = request.app.state.limits
    try:
        try:
            obj = loads(raw, dataclasses.replace(limits, max_json=limits.max_body), "the file")
        except BadInput as exc:
            raise InvalidRecordError(f"import: {file.filename!r} is not a JSON file: {exc}"
                                     ) from None
        state = await _run(request, lambda s: s.import_json(obj))
    except BeloteError as exc:
        return await run_in_threadpool(_list_page, request, {}, str(exc))
    return RedirectResponse(f"/sheets/{state['id']}", status_code=303)


# --- one sheet ----------------------------------------------------------------------


def _load(request: Request, sheet_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    def load(store: SheetStore) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        state = store.state(sheet_id)
        _, entries = store.load(sheet_id)
        return state, [hand_entry_to_json(e) for e in entries]

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
        if carried and score["outcome"] in ("made", "failed"):
            won_by = entry["taker"] if score["outcome"] == "made" else (
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
            "reserve_kept": score["reserve"] if score["outcome"] == "litige" else 0,
            "calculation": score_calculation(rules, entry, score),
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
        "declaration_max": DECLARATION_MAX,
        "decl_kinds": [(k, DECL_LABELS[k]) for k in DECL_KINDS],
        "decl_points": carre_values(rules),
        "deciding_hand": _deciding_hand(state, rules),
    }


def _deciding_hand(state: Mapping[str, Any], rules: Any) -> bool:
    """Both teams at the target with the same total: a deciding hand is played (§11)."""
    if state.get("players") or state.get("finished") or not state.get("hands"):
        return False
    ns, ew = state["totals"]["NS"], state["totals"]["EW"]
    if rules.limit == "deals":
        return bool(ns == ew and len(state["hands"]) >= state["target"])
    return bool(ns == ew and reached(rules, ns, state["target"]))


def error_field(error: str | None) -> str | None:
    """The form field a refused hand's message is about, to show it there.

    >>> error_field("hand 3: declarations.NS: 1000 is more than ...")
    'decl_points'
    >>> error_field("points: 'x' is not a whole number") is None
    True
    """
    if error and re.search(r"\bdecl(arations|_points|_team|_tie|_(NS|EW)_\w+)?\b", error):
        return "decl_points"
    return None


def _sheet_page(request: Request, sheet_id: int, values: Mapping[str, str] | None = None,
                error: str | None = None) -> Response:
    state, entries = _load(request, sheet_id)
    context = _form_context(request, state, entries, dict(values or {}), error)
    return render(request, "sheet.html", context, status=200 if error is None else 422)


def _form_context(request: Request, state: dict[str, Any], entries: list[dict[str, Any]],
                  values: dict[str, str], error: str | None) -> dict[str, Any]:
    """The sheet's page context with a hand's form: its values and the error, if any."""
    context = _sheet_context(state, entries, lang_of(request))
    context["values"] = values
    context["error"] = error
    context["error_field"] = error_field(error)
    return context


@router.get("/sheets/{sheet_id}")
def sheet_show(request: Request, sheet_id: int) -> Response:
    return _sheet_page(request, sheet_id)


async def _change_sheet(request: Request, sheet_id: int, change: Callable[[SheetStore], object],
                        values: Mapping[str, str] | None = None) -> Response:
    """Apply ``change`` to the sheet, then back to its hands; a refused change shows
    the sheet again with the error (422) and the form as it was sent."""
    try:
        await _run(request, change)
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None
    except BeloteError as exc:
        return await run_in_threadpool(_sheet_page, request, sheet_id, values, str(exc))
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
        await _run(request, lambda s: s.delete(sheet_id))
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None
    return RedirectResponse("/sheets", status_code=303)


def _edit_page(request: Request, sheet_id: int, number: int,
               values: Mapping[str, str] | None, error: str | None) -> Response:
    state, entries = _load(request, sheet_id)
    if not 1 <= number <= len(entries):
        raise HTTPException(status_code=404,
                            detail=f"sheet {sheet_id} has no hand {number}")
    context = _form_context(request, state, entries, dict(values) if values is not None
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

        await _run(request, edit)
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None
    except BeloteError as exc:
        return await run_in_threadpool(_edit_page, request, sheet_id, number, values, str(exc))
    return RedirectResponse(f"/sheets/{sheet_id}#hands", status_code=303)


@router.get("/sheets/{sheet_id}/export.json")
def sheet_export_json(request: Request, sheet_id: int) -> Response:
    try:
        doc = _with_store(request, lambda s: s.export_json(sheet_id))
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
        text = _with_store(request, export)
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None
    return Response(
        text, media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="sheet-{sheet_id}.csv"'})


# --- JSON ---------------------------------------------------------------------------


@router.get("/api/sheets/{sheet_id}")
def api_sheet(request: Request, sheet_id: int) -> Response:
    try:
        return JSONResponse(_with_store(request, lambda s: s.state(sheet_id)))
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
        return JSONResponse({"error": str(exc)}, status_code=400)
    if not isinstance(form, dict):
        return JSONResponse({"error": "the preview takes the form as a JSON object"},
                            status_code=400)

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
        full = hand_entry_to_json(entry)
        calc = score_calculation(rules, full, score)
        if calc:
            out["calculation"] = calc
        return out

    try:
        return JSONResponse(await _run(request, preview))
    except SheetNotFoundError as exc:
        raise _not_found(exc) from None
    except BeloteError as exc:
        message = str(exc)

        def refused(store: SheetStore) -> dict[str, Any]:
            # the declarations' comparison is shown even while the hand is not complete
            info, _ = store.load(sheet_id)
            state = store.state(sheet_id)
            out: dict[str, Any] = {"error": translate_error(
                lang, message, teams=dict(state["team_names"]))}
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
            "declarations_tied": compared["tied"]}
