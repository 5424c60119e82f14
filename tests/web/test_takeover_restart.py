"""A person who took over a bot's seat mid-deal is shown, after a restart, exactly
what he was shown before: at every table size and deal mode.

The seat's secret (``secret_until``: the deal whose past stays hidden from him,
docs/rules.md §12.1) is kept with the seat.  Without it the taker's two discards
of a three-player kitty deal, laid aside by the bot before the takeover, were
shown to him once the server had restarted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from belote.bots.base import next_action
from belote.play import SEAT_NAMES
from belote.round import DISCARD, PLAY
from belote.table import DealMode
from belote.web import create_app
from belote.web.rooms import Room
from tests.web.conftest import GENEROUS
from tests.web.support import TestClient, new_identity, receive, send
from tests.web.test_room_durability import SETTINGS

TABLES = [
    ("classic", {}),
    ("classic-3p", {"three_deal": "kitty"}),
    ("classic-3p", {"three_deal": "24_cards"}),
    ("classic-3p", {"three_deal": "six_each"}),
    ("classic-2p", {"two_deal": "stock"}),
    ("classic-2p", {"two_deal": "decouverte"}),
]


def play_bots_until(client: TestClient, room: Room, tricks: int) -> None:
    """Play the bots' moves (nobody watches: the driver waits) until the deal on the
    table is in its play with ``tricks`` tricks done."""
    assert client.portal is not None
    for _ in range(2000):
        rnd = room.round
        assert rnd is not None
        if room.between:
            client.portal.call(room.next_deal)
            continue
        if rnd.phase == PLAY and len(rnd.tricks) >= tricks:
            return
        seat = rnd.current_player()
        bot = room.seats[seat].bot
        assert bot is not None
        assert client.portal.call(room.apply, seat, next_action(bot, rnd.view(seat)))
    raise AssertionError("the deal never reached its play")


def seat_to_take(room: Room) -> int:
    """The taker when he laid cards aside (his discards are the secret), else E."""
    rnd = room.round
    assert rnd is not None and rnd.taker is not None
    if room.mode == DealMode.KITTY:
        taker: int = rnd.taker
        return taker
    return 1


def shown(client: TestClient, room_id: str, token: str) -> dict[str, Any]:
    """What the seat's connection is sent first (hello with its token)."""
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        send(ws, {"type": "hello", "token": token})
        assert receive(ws)["type"] == "welcome"
        state = receive(ws)
        assert state["type"] == "state"
        return state


@pytest.mark.parametrize(("profile", "options"), TABLES,
                         ids=[next(iter(o.values()), p) for p, o in TABLES])
def test_a_seat_taken_over_mid_deal_keeps_its_secret_over_a_restart(
        db: Path, profile: str, options: dict[str, str]) -> None:
    app = create_app(db, settings=SETTINGS, seed=9, limits=GENEROUS)
    with TestClient(app) as client:
        new_identity(client)
        r = client.post("/api/rooms", json={"profile": profile, "options": options,
                                            "bots": "random", "target": 2000})
        assert r.status_code == 201, r.text
        room_id, invite = r.json()["id"], r.json()["invite"]
        room: Room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
        assert client.portal is not None
        client.portal.call(room.start)  # every seat a bot
        play_bots_until(client, room, 2)
        seat = seat_to_take(room)
        rnd = room.round
        assert rnd is not None
        if room.mode == DealMode.KITTY:
            assert rnd.view(seat).discards  # the bot laid two cards aside
        # A person takes the bot's seat over, mid-deal.
        new_identity(client)
        r = client.post(f"/api/rooms/{room_id}/seats",
                        json={"seat": SEAT_NAMES[seat], "name": "Ann", "invite": invite})
        assert r.status_code == 200, r.text
        token = r.json()["token"]
        before = room.state_for(seat)
        deal = before["deal"]
        assert deal["phase"] == PLAY and deal["hand"]
        assert deal["discards"] == []  # what the bot laid aside stays its secret
        assert room.version == before["version"]
        if room.mode == DealMode.KITTY:
            assert rnd.phase != DISCARD
    # The server restarts.
    app = create_app(db, settings=SETTINGS, seed=9, limits=GENEROUS)
    with TestClient(app) as client:
        new_identity(client)  # the player's browser (its page gives it an identity)
        room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
        assert room.seats[seat].name == "Ann"
        after = shown(client, room_id, token)
        assert after["deal"] == deal
        assert after["you"] == before["you"] and after["score"] == before["score"]
