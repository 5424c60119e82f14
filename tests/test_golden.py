"""Golden pins of the engine's behaviour (issue 11: prove a redesign of the core safe).

Everything here compares what the code answers now with what it answered when the
data files of ``tests/golden/`` were written; nothing here says what is *right*
(the rule tests and the cross-checks against the reference engines do that).  A
refactoring must leave every pin as it is:

* ``cli.json``: every JSON face of the ``belote`` command (``score hand``/``score
  game`` ``--json``/``--jsonl``, four-player and per-seat entries, valid and not;
  ``replay --json``/``--jsonl`` on seeded records of every profile and deal mode,
  finished, cut short and corrupted; ``solve --json``; ``rotation 5/6/7 --json``;
  ``rules --json``), run in this process through :func:`belote.cli.main`.  The
  inputs are the fixed corpus ``corpus.json`` (built once from seeded games, so that
  an engine change cannot change the questions along with the answers).
* ``simulate.json``: seeded ``belote simulate --json`` (random and heuristic bots,
  every table size and deal mode) and ``belote tournament --json`` (random against
  heuristic, deals and games), ``seconds`` left out.  No ``pimc``: its defaults are
  being changed.
* ``playouts.json``: random playouts of seeded deals driven through
  :class:`belote.round.Round`, one hash per deal of the legal calls, the legal cards,
  the kitty hand, each choice, the result and the deal's record.
* ``import_cycles.json``: the import cycles among ``src/belote`` modules: none, and a
  test fails on any.  ``a -> b -> c`` reads: a imports b, b imports c, c imports a.
  Three graphs: the imports run when a module is loaded (``module_level``), with those
  inside functions (``with_function_level``), and with those under ``if TYPE_CHECKING``.
* ``rooms.json``: the web rooms (:class:`belote.web.rooms.Room`, through its own
  dispatch of messages, with no driver: nothing moves unless a seat acts) at every
  table (the four profiles, coinche with the out-of-turn coinche, each deal of three
  and of two players), two seeded games each (a few deals; a game to its end at a low
  target).  Each seat and a spectator are connections of the test; a move's pin is its
  label (``E call 80H``, ``N play JH 1 0``: card, declare, belote; ``S discard 7H 8C``;
  ``W next``), the errors it was answered with, and a hash of every text pushed to every
  connection (secret tokens masked).  The labels are the stored inputs, played again
  by the test; now and then a move the room must refuse.  The states after the start
  and the first moves are kept readable (``shown``: the spectator's state opened one
  level, ``deal.hand``, and each seat's differences; then the changes of each move).
  :func:`room_states_at` gives every connection's state after any move, to see what a
  failing hash covers.
* ``sheets.json``: a scripted ``belote sheet`` session per kind of sheet (four players,
  rotation sheets of 5, 6 and 7, three and two players per seat) against a temporary
  ``--db``, the hands taken from the corpus's games: ``new``, ``add`` (``--json``,
  ``--jsonl``, ``--file``), ``undo``, ``edit``, ``show``, ``list``, ``export`` (JSON, CSV,
  ``--out``), ``import`` (an export, a ``score game`` input) and ``delete``, refusals
  included; the folder and the clock masked (``<tmp>``, ``<time>``).
* The perft counts stay in ``tests/data/perft_endgames.txt`` (``test_perft.py``);
  its hash is pinned here so that the counts cannot drift along with the code.

Long answers are kept as a *fingerprint*: any JSON value whose text is longer than
``INLINE`` characters becomes, for an object, the fingerprints of its members, and for
anything else ``{"#sha256", "#len"}``; the exact text of each answer is hashed too
(key order and spacing).  A failure names the case and the first path that differs.

Regenerate deliberately, after checking that a change of behaviour is wanted:
``python scripts/update_golden.py`` (prints what changed; ``--corpus`` also rebuilds
the inputs from the seeded games, the rooms' moves included).
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import hashlib
import io
import json
import os
import random
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
SRC = ROOT / "src" / "belote"
PERFT_FILE = Path(__file__).resolve().parent / "data" / "perft_endgames.txt"

INLINE = 400  # characters of JSON kept readable in a fingerprint

# Every table size and deal mode, with a few option sets that change what is legal.
TABLES: list[tuple[str, str, dict[str, Any]]] = [
    ("classic", "classic", {}),
    ("classic+sa_ta", "classic",
     {"sa_ta_in_classic": True, "must_undertrump": True, "direction": "clockwise"}),
    ("moroccan", "moroccan", {}),
    ("coinche", "coinche", {}),
    ("coinche+generale", "coinche",
     {"sa_ta": True, "generale": True, "coinche_freezes": False, "suit_ranking": True}),
    ("contree", "contree", {}),
    ("contree+out_of_turn", "contree",
     {"coinche_in_turn": False, "undertrump_partner": "only_if_only_trumps"}),
    ("3p-24_cards", "classic-3p", {}),
    ("3p-kitty", "classic-3p", {"three_deal": "kitty"}),
    ("3p-six_each", "classic-3p",
     {"three_deal": "six_each", "sa_ta_in_classic": True, "ta_values": "scaled"}),
    ("2p-stock", "classic-2p", {}),
    ("2p-decouverte", "classic-2p", {"two_deal": "decouverte"}),
]

FILES = ("corpus.json", "cli.json", "simulate.json", "playouts.json", "import_cycles.json",
         "perft.json", "rooms.json", "sheets.json")


# --- fingerprints and comparison ----------------------------------------------------------


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def fingerprint(value: Any, inline: int = INLINE) -> Any:
    """``value`` itself when short, else its members' fingerprints (an object) or a hash."""
    text = json.dumps(value, ensure_ascii=False)
    if len(text) <= inline:
        return value
    if isinstance(value, dict):
        return {key: fingerprint(member, inline) for key, member in value.items()}
    return {"#sha256": digest(text), "#len": len(text)}


