"""The chat of a room over its WebSocket (web/chat.py): quick messages and free text
reach every player and spectator; too long, too fast, from a stranger or at a table
against bots they are refused in plain words; the last messages come back to a player
who reconnects; nothing secret travels with them."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from belote.errors import Refusal
from belote.web.chat import CHAT_BURST, CHAT_LENGTH, QUICK, RING, RoomChat
from belote.web.clients import Client
from belote.web.rooms import Room
from belote.web.security import RateLimiter
from tests.web.support import TestClient, WebSocketTestSession, new_identity, receive, send
from tests.web.test_refusal_codes_web import _reworded


class Friends:
    """A room with friends: Ann at N and Bob at E (each his own browser), a spectator
    with the invitation, all connected."""

    def __init__(self, client: TestClient, stack: contextlib.ExitStack) -> None:
        new_identity(client)
        r = client.post("/api/rooms", json={"profile": "classic", "bots": "random"})
        assert r.status_code == 201, r.text
        self.id: str = r.json()["id"]
        self.invite: str = r.json()["invite"]
        self.room: Room = client.app.state.rooms.get(self.id)  # type: ignore[attr-defined]
        self.tokens: dict[str, str] = {}
        self.sockets: dict[str, WebSocketTestSession] = {}
        for seat, name in (("N", "Ann"), ("E", "Bob")):
            new_identity(client)
            r = client.post(f"/api/rooms/{self.id}/seats",
                            json={"seat": seat, "name": name, "invite": self.invite})
            assert r.status_code == 200, r.text
            self.tokens[name] = r.json()["token"]
            self.sockets[name] = self.connect(client, stack, {"token": self.tokens[name]})
        new_identity(client)
        self.sockets["watcher"] = self.connect(client, stack, {"invite": self.invite})

    def connect(self, client: TestClient, stack: contextlib.ExitStack,
                hello: dict[str, Any]) -> WebSocketTestSession:
        ws = stack.enter_context(client.websocket_connect(f"/ws/rooms/{self.id}"))
        send(ws, {"type": "hello", **hello})
        assert next_of(ws, "state")["type"] == "state"
        return ws


def next_of(ws: WebSocketTestSession, *kinds: str) -> dict[str, Any]:
    """The next message of one of ``kinds`` (the states in between skipped)."""
    for _ in range(1000):
        msg = receive(ws)
        if msg["type"] in kinds:
            return msg
    raise AssertionError(f"no {kinds} message came")  # pragma: no cover


@pytest.fixture
def friends(client: TestClient) -> Iterator[Friends]:
    with contextlib.ExitStack() as stack:
        yield Friends(client, stack)


def test_a_quick_message_and_a_text_reach_everyone(friends: Friends) -> None:
    ann, bob, watcher = (friends.sockets[k] for k in ("Ann", "Bob", "watcher"))
    send(ann, {"type": "chat", "quick": "well_played"})
    got = [next_of(ws, "chat") for ws in (ann, bob, watcher)]
    assert all(m["quick"] == "well_played" and "text" not in m for m in got)
    assert [m["mine"] for m in got] == [True, False, False]
    assert got[1]["from"]["seat"] == "N" and got[1]["from"]["name"] == "Ann"
    assert len({m["from"]["who"] for m in got}) == 1
    send(bob, {"type": "chat", "text": "  Merci,\npartenaire !  "})
    got = [next_of(ws, "chat") for ws in (ann, bob, watcher)]
    assert all(m["text"] == "Merci, partenaire !" for m in got)
    assert got[0]["from"] == {"who": got[0]["from"]["who"], "seat": "E", "name": "Bob"}
    assert got[0]["from"]["who"] != got[0]["id"] and got[1]["mine"]
    # A spectator writes too, without a seat or a name.
    send(watcher, {"type": "chat", "quick": "good_game"})
    got = [next_of(ws, "chat") for ws in (ann, bob, watcher)]
    assert got[0]["from"]["seat"] is None and got[0]["from"]["name"] == ""
    assert [m["mine"] for m in got] == [False, False, True]


def test_nothing_secret_travels_with_a_message(friends: Friends, client: TestClient) -> None:
    ann = friends.sockets["Ann"]
    send(ann, {"type": "chat", "text": "bonjour"})
    text = json.dumps(next_of(ann, "chat"))
    secrets = [friends.invite, *friends.tokens.values(),
               *(s.owner for s in friends.room.seats if s.owner)]
    assert all(secret not in text for secret in secrets)
    assert all(secret not in json.dumps(list(friends.room.chat.messages)) for secret in secrets)


def test_an_over_long_message_is_refused_in_plain_words(friends: Friends) -> None:
    ann, bob = friends.sockets["Ann"], friends.sockets["Bob"]
    send(ann, {"type": "chat", "text": "x" * (CHAT_LENGTH + 1)})
    refusal = next_of(ann, "error", "chat")
    assert refusal == {"type": "error", "chat": True, "code": "chat_too_long",
                       "message": f"Chat: a message has at most {CHAT_LENGTH} characters "
                                  f"(this one has {CHAT_LENGTH + 1})."}
    send(ann, {"type": "chat", "text": "é" * CHAT_LENGTH})  # exactly the most: said
    assert next_of(bob, "chat")["text"] == "é" * CHAT_LENGTH
    assert next_of(ann, "chat")["mine"]
    for bad, code in (({"text": " \n\t "}, "chat_empty"), ({"text": ["x"]}, "chat_not_text"),
                      ({"quick": "<b>"}, "chat_not_text"), ({}, "chat_not_text")):
        send(ann, {"type": "chat", **bad})
        assert next_of(ann, "error", "chat")["code"] == code
    assert [m.get("text") for m in friends.room.chat.messages] == ["é" * CHAT_LENGTH]


def test_a_refusal_is_said_in_the_readers_language(friends: Friends, client: TestClient
                                                   ) -> None:
    with client.websocket_connect(f"/ws/rooms/{friends.id}",
                                  headers={"accept-language": "fr-FR"}) as ws:
        send(ws, {"type": "hello", "invite": friends.invite})
        next_of(ws, "state")
        send(ws, {"type": "chat", "text": "x" * 300})
        assert next_of(ws, "error")["message"] == (
            "Discussion : un message a au plus 200 caractères (celui-ci en a 300).")


def test_a_flood_is_refused_per_person(friends: Friends) -> None:
    # The bucket's clock stands still: exactly the burst passes, whatever the machine.
    friends.room.chat.limiter = RateLimiter(0.5, CHAT_BURST, clock=lambda: 100.0)
    ann, bob = friends.sockets["Ann"], friends.sockets["Bob"]
    for i in range(CHAT_BURST):
        send(ann, {"type": "chat", "text": f"message {i}"})
        assert next_of(ann, "chat", "error")["type"] == "chat"
    send(ann, {"type": "chat", "quick": "oops"})
    refusal = next_of(ann, "chat", "error")
    assert refusal["code"] == "chat_too_fast", refusal
    assert "wait a few seconds" in refusal["message"]
    send(bob, {"type": "chat", "quick": "thanks"})  # another person is not held back
    heard = [next_of(bob, "chat", "error") for _ in range(CHAT_BURST + 1)]
    assert [m.get("text") for m in heard[:-1]] == [f"message {i}" for i in range(CHAT_BURST)]
    assert heard[-1]["quick"] == "thanks" and heard[-1]["mine"]
    assert len(friends.room.chat.messages) == CHAT_BURST + 1


def test_a_stranger_is_refused(friends: Friends, client: TestClient) -> None:
    new_identity(client)
    # Without the invitation or a seat: the hello itself is refused and the socket closed.
    with client.websocket_connect(f"/ws/rooms/{friends.id}") as ws:
        send(ws, {"type": "hello", "invite": friends.invite + "x", "token": "nope"})
        fatal = receive(ws)
        assert fatal["fatal"] is True and fatal["code"] == "no_such_room"
        with pytest.raises(WebSocketDisconnect):
            send(ws, {"type": "chat", "text": "spam"})
            receive(ws)
    # Before any hello: refused, nothing said.
    with client.websocket_connect(f"/ws/rooms/{friends.id}") as ws:
        send(ws, {"type": "chat", "text": "spam"})
        refusal = receive(ws)
        assert refusal["type"] == "error" and refusal["code"] == "hello_first"
        assert refusal["message"].startswith("Say hello first")
    assert list(friends.room.chat.messages) == []
    send(friends.sockets["Ann"], {"type": "ping"})
    assert next_of(friends.sockets["Ann"], "pong", "chat")["type"] == "pong"


def test_a_reconnecting_player_sees_the_last_messages(friends: Friends, client: TestClient
                                                      ) -> None:
    friends.room.chat.limiter = RateLimiter(1000.0, 1000)
    ann = friends.sockets["Ann"]
    for i in range(RING + 5):
        send(ann, {"type": "chat", "text": f"m{i}"})
        next_of(ann, "chat")
    with client.websocket_connect(f"/ws/rooms/{friends.id}") as again:
        send(again, {"type": "hello", "token": friends.tokens["Ann"]})
        log = next_of(again, "chat_log")["messages"]
    assert [m["text"] for m in log] == [f"m{i}" for i in range(5, RING + 5)]
    # Ann's token, another browser (the cookie of the last identity): not hers.
    assert not any(m["mine"] for m in log)
    assert set(QUICK) >= {"well_played", "belote", "sorry", "thanks", "come_on", "oops"}


def test_a_table_against_bots_has_no_chat(client: TestClient) -> None:
    r = client.post("/play", data={"player": "Ana", "profile": "classic", "bots": "random"},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    path, _, fragment = r.headers["location"].partition("#")
    token = dict(p.split("=") for p in fragment.split("&"))["token"]
    with client.websocket_connect("/ws/rooms/" + path.rsplit("/", 1)[1]) as ws:
        send(ws, {"type": "hello", "token": token})
        send(ws, {"type": "chat", "quick": "hello"})
        assert next_of(ws, "error", "chat")["code"] == "chat_private"


def test_a_message_id_is_new_after_a_restart() -> None:
    """A room brought back after a restart has a new chat (the talk is not in its log): its
    first message's id is not that of a message a page kept from before."""

    async def nowhere(text: str) -> None:  # pragma: no cover - nothing is sent
        return None

    client = Client(nowhere, "an-identity")
    client.hello = client.invited = True
    ids = []
    for _run in range(2):
        chat = RoomChat("room")
        chat.say(client, {"type": "chat", "text": "bonjour"}, private=False, seats=[],
                 everyone=[])
        ids.append(chat.messages[-1]["id"])
    assert ids[0] != ids[1]


