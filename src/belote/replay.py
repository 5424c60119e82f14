"""Check and score one played hand from its record (`belote replay`, CONTRACT.md).

:func:`replay` takes a HandRecord (a JSON object) and answers the CONTRACT
output: the contract, the tricks, declarations, belote, trick points, capot and
the score, or, for a record that stops early, the legal cards (or calls) of
the seat to act.  Anything illegal or malformed raises a
:class:`~belote.errors.BeloteError` naming the trick, seat, card and rule.
"""

from __future__ import annotations

from typing import Any, Final

from belote.auction import GENERALE, NumericAuction
from belote.bidding import TakePassBidding, normalise_call
from belote.cards import Card, CardMask, card_name, mask_names, parse_card
from belote.declarations import (
    Declaration,
    belote_suits,
    check_announcement,
    parse_combination,
)
from belote.errors import BeloteError, IllegalBidError, InvalidRecordError
from belote.hand import Contract, HandPlay
from belote.options import Rules, make_rules
from belote.play import SEAT_NAMES, TEAM_NAMES
from belote.scoring import void_hand

RECORD_KEYS: Final = frozenset(
    {"profile", "options", "dealer", "hands", "turned", "bids", "declarations", "belote", "plays"}
)


def parse_seat(value: Any, where: str) -> int:
    if isinstance(value, str) and value.strip().upper() in SEAT_NAMES and value.strip():
        return SEAT_NAMES.index(value.strip().upper())
    raise InvalidRecordError(f"{where}: {value!r} is not a seat (N, E, S or W)")


def _card(value: Any, where: str) -> Card:
    try:
        return parse_card(value)
    except BeloteError as exc:
        raise InvalidRecordError(f"{where}: {exc}") from None


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidRecordError(f"{where}: expected a list, got {value!r}")
    return value


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidRecordError(f"{where}: expected an object, got {value!r}")
    return value


def _seat_map(value: Any, where: str) -> dict[int, Any]:
    out: dict[int, Any] = {}
    for key, item in _object(value, where).items():
        out[parse_seat(key, f"{where}: key")] = item
    return out


def parse_hands(value: Any) -> list[CardMask]:
    """Four hands of 8 different cards, 32 in all."""
    raw = _object(value, "hands")
    hands = [0, 0, 0, 0]
    seen: dict[Card, str] = {}
    for key in raw:
        parse_seat(key, "hands: key")
    for seat, name in enumerate(SEAT_NAMES):
        if name not in raw:
            raise InvalidRecordError(f"hands: seat {name} is missing")
        cards = _list(raw[name], f"hands.{name}")
        if len(cards) != 8:
            raise InvalidRecordError(f"hands.{name}: {len(cards)} cards, expected 8")
        for i, text in enumerate(cards):
            c = _card(text, f"hands.{name}[{i}]")
            if c in seen:
                raise InvalidRecordError(
                    f"hands.{name}[{i}]: {card_name(c)} is also in hands.{seen[c]}"
                )
            seen[c] = name
            hands[seat] |= 1 << c
    return hands


def replay(record: Any) -> dict[str, Any]:
    """The CONTRACT output of `belote replay` for one HandRecord."""
    rec = _object(record, "record")
    unknown = sorted(set(rec) - RECORD_KEYS)
    if unknown:
        raise InvalidRecordError(f"record: unknown key {unknown[0]!r}")
    rules = make_rules(rec.get("profile", "classic"), rec.get("options") or {})
    if "dealer" not in rec:
        raise InvalidRecordError("record: 'dealer' is missing")
    dealer = parse_seat(rec["dealer"], "dealer")
    if "hands" not in rec:
        raise InvalidRecordError("record: 'hands' is missing")
    hands = parse_hands(rec["hands"])
    bids = _list(rec.get("bids", []), "bids")
    plays = _list(rec.get("plays", []), "plays")
    if len(plays) > 32:
        raise InvalidRecordError(f"plays: {len(plays)} cards, at most 32")
    if rules.is_auction:
        if rec.get("turned") is not None:
            raise InvalidRecordError(
                f"turned: no card is turned up in {rules.profile} (§4.1)"
            )
        bidding: TakePassBidding | NumericAuction = _run_auction(rules, dealer, bids)
    else:
        if "turned" not in rec:
            raise InvalidRecordError("record: 'turned' is missing (the card turned up, §3.1)")
        turned = _card(rec["turned"], "turned")
        bidding = _run_take_pass(rules, dealer, turned, bids)
    if not bidding.finished:
        if plays:
            raise InvalidRecordError("plays: cards played before the bidding ended")
        return _incomplete_bidding(bidding)
    if bidding.all_pass:
        if plays:
            raise InvalidRecordError("plays: cards played after an all-pass deal (§2.4)")
        return {"complete": True, "contract": None, "score": void_hand().to_json()}
    leader = (dealer + 1) & 3
    if isinstance(bidding, NumericAuction):
        assert bidding.bidder is not None and bidding.best is not None
        best = bidding.best
        contract = Contract(bidding.bidder, best.trump, best.value, bidding.multiplier)
        if best.value == GENERALE:
            leader = bidding.bidder  # §4.9
    else:
        assert bidding.taker is not None and bidding.trump is not None
        taker = bidding.taker
        if not hands[taker] >> turned & 1:
            raise InvalidRecordError(
                f"turned: {card_name(turned)} must end in the taker's hand "
                f"({SEAT_NAMES[taker]}, §3.4)"
            )
        contract = Contract(taker, bidding.trump)
    announced = _parse_declarations(rec, rules, hands, contract)
    belote_flags = _parse_belote_flags(rec)
    for seat, flag in belote_flags.items():
        if flag and not belote_suits(hands[seat], contract.trump):
            raise InvalidRecordError(
                f"belote.{SEAT_NAMES[seat]}: {SEAT_NAMES[seat]} does not hold the trump king "
                "and queen (§7.7)"
            )
    play = HandPlay(rules, contract, hands, leader=leader)
    for i, raw in enumerate(plays):
        c = _card(raw, f"plays[{i}]")
        seat = play.turn
        decls = announced[seat] if announced is not None else None
        first = play.announced[seat] is None
        play.play(c, declarations=decls if first else None, belote=belote_flags.get(seat, True))
    return _output(play, complete=play.is_over())


