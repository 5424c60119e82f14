"""The fast engine checked against the small-table reference (tests/reference/small.py):
belote for three and for two players, RULES.md §12 as the project plays it.

For each mode (three players: ``24_cards``, ``kitty``, ``six_each``; two players:
``stock``, ``decouverte``), seeded random deals under random §3/§6/§7/§8 options are
stepped in a live ``belote.round.Round`` and in :class:`RefSmallRound` side by side:

- the deal: the hands dealt from the same deck, the turned card, the kitty, the
  bergère, découverte's piles (§12.1, §12.2);
- at every step: the phase, the seat to act, the legal calls (§3.2-3.3, §12.1 kitty),
  the legal cards (§6 with nobody a partner); illegal calls, discards and cards that
  the reference refuses must be refused by the live round too;
- at the end: every trick's leader, cards, winner and points (§5), the side score
  (§8 between the taker and the two others), each seat's score (§12 shares), and the
  score of ``belote.replay.replay(record)``.

Records (``Round.to_record``), cut short at random, with random announcements and
belote flags, and broken at random, must be answered alike by ``replay`` and
:func:`ref_replay_small`: both refuse, or both give the same tricks, score and next
actions.  Only the fast engine's public entry points are used.  A failure lists every
mismatch with its seed, step and both answers.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from belote.deal import new_deck
from belote.errors import BeloteError
from belote.options import make_rules
from belote.replay import replay
from belote.round import Round
from tests.reference.engine import DECK, card_strength, hand_score, suit
from tests.reference.generate import RECORD_OPTIONS
from tests.reference.small import (
    ALL_PASS,
    BIDDING,
    DISCARD,
    OVER,
    PLAY,
    PROFILE_OF_MODE,
    SEATS_BY_PLAYERS,
    RefSmallRound,
    SmallPlay,
    deal_piles,
    first_deal,
    legal_cards_no_partner,
    pack,
    players_of,
    ref_replay_small,
    rest_of_deal,
    seat_scores,
    side_score,
)

MODES = ("24_cards", "kitty", "six_each", "stock", "decouverte")
# Deals per mode (each also gives records and broken records): ~60 s in all on one core.
DEALS: dict[str, int] = {
    "24_cards": 1200, "kitty": 1000, "six_each": 1200, "stock": 1500, "decouverte": 600,
}

# Every option of §3 (deal pattern), §6, §7 and §8 that take-or-pass belote uses.
# §6's partner options must change nothing: nobody is a partner at a small table.
OPTIONS: dict[str, tuple[Any, ...]] = RECORD_OPTIONS  # the classic table: same §3, §6-§8
ALL_CALLS = ("pass", "take", "S", "H", "D", "C")


def names(mask: int) -> list[str]:
    return [DECK[c] for c in range(32) if mask >> c & 1]


def ints(cards: list[str]) -> list[int]:
    return [DECK.index(c) for c in cards]


def random_options(rng: random.Random, mode: str) -> dict[str, Any]:
    """Each option overridden with probability 1/2; the mode's option always given."""
    options = {k: rng.choice(v) for k, v in OPTIONS.items() if rng.random() < 0.5}
    if rng.random() < 0.25:  # no declarations, litige on ties: more litiges (§8.4)
        options.update(declarations=False, tie_rule="litige")
    options["three_deal" if players_of(mode) == 3 else "two_deal"] = mode
    return options


@dataclass
class Deal:
    """One live deal: its mismatches, its final record (None if it broke early), and
    what it reached (for the variety check)."""

    seed: int
    problems: list[str] = field(default_factory=list)
    record: dict[str, Any] | None = None
    kinds: set[str] = field(default_factory=set)


def choose_card(rng: random.Random, legal: list[str], trump: str, strong: bool) -> str:
    """A strong seat plays its highest trump / highest card, a weak one its lowest."""
    def key(c: str) -> tuple[int, int]:
        return (1 if suit(c) == trump else 0, card_strength(c, trump))
    return max(legal, key=key) if strong else min(legal, key=key)


