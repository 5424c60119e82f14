"""Seeded random hand records (CONTRACT HandRecord) and broken ones: classic/Moroccan,
and coinche/contrée (:func:`random_auction_record`, :func:`mutate_auction_record`).

:func:`random_record` deals in the order of docs/rules.md §3 (5 cards each in packets
3-2 or 2-3 from the eldest, the 21st card turned, two rounds of bidding, then 3
cards each and 2 to the taker), plays random legal cards with the reference
engine, and picks random options, announcements, belote flags and truncations.
:func:`mutate_record` breaks a valid record in one chosen way (an illegal card, a
card not held, a bad bid, ...), for tests that both engines refuse it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Collection, Sequence
from typing import Any

from belote.options import Rules, make_rules

from .auction import RefAuction, bid_beats, deal_auction, parse_auction_call, run_auction
from .engine import (
    DECK,
    RANKS,
    SEATS,
    SUITS,
    TRUMP_MODES,
    Combination,
    RefPlay,
    belote_holders,
    card_points,
    card_strength,
    compatible,
    held_combinations,
    is_trump_suit,
    make_combination,
    next_seat,
    partner_of,
    ref_count_sequences,
    run_bidding,
    sort_cards,
    suit,
    team_of,
)

# Every option of §3 (deal pattern), §6, §7 and §8 that classic and moroccan use.
PLAY_OPTIONS: dict[str, tuple[Any, ...]] = {
    "overtrump_partner_on_trump_lead": (True, False),
    "partner_master_exemption": (True, False),
    "undertrump_partner": ("allowed", "only_if_only_trumps", "must_overtrump_if_only_trumps"),
    "must_undertrump": (True, False),
}
RECORD_OPTIONS: dict[str, tuple[Any, ...]] = {
    "deal_pattern": ("3-2", "2-3"),
    **PLAY_OPTIONS,
    "declarations": (True, False),
    "card_reuse": (True, False),
    "split_long_runs": (True, False),
    "longer_run_first": (True, False),
    "decl_tie": ("nobody", "first_announcer"),
    "king_first": (True, False),
    "belote_on_failure": ("kept", "defenders"),
    "taker_decl_on_failure": ("transfer", "lost"),
    "tie_rule": ("litige", "fail", "made"),
    "capot_loser_declarations": ("kept", "to_capot_team", "void"),
}


def random_options(rng: random.Random, choices: dict[str, tuple[Any, ...]]) -> dict[str, Any]:
    """Each option overridden with probability 1/2, by a random value of its own."""
    return {name: rng.choice(values) for name, values in choices.items() if rng.random() < 0.5}


def random_hands(rng: random.Random) -> dict[str, list[str]]:
    """32 shuffled cards, 8 to each seat."""
    deck = list(DECK)
    rng.shuffle(deck)
    return {seat: sorted(deck[8 * i: 8 * i + 8], key=DECK.index) for i, seat in enumerate(SEATS)}


def random_play_setup(seed: int) -> tuple[Rules, str, dict[str, list[str]], str]:
    """Rules (random §5/§6 options), a trump mode (suits, SA, TA), a deal and a leader."""
    rng = random.Random(seed)
    options = random_options(rng, PLAY_OPTIONS)
    options["ta_values"] = rng.choice(("pc", "ffbc", "scaled"))
    rules = make_rules(rng.choice(("classic", "moroccan")), options)
    trump = rng.choice(TRUMP_MODES)
    return rules, trump, random_hands(rng), rng.choice(SEATS)


def _random_calls(rng: random.Random, turned: str) -> list[str]:
    """§3.2-3.3: random calls until a take, a suit, or eight passes."""
    calls: list[str] = []
    for _ in range(4):
        if rng.random() < 0.25:
            return [*calls, "take"]
        calls.append("pass")
    for _ in range(4):
        if rng.random() < 0.25:
            return [*calls, rng.choice([s for s in SUITS if s != suit(turned)])]
        calls.append("pass")
    return calls


def deal_positions(rules: Rules, dealer: str, receiver: str) -> dict[str, list[int]]:
    """§3.1, §3.4: which positions of the shuffled deck each seat receives.

    5 each from the eldest in packets 3-2 or 2-3 (positions 0-19), position 20 is the
    turned card and goes to ``receiver`` (the taker), then 3 each from the eldest and
    2 to the taker.
    """
    eldest = next_seat(dealer)
    order = [next_seat(eldest, i) for i in range(4)]
    positions: dict[str, list[int]] = {s: [] for s in SEATS}
    packets = (3, 2) if rules.deal_pattern == "3-2" else (2, 3)
    pos = 0
    for size in packets:
        for seat in order:
            positions[seat] += range(pos, pos + size)
            pos += size
    positions[receiver].append(20)
    pos = 21
    for seat in order:
        size = 2 if seat == receiver else 3
        positions[seat] += range(pos, pos + size)
        pos += size
    return positions


def _wanted_cards(rng: random.Random) -> list[str]:
    """Cards that make declarations: a run, a cent, or a carré (perhaps with a run)."""
    kind = rng.choice(("run", "long", "carre", "carre"))
    s = rng.choice(SUITS)
    if kind in ("run", "long"):
        length = rng.choice((3, 4, 5)) if kind == "run" else rng.choice((5, 6, 7, 8))
        low = rng.randrange(9 - length)
        return [RANKS[i] + s for i in range(low, low + length)]
    r = rng.choice(("9", "T", "J", "Q", "K", "A"))
    cards = [r + t for t in SUITS]
    if rng.random() < 0.5:  # a run through the carré's card (card_reuse matters)
        i = RANKS.index(r)
        low = rng.randrange(max(0, i - 2), min(i, 5) + 1)
        cards += [RANKS[j] + s for j in range(low, low + 3) if RANKS[j] != r]
    return cards


def _rig(rng: random.Random, deck: list[str], positions: dict[str, list[int]]) -> None:
    """Move declaration-making cards into the positions of one or two seats (the turned
    card, position 20, stays where it is)."""
    fixed = {20}
    for seat in rng.sample(SEATS, rng.choice((1, 2, 2))):
        free = [p for p in positions[seat] if p not in fixed]
        for card in _wanted_cards(rng):
            here = deck.index(card)
            if here in fixed or not free:
                continue
            if here in free:
                free.remove(here)
                fixed.add(here)
                continue
            target = free.pop(rng.randrange(len(free)))
            deck[here], deck[target] = deck[target], deck[here]
            fixed.add(target)


def deal_and_bid(
    rng: random.Random, rules: Rules, dealer: str, rig: bool = False
) -> dict[str, Any]:
    """§3.1-3.4: a shuffled deck, the bidding on its 21st card, and the hands dealt from it.

    The random calls do not look at the cards, so the deck may be ``rig``-ged after the
    bidding to hold declarations.  After an all-pass the record still lists 8 cards a
    seat: the turned card then goes to the eldest.
    """
    deck = list(DECK)
    rng.shuffle(deck)
    turned = deck[20]
    calls = _random_calls(rng, turned)
    bidding = run_bidding(dealer, turned, calls)
    receiver = bidding.taker if bidding.taker is not None else next_seat(dealer)
    positions = deal_positions(rules, dealer, receiver)
    if rig:
        _rig(rng, deck, positions)
    hands = {s: sorted((deck[p] for p in positions[s]), key=DECK.index) for s in SEATS}
    return {"hands": hands, "turned": turned, "bids": calls, "trump": bidding.trump,
            "taker": bidding.taker}


def _random_announcement(rng: random.Random, hand: list[str], trump: str,
                         rules: Rules) -> list[Combination]:
    """A random valid set of the combinations a hand holds (§7.2-7.3)."""
    candidates = held_combinations(hand, trump)
    rng.shuffle(candidates)
    chosen: list[Combination] = []
    for combo in candidates:
        if rng.random() < 0.6 and all(compatible(c, combo, rules) for c in chosen):
            chosen.append(combo)
    return chosen


def _random_card(rng: random.Random, state: RefPlay, favoured: Collection[str]) -> str:
    """A random legal card; with favoured seats, they play their strongest card and the
    others their cheapest (to make capots happen)."""
    legal = state.legal()
    if not favoured:
        return rng.choice(legal)
    trump = state.trump

    def strength(c: str) -> tuple[int, int]:
        return (1 if is_trump_suit(c, trump) else 0, card_strength(c, trump))

    if state.turn in favoured:
        return max(legal, key=strength)
    return min(legal, key=lambda c: (card_points(c, trump), strength(c)))


def _random_declarations(rng: random.Random, hands: dict[str, list[str]], trump: str,
                         rules: Rules, *, announce_when_off: bool) -> dict[str, list[list[str]]]:
    """A record's ``declarations``: a seat left out now and then, or with none, or with a
    random valid set of its combinations (those of rules without declarations too when
    ``announce_when_off``)."""
    decl: dict[str, list[list[str]]] = {}
    for seat in SEATS:
        r = rng.random()
        if r < 0.15:
            continue  # seat left out
        if r < 0.25 or not (rules.declarations or announce_when_off):
            decl[seat] = []
            continue
        decl[seat] = [list(c.cards)
                      for c in _random_announcement(rng, hands[seat], trump, rules)]
    return decl


def _random_belote(rng: random.Random, record: dict[str, Any], hands: dict[str, list[str]],
                   trump: str) -> None:
    """Now and then a ``belote`` flag: said or not by a holder, or denied by a non-holder."""
    holders = belote_holders(hands, trump)
    r = rng.random()
    if holders and r < 0.3:
        record["belote"] = {holders[0][0]: rng.choice((True, False))}
    elif r < 0.4:
        seat = rng.choice(SEATS)
        if seat not in [h for h, _ in holders]:
            record["belote"] = {seat: False}


def _random_plays(rng: random.Random, state: RefPlay, favoured: Collection[str]) -> list[str]:
    """The deal played out by :func:`_random_card`, cut short now and then."""
    plays: list[str] = []
    while not state.is_over():
        card = _random_card(rng, state, favoured)
        state.push(card)
        plays.append(card)
    if rng.random() < 0.12:
        plays = plays[: rng.randrange(32)]
    return plays


def random_record(seed: int) -> dict[str, Any]:
    """A random classic/Moroccan HandRecord, valid, sometimes unfinished or all-pass."""
    rng = random.Random(seed)
    profile = rng.choice(("classic", "moroccan"))
    options = random_options(rng, RECORD_OPTIONS)
    rules = make_rules(profile, options)
    dealer = rng.choice(SEATS)
    dealt = deal_and_bid(rng, rules, dealer, rig=rng.random() < 0.3)
    record: dict[str, Any] = {
        "profile": profile, "options": options, "dealer": dealer,
        "hands": dealt["hands"], "turned": dealt["turned"], "bids": dealt["bids"], "plays": [],
    }
    hands: dict[str, list[str]] = dealt["hands"]
    trump: str | None = dealt["trump"]
    if trump is None:
        if rng.random() < 0.3 and dealt["bids"]:  # an unfinished bidding
            record["bids"] = dealt["bids"][: rng.randrange(len(dealt["bids"]))]
        return record
    # declarations: absent (default announcements), or a random valid subset per seat
    if rng.random() < 0.5:
        decl = _random_declarations(rng, hands, trump, rules, announce_when_off=True)
        if rules.declarations or all(not v for v in decl.values()):
            record["declarations"] = decl
    _random_belote(rng, record, hands, trump)
    favoured = rng.choice(("NS", "EW")) if rng.random() < 0.12 else None
    seats = [s for s in SEATS if team_of(s) == favoured]
    record["plays"] = _random_plays(rng, RefPlay(rules, trump, hands, next_seat(dealer)), seats)
    return record


# --- invalid records -----------------------------------------------------------------

MUTATIONS: tuple[str, ...] = (
    "illegal_card", "card_not_held", "card_replayed", "bad_bid_round1", "bad_bid_round2",
    "call_after_end", "turned_not_with_taker", "card_dealt_twice", "short_hand",
    "declaration_not_held", "declaration_not_combination", "unknown_key",
    "plays_after_allpass", "too_many_plays", "bad_dealer", "unknown_option",
)


def mutate_record(record: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A broken copy of a valid *finished-bidding, taken* record, and the mutation's name.

    Each mutation makes the record invalid whatever the options (docs/rules.md §3, §6, §7 and
    docs/json.md HandRecord).
    """
    order = list(MUTATIONS)
    rng.shuffle(order)
    for name in order:
        broken = apply_mutation(name, copy.deepcopy(record), rng)
        if broken is not None:
            return name, broken
    raise AssertionError("no mutation applies")  # pragma: no cover - bad_dealer always does


