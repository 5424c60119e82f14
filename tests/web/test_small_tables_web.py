"""Web tables of three and two players (docs/rules.md §12): ``classic-3p`` with
``three_deal`` = 24_cards | kitty | six_each, ``classic-2p`` with ``two_deal`` =
stock | decouverte, against bots and with friends, over HTTP and the WebSocket.

Secrecy is checked against the engine's round, never against what rooms.py
computes: a seat may be sent its own cards, the cards played, the turned card,
the bergère left on the table (§12), the declarations shown at trick 2 (§7.6),
both players' face-up cards in belote découverte (§12.2), and as the taker of a
kitty deal his own two discards (§12.1) — no other card name, ever."""

from __future__ import annotations

import contextlib
import html
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from belote.cards import card_name, parse_card, scan_forward
from belote.play import SEAT_NAMES, card_points, played_cards
from belote.round import Round
from belote.scoring import GameScore, HandScore, Outcome
from belote.web import room_state
from belote.web.present import parse_seat, score_json, trick_json
from belote.web.room_manager import RoomManager
from belote.web.rooms import Room, RoomError, RoomSettings
from tests.web.support import (
    Table,
    TestClient,
    WebSocketTestSession,
    cards_in,
    live_server,
    new_identity,
    open_page,
    receive,
    send,
    until_state,
)

ALL_CARDS: frozenset[str] = frozenset(card_name(c) for c in range(32))

# The five deals of the small tables (§12.1, §12.2).
MODES: list[tuple[str, dict[str, str]]] = [
    ("classic-3p", {"three_deal": "24_cards"}),
    ("classic-3p", {"three_deal": "kitty"}),
    ("classic-3p", {"three_deal": "six_each"}),
    ("classic-2p", {"two_deal": "stock"}),
    ("classic-2p", {"two_deal": "decouverte"}),
]
MODE_IDS = [next(iter(o.values())) for _p, o in MODES]


# --- what a seat may see, from the engine ----------------------------------------------