def first_difference(expected: Any, actual: Any, path: str = "$") -> str | None:
    """Where two JSON values first differ, in words; None when equal."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in expected:
            if key not in actual:
                return f"{path}.{key}: missing now (was {_short(expected[key])})"
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        for key in actual:
            if key not in expected:
                return f"{path}.{key}: new key ({_short(actual[key])})"
        if list(expected) != list(actual):
            return f"{path}: key order {list(expected)} is now {list(actual)}"
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(e, a, f"{path}[{i}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path}: {len(expected)} items, now {len(actual)}"
        return None
    if type(expected) is not type(actual) or expected != actual:
        return f"{path}: was {_short(expected)}, now {_short(actual)}"
    return None


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def compare(kind: str, expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """Every case whose pin differs: ``kind case: first difference``."""
    problems = []
    for name in expected:
        if name not in actual:
            problems.append(f"{kind} {name}: case no longer produced")
            continue
        found = first_difference(expected[name], actual[name])
        if found:
            problems.append(f"{kind} {name}: {found}")
    problems += [f"{kind} {name}: new case, not pinned" for name in actual if name not in expected]
    return problems


def load(name: str) -> Any:
    return json.loads((GOLDEN / name).read_text(encoding="utf-8"))


# Files written to a depth: deeper values stay on one line each (moves, states, answers).
LAYOUT_DEPTH = {"rooms.json": 4, "sheets.json": 4}


def dump_to_depth(value: Any, depth: int, level: int = 0) -> str:
    """Indented JSON for ``depth`` levels of objects and lists, compact below."""
    if depth <= 0 or not isinstance(value, dict | list) or not value:
        return json.dumps(value, ensure_ascii=False)
    pad = " " * (level + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: "
                 f"{dump_to_depth(v, depth - 1, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * level + "}"
    items = [pad + dump_to_depth(v, depth - 1, level + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * level + "]"


def dump(value: Any, name: str = "") -> str:
    """Indented JSON, except that the lists of inputs hold one compact input a line,
    and that the files of ``LAYOUT_DEPTH`` (``name``) are indented to their depth."""
    if name in LAYOUT_DEPTH:
        return dump_to_depth(value, LAYOUT_DEPTH[name]) + "\n"
    if isinstance(value, dict) and set(value) == {"score_hand", "score_game", "replay", "solve"}:
        def items(values: list[Any]) -> str:
            return "[\n" + ",\n".join(json.dumps(v, ensure_ascii=False) for v in values) + "\n]"

        parts = []
        for key, group in value.items():
            if isinstance(group, dict):
                inner = ",\n".join(f"{json.dumps(k)}: {items(v)}" for k, v in group.items())
                parts.append(f"{json.dumps(key)}: {{\n{inner}\n}}")
            else:
                parts.append(f"{json.dumps(key)}: {items(group)}")
        return "{\n" + ",\n".join(parts) + "\n}\n"
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def assert_same(kind: str, expected: dict[str, Any], actual: dict[str, Any]) -> None:
    problems = compare(kind, expected, actual)
    if problems:
        shown = "\n  ".join(problems[:12])
        more = f"\n  ... and {len(problems) - 12} more" if len(problems) > 12 else ""
        pytest.fail(
            f"{len(problems)} golden pin(s) of {kind} differ (behaviour changed; if that is "
            f"wanted, run scripts/update_golden.py):\n  {shown}{more}", pytrace=False)


# --- running the command in this process -------------------------------------------------


def run_cli(argv: Sequence[str], stdin: str = "") -> tuple[int, str, str]:
    """``belote ARGV`` in this process: exit status, stdout, stderr."""
    from belote.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    saved_debug = os.environ.pop("BELOTE_DEBUG", None)
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(list(argv))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.stdin = saved_stdin
        if saved_debug is not None:
            os.environ["BELOTE_DEBUG"] = saved_debug
    return code, out.getvalue(), err.getvalue()


def parse_output(text: str, lines: bool) -> Any:
    """stdout as JSON (a list of values with ``--jsonl``), or ``{"#text": ...}``."""
    try:
        if lines:
            return [json.loads(line) for line in text.splitlines()]
        return json.loads(text) if text.strip() else None
    except ValueError:
        return {"#text": text if len(text) <= INLINE else text[:INLINE] + "..."}


def cli_pin(argv: Sequence[str], stdin: str = "") -> dict[str, Any]:
    code, out, err = run_cli(argv, stdin)
    return {
        "argv": list(argv),
        "exit": code,
        "stdout": fingerprint(parse_output(out, "--jsonl" in argv)),
        "stdout_sha256": digest(out),
        "stderr": err,
    }


def option_args(options: dict[str, Any]) -> list[str]:
    args: list[str] = []
    for key, value in options.items():
        text = json.dumps(value) if isinstance(value, bool) else str(value)
        args += ["--option", f"{key}={text}"]
    return args


# --- the corpus of inputs (built once from seeded games; stored) --------------------------


def playout(rnd: Any, rng: random.Random, trace: list[str] | None = None,
            snapshot_at: int = -1, snapshot_phase: str = "") -> dict[str, Any] | None:
    """Play ``rnd`` to its end at random; ``trace`` collects every decision's legal
    actions and choice; the record after ``snapshot_at`` decisions (or when the deal
    first reaches ``snapshot_phase``) is returned."""
    from belote.cards import card_name, mask_names
    from belote.round import BIDDING, DISCARD, PLAY

    snap = None
    step = 0
    while rnd.phase in (BIDDING, DISCARD, PLAY):
        if step == snapshot_at or (snap is None and rnd.phase == snapshot_phase):
            snap = rnd.to_record()
        step += 1
        seat = rnd.current_player()
        if rnd.phase == BIDDING:
            calls = rnd.legal_calls()
            # an auction offers dozens of bids: pass more often than a uniform choice would
            call = ("pass" if len(calls) > 3 and "pass" in calls and rng.random() < 0.7
                    else rng.choice(calls))
            if trace is not None:
                trace.append(f"{seat} B {' '.join(calls)} > {call}")
            rnd.call(call)
        elif rnd.phase == DISCARD:
            hand = rnd.hands[seat]
            cards = rng.sample([c for c in range(32) if hand >> c & 1], 2)
            if trace is not None:
                trace.append(f"{seat} D {' '.join(mask_names(hand))} > "
                             f"{' '.join(card_name(c) for c in cards)}")
            rnd.discard(cards)
        else:
            legal = rnd.legal_cards()
            c = rng.choice(legal)
            belote = rng.random() < 0.8
            if trace is not None:
                trace.append(f"{seat} P {' '.join(card_name(x) for x in legal)} > "
                             f"{card_name(c)} {int(belote)}")
            rnd.play_card(c, belote=belote)
    return snap


def table_rules(profile: str, options: dict[str, Any]) -> Any:
    from belote.options import make_rules

    return make_rules(profile, options)


def seeded_round(profile: str, options: dict[str, Any], seed: str) -> tuple[Any, random.Random]:
    """A deal of the table, shuffled, cut and dealt from ``seed``; the seed's generator."""
    from belote.deal import cut, new_deck, shuffle
    from belote.round import Round

    rules = table_rules(profile, options)
    rng = random.Random(seed)
    deck = new_deck(rules.players, rules.three_deal)
    shuffle(deck, rng)
    deck = cut(deck, rng, rules.min_cut)
    return Round(rules, rng.randrange(rules.players), deck), rng


