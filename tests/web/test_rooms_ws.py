"""The room protocol over WebSockets (TestClient): secrecy, seat ownership,
reconnection and bot replacement, refused actions, games to the end."""

from __future__ import annotations

import contextlib
import random
import threading
from typing import Any

import pytest

from belote.bots import BaseBot
from belote.cards import card_symbol, parse_card
from belote.hand import CardPlayed
from belote.play import SEAT_NAMES
from belote.round import PlayerView
from belote.web import rooms as rooms_module
from tests.web.support import (
    Table,
    TestClient,
    cards_in,
    hidden_from,
    new_identity,
    receive,
    send,
    until_state,
)


def _choose(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
    deal = state["deal"]
    if deal["phase"] == "bidding":
        return {"type": "call", "call": rng.choice(deal["legal"])}
    return {"type": "play", "card": rng.choice(deal["legal"]),
            "declare": rng.random() < 0.8, "belote": rng.random() < 0.8}


def _check_secrecy(table: Table, start: list[int]) -> None:
    """Every message each seat received since ``start`` names no card it may not see."""
    rnd = table.room.round
    assert rnd is not None
    for seat in range(4):
        hidden = hidden_from(rnd, seat)
        for msg in table.seen[seat][start[seat]:]:
            leaked = cards_in(msg) & hidden
            assert not leaked, (
                f"seat {SEAT_NAMES[seat]} was sent {sorted(leaked)} in {msg['type']} "
                f"version {msg.get('version')}")
            if msg["type"] == "state" and msg["deal"] and msg["deal"]["hand"]:
                # The scan finds the seat's own cards: it does read the messages.
                assert set(msg["deal"]["hand"]) <= cards_in(msg)
        start[seat] = len(table.seen[seat])


@pytest.mark.parametrize(("profile", "target"), [
    ("classic", 400), ("moroccan", 300), ("coinche", 700), ("contree", 700)])
def test_no_seat_is_ever_sent_a_card_it_may_not_see(
    client: TestClient, profile: str, target: int
) -> None:
    """docs/rules.md §3.4, §7.4, §7.6: a seat sees its own cards, the turned card, the
    cards played and the declarations shown at trick 2 — and nothing else, in every
    message of a whole game played by four people."""
    rng = random.Random(profile)
    with Table(client, profile, target) as table:
        table.start()
        marks = [0, 0, 0, 0]
        _check_secrecy(table, marks)
        actions = 0
        while table.room.status == "playing":
            states = table.latest
            if states[0]["between_deals"]:
                table.act(0, {"type": "next"})
            else:
                turn = SEAT_NAMES.index(states[0]["deal"]["turn"])
                answer = table.act(turn, _choose(rng, states[turn]))
                assert answer["type"] == "state", answer
                actions += 1
            _check_secrecy(table, marks)
            assert actions < 3000
        final = table.latest[0]
        assert final["status"] == "finished"
        assert final["score"]["winner"] in ("NS", "EW")
        assert actions > 30


def test_one_seat_cannot_act_for_another(client: TestClient) -> None:
    """A token holds one seat: another seat's turn, a 'seat' field in the message,
    a second seat, a spectator acting — all refused and nothing changes."""
    rng = random.Random(3)
    with Table(client) as table:
        states = table.start()
        turn = SEAT_NAMES.index(states[0]["deal"]["turn"])
        other = (turn + 1) % 4
        calls_before = len(states[0]["deal"]["calls"])
        version = table.room.version
        answer = table.act(other, {"type": "call", "call": "pass"})
        assert answer["type"] == "error" and "turn" in answer["message"]
        answer = table.act(other, {"type": "call", "call": "pass", "seat": SEAT_NAMES[turn]})
        assert answer["type"] == "error"
        answer = table.act(other, {"type": "join", "seat": SEAT_NAMES[turn], "name": "X"})
        assert answer["type"] == "error" and "already" in answer["message"]
        assert table.room.version == version
        assert table.room.round is not None
        assert len(table.room.round.bidding.calls) == calls_before
        # Play on to the card play and try again with the player's own card.
        while table.latest[0]["deal"]["phase"] != "play":
            if table.latest[0]["between_deals"]:
                table.act(0, {"type": "next"})
                continue
            turn = SEAT_NAMES.index(table.latest[0]["deal"]["turn"])
            table.act(turn, _choose(rng, table.latest[turn]))
        turn = SEAT_NAMES.index(table.latest[0]["deal"]["turn"])
        card = table.latest[turn]["deal"]["legal"][0]
        thief = (turn + 2) % 4
        answer = table.act(thief, {"type": "play", "card": card, "seat": SEAT_NAMES[turn]})
        assert answer["type"] == "error"
        # in plain words (issue 13): the thief's partner has the turn
        assert answer["message"] == "It is not your turn: your partner plays or speaks now."
        assert card in table.latest[turn]["deal"]["hand"]
        assert table.room.round is not None and table.room.round.contract is not None
        played = [e for e in table.room.round.events() if isinstance(e, CardPlayed)]
        assert not played or played[-1].seat != turn
        # A connection with the invitation and no token only watches.
        with client.websocket_connect(f"/ws/rooms/{table.id}") as ws:
            send(ws, {"type": "hello", "invite": table.invite})
            state = until_state(ws)
            assert state["you"] is None and state["deal"]["hand"] is None
            send(ws, {"type": "play", "card": card})
            assert receive(ws) == {"type": "error", "message": "take a seat first",
                                   "code": "take_a_seat"}


def test_a_token_that_holds_no_seat_only_watches(client: TestClient) -> None:
    with Table(client) as table:
        table.start()
        with client.websocket_connect(f"/ws/rooms/{table.id}") as ws:
            send(ws, {"type": "hello", "token": table.tokens[0] + "x", "invite": table.invite})
            first = receive(ws)
            second = receive(ws)
            msgs = {m["type"]: m for m in (first, second)}
            assert msgs["error"]["code"] == "bad_token"
            assert msgs["state"]["you"] is None and msgs["state"]["deal"]["hand"] is None
            rnd = table.room.round
            assert rnd is not None
            assert not cards_in(msgs["state"]) & hidden_from(rnd, None)


INVITES: dict[str, str] = {}  # room id -> its invitation


def _bot_room(client: TestClient, bots: str = "random", target: int = 100_000
              ) -> tuple[str, str]:
    r = client.post("/api/rooms", json={"profile": "classic", "bots": bots, "target": target})
    room_id = r.json()["id"]
    INVITES[room_id] = invite = r.json()["invite"]
    token = client.post(f"/api/rooms/{room_id}/seats",
                        json={"seat": "N", "name": "Ann", "invite": invite}).json()["token"]
    for seat in "ESW":
        r = client.post(f"/api/rooms/{room_id}/seats",
                        json={"seat": seat, "bot": True, "token": token})
        assert r.json() == {"seat": seat, "bot": True}
    r = client.post(f"/api/rooms/{room_id}/start", json={"token": token})
    assert r.status_code == 200, r.text
    return room_id, token


def _wait_turn(ws: Any, seat: str) -> dict[str, Any]:
    for _ in range(10_000):
        state = until_state(ws)
        deal = state["deal"]
        if deal and deal["turn"] == seat and not state["between_deals"] and deal["legal"]:
            return state
        if state["between_deals"]:
            send(ws, {"type": "next"})
    raise AssertionError("the seat's turn never came")


def test_a_player_who_drops_is_played_by_a_bot_until_he_comes_back(
    client: TestClient
) -> None:
    room_id, token = _bot_room(client)
    room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/rooms/{room_id}") as watcher:
        send(watcher, {"type": "hello", "invite": INVITES[room_id]})
        with client.websocket_connect(f"/ws/rooms/{room_id}") as ann:
            send(ann, {"type": "hello", "token": token})
            assert receive(ann) == {"type": "welcome", "seat": "N"}
            state = _wait_turn(ann, "N")
            assert state["seats"][0]["bot_playing"] is False
            version = state["version"]
            deal = state["deal"]
            before = (deal["number"], len(deal["calls"]), deal["card_counts"]["N"])
        # Ann's connection closed: a bot plays N and the game goes on past her turn.
        for _ in range(10_000):
            state = until_state(watcher)
            if state["version"] > version and state["seats"][0]["bot_playing"]:
                break
        assert state["seats"][0]["bot_playing"]
        for _ in range(10_000):
            deal = state["deal"]
            if (deal["number"], len(deal["calls"]), deal["card_counts"]["N"]) != before:
                break
            state = until_state(watcher)
        deal = state["deal"]
        assert (deal["number"], len(deal["calls"]), deal["card_counts"]["N"]) != before
        assert state["seats"][0]["kind"] == "human" and state["seats"][0]["name"] == "Ann"
        # She comes back with her token: her seat, her cards, no bot.
        with client.websocket_connect(f"/ws/rooms/{room_id}") as ann:
            send(ann, {"type": "hello", "token": token})
            assert receive(ann) == {"type": "welcome", "seat": "N"}
            state = _wait_turn(ann, "N")
            assert state["you"]["seat"] == "N"
            assert state["seats"][0] == {"seat": "N", "kind": "human", "name": "Ann",
                                         "connected": True, "away": False,
                                         "bot_playing": False}
            assert not room.bot_plays(0)
            before = state["version"]
            choice = {"type": "call", "call": "pass"} if state["deal"]["phase"] == "bidding" \
                else {"type": "play", "card": state["deal"]["legal"][0]}
            send(ann, choice)
            state = until_state(ann, before + 1)
            assert state["version"] > before


def test_an_illegal_card_is_refused_with_the_rule_it_breaks(client: TestClient) -> None:
    """§6: the server answers the rule broken; the card stays in the hand."""
    rng = random.Random(8)
    with Table(client) as table:
        table.start()
        turn, card = table.to_illegal_card(rng)
        version = table.room.version
        answer = table.act(turn, {"type": "play", "card": card})
        assert answer["type"] == "error"
        shown = card_symbol(parse_card(card))  # A♣, 10♥: for people
        assert f"You may not play {shown}: " in answer["message"]
        assert "§" not in answer["message"]  # the rule in plain words (issue 13)
        assert table.room.version == version
        assert card in table.latest[turn]["deal"]["hand"]


def test_moroccan_refusals_name_the_cards_the_spanish_way(client: TestClient) -> None:
    """docs/rules.md §1.2: the moroccan profile names cards from the Spanish deck."""
    rng = random.Random(9)
    with Table(client, "moroccan") as table:
        table.start()
        assert table.latest[0]["deck"] == "spanish"
        turn, card = table.to_illegal_card(rng)
        answer = table.act(turn, {"type": "play", "card": card})
        assert answer["type"] == "error"
        assert " de " in answer["message"] and card not in answer["message"]


def test_lobby_seats_bots_and_start(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"profile": "coinche", "bots": "heuristic"})
    room_id, invite = r.json()["id"], r.json()["invite"]
    with contextlib.ExitStack() as stack:
        a = stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}"))
        new_identity(client)  # Bob's browser
        b = stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}"))
        send(a, {"type": "hello", "invite": invite})
        send(b, {"type": "hello", "invite": invite})
        assert until_state(a)["status"] == "waiting"
        until_state(b)
        send(a, {"type": "start"})
        assert receive(a)["message"] == "take a seat first"
        send(a, {"type": "join", "seat": "N", "name": "  Ann   Lee "})
        welcome = receive(a)
        assert welcome["type"] == "welcome" and welcome["seat"] == "N" and welcome["token"]
        send(b, {"type": "join", "seat": "N", "name": "Bob"})
        msg = receive(b)
        while msg["type"] == "state":
            msg = receive(b)
        assert msg == {"type": "error", "message": "The North seat is taken by Ann Lee.",
                       "code": "seat_taken"}
        send(b, {"type": "join", "seat": "X"})
        msg = receive(b)
        while msg["type"] == "state":
            msg = receive(b)
        assert "not a seat" in msg["message"]
        send(b, {"type": "join", "seat": "E", "name": "Bob"})
        msg = receive(b)
        while msg["type"] == "state":
            msg = receive(b)
        assert msg["type"] == "welcome" and msg["seat"] == "E"
        send(a, {"type": "bot", "seat": "S"})
        send(b, {"type": "leave"})
        room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
        state = until_state(a)
        for _ in range(100):
            if [s["kind"] for s in state["seats"]] == ["human", "open", "bot", "open"]:
                break
            state = until_state(a)
        assert [s["kind"] for s in state["seats"]] == ["human", "open", "bot", "open"]
        send(a, {"type": "start"})
        for _ in range(100):
            state = until_state(a)
            if state["status"] == "playing":
                break
        assert [s["kind"] for s in state["seats"]] == ["human", "bot", "bot", "bot"]
        assert room.status == "playing"
        send(a, {"type": "leave"})
        msg = receive(a)
        while msg["type"] == "state":
            msg = receive(a)
        assert msg["message"] == "a seat can be left only before the game starts"
        send(a, {"type": "dance"})
        msg = receive(a)
        while msg["type"] == "state":
            msg = receive(a)
        assert msg["message"] == "Unknown message: dance." and msg["code"] == "unknown_message"