def rigged_deck(rng: random.Random, mode: str, dealer: int, pattern: str) -> tuple[list[int], str]:
    """A deck where the eldest, taking, holds the strongest cards of a random trump
    suit (for capots by the taker): the reference's own deal of the pack in order tells
    which deck positions reach the eldest's hand after a take by him."""
    ordered = pack(mode)
    n = players_of(mode)
    eldest = (dealer + 1) % n
    trump = rng.choice(("S", "H", "D", "C"))
    if mode == "decouverte":  # the dealer gets the 16 strongest cards, a trump last
        def power(c: str) -> tuple[int, int]:
            return (1 if suit(c) == trump else 0, card_strength(c, trump))
        strong16 = sorted(ordered, key=power, reverse=True)[:16]
        weak16 = [c for c in ordered if c not in strong16]
        rng.shuffle(strong16)
        rng.shuffle(weak16)
        strong16.remove("J" + trump)
        strong16.append("J" + trump)
        dealer_positions = [p for r in (0, 16) for p in [*range(r + 4, r + 8),
                                                         *range(r + 12, r + 16)]]
        cards = [""] * 32
        for pos in range(32):
            cards[pos] = strong16.pop(0) if pos in dealer_positions else weak16.pop()
        return [DECK.index(c) for c in cards], trump
    first = first_deal(mode, dealer, ordered, pattern)
    if mode == "kitty":
        mine = first.hands[eldest] + first.kitty
    else:
        mine = rest_of_deal(mode, dealer, ordered, first, eldest).hands[eldest]
    positions = sorted(ordered.index(c) for c in mine)
    turned = None if first.turned is None else ordered.index(first.turned)

    def strength(c: str) -> tuple[int, int]:
        return (1 if suit(c) == trump else 0, card_strength(c, trump))
    strong = sorted(ordered, key=strength, reverse=True)
    deck: list[str | None] = [None] * len(ordered)
    if turned is not None and turned not in positions:  # six_each, stock: a low trump
        low = min((c for c in ordered if suit(c) == trump), key=strength)
        deck[turned] = low
        strong.remove(low)
    for pos in positions:
        if deck[pos] is None:
            deck[pos] = strong.pop(0) if rng.random() < 0.9 else strong.pop(rng.randrange(12))
    if turned is not None and deck[turned] is not None and suit(deck[turned] or "") != trump:
        # 24_cards: the turned card must show the trump suit; swap a trump there
        swap = next(p for p in positions if suit(deck[p] or "") == trump)
        deck[turned], deck[swap] = deck[swap], deck[turned]
    rest = list(strong)
    rng.shuffle(rest)
    for pos in range(len(deck)):
        if deck[pos] is None:
            deck[pos] = rest.pop()
    return [DECK.index(c or "") for c in deck], trump


def path_to_litige(ref: RefSmallRound, said: list[bool]) -> list[str] | None:
    """Cards that end the deal in a litige (§8.4), found by trying every way to play
    the last tricks in the reference, or None."""
    if ref.phase == OVER:
        return [] if ref.result().outcome == "litige" else None
    assert ref.play is not None
    seat = ref.play.turn
    for card in ref.legal_cards():
        after = copy.deepcopy(ref)
        after.play_card(card, said[seat])
        rest = path_to_litige(after, said)
        if rest is not None:
            return [card, *rest]
    return None


