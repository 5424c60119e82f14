"""French and English for the web app: gettext catalogues made with Babel.

The texts are written in English in the templates (``{% trans %}``, ``_()``), in
Python (``_()``, ``N_()``) and in the scripts (``_()`` in ``static/*.js``); the
catalogues under ``locale/`` give their French (``fr``) and English (``en``).  Two
domains: ``messages`` (templates and Python) and ``js`` (the scripts, whose
catalogue each page embeds as JSON, no build step).  ``bash scripts/i18n.sh``
extracts the texts, updates the ``.po`` files and compiles the ``.mo`` files, which
are committed (a test checks they match the ``.po``).

The language is the ``lang`` cookie (set by the FR | EN switch, ``/lang/fr``), else
the browser's Accept-Language: French for ``fr`` and ``fr-*``, English otherwise.

>>> choose(None, "fr-CH, fr;q=0.9, en;q=0.8")
'fr'
>>> choose(None, "de-DE, en;q=0.5, fr;q=0.4")
'en'
>>> choose("en", "fr-FR")
'en'
>>> choose(None, None)
'en'
>>> gettext("fr", "Score sheets")
'Feuilles de score'
>>> safe_next("//evil.example/x"), safe_next("/rooms/ab?invite=x")
('/', '/rooms/ab?invite=x')
"""

from __future__ import annotations

import functools
import gettext as _gettext
from pathlib import Path
from typing import Any, Final

from babel.messages.mofile import read_mo
from babel.support import Translations
from fastapi import APIRouter
from fastapi.responses import RedirectResponse, Response
from jinja2 import pass_context
from jinja2.runtime import Context
from starlette.requests import HTTPConnection

LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
LANGS: Final = ("fr", "en")
DEFAULT: Final = "en"
COOKIE: Final = "lang"
COOKIE_MAX_AGE: Final = 365 * 24 * 3600
LANG_NAMES: Final = {"fr": "Français", "en": "English"}


def N_(message: str) -> str:
    """Mark a text for the catalogue; it is translated where it is shown."""
    return message


def _quality(part: str) -> tuple[str, float]:
    tag, _, params = part.partition(";")
    q = 1.0
    for p in params.split(";"):
        key, _, value = p.strip().partition("=")
        if key.strip() == "q":
            try:
                q = float(value)
            except ValueError:
                q = 0.0
    return tag.strip().lower(), q


def from_accept_language(header: str | None) -> str:
    """The language of an Accept-Language header: the browser's most wanted one that
    we have (``fr``, ``fr-BE``... → French), English when none."""
    if not header:
        return DEFAULT
    ranked = sorted((_quality(p) for p in header.split(",")[:32] if p.strip()),
                    key=lambda tq: -tq[1])
    for tag, q in ranked:
        primary = tag.split("-")[0]
        if q > 0 and primary in LANGS:
            return primary
    return DEFAULT


def choose(cookie: str | None, accept_language: str | None) -> str:
    """The ``lang`` cookie when it names a language we have, else the browser's."""
    if cookie in LANGS:
        return str(cookie)
    return from_accept_language(accept_language)


def lang_of(conn: HTTPConnection) -> str:
    """The language of a request or a WebSocket handshake (kept on its state)."""
    state = conn.scope.setdefault("state", {})
    lang = state.get("lang")
    if lang not in LANGS:
        try:
            cookie = conn.cookies.get(COOKIE)
        except Exception:  # a malformed cookie header: no choice made
            cookie = None
        lang = choose(cookie, conn.headers.get("accept-language"))
        state["lang"] = lang
    return str(lang)


@functools.cache
def translations(lang: str, domain: str = "messages") -> _gettext.NullTranslations:
    if lang not in LANGS:
        lang = DEFAULT
    return Translations.load(str(LOCALE_DIR), [lang], domain)


def gettext(lang: str, message: str) -> str:
    return translations(lang).gettext(message)


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    return translations(lang).ngettext(singular, plural, n)


@functools.cache
def js_catalog(lang: str) -> dict[str, str]:
    """The scripts' texts in ``lang`` (msgid → text), as the page embeds them."""
    path = LOCALE_DIR / (lang if lang in LANGS else DEFAULT) / "LC_MESSAGES" / "js.mo"
    if not path.exists():
        return {}
    with path.open("rb") as f:
        catalog = read_mo(f)
    return {str(m.id): str(m.string) for m in catalog if m.id and m.string
            and isinstance(m.id, str) and isinstance(m.string, str)}


def safe_next(target: str | None) -> str:
    """Where the language switch goes back to: a path of this site only."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    if any(ord(c) < 32 for c in target):
        return "/"
    return target


# --- templates ------------------------------------------------------------------------


def _context_lang(ctx: Context) -> str:
    lang = ctx.get("lang")
    if lang in LANGS:
        return str(lang)
    request = ctx.get("request")
    return lang_of(request) if isinstance(request, HTTPConnection) else DEFAULT


@pass_context
def _template_gettext(ctx: Context, message: str) -> str:
    return gettext(_context_lang(ctx), message)


@pass_context
def _template_ngettext(ctx: Context, singular: str, plural: str, n: int) -> str:
    return ngettext(_context_lang(ctx), singular, plural, n)


def install(env: Any) -> None:
    """Jinja2's i18n extension in ``env``, each page in its request's language."""
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(_template_gettext, _template_ngettext, newstyle=True)
    env.globals["js_catalog"] = js_catalog
    env.globals["lang_names"] = LANG_NAMES
    env.globals["langs"] = LANGS


# --- the switch -----------------------------------------------------------------------

router = APIRouter()


@router.get("/lang/{code}", include_in_schema=False)
def switch(code: str, next: str | None = None) -> Response:
    """The FR | EN links: remember the language (a year) and go back to the page."""
    response = RedirectResponse(safe_next(next), status_code=303)
    if code in LANGS:
        response.set_cookie(COOKIE, code, max_age=COOKIE_MAX_AGE, path="/", samesite="lax")
    return response
