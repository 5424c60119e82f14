"""Small builders shared by the tests."""

from __future__ import annotations

import importlib.util
import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from belote.bots.base import Bot, next_action
from belote.bots.heuristic import HeuristicBot
from belote.bots.knowledge import World
from belote.bots.pimc import PimcBot
from belote.cards import Card, mask_of, parse_card, parse_trump
from belote.deal import new_deck
from belote.options import Rules, make_rules
from belote.play import PlayState
from belote.round import BIDDING, DISCARD, PlayerView, Round

# Every table setup: take or pass, the three auctions, three players in each deal (24
# cards, the kitty, six each), two with the stock and in découverte. The first four are
# the four-player profiles and découverte comes last (tests slice the list so).
EVERY_TABLE: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("moroccan", {}),
    ("coinche", {}),
    ("contree", {}),
    ("classic-3p", {}),
    ("classic-3p", {"three_deal": "kitty"}),
    ("classic-3p", {"three_deal": "six_each"}),
    ("classic-2p", {"two_deal": "stock"}),
    ("classic-2p", {"two_deal": "decouverte"}),
]
EVERY_TABLE_IDS = [p + "".join(f"-{v}" for v in o.values()) for p, o in EVERY_TABLE]


def mask(text: str) -> int:
    """``"JH 9H AS"`` → the card mask."""
    return mask_of(parse_card(t) for t in text.split())


def names(m: int) -> str:
    from belote.cards import mask_names

    return " ".join(mask_names(m))


def position(
    hands: tuple[str, str, str, str],
    trump: str,
    leader: int = 0,
    played: str = "",
    rules: Rules | None = None,
    **options: Any,
) -> PlayState:
    """A play position: hands N E S W (remaining cards), ``played`` cards of the
    current trick from ``leader`` (they are added to the hands, then pushed)."""
    r = rules or make_rules("classic", options)
    cards = [parse_card(t) for t in played.split()]
    hs = [mask(h) for h in hands]
    for i, c in enumerate(cards):
        hs[(leader + i) % 4] |= 1 << c
    state = PlayState(r, parse_trump(trump), hs, leader)
    for c in cards:
        state.push(c)
    return state


def answers_until_killed(proc: subprocess.Popen[str], rng: random.Random,
                         first_round: bool) -> list[dict[str, Any]]:
    """Kill ``proc`` (SIGKILL) at a random moment and return the JSON lines it answered.

    In the first round the kill comes after a random pause, possibly before any
    answer; later it comes after 1-40 answers were read.  A line cut by the kill
    ends the list.  The process must not have ended on its own."""
    assert proc.stdout is not None
    answered: list[dict[str, Any]] = []
    if first_round:
        time.sleep(rng.uniform(0.0, 0.4))
    else:
        wanted = rng.randint(1, 40)
        while len(answered) < wanted:
            line = proc.stdout.readline()
            if not line:
                break
            answered.append(json.loads(line))
        time.sleep(rng.uniform(0.0, 0.02))
    proc.send_signal(signal.SIGKILL)
    rest, _ = proc.communicate(timeout=30)
    for line in rest.splitlines():
        try:
            answered.append(json.loads(line))
        except json.JSONDecodeError:  # a line cut by the kill
            break
    assert proc.returncode == -signal.SIGKILL, "the adder ended before it was killed"
    return answered


