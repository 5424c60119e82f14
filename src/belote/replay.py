"""Check and score one played hand from its record (`belote replay`, docs/json.md).

:func:`replay` takes a HandRecord (a JSON object) and answers with the output
docs/json.md describes: the contract, the tricks, declarations, belote, trick
points, capot and the score, or, for a record that stops early, the legal cards (or calls) of
the seat to act.  Anything illegal or malformed raises a
:class:`~belote.errors.BeloteError` naming the trick, seat, card and rule.
"""

from __future__ import annotations

from typing import Any, Final

from belote.auction import GENERALE, NumericAuction
from belote.bidding import TakePassBidding, normalise_call
from belote.cards import Card, CardMask, card_name, mask_names, mask_of, parse_card, suit_of
from belote.declarations import (
    Declaration,
    belote_suits,
    check_announcement,
    parse_combination,
)
from belote.errors import (
    BeloteError,
    IllegalBidError,
    IllegalDeclarationError,
    InvalidRecordError,
    RuleCode,
)
from belote.hand import DECOUVERTE, Contract, HandPlay
from belote.options import Rules, make_rules
from belote.play import SEAT_NAMES, TEAM_NAMES, card_points
from belote.round import Round
from belote.scoring import void_hand
from belote.table import DealMode, Table, parse_seat

SMALL_TABLE_KEYS: Final = ("kitty", "discards", "bergere", "piles")
RECORD_KEYS: Final = frozenset(
    {"profile", "options", "dealer", "hands", "turned", "bids", "declarations", "belote", "plays",
     *SMALL_TABLE_KEYS}
)


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


def _seat_map(value: Any, where: str, players: int = 4) -> dict[int, Any]:
    out: dict[int, Any] = {}
    for key, item in _object(value, where).items():
        out[parse_seat(key, f"{where}: key", players)] = item
    return out


def parse_hands(
    value: Any, players: int = 4, size: int = 8, seen: dict[Card, str] | None = None
) -> list[CardMask]:
    """``players`` hands of ``size`` different cards (four of 8: the 32 cards)."""
    raw = _object(value, "hands")
    hands = [0] * players
    seen = {} if seen is None else seen
    for key in raw:
        parse_seat(key, "hands: key", players)
    for seat, name in enumerate(SEAT_NAMES[:players]):
        if name not in raw:
            raise InvalidRecordError(f"hands: seat {name} is missing")
        cards = _list(raw[name], f"hands.{name}")
        if len(cards) != size:
            raise InvalidRecordError(f"hands.{name}: {len(cards)} cards, expected {size}")
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
    """The output of `belote replay` (docs/json.md) for one HandRecord, at every table: four
    players, and three or two (§12) with the record forms of :meth:`Round.to_record`.

    A deal's record (:meth:`Round.record`: the deck and the actions) is read through
    :meth:`Round.from_record`, every action applied again, and answered as its hand
    record."""
    rec = _object(record, "record")
    if "deck" in rec:  # a deal's record (the deck and the actions, Round.record)
        return replay(Round.from_record(rec, "record").to_record())
    unknown = sorted(set(rec) - RECORD_KEYS)
    if unknown:
        raise InvalidRecordError(f"record: unknown key {unknown[0]!r}")
    rules = make_rules(rec.get("profile", "classic"), rec.get("options") or {})
    if "dealer" not in rec:
        raise InvalidRecordError("record: 'dealer' is missing")
    table = Table.of(rules)
    mode = table.mode
    _check_table_keys(rec, table)
    n = table.players
    dealer = parse_seat(rec["dealer"], "dealer", n)
    if mode is DealMode.DECOUVERTE:
        return _replay_decouverte(rules, rec, dealer, _list(rec.get("plays", []), "plays"))
    if "hands" not in rec:
        raise InvalidRecordError("record: 'hands' is missing")
    seen: dict[Card, str] = {}
    hands = parse_hands(rec["hands"], n, table.hand_size, seen)
    low = [card_name(c) for c in seen if not table.deck_mask >> c & 1]
    if low:
        raise InvalidRecordError(f"hands: {low[0]} is not in the 24-card pack (§12.1)")
    bids = _list(rec.get("bids", []), "bids")
    plays = _list(rec.get("plays", []), "plays")
    if len(plays) > table.cards_in_play:
        raise InvalidRecordError(f"plays: {len(plays)} cards, at most {table.cards_in_play}")
    kitty: list[Card] = []
    if mode is DealMode.AUCTION:
        if rec.get("turned") is not None:
            raise InvalidRecordError(
                f"turned: no card is turned up in {rules.profile} (§4.1)"
            )
        bidding: TakePassBidding | NumericAuction = _run_auction(rules, dealer, bids)
        turned = -1
    else:
        turned, kitty = _turned_and_kitty(rec, table, seen)
        bidding = _run_take_pass(rules, dealer, turned, bids, n)
    if mode is DealMode.KITTY and rec.get("discards") is not None and bidding.taker is None:
        raise InvalidRecordError("discards: only a taker lays cards aside (§12.1)")
    early = _without_contract(bidding, plays, n)
    if early is not None:
        return early
    leader = table.next(dealer)
    discards = 0
    in_play: int | None = None
    if isinstance(bidding, NumericAuction):
        assert bidding.bidder is not None and bidding.best is not None
        best = bidding.best
        contract = Contract(bidding.bidder, best.trump, best.value, bidding.multiplier)
        if best.value == GENERALE:
            leader = bidding.bidder  # §4.9
    else:
        assert bidding.taker is not None and bidding.trump is not None
        taker = bidding.taker
        contract = Contract(taker, bidding.trump, players=n)
        if mode.takes_turned and not hands[taker] >> turned & 1:
            rule = ", §3.4" if mode is DealMode.CLASSIC else ""
            raise InvalidRecordError(
                f"turned: {card_name(turned)} must end in the taker's hand "
                f"({SEAT_NAMES[taker]}{rule})"
            )
        if mode.leaves_cards_out:
            pts = card_points(rules, bidding.trump)
            in_play = sum(pts[c] for c in seen) + 10  # §12: what is played, and 10
        if mode is DealMode.KITTY:
            hands[taker] |= mask_of(kitty)
            if rec.get("discards") is None:
                if plays:
                    raise InvalidRecordError(
                        "discards: the taker lays two cards aside first (§12.1)"
                    )
                return {
                    "complete": False, "contract": contract.to_json(), "tricks": [],
                    "score": None,
                    "next": {"seat": SEAT_NAMES[taker], "discard": 2,
                             "legal": mask_names(hands[taker])},
                }
            discards = _parse_discards(rec["discards"], hands[taker], taker)
            hands[taker] &= ~discards
    play = HandPlay(rules, contract, hands, leader=leader, discards=discards,
                    in_play=in_play, table=table)
    return _play_out(rules, rec, play, plays)