# Each refusal of the chat, by code, and its French (docs/json.md).
CHAT_FRENCH = {
    "chat_private": "Une table contre les bots n'a pas de discussion.",
    "chat_no_seat":
        "Discussion : seuls les joueurs et les spectateurs de cette salle peuvent écrire.",
    "chat_not_text": "Discussion : un message est un texte, ou l'un des messages rapides.",
    "chat_empty": "Discussion : le message est vide.",
    "chat_too_long": "Discussion : un message a au plus 200 caractères (celui-ci en a 201).",
    "chat_too_fast":
        "Discussion : trop de messages en peu de temps ; attendez quelques secondes.",
}


class Heard(Client):
    """A connection that keeps what it is sent."""

    def __init__(self, lang: str) -> None:
        async def nowhere(text: str) -> None:  # pragma: no cover - nothing is sent
            return None

        super().__init__(nowhere, f"identity-{lang}")
        self.lang = lang
        self.heard: list[dict[str, Any]] = []

    def push(self, text: str) -> None:
        self.heard.append(json.loads(text))


def _chat_refusals(lang: str) -> dict[str, dict[str, Any]]:
    """Each refusal of the chat, by its code: a stranger's message (no hello), one at a
    table against bots, one of the wrong form, an empty one, one too long, one too many."""
    chat = RoomChat("room")
    chat.limiter = RateLimiter(0.5, 1, clock=lambda: 100.0)  # one message, then none
    stranger, player = Heard(lang), Heard(lang)
    player.hello = player.invited = True
    chat.say(stranger, {"type": "chat", "text": "spam"}, private=False, seats=[], everyone=[])
    chat.say(player, {"type": "chat", "quick": "hello"}, private=True, seats=[], everyone=[])
    for said in ({"text": ["x"]}, {"text": " \n "}, {"text": "x" * (CHAT_LENGTH + 1)},
                 {"text": "first"}, {"quick": "thanks"}):
        chat.say(player, {"type": "chat", **said}, private=False, seats=[], everyone=[])
    assert [m["text"] for m in chat.messages] == ["first"]
    refusals = [m for m in stranger.heard + player.heard if m["type"] == "error"]
    assert len(refusals) == len(CHAT_FRENCH)
    return {m["code"]: m for m in refusals}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_each_chat_refusal_is_said_from_its_code(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The chat's refusals are codes of the one table of the web's refusals
    (errors.Refusal), each said in the reader's language from its code as the rooms'
    are; rewording every English message (errors.REFUSAL_ENGLISH) changes nothing."""
    before = _chat_refusals(lang)
    assert {Refusal(code) for code in before} == {Refusal(code) for code in CHAT_FRENCH}
    assert all(set(m) == {"type", "chat", "code", "message"} and m["chat"] is True
               for m in before.values())
    said = {code: m["message"] for code, m in before.items()}
    if lang == "fr":
        assert said == CHAT_FRENCH
    else:
        assert said["chat_too_long"] == (
            f"Chat: a message has at most {CHAT_LENGTH} characters "
            f"(this one has {CHAT_LENGTH + 1}).")
        assert said["chat_private"] == "A table against bots has no chat."
    _reworded(monkeypatch)
    assert _chat_refusals(lang) == before
