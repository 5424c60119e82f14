"""What keeps the web app safe on a network: who a browser is, CSRF, limits.

* **Identity.**  Every browser gets a random identity in an HttpOnly cookie
  (``belote_id``, ``SameSite=Lax``).  A room remembers which identity holds each
  seat, so one browser holds at most one seat of a room, and the page of a room
  opens for the browser that sits there.
* **CSRF.**  A state-changing request (any method but GET, HEAD and OPTIONS)
  is refused with 403 unless it carries the identity's CSRF token (the
  ``X-CSRF-Token`` header, a ``csrf_token`` form field, or ``csrf_token`` in the
  query string of a multipart form's action) and, when the browser says where
  it comes from (``Origin``, else ``Referer``), that place is this very host.
  The token is an HMAC of the identity under the server's secret key, kept in
  the database so tokens outlive a restart; ``GET /api/session`` gives it to
  programs, every page carries it for its forms and scripts.
  The identity cookie is signed with the same key (``IDENTITY.MAC``): a value
  the server did not give out (unknown, or badly signed) is no identity, and
  the browser gets a fresh one with a new cookie (one exception: an unsigned
  value of the cookies given before they were signed that still holds a seat
  is adopted and given back signed, so players keep their seats over the
  upgrade).  A WebSocket without an identity is refused (code 4401): its page
  gives it one first.
* **Host.**  Only the names of :attr:`GuardMiddleware.allowed_hosts` are
  answered (loopback names by default, ``belote serve --allowed-host`` adds
  public ones): a page of another name that resolves to this server (DNS
  rebinding) gets 400 before any route, HTTP and WebSocket alike.
* **Who the client is.**  ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are
  read only when the direct peer is a trusted proxy (``--trusted-proxy``); the
  client is then the right-most forwarded address that is not itself a
  trusted proxy.  The per-client limits count per *network* of that address
  (:func:`belote.web.network.network_of`: its /24 or /64).
* **Limits.**  Request bodies are cut at :attr:`Limits.max_body` bytes (413);
  JSON is read by :func:`loads` (:mod:`belote.jsonsafe` under a size limit)
  with a depth and number-length limit;
  :class:`RateLimiter` is a token bucket per key (rooms created per network,
  messages per WebSocket connection and per network); a network holds at most
  :attr:`Limits.sockets_per_network` open WebSockets (code 1013 beyond).
* **Logs.**  :class:`RedactSecrets` blanks the invitations, tokens and other
  secrets of the addresses uvicorn logs (``belote serve`` installs it).

The middleware is plain ASGI so that nothing reaches a route without it.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import ipaddress
import json
import logging
import re
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from html import escape
from http.cookies import SimpleCookie
from typing import Any, Final
from urllib.parse import parse_qs, urlsplit

from belote import jsonsafe
from belote.errors import REFUSAL_ENGLISH, BeloteError, Refusal
from belote.web.i18n import COOKIE as LANG_COOKIE
from belote.web.i18n import N_, choose, gettext
from belote.web.network import network_of
from belote.web.settings import Limits as Limits

COOKIE: Final = "belote_id"
CSRF_HEADER: Final = "x-csrf-token"
CSRF_FIELD: Final = "csrf_token"
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
_IDENTITY = re.compile(r"[A-Za-z0-9_-]{22,64}")
_MAC_LENGTH: Final = 22  # base64url characters of an identity's signature (132 bits)
# The names a server answers to unless told more (any port): the loopback ones.
LOOPBACK_HOSTS: Final = ("localhost", "127.0.0.1", "[::1]")
_HOST_NAME = re.compile(r"(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
                        r"(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?")
_DIGITS = re.compile(r"[+-]?[0-9]+")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BadInput(BeloteError):
    """A request or message that cannot be read: too big, too deep, not JSON."""


class NotJSON(BadInput):
    """A text that is not JSON at all (or not UTF-8)."""


# --- JSON ----------------------------------------------------------------------------


def loads(raw: bytes | str, limits: Limits, what: str = "the body") -> Any:
    """``raw`` as JSON through :func:`belote.jsonsafe.loads`, refused with
    :class:`BadInput` (saying what and where) when it is too long, nests too
    deep, holds a number of too many digits, NaN or Infinity, and with
    :class:`NotJSON` when it is not JSON text at all."""
    if len(raw) > limits.max_json:
        raise BadInput.refused(Refusal.TOO_BIG, what, size=len(raw), limit=limits.max_json)
    try:
        text = jsonsafe.decode(raw, what) if isinstance(raw, bytes) else raw
        return jsonsafe.loads(text, what, max_depth=limits.max_depth,
                              max_digits=limits.max_digits)
    except jsonsafe.NotJsonError as exc:
        raise NotJSON.refused(Refusal.NOT_JSON, detail=str(exc)) from None
    except jsonsafe.JsonInputError as exc:
        raise BadInput.refused(Refusal.NOT_JSON, detail=str(exc)) from None


def parse_whole(text: str | None, field: str, low: int, high: int) -> int | None:
    """A whole number typed in a form field: ASCII digits only (no ``1_0``, no
    Arabic-Indic digits), between ``low`` and ``high``; None when left empty."""
    text = (text or "").strip()
    if not text:
        return None
    if not _DIGITS.fullmatch(text) or len(text) > 12:
        raise BadInput.refused(Refusal.NOT_WHOLE, field, text=text[:20], field=field)
    value = int(text)
    if not low <= value <= high:
        raise BadInput.refused(Refusal.OUT_OF_RANGE, field, value=value, low=low, high=high,
                               field=field)
    return value


# --- identity and CSRF -----------------------------------------------------------------


class Guard:
    """The server's secret key: CSRF tokens of identities."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    @staticmethod
    def new_identity() -> str:
        return secrets.token_urlsafe(24)

    @staticmethod
    def valid_identity(value: object) -> bool:
        return isinstance(value, str) and _IDENTITY.fullmatch(value) is not None

    def _mac(self, identity: str) -> str:
        mac = hmac.new(self._key, b"identity:" + identity.encode("ascii"), hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()).decode("ascii")[:_MAC_LENGTH]

    def cookie_value(self, identity: str) -> str:
        """The identity cookie's value: the identity and its signature."""
        return f"{identity}.{self._mac(identity)}"

    def identity_of(self, value: str | None) -> str | None:
        """The identity a cookie value carries, or None when the server did not give
        it out (not of the form ``IDENTITY.MAC``, or badly signed)."""
        if value is None:
            return None
        identity, dot, mac = value.partition(".")
        if not dot or not self.valid_identity(identity) or len(mac) != _MAC_LENGTH:
            return None
        expected = self._mac(identity).encode("ascii")
        if not hmac.compare_digest(expected, mac.encode("utf-8", "replace")):
            return None
        return identity

    def csrf_token(self, identity: str) -> str:
        mac = hmac.new(self._key, b"csrf:" + identity.encode("ascii"), hashlib.sha256)
        return mac.hexdigest()[:40]

    def csrf_ok(self, identity: str | None, token: object) -> bool:
        if identity is None or not isinstance(token, str):
            return False
        expected = self.csrf_token(identity).encode("ascii")
        return hmac.compare_digest(expected, token.encode("utf-8", "replace"))