def _replay_state(record: dict[str, Any]) -> tuple[Rules, RefPlay, str, str]:
    rules = make_rules(record["profile"], record["options"])
    bidding = run_bidding(record["dealer"], record["turned"], record["bids"])
    assert bidding.taker is not None and bidding.trump is not None
    state = RefPlay(rules, bidding.trump, record["hands"], next_seat(record["dealer"]))
    return rules, state, bidding.taker, bidding.trump


def _break_a_play(
    name: str, rec: dict[str, Any], plays: Sequence[str], state: RefPlay, rng: random.Random
) -> dict[str, Any] | None:
    """Cut the plays at a random point and add a card the seat to play does not hold
    (``card_not_held``) or a card played before (``card_replayed``); ``state`` is the
    play before the first card."""
    i = rng.randrange(len(plays))
    for card in plays[:i]:
        state.push(card)
    if name == "card_not_held":
        others = [c for s in SEATS if s != state.turn for c in state.hands[s]]
        if not others:
            return None
        bad = rng.choice(others)
    else:
        if i == 0:
            return None
        bad = rng.choice(plays[:i])
    rec["plays"] = [*plays[:i], bad]
    return rec


def _illegal_card(rec: dict[str, Any], plays: list[str], state: RefPlay,
                  rng: random.Random) -> dict[str, Any] | None:
    """``rec`` with a play replaced by a card its seat holds but may not play (§6), the
    plays after it cut; None when every play had only legal cards beside it."""
    spots = []
    for i, card in enumerate(plays):
        illegal = [c for c in state.hands[state.turn] if c not in state.legal()]
        if illegal:
            spots.append((i, illegal))
        state.push(card)
    if not spots:
        return None
    i, illegal = rng.choice(spots)
    rec["plays"] = [*plays[:i], rng.choice(illegal)]
    return rec


