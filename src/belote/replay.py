"""Check and score one played hand from its record (`belote replay`, docs/json.md).

:func:`replay` takes a HandRecord (a JSON object) and answers with the output
docs/json.md describes: the contract, the tricks, declarations, belote, trick
points, capot and the score, or, for a record that stops early, the legal cards (or calls) of
the seat to act.  Anything illegal or malformed raises a
:class:`~belote.errors.BeloteError` naming the trick, seat, card and rule.

Every record is read as the engine's own deal or game: a hand record as the
:class:`~belote.round.Round` its hands make (:func:`deck_of`, then its calls, discard and
cards applied), a deal's record through :meth:`Round.from_record`, a game's through
:meth:`~belote.game.Match.from_record` (:func:`replay_game`).  Nothing of the rules is
worked out here: the contract, the points in play and the score are the deal's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from belote.auction import NumericAuction
from belote.bidding import TakePassBidding, normalise_call
from belote.cards import Card, CardMask, card_name, mask_names, mask_of, parse_card, scan_forward
from belote.deal import packet_seats, rest_seats
from belote.declarations import (
    Declaration,
    belote_suits,
    check_announcement,
    parse_combination,
)
from belote.errors import (
    BeloteError,
    IllegalActionError,
    IllegalBidError,
    IllegalDeclarationError,
    InvalidRecordError,
    RuleCode,
)
from belote.game import Match
from belote.hand import DECOUVERTE, TAKEN, Contract
from belote.options import Rules, make_rules
from belote.play import SEAT_NAMES, TEAM_NAMES
from belote.round import Round
from belote.scoring import void_hand
from belote.table import DealMode, Phase, Table, parse_seat

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

    The hand record is read as a deal (:class:`~belote.round.Round`): the deck that deals
    its hands (:func:`deck_of`), then its calls, kitty discard and cards applied as
    actions; the contract, the points in play and the answer are the deal's own.  A deal's
    record (:meth:`Round.record`: the deck and the actions) is read through
    :meth:`Round.from_record`, every action applied again, and answered as its hand
    record."""
    rec = _object(record, "record")
    if "deck" in rec:  # a deal's record (the deck and the actions, Round.record)
        return replay(Round.from_record(rec, "record").to_record())
    if "deals" in rec:  # a game's record (Match.to_record): each deal, and the game
        return replay_game(rec)
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
        rnd = Round(rules, dealer, _decouverte_deck(rec, dealer))
        return _play_out(rec, rnd, _list(rec.get("plays", []), "plays"))
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
    if mode is DealMode.AUCTION:
        if rec.get("turned") is not None:
            raise InvalidRecordError(
                f"turned: no card is turned up in {rules.profile} (§4.1)"
            )
        turned, kitty = -1, list[Card]()
    else:
        turned, kitty = _turned_and_kitty(rec, table, seen)
    bergere = -1
    if mode.leaves_cards_out and "bergere" in rec:
        bergere = _card(rec["bergere"], "bergere")
    rnd = Round(rules, dealer, deck_of(rules, dealer, hands, turned, kitty, bergere))
    _call_all(rnd, bids)
    if mode is DealMode.KITTY and rec.get("discards") is not None and rnd.taker is None:
        raise InvalidRecordError("discards: only a taker lays cards aside (§12.1)")
    early = _without_contract(rnd, plays, n)
    if early is not None:
        return early
    taker = rnd.taker
    assert taker is not None
    if mode.takes_turned and not hands[taker] >> turned & 1:
        rule = ", §3.4" if mode is DealMode.CLASSIC else ""
        raise InvalidRecordError(
            f"turned: {card_name(turned)} must end in the taker's hand "
            f"({SEAT_NAMES[taker]}{rule})"
        )
    if rnd.phase is Phase.DISCARD:  # §12.1: the taker lays two cards aside first
        if rec.get("discards") is None:
            if plays:
                raise InvalidRecordError(
                    "discards: the taker lays two cards aside first (§12.1)"
                )
            assert isinstance(rnd.bidding, TakePassBidding)
            trump = rnd.bidding.trump
            assert trump is not None
            return {
                "complete": False, "contract": TAKEN[taker, trump, n].to_json(),
                "tricks": [], "score": None,
                "next": {"seat": SEAT_NAMES[taker], "discard": 2,
                         "legal": mask_names(rnd.hand(taker))},
            }
        rnd.discard(list(scan_forward(_parse_discards(rec["discards"], rnd.hand(taker), taker))))
    return _play_out(rec, rnd, plays)