def secret_equal(known: str | None, given: object) -> bool:
    """Constant-time comparison of a secret with what a client sent (any JSON)."""
    if known is None or not isinstance(given, str) or not given:
        return False
    return hmac.compare_digest(known.encode("utf-8"), given.encode("utf-8", "replace"))


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        out[name.decode("latin-1").lower()] = value.decode("latin-1")
    return out


def cookie_identity(headers: dict[str, str]) -> str | None:
    """The raw value of the identity cookie (unchecked: :meth:`Guard.identity_of`)."""
    raw = headers.get("cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:  # a malformed cookie header is no identity
        return None
    morsel = jar.get(COOKIE)
    value = morsel.value if morsel is not None else None
    return value if isinstance(value, str) and len(value) <= 200 else None


# --- Host and the client's address ------------------------------------------------------


def host_name(value: str) -> str | None:
    """The name a ``Host`` header (or ``--allowed-host``) names, lower case, without
    its port: ``example.org``, ``192.0.2.7``, ``[2001:db8::1]``; None when it is
    no host name or IP address at all."""
    value = value.strip().lower()
    if value.startswith("["):
        inside, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not (rest[:1] == ":" and rest[1:].isdigit())):
            return None
        try:
            return f"[{ipaddress.IPv6Address(inside)}]"
        except ValueError:
            return None
    name, colon, port = value.partition(":")
    if colon and not (port.isdigit() and len(port) <= 5):
        return None
    if _HOST_NAME.fullmatch(name) is None:
        return None
    return name.rstrip(".")