def _check_table_keys(rec: dict[str, Any], table: Table) -> None:
    """The record's keys of §12's deals, each only at its table."""
    mode = table.mode
    if table.players == 4:
        for key in SMALL_TABLE_KEYS:
            if key in rec:
                raise InvalidRecordError(
                    f"record: {key!r} is for belote with two or three players"
                )
        return
    for key in ("kitty", "discards"):
        if key in rec and mode is not DealMode.KITTY:
            raise InvalidRecordError(f"record: {key!r} is only for three_deal = kitty")
    if "bergere" in rec and not mode.leaves_cards_out:
        raise InvalidRecordError("record: 'bergere' is only for the six_each and stock deals")
    if "piles" in rec and mode is not DealMode.DECOUVERTE:
        raise InvalidRecordError("record: 'piles' is only for two_deal = decouverte")


def _turned_and_kitty(
    rec: dict[str, Any], table: Table, seen: dict[Card, str]
) -> tuple[Card, list[Card]]:
    """The card turned up (§3.1, §12; -1 in the kitty deal) and the kitty (§12.1), each
    checked against the cards dealt (``seen``)."""
    mode = table.mode
    if mode is DealMode.KITTY:
        if rec.get("turned") is not None:
            raise InvalidRecordError("turned: no card is turned up in the kitty deal (§12.1)")
        kitty = [_card(t, f"kitty[{i}]") for i, t in enumerate(_list(rec.get("kitty"), "kitty"))]
        if len(kitty) != 2 or len(set(kitty)) != 2 or any(c in seen for c in kitty):
            raise InvalidRecordError("kitty: two cards not in any hand (§12.1)")
        return -1, kitty
    if "turned" not in rec:
        rule = "§3.1" if table.players == 4 else "§12"
        raise InvalidRecordError(f"record: 'turned' is missing (the card turned up, {rule})")
    turned = _card(rec["turned"], "turned")
    if not table.deck_mask >> turned & 1:
        raise InvalidRecordError(
            f"turned: {card_name(turned)} is not in the 24-card pack (§12.1)"
        )
    if mode.leaves_cards_out:
        if turned in seen:
            raise InvalidRecordError(
                f"turned: {card_name(turned)} stays on the table (§12), it is in no hand"
            )
        if "bergere" in rec:
            b = _card(rec["bergere"], "bergere")
            if b in seen or b == turned:
                raise InvalidRecordError(f"bergere: {card_name(b)} is dealt elsewhere")
    return turned, []