def replay_game(record: Any) -> dict[str, Any]:
    """The answer for a game's record (:meth:`Match.to_record`, as `belote history show
    ID --json` prints it): ``{"deals": [each deal's answer], "game": the game's score}``
    (``belote score game``'s answer), every action checked again."""
    match = Match.from_record(record)
    return {"deals": [replay(r.to_record()) for r in match.rounds],
            "game": match.score.to_json()}


def deck_of(
    rules: Rules, dealer: int, hands: Sequence[CardMask], turned: Card = -1,
    kitty: Sequence[Card] = (), bergere: Card = -1,
) -> list[Card]:
    """The deck, top card first, that ``dealer`` deals into ``hands`` (each seat's cards
    after the whole deal) by the rules' dealing (:mod:`belote.deal`: the same plans of
    packets), with ``turned`` turned up (§3.1, §12), the ``kitty`` (§12.1) and the
    ``bergere`` (§12) where the deal has them; the cards of no hand follow in deck order.

    In take-or-pass the second deal depends on the taker (§3.4): the deck is the one
    where the seat holding ``turned`` takes, the only taker the hands allow."""
    table = Table.of(rules)
    mode = table.mode
    n = table.players
    if mode is DealMode.AUCTION:
        plan = list(packet_seats(dealer, rules.deal_pattern, n))
        middle: list[Card] = []
        rest: tuple[int, ...] = ()
    elif mode is DealMode.KITTY:
        plan, middle, rest = list(packet_seats(dealer, "3-2-3-2", n)), list(kitty), ()
    else:
        pattern = "3-3" if mode.leaves_cards_out else rules.deal_pattern
        plan = list(packet_seats(dealer, pattern, n))
        middle = [turned]
        holder = next((s for s in range(n) if hands[s] >> turned & 1), -1)
        rest = rest_seats(dealer, holder if mode.takes_turned else -1, n)
    queues = [[c for c in scan_forward(h) if c != turned] for h in hands]
    deck = [queues[s].pop(0) for s in plan]
    deck += middle
    deck += [queues[s].pop(0) for s in rest]
    if bergere >= 0:
        deck.append(bergere)
    placed = set(deck)
    return deck + [c for c in table.deck if c not in placed]


def _decouverte_deck(rec: dict[str, Any], dealer: int) -> list[Card]:
    """The deck that deals a découverte record's ``piles`` (§12.2, :func:`deal_piles`):
    four face-down cards to the non-dealer, four to the dealer, a face-up card on each,
    the same again."""
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
    other = 1 - dealer
    deck: list[Card] = []
    for half in (0, 4):
        for face in (0, 1):
            for seat in (other, dealer):
                deck += [piles[seat][half + j][face] for j in range(4)]
    return deck


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


def _play_out(rec: dict[str, Any], rnd: Round, plays: list[Any]) -> dict[str, Any]:
    """Check the announcements, play the cards, answer the output."""
    contract = rnd.contract
    assert contract is not None
    n = rnd.players
    dealt = [rnd.dealt(s) for s in range(n)]
    announced = _parse_declarations(rec, rnd.rules, dealt, contract)
    belote_flags = _parse_belote_flags(rec, n)
    for seat, flag in belote_flags.items():
        if flag and not belote_suits(dealt[seat], contract.trump):
            raise IllegalDeclarationError(RuleCode.BELOTE_WITHOUT_THE_PAIR,
                                          where=(f"belote.{SEAT_NAMES[seat]}",), seat=seat)
    for i, raw in enumerate(plays):
        c = _card(raw, f"plays[{i}]")
        seat = rnd.current_player()
        decls = announced[seat] if announced is not None else None
        first = rnd.announced[seat] is None
        rnd.play_card(c, decls if first else None, belote_flags.get(seat, True))
    return _output(rnd, complete=rnd.phase is Phase.OVER)