def allowed_host_names(names: Iterable[str]) -> frozenset[str]:
    """The loopback names and ``names`` as :func:`host_name` writes them (an IPv6
    address bracketed); ValueError naming the first that is no host name."""
    out = set(LOOPBACK_HOSTS)
    for name in names:
        text = name.strip()
        with contextlib.suppress(ValueError):  # an IPv6 address given bare
            text = f"[{ipaddress.IPv6Address(text)}]"
        has_port = not text.endswith("]") if text.startswith("[") else ":" in text
        clean = None if has_port else host_name(text)
        if clean is None:
            raise ValueError(f"{name!r} is not a host name or an IP address (without a port)")
        out.add(clean)
    return frozenset(out)


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxies(values: Iterable[str]) -> tuple[Network, ...]:
    """Trusted proxies: IP addresses or networks (``10.0.0.0/8``); ValueError
    naming the first that is neither."""
    out: list[Network] = []
    for value in values:
        try:
            out.append(ipaddress.ip_network(value.strip().strip("[]"), strict=True))
        except ValueError:
            raise ValueError(f"{value!r} is not an IP address or network") from None
    return tuple(out)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("["):  # [2001:db8::1]:443
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:  # 192.0.2.7:443
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: ipaddress.IPv4Address | ipaddress.IPv6Address | None,
             proxies: tuple[Network, ...]) -> bool:
    return address is not None and any(address in net for net in proxies)


def forwarded_client(peer: str | None, forwarded_for: list[str],
                     proxies: tuple[Network, ...]) -> str | None:
    """The client of a request whose direct peer is ``peer``: the peer itself,
    unless it is a trusted proxy; then the right-most ``X-Forwarded-For``
    address that is not itself a trusted proxy (the peer when the proxy
    forwarded no readable address)."""
    if not proxies or not _trusted(_ip(peer or ""), proxies):
        return peer
    hops = [hop for header in forwarded_for for hop in header.split(",")]
    for hop in reversed(hops):
        address = _ip(hop)
        if address is None:
            return peer  # a hop the proxy did not write: believe nothing further
        if not _trusted(address, proxies):
            return str(address)
    first = _ip(hops[0]) if hops else None  # a chain of trusted proxies: its first
    return str(first) if first is not None else peer


def same_origin(headers: dict[str, str], scheme: str) -> bool:
    """Whether the ``Origin`` (else ``Referer``) the browser sent, if any, is this host."""
    host = headers.get("host", "")
    source = headers.get("origin")
    if source is None:
        source = headers.get("referer")
        if source is None:
            return True  # not a browser's cross-site request: the token decides
    if source == "null":
        return False
    try:
        parts = urlsplit(source)
    except ValueError:
        return False
    if parts.netloc.lower() != host.lower():
        return False
    return parts.scheme in ("http", "https") and (
        parts.scheme == scheme or scheme not in ("http", "https"))