def play_live(seed: int, mode: str) -> Deal:
    """Step a live Round and the reference side by side through one seeded deal."""
    rng = random.Random(seed * 7919 + MODES.index(mode))
    options = random_options(rng, mode)
    rules = make_rules(PROFILE_OF_MODE[mode], options)
    n = rules.players
    deck = new_deck(n, rules.three_deal)
    rng.shuffle(deck)
    dealer = rng.randrange(n)
    rig: str | None = None  # the eldest takes this suit and plays strong
    if rng.random() < 0.15:
        if sorted(deck) != ints(pack(mode)):
            out0 = Deal(seed)
            out0.problems.append(f"{mode} seed {seed}: new_deck {sorted(deck)} is not the pack")
            return out0
        deck, rig = rigged_deck(rng, mode, dealer, rules.deal_pattern)
    reserve = rng.choice((0, 0, 0, rng.randrange(1, 200))) if mode != "decouverte" else 0
    said = [rng.random() < 0.8 for _ in range(n)]
    # Policy: random, or one side (0 taker / 1 defenders; two players: the seat) strong.
    policy = rng.choice(("random", "random", "strong0", "strong1"))
    if rig:  # the eldest takes and plays strong; découverte: the dealer plays strong
        policy = f"strong{dealer}" if mode == "decouverte" else "strong0"
    seek_litige = rules.tie_rule == "litige" and rng.random() < 0.6
    plan: list[str] = []
    out = Deal(seed)
    where = (f"{mode} seed {seed} (dealer {dealer}, reserve {reserve}, rigged {rig}, "
             f"options {options})")

    def bad(step: str, what: str, fast: Any, ref: Any) -> None:
        out.problems.append(f"{where} {step}: {what}: fast {fast!r} ref {ref!r}")

    if sorted(deck) != ints(pack(mode)):
        bad("deck", "new_deck", sorted(deck), ints(pack(mode)))
        return out
    fast = Round(rules, dealer, deck, reserve)
    ref = RefSmallRound(rules, dealer, [DECK[c] for c in deck], reserve)

    def same_hands(step: str) -> bool:
        fh = [names(h) for h in fast.hands]
        rh = [sorted(h, key=DECK.index) for h in ref.hands]
        if fh != rh:
            bad(step, "hands", fh, rh)
            return False
        return True

    if not same_hands("after the first deal"):
        return out
    f_turned = None if fast.turned is None else DECK[fast.turned]
    if f_turned != ref.turned:
        bad("after the first deal", "turned card", f_turned, ref.turned)
        return out

    step = 0
    while True:
        at = f"step {step}"
        if fast.phase != ref.phase:
            bad(at, "phase", fast.phase, ref.phase)
            return out
        if ref.phase not in (BIDDING, DISCARD, PLAY):
            break
        if fast.current_player() != ref.current_player():
            bad(at, f"seat to act ({ref.phase})", fast.current_player(), ref.current_player())
            return out
        seat = ref.current_player()
        if ref.phase == BIDDING:
            legal_calls = ref.legal_calls()
            if fast.legal_calls() != legal_calls:
                bad(at, "legal calls", fast.legal_calls(), legal_calls)
                return out
            wrong = [c for c in ALL_CALLS if c not in legal_calls]
            if wrong and rng.random() < 0.3:
                w = rng.choice(wrong)
                try:
                    fast.call(w)
                    bad(at, f"illegal call {w!r} accepted", "accepted", "refused")
                    return out
                except BeloteError:
                    pass
            if rig is not None:
                call = "take" if "take" in legal_calls else rig
            elif len(ref.bidding.calls if ref.bidding else []) < n:
                call = rng.choice(legal_calls) if rng.random() < 0.5 else legal_calls[0]
            else:
                call = rng.choice(legal_calls)
            fast.call(call)
            ref.call(call)
            if ref.phase in (DISCARD, PLAY) and not same_hands(f"{at} after {call!r}"):
                return out
        elif ref.phase == DISCARD:
            twelve = ref.legal_discards()
            not_held = [c for c in pack(mode) if c not in twelve]
            for attempt in ([twelve[0]], [twelve[0], twelve[0]], [not_held[0], twelve[1]],
                            twelve[:3]):
                if rng.random() < 0.5:
                    try:
                        fast.discard(ints(attempt))
                        bad(at, f"discard {attempt} accepted", "accepted", "refused")
                        return out
                    except BeloteError:
                        pass
            chosen = rng.sample(twelve, 2) if rig is None else sorted(
                twelve, key=lambda c: (suit(c) == rig, card_strength(c, rig)))[:2]
            fast.discard(ints(chosen))
            ref.discard(chosen)
            if not same_hands(f"{at} after the discard {chosen}"):
                return out
        else:
            assert ref.play is not None and ref.trump is not None
            legal = ref.legal_cards()
            f_legal = sorted((DECK[c] for c in fast.legal_cards()), key=DECK.index)
            if f_legal != legal:
                bad(at, f"legal cards (seat {seat}, trick {ref.play.trick}, "
                        f"playable {ref.play.hands[seat]}, trump {ref.trump})", f_legal, legal)
                return out
            held = ref.play.hands[seat]
            wrong = [c for c in held if c not in legal]  # §6 forbids them
            probes = [rng.choice(wrong)] if wrong and rng.random() < 0.5 else []
            if rng.random() < 0.1:  # not held (découverte: not face up)
                probes.append(rng.choice([c for c in DECK if c not in held]))
            for w in probes:
                try:
                    fast.play_card(DECK.index(w), belote=said[seat])
                    bad(at, f"card {w} (playable {held}, trick {ref.play.trick}) accepted",
                        "accepted", f"refused, legal {legal}")
                    return out
                except BeloteError:
                    pass
            side = ref.play.side_of[seat]
            left = sum(len(h) for h in ref.play.hands) + sum(len(b) for b in ref.play.beneath)
            if seek_litige and not ref.play.trick and left == 2 * n and mode != "decouverte":
                plan = path_to_litige(ref, said) or []
                seek_litige = False
            if plan:
                card = plan.pop(0)
            elif policy == "random":
                card = rng.choice(legal)
            else:
                card = choose_card(rng, legal, ref.trump, strong=policy == f"strong{side}")
            fast.play_card(DECK.index(card), belote=said[seat])
            ref.play_card(card, said[seat])
        step += 1

    record = fast.to_record()
    out.record = json.loads(json.dumps(record))
    if ref.phase == ALL_PASS:
        out.kinds.add("all-pass")
        return out
    out.problems += compare_result(where, fast, ref, record)
    res = ref.result()
    out.kinds.add(res.outcome)
    if mode == "decouverte" and ref.play is not None and ref.play.capot_side() is not None:
        out.kinds.add("capot")
    elif ref.play is not None and ref.play.capot_side() is not None:
        out.kinds.add(f"capot by side {ref.play.capot_side()}")
    if any(res.belote):
        out.kinds.add("belote")
    if any(res.declarations):
        out.kinds.add("declarations won")
    if res.reserve or (reserve and res.outcome != "litige"):
        out.kinds.add("reserve")
    return out