def _parse_discards(value: Any, hand: CardMask, taker: int) -> CardMask:
    """The two cards the taker lays aside from his twelve (§12.1 ``kitty``)."""
    chosen = [_card(t, f"discards[{i}]") for i, t in enumerate(_list(value, "discards"))]
    discards = mask_of(chosen)
    if len(chosen) != 2 or discards.bit_count() != 2 or discards & ~hand:
        raise InvalidRecordError(
            f"discards: two different cards of the taker's twelve ({SEAT_NAMES[taker]})"
        )
    return discards


def _play_out(
    rules: Rules, rec: dict[str, Any], play: HandPlay, plays: list[Any]
) -> dict[str, Any]:
    """Check the announcements, play the cards, answer the output."""
    n = play.players
    announced = _parse_declarations(rec, rules, list(play.holdings), play.contract)
    belote_flags = _parse_belote_flags(rec, n)
    for seat, flag in belote_flags.items():
        if flag and not belote_suits(play.holdings[seat], play.contract.trump):
            raise IllegalDeclarationError(RuleCode.BELOTE_WITHOUT_THE_PAIR,
                                          where=(f"belote.{SEAT_NAMES[seat]}",), seat=seat)
    for i, raw in enumerate(plays):
        c = _card(raw, f"plays[{i}]")
        seat = play.turn
        decls = announced[seat] if announced is not None else None
        first = play.announced[seat] is None
        play.play(c, declarations=decls if first else None, belote=belote_flags.get(seat, True))
    return _output(play, complete=play.is_over())


def _run_take_pass(
    rules: Rules, dealer: int, turned: Card, bids: list[Any], players: int = 4
) -> TakePassBidding:
    bidding = TakePassBidding(rules, dealer, turned, players)
    for i, raw in enumerate(bids):
        try:
            call = normalise_call(raw)
            if bidding.finished:
                raise IllegalBidError(
                    RuleCode.BIDDING_OVER, call=call,
                    seat=None if bidding.all_pass else bidding.turn)
            bidding.call(call)
        except IllegalBidError as exc:
            raise exc.within(f"bid {i + 1}") from None
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
        except IllegalBidError as exc:
            raise exc.within(f"bid {i + 1}") from None
        except InvalidRecordError as exc:
            raise IllegalBidError(f"bid {i + 1}: {exc}") from None
    return auction


def _without_contract(
    bidding: TakePassBidding | NumericAuction, plays: list[Any], players: int
) -> dict[str, Any] | None:
    """The answer of a record whose bidding is unfinished or ended in an all-pass (§2.4),
    or None once somebody has taken."""
    if not bidding.finished:
        if plays:
            raise InvalidRecordError("plays: cards played before the bidding ended")
        return _incomplete_bidding(bidding)
    if not bidding.all_pass:
        return None
    if plays:
        raise InvalidRecordError("plays: cards played after an all-pass deal (§2.4)")
    score = void_hand().to_json()
    if players != 4:
        zeros = {SEAT_NAMES[s]: 0 for s in range(players)}
        score = {"outcome": "void", "totals": dict(zeros), "score": zeros, "reserve": 0}
    return {"complete": True, "contract": None, "score": score}


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
    raw = _seat_map(rec["declarations"], "declarations", len(hands))
    out: list[list[Declaration]] = [[] for _ in hands]
    for seat, combos in raw.items():
        where = f"declarations.{SEAT_NAMES[seat]}"
        for j, combo in enumerate(_list(combos, where)):
            cards = [_card(t, f"{where}[{j}]") for t in _list(combo, f"{where}[{j}]")]
            out[seat].append(
                parse_combination(cards, hands[seat], rules, contract.trump, f"{where}[{j}]")
            )
        if out[seat] and contract.value == DECOUVERTE:
            raise IllegalDeclarationError(RuleCode.NO_DECLARATIONS_DECOUVERTE, where=(where,))
        if out[seat] and not rules.declarations:
            raise IllegalDeclarationError(RuleCode.DECLARATIONS_OFF, where=(where,))
        check_announcement(out[seat], rules, where)
    return out


def _parse_belote_flags(rec: dict[str, Any], players: int = 4) -> dict[int, bool]:
    if rec.get("belote") is None:
        return {}
    flags: dict[int, bool] = {}
    for seat, flag in _seat_map(rec["belote"], "belote", players).items():
        if not isinstance(flag, bool):
            raise InvalidRecordError(
                f"belote.{SEAT_NAMES[seat]}: expected true or false, got {flag!r}"
            )
        flags[seat] = flag
    return flags