class RateLimiter:
    """A token bucket per key: ``rate`` a second sustained, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        now = self._clock()
        level, last = self._buckets.get(key, (float(self.burst), now))
        level = min(float(self.burst), level + (now - last) * self.rate)
        if level < 1.0:
            self._buckets[key] = (level, now)
            return False
        self._buckets[key] = (level - 1.0, now)
        if len(self._buckets) > 10_000:  # forget the full buckets of old clients
            for k in [k for k, (lv, t) in self._buckets.items() if lv >= self.burst - 1
                      or now - t > 3600]:
                del self._buckets[k]
        return True


SECURITY_HEADERS: Final = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'; base-uri 'self'; form-action 'self'"),
]


class GuardMiddleware:
    """Host allow-list, the client's address behind trusted proxies, the signed
    identity cookie, CSRF and Origin checks, body size, open WebSockets per
    network, security headers (ASGI)."""

    def __init__(self, app: ASGIApp, guard: Guard, limits: Limits, *,
                 secure_cookie: bool = False,
                 allowed_hosts: frozenset[str] = frozenset(LOOPBACK_HOSTS),
                 trusted_proxies: tuple[Network, ...] = (),
                 known: Callable[[str], bool] | None = None) -> None:
        self.app = app
        self.guard = guard
        self.limits = limits
        self.secure_cookie = secure_cookie
        self.allowed_hosts = allowed_hosts
        self.trusted_proxies = trusted_proxies
        # An unsigned identity of the cookies given before they were signed, still
        # holding a seat (``known``): adopted once, and given back signed.
        self.known = known
        self.sockets: Counter[str] = Counter()  # open WebSockets per network

    def _client(self, scope: Scope) -> Scope:
        """``scope`` with its client and scheme as the trusted proxies say (a copy)."""
        peer = scope.get("client")
        peer_host = peer[0] if peer else None
        if not self.trusted_proxies or not _trusted(_ip(peer_host or ""),
                                                    self.trusted_proxies):
            return scope
        scope = dict(scope)
        raw = scope.get("headers", [])
        chain = [v.decode("latin-1") for k, v in raw if k.lower() == b"x-forwarded-for"]
        client = forwarded_client(peer_host, chain, self.trusted_proxies)
        scope["client"] = (client, 0) if client is not None else None
        protos = [v.decode("latin-1") for k, v in raw if k.lower() == b"x-forwarded-proto"]
        proto = protos[-1].split(",")[-1].strip().lower() if protos else ""
        if proto in ("http", "https", "ws", "wss"):
            secure = proto in ("https", "wss")
            if scope["type"] == "websocket":
                scope["scheme"] = "wss" if secure else "ws"
            else:
                scope["scheme"] = "https" if secure else "http"
        return scope

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        name = host_name(headers.get("host", ""))
        if name is None or name not in self.allowed_hosts:
            text = REFUSAL_ENGLISH[Refusal.UNKNOWN_HOST]
            if kind == "websocket":
                await _refuse_socket(scope, receive, send, 1008, Refusal.UNKNOWN_HOST, 400)
            else:
                html = "text/html" in headers.get("accept", "") and not scope.get(
                    "path", "").startswith("/api/")
                page = (_page_words(headers, Refusal.UNKNOWN_HOST, self.limits.max_body)
                        if html else None)
                await _refuse(send, 400, Refusal.UNKNOWN_HOST, text, html, page)
            return
        scope = self._client(scope)
        peer = scope.get("client")
        network = network_of(peer[0] if peer else None)
        raw = cookie_identity(headers)
        identity = self.guard.identity_of(raw)
        resign = False
        if (identity is None and raw is not None and self.known is not None
                and Guard.valid_identity(raw) and self.known(raw)):
            identity, resign = raw, True
        state = scope.setdefault("state", {})
        state["network"] = network
        if kind == "websocket":
            await self._socket(scope, receive, send, headers, identity, network)
            return
        fresh = identity is None
        if identity is None:
            identity = self.guard.new_identity()
        state["identity"] = identity
        state["csrf"] = self.guard.csrf_token(identity)
        cookie_value = self.guard.cookie_value(identity)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = list(SECURITY_HEADERS)
                if fresh or resign:
                    cookie = (f"{COOKIE}={cookie_value}; Path=/; HttpOnly; SameSite=Lax; "
                              "Max-Age=31536000")
                    if self.secure_cookie:
                        cookie += "; Secure"
                    extra.append((b"set-cookie", cookie.encode("latin-1")))
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        method = scope.get("method", "GET")
        html = "text/html" in headers.get("accept", "") and not scope.get(
            "path", "").startswith("/api/")

        async def refuse(status: int, refusal: Refusal) -> None:
            text = str(BeloteError.refused(refusal, limit=self.limits.max_body))
            page = _page_words(headers, refusal, self.limits.max_body) if html else None
            await _refuse(send_with_headers, status, refusal, text, html, page)

        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or len(length) > 12
                                   or int(length) > self.limits.max_body):
            await refuse(413, Refusal.REQUEST_TOO_LARGE)
            return
        if method in SAFE_METHODS:
            await self.app(scope, receive, send_with_headers)
            return
        body = await _read_body(receive, self.limits.max_body)
        if body is None:
            await refuse(413, Refusal.REQUEST_TOO_LARGE)
            return
        if not same_origin(headers, scope.get("scheme", "http")):
            await refuse(403, Refusal.CROSS_SITE_REQUEST)
            return
        token = headers.get(CSRF_HEADER)
        if token is None:
            token = _field(scope.get("query_string", b""))
        if token is None and headers.get("content-type", "").startswith(
                "application/x-www-form-urlencoded"):
            token = _field(body)
        if fresh or not self.guard.csrf_ok(identity, token):
            await refuse(403, Refusal.BAD_CSRF)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)


    async def _socket(self, scope: Scope, receive: Receive, send: Send,
                      headers: dict[str, str], identity: str | None, network: str) -> None:
        """A WebSocket: refused without an identity (its page gives it one) or
        beyond the network's open connections; counted while it is open."""
        if identity is None:
            await _refuse_socket(scope, receive, send, 4401, Refusal.NO_IDENTITY)
            return
        if self.sockets[network] >= self.limits.sockets_per_network:
            await _refuse_socket(scope, receive, send, 1013, Refusal.TOO_MANY_SOCKETS)
            return
        state = scope["state"]
        state["identity"] = identity
        state["same_origin"] = same_origin(headers, "https" if scope.get("scheme") == "wss"
                                           else "http")
        self.sockets[network] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.sockets[network] -= 1
            if self.sockets[network] <= 0:
                del self.sockets[network]