def compare_result(where: str, fast: Round, ref: RefSmallRound, record: dict[str, Any]
                   ) -> list[str]:
    """The end of a deal: tricks, side score, seat scores, the record's deal."""
    problems: list[str] = []
    res = ref.result()
    f = fast.result()

    def check(what: str, a: Any, b: Any) -> None:
        if a != b:
            problems.append(f"{where} end: {what}: fast {a!r} ref {b!r}")

    f_tricks = [(t.leader, [DECK[c] for c in t.cards], t.winner, t.points) for t in f.tricks]
    r_tricks = [(t.leader, t.cards, t.winner, t.points) for t in res.tricks]
    for i, (a, b) in enumerate(zip(f_tricks, r_tricks, strict=False)):
        check(f"trick {i + 1} (leader, cards, winner, points)", a, b)
    check("number of tricks", len(f_tricks), len(r_tricks))
    check("trick points", list(f.trick_points), res.trick_points)
    check("outcome", f.score.outcome, res.outcome)
    check("totals", list(f.score.totals), res.totals)
    check("side score", list(f.score.score), res.score)
    check("reserve", f.score.reserve, res.reserve)
    check("seat scores (Round.result().seats)", list(f.seats or ()), res.seats)
    # the record's deal
    seats = SEATS_BY_PLAYERS[ref.players]
    if ref.mode == "decouverte":
        check("record piles", record.get("piles"),
              {s: [list(p) for p in ref.piles[i]] for i, s in enumerate(seats)})
    else:
        check("record hands", {s: sorted(h, key=DECK.index) for s, h in record["hands"].items()},
              {s: sorted(ref.record_hands[i], key=DECK.index) for i, s in enumerate(seats)})
        check("record turned", record.get("turned"), ref.turned)
        if ref.mode == "kitty":
            check("record kitty", record.get("kitty"), ref.kitty)
        if ref.mode in ("six_each", "stock"):
            check("record bergere", record.get("bergere"), ref.bergere)
    # replay(record) against the live reference
    try:
        out = replay(copy.deepcopy(record))
    except Exception as exc:  # a valid record must replay
        problems.append(f"{where} end: replay(record) refused: {exc!r}")
        return problems
    # a record carries no reserve: it is scored from 0
    res0 = ref.result(reserve=0)
    check("replay(record) score per seat", out["score"]["score"],
          dict(zip(seats, res0.seats, strict=True)))
    check("replay(record) outcome", out["score"]["outcome"], res0.outcome)
    return problems


@functools.cache
def live_deals(mode: str) -> tuple[Deal, ...]:
    return tuple(play_live(seed, mode) for seed in range(DEALS[mode]))


def report(mismatches: list[str], limit: int = 25) -> str:
    shown = "\n".join(mismatches[:limit])
    more = f"\n... and {len(mismatches) - limit} more" if len(mismatches) > limit else ""
    return f"{len(mismatches)} mismatches:\n{shown}{more}"


# --- live deals ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_12_live_deals_match_the_reference(mode: str) -> None:
    """§12 deals, §3 calls, §6 cards (nobody a partner), §5 tricks, §8 side score and
    §12 seat shares: a live Round and the reference agree step by step."""
    deals = live_deals(mode)
    mismatches = [p for d in deals for p in d.problems]
    assert not mismatches, report(mismatches)


@pytest.mark.parametrize("mode", MODES)
def test_12_deals_reach_every_outcome(mode: str) -> None:
    """The seeded deals are varied enough to mean something: made, failed (§8.2-8.3),
    litige (§8.4), capots both ways (§5.2), belote (§7.7), won declarations (§7.5),
    all-pass (§3.3), a carried reserve (§8.4); découverte: counted and capot."""
    seen: dict[str, int] = {}
    for d in live_deals(mode):
        for k in d.kinds:
            seen[k] = seen.get(k, 0) + 1
    if mode == "decouverte":
        wanted = ["counted", "belote", "capot"]
    else:
        wanted = ["made", "failed", "litige", "capot by side 0", "belote", "all-pass",
                  "reserve"]
        wanted += ["capot by side 1", "declarations won"]
    missing = [k for k in wanted if seen.get(k, 0) < 2]
    assert not missing, (missing, seen)


# --- records ------------------------------------------------------------------------------


def norm_fast(out: dict[str, Any]) -> dict[str, Any]:
    """The part of replay's answer the reference gives."""
    score = out.get("score")
    if score is not None:
        score = {k: score[k] for k in ("outcome", "totals", "score", "reserve")
                 if k in score and not (k == "totals" and score["outcome"] == "void")}
    nxt = out.get("next")
    if nxt is not None:
        nxt = {k: nxt[k] for k in ("seat", "legal", "discard") if k in nxt}
    return {
        "complete": out.get("complete"),
        "tricks": [(t["leader"], t["cards"], t["winner"], t["points"])
                   for t in out.get("tricks", [])],
        "score": score,
        "next": nxt,
    }


def norm_ref(out: dict[str, Any]) -> dict[str, Any]:
    nxt = out["next"]
    if nxt is not None:
        nxt = {k: v for k, v in nxt.items() if k != "playable"}
    return {"complete": out["complete"], "tricks": out["tricks"], "score": out["score"],
            "next": nxt}