def _run_take_pass(rules: Rules, dealer: int, turned: Card, bids: list[Any]) -> TakePassBidding:
    bidding = TakePassBidding(rules, dealer, turned)
    for i, raw in enumerate(bids):
        try:
            call = normalise_call(raw)
            if bidding.finished:
                raise IllegalBidError(
                    f"{SEAT_NAMES[bidding.turn]} may not call {call!r}: the bidding is over"
                    if not bidding.all_pass else f"no call after four passes in round 2 ({call!r})"
                )
            bidding.call(call)
        except IllegalBidError as exc:
            raise IllegalBidError(f"bid {i + 1}: {exc}") from None
    return bidding


def _run_auction(rules: Rules, dealer: int, bids: list[Any]) -> NumericAuction:
    auction = NumericAuction(rules, dealer)
    for i, raw in enumerate(bids):
        try:
            seat: int | None = None
            call = normalise_call(raw)
            if ":" in call:  # an out-of-turn coinche: "E:coinche"
                who, _, call = call.partition(":")
                seat = parse_seat(who, "seat")
                call = normalise_call(call)
            auction.call(call, seat)
        except (IllegalBidError, InvalidRecordError) as exc:
            raise IllegalBidError(f"bid {i + 1}: {exc}") from None
    return auction


def _incomplete_bidding(bidding: TakePassBidding | NumericAuction) -> dict[str, Any]:
    return {
        "complete": False,
        "contract": None,
        "tricks": [],
        "score": None,
        "next": {"seat": SEAT_NAMES[bidding.turn], "legal": bidding.legal_calls()},
    }


def _parse_declarations(
    rec: dict[str, Any], rules: Rules, hands: list[CardMask], contract: Contract
) -> list[list[Declaration]] | None:
    if rec.get("declarations") is None:
        return None
    raw = _seat_map(rec["declarations"], "declarations")
    out: list[list[Declaration]] = [[], [], [], []]
    for seat, combos in raw.items():
        where = f"declarations.{SEAT_NAMES[seat]}"
        for j, combo in enumerate(_list(combos, where)):
            cards = [_card(t, f"{where}[{j}]") for t in _list(combo, f"{where}[{j}]")]
            out[seat].append(
                parse_combination(cards, hands[seat], rules, contract.trump, f"{where}[{j}]")
            )
        if out[seat] and not rules.declarations:
            raise InvalidRecordError(f"{where}: declarations are off (§7.1 declarations)")
        check_announcement(out[seat], rules, where)
    return out


def _parse_belote_flags(rec: dict[str, Any]) -> dict[int, bool]:
    if rec.get("belote") is None:
        return {}
    flags: dict[int, bool] = {}
    for seat, flag in _seat_map(rec["belote"], "belote").items():
        if not isinstance(flag, bool):
            raise InvalidRecordError(
                f"belote.{SEAT_NAMES[seat]}: expected true or false, got {flag!r}"
            )
        flags[seat] = flag
    return flags


def _team_points(points: tuple[int, int] | list[int]) -> dict[str, int]:
    return {TEAM_NAMES[0]: points[0], TEAM_NAMES[1]: points[1]}


def _output(play: HandPlay, complete: bool) -> dict[str, Any]:
    state = play.state
    decls = play.declaration_result()
    belote = play.belote_points()
    belote_team = play.belote_team()
    out: dict[str, Any] = {
        "complete": complete,
        "contract": play.contract.to_json(),
        "tricks": [t.to_json() for t in state.tricks],
        "declarations": {
            "winner": TEAM_NAMES[decls.winner] if decls and decls.winner is not None else None,
            "points": _team_points(decls.points if decls else (0, 0)),
        },
        "belote": TEAM_NAMES[belote_team] if belote_team is not None else None,
        "belote_points": _team_points(belote),
        "trick_points": _team_points(state.trick_points),
    }
    if complete:
        result = play.result()
        out["capot"] = TEAM_NAMES[result.capot] if result.capot is not None else None
        out["score"] = result.score.to_json()
        out["next"] = None
    else:
        out["capot"] = None
        out["score"] = None
        out["next"] = {"seat": SEAT_NAMES[play.turn], "legal": mask_names(state.legal_mask())}
        if state.trick:
            out["trick"] = {
                "leader": SEAT_NAMES[state.leader],
                "cards": [card_name(c) for c in state.trick],
            }
    return out