async def _refuse_socket(scope: Scope, receive: Receive, send: Send, code: int,
                         refusal: Refusal, status: int | None = None) -> None:
    """Refuse a WebSocket before any route: with an HTTP ``status`` where the server
    can answer one (the handshake is then never accepted: its English and ``refusal``'s
    code in JSON), else accepted and closed at once with ``code`` and its English as
    the reason."""
    text = REFUSAL_ENGLISH[refusal]
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    if status is not None and "websocket.http.response" in scope.get("extensions", {}):
        body = json.dumps({"error": text, "code": str(refusal)}).encode("utf-8")
        await send({"type": "websocket.http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode())]})
        await send({"type": "websocket.http.response.body", "body": body})
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code, "reason": text[:120]})


def _field(raw: bytes) -> str | None:
    """The CSRF field of an url-encoded text (a query string or a form body)."""
    try:
        fields = parse_qs(raw.decode("utf-8"), max_num_fields=500)
    except (UnicodeDecodeError, ValueError):
        return None
    values = fields.get(CSRF_FIELD)
    return values[0] if values else None


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


# A refusal as a page says it, in the page's language (the JSON of /api/ keeps the
# English words programs read).
PAGE_WORDS: Final = {
    Refusal.REQUEST_TOO_LARGE: N_(
        "The request is larger than %(max)s bytes, more than this site accepts."),
    Refusal.CROSS_SITE_REQUEST: N_(
        "The request comes from another site. Open the page on this site and try again."),
    Refusal.BAD_CSRF: N_(
        "This form is out of date or was not sent by this site's page. Reload the page "
        "and try again."),
    Refusal.UNKNOWN_HOST: N_(
        "This server does not answer to this name. Open it by the address its owner "
        "gave."),
}