def entry_facts(rnd: Any, res: Any, rng: random.Random) -> dict[str, Any]:
    """The ``score hand`` entry a table writes down from a played deal (at three and two
    players, as tests/test_seat_scoring.py writes it)."""
    from belote.scoring import hand_entry_to_json
    from tests.test_seat_scoring import _facts

    rules = rnd.rules
    if rules.players == 4:
        return {"profile": rules.profile, "options": rules.overrides(),
                **hand_entry_to_json(res.entry)}
    return _facts(rnd, res, rng)


def _mutations(obj: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Entries near ``obj``, most of them refused: the error messages are pinned too."""
    out = []
    bent = json.loads(json.dumps(obj))
    points = bent.get("trick_points") or {}
    if points:
        key = rng.choice(sorted(points))
        points[key] = points[key] + rng.choice((-7, 3, 200))
        out.append(bent)
    extra = json.loads(json.dumps(obj))
    extra["surprise"] = 1
    out.append(extra)
    decl = json.loads(json.dumps(obj))
    seats = ("NS", "EW") if obj.get("profile") in (None, "classic", "moroccan", "coinche",
                                                  "contree") else ("N", "E")
    decl["declarations"] = {seats[0]: 20, seats[1]: 50}
    out.append(decl)
    reserve = json.loads(json.dumps(obj))
    reserve["reserve"] = rng.choice((0, 81, 162))
    out.append(reserve)
    return out


def build_corpus() -> dict[str, Any]:
    """The inputs of every CLI case, from seeded deals and games of every table."""
    from belote.game import Match
    from belote.replay import replay
    from belote.round import ALL_PASS, DISCARD, OVER, PLAY

    score_hand: dict[str, list[Any]] = {}
    score_game: dict[str, list[Any]] = {}
    records: dict[str, list[Any]] = {}
    solve: list[Any] = []
    for key, profile, options in TABLES:
        hands: list[Any] = []
        recs: list[Any] = []
        for k in range(8):
            rnd, rng = seeded_round(profile, options, f"corpus {key} {k}")
            snap = playout(rnd, rng, snapshot_at=rng.randrange(4, 30))
            if k < 3:
                recs.append(rnd.to_record())
            if snap is not None and k in (3, 4, 5):
                recs.append(snap)
            if rnd.phase == OVER:
                entry = entry_facts(rnd, rnd.result(), rng)
                hands.append(entry)
                if k < 2:
                    hands += _mutations(entry, rng)
        # the first decision of the card play (of the kitty's discard)
        phase = DISCARD if options.get("three_deal") == "kitty" else PLAY
        for k in range(20):
            rnd, rng = seeded_round(profile, options, f"corpus {key} {phase} {k}")
            snap = playout(rnd, rng, snapshot_phase=phase)
            if snap is not None:
                recs.append(snap)
                break
        # corrupted records: two plays swapped, a call nobody may make
        for rec in recs[:3]:
            if len(rec["plays"]) > 10:
                bad = json.loads(json.dumps(rec))
                bad["plays"][5], bad["plays"][9] = bad["plays"][9], bad["plays"][5]
                recs.append(bad)
                break
        bad = json.loads(json.dumps(recs[0]))
        if bad.get("bids"):
            bad["bids"][0] = "bogus"
            recs.append(bad)
        records[key] = recs
        score_hand[key] = hands
        games = []
        for g in range(2):
            rules = table_rules(profile, {**options, "target": 500})
            match = Match(rules, seed=1000 + g)
            rng = random.Random(f"game {key} {g}")
            entries: list[Any] = []
            while not match.finished and match.deals < 60:
                rnd = match.new_round()
                playout(rnd, rng)
                result = rnd.result() if rnd.phase == OVER else None
                match.finish_round()
                if result is not None:
                    entry = entry_facts(rnd, result, rng)
                    for drop in ("profile", "options", "reserve"):
                        entry.pop(drop, None)
                    entries.append(entry)
            games.append({"profile": profile, "options": dict(options), "target": 500,
                          "hands": entries})
        score_game[key] = games
        if profile in ("classic", "coinche", "contree"):
            for k in range(4):
                rnd, rng = seeded_round(profile, options, f"solve {key} {k}")
                playout(rnd, rng)
                if rnd.phase == ALL_PASS:
                    continue
                rec = rnd.to_record()
                cut_at = 32 - rng.choice((8, 10, 12, 13, 15))
                rec["plays"] = rec["plays"][:cut_at]
                solve.append(_solve_input(replay(rec), rec, profile, options))
    return {"score_hand": score_hand, "score_game": score_game, "replay": records,
            "solve": solve}


def _solve_input(answer: dict[str, Any], rec: dict[str, Any], profile: str,
                 options: dict[str, Any]) -> dict[str, Any]:
    played = set(rec["plays"])
    hands = {seat: [c for c in cards if c not in played] for seat, cards in rec["hands"].items()}
    won = {"NS": 0, "EW": 0}
    for trick in answer["tricks"]:
        won["NS" if trick["winner"] in "NS" else "EW"] += 1
    current = answer.get("trick") or {"leader": answer["next"]["seat"], "cards": []}
    return {"profile": profile, "options": dict(options), "trump": answer["contract"]["trump"],
            "hands": hands, "leader": current["leader"], "trick": current["cards"],
            "tricks_won": won}


# --- the pins ---------------------------------------------------------------------------------


def cli_cases(corpus: dict[str, Any]) -> Iterator[tuple[str, list[str], str]]:
    """(name, argv, stdin) of every CLI case built on the corpus."""
    line = "\n".join
    for key, entries in corpus["score_hand"].items():
        for i, entry in enumerate(entries[:6]):
            yield f"score-hand/{key}/{i}", ["score", "hand", "--json"], json.dumps(entry)
        yield (f"score-hand-jsonl/{key}", ["score", "hand", "--jsonl"],
               line(json.dumps(e) for e in entries))
    for key, games in corpus["score_game"].items():
        for i, game in enumerate(games):
            yield f"score-game/{key}/{i}", ["score", "game", "--json"], json.dumps(game)
            half = dict(game, hands=game["hands"][: len(game["hands"]) // 2])
            yield f"score-game/{key}/{i}-half", ["score", "game", "--json"], json.dumps(half)
        late = dict(games[0], hands=[*games[0]["hands"], games[0]["hands"][0]])
        yield f"score-game/{key}/after-end", ["score", "game", "--json"], json.dumps(late)
        yield (f"score-game-jsonl/{key}", ["score", "game", "--jsonl"],
               line(json.dumps(g) for g in games))
    for key, recs in corpus["replay"].items():
        for i, rec in enumerate(recs):
            yield f"replay/{key}/{i}", ["replay", "--json"], json.dumps(rec)
        yield f"replay-jsonl/{key}", ["replay", "--jsonl"], line(json.dumps(r) for r in recs)
    for i, position in enumerate(corpus["solve"]):
        yield f"solve/{i}", ["solve", "--json"], json.dumps(position)
    yield "solve-jsonl", ["solve", "--jsonl"], line(json.dumps(p) for p in corpus["solve"][:4])
    for n in (5, 6, 7):
        yield f"rotation/{n}", ["rotation", str(n), "--json"], ""
    yield "rotation/4", ["rotation", "4", "--json"], ""
    yield "rules", ["rules", "--json"], ""
    # hand-written refusals and docs/json.md's examples
    fixed = [
        ("hand-doc", ["score", "hand", "--json"],
         '{"taker": "NS", "trick_points": {"NS": 92}, "belote": "NS"}'),
        ("hand-doc-contree", ["score", "hand", "--json"],
         '{"profile": "contree", "options": {"unbid_capot_points": 252}, "taker": "NS", '
         '"contract": 120, "capot": "NS"}'),
        ("hand-doc-3p", ["score", "hand", "--json"],
         '{"profile": "classic-3p", "taker": "N", "trick_points": {"N": 100, "E": 31}, '
         '"declarations": {"E": 20}}'),
        ("hand-doc-2p", ["score", "hand", "--json"],
         '{"profile": "classic-2p", "taker": "E", "trick_points": {"E": 70}, '
         '"trick_total": 110}'),
        ("hand-163", ["score", "hand", "--json"], '{"taker": "NS", "trick_points": {"NS": 163}}'),
        ("hand-not-json", ["score", "hand", "--json"], "{not json"),
        ("hand-profile", ["score", "hand", "--json"], '{"profile": "bridge", "taker": "NS"}'),
        ("hand-3p-contract", ["score", "hand", "--json"],
         '{"profile": "classic-3p", "taker": "N", "contract": 80, "trick_points": {"N": 90}}'),
        ("hand-2p-no-taker", ["score", "hand", "--json"],
         '{"profile": "classic-2p", "trick_points": {"N": 90}}'),
        ("game-empty", ["score", "game", "--json"], '{"hands": []}'),
        ("game-not-list", ["score", "game", "--json"], '{"hands": 3}'),
        ("replay-empty", ["replay", "--json"], "{}"),
        ("solve-empty", ["solve", "--json"], "{}"),
    ]
    for name, argv, stdin in fixed:
        yield f"fixed/{name}", argv, stdin


def compute_cli(corpus: dict[str, Any]) -> dict[str, Any]:
    return {name: cli_pin(argv, stdin) for name, argv, stdin in cli_cases(corpus)}


SIM_DEALS = {"random": 300, "heuristic": 100}


def sim_cases() -> Iterator[tuple[str, list[str]]]:
    for key, profile, options in TABLES:
        for bot in ("random", "heuristic"):
            yield (f"simulate/{key}/{bot}",
                   ["simulate", "--bots", bot, "--deals", str(SIM_DEALS[bot]), "--seed", "11",
                    "--profile", profile, *option_args(options), "--json"])
    yield ("simulate/classic/mixed-gathered",
           ["simulate", "--bots", "heuristic,random", "--deals", "40", "--seed", "5",
            "--option", "shuffle_each_deal=false", "--option", "allpass_dealer=same", "--json"])
    yield ("simulate/3p-kitty/mixed",
           ["simulate", "--bots", "heuristic,random,heuristic", "--deals", "30", "--seed", "6",
            "--profile", "classic-3p", "--option", "three_deal=kitty", "--json"])
    yield ("tournament/classic/deals",
           ["tournament", "--bots", "random,heuristic", "--deals", "6", "--seed", "3",
            "--workers", "1", "--json"])
    yield ("tournament/coinche/games",
           ["tournament", "--bots", "random,heuristic", "--games", "1", "--seed", "4",
            "--profile", "coinche", "--option", "target=500", "--workers", "1", "--json"])
    yield ("tournament/3p-24_cards/deals",
           ["tournament", "--bots", "random,heuristic", "--deals", "4", "--seed", "5",
            "--profile", "classic-3p", "--workers", "1", "--json"])
    yield ("tournament/2p-decouverte/deals",
           ["tournament", "--bots", "random,heuristic", "--deals", "4", "--seed", "6",
            "--profile", "classic-2p", "--option", "two_deal=decouverte", "--workers", "1",
            "--json"])


def sim_pin(argv: Sequence[str]) -> dict[str, Any]:
    code, out, err = run_cli(argv)
    value = parse_output(out, False)
    if isinstance(value, dict):
        value.pop("seconds", None)  # the clock
        run = value.get("run")
        if isinstance(run, dict):
            run.pop("seconds", None)
    return {"argv": list(argv), "exit": code, "stdout": fingerprint(value),
            "stdout_sha256": digest(json.dumps(value, ensure_ascii=False)), "stderr": err}


def compute_simulate() -> dict[str, Any]:
    return {name: sim_pin(argv) for name, argv in sim_cases()}


PLAYOUT_DEALS = 500
PLAYOUT_BLOCK = 25  # deals per pinned hash


def compute_playouts() -> dict[str, Any]:
    """Per table: a hash of each block of seeded deals' decisions, results and records
    (deal ``k`` of table ``key`` is dealt and played from the seed ``playout {key} {k}``)."""
    from belote.round import OVER

    pins: dict[str, Any] = {}
    for key, profile, options in TABLES:
        deal_hashes = []
        decisions = all_passes = 0
        first: list[str] = []
        for k in range(PLAYOUT_DEALS):
            rnd, rng = seeded_round(profile, options, f"playout {key} {k}")
            trace: list[str] = [f"dealer {rnd.dealer}"]
            playout(rnd, rng, trace)
            decisions += len(trace) - 1
            if rnd.phase == OVER:
                res = rnd.result()
                trace.append("result " + json.dumps({
                    "score": res.score.to_json(), "seats": res.seats,
                    "trick_points": res.trick_points, "capot": res.capot,
                    "declarations": [res.declarations.winner, res.declarations.points],
                    "belote": [res.belote_team, res.belote_points],
                    "tricks": [[t.leader, list(t.cards), t.winner, t.points]
                               for t in res.tricks],
                    "contract": [res.contract.taker, res.contract.trump, res.contract.value,
                                 res.contract.multiplier],
                }))
            else:
                all_passes += 1
                trace.append("all pass")
            trace.append("record " + json.dumps(rnd.to_record()))
            if k == 0:
                first = trace[:12]
            deal_hashes.append(digest("\n".join(trace)))
        blocks = {
            f"deals {k}-{k + PLAYOUT_BLOCK - 1}":
                digest(" ".join(deal_hashes[k:k + PLAYOUT_BLOCK]))[:16]
            for k in range(0, PLAYOUT_DEALS, PLAYOUT_BLOCK)
        }
        pins[key] = {"deals": PLAYOUT_DEALS, "decisions": decisions, "all_passes": all_passes,
                     "first_deal_start": first, "blocks": blocks,
                     "sha256": digest(" ".join(deal_hashes))}
    return pins


# --- the web rooms ----------------------------------------------------------------------------

# Every table a room seats: the four profiles, coinche with the out-of-turn coinche
# (§4.5 ``coinche_in_turn`` false), each deal of three and of two players (§12).
ROOM_TABLES: list[tuple[str, str, dict[str, Any]]] = [
    ("classic", "classic", {}),
    ("moroccan", "moroccan", {}),
    ("coinche", "coinche", {}),
    ("contree", "contree", {}),
    ("coinche+out_of_turn", "coinche", {"coinche_in_turn": False}),
    ("3p-24_cards", "classic-3p", {"three_deal": "24_cards"}),
    ("3p-kitty", "classic-3p", {"three_deal": "kitty"}),
    ("3p-six_each", "classic-3p", {"three_deal": "six_each"}),
    ("2p-stock", "classic-2p", {"two_deal": "stock"}),
    ("2p-decouverte", "classic-2p", {"two_deal": "decouverte"}),
]
# (seed, target, deals): a few deals at the profile's target, and a game played to its
# end at a low target (at most that many deals).
ROOM_GAMES: list[tuple[int, int | None, int]] = [(1, None, 3), (2, 300, 8)]
ROOM_SHOWN = 3  # moves from "start" whose states are kept readable
ROOM_NAMES = ("Ann", "Bob", "Cy", "Dee")
SPECTATOR = "-"


def room_cases() -> Iterator[tuple[str, str, dict[str, Any], int, int | None, int]]:
    """(case, profile, options, seed, target, deals) of every pinned room game."""
    for key, profile, options in ROOM_TABLES:
        for seed, target, deals in ROOM_GAMES:
            yield f"{key}/{seed}", profile, options, seed, target, deals


def _flat(state: dict[str, Any]) -> dict[str, Any]:
    """A state with its objects opened one level (``deal.hand``), for short diffs."""
    out: dict[str, Any] = {}
    for key, value in state.items():
        if isinstance(value, dict) and value:
            for inner, member in value.items():
                out[f"{key}.{inner}"] = member
        else:
            out[key] = value
    return out


def _changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The keys of ``after`` whose values differ from ``before`` (``#gone``: removed)."""
    out = {k: v for k, v in after.items() if k not in before or before[k] != v}
    out.update({k: "#gone" for k in before if k not in after})
    return out


class RoomGame:
    """A room (:class:`belote.web.rooms.Room`, no driver: nothing moves unless a seat
    acts) whose every seat, and a spectator, is a connection of this test; the
    messages go through the room's own dispatch (``Room.handle``), and every text the
    room pushes to each connection is recorded, as a WebSocket would send it."""

    def __init__(self, profile: str, options: dict[str, Any], seed: int,
                 target: int | None) -> None:
        from belote.options import make_rules
        from belote.web.clients import Client
        from belote.web.driver import Driver
        from belote.web.rooms import Room, RoomSettings

        class Still(Driver):
            def start(self) -> None:  # no bot, no pause: the test moves every seat
                pass

        class Recorder(Client):
            """A connection that keeps every text pushed to it, in order."""

            def __init__(self, identity: str, sink: list[str]) -> None:
                async def send(text: str) -> None:  # pragma: no cover - never pumped
                    pass

                super().__init__(send, identity)
                self.sink = sink

            def push(self, text: str) -> None:
                self.sink.append(text)

            def push_state(self, text: str) -> None:
                self.sink.append(text)

        opts = dict(options) if target is None else {**options, "target": target}
        rules = make_rules(profile, opts)
        settings = RoomSettings(bot_delay=0.0, trick_pause=0.0, deal_pause=60.0, grace=0.0)
        self.room = Room("golden", rules, "random", settings, seed=seed, name="Golden")
        self.room._driver = Still(self.room)
        self.names = [*"NESW"[:rules.players], SPECTATOR]
        self.pushed: dict[str, list[str]] = {who: [] for who in self.names}
        self.clients = {who: Recorder(f"browser {who}", self.pushed[who]) for who in self.names}
        self.latest: dict[str, dict[str, Any]] = {who: {} for who in self.names}

    def send(self, label: str) -> tuple[list[str], list[str]]:
        """Act on a move's label (``N play JH 1 0``: seat, type, arguments); answers
        what was pushed to each connection (``who text``, tokens masked) and the
        errors' messages."""
        who, kind, *args = label.split(" ")
        msg: dict[str, Any] = {"type": kind}
        if kind == "hello":
            msg["invite"] = self.room.invite
        elif kind == "join":
            msg.update(seat=who, name=" ".join(args))
        elif kind == "call":
            msg["call"] = " ".join(args)
        elif kind == "play":
            msg.update(card=args[0], declare=args[1] == "1", belote=args[2] == "1")
        elif kind == "discard":
            msg["cards"] = args
        asyncio.run(self.room.handle(self.clients[who], msg))  # a write is awaited
        pushed: list[str] = []
        errors: list[str] = []
        for name in self.names:
            for text in self.pushed[name]:
                obj = json.loads(text)
                if obj.get("type") == "state":
                    self.latest[name] = obj
                else:
                    if "token" in obj:
                        obj["token"] = "#token"  # a secret, random
                        text = json.dumps(obj, ensure_ascii=False)
                    if obj.get("type") == "error":
                        errors.append(f"{name}: {obj.get('message')}")
                pushed.append(f"{name} {text}")
            self.pushed[name].clear()
        return pushed, errors

    def choose(self, rng: random.Random) -> str:
        """The next move of a game going on, chosen at random over what the seats'
        states offer (now and then a move the room must refuse)."""
        state = self.latest[self.names[0]]
        seats = self.names[:-1]
        if state["between_deals"]:
            return f"{rng.choice(seats)} next"
        deal = state["deal"]
        turn = deal["turn"]
        mine = self.latest[turn]["deal"]
        others = [s for s in seats if s != turn]
        if rng.random() < 0.04:  # a move the room refuses
            other = rng.choice(others)
            wrong = [f"{other} call pass", f"{rng.choice(seats)} next"]
            hand = self.latest[other]["deal"]["hand"] or []
            if hand:
                wrong.append(f"{other} play {rng.choice(hand)} 1 1")
            if mine["phase"] == "play":
                illegal = [c for c in mine["hand"] if c not in mine["legal"]]
                if illegal:
                    wrong += [f"{turn} play {rng.choice(illegal)} 1 1"] * 3
            return rng.choice(wrong)
        if mine["phase"] == "bidding":
            out_of_turn = [s for s in others if self.latest[s]["deal"]["can_coinche"]]
            if out_of_turn and rng.random() < 0.3:
                return f"{rng.choice(out_of_turn)} call coinche"
            calls = mine["legal"]
            call = ("pass" if len(calls) > 3 and "pass" in calls and rng.random() < 0.7
                    else rng.choice(calls))
            return f"{turn} call {call}"
        if mine["phase"] == "discard":
            return f"{turn} discard {' '.join(rng.sample(mine['hand'], 2))}"
        card = rng.choice(mine["legal"])
        return f"{turn} play {card} {int(rng.random() < 0.8)} {int(rng.random() < 0.8)}"


def room_game(case: str, profile: str, options: dict[str, Any], seed: int,
              target: int | None, deals: int, labels: Sequence[str] | None = None
              ) -> dict[str, Any]:
    """One room game: its moves (``labels``, else chosen from ``case``: the seats sit
    down, N starts, then each seat acts on its own state, to the end of the game, whose
    next deal is refused, or of ``deals`` deals), each with a hash of every text pushed
    to every connection and the errors' messages in words; the states after the first
    moves kept readable: at the start the spectator's whole and each seat's differences
    from it, then the spectator's changes and each seat's other changes."""
    game = RoomGame(profile, options, seed, target)
    rng = random.Random(f"room {case}")
    seats = game.names[:-1]
    todo = list(labels) if labels is not None else [
        *(f"{who} {kind}" for who in seats
          for kind in ("hello", f"join {ROOM_NAMES['NESW'.index(who)]}")),
        f"{SPECTATOR} hello", "N start"]
    moves: list[str] = []
    shown: list[dict[str, Any]] = []
    hashes: list[str] = []
    previous: dict[str, dict[str, Any]] = {}
    over = False
    while todo or labels is None:
        if todo:
            label = todo.pop(0)
        else:
            state = game.latest[seats[0]]
            if over or len(moves) > 3000:
                break
            if state["status"] == "finished":
                over = True
                label = f"{rng.choice(seats)} next"
            elif state["between_deals"] and state["deal"]["number"] >= deals:
                break
            else:
                label = game.choose(rng)
        pushed, errors = game.send(label)
        full = digest("\n".join(pushed))
        hashes.append(full)
        moves.append(f"{label}{''.join(f' ! {e}' for e in errors)} #{full[:10]}")
        if (not shown and label.endswith(" start")) or 0 < len(shown) < ROOM_SHOWN:
            flat = {who: _flat(s) for who, s in game.latest.items()}
            if not shown:
                spectator = flat[SPECTATOR]
                shown.append({"move": label, SPECTATOR: spectator, **{
                    who: _changes(spectator, flat[who]) for who in seats}})
            else:
                public = _changes(previous[SPECTATOR], flat[SPECTATOR])
                shown.append({"move": label, SPECTATOR: public, **{
                    who: {k: v for k, v in _changes(previous[who], flat[who]).items()
                          if k not in public or public[k] != v} for who in seats}})
            previous = flat
    end = game.latest[SPECTATOR]
    return {
        "profile": profile, "options": options, "seed": seed, "target": target,
        "deals": end["deal"]["number"] if end.get("deal") else 0,
        "status": end.get("status"), "score": end.get("score"),
        "moves": moves, "shown": shown, "sha256": digest(" ".join(hashes)),
    }


def room_states_at(case: str, move: int) -> dict[str, Any]:
    """Every connection's latest state after move ``move`` (from 0) of the pinned room
    game ``case`` (``"3p-kitty/1"``), played on its stored moves: what a hash covers."""
    labels = stored_room_moves()[case]
    for name, profile, options, seed, target, _deals in room_cases():
        if name == case:
            game = RoomGame(profile, options, seed, target)
            for label in labels[:move + 1]:
                game.send(label)
            return game.latest
    raise KeyError(case)


def stored_room_moves() -> dict[str, list[str]]:
    """The moves of each pinned room game (its inputs): the labels of rooms.json."""
    path = GOLDEN / "rooms.json"
    if not path.exists():
        return {}
    return {case: [m.rsplit(" #", 1)[0].split(" ! ")[0] for m in pin["moves"]]
            for case, pin in load("rooms.json").items()}


def compute_rooms(stored: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """Every room game, on its stored moves (``stored``; a game not there, or all of
    them with ``{}``, chooses its moves afresh from its seed)."""
    moves = stored_room_moves() if stored is None else stored
    return {case: room_game(case, profile, options, seed, target, deals, moves.get(case))
            for case, profile, options, seed, target, deals in room_cases()}


# --- `belote sheet` -------------------------------------------------------------------------

# A scripted session per kind of sheet: (case, the corpus's games it scores (a key of
# corpus.json's score_game), flags of `sheet new` beyond the games' profile and options).
SHEET_SESSIONS: list[tuple[str, str, list[str]]] = [
    ("4p-classic", "classic", ["--target", "500", "--name", "Friday", "--teams", "Us,Them"]),
    ("4p-coinche+generale", "coinche+generale", []),  # no name: the profile and the time
    ("5p-rotation", "classic",
     ["--target", "500", "--players", "5", "--player-names", "Ann,Bob,Cy,Dee,Eve"]),
    ("6p-rotation", "classic+sa_ta", ["--target", "400", "--players", "6", "--name", "Six"]),
    ("7p-rotation", "moroccan",
     ["--target", "500", "--players", "7", "--player-names", "A,B,C,D,E,F,G"]),
    ("3p-24_cards", "3p-24_cards", ["--target", "500", "--player-names", "Ann,Bob,Cy"]),
    ("2p-stock", "2p-stock", ["--target", "500", "--player-names", "Ann,Bob"]),
    ("2p-decouverte", "2p-decouverte", ["--target", "500", "--name", "Découverte"]),
]

SHEET_INLINE = 200  # characters of an answer kept readable (the states are long)

# What varies from run to run: the temporary folder, the clock.
_SHEET_TIMES = [
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?"), "<time>"),
    (re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d"), "<time>"),  # a sheet's default name
]


def sheet_hands(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hands a session adds: the first game's; a short game's followed by the
    other's (the sheet then plays on past the first game's end, on its target)."""
    hands = list(games[0]["hands"])
    return hands if len(hands) >= 5 else hands + list(games[1]["hands"])


def sheet_script(games: list[dict[str, Any]], flags: list[str]
                 ) -> Iterator[tuple[str, list[str], str]]:
    """(step, argv after ``sheet``, stdin) of one session, ``{db}`` and ``{tmp}`` to be
    filled in: the sheet is created, its hands added (one by one, by lines with a
    refused one among them, from a file), added past the game's end, undone, edited,
    shown, listed, exported (JSON, CSV, to a file), imported (its export, and the
    second game as a ``score game`` input) and deleted; with refusals on the way (a
    hand past the game's end among them, when the game is over)."""
    game, other = games[0], games[1]
    hands = [json.dumps(h) for h in sheet_hands(games)]
    db = ["--db", "{db}"]
    line = "\n".join
    new = ["new", "--profile", game["profile"], *option_args(game["options"]), *flags]
    yield "new-refused", [*new, "--target", "0", "--json", *db], ""
    yield "new", [*new, "--json", *db], ""
    yield "add-1", ["add", "1", "--json", *db], hands[0]
    bad = json.loads(hands[0])
    bad["surprise"] = 1
    yield "add-jsonl", ["add", "1", "--jsonl", *db], line([*hands[1:3], json.dumps(bad)])
    yield "add-jsonl-rest", ["add", "1", "--jsonl", *db], line(hands[3:-1])
    yield "add-file", ["add", "1", "--json", "--file", "{tmp}/last.json", *db], ""
    yield "add-one-more", ["add", "1", "--json", *db], json.dumps(other["hands"][0])
    yield "undo", ["undo", "1", "--json", *db], ""
    yield "edit-1", ["edit", "1", "1", "--json", *db], hands[-1]
    yield "edit-refused", ["edit", "1", "99", "--json", *db], hands[0]
    yield "edit-not-a-number", ["edit", "1", "x", "--json", *db], hands[0]
    yield "add-again", ["add", "1", "--json", *db], hands[-1]
    yield "show", ["show", "1", "--json", *db], ""
    yield "show-missing", ["show", "9", "--json", *db], ""
    yield "export-json", ["export", "1", *db], ""
    yield "export-csv", ["export", "1", "--format", "csv", *db], ""
    yield "export-out", ["export", "1", "--out", "{tmp}/sheet.json", "--json", *db], ""
    yield "import-export", ["import", "{tmp}/sheet.json", "--json", *db], ""
    yield "import-score-game", ["import", "-", "--json", *db], json.dumps(other)
    yield "import-refused", ["import", "-", "--json", *db], '{"format": "belote-sheet"}'
    yield "list", ["list", "--json", *db], ""
    yield "delete", ["delete", "2", "--json", *db], ""
    yield "delete-purge", ["delete", "3", "--purge", "--json", *db], ""
    yield "list-after", ["list", "--json", *db], ""


def sheet_session(key: str, flags: list[str], corpus: dict[str, Any]) -> dict[str, Any]:
    """Each step of one session against a fresh database: argv, exit status, stdout
    (a fingerprint, and the sha256 of its text), stderr; the folder and the clock
    masked (``<tmp>``, ``<time>``)."""
    import tempfile

    games = corpus["score_game"][key]
    steps: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        tmp = str(Path(folder).resolve())

        def mask(text: str) -> str:
            text = text.replace(tmp, "<tmp>")
            for pattern, word in _SHEET_TIMES:
                text = pattern.sub(word, text)
            return text

        (Path(tmp) / "last.json").write_text(json.dumps(sheet_hands(games)[-1]),
                                             encoding="utf-8")
        for step, args, stdin in sheet_script(games, flags):
            argv = ["sheet", *(a.format(db=f"{tmp}/sheets.db", tmp=tmp) for a in args)]
            code, out, err = run_cli(argv, stdin)
            out, err = mask(out), mask(err)
            pin: dict[str, Any] = {
                "argv": mask(" ".join(argv)), "exit": code,
                "stdout": fingerprint(parse_output(out, "--jsonl" in argv or "csv" in argv),
                                      SHEET_INLINE),
                "stdout_sha256": digest(out), "stderr": err}
            if step == "export-out":
                text = mask((Path(tmp) / "sheet.json").read_text(encoding="utf-8"))
                pin["file"] = fingerprint(json.loads(text), SHEET_INLINE)
                pin["file_sha256"] = digest(text)
            steps[step] = pin
    return steps


def compute_sheets() -> dict[str, Any]:
    corpus = load("corpus.json")
    return {case: sheet_session(key, flags, corpus) for case, key, flags in SHEET_SESSIONS}


# --- import cycles ----------------------------------------------------------------------------


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_edges() -> dict[str, dict[str, set[str]]]:
    """Per kind (``module``: run when the module is imported, ``type_checking``: under
    ``if TYPE_CHECKING``, ``function``: inside a function), each module's imports of
    other ``belote`` modules.  ``from P import X`` counts as importing ``P.X`` when that
    is a module, else ``P``."""
    modules = {_module_name(p): p for p in SRC.rglob("*.py")}
    edges: dict[str, dict[str, set[str]]] = {
        kind: {m: set() for m in modules} for kind in ("module", "type_checking", "function")}

    def targets(node: ast.Import | ast.ImportFrom, here: str) -> list[str]:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
            return [max((m for m in modules if n == m or n.startswith(m + ".")), key=len,
                        default="") for n in names]
        base = node.module or ""
        if node.level:
            package = here if modules[here].name == "__init__.py" else here.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{base}" if base else package
        found = []
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            found.append(sub if sub in modules else base)
        return found

    def walk(node: ast.AST, here: str, kind: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                for target in targets(child, here):
                    if target in modules and target != here:
                        edges[kind][here].add(target)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                walk(child, here, "function")
            elif isinstance(child, ast.If) and _is_type_checking(child.test) and kind == "module":
                for stmt in child.body:
                    walk(ast.Module(body=[stmt], type_ignores=[]), here, "type_checking")
                for stmt in child.orelse:
                    walk(ast.Module(body=[stmt], type_ignores=[]), here, kind)
            else:
                walk(child, here, kind)

    for name, path in modules.items():
        walk(ast.parse(path.read_text(encoding="utf-8")), name, "module")
    return edges


def simple_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every elementary cycle, each starting at its smallest module, sorted."""
    order = sorted(graph)
    cycles: list[list[str]] = []
    for start in order:
        stack: list[tuple[str, list[str]]] = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph[node]):
                if nxt == start:
                    cycles.append(path)
                elif nxt > start and nxt not in path:
                    stack.append((nxt, [*path, nxt]))
            if len(cycles) > 20000:
                raise RuntimeError("too many import cycles to list")
    return sorted(cycles, key=lambda c: (len(c), c))


def compute_cycles() -> dict[str, Any]:
    edges = import_edges()
    module = edges["module"]
    runtime = {m: module[m] | edges["function"][m] for m in module}
    every = {m: runtime[m] | edges["type_checking"][m] for m in module}
    return {
        "module_level": [" -> ".join(c) for c in simple_cycles(module)],
        "with_function_level": [" -> ".join(c) for c in simple_cycles(runtime)],
        "with_type_checking": [" -> ".join(c) for c in simple_cycles(every)],
    }


def compute_perft() -> dict[str, Any]:
    return {"tests/data/perft_endgames.txt": digest(PERFT_FILE.read_text(encoding="utf-8"))}


COMPUTE: dict[str, Callable[[], Any]] = {
    "cli.json": lambda: compute_cli(load("corpus.json")),
    "simulate.json": compute_simulate,
    "playouts.json": compute_playouts,
    "import_cycles.json": compute_cycles,
    "perft.json": compute_perft,
    "rooms.json": compute_rooms,  # on the stored moves
    "sheets.json": compute_sheets,
}

# The pins whose inputs are stored in them, computed with fresh inputs (``--corpus``).
REBUILD: dict[str, Callable[[], Any]] = {
    "rooms.json": lambda: compute_rooms({}),  # the moves chosen again from the seeds
}


# --- the tests -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "family", ["score-hand", "score-game", "replay", "solve", "rotation", "rules", "fixed"])
def test_cli_json_faces(family: str) -> None:
    corpus = load("corpus.json")
    expected = {k: v for k, v in load("cli.json").items() if k.split("/")[0].startswith(family)}
    actual = {name: cli_pin(argv, stdin) for name, argv, stdin in cli_cases(corpus)
              if name.split("/")[0].startswith(family)}
    assert expected, f"no golden case of {family}"
    assert_same(f"`belote {family}`", expected, actual)


@pytest.mark.parametrize("engine", ["pure", "compiled"])
def test_solve_with_each_solver_engine(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both builds of the search answer what the golden file holds (nodes included)."""
    from belote import solver

    if engine == "compiled" and solver._load_compiled() is None:
        pytest.skip("belote._dds_c is not compiled here")
    monkeypatch.setenv("BELOTE_SOLVER", engine)
    corpus = load("corpus.json")
    expected = {k: v for k, v in load("cli.json").items() if k.startswith("solve")}
    actual = {name: cli_pin(argv, stdin) for name, argv, stdin in cli_cases(corpus)
              if name.startswith("solve")}
    assert_same(f"`belote solve` ({engine} solver)", expected, actual)


def test_simulate_and_tournament() -> None:
    assert_same("simulate/tournament", load("simulate.json"), compute_simulate())


def test_random_playouts() -> None:
    assert_same("playout", load("playouts.json"), compute_playouts())


@pytest.mark.parametrize("table", [key for key, _profile, _options in ROOM_TABLES])
def test_web_room_states(table: str) -> None:
    """Every seat's and a spectator's state after every move of seeded room games
    (the stored moves played again) is what it was."""
    moves = stored_room_moves()
    expected = {k: v for k, v in load("rooms.json").items() if k.split("/")[0] == table}
    actual = {case: room_game(case, profile, options, seed, target, deals, moves.get(case))
              for case, profile, options, seed, target, deals in room_cases()
              if case.split("/")[0] == table}
    assert expected, f"no golden room game of {table}"
    assert_same(f"room {table}", expected, actual)


@pytest.mark.parametrize("session", [case for case, _key, _flags in SHEET_SESSIONS])
def test_sheet_sessions(session: str) -> None:
    """``belote sheet ... --json`` answers each step of a scripted session as it did."""
    corpus = load("corpus.json")
    expected = {k: v for k, v in load("sheets.json").items() if k == session}
    actual = {case: sheet_session(key, flags, corpus)
              for case, key, flags in SHEET_SESSIONS if case == session}
    assert expected, f"no golden sheet session {session}"
    assert_same("`belote sheet`", expected, actual)


def test_perft_counts_file_unchanged() -> None:
    """The perft counts themselves are checked by test_perft.py; they must not move."""
    assert_same("perft file", load("perft.json"), compute_perft())


def test_no_import_cycle() -> None:
    """Issue 11: no module of src/belote imports another that imports it back, directly or
    through others, not even inside a function or under ``TYPE_CHECKING`` (the pin
    import_cycles.json is empty and stays so)."""
    now = compute_cycles()
    assert now == load("import_cycles.json")
    found = [f"{kind}: {cycle}" for kind, cycles in now.items() for cycle in cycles]
    assert not found, "import cycle(s) among src/belote modules:\n  " + "\n  ".join(found)