@dataclass
class Answer:
    """Both engines' answers to one record."""

    verdict: str  # "accepted" (alike), "refused" (both), "disagree", "crash"
    problems: list[str]
    fast_error: str | None = None
    ref_error: str | None = None


def both_answer(record: dict[str, Any], where: str) -> Answer:
    """Replay one record in both engines and compare."""
    fast_err: str | None = None
    ref_err: str | None = None
    fast_out: dict[str, Any] = {}
    ref_out: dict[str, Any] = {}
    try:
        fast_out = replay(copy.deepcopy(record))
    except BeloteError as exc:
        fast_err = str(exc)
    except Exception as exc:  # never a traceback (common brief)
        return Answer("crash", [f"{where}: replay crashed with {exc!r} on {json.dumps(record)}"])
    try:
        ref_out = ref_replay_small(copy.deepcopy(record))
    except ValueError as exc:
        ref_err = str(exc)
    if fast_err is not None and ref_err is not None:
        return Answer("refused", [], fast_err, ref_err)
    if fast_err is not None or ref_err is not None:
        return Answer("disagree", [
            f"{where}: fast {'refuses: ' + str(fast_err) if fast_err else 'accepts'}"
            f"; ref {'refuses: ' + str(ref_err) if ref_err else 'accepts'}"
            f"; record {json.dumps(record)}"], fast_err, ref_err)
    a, b = norm_fast(fast_out), norm_ref(ref_out)
    if a != b:
        diffs = [f"{k}: fast {a[k]!r} ref {b[k]!r}" for k in a if a[k] != b[k]]
        return Answer("disagree", [f"{where}: " + "; ".join(diffs)
                                   + f"; record {json.dumps(record)}"])
    return Answer("accepted", [])


def random_announcements(rng: random.Random, record: dict[str, Any]) -> None:
    """Replace the record's announcements by a random part of them (or drop the key:
    every seat then announces all it holds), and say belote or not at random."""
    decl = record.get("declarations")
    if isinstance(decl, dict):
        r = rng.random()
        if r < 0.3:
            del record["declarations"]
        else:
            record["declarations"] = {
                s: [c for c in combos if rng.random() < 0.6]
                for s, combos in decl.items() if rng.random() < 0.8
            }
    if rng.random() < 0.3:
        record["belote"] = {s: False for s in rng.sample(sorted(_seats(record)), 1)}


def _seats(record: dict[str, Any]) -> list[str]:
    return list(SEATS_BY_PLAYERS[3 if record["profile"] == "classic-3p" else 2])


def cut_short(rng: random.Random, record: dict[str, Any]) -> None:
    """An unfinished record: fewer plays, or fewer bids (then no plays), or no discards."""
    r = rng.random()
    if r < 0.6 or "bids" not in record:
        record["plays"] = record["plays"][: rng.randrange(len(record["plays"]) + 1)]
    elif r < 0.8 and "discards" in record:
        del record["discards"]
        record["plays"] = []
    else:
        record["bids"] = record["bids"][: rng.randrange(len(record["bids"]) + 1)]
        record["plays"] = []
        record.pop("discards", None)


@pytest.mark.parametrize("mode", MODES)
def test_12_records_replay_as_the_reference(mode: str) -> None:
    """CONTRACT ``belote replay`` for §12 records: whole, cut short (the next seat and its
    legal calls, discards or cards), and with announcements (§7.4) and belote (§7.7)
    chosen at random: replay and the reference give the same tricks, score and next."""
    mismatches: list[str] = []
    counts: dict[str, int] = {}
    for d in live_deals(mode):
        if d.record is None:
            continue
        rng = random.Random(d.seed)
        variants = [d.record]
        for _ in range(2):
            v = copy.deepcopy(d.record)
            random_announcements(rng, v)
            if rng.random() < 0.5:
                cut_short(rng, v)
            variants.append(v)
        for i, v in enumerate(variants):
            answer = both_answer(v, f"{mode} seed {d.seed} variant {i}")
            counts[answer.verdict] = counts.get(answer.verdict, 0) + 1
            mismatches += answer.problems
    assert not mismatches, report(mismatches)
    assert counts.get("accepted", 0) > len(live_deals(mode)), counts


# --- broken records -----------------------------------------------------------------------


def _random_card(rng: random.Random) -> str:
    return rng.choice(DECK)


