"""The web app's pure parts: how hands and messages are shown, the calculator
form, the chart, the room manager."""

from __future__ import annotations

import itertools
import json
from typing import TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from belote.cards import HEARTS, JACK, NO_TRUMP, SPADES, card_name, mask_of, parse_card
from belote.declarations import make_carre, make_sequence
from belote.errors import BeloteError, InvalidRecordError, OptionError
from belote.options import make_rules
from belote.round import Announced
from belote.scoring import parse_hand_entry
from belote.web.chart import running_chart
from belote.web.forms import contract_choices, entry_to_form, form_to_entry, trump_choices
from belote.web.present import announced_type, parse_seat, sort_hand, suit_order
from belote.web.room_manager import RoomManager
from belote.web.rooms import Client, Room, RoomError, RoomSettings
from belote.web.seats import RoomStatus, SeatKind, Visibility
from tests.web.support import run_async

T = TypeVar("T")


def _mask(text: str) -> int:
    return mask_of(parse_card(t) for t in text.split())


def test_hand_sorted_by_suit_trump_first_strongest_first() -> None:
    """§5.1: trump order J 9 A 10 K Q 8 7; plain order A 10 K Q J 9 8 7."""
    hand = _mask("7H 9H JH AH TS JS AS 8D")
    assert sort_hand(hand, HEARTS) == ["JH", "9H", "AH", "7H", "AS", "TS", "JS", "8D"]
    assert sort_hand(hand, None) == ["AH", "JH", "9H", "7H", "AS", "TS", "JS", "8D"]
    assert suit_order(NO_TRUMP) == [0, 1, 3, 2]  # ♠ ♥ ♣ ♦


@given(st.integers(min_value=1, max_value=(1 << 32) - 1),
       st.sampled_from([None, 0, 1, 2, 3, NO_TRUMP]))
def test_suits_held_are_grouped_trump_first_colours_alternating(hand: int, trump: int | None
                                                                ) -> None:
    names = sort_hand(hand, trump)
    assert sorted(names) == sorted(card_name(c) for c in range(32) if hand >> c & 1)
    suits = [n[1] for n in names]
    blocks = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
    assert len(blocks) == len(set(blocks))
    if trump is not None and trump < NO_TRUMP and "SHDC"[trump] in blocks:
        assert blocks[0] == "SHDC"[trump]
    reds = [s in "HD" for s in blocks]
    clashes = sum(1 for a, b in itertools.pairwise(reds) if a == b)
    # Two colours: the clashes are forced only by one colour outnumbering the other.
    assert clashes <= max(0, abs(reds.count(True) - reds.count(False)) - 1) + (
        1 if trump is not None and trump < NO_TRUMP else 0)


def test_the_table_hears_the_kind_of_declaration_not_its_cards() -> None:
    """§7.4: the type is announced with the first card; a carré's rank would tell cards."""
    assert announced_type(Announced.of(make_carre(JACK, HEARTS))) == "carré"
    assert announced_type(Announced.of(make_sequence(SPADES, 0, 3))) == "tierce"
    assert announced_type(Announced.of(make_sequence(SPADES, 0, 4))) == "cinquante"
    assert announced_type(Announced.of(make_sequence(SPADES, 0, 6))) == "cent"


def test_a_seat_is_read_from_its_letter() -> None:
    assert parse_seat(" w ") == 3
    with pytest.raises(ValueError, match="not a seat"):
        parse_seat("NE")


def test_form_to_entry_and_back() -> None:
    rules = make_rules("coinche")
    form = {"taker": "EW", "points_team": "NS", "points": "52", "decl_team": "EW",
            "decl_points": "50", "belote": "EW", "contract": "110", "trump": "s",
            "multiplier": "2"}
    entry = form_to_entry(form, rules)
    assert entry == {"taker": "EW", "trick_points": {"NS": 52}, "declarations": {"EW": 50},
                     "belote": "EW", "contract": 110, "multiplier": 2, "trump": "S"}
    parsed = parse_hand_entry(entry, rules)
    assert parsed.trick_points == (52, 110)
    back = entry_to_form(entry)
    assert back["taker"] == "EW" and back["points_team"] == "NS" and back["points"] == "52"
    assert back["decl_team"] == "EW" and back["decl_points"] == "50"
    assert back["contract"] == "110" and back["multiplier"] == "2" and back["trump"] == "S"
    capot = form_to_entry({"taker": "NS", "capot": "NS", "contract": "capot"}, rules)
    assert capot == {"taker": "NS", "capot": "NS", "contract": "capot"}
    assert entry_to_form(capot)["capot"] == "NS" and entry_to_form(capot)["points"] == ""
    with pytest.raises(InvalidRecordError, match="contract: choose"):
        form_to_entry({"taker": "NS", "points": "90"}, rules)
    with pytest.raises(InvalidRecordError, match="capot: 'ZZ' is not NS or EW"):
        form_to_entry({"taker": "NS", "capot": "zz"}, rules)


