"""The fast engine checked against the reference engine (tests/reference/engine.py).

(a) Card play (docs/rules.md §5, §6): seeded random deals under random §6 options and every
    trump mode (suits, SA, TA), stepping ``belote.play.PlayState`` and the reference
    side by side: the seat to play, the legal cards, trick winners and points, the
    running trick points, and ``pop`` restoring the state.
(b) Whole hands (CONTRACT ``belote replay``, docs/rules.md §3, §5-§8): seeded random
    classic/Moroccan records replayed by ``belote.replay.replay`` and
    :func:`ref_replay` must answer the same; broken records must be refused by both.

Only the fast engine's public API is used.  A failure lists every mismatch with its
seed and step and both answers.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from belote.play import PlayState
from belote.replay import replay
from tests.reference.engine import DECK, SEATS, TEAMS, TRUMP_MODES, RefPlay, ref_replay
from tests.reference.generate import apply_mutation, mutate_record, random_play_setup, random_record

PLAY_DEALS = 3000  # (a): random deals, 32 steps each
RECORD_CHUNKS = 15  # (b): RECORD_CHUNKS x RECORDS_PER_CHUNK valid records
RECORDS_PER_CHUNK = 1000
INVALID_RECORDS = 3000

# A card c of the fast engine is suit * 8 + rank (belote.cards), the same order as DECK.


def card_int(name: str) -> int:
    return DECK.index(name)


def card_str(c: int) -> str:
    return DECK[c]


def mask_names(mask: int) -> list[str]:
    return [DECK[c] for c in range(32) if mask >> c & 1]


def fast_snapshot(state: PlayState) -> dict[str, Any]:
    """What push/pop must restore, in reference terms."""
    return {
        "hands": [mask_names(h) for h in state.hands],
        "leader": SEATS[state.leader],
        "turn": SEATS[state.turn],
        "trick": [card_str(c) for c in state.trick],
        "tricks": [
            (SEATS[t.leader], [card_str(c) for c in t.cards], SEATS[t.winner], t.points)
            for t in state.tricks
        ],
        "trick_points": list(state.trick_points),
    }


def ref_snapshot(state: RefPlay) -> dict[str, Any]:
    return {
        "hands": [list(state.hands[s]) for s in SEATS],
        "leader": state.leader,
        "turn": state.turn,
        "trick": list(state.trick),
        "tricks": [(t.leader, list(t.cards), t.winner, t.points) for t in state.tricks],
        "trick_points": [state.trick_points[t] for t in TEAMS],
    }


def diff(a: Any, b: Any, path: str = "") -> list[str]:
    """The paths where two JSON-like values differ, with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                out.append(f"{path}/{key}: fast {a.get(key, '<absent>')!r} "
                           f"ref {b.get(key, '<absent>')!r}")
            else:
                out += diff(a[key], b[key], f"{path}/{key}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += diff(x, y, f"{path}[{i}]")
        return out
    if a != b or type(a) is not type(b):
        return [f"{path}: fast {a!r} ref {b!r}"]
    return []


def report(mismatches: list[str], limit: int = 25) -> str:
    shown = "\n".join(mismatches[:limit])
    more = f"\n... and {len(mismatches) - limit} more" if len(mismatches) > limit else ""
    return f"{len(mismatches)} mismatches:\n{shown}{more}"


# --- (a) card play ----------------------------------------------------------------------


def check_deal(seed: int) -> list[str]:
    """Play one random deal in both engines; return the mismatches (empty: agreed)."""
    rules, trump, hands, leader = random_play_setup(seed)
    rng = random.Random(seed ^ 0x5EED)
    ref = RefPlay(rules, trump, hands, leader)
    fast = PlayState(rules, TRUMP_MODES.index(trump),
                     [sum(1 << card_int(c) for c in hands[s]) for s in SEATS], SEATS.index(leader))
    where = f"deal seed {seed} (trump {trump}, options {rules.overrides()})"
    for step in range(32):
        at = f"{where} step {step}"
        if fast_snapshot(fast) != ref_snapshot(ref):
            return [f"{at}: state differs: " + "; ".join(
                diff(fast_snapshot(fast), ref_snapshot(ref)))]
        legal = ref.legal()
        fast_legal = [card_str(c) for c in fast.legal_cards()]
        if sorted(fast_legal, key=DECK.index) != legal or mask_names(fast.legal_mask()) != legal:
            return [f"{at}: trick {ref.trick} hand {ref.hands[ref.turn]}: legal fast "
                    f"{fast_legal} (mask {mask_names(fast.legal_mask())}) ref {legal}"]
        if fast.is_over():
            return [f"{at}: fast says the play is over"]
        card = rng.choice(legal)
        before = fast_snapshot(fast)
        if rng.random() < 0.3:  # push, pop, compare, push again
            fast.push(card_int(card))
            fast.pop()
            if fast_snapshot(fast) != before:
                return [f"{at}: push {card} + pop does not restore: "
                        + "; ".join(diff(fast_snapshot(fast), before))]
        fast.push(card_int(card))
        ref.push(card)
    if not fast.is_over():
        return [f"{where}: fast says the play is not over after 32 cards"]
    if fast_snapshot(fast) != ref_snapshot(ref):
        return [f"{where} end: " + "; ".join(diff(fast_snapshot(fast), ref_snapshot(ref)))]
    return []


def test_play_crosscheck() -> None:
    """§5.5 winners, §5.1-5.4 points, §6 legal cards: PlayState == reference, step by step."""
    mismatches: list[str] = []
    for seed in range(PLAY_DEALS):
        mismatches += check_deal(seed)
    assert not mismatches, report(mismatches)


def test_play_crosscheck_pop_to_start() -> None:
    """push x 32 then pop x 32 restores the deal (python-chess style push/pop)."""
    for seed in range(50):
        rules, trump, hands, leader = random_play_setup(10_000 + seed)
        rng = random.Random(seed)
        ref = RefPlay(rules, trump, hands, leader)
        fast = PlayState(rules, TRUMP_MODES.index(trump),
                         [sum(1 << card_int(c) for c in hands[s]) for s in SEATS],
                         SEATS.index(leader))
        start = fast_snapshot(fast)
        for _ in range(32):
            card = rng.choice(ref.legal())
            ref.push(card)
            fast.push(card_int(card))
        for _ in range(32):
            fast.pop()
        assert fast_snapshot(fast) == start, f"seed {seed}"


# --- (b) whole records ------------------------------------------------------------------


def test_generator_is_seeded_and_varied() -> None:
    """The records are reproducible from their seed and reach every outcome of §8
    (made, failed, litige), both capots (§5.2), all-pass (§3.3), unfinished bidding and
    play, belote (§7.7) and won declarations (§7.5)."""
    assert random_record(7) == random_record(7)
    seen: dict[str, int] = {}
    for seed in range(2000):
        record = random_record(seed)
        out = ref_replay(record)
        kinds = []
        if out["contract"] is None:
            kinds.append("all-pass" if out["complete"] else "bidding unfinished")
        elif not out["complete"]:
            kinds.append("play unfinished")
        else:
            kinds.append(out["score"]["outcome"])
            if out["capot"] is not None:
                kinds.append("capot by takers" if out["capot"] == out["contract"]["team"]
                             else "capot by defenders")
            if out["belote"] is not None:
                kinds.append("belote")
            if out["declarations"]["winner"] is not None:
                kinds.append("declarations won")
        kinds.append("announcements given" if "declarations" in record else "default")
        for kind in kinds:
            seen[kind] = seen.get(kind, 0) + 1
    for kind in ("made", "failed", "litige", "all-pass", "bidding unfinished", "play unfinished",
                 "capot by takers", "capot by defenders", "belote", "declarations won",
                 "announcements given", "default"):
        assert seen.get(kind, 0) >= 3, (kind, seen)


def run_both(record: dict[str, Any]) -> tuple[Any, Any]:
    """Each engine's answer: the output dict, or the exception it raised."""
    answers: list[Any] = []
    for fn in (replay, ref_replay):
        try:
            answers.append(fn(copy.deepcopy(record)))
        except ValueError as exc:
            answers.append(exc)
    return answers[0], answers[1]


def check_record(seed: int) -> list[str]:
    record = random_record(seed)
    fast, ref = run_both(record)
    where = f"record seed {seed}"
    if isinstance(ref, Exception):
        return [f"{where}: the reference refuses a generated record: {ref}"]
    if isinstance(fast, Exception):
        return [f"{where}: fast refuses ({type(fast).__name__}: {fast}); ref accepts"]
    if fast != ref:
        return [f"{where}: " + "; ".join(diff(fast, ref))]
    return []


@pytest.mark.parametrize("chunk", range(RECORD_CHUNKS))
def test_replay_crosscheck(chunk: int) -> None:
    """CONTRACT `belote replay`: replay(record) == ref_replay(record) on random records."""
    mismatches: list[str] = []
    for seed in range(chunk * RECORDS_PER_CHUNK, (chunk + 1) * RECORDS_PER_CHUNK):
        mismatches += check_record(seed)
    assert not mismatches, report(mismatches)


def test_replay_crosscheck_invalid() -> None:
    """Broken records (illegal card §6, card not held, bad bid §3, bad declaration §7.2-7.3,
    malformed fields): both engines refuse them with a ValueError."""
    mismatches: list[str] = []
    for seed in range(INVALID_RECORDS):
        rng = random.Random(seed)
        name, broken = mutate_record(random_record(seed), rng)
        fast, ref = run_both(broken)
        if not isinstance(ref, Exception):
            mismatches.append(f"record seed {seed} mutation {name}: the reference accepts it")
        elif not isinstance(fast, Exception):
            mismatches.append(f"record seed {seed} mutation {name}: fast accepts it; "
                              f"ref: {ref}")
        elif name in ("illegal_card", "card_not_held", "card_replayed"):
            # CONTRACT: the error names the trick, the seat and the card.
            card = broken["plays"][-1]
            trick = f"trick {(len(broken['plays']) - 1) // 4 + 1}"
            seat = str(ref).split(": ")[1].split()[0]
            if not all(part in str(fast) for part in (trick, seat, card)):
                mismatches.append(f"record seed {seed} mutation {name}: fast message "
                                  f"{str(fast)!r} does not name {trick}, {seat}, {card}")
    assert not mismatches, report(mismatches)


def test_replay_belote_claimed_by_non_holder() -> None:
    """CONTRACT ``belote``: ``{"S": true}`` for a seat without the trump K and Q is a
    malformed record (the reference's reading, as for a declaration not held, §7.6):
    both engines refuse it."""
    accepted = []
    for seed in range(200):
        rng = random.Random(seed)
        broken = apply_mutation("belote_not_held", random_record(seed), rng)
        if broken is None:
            continue
        fast, ref = run_both(broken)
        assert isinstance(ref, Exception), f"seed {seed}: the reference accepts it"
        if not isinstance(fast, Exception):
            accepted.append(f"record seed {seed}: fast accepts belote {broken['belote']!r}")
    assert not accepted, report(accepted)


@pytest.mark.parametrize("plays", ["all", "before the seat's first card"])
def test_replay_declaration_twice(plays: str) -> None:
    """§7.3: one combination announced twice by a seat shares every card (refused whatever
    ``card_reuse``), whether or not the seat has played its first card yet (§7.4): the
    record is malformed either way, and both engines refuse it."""
    accepted = []
    for seed in range(300):
        rng = random.Random(seed)
        broken = apply_mutation("declaration_twice", random_record(seed), rng)
        if broken is None:
            continue
        if plays != "all":
            seat = next(s for s, combos in broken["declarations"].items()
                        if len(combos) == 2 and combos[0] == combos[1])
            first = SEATS.index(seat) - SEATS.index(broken["dealer"]) - 1
            broken["plays"] = broken["plays"][: first % 4]
        fast, ref = run_both(broken)
        assert isinstance(ref, Exception), f"seed {seed}: the reference accepts it"
        if not isinstance(fast, Exception):
            accepted.append(f"record seed {seed}: fast accepts declarations "
                            f"{broken['declarations']!r} with {len(broken['plays'])} plays")
    assert not accepted, report(accepted)