def visible_to(rnd: Round, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may be told of now."""
    play = rnd._play
    seen = 0
    if seat is not None:
        seen |= play.state.hands[seat] if play is not None else rnd.hands[seat]
        if rnd.mode == "kitty" and play is not None and play.contract.taker == seat:
            seen |= rnd.discards  # §12.1: his own discards, to the taker only
    if rnd.turned is not None:
        seen |= 1 << rnd.turned  # face up for all (§3.1; it stays on the table, §12)
    if play is not None:
        seen |= played_cards(play.state.tricks, play.state.trick)
        if rnd.bergere is not None:
            seen |= 1 << rnd.bergere  # §12: turned up once the cards are dealt
        if rnd.mode == "decouverte":
            for hand in play.state.hands:  # §12.2: the face-up cards, both players'
                seen |= hand
    names = {card_name(c) for c in scan_forward(seen)}
    if play is not None:
        for shown in rnd.view(0 if seat is None else seat).shown:  # §7.6
            for d in shown:
                names |= set(d.card_names())
    return names


def secrets_of(rnd: Round, seat: int | None) -> set[str]:
    return set(ALL_CARDS - visible_to(rnd, seat))


def named_secrets(rnd: Round, seat: int | None) -> dict[str, set[str]]:
    """The secrets the brief names, each worked out on its own: the other hands, the
    kitty before it is taken and the discards (§12.1), the cards left out of a
    six-each or stock deal (§12), the face-down cards of découverte (§12.2)."""
    play = rnd._play
    hands = play.state.hands if play is not None else rnd.hands
    out: dict[str, set[str]] = {"other hands": set()}
    if rnd.mode != "decouverte":
        for other in range(rnd.players):
            if other != seat:
                out["other hands"] |= {card_name(c) for c in scan_forward(hands[other])}
        if rnd.turned is not None:
            out["other hands"].discard(card_name(rnd.turned))
        if play is not None:
            for shown in rnd.view(0 if seat is None else seat).shown:
                for d in shown:
                    out["other hands"] -= set(d.card_names())
    if rnd.mode == "kitty" and rnd.first is not None:
        if play is None and rnd.phase == "bidding":
            out["kitty"] = {card_name(c) for c in rnd.first.stock}
        if play is not None and play.contract.taker != seat:
            out["discards"] = {card_name(c) for c in scan_forward(rnd.discards)}
    if rnd.mode in ("six_each", "stock") and rnd.first is not None:
        first = 3 * rnd.players + (1 if play is not None else 0)  # the bergère is turned
        out["left out"] = {card_name(c) for c in rnd.first.stock[first:]}
    if rnd.mode == "decouverte" and rnd.piles is not None and play is not None:
        out["face down"] = {
            card_name(down) for pile in rnd.piles for down, up in pile
            if not (play.state.hands[0] | play.state.hands[1]) >> down & 1
            and not played_cards(play.state.tricks, play.state.trick) >> down & 1}
    return out


def check_leaks(rnd: Round, seat: int | None, msgs: list[dict[str, Any]]) -> None:
    hidden = secrets_of(rnd, seat)
    who = "a spectator" if seat is None else f"seat {SEAT_NAMES[seat]}"
    for msg in msgs:
        leaked = cards_in(msg) & hidden
        assert not leaked, (f"{who} was sent {sorted(leaked)} in {msg['type']} "
                            f"version {msg.get('version')} ({rnd.mode})")


# --- a room whose seats are all held by the test ------------------------------------


class SmallTable(Table):
    """Every seat of a room of three or two held by the test over WebSockets
    (``support.Table``), with a check that no message names a card its seat may
    not see."""

    def __init__(self, client: TestClient, profile: str, options: dict[str, Any],
                 target: int | None = None) -> None:
        super().__init__(client, profile, target, options)
        self.marks = [0] * self.n

    def check_secrecy(self) -> None:
        """Every message since the last check names only cards its seat may see."""
        rnd = self.room.round
        assert rnd is not None
        for seat in range(self.n):
            hidden = secrets_of(rnd, seat)
            for what, cards in named_secrets(rnd, seat).items():
                assert cards <= hidden, (what, sorted(cards - hidden))
            check_leaks(rnd, seat, self.seen[seat][self.marks[seat]:])
            for msg in self.seen[seat][self.marks[seat]:]:
                if msg["type"] == "state" and msg["deal"] and msg["deal"]["hand"]:
                    # The scan does read the messages: it finds the seat's own cards.
                    assert set(msg["deal"]["hand"]) <= cards_in(msg)
            self.marks[seat] = len(self.seen[seat])

    def skip_messages(self) -> None:
        self.marks = [len(s) for s in self.seen]

    def turn(self) -> int:
        return SEAT_NAMES.index(self.latest[0]["deal"]["turn"])


def choose(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
    """A legal action of the seat whose turn it is, at random."""
    deal = state["deal"]
    if deal["must_discard"]:
        return {"type": "discard", "cards": rng.sample(deal["hand"], deal["must_discard"])}
    if deal["phase"] == "bidding":
        return {"type": "call", "call": rng.choice(deal["legal"])}
    return {"type": "play", "card": rng.choice(deal["legal"]),
            "declare": rng.random() < 0.8, "belote": rng.random() < 0.8}


def check_final_score(state: dict[str, Any], n: int) -> None:
    """§11, §12: each seat's total is the sum of its deals; the winner is the
    highest total, at or over the target."""
    score = state["score"]
    names = list(SEAT_NAMES[:n])
    assert state["status"] == "finished" and score["finished"]
    assert score["seats"] == names
    for seat in names:
        assert score["totals"][seat] == sum(h[seat] for h in score["hands"])
        assert score["running"][-1][seat] == score["totals"][seat]
    best = max(score["totals"].values())
    assert score["winner"] in names and score["totals"][score["winner"]] == best
    assert best >= state["target"]


# Tricks a deal has (§12.1, §12.2).
TRICKS = {"24_cards": 8, "kitty": 10, "six_each": 9, "stock": 9, "decouverte": 16}


def check_result(result: dict[str, Any], n: int, mode: str) -> None:
    """A deal's result at a small table: each seat's score shares out the sides'
    (§12.1: the taker his side's, the defenders the rest; §12.2 each his own)."""
    assert set(result["seats"]) == set(SEAT_NAMES[:n])
    assert sum(result["seats"].values()) == sum(result["side_score"])
    assert sum(result["tricks_won"].values()) == TRICKS[mode]
    assert (result["outcome"] == "counted") == (mode == "decouverte")
    if n == 3:
        taker = result["contract"]["taker"]
        assert result["sides"][0] == [taker]
        assert sorted(result["sides"][1]) == sorted(s for s in "NES" if s != taker)


# --- units --------------------------------------------------------------------------------


def test_seats_and_tricks_at_small_tables() -> None:
    """§12: three players sit N E S, two sit N E; a trick goes round the table."""
    assert parse_seat("s", 3) == 2
    with pytest.raises(ValueError, match=r"N, E or S at a table of 3"):
        parse_seat("W", 3)
    with pytest.raises(ValueError, match=r"N or E at a table of 2"):
        parse_seat("S", 2)
    from belote.play import Trick

    trick = Trick(leader=2, cards=(parse_card("JH"), parse_card("9H"), parse_card("AH")),
                  winner=2, points=34)
    assert [p["seat"] for p in trick_json(trick, 3)["cards"]] == ["S", "N", "E"]
    hands = tuple(HandScore(Outcome.MADE, (0, 0), h, 0, 3) for h in ((10, 60, 0), (20, 40, 0)))
    score = score_json(GameScore(hands, ((10, 60, 0), (30, 100, 0)), (30, 100, 0), 0, False,
                                 None, 3))
    assert score["seats"] == ["N", "E", "S"]
    assert score["hands"] == [{"N": 10, "E": 60, "S": 0}, {"N": 20, "E": 40, "S": 0}]
    assert score["totals"] == {"N": 30, "E": 100, "S": 0}
    assert score["running"] == [{"N": 10, "E": 60, "S": 0}, {"N": 30, "E": 100, "S": 0}]
    assert score["winner"] is None


def test_room_manager_seats_three_and_two() -> None:
    """The web tables seat the §12 profiles; W (and S with two) do not exist there."""
    import asyncio

    async def scenario() -> None:
        manager = RoomManager(RoomSettings(), seed=3)
        three = await manager.create("classic-3p", {"three_deal": "kitty"})
        two = await manager.create("classic-2p", {"two_deal": "decouverte"}, target=300)
        assert [s.index for s in three.seats] == [0, 1, 2]
        assert [s.index for s in two.seats] == [0, 1] and two.rules.target == 300
        with pytest.raises(RoomError, match="table of 3 seats N, E, S"):
            await three.join(3, "Dan")
        with pytest.raises(RoomError, match="table of 2 seats N, E"):
            await two.fill_bot(2)
        with pytest.raises(ValueError, match="three_deal"):
            await manager.create("classic-3p", {"three_deal": "nine_each"})
        await three.join(2, "Ann")
        await three.start()
        assert three.match is not None and three.round is not None
        state = three.state_for(2)
        assert state["players"] == 3 and state["deal_mode"] == "kitty"
        assert [s["seat"] for s in state["seats"]] == ["N", "E", "S"]
        assert set(state["deal"]["card_counts"]) == {"N", "E", "S"}
        assert len(state["deal"]["hand"]) == 10
        await manager.close()

    asyncio.run(scenario())


# --- HTTP: the forms and the pages ------------------------------------------------------


def test_the_forms_offer_the_small_tables_and_their_deals(client: TestClient) -> None:
    """§12.1 three_deal and §12.2 two_deal are chosen on the new-table forms."""
    for page in ("/play", "/rooms"):
        text = client.get(page).text
        assert 'value="classic-3p"' in text and 'value="classic-2p"' in text
        assert "Belote for three" in text and "Belote for two" in text
        assert 'name="three_deal"' in text and 'name="two_deal"' in text
        for value in ("24_cards", "kitty", "six_each", "stock", "decouverte"):
            assert f'value="{value}"' in text
    r = client.post("/rooms", data={"profile": "classic-3p", "three_deal": "six_each",
                                    "two_deal": "decouverte", "name": "Trio",
                                    "bots": "heuristic", "public": "1"},
                    follow_redirects=False)
    assert r.status_code == 303
    link = r.headers["location"]
    room_id = link.rsplit("/", 1)[1].split("?")[0]
    room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
    # The deal of the chosen profile is taken; the other profile's is ignored.
    assert room.rules.three_deal == "six_each" and room.rules.two_deal == "stock"
    page = client.get(link).text
    assert 'data-players="3"' in page and "Belote for three" in page and "six each" in page
    assert "each for himself" in page
    listing = client.get("/rooms").text
    assert "Trio" in listing and "six each" in listing
    r = client.post("/play", data={"profile": "classic-2p", "two_deal": "nope"})
    assert r.status_code == 422 and "two_deal" in html.unescape(r.text)
    r = client.post("/play", data={"profile": "classic-2p", "two_deal": "decouverte",
                                   "bots": "random", "player": "Me"}, follow_redirects=False)
    assert r.status_code == 303 and "#seat=N&token=" in r.headers["location"]
    r = client.post("/api/rooms", json={"profile": "classic-3p", "options": {
        "three_deal": "kitty"}, "target": 500})
    assert r.status_code == 201
    state = r.json()["state"]
    assert state["players"] == 3 and state["deal_mode"] == "kitty" and state["target"] == 500
    r = client.post(f"/api/rooms/{state['room']}/seats",
                    json={"seat": "W", "name": "Dan", "invite": r.json()["invite"]})
    assert r.status_code == 409 and "not a seat" in r.json()["error"]


# --- secrecy: every message, every seat, whole games ------------------------------------


@pytest.mark.parametrize(("profile", "options"), MODES, ids=MODE_IDS)
def test_no_seat_of_a_small_table_is_sent_a_card_it_may_not_see(
    client: TestClient, profile: str, options: dict[str, str]
) -> None:
    """docs/rules.md §12.1, §12.2: never another seat's cards, the kitty before it is taken,
    the taker's discards (to anyone but him), the cards left out, a face-down card —
    in any message of a whole game whose seats are all held by people."""
    rng = random.Random(profile + str(options))
    with SmallTable(client, profile, options, target=200) as table:
        table.act(0, {"type": "start"})
        table.check_secrecy()
        actions = discards = 0
        mode = next(iter(options.values()))
        while table.room.status == "playing":
            state = table.latest[0]
            if state["between_deals"]:
                table.act(0, {"type": "next"})
            else:
                turn = table.turn()
                msg = choose(rng, table.latest[turn])
                discards += msg["type"] == "discard"
                answer = table.act(turn, msg)
                assert answer["type"] == "state", answer
                actions += 1
            table.check_secrecy()
            if state["result"] is not None and state["between_deals"]:
                check_result(state["result"], table.n, mode)
            assert actions < 4000
        check_final_score(table.latest[0], table.n)
        assert actions > 20
        if options.get("three_deal") == "kitty":
            assert discards > 0
        # A spectator sees no hand; in découverte both players' face-up cards.
        with client.websocket_connect(f"/ws/rooms/{table.id}") as ws:
            send(ws, {"type": "hello", "invite": table.invite})
            state = until_state(ws)
            assert state["you"] is None and state["deal"]["hand"] is None
            rnd = table.room.round
            assert rnd is not None
            check_leaks(rnd, None, [state])


def test_decouverte_shows_face_up_piles_and_counts_face_down_cards(client: TestClient) -> None:
    """§12.2: both players see every face-up card and which of them still cover a
    face-down card, and how many lie under; a face-down card is never sent, and the
    card beneath is turned up once the trick with the card above it is complete."""
    with SmallTable(client, "classic-2p", {"two_deal": "decouverte"}) as table:
        table.act(0, {"type": "start"})
        states = table.latest
        rnd = table.room.round
        assert rnd is not None and rnd.piles is not None and rnd._play is not None
        for seat in (0, 1):
            deal = states[seat]["deal"]
            assert deal["phase"] == "play" and deal["calls"] == []  # no bidding
            assert deal["contract"]["value"] == "decouverte" and deal["taker"] is None
            assert deal["face_down"] == {"N": 8, "E": 8}
            for other in (0, 1):
                ups = {card_name(up) for _down, up in rnd.piles[other]}
                assert set(deal["face_up"][SEAT_NAMES[other]]) == ups
            assert set(deal["hand"]) == set(deal["face_up"][SEAT_NAMES[seat]])
            assert len(deal["covering"]) == 16
            downs = {card_name(down) for pile in rnd.piles for down, _up in pile}
            assert not cards_in(states[seat]) & downs
        table.check_secrecy()
        # One trick: the two cards played uncover the two cards beneath them.
        leader = table.turn()
        first = table.latest[leader]["deal"]["legal"][0]
        table.act(leader, {"type": "play", "card": first})
        mid = table.latest[0]["deal"]
        assert first in mid["covering"] and sum(mid["face_down"].values()) == 16
        second_seat = table.turn()
        second = table.latest[second_seat]["deal"]["legal"][0]
        table.act(second_seat, {"type": "play", "card": second})
        table.check_secrecy()
        beneath = {card_name(up): card_name(down) for pile in rnd.piles for down, up in pile}
        after = table.latest[0]["deal"]
        assert after["face_down"] == {"N": 7, "E": 7}
        assert first not in after["covering"] and second not in after["covering"]
        assert beneath[first] in after["face_up"][SEAT_NAMES[leader]]
        assert beneath[second] in after["face_up"][SEAT_NAMES[second_seat]]
        assert beneath[first] in table.latest[leader]["deal"]["hand"]


def test_six_each_leaves_the_turned_card_and_the_bergere_on_the_table(
    client: TestClient
) -> None:
    """§12.1 six_each (and §12.2 stock): the turned card stays face up on the table,
    out of play, and the bergère is turned up beside it once the cards are dealt."""
    with SmallTable(client, "classic-3p", {"three_deal": "six_each"}) as table:
        table.act(0, {"type": "start"})
        for _ in range(20):  # take at the first chance (an all-pass deals again)
            state = table.latest[0]
            if state["between_deals"]:
                table.act(0, {"type": "next"})
                continue
            if state["deal"]["phase"] == "play":
                break
            turn = table.turn()
            legal = table.latest[turn]["deal"]["legal"]
            table.act(turn, {"type": "call", "call": "take" if "take" in legal else legal[-1]})
        rnd = table.room.round
        assert rnd is not None and rnd._play is not None and rnd.turned is not None
        assert rnd.bergere is not None
        for seat in range(3):
            deal = table.latest[seat]["deal"]
            assert deal["turned_stays"] is True
            assert deal["turned"] == card_name(rnd.turned)
            assert deal["bergere"] == card_name(rnd.bergere)
            assert len(deal["hand"]) == 9
            assert deal["turned"] not in deal["hand"]  # the taker does not get it
        table.check_secrecy()


# --- the kitty and the discard (§12.1) -------------------------------------------------


def test_the_taker_lays_two_cards_aside_and_only_he_sees_them(client: TestClient) -> None:
    """§12.1 kitty: the taker adds the 2-card kitty (12 cards) and lays 2 aside; they
    count in his tricks; nobody else is ever told which."""
    rng = random.Random(12)
    with SmallTable(client, "classic-3p", {"three_deal": "kitty"}) as table:
        table.act(0, {"type": "start"})
        table.check_secrecy()
        taker = table.turn()
        legal = table.latest[taker]["deal"]["legal"]
        suit = next(c for c in legal if c in "SHDC")
        table.act(taker, {"type": "call", "call": suit})
        table.check_secrecy()
        mine = table.latest[taker]["deal"]
        assert mine["phase"] == "discard" and mine["turn"] == SEAT_NAMES[taker]
        assert mine["must_discard"] == 2 and len(mine["hand"]) == 12 and mine["legal"] == []
        assert mine["taker"] == SEAT_NAMES[taker] and mine["trump"] == suit
        rnd = table.room.round
        assert rnd is not None and rnd.first is not None
        kitty = {card_name(c) for c in rnd.first.stock}
        assert kitty <= set(mine["hand"])
        others = [s for s in range(3) if s != taker]
        for s in others:
            deal = table.latest[s]["deal"]
            assert deal["must_discard"] == 0 and len(deal["hand"]) == 10
            assert deal["card_counts"][SEAT_NAMES[taker]] == 12
            assert not cards_in(table.latest[s]) & kitty
        # Refused: another seat, a card instead, a call, one card, the same card twice.
        version = table.room.version
        answer = table.act(others[0], {"type": "discard", "cards": mine["hand"][:2]})
        assert answer["type"] == "error" and "lays two cards aside, not" in answer["message"]
        assert answer["code"] == "not_the_taker"  # §12.1
        answer = table.act(taker, {"type": "play", "card": mine["hand"][0]})
        assert answer["type"] == "error" and "first lay two cards aside" in answer["message"]
        assert answer["code"] == "discard_first"
        answer = table.act(taker, {"type": "call", "call": "pass"})
        assert answer["type"] == "error" and "bidding is over" in answer["message"]
        assert answer["code"] == "bidding_over"
        for bad in (mine["hand"][:1], [mine["hand"][0]] * 2, mine["hand"][:3], "JH QH"):
            answer = table.act(taker, {"type": "discard", "cards": bad})
            assert answer["type"] == "error", bad
        assert table.room.version == version and rnd.phase == "discard"
        table.skip_messages()  # the refusals name only what the taker typed
        chosen = rng.sample(mine["hand"], 2)
        answer = table.act(taker, {"type": "discard", "cards": chosen})
        assert answer["type"] == "state"
        mine = table.latest[taker]["deal"]
        assert mine["phase"] == "play" and len(mine["hand"]) == 10
        assert sorted(mine["discards"]) == sorted(chosen)
        assert not set(chosen) & set(mine["hand"])
        for s in others:
            assert table.latest[s]["deal"]["discards"] == []
            assert table.latest[s]["deal"]["card_counts"][SEAT_NAMES[taker]] == 10
        table.check_secrecy()
        while not table.latest[0]["between_deals"]:
            turn = table.turn()
            table.act(turn, choose(rng, table.latest[turn]))
            table.check_secrecy()
        final = table.latest[taker]
        result = final["result"]
        check_result(result, 3, "kitty")
        assert sorted(final["deal"]["discards"]) == sorted(chosen)  # still his to see
        for s in others:
            assert not cards_in(table.latest[s]) & set(chosen)
        # The discards count in the taker's trick points (§12.1), capot by the others apart.
        points = card_points(table.room.rules, parse_card("7" + suit) >> 3)
        laid = sum(points[parse_card(c)] for c in chosen)
        won = final["deal"]["points_won"][SEAT_NAMES[taker]]
        if result["capot"] != 1:
            assert result["trick_points"][0] == won + laid


def test_a_bot_taker_lays_aside_through_the_bot(
    client: TestClient, spied: list[str]
) -> None:
    """§12.1: a bot that takes the kitty lays two cards aside by itself; the person at
    the table sees the game go on and is never told which cards."""
    r = client.post("/play", data={"profile": "classic-3p", "three_deal": "kitty",
                                   "bots": "heuristic", "target": "5000", "player": "Me"},
                    follow_redirects=False)
    assert r.status_code == 303
    location = r.headers["location"]
    room_id = location.split("/")[2].split("#")[0]
    token = location.split("token=")[1]
    room: Room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
    assert [s.kind for s in room.seats] == ["bot", "bot", "human"]
    laid_by_bots: list[tuple[int, set[str]]] = []
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        send(ws, {"type": "hello", "token": token})
        assert receive(ws) == {"type": "welcome", "seat": "S"}
        for _ in range(20_000):
            state = until_state(ws)
            rnd = room.round
            assert rnd is not None
            deal = state["deal"]
            if state["between_deals"]:
                taker = rnd.taker
                if rnd.discards and taker is not None and taker != 2:
                    laid = {card_name(c) for c in scan_forward(rnd.discards)}
                    laid_by_bots.append((taker, laid))
                    assert deal["discards"] == []
                    if len(laid_by_bots) >= 2:
                        break
                send(ws, {"type": "next"})
            elif deal["turn"] == "S" and deal["phase"] == "bidding":
                send(ws, {"type": "call", "call": "pass"})  # let the bots take
            elif deal["turn"] == "S" and deal["legal"]:
                send(ws, {"type": "play", "card": deal["legal"][0]})
    assert len(laid_by_bots) >= 2
    for taker, laid in laid_by_bots:
        assert taker in (0, 1) and len(laid) == 2
    assert spied == []


# --- whole games against bots, one per deal --------------------------------------------


@pytest.fixture
def spied(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every state a room builds, for any seat, checked against the engine's round at
    that moment (the room's driver and the bots included); leaks are collected.
    Every state goes through one of the two: ``states_for`` (``state_for`` too: a
    page's request) or ``state_texts`` (what a connection is sent, read back)."""
    leaks: list[str] = []
    counted = [0]
    original = room_state.states_for
    original_texts = room_state.state_texts

    def check(room: room_state.SeenRoom, seats: Sequence[int | None],
              states: list[dict[str, Any]]) -> None:
        if room.round is not None:
            for seat, state in zip(seats, states, strict=True):
                counted[0] += 1
                leaked = cards_in(state) & secrets_of(room.round, seat)
                if leaked:
                    leaks.append(f"seat {seat}: {sorted(leaked)} at version {room.version}")

    def states_for(room: room_state.SeenRoom, seats: Sequence[int | None]
                   ) -> list[dict[str, Any]]:
        out = original(room, seats)
        check(room, seats, out)
        return out

    def state_texts(room: room_state.SeenRoom, seats: Sequence[int | None]) -> list[str]:
        out = original_texts(room, seats)
        check(room, seats, [json.loads(text) for text in out])
        return out

    monkeypatch.setattr(room_state, "states_for", states_for)
    monkeypatch.setattr(room_state, "state_texts", state_texts)
    yield leaks
    assert counted[0] > 50, "the spy saw too few states"


@pytest.mark.parametrize(("profile", "options"), MODES, ids=MODE_IDS)
def test_a_whole_game_against_bots_at_a_small_table(
    client: TestClient, spied: list[str], profile: str, options: dict[str, str]
) -> None:
    """The table against bots through the form and the WebSocket: the person at S
    (N with two players, §12), the bots at the other seats, to the end of the game;
    each seat's total is the sum of its deals (§11, §12)."""
    form = {"profile": profile, "bots": "heuristic", "target": "300", "player": "Me",
            **options}
    r = client.post("/play", data=form, follow_redirects=False)
    assert r.status_code == 303
    location = r.headers["location"]
    room_id = location.split("/")[2].split("#")[0]
    token = location.split("token=")[1]
    room: Room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
    n = 3 if profile == "classic-3p" else 2
    me = "S" if n == 3 else "N"
    assert room.players == n and room.mode == next(iter(options.values()))
    rng = random.Random(profile + str(options))
    acted: set[tuple[Any, ...]] = set()
    results = 0
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        send(ws, {"type": "hello", "token": token})
        assert receive(ws) == {"type": "welcome", "seat": me}
        for _ in range(50_000):
            state = until_state(ws)
            if state["status"] == "finished":
                break
            deal = state["deal"]
            if state["between_deals"]:
                if state["result"] is not None:
                    check_result(state["result"], n, room.mode)
                    results += 1
                send(ws, {"type": "next"})
                continue
            key = (deal["number"], deal["phase"], len(deal["calls"]), deal["tricks"],
                   len(deal["trick"]["cards"]))
            if deal["turn"] == me and key not in acted and (deal["legal"] or
                                                            deal["must_discard"]):
                acted.add(key)
                send(ws, choose(rng, state))
        assert state["status"] == "finished"
        assert len(state["seats"]) == n and state["you"]["seat"] == me
        check_final_score(state, n)
        assert results >= 1
    spectator = client.get(f"/api/rooms/{room_id}").json()
    assert spectator["you"] is None and spectator["deal"]["hand"] is None
    assert spied == []


# --- two friends at a table of two -----------------------------------------------------


def _drain_until(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    msg = receive(ws)
    while msg["type"] != kind:
        msg = receive(ws)
    return msg


def test_two_friends_play_a_room_of_two(client: TestClient) -> None:
    """§12.2 stock: a room with friends at classic-2p — two seats taken in the lobby,
    a deal played by both, neither ever sent the other's cards or the stock; one
    drops and a bot plays for him."""
    r = client.post("/api/rooms", json={"profile": "classic-2p", "bots": "random",
                                        "name": "Duel"})
    room_id, invite = r.json()["id"], r.json()["invite"]
    room: Room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
    rng = random.Random(2)
    with contextlib.ExitStack() as stack:
        ann = stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}"))
        new_identity(client)  # Bob's own browser
        bob = stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}"))
        sockets = [ann, bob]
        for ws in sockets:
            send(ws, {"type": "hello", "invite": invite})
            lobby = until_state(ws)
        assert lobby["status"] == "waiting" and [s["seat"] for s in lobby["seats"]] == ["N", "E"]
        send(ann, {"type": "join", "seat": "N", "name": "Ann"})
        assert _drain_until(ann, "welcome")["seat"] == "N"
        send(bob, {"type": "join", "seat": "S", "name": "Bob"})
        refused = _drain_until(bob, "error")
        assert refused["code"] == "not_a_seat_word" and "North, East." in refused["message"]
        send(bob, {"type": "join", "seat": "E", "name": "Bob"})
        assert _drain_until(bob, "welcome")["seat"] == "E"
        send(bob, {"type": "start"})
        seen: list[list[dict[str, Any]]] = [[], []]
        latest: list[dict[str, Any]] = [{}, {}]

        def sync() -> None:
            version = room.version
            for i, ws in enumerate(sockets):
                while latest[i].get("version", -1) < version:
                    msg = receive(ws)
                    seen[i].append(msg)
                    if msg["type"] == "state":
                        latest[i] = msg

        for i, ws in enumerate(sockets):  # the start is handled by the server's loop
            while latest[i].get("status") != "playing":
                msg = receive(ws)
                seen[i].append(msg)
                if msg["type"] == "state":
                    latest[i] = msg
        sync()
        assert [s["kind"] for s in latest[0]["seats"]] == ["human", "human"]
        assert latest[0]["status"] == "playing" and latest[0]["players"] == 2
        hands = [set(latest[i]["deal"]["hand"]) for i in (0, 1)]
        assert len(hands[0]) == len(hands[1]) == 6 and not hands[0] & hands[1]
        marks = [0, 0]
        for _ in range(500):
            rnd = room.round
            assert rnd is not None
            for i in (0, 1):
                check_leaks(rnd, i, seen[i][marks[i]:])
                marks[i] = len(seen[i])
            if latest[0]["between_deals"]:
                break
            turn = SEAT_NAMES.index(latest[0]["deal"]["turn"])
            send(sockets[turn], choose(rng, latest[turn]))
            sync()
        else:  # pragma: no cover
            raise AssertionError("the deal did not end")
        rnd = room.round
        assert rnd is not None and rnd.first is not None
        if latest[0]["result"] is not None:
            check_result(latest[0]["result"], 2, "stock")
        stock = {card_name(c) for c in rnd.first.stock[7:]}  # §12.2: 12 set aside
        assert len(stock) == 12
        for i in (0, 1):
            assert not stock & set().union(*(cards_in(m) for m in seen[i]))
        assert latest[1]["score"]["seats"] == ["N", "E"]
    # Both leave; Ann comes back, Bob does not: a bot plays East while Ann plays on.
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ann:
        send(ann, {"type": "hello", "token": room.seats[0].token})
        assert receive(ann) == {"type": "welcome", "seat": "N"}
        state = until_state(ann)
        deals = state["deal"]["number"]
        if state["between_deals"]:
            send(ann, {"type": "next"})
        for _ in range(5000):
            state = until_state(ann)
            assert state["seats"][1]["bot_playing"] is True
            deal = state["deal"]
            if deal["number"] > deals and (
                    deal["tricks"] >= 2 or any(c["seat"] == "E" for c in deal["calls"])):
                break
            if state["between_deals"]:
                send(ann, {"type": "next"})
            elif deal["turn"] == "N" and deal["legal"]:
                send(ann, choose(rng, state))
        assert state["deal"]["number"] > deals
        assert state["seats"][1]["kind"] == "human" and state["seats"][1]["name"] == "Bob"


# --- a kitty hand by clicking, in a real browser -----------------------------------------

SERVER_ARGS = ("--bot-delay", "0.03", "--trick-pause", "0.1", "--deal-pause", "60",
               "--seed", "7")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with live_server(tmp_path / "sheets.db", *SERVER_ARGS) as url:
        yield url


def _version(page: Any) -> str:
    return str(page.get_attribute("#room", "data-version"))


def _wait_change(page: Any, before: str) -> None:
    page.wait_for_function("v => document.getElementById('room').dataset.version !== v",
                           arg=before)


def test_a_three_player_kitty_hand_by_clicking(browser: Any, server: str, shots: Path) -> None:
    """§12.1 kitty in chromium: the deal option chosen on the form, the three seats laid
    out around the player, the kitty taken and two cards laid aside by clicking, a hand
    played to its end and each seat's score shown."""
    errors: list[str] = []
    page = open_page(browser, errors, console=())
    page.goto(server + "/play")
    assert page.is_hidden('[data-deal-profile="classic-3p"]')
    page.select_option("#profile", "classic-3p")
    assert page.is_visible('[data-deal-profile="classic-3p"]')
    assert page.is_hidden('[data-deal-profile="classic-2p"]')
    page.select_option("#three_deal", "kitty")
    page.select_option("#bots", "heuristic")
    page.fill('input[name="player"]', "Alice")
    with page.expect_navigation():
        page.click("#play-form button[type=submit]")
    page.wait_for_selector("#table:not([hidden])")
    assert page.get_attribute("#room", "data-seat") == "S"
    # The player at the bottom, the two others left and right; no seat at the top.
    assert page.get_attribute("#pos-bottom", "data-seat") == "S"
    assert {page.get_attribute(f"#pos-{p}", "data-seat") for p in ("left", "right")} == {
        "N", "E"}
    assert page.is_hidden("#pos-top")
    laid: list[str] = []
    for _ in range(400):
        page.wait_for_function(
            "() => { const r = document.getElementById('room');"
            " return r.dataset.myturn === '1' || !document.getElementById('result').hidden; }")
        if page.is_visible("#result"):
            if laid:
                break
            before = _version(page)
            page.click("#next-deal")
            _wait_change(page, before)
            continue
        phase = page.get_attribute("#room", "data-phase")
        before = _version(page)
        if phase == "bidding":
            page.locator("#bidding button.suit-btn").first.click()  # take, naming a suit
        elif phase == "discard":
            assert page.locator("#hand .card").count() == 12
            assert page.is_disabled("#discard-confirm")
            cards = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
            page.click(f'#hand .card[data-card="{cards[-1]}"]')
            page.click(f'#hand .card[data-card="{cards[-2]}"]')
            assert page.locator("#hand .card.chosen").count() == 2
            assert page.is_enabled("#discard-confirm")
            page.screenshot(path=str(shots / "kitty-discard.png"))
            page.click("#discard-confirm")
            laid = [cards[-1], cards[-2]]
        else:
            page.locator("#hand .card.legal").first.click()
        _wait_change(page, before)
        if phase == "discard":
            page.wait_for_selector("#my-discards")
            shown = page.eval_on_selector_all("#my-discards .card",
                                              "els => els.map(e => e.dataset.card)")
            assert sorted(shown) == sorted(laid)
            assert page.locator("#hand .card").count() == 10
    assert laid, "the player never took the kitty"
    assert page.is_visible("#result")
    page.screenshot(path=str(shots / "kitty-result.png"))
    assert page.locator("#result-seats").count() == 1
    totals = [int(page.inner_text(f"#total-{s}")) for s in "NES"]
    assert sum(totals) > 0
    page.click("#last-trick-btn")
    assert page.locator("#last-trick .lt-card").count() == 3
    page.context.close()
    assert errors == []