def _call_all(rnd: Round, bids: list[Any]) -> None:
    """The record's calls, in order, each made in the deal (§3, §4); a call after the
    bidding ended is refused in the bidding's own words."""
    bidding = rnd.bidding
    auction = isinstance(bidding, NumericAuction)
    for i, raw in enumerate(bids):
        try:
            seat: int | None = None
            call = normalise_call(raw)
            if auction and ":" in call:  # an out-of-turn coinche: "E:coinche"
                who, _, call = call.partition(":")
                seat = parse_seat(who, "seat")
                call = normalise_call(call)
            if rnd.phase is not Phase.BIDDING:
                if auction:
                    bidding.verify(call, seat)  # raises: the auction is over
                raise IllegalBidError(
                    RuleCode.BIDDING_OVER, call=call,
                    seat=None if bidding.all_pass else bidding.turn)
            rnd.call(call, seat)
        except IllegalBidError as exc:
            raise exc.within(f"bid {i + 1}") from None
        except (IllegalActionError, InvalidRecordError) as exc:
            raise IllegalBidError(f"bid {i + 1}: {exc}") from None


def _without_contract(rnd: Round, plays: list[Any], players: int) -> dict[str, Any] | None:
    """The answer of a record whose bidding is unfinished or ended in an all-pass (§2.4),
    or None once somebody has taken."""
    if rnd.phase is Phase.BIDDING:
        if plays:
            raise InvalidRecordError("plays: cards played before the bidding ended")
        return _incomplete_bidding(rnd.bidding)
    if rnd.phase is not Phase.ALL_PASS:
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


def _output(rnd: Round, complete: bool) -> dict[str, Any]:
    contract = rnd.contract
    assert contract is not None
    decls = rnd.declaration_result()
    belote = rnd.belote_points()
    belote_team = rnd.belote_team()
    names = side_names(rnd.players, contract.taker)
    per_seat = rnd.table.scores_per_seat

    def sides(pair: tuple[int, int] | list[int]) -> dict[str, int]:
        return {names[0]: pair[0], names[1]: pair[1]}

    out: dict[str, Any] = {
        "complete": complete,
        "contract": contract.to_json(),
        "tricks": [t.to_json() for t in rnd.tricks],
        "declarations": {
            "winner": names[decls.winner] if decls and decls.winner is not None else None,
            "points": sides(decls.points if decls else (0, 0)),
        },
        "belote": names[belote_team] if belote_team is not None else None,
        "belote_points": sides(belote),
        "trick_points": sides(rnd.trick_points),
    }
    if per_seat:
        out["seat_points"] = {
            SEAT_NAMES[s]: p for s, p in enumerate(rnd.points_by_seat())
        }
    if complete:
        result = rnd.result()
        out["capot"] = names[result.capot] if result.capot is not None else None
        score = result.score
        out["trick_points"] = sides(result.trick_points)
        out["score"] = score.to_json()
        if per_seat:
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
        out["next"] = {"seat": SEAT_NAMES[rnd.current_player()],
                       "legal": mask_names(mask_of(rnd.legal_cards()))}
        if rnd.mode is DealMode.DECOUVERTE:
            out["next"]["face_up"] = {
                SEAT_NAMES[s]: mask_names(rnd.hand(s)) for s in rnd.table.seats
            }
        trick = rnd.trick
        if trick:
            out["trick"] = {
                "leader": SEAT_NAMES[rnd.trick_leader],
                "cards": [card_name(c) for c in trick],
            }
    return out