def killed_adder_rounds(tmp_path: Path, db: Path, sheet_id: int, rng: random.Random,
                        random_hand: Callable[[random.Random], dict[str, Any]],
                        stored_hands: Callable[[Path, int], list[str]],
                        canonical: Callable[[dict[str, Any]], str],
                        check_answer: Callable[[dict[str, Any]], None] | None = None,
                        rounds: int = 5) -> list[str]:
    """``rounds`` times, a `belote sheet add --jsonl` process adds 400 random hands to
    the sheet and is killed (SIGKILL) at a random moment (:func:`answers_until_killed`).

    After each kill: no answer is an error (and each passes ``check_answer``); every
    answered hand is on disk (a hand committed but not yet answered may be too); the
    hands stored before are unchanged; the new ones are the file's first hands, in
    order, as ``canonical`` writes them.  Returns the sheet's hands at the end (as
    ``stored_hands`` reads them: it also checks that the sheet opens and scores)."""
    known: list[str] = []  # the hands on disk after the previous round
    for round_number in range(rounds):
        hands = [random_hand(rng) for _ in range(400)]
        lines = tmp_path / f"round{round_number}.jsonl"
        lines.write_text("".join(json.dumps(h) + "\n" for h in hands))
        proc = subprocess.Popen(
            [sys.executable, "-m", "belote", "sheet", "add", str(sheet_id), "--jsonl",
             "--file", str(lines), "--db", str(db)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        answered = answers_until_killed(proc, rng, first_round=round_number == 0)
        for answer in answered:
            assert "error" not in answer, answer
            if check_answer is not None:
                check_answer(answer)
        stored = stored_hands(db, sheet_id)
        added = len(stored) - len(known)
        assert added >= len(answered)
        if answered:
            assert len(answered[-1]["hands"]) == len(known) + len(answered)
        assert stored[: len(known)] == known
        assert stored[len(known):] == [canonical(h) for h in hands[:added]]
        known = stored
    return known


def add_batches_at_once(db: Path, sheet_id: int, batches: list[list[dict[str, Any]]]) -> None:
    """One `belote sheet add --jsonl` process a batch, all adding to one sheet at once.

    The processes start up, then get their hands at the same moment; each must
    answer every hand without an error."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "belote", "sheet", "add", str(sheet_id), "--jsonl",
             "--db", str(db)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in batches
    ]
    texts = ["".join(json.dumps(h) + "\n" for h in batch) for batch in batches]
    for proc, text in zip(procs, texts, strict=True):
        assert proc.stdin is not None
        proc.stdin.write(text)
        proc.stdin.flush()
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.stdin = None  # communicate() below only reads
    for proc, batch in zip(procs, batches, strict=True):
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        answers = [json.loads(line) for line in out.splitlines()]
        assert len(answers) == len(batch) and all("error" not in a for a in answers)


def shuffled_rounds(profile: str, options: dict[str, Any], deals: int, seed: int
                    ) -> Iterator[Round]:
    """``deals`` shuffled deals of the profile (with ``options``) from one generator
    seeded ``seed``, the deal passing round the table."""
    rules = make_rules(profile, options)
    rng = random.Random(seed)
    for d in range(deals):
        deck = new_deck(rules.players, rules.three_deal)
        rng.shuffle(deck)
        yield Round(rules, d % rules.players, deck)


class RecordingHeuristic(HeuristicBot):
    """The heuristic, keeping in ``log`` every card-play view it is asked with and the
    card it chose."""

    def __init__(self, seed: int, log: list[tuple[PlayerView, Card]]) -> None:
        super().__init__(seed)
        self.log = log

    def play(self, view: PlayerView) -> int:
        card = super().play(view)
        self.log.append((view, card))
        return card


def bid_to_play(rnd: Round, bots: Sequence[Bot]) -> None:
    """The bots (one a seat) call, and the kitty's taker discards, each through
    :func:`belote.bots.base.next_action` and ``Round.apply`` as every driver does, until
    the card play or the end of the deal (everybody passed)."""
    while rnd.phase is BIDDING or rnd.phase is DISCARD:
        seat = rnd.current_player()
        rnd.apply(next_action(bots[seat], rnd.view(seat)))


# --- the real deal behind a seat's view (the bots' tests at two and three players) ---

def world_behind(rnd: Round, seat: int) -> World:
    """The real world behind a seat's view: every hand now and the cards out of play."""
    assert rnd._play is not None
    hands = tuple(rnd._play.state.hands)
    if rnd.mode == "decouverte":
        beneath = {c: u for c, u in rnd._play.beneath.items()
                   if any(h >> c & 1 for h in hands) or c in rnd._play.state.trick}
        covering = tuple(
            mask_of(c for c in beneath if (hands[s] | trick_cards_of(rnd, s)) >> c & 1)
            for s in range(2)
        )
        return World(hands, mask_of(beneath.values()), beneath, covering)
    view = rnd.view(seat)
    used = view.public | view.discards | played_by_round(rnd)  # the taker knows his (§12.1)
    for h in hands:
        used |= h
    deck = mask_of(new_deck(rnd.players, rnd.rules.three_deal))
    return World(hands, deck & ~used)


def trick_cards_of(rnd: Round, seat: int) -> int:
    """The cards ``seat`` has played to the trick in progress."""
    assert rnd._play is not None
    st = rnd._play.state
    return mask_of(c for i, c in enumerate(st.trick) if (st.leader + i) % rnd.players == seat)


def played_by_round(rnd: Round) -> int:
    """Every card played so far in the deal (the tricks and the trick in progress)."""
    assert rnd._play is not None
    m = 0
    for t in rnd._play.state.tricks:
        m |= mask_of(t.cards)
    return m | mask_of(rnd._play.state.trick)


def worlds_solved(bot: PimcBot, view: PlayerView, monkeypatch: pytest.MonkeyPatch
                  ) -> list[World]:
    """The worlds ``bot`` solves to choose its card at ``view`` (each world it adds up)."""
    solved: list[World] = []
    original = PimcBot._add

    def spy(totals: dict[Card, float], world: World, *rest: Any) -> None:
        solved.append(world)
        original(totals, world, *rest)

    monkeypatch.setattr(PimcBot, "_add", staticmethod(spy))
    bot.play(view)
    monkeypatch.setattr(PimcBot, "_add", staticmethod(original))
    return solved


BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/NAME.py`` loaded afresh as the module ``name``, and put in
    ``sys.modules`` under that name (a dataclass looks its module up there)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