def test_contract_and_trump_choices_follow_the_options() -> None:
    """§4.3 max_bid, §4.8 générale, §4.3 sa_ta."""
    contree = [v for v, _ in contract_choices(make_rules("contree"))]
    assert contree[0] == "80" and "160" in contree and "170" not in contree
    assert contree[-1] == "capot" and "generale" not in contree
    coinche = [v for v, _ in contract_choices(make_rules("coinche"))]
    assert "250" in coinche and coinche[-1] == "generale"
    assert len(trump_choices(make_rules("coinche"))) == 4
    assert [v for v, _ in trump_choices(make_rules("coinche", {"sa_ta": True}))][-2:] == [
        "SA", "TA"]


def test_chart_escapes_names_and_draws_both_teams() -> None:
    svg = running_chart([{"NS": 100, "EW": 62}, {"NS": 100, "EW": 1300}], 1000,
                        ("<b>Us</b>", "Them & co"))
    assert "<b>Us</b>" not in svg and "&lt;b&gt;Us&lt;/b&gt;" in svg
    assert "Them &amp; co" in svg
    assert svg.count("<polyline") == 2 and svg.count("<circle") == 4
    assert "target 1000" in svg
    empty = running_chart([], 500, ("A", "B"))
    assert empty.count("<polyline") == 2 and "<circle" not in empty


def test_room_manager_checks_what_it_is_asked() -> None:
    async def scenario() -> None:
        manager = RoomManager(RoomSettings(max_rooms=2, idle_ttl=10), seed=1)
        with pytest.raises(OptionError, match="unknown profile"):
            await manager.create("bridge")
        with pytest.raises(OptionError, match="unknown bot"):
            await manager.create("classic", bots="minimax")
        with pytest.raises(BeloteError, match="target"):
            await manager.create("classic", target=0)
        # The small tables (§12) are seated now; their deal options are checked.
        with pytest.raises(OptionError, match="three_deal"):
            await manager.create("classic-3p", {"three_deal": "nine_each"})
        room = await manager.create("classic", target=500, name="  Friday  ")
        assert isinstance(room, Room) and room.rules.target == 500 and room.name == "Friday"
        other = await manager.create("moroccan")
        # The cap: someone watches each room, so none may be closed to make room.
        async def nothing(text: str) -> None:
            pass
        watchers = [Client(nothing), Client(nothing)]
        room.attach(watchers[0])
        other.attach(watchers[1])
        with pytest.raises(RoomError, match="holds 2 rooms"):
            await manager.create("classic")
        room.detach(watchers[0])
        other.detach(watchers[1])
        with pytest.raises(RoomError, match="no room 'nope'"):
            manager.get("nope")
        assert manager.get(room.id) is room
        with pytest.raises(RoomError, match="has not started"):
            await room.call(0, "pass")
        await room.join(1, "Ann")
        with pytest.raises(RoomError, match="is not empty"):
            await room.fill_bot(1)
        await room.start()
        with pytest.raises(RoomError, match="already started"):
            await room.start()
        # Rooms nobody watches are closed after idle_ttl.
        assert await manager.sweep(now=room.touched + 5) == 0
        assert await manager.sweep(now=room.touched + 11) == 2
        assert manager.rooms == {}

    run_async(scenario)


def test_visibility_words_and_their_one_check() -> None:
    """Visibility, seat kinds and room statuses are their JSON words; a room and the
    API refuse any other visibility with the same message."""
    assert [str(v) for v in Visibility] == ["private", "invite", "public"]
    assert Visibility.of("public") is Visibility.PUBLIC
    assert json.dumps([SeatKind.BOT, RoomStatus.WAITING]) == '["bot", "waiting"]'
    for bad in ("secret", 3, None, ["invite"]):
        with pytest.raises(RoomError) as caught:
            Visibility.of(bad)
        assert str(caught.value) == (f"visibility: {bad!r} is not one of "
                                     "private, invite, public")

    async def scenario() -> None:
        manager = RoomManager(seed=1)
        with pytest.raises(RoomError, match="'secret' is not one of private, invite, public"):
            await manager.create("classic", visibility="secret")  # type: ignore[arg-type]
        room = await manager.create("classic", visibility=Visibility.PRIVATE)
        assert room.invite is None and room.state_for(None)["visibility"] == "private"
        assert {s["kind"] for s in room.state_for(None)["seats"]} == {"open"}
        await room.stop()

    run_async(scenario)


def test_same_seed_same_deals() -> None:
    async def deal(seed: int) -> list[str]:
        manager = RoomManager(seed=seed)
        room = await manager.create("classic")
        await room.join(0, "A")
        await room.start()
        state = room.state_for(0)
        await room.stop()
        hand: list[str] = state["deal"]["hand"]
        return hand

    assert run_async(lambda: deal(4)) == run_async(lambda: deal(4))
