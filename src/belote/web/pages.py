"""What every page of the web application shares: the templates and how a page is
rendered, the labels of the profiles and bots, and the access to the sheets database.

The route modules (:mod:`belote.web.routes_sheets`, :mod:`belote.web.routes_rooms`)
and the application (:mod:`belote.web.app`) import this module; it imports none of
them, so the application imports its routes at module level without a circle.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context

from belote import __version__
from belote.errors import BeloteError
from belote.options import TARGET_CHOICES
from belote.sheets import SheetStore, default_db_path
from belote.web import i18n
from belote.web.i18n import N_, lang_of
from belote.web.present import OUTCOME_LABELS
from belote.web.refusals import error_code, say_refusal

HERE: Final = Path(__file__).resolve().parent
PROFILE_LABELS: Final = {
    "classic": N_("Classic belote"),
    "moroccan": N_("Moroccan belote"),
    "coinche": N_("Coinche"),
    "contree": N_("Contrée"),
}
BOT_LABELS: Final = {
    "random": N_("Beginner (random)"),
    "heuristic": N_("Club player (heuristic)"),
    "pimc": N_("Expert (PIMC search, slower)"),
}


WEB_BUSY_TIMEOUT_S: Final = 0.5


class SheetAccess:
    """The sheets database: each use opens its own connection in the thread that
    runs it (as each ``belote sheet`` command does), SQLite serialising writers.

    The file is set up once, here (WAL mode, the schema: what may write or wait for
    the lock); a request's store only opens a connection, which costs no lock.  A
    request's write waits at most ``timeout`` (:data:`WEB_BUSY_TIMEOUT_S`) for
    another process holding the database, then is refused
    (:class:`~belote.sheets.SheetBusyError`, a 503 with a plain message);
    ``belote sheet`` keeps its own, longer wait."""

    def __init__(self, path: str | os.PathLike[str] | None,
                 timeout: float = WEB_BUSY_TIMEOUT_S) -> None:
        self.path = path if path is not None else default_db_path()
        self.timeout = timeout
        SheetStore(self.path).close()  # set up, or fail now on a database that cannot be

    @contextlib.contextmanager
    def open(self) -> Iterator[SheetStore]:
        store = SheetStore(self.path, self.timeout, set_up=False)
        try:
            yield store
        finally:
            store.close()


def make_templates() -> Jinja2Templates:
    templates = Jinja2Templates(directory=str(HERE / "templates"),
                                context_processors=[_language])
    i18n.install(templates.env)
    templates.env.globals["outcome_labels"] = OUTCOME_LABELS
    templates.env.globals["error_text"] = _error_text
    templates.env.globals["profile_labels"] = PROFILE_LABELS
    templates.env.globals["bot_labels"] = BOT_LABELS
    templates.env.globals["target_choices"] = TARGET_CHOICES
    templates.env.globals["version"] = __version__
    return templates


def _language(request: Request) -> dict[str, Any]:
    return {"lang": lang_of(request)}


@pass_context
def _error_text(ctx: Context, error: object) -> str:
    """A refusal shown on a page, in plain words in its language, from its code (a
    sheet's page names its teams); a text is shown as it is."""
    if not isinstance(error, BeloteError):
        return str(error)
    names = ctx.get("names")
    teams = {k: str(v) for k, v in names.items()} if isinstance(names, dict) else None
    return say_refusal(str(ctx.get("lang") or "en"), error, teams=teams)


class Refused(HTTPException):
    """An HTTP error that answers a refusal: a page says it in its language from its
    code, a JSON body (/api/) gives its English and its code."""

    def __init__(self, status: int, error: BeloteError,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(status_code=status, detail=str(error), headers=headers)
        self.error = error


def refusal_json(exc: BeloteError, status: int,
                 headers: dict[str, str] | None = None) -> JSONResponse:
    """A refusal as the JSON API answers it: ``{"error": ENGLISH, "code": CODE}``
    (no ``code`` for an error that has none; docs/json.md)."""
    body: dict[str, Any] = {"error": str(exc)}
    code = error_code(exc)
    if code is not None:
        body["code"] = code
    return JSONResponse(body, status_code=status, headers=headers)


def render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
    templates: Jinja2Templates = request.app.state.templates
    return templates.TemplateResponse(request, name, context, status_code=status)