def mutate(rng: random.Random, record: dict[str, Any]) -> str:
    """Break (or merely change) one part of a record at random; return what was done.
    The reference decides whether the result is still valid."""
    rec = record
    seats = _seats(rec)
    choices = ["play", "extra play", "dealer", "declaration", "belote"]
    if "hands" in rec:
        choices += ["swap hands", "move card", "bad card"]
    if "bids" in rec:
        choices += ["bid", "extra bid"]
    if "turned" in rec:
        choices += ["turned"]
    if "bergere" in rec:
        choices += ["bergere"]
    if "kitty" in rec:
        choices += ["kitty", "discards", "discards before the take"]
    if "piles" in rec:
        choices += ["swap piles", "flip pile", "pile size"]
    what = rng.choice(choices + ["illegal play"] * 3)
    if what == "illegal play" and rec["plays"]:
        # a card the seat holds but §6 forbids, where there is one
        for _try in range(4):
            i = rng.randrange(len(rec["plays"]))
            nxt = ref_replay_small({**rec, "plays": rec["plays"][:i]})["next"]
            wrong = [c for c in nxt["playable"] if c not in nxt["legal"]]
            if wrong:
                rec["plays"] = [*rec["plays"][:i], rng.choice(wrong)]
                break
    elif what == "play" and rec["plays"]:
        i = rng.randrange(len(rec["plays"]))
        rec["plays"] = [*rec["plays"][:i], _random_card(rng)]
    elif what == "extra play":
        rec["plays"] = [*rec["plays"], _random_card(rng)]
    elif what == "dealer":
        rec["dealer"] = rng.choice([*seats, "W", 0])
    elif what == "declaration":
        seat = rng.choice(seats)
        if "hands" in rec:
            pool = rec["hands"][seat] + rec.get("kitty", [])
        else:
            pool = [c for p in rec["piles"][seat] for c in p]
        combo = rng.sample(pool, 3) if rng.random() < 0.5 else rng.sample(DECK, 3)
        decl = rec.get("declarations") or {}
        decl[seat] = [*decl.get(seat, []), combo]
        rec["declarations"] = decl
    elif what == "belote":
        rec["belote"] = {rng.choice(seats): rng.choice([True, True, False, "yes"])}
    elif what == "swap hands":
        a, b = rng.sample(seats, 2)
        i, j = rng.randrange(len(rec["hands"][a])), rng.randrange(len(rec["hands"][b]))
        rec["hands"][a][i], rec["hands"][b][j] = rec["hands"][b][j], rec["hands"][a][i]
    elif what == "move card":
        a, b = rng.sample(seats, 2)
        rec["hands"][b].append(rec["hands"][a].pop())
    elif what == "bad card":
        seat = rng.choice(seats)
        rec["hands"][seat][0] = rng.choice([_random_card(rng), "1X", rec["hands"][seat][1]])
    elif what == "bid" and rec["bids"]:
        i = rng.randrange(len(rec["bids"]))
        rec["bids"][i] = rng.choice(["pass", "take", "S", "H", "D", "C", "SA", "80H"])
    elif what == "extra bid":
        rec["bids"] = [*rec["bids"], rng.choice(["pass", "take", "S", "H"])]
    elif what == "turned":
        rec["turned"] = _random_card(rng)
    elif what == "bergere":
        rec["bergere"] = rng.choice([_random_card(rng), rec.get("turned")])
    elif what == "kitty":
        seat = rng.choice(seats)
        k = rng.randrange(2)
        i = rng.randrange(len(rec["hands"][seat]))
        if rng.random() < 0.5:  # still a valid deal
            rec["kitty"][k], rec["hands"][seat][i] = rec["hands"][seat][i], rec["kitty"][k]
        else:
            rec["kitty"][k] = rec["hands"][seat][i]
    elif what == "discards":
        held = [c for s in seats for c in rec["hands"][s]] + rec["kitty"]
        rec["discards"] = rng.choice([
            rng.sample(held, 2), [held[0]], [held[0], held[0]], rng.sample(held, 3),
            rng.sample(DECK, 2),
        ])
    elif what == "discards before the take":
        rec["bids"] = rec["bids"][:-1]
    elif what == "swap piles":
        a, b = seats
        i, j = rng.randrange(8), rng.randrange(8)
        x, y = rng.randrange(2), rng.randrange(2)
        rec["piles"][a][i][x], rec["piles"][b][j][y] = rec["piles"][b][j][y], rec["piles"][a][i][x]
    elif what == "flip pile":
        seat = rng.choice(seats)
        i = rng.randrange(8)
        rec["piles"][seat][i].reverse()
    elif what == "pile size":
        seat = rng.choice(seats)
        rec["piles"][seat] = rec["piles"][seat][:7]
    return what


@functools.cache
def broken_records(mode: str) -> tuple[list[str], dict[str, int]]:
    """(mismatches, verdict counts) over two random breaks of each record."""
    mismatches: list[str] = []
    counts: dict[str, int] = {}
    for d in live_deals(mode):
        if d.record is None:
            continue
        rng = random.Random(d.seed ^ 0xBAD)
        for k in range(2):
            rec = copy.deepcopy(d.record)
            what = mutate(rng, rec)
            answer = both_answer(rec, f"{mode} seed {d.seed} mutation {k} ({what})")
            counts[answer.verdict] = counts.get(answer.verdict, 0) + 1
            mismatches += answer.problems
    return mismatches, counts