def _team_points(points: tuple[int, int] | list[int]) -> dict[str, int]:
    return {TEAM_NAMES[0]: points[0], TEAM_NAMES[1]: points[1]}


def side_names(players: int, taker: int) -> tuple[str, str]:
    """What the two sides are called in the output: NS and EW; with three players
    ``taker`` and ``defenders``; with two the two seats (§12)."""
    if players == 4:
        return (TEAM_NAMES[0], TEAM_NAMES[1])
    if players == 3:
        return ("taker", "defenders")
    return (SEAT_NAMES[0], SEAT_NAMES[1])


def _output(play: HandPlay, complete: bool) -> dict[str, Any]:
    state = play.state
    decls = play.declaration_result()
    belote = play.belote_points()
    belote_team = play.belote_team()
    names = side_names(play.players, play.contract.taker)

    def sides(pair: tuple[int, int] | list[int]) -> dict[str, int]:
        return {names[0]: pair[0], names[1]: pair[1]}

    out: dict[str, Any] = {
        "complete": complete,
        "contract": play.contract.to_json(),
        "tricks": [t.to_json() for t in state.tricks],
        "declarations": {
            "winner": names[decls.winner] if decls and decls.winner is not None else None,
            "points": sides(decls.points if decls else (0, 0)),
        },
        "belote": names[belote_team] if belote_team is not None else None,
        "belote_points": sides(belote),
        "trick_points": sides(state.trick_points),
    }
    if play.table.scores_per_seat:
        out["seat_points"] = {
            SEAT_NAMES[s]: p for s, p in enumerate(state.points_by_seat())
        }
    if complete:
        result = play.result()
        out["capot"] = names[result.capot] if result.capot is not None else None
        score = result.score
        out["trick_points"] = sides(result.trick_points)
        out["score"] = score.to_json()
        if play.table.scores_per_seat:
            assert result.seats is not None
            out["score"] = {
                "outcome": score.outcome, "totals": sides(score.totals),
                "score": {SEAT_NAMES[s]: p for s, p in enumerate(result.seats)},
                "reserve": score.reserve,
            }
        out["next"] = None
    else:
        out["capot"] = None
        out["score"] = None
        out["next"] = {"seat": SEAT_NAMES[play.turn], "legal": mask_names(state.legal_mask())}
        if play.beneath:
            out["next"]["face_up"] = {
                SEAT_NAMES[s]: mask_names(state.hands[s]) for s in play.table.seats
            }
        if state.trick:
            out["trick"] = {
                "leader": SEAT_NAMES[state.leader],
                "cards": [card_name(c) for c in state.trick],
            }
    return out



def _replay_decouverte(
    rules: Rules, rec: dict[str, Any], dealer: int, plays: list[Any]
) -> dict[str, Any]:
    for key in ("hands", "turned", "bids"):
        if rec.get(key):
            raise InvalidRecordError(f"record: {key!r} has no place in belote découverte (§12.2)")
    raw = _seat_map(rec.get("piles"), "piles", 2) if "piles" in rec else None
    if raw is None or len(raw) != 2:
        raise InvalidRecordError("piles: each of N and E needs eight [face-down, face-up] pairs")
    seen: set[Card] = set()
    piles: list[list[tuple[Card, Card]]] = [[], []]
    for seat in (0, 1):
        where = f"piles.{SEAT_NAMES[seat]}"
        pairs = _list(raw[seat], where)
        if len(pairs) != 8:
            raise InvalidRecordError(f"{where}: {len(pairs)} piles, expected 8")
        for j, pair in enumerate(pairs):
            cards = [_card(t, f"{where}[{j}]") for t in _list(pair, f"{where}[{j}]")]
            if len(cards) != 2:
                raise InvalidRecordError(f"{where}[{j}]: a pile is [face-down, face-up]")
            for c in cards:
                if c in seen:
                    raise InvalidRecordError(f"{where}[{j}]: {card_name(c)} is dealt twice")
                seen.add(c)
            piles[seat].append((cards[0], cards[1]))
    # §12.2: the last card dealt, the dealer's last face-up card, fixes trump.
    trump = suit_of(piles[dealer][7][1])
    table = Table.of(rules)
    leader = table.next(dealer)
    contract = Contract(leader, trump, DECOUVERTE, players=2)
    hands = [mask_of(up for _down, up in p) for p in piles]
    beneath = {up: down for p in piles for down, up in p}
    play = HandPlay(rules, contract, hands, leader, beneath=beneath, table=table)
    return _play_out(rules, rec, play, plays)
