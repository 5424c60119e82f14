"""The web app on a phone's home screen: its manifest and its service worker.

``/manifest.webmanifest`` names the app, its icons (``static/icon-192.png``,
``icon-512.png``, ``icon.svg``) and its colours; ``/sw.js`` (served from the root so
that its scope is the whole site) keeps the pages' static files (style sheet,
scripts, icons) in the browser's cache, for a table without network.  It never
caches pages, the JSON API, the WebSocket or anything but a GET of ``/static/``:
pages carry each browser's CSRF token and the games are the server's.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import Response

from belote import __version__
from belote.web.i18n import N_, gettext, lang_of

STATIC: Final = Path(__file__).resolve().parent / "static"
THEME_COLOUR: Final = "#14532d"
BACKGROUND: Final = "#f6f4ef"
# What the service worker keeps at install (every file of static/ the pages use).
ASSETS: Final = ("style.css", "cards.js", "table.js", "sheet.js", "app.js", "favicon.svg",
                 "icon.svg", "icon-192.png", "icon-512.png", "chat.js", "chat.css")

router = APIRouter()


@functools.cache
def assets_version() -> str:
    """A digest of the cached files: a new version of them is a new service worker
    (the browser installs it and drops the old cache)."""
    h = hashlib.sha256(__version__.encode())
    for name in ASSETS:
        path = STATIC / name
        if path.exists():
            h.update(name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def manifest(lang: str) -> dict[str, object]:
    return {
        "name": gettext(lang, N_("Belote: score sheets and card table")),
        "short_name": "Belote",
        "description": gettext(lang, N_("Keep the score of a real game, play a game against "
                                        "bots, or open a table for friends.")),
        "lang": lang,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND,
        "icons": [
            {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png",
             "purpose": "any maskable"},
            {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "any maskable"},
            {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }


SERVICE_WORKER: Final = """\
// belote's service worker: the static files of the pages, for a table without network.
// Only GET requests of /static/ are answered from the cache; pages, the JSON API, the
// WebSocket and every POST go to the server untouched.
"use strict";
const CACHE = "belote-static-%(version)s";
const ASSETS = %(assets)s;
const OFFLINE = %(offline)s;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys
    .filter((key) => key.startsWith("belote-static-") && key !== CACHE)
    .map((key) => caches.delete(key)))).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.open(CACHE).then(async (cache) => {
      const hit = await cache.match(request, { ignoreSearch: true });
      if (hit) return hit;
      const response = await fetch(request);
      if (response.ok) cache.put(request, response.clone());
      return response;
    }));
  } else if (request.mode === "navigate") {
    // A page is never cached; without network it says so instead of the browser's error.
    event.respondWith(fetch(request).catch(() => new Response(OFFLINE, {
      status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } })));
  }
});
"""

OFFLINE_PAGE: Final = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>belote</title>
<link rel="stylesheet" href="/static/style.css"></head><body><main class="page">
<h1>belote</h1><p lang="fr">Pas de réseau : la page reviendra avec lui.</p>
<p lang="en">No network: the page comes back with it.</p></main></body></html>"""


def service_worker() -> str:
    return SERVICE_WORKER % {
        "version": assets_version(),
        "assets": json.dumps(["/static/" + name for name in ASSETS]),
        "offline": json.dumps(OFFLINE_PAGE),
    }


@router.get("/manifest.webmanifest", include_in_schema=False)
def manifest_route(request: Request) -> Response:
    return Response(json.dumps(manifest(lang_of(request)), ensure_ascii=False),
                    media_type="application/manifest+json",
                    headers={"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"})


@router.get("/sw.js", include_in_schema=False)
def service_worker_route() -> Response:
    return Response(service_worker(), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})