@pytest.mark.parametrize("profile", ["classic", "moroccan", "coinche", "contree"])
def test_a_whole_game_against_bots(client: TestClient, profile: str) -> None:
    """The table against bots: the player at S, three bots, to the end of the game;
    the totals are the sum of the hands (docs/rules.md §11)."""
    r = client.post("/play", data={"profile": profile, "bots": "heuristic", "target": "300",
                                   "player": "Me"}, follow_redirects=False)
    assert r.status_code == 303
    location = r.headers["location"]
    room_id = location.split("/")[2].split("#")[0]
    token = location.split("token=")[1]
    rng = random.Random(profile)
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        send(ws, {"type": "hello", "token": token})
        assert receive(ws) == {"type": "welcome", "seat": "S"}
        for _ in range(20_000):
            state = until_state(ws)
            if state["status"] == "finished":
                break
            deal = state["deal"]
            if state["between_deals"]:
                send(ws, {"type": "next"})
            elif deal["turn"] == "S" and deal["legal"]:
                send(ws, _choose(rng, state))
        score = state["score"]
        assert state["status"] == "finished" and score["finished"]
        assert score["winner"] in ("NS", "EW")
        for team in ("NS", "EW"):
            assert score["totals"][team] == sum(h["score"][team] for h in score["hands"])
            assert score["running"][-1][team] == score["totals"][team]
        assert max(score["totals"].values()) >= 300
    spectator = client.get(f"/api/rooms/{room_id}").json()
    assert spectator["you"] is None and spectator["deal"]["hand"] is None


