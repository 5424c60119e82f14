"""The hint button's WebSocket message (issue 13): the strongest bot's advice for the
seat whose turn it is, answered to the asking connection only, worked out from that
seat's own view; refused out of turn, in plain words."""

from __future__ import annotations

from typing import Any

from belote.play import SEAT_NAMES
from tests.web.support import Table, TestClient, cards_in, hidden_from, receive, send


def _hint(table: Table, seat: int) -> dict[str, Any]:
    send(table.sockets[seat], {"type": "hint"})
    while True:
        msg = receive(table.sockets[seat], timeout=60)
        table.seen[seat].append(msg)
        if msg["type"] in ("hint", "error"):
            return msg


def test_a_hint_for_the_seat_to_act_only_to_its_connection(client: TestClient) -> None:
    with Table(client) as table:
        table.start()
        rnd = table.room.round
        assert rnd is not None
        turn = rnd.current_player()
        other = (turn + 1) % 4
        # out of turn: refused in plain words
        msg = _hint(table, other)
        assert msg["type"] == "error" and msg["message"] == "No hint now: it is not your turn."
        # the bidding: a legal call of the seat
        msg = _hint(table, turn)
        assert msg["type"] == "hint" and msg["version"] == table.room.version
        assert msg["call"] in table.latest[turn]["deal"]["legal"]
        # the play: bid so the cards are played, then a legal card of the seat's hand
        state = table.act(turn, {"type": "call", "call": "take"})
        assert state["type"] == "state"
        seat = rnd.current_player()
        msg = _hint(table, seat)
        assert msg["card"] in table.latest[seat]["deal"]["legal"]
        assert not cards_in(msg) & hidden_from(rnd, seat)
        before = [len(s) for s in table.seen]
        table.sync()
        for s in range(4):  # nobody else heard of it
            assert all(m["type"] != "hint" for m in table.seen[s][before[s]:]), SEAT_NAMES[s]
        # played as advised
        answer = table.act(seat, {"type": "play", "card": msg["card"]})
        assert answer["type"] == "state"


def test_a_hint_in_french_and_between_deals(client: TestClient) -> None:
    table = Table(client)
    client.cookies.set("lang", "fr")  # the sockets' handshake carries it
    with table:
        msg = _hint(table, 0)
        assert msg["type"] == "error" and "commencé" in msg["message"]
        table.start()
        rnd = table.room.round
        assert rnd is not None
        msg = _hint(table, (rnd.current_player() + 1) % 4)
        assert msg["message"] == "Pas de conseil maintenant : ce n'est pas votre tour."