@pytest.mark.parametrize("mode", MODES)
def test_12_broken_records_are_refused_as_the_reference_refuses(mode: str) -> None:
    """Records changed at random (a card held but illegal by §6, any card, a call, the
    deal, the turned card, the bergère, the kitty and discards, découverte's piles,
    announcements, belote): replay refuses exactly those the reference refuses, and
    answers the others alike."""
    mismatches, counts = broken_records(mode)
    assert not mismatches, report(mismatches)
    assert counts.get("refused", 0) > len(live_deals(mode)) // 2, counts
    assert counts.get("accepted", 0) > len(live_deals(mode)) // 20, counts


def _no_contract_record(mode: str, calls: int, change: str) -> dict[str, Any]:
    rules = make_rules(PROFILE_OF_MODE[mode],
                       {"three_deal" if players_of(mode) == 3 else "two_deal": mode})
    deck = new_deck(rules.players, rules.three_deal)
    random.Random(5).shuffle(deck)
    rnd = Round(rules, 0, deck)
    for _ in range(calls):
        rnd.call("pass")
    record = rnd.to_record()
    if change == "turned 7S":
        record["turned"] = "7S"
    elif change == "bergere = turned":
        record["bergere"] = record["turned"]
    elif change == "turned in a hand":
        record["turned"] = record["hands"]["N"][0]
    elif change == "one discard":
        record["discards"] = [record["kitty"][0]]
    return record


@pytest.mark.parametrize(("mode", "calls", "change"), [
    ("24_cards", 6, "turned 7S"),
    ("six_each", 6, "bergere = turned"),
    ("stock", 1, "turned in a hand"),
    ("stock", 4, "bergere = turned"),
    ("kitty", 3, "one discard"),
    ("kitty", 0, "one discard"),
])
def test_12_records_without_a_contract_check_the_whole_deal(
    mode: str, calls: int, change: str
) -> None:
    """A record whose bidding is unfinished or all passed still shows an impossible deal
    (§12.1: the 24-card pack has no 7; a card is dealt once; only a taker lays cards
    aside).  The reference refuses it, and so does replay."""
    record = _no_contract_record(mode, calls, change)
    try:
        ref_replay_small(record)
    except ValueError:
        pass
    else:  # an AssertionError, not the expected failure: the test fails outright
        raise AssertionError(f"the reference accepts {record!r}")
    with pytest.raises(BeloteError):
        replay(record)


# --- the reference's own parts, by hand ---------------------------------------------------


def test_12_1_deal_positions() -> None:
    """§12.1/§12.2 deal order: the turned card is the 16th (24_cards), 19th (six_each),
    13th (stock); the kitty is the last two; the bergère the card after the second deal."""
    deck24 = pack("24_cards")
    first = first_deal("24_cards", 2, deck24, "3-2")
    assert first.turned == deck24[15]
    assert first.hands[0] == deck24[0:3] + deck24[9:11]  # N is the eldest after S deals
    assert first.hands[2] == deck24[6:9] + deck24[13:15]
    full = rest_of_deal("24_cards", 2, deck24, first, taker=1)
    assert full.hands[1] == first.hands[1] + [deck24[15]] + deck24[19:21]
    assert full.hands[2] == first.hands[2] + deck24[21:24]
    deck = list(DECK)
    kitty = first_deal("kitty", 0, deck)
    assert kitty.kitty == deck[30:32] and kitty.turned is None
    assert kitty.hands[1] == deck[0:3] + deck[9:11] + deck[15:18] + deck[24:26]
    six = first_deal("six_each", 0, deck)
    assert six.turned == deck[18]
    assert rest_of_deal("six_each", 0, deck, six, taker=2).bergere == deck[28]
    stock = first_deal("stock", 1, deck)
    assert stock.turned == deck[12] and stock.hands[0] == deck[0:3] + deck[6:9]
    full2 = rest_of_deal("stock", 1, deck, stock, taker=0)
    assert full2.bergere == deck[19] and len(full2.set_aside) == 12
    piles, trump = deal_piles(0, deck)
    assert piles[1][0] == (deck[0], deck[8]) and piles[0][3] == (deck[7], deck[15])
    assert piles[0][7] == (deck[23], deck[31]) and trump == "C"


def test_12_1_no_partner_must_overtrump_the_other_defender() -> None:
    """§12.1: nobody is a partner, so §6.3a never applies: a void defender must
    overtrump the other defender's master trump."""
    rules = make_rules("classic-3p", {"partner_master_exemption": True})
    # Trick: 7S led by E, S trumps with QH (master); N void in spades holds JH and 9D.
    assert legal_cards_no_partner(["JH", "9D"], ["AS", "QH"], "H", rules) == ["JH"]
    play = SmallPlay(rules, "H", [["JH", "9D"], ["AS", "TD"], ["QH", "KD"]], 1, [1, 0, 1])
    play.push("AS")
    play.push("QH")
    assert play.legal() == ["JH"]