class _SlowBot(BaseBot):
    """A bot that thinks until the test lets it (at most 5 s)."""

    kind = "pimc"

    def __init__(self, gate: threading.Event, log: list[bool]) -> None:
        super().__init__(0)
        self.gate, self.log = gate, log

    def call(self, view: PlayerView) -> str:
        self.log.append(self.gate.wait(timeout=5))
        return "pass"

    def play(self, view: PlayerView) -> int:
        return view.legal_cards[0]


def test_slow_bots_think_in_a_thread_and_the_room_stays_free(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a pimc bot thinks, the server still answers (here, a ping)."""
    gate = threading.Event()
    log: list[bool] = []
    monkeypatch.setattr(rooms_module, "make_bot",
                        lambda spec, seed=None: _SlowBot(gate, log))
    room_id, token = _bot_room(client, bots="pimc")
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        send(ws, {"type": "hello", "token": token})
        assert receive(ws)["type"] == "welcome"
        state = until_state(ws)
        while state["deal"]["turn"] == "N":
            send(ws, {"type": "call", "call": "pass"})
            state = until_state(ws, state["version"] + 1)
        # A bot is to call and waits on the gate: the room answers meanwhile.
        send(ws, {"type": "ping"})
        msg = receive(ws)
        while msg["type"] != "pong":
            msg = receive(ws)
        gate.set()
        state = until_state(ws)
        for _ in range(100):
            if log:
                break
            state = until_state(ws)
        assert log and log[0] is True


def test_an_opponent_may_coinche_out_of_turn_when_the_option_says_so(
    client: TestClient
) -> None:
    """§4.5 coinche_in_turn = false: any opponent of the highest bidder may coinche."""
    with Table(client, "coinche", options={"coinche_in_turn": False}) as table:
        states = table.start()
        bidder = SEAT_NAMES.index(states[0]["deal"]["turn"])
        answer = table.act(bidder, {"type": "call", "call": "80H"})
        assert answer["type"] == "state"
        late = (bidder + 3) % 4  # an opponent whose turn it is not
        partner = (bidder + 2) % 4
        assert table.latest[late]["deal"]["turn"] != SEAT_NAMES[late]
        assert table.latest[late]["deal"]["can_coinche"] is True
        assert table.latest[partner]["deal"]["can_coinche"] is False
        answer = table.act(late, {"type": "call", "call": "coinche"})
        assert answer["type"] == "state"
        assert answer["deal"]["calls"][-1] == {"seat": SEAT_NAMES[late], "call": "coinche"}
        answer = table.act(partner, {"type": "call", "call": "coinche"})
        assert answer["type"] == "error"


def test_a_spectator_may_take_a_bot_seat_during_the_game(client: TestClient) -> None:
    room_id, _token = _bot_room(client)
    new_identity(client)  # a friend's browser, with the room's link
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        send(ws, {"type": "hello", "invite": INVITES[room_id]})
        assert until_state(ws)["you"] is None
        send(ws, {"type": "join", "seat": "E", "name": "Late"})
        msg = receive(ws)
        while msg["type"] == "state":
            msg = receive(ws)
        assert msg["type"] == "welcome" and msg["seat"] == "E" and msg["token"]
        state = until_state(ws)
        for _ in range(1000):
            if state["seats"][1]["kind"] == "human":
                break
            state = until_state(ws)
        assert state["you"]["seat"] == "E" and state["deal"]["hand"] is not None
        assert state["seats"][1] == {"seat": "E", "kind": "human", "name": "Late",
                                     "connected": True, "away": False, "bot_playing": False}


def test_messages_that_are_not_json_text_are_answered_with_an_error(
    client: TestClient
) -> None:
    room_id, _token = _bot_room(client)
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        not_json = {"type": "error", "message": "A message is JSON text.",
                    "code": "not_json_text"}
        ws.send_text("{not json")
        assert receive(ws) == not_json
        ws.send_bytes(b"\x00\x01")
        assert receive(ws) == not_json
        send(ws, {"type": "ping"})
        assert receive(ws) == {"type": "pong"}
    with client.websocket_connect("/ws/rooms/nope") as ws:
        msg = receive(ws)
        assert msg["fatal"] is True and msg["code"] == "no_such_room"
        assert msg["message"] == "There is no such room (it may have closed)."