def _record_mutation(name: str, rec: dict[str, Any], plays: list[str],
                     rng: random.Random) -> dict[str, Any] | None:
    """The mutations that break any record alike, whatever its game: a card dealt twice, a
    short hand, a play too many, a bad dealer, an unknown option; None for another name."""
    if name == "card_dealt_twice":
        seats = rng.sample(SEATS, 2)
        rec["hands"][seats[0]][rng.randrange(8)] = rng.choice(rec["hands"][seats[1]])
        return rec
    if name == "short_hand":
        seat = rng.choice(SEATS)
        rec["hands"][seat] = rec["hands"][seat][:7]
        return rec
    if name == "too_many_plays" and len(plays) == 32:
        rec["plays"] = [*plays, plays[0]]
        return rec
    if name == "bad_dealer":
        rec["dealer"] = rng.choice(["X", "north", "", 0, None])
        return rec
    if name == "unknown_option":
        rec["options"] = {**rec["options"], "no_such_option": True}
        return rec
    return None


def apply_mutation(name: str, rec: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    bidding = run_bidding(rec["dealer"], rec["turned"], rec["bids"])
    taken = bidding.finished and bidding.taker is not None
    plays: list[str] = rec["plays"]
    if name == "illegal_card" and taken:
        return _illegal_card(rec, plays, _replay_state(rec)[1], rng)
    if name in ("card_not_held", "card_replayed") and taken and plays:
        _, state, _, _ = _replay_state(rec)
        return _break_a_play(name, rec, plays, state, rng)
    if name == "bad_bid_round1":
        i = rng.randrange(min(4, len(rec["bids"])) or 1)
        rec["bids"] = [*rec["bids"][:i], rng.choice(["H", "S", "D", "C", "bid", "", "80H"])]
        rec["plays"] = []
        return rec
    if name == "bad_bid_round2" and len(rec["bids"]) >= 4:
        i = rng.randrange(4, max(5, len(rec["bids"])))
        rec["bids"] = ["pass"] * i + [rng.choice(["take", suit(rec["turned"]), "x", "SA"])]
        rec["plays"] = []
        return rec
    if name == "call_after_end" and bidding.finished:
        rec["bids"] = [*rec["bids"], rng.choice(["pass", "take", "H"])]
        return rec
    if name == "turned_not_with_taker" and taken:
        assert bidding.taker is not None
        others = [c for s in SEATS if s != bidding.taker for c in rec["hands"][s]]
        rec["turned"] = rng.choice(others)
        return rec
    if name in ("declaration_not_held", "declaration_not_combination") and taken:
        rec["options"]["declarations"] = True
        seat = rng.choice(SEATS)
        hand = rec["hands"][seat]
        decl = rec.get("declarations") or {}
        if name == "declaration_not_held":
            missing = [c for c in DECK if c not in hand]
            start = rng.randrange(len(missing) - 2)
            combo = missing[start: start + 3]
        else:
            combo = rng.sample(hand, rng.choice((1, 2, 3)))
            try:
                make_combination(combo, bidding.trump or "S")
            except ValueError:
                pass
            else:
                return None  # happened to be a combination
        decl[seat] = [combo]
        rec["declarations"] = decl
        return rec
    if name == "declaration_twice" and taken:  # not in MUTATIONS: see test_crosscheck
        assert bidding.trump is not None
        rec["options"]["declarations"] = True
        seat = rng.choice(SEATS)
        held = held_combinations(rec["hands"][seat], bidding.trump)
        if not held:
            return None
        combo = list(rng.choice(held).cards)
        rec["declarations"] = {**(rec.get("declarations") or {}), seat: [combo, combo]}
        return rec
    if name == "unknown_key":
        rec[rng.choice(["declaration", "play", "Bids", "comment"])] = []
        return rec
    if name == "belote_not_held" and taken:  # not in MUTATIONS: a CHOICE of the reference
        assert bidding.trump is not None
        holders = [s for s, _ in belote_holders(rec["hands"], bidding.trump)]
        seat = rng.choice([s for s in SEATS if s not in holders])
        rec["belote"] = {seat: True}
        return rec
    if name == "plays_after_allpass":
        rec["bids"] = ["pass"] * 8
        rec["plays"] = [rec["hands"][next_seat(rec["dealer"])][0]]
        return rec
    return _record_mutation(name, rec, plays, rng)


# --- perft positions (tests/data/perft_endgames.txt) ----------------------------------

PERFT_FLIPS: tuple[tuple[str, Any, Any], ...] = (
    ("overtrump_partner_on_trump_lead", True, False),
    ("partner_master_exemption", True, False),
    ("undertrump_partner", "allowed", "only_if_only_trumps"),
    ("undertrump_partner", "allowed", "must_overtrump_if_only_trumps"),
    ("undertrump_partner", "only_if_only_trumps", "must_overtrump_if_only_trumps"),
    ("must_undertrump", False, True),
)


def random_position(
    rng: random.Random, trump: str, rules: Rules, tricks_left: int, on_trick: int
) -> tuple[dict[str, list[str]], str, list[str]]:
    """A position reached by random legal play: hands, the leader of the current trick,
    and its ``on_trick`` cards, with ``tricks_left`` tricks (the current one included)."""
    state = RefPlay(rules, trump, random_hands(rng), rng.choice(SEATS))
    while state.cards_left() > 4 * tricks_left - on_trick:
        state.push(rng.choice(state.legal()))
    return {s: list(h) for s, h in state.hands.items()}, state.leader, list(state.trick)


def perft_entry(
    ident: str, options: dict[str, Any], trump: str, hands: dict[str, list[str]],
    leader: str, trick: list[str], max_nodes: int,
) -> str | None:
    """One perft record: the position and its counts at depth 1, 4 and to the end."""
    rules = make_rules("classic", options)
    left = sum(len(h) for h in hands.values())
    total = ref_count_sequences(rules, trump, hands, leader, trick, left)
    if total > max_nodes:
        return None
    depths = sorted({1, min(4, left), left})
    lines = [
        f"id {ident}",
        "options " + ", ".join(f"{k}={v!s}".lower() if isinstance(v, bool) else f"{k}={v}"
                               for k, v in options.items()),
        f"trump {trump}",
        "hands " + " ".join(f"{s}:{','.join(hands[s]) or '-'}" for s in SEATS),
        f"leader {leader}",
        "trick " + (" ".join(trick) if trick else "-"),
    ]
    for d in depths:
        count = total if d == left else ref_count_sequences(rules, trump, hands, leader, trick, d)
        lines.append(f"perft {d} {count}")
    return "\n".join(lines)


def perft_file(seed: int = 2024) -> str:
    """The text of tests/data/perft_endgames.txt: for each §6 option, positions where its
    two values give different counts (both entries), plus SA and TA positions."""
    rng = random.Random(seed)
    entries: list[str] = [
        "# Perft positions for classic belote card play (docs/rules.md §5.5, §6), written by\n"
        "# tests/reference/generate.py perft_file() and counted by the reference engine.\n"
        "# Each entry: id; options (name=value, docs/rules.md names; others at classic defaults);\n"
        "# trump; hands left (seat:cards); leader of the current trick; its cards so far;\n"
        "# 'perft D N': N legal play sequences of exactly D cards from the position."
    ]
    plan: list[tuple[str, Any, Any, int, int]] = []
    for name, a, b in PERFT_FLIPS:
        plan += [(name, a, b, 2, 0), (name, a, b, 2, 2), (name, a, b, 3, 1), (name, a, b, 3, 3)]
    plan += [(name, a, b, 4, 0) for name, a, b in PERFT_FLIPS[:3]]
    for pair, (name, a, b, tricks_left, on_trick) in enumerate(plan):
        for _attempt in range(2000):
            base = random_options(rng, PLAY_OPTIONS)
            trump = rng.choice(SUITS)
            opts_a, opts_b = {**base, name: a}, {**base, name: b}
            hands, leader, trick = random_position(
                rng, trump, make_rules("classic", opts_a), tricks_left, on_trick)
            left = 4 * tricks_left - on_trick
            counts = [
                ref_count_sequences(make_rules("classic", o), trump, hands, leader, trick, left)
                for o in (opts_a, opts_b)
            ]
            if counts[0] == counts[1] or max(counts) > 60_000:
                continue
            for opts, value, ab in ((opts_a, a, "a"), (opts_b, b, "b")):
                ident = f"p{pair:02d}{ab}-{tricks_left}t{on_trick}-{name}={str(value).lower()}"
                entry = perft_entry(ident, opts, trump, hands, leader, trick, 60_000)
                assert entry is not None
                entries.append(entry)
            break
    for trump, tricks_left, on_trick in (("SA", 2, 0), ("SA", 3, 2), ("SA", 4, 1),
                                         ("TA", 2, 0), ("TA", 2, 3), ("TA", 3, 1),
                                         ("TA", 4, 2), ("H", 4, 0)):
        for attempt in range(200):
            opts = random_options(rng, PLAY_OPTIONS)
            hands, leader, trick = random_position(
                rng, trump, make_rules("classic", opts), tricks_left, on_trick)
            entry = perft_entry(f"{trump.lower()}-{tricks_left}t{on_trick}-{attempt}", opts,
                                trump, hands, leader, trick, 60_000)
            if entry is not None:
                entries.append(entry)
                break
    return "\n\n".join(entries + perft_sa_ta_appendix()) + "\n"


# Appended for coinche/contrée play in SA and TA (docs/rules.md §6.1 TA "must beat the master
# card of s if able", SA "no such duty", §6.4 "void ... in SA/TA: any card"): deeper
# positions, five tricks left, and tricks in progress.  Their own seed, so that the
# entries above stay as they were.
PERFT_SA_TA_PLAN: tuple[tuple[str, int, int], ...] = (
    ("SA", 5, 2), ("SA", 4, 0), ("SA", 4, 3), ("TA", 5, 0), ("TA", 5, 1), ("TA", 4, 3),
    ("TA", 3, 2),
)


def _sequences_up_to(state: RefPlay, limit: int) -> int | None:
    """The number of play sequences to the end, or None as soon as it exceeds ``limit``."""
    if state.is_over():
        return 1
    total = 0
    for card in state.legal():
        state.push(card)
        sub = _sequences_up_to(state, limit - total)
        state.pop()
        if sub is None:
            return None
        total += sub
        if total > limit:
            return None
    return total


def perft_sa_ta_appendix(seed: int = 4242, max_nodes: int = 20_000) -> list[str]:
    """The SA/TA entries appended to tests/data/perft_endgames.txt."""
    rng = random.Random(seed)
    entries: list[str] = []
    for trump, tricks_left, on_trick in PERFT_SA_TA_PLAN:
        for attempt in range(300):
            opts = random_options(rng, PLAY_OPTIONS)
            rules = make_rules("classic", opts)
            hands, leader, trick = random_position(rng, trump, rules, tricks_left, on_trick)
            if _sequences_up_to(RefPlay(rules, trump, hands, leader, trick), max_nodes) is None:
                continue
            entry = perft_entry(f"x{trump.lower()}-{tricks_left}t{on_trick}-{attempt}", opts,
                                trump, hands, leader, trick, max_nodes)
            if entry is not None:
                entries.append(entry)
                break
    return entries


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["perft"]:
        sys.stdout.write(perft_file())


# --- coinche / contrée records (docs/rules.md §4, §5.3-5.4, §6, §7, §9, §10) ------------------

# Every option of §4 (auction), §5.4, §6, §7 and §9/§10 that coinche and contrée use.
AUCTION_OPTIONS: dict[str, tuple[Any, ...]] = {
    "deal_pattern": ("3-3-2", "3-2-3", "2-3-3"),
    "max_bid": (160, 180, 250, 650, None),
    "suit_ranking": (True, False),
    "reopen_by_suit_change": (True, False),
    "coinche_in_turn": (True, False),
    "coinche_freezes": (True, False),
    "capot_doublable": (True, False),
    "generale": (True, False),
    "generale_value": (500, 1000),
    "surcoinche_factor": (3, 4),
    "ta_values": ("pc", "ffbc", "scaled"),
    **PLAY_OPTIONS,
    "declarations": (True, False),
    "card_reuse": (True, False),
    "split_long_runs": (True, False),
    "longer_run_first": (True, False),
    "decl_tie": ("nobody", "first_announcer"),
    "king_first": (True, False),
    "belote_on_failure": ("kept", "defenders"),
}
# §9, §10: drawn less often, so that most records score by the profile's defaults.
AUCTION_SCORE_OPTIONS: dict[str, tuple[Any, ...]] = {
    "min_80": (80, 82),
    "beat_defence": (True, False),
    "decl_count_for_contract": (True, False),
    "count_mode": ("made_plus_bid", "made_only", "bid_only"),
    "unbid_capot_points": (250, 252),
    "fail_base": (160, 162),
    "double_scope": ("whole", "contract_only", "forfeit"),
    "bid_capot_scoring": ("flat", "as_contract"),
    "capot_fail_value": (500, 410),
    "rounding": ("none", "nearest10_5up", "nearest10_6up"),
    "capot_loser_declarations": ("kept", "to_capot_team", "void"),
}


def random_auction_options(rng: random.Random) -> dict[str, Any]:
    """Random §4-§10 overrides: each §4-§7 option with probability 1/2, sa_ta 1/2,
    each §9-§10 option with probability 1/5."""
    options = random_options(rng, AUCTION_OPTIONS)
    if rng.random() < 0.5:
        options["sa_ta"] = True
    for name, values in AUCTION_SCORE_OPTIONS.items():
        if rng.random() < 0.2:
            options[name] = rng.choice(values)
    return options


def pick_call(rng: random.Random, legal: list[str], p_pass: float) -> str:
    """A random call biased toward pass and toward the lowest bids."""
    others = [c for c in legal if c != "pass"]
    if not others or rng.random() < p_pass:
        return "pass"
    if "surcoinche" in others and rng.random() < 0.35:
        return "surcoinche"
    if "coinche" in others and rng.random() < 0.2:
        return "coinche"
    bids = [c for c in others if c not in ("coinche", "surcoinche")]
    if not bids:
        return rng.choice(others)
    r = rng.random()
    big = [c for c in bids if c.startswith(("capot", "generale"))]
    if big and r < 0.07:
        return rng.choice(big)
    numbers = [c for c in bids if c not in big]
    if numbers and r < 0.93:
        return rng.choice(numbers[:8])  # the next two values
    return rng.choice(bids)


def random_auction_calls(
    rng: random.Random, rules: Rules, dealer: str, p_pass: float = 0.55
) -> tuple[list[str], RefAuction]:
    """§4.2-4.8: random calls from the reference's legal calls (out-of-turn coinches
    now and then when ``coinche_in_turn`` is false) until the auction ends."""
    auction = RefAuction(rules, dealer)
    calls: list[str] = []
    while not auction.finished:
        others = auction.out_of_turn_coinchers()
        if others and rng.random() < 0.12:
            seat = rng.choice(others)
            auction.call("coinche", seat)
            calls.append(f"{seat}:coinche")
            continue
        call = pick_call(rng, auction.legal_calls(), p_pass)
        auction.call(call)
        calls.append(call)
    return calls, auction


def strong_hand(trump: str) -> list[str]:
    """Eight cards that let a bidder who leads win every trick (to reach capots and
    générales): every trump; SA the aces and tens; TA the jacks and nines."""
    if trump == "SA":
        return [r + s for r in "AT" for s in SUITS]
    if trump == "TA":
        return [r + s for r in "J9" for s in SUITS]
    return [r + trump for r in RANKS]


def give_cards(rng: random.Random, hands: dict[str, list[str]], seat: str,
               cards: list[str]) -> None:
    """Move ``cards`` into ``seat``'s hand, swapping out random cards of his that are not
    among them (hands keep 8 cards)."""
    for card in cards:
        if card in hands[seat]:
            continue
        owner = next(s for s in SEATS if card in hands[s])
        spare = [c for c in hands[seat] if c not in cards]
        if not spare:
            return
        out = rng.choice(spare)
        hands[seat].remove(out)
        hands[owner].remove(card)
        hands[seat].append(card)
        hands[owner].append(out)
    for s in SEATS:
        hands[s] = sort_cards(hands[s])


def random_auction_record(seed: int) -> dict[str, Any]:
    """A random coinche/contrée HandRecord (CONTRACT), valid; sometimes unfinished (auction
    or play), sometimes all-pass; hands dealt by §4.1 from a shuffled deck."""
    rng = random.Random(seed)
    profile = rng.choice(("coinche", "contree"))
    options = random_auction_options(rng)
    rules = make_rules(profile, options)
    dealer = rng.choice(SEATS)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = {s: sort_cards(h) for s, h in deal_auction(deck, dealer, rules.deal_pattern).items()}
    calls, auction = random_auction_calls(rng, rules, dealer, rng.choice((0.45, 0.55, 0.7)))
    record: dict[str, Any] = {"profile": profile, "options": options, "dealer": dealer,
                              "hands": hands, "bids": calls, "plays": []}
    contract = auction.contract()
    if contract is None:
        if rng.random() < 0.3 and calls:  # an unfinished auction
            record["bids"] = calls[: rng.randrange(len(calls))]
        return record
    if rng.random() < 0.15:  # stop during the auction
        record["bids"] = calls[: rng.randrange(len(calls))]
        return record
    trump, bidder = contract.bid.denom, contract.bidder
    # The calls never look at the cards: rig the deal now and then.
    if contract.bid.kind != "number" and rng.random() < 0.6:
        give_cards(rng, hands, bidder, strong_hand(trump))
    elif rules.declarations and rng.random() < 0.3:
        for seat in rng.sample(SEATS, rng.choice((1, 2))):
            give_cards(rng, hands, seat, _wanted_cards(rng))
    if rng.random() < 0.5:
        record["declarations"] = _random_declarations(rng, hands, trump, rules,
                                                      announce_when_off=False)
    _random_belote(rng, record, hands, trump)
    favoured: set[str] = set()
    r = rng.random()
    if contract.bid.kind == "generale" or r < 0.1:
        favoured = {bidder}
    elif contract.bid.kind == "capot" or r < 0.25:
        favoured = {bidder, partner_of(bidder)}
    elif r < 0.33:  # the defenders' turn to take everything
        favoured = {next_seat(bidder), next_seat(bidder, 3)}
    leader = bidder if contract.bid.kind == "generale" else next_seat(dealer)
    record["plays"] = _random_plays(rng, RefPlay(rules, trump, hands, leader), favoured)
    return record


# --- broken coinche / contrée records ----------------------------------------------------

AUCTION_CALL_MUTATIONS: tuple[str, ...] = (
    "coinche_by_partner", "bid_not_higher", "bid_after_freezing_coinche",
    "surcoinche_without_coinche", "surcoinche_by_coinching_side", "sa_ta_without_option",
    "bid_above_max", "generale_when_off", "number_after_capot", "coinche_on_capot",
    "second_coinche", "coinche_out_of_turn_when_in_turn", "coinche_without_bid",
    "reopen_same_denomination", "bad_call_text", "call_out_of_turn", "call_after_end",
)
AUCTION_RECORD_MUTATIONS: tuple[str, ...] = (
    "turned_given", "plays_before_end", "plays_after_allpass", "illegal_card",
    "card_not_held", "card_replayed", "card_dealt_twice", "short_hand",
    "declaration_not_held", "declaration_when_off", "unknown_key", "too_many_plays",
    "bad_dealer", "unknown_option",
)
AUCTION_MUTATIONS = AUCTION_CALL_MUTATIONS + AUCTION_RECORD_MUTATIONS

# Option changes a call mutation needs (checked: the record's calls must stay legal).
_MUTATION_OPTIONS: dict[str, dict[str, Any]] = {
    "sa_ta_without_option": {"sa_ta": False},
    "generale_when_off": {"generale": False},
    "coinche_on_capot": {"capot_doublable": False},
    "coinche_out_of_turn_when_in_turn": {"coinche_in_turn": True},
    "bid_after_freezing_coinche": {"coinche_freezes": True},
    "surcoinche_by_coinching_side": {"coinche_freezes": False},
    "reopen_same_denomination": {"reopen_by_suit_change": True},
}


def _bad_calls(name: str, a: RefAuction, rules: Rules) -> list[str]:
    """Calls that break the rule ``name`` in the auction state ``a`` (may be empty)."""
    best, bidder = a.best, a.bidder
    shapes = a.bids_listed(a.listing_cap())
    if name == "coinche_by_partner" and best is not None and bidder is not None:
        side = [bidder, partner_of(bidder)]
        out = ["coinche"] if a.turn in side else []
        if not rules.coinche_in_turn:
            out += [f"{s}:coinche" for s in side if s != a.turn]
        return out
    if name == "bid_not_higher" and best is not None and a.answerers is None:
        return [b.text() for b in shapes if not bid_beats(b, best, rules)]
    if name == "bid_after_freezing_coinche" and a.answerers is not None:
        return [b.text() for b in shapes if bid_beats(b, best, rules)]
    if name == "surcoinche_without_coinche" and a.coincher is None:
        return ["surcoinche"]
    if (name == "surcoinche_by_coinching_side" and a.coincher is not None and bidder is not None
            and team_of(a.turn) != team_of(bidder)):
        return ["surcoinche"]
    if name == "sa_ta_without_option" and a.answerers is None:
        return [b.text() for b in RefAuction(make_rules(rules.profile, {"sa_ta": True,
                "max_bid": rules.max_bid}), a.dealer).bids_listed(a.listing_cap())
                if b.denom in ("SA", "TA") and bid_beats(b, best, rules)]
    if name == "bid_above_max" and rules.max_bid is not None and a.answerers is None:
        return [f"{rules.max_bid + step}{d}" for step in (10, 20, 100) for d in "SHDC"]
    if name == "generale_when_off" and a.answerers is None:
        return [f"generale{d}" for d in "SHDC"]
    if name == "number_after_capot" and best is not None and best.kind != "number":
        return [b.text() for b in shapes if b.kind == "number"]
    if (name == "coinche_on_capot" and best is not None and best.kind == "capot"
            and bidder is not None and a.coincher is None):
        return [f"{s}:coinche" if s != a.turn else "coinche" for s in SEATS
                if team_of(s) != team_of(bidder) and (s == a.turn or not rules.coinche_in_turn)]
    if name == "second_coinche" and a.coincher is not None and bidder is not None:
        return [f"{s}:coinche" if s != a.turn else "coinche" for s in SEATS
                if team_of(s) != team_of(bidder) and (s == a.turn or not rules.coinche_in_turn)]
    if (name == "coinche_out_of_turn_when_in_turn" and best is not None and bidder is not None
            and a.coincher is None):
        return [f"{s}:coinche" for s in SEATS if s != a.turn and team_of(s) != team_of(bidder)]
    if name == "coinche_without_bid" and best is None:
        return ["coinche"] + ([f"{s}:coinche" for s in SEATS if s != a.turn]
                              if not rules.coinche_in_turn else [])
    if name == "reopen_same_denomination" and a.reopening and best is not None:
        return [b.text() for b in shapes if b.denom == best.denom and bid_beats(b, best, rules)]
    if name == "bad_call_text":
        return ["85H", "70H", "80X", "80", "H80", "capot", "take", "", "80♥", "X:coinche",
                "contre", "generale", "pass pass", "N:", ":pass"]
    if name == "call_out_of_turn":
        return [f"{s}:{c}" for s in SEATS if s != a.turn
                for c in ["pass", "surcoinche", *a.legal_calls()[1:3]] if c != "coinche"]
    return []


def mutate_auction_record(record: dict[str, Any], rng: random.Random,
                          names: Sequence[str] = AUCTION_MUTATIONS) -> tuple[str, dict[str, Any]]:
    """A broken copy of a valid coinche/contrée record, and the mutation's name: an
    illegal call of §4 (with the options it needs), or a malformed record."""
    order = list(names)
    rng.shuffle(order)
    for name in order:
        broken = apply_auction_mutation(name, copy.deepcopy(record), rng)
        if broken is not None:
            return name, broken
    raise AssertionError("no mutation applies")  # pragma: no cover - bad_dealer always does


def apply_auction_mutation(name: str, rec: dict[str, Any],
                           rng: random.Random) -> dict[str, Any] | None:
    """``rec`` broken by the mutation ``name``, or None when it does not apply."""
    rules = make_rules(rec["profile"], rec["options"])
    auction = run_auction(rules, rec["dealer"], rec["bids"])
    contract = auction.contract()
    plays: list[str] = rec["plays"]
    if name in AUCTION_CALL_MUTATIONS and name != "call_after_end":
        options = {**rec["options"], **_MUTATION_OPTIONS.get(name, {})}
        try:
            rules = make_rules(rec["profile"], options)
        except ValueError:
            return None
        spots: list[tuple[int, str]] = []
        a = RefAuction(rules, rec["dealer"])
        for i in range(len(rec["bids"]) + 1):
            if a.finished:
                break
            for bad in _bad_calls(name, a, rules):
                spots.append((i, bad))
            if i == len(rec["bids"]):
                break
            seat, call = parse_auction_call(rec["bids"][i])
            if a.check(call, seat) is not None:
                break  # the new options refuse an earlier call: stop here
            a.call(call, seat)
        if not spots:
            return None
        i, bad = rng.choice(spots)
        rec["options"] = options
        rec["bids"] = [*rec["bids"][:i], bad]
        rec["plays"] = []
        rec.pop("declarations", None)
        rec.pop("belote", None)
        return rec
    if name == "call_after_end" and auction.finished:
        rec["bids"] = [*rec["bids"], rng.choice(["pass", "coinche", "surcoinche", "160S"])]
        return rec
    if name == "turned_given":
        rec["turned"] = rng.choice(DECK)
        return rec
    if name == "plays_before_end" and not auction.finished:
        eldest = next_seat(rec["dealer"])
        rec["plays"] = [rec["hands"][eldest][0]]
        return rec
    if name == "plays_after_allpass":
        rec["bids"] = ["pass"] * 4
        rec["plays"] = [rec["hands"][next_seat(rec["dealer"])][0]]
        rec.pop("declarations", None)
        rec.pop("belote", None)
        return rec
    if name in ("illegal_card", "card_not_held", "card_replayed") and contract is not None:
        trump = contract.bid.denom
        leader = contract.bidder if contract.bid.kind == "generale" else next_seat(rec["dealer"])
        state = RefPlay(rules, trump, rec["hands"], leader)
        if name == "illegal_card":
            return _illegal_card(rec, plays, state, rng)
        if not plays:
            return None
        return _break_a_play(name, rec, plays, state, rng)
    if name == "declaration_not_held" and contract is not None and rules.declarations:
        seat = rng.choice(SEATS)
        missing = [c for c in DECK if c not in rec["hands"][seat]]
        start = rng.randrange(len(missing) - 2)
        rec["declarations"] = {**(rec.get("declarations") or {}),
                               seat: [missing[start: start + 3]]}
        return rec
    if name == "declaration_when_off" and contract is not None and not rules.declarations:
        seat = rng.choice(SEATS)
        held = held_combinations(rec["hands"][seat], contract.bid.denom)
        if not held:
            return None
        rec["declarations"] = {seat: [list(rng.choice(held).cards)]}
        return rec
    if name == "unknown_key":
        rec[rng.choice(["declaration", "play", "Bids", "comment", "contract"])] = []
        return rec
    return _record_mutation(name, rec, plays, rng)