def test_8_side_score_is_the_classic_score_at_162() -> None:
    """§8: with 162 in play the side score is the four-player reference's hand score."""
    rng = random.Random(12)
    for _ in range(2000):
        rules = make_rules("classic", {k: rng.choice(v) for k, v in OPTIONS.items()
                                       if k != "deal_pattern"})
        capot = rng.choice([None, None, 0, 1])
        tp = [252, 0] if capot == 0 else [0, 252] if capot == 1 else [0, 0]
        if capot is None:
            tp[0] = rng.randrange(163)
            tp[1] = 162 - tp[0]
        decl = rng.choice([[0, 0], [rng.choice([20, 50, 100, 200]), 0],
                           [0, rng.choice([20, 50, 100, 150])]])
        bel = [rng.choice([0, 20]), 0]
        bel = bel if rng.random() < 0.5 else bel[::-1]
        reserve = rng.choice([0, 0, 81])
        mine = side_score(rules, tp, 252 if capot == 1 else 162, capot, decl, bel, reserve)
        theirs = hand_score(rules, "NS", {"NS": tp[0], "EW": tp[1]},
                            None if capot is None else ("NS", "EW")[capot],
                            {"NS": decl[0], "EW": decl[1]}, {"NS": bel[0], "EW": bel[1]},
                            reserve)
        assert mine.outcome == theirs["outcome"]
        assert list(mine.score) == [theirs["score"]["NS"], theirs["score"]["EW"]]
        assert mine.reserve == theirs["reserve"]


def test_12_1_seat_shares() -> None:
    """§12: a failed taker (E, dealer N, so E is eldest): the defenders S and N score
    their own trick points and belote, and share the rest, the odd point to S (the
    first defender in play order from the eldest)."""
    seats = seat_scores((20, 252), taker=1, eldest=1, own_trick_pts=[86, 55, 21],
                        own_belote=[0, 20, 0])
    assert seats == [86 + 72, 20, 21 + 73]
    # the taker eldest: the first defender is the next seat
    assert seat_scores((100, 63), taker=0, eldest=0, own_trick_pts=[100, 30, 30],
                       own_belote=[0, 0, 0]) == [100, 32, 31]


def test_reference_live_round_runs_alone() -> None:
    """The reference plays whole deals by itself in every mode (a smoke test of the
    reference: 152 card points + 10 in a 24-card or kitty deal, §5.1)."""
    rng = random.Random(3)
    for mode in MODES:
        rules = make_rules(PROFILE_OF_MODE[mode],
                           {"three_deal" if players_of(mode) == 3 else "two_deal": mode})
        for _ in range(20):
            deck = pack(mode)
            rng.shuffle(deck)
            ref = RefSmallRound(rules, rng.randrange(rules.players), deck)
            while ref.phase == BIDDING:
                ref.call(rng.choice(ref.legal_calls()))
            if ref.phase == DISCARD:
                ref.discard(rng.sample(ref.legal_discards(), 2))
            while ref.phase == PLAY:
                ref.play_card(rng.choice(ref.legal_cards()))
            assert ref.phase in (OVER, ALL_PASS)
            if ref.phase == OVER and mode in ("24_cards", "kitty"):
                res = ref.result()
                if ref.play is not None and ref.play.capot_side() is None:
                    assert sum(res.trick_points) == 162


@pytest.mark.parametrize(("options", "seats"), [
    ({}, {"N": 20, "E": 256, "S": 256}),
    ({"capot_loser_declarations": "void"}, {"N": 272, "E": 0, "S": 0}),
    ({"capot_loser_declarations": "to_capot_team"}, {"N": 622, "E": 0, "S": 0}),
])
def test_8_5_a_capot_taker_can_fail_on_the_defenders_declarations(
    options: dict[str, Any], seats: dict[str, int]
) -> None:
    """§8.5/§8.3 at three (24_cards): N takes diamonds and wins all 8 tricks (252, belote
    20), but E (carré of 9s + cinquante) and S (carré of aces + cinquante) win the
    comparison with 350: failed, and the defenders score 162, not 252 (they did not
    make capot), + 350, shared 256/256 (§12).  With the losers' declarations void the
    capot is made; moved to the capot side, N scores 252 + 350 + 20."""
    record = {
        "profile": "classic-3p", "options": options, "dealer": "S",
        "hands": {"N": ["TD", "JD", "QD", "KD", "TC", "JC", "QC", "KC"],
                  "E": ["9S", "9H", "9D", "9C", "TS", "JS", "QS", "KS"],
                  "S": ["AS", "AH", "AD", "AC", "TH", "JH", "QH", "KH"]},
        "turned": "TD", "bids": ["take"],
        "plays": ["JD", "9D", "AD", "TD", "9C", "AC", "KD", "9H", "AH", "QD", "9S", "AS",
                  "TC", "TS", "TH", "JC", "JS", "JH", "QC", "QS", "QH", "KC", "KS", "KH"],
    }
    ref = ref_replay_small(record)
    assert ref["score"]["score"] == seats
    assert all(t[2] == "N" for t in ref["tricks"]) and sum(t[3] for t in ref["tricks"]) == 252
    assert replay(record)["score"]["score"] == seats