def _page_words(headers: dict[str, str], refusal: Refusal,
                max_body: int) -> tuple[str, str, str, str]:
    """(language, title, message, link) of a refusal shown as a page: the ``lang``
    cookie, else the browser's Accept-Language (web.i18n)."""
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except Exception:  # a malformed cookie header: no choice made
        jar = SimpleCookie()
    morsel = jar.get(LANG_COOKIE)
    lang = choose(morsel.value if morsel is not None else None,
                  headers.get("accept-language"))
    words = gettext(lang, PAGE_WORDS[refusal]) % {"max": max_body}
    title = gettext(lang, N_("Request refused"))
    return lang, title, words, gettext(lang, N_("Back to the home page"))


async def _refuse(send: Send, status: int, refusal: Refusal, text: str, html: bool = False,
                  page: tuple[str, str, str, str] | None = None) -> None:
    if html:
        lang, title, words, back = page or ("en", str(status), text, "belote")
        body = (f"<!doctype html><html lang=\"{lang}\"><meta charset=utf-8>"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                f"<title>{escape(title)} · belote</title>"
                "<body style=\"font-family: system-ui, sans-serif; margin: 2rem auto; "
                "max-width: 36rem; padding: 0 1rem; line-height: 1.5\">"
                f"<h1>{escape(title)}</h1><p>{escape(words)}</p>"
                f"<p><a href=\"/\">{escape(back)}</a></p></body></html>").encode()
        ctype = b"text/html; charset=utf-8"
    else:
        body = json.dumps({"error": text, "code": str(refusal)}).encode("utf-8")
        ctype = b"application/json"
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", ctype), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


# --- logs -------------------------------------------------------------------------------

# Query fields that carry a secret: a room's invitation, a seat's token, a CSRF
# token (the action of a multipart form), a share link's key.
SECRET_FIELDS: Final = ("invite", "token", "csrf_token", "key", "secret", "share")
_SECRET_IN_URL = re.compile(
    r"([?&;](?:" + "|".join(SECRET_FIELDS) + r")=)[^&;#\s\"']*", re.IGNORECASE)
_SECRET_IN_FRAGMENT = re.compile(r"(#[^\s\"']*?token=)[^&\s\"']*", re.IGNORECASE)
# A score sheet's share links carry their secret in the path (``/sheets/7/follow/S``),
# also when the path is itself the value of a field (``?next=%2Fsheets%2F7%2Ffollow%2FS``).
_SECRET_IN_PATH = re.compile(
    r"((?:/|%2F)sheets(?:/|%2F)[0-9]+(?:/|%2F)(?:follow|keep)(?:/|%2F))"
    r"(?:(?!%2F)[^/?&#;\s\"'])+", re.IGNORECASE)
REDACTED: Final = "[redacted]"


def redact(text: str) -> str:
    """``text`` with the value of every secret field of an address in it blanked
    (``/rooms/A1?invite=[redacted]``), and the secret of a sheet's share link.

    >>> redact("GET /sheets/7/follow/Zx9_-a HTTP/1.1")
    'GET /sheets/7/follow/[redacted] HTTP/1.1'
    >>> redact("/lang/fr?next=%2Fsheets%2F7%2Fkeep%2FZx9_-a")
    '/lang/fr?next=%2Fsheets%2F7%2Fkeep%2F[redacted]'
    """
    text = _SECRET_IN_URL.sub(lambda m: m.group(1) + REDACTED, text)
    text = _SECRET_IN_PATH.sub(lambda m: m.group(1) + REDACTED, text)
    return _SECRET_IN_FRAGMENT.sub(lambda m: m.group(1) + REDACTED, text)


class RedactSecrets(logging.Filter):
    """A logging filter that blanks the secrets of the addresses a record holds
    (uvicorn's access log writes each request's path and query string)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v
                           for k, v in record.args.items()}
        return True


LOGGERS: Final = ("uvicorn.access", "uvicorn.error", "uvicorn")


def install_log_redaction() -> RedactSecrets:
    """Put :class:`RedactSecrets` on uvicorn's loggers (after uvicorn configured
    them) and on their handlers; the filter installed."""
    redactor = RedactSecrets()
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(redactor)
        for handler in logger.handlers:
            if not any(isinstance(f, RedactSecrets) for f in handler.filters):
                handler.addFilter(redactor)
    return redactor
