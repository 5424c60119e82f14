"""Perft: the number of legal play sequences from fixed endgame positions (docs/rules.md §6).

tests/data/perft_endgames.txt holds, in the manner of python-chess perft files, the
last 2-4 tricks of random classic deals under chosen §6 options (each option with two
values on the same position where they give different counts), and SA/TA positions
(§6.1, §6.4).  The counts were computed by the reference engine
(``python -m tests.reference.generate perft``); both the reference and the fast
engine (``belote.play.PlayState`` push/pop recursion) must reproduce them.  On a
mismatch the test prints a per-card "divide" of both engines.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from belote.options import Rules, make_rules
from belote.play import PlayState
from tests.reference.engine import DECK, SEATS, TRUMP_MODES, ref_count_sequences, ref_divide

PERFT_FILE = Path(__file__).parent / "data" / "perft_endgames.txt"


@dataclass
class PerftCase:
    ident: str
    options: dict[str, object]
    trump: str
    hands: dict[str, list[str]]
    leader: str
    trick: list[str]
    counts: list[tuple[int, int]]  # (depth, nodes)

    @property
    def rules(self) -> Rules:
        return make_rules("classic", self.options)


def _option_value(text: str) -> object:
    return {"true": True, "false": False}.get(text, text)


def load_cases(path: Path = PERFT_FILE) -> list[PerftCase]:
    cases: list[PerftCase] = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [ln for ln in block.splitlines() if ln and not ln.startswith("#")]
        if not lines:
            continue
        fields: dict[str, str] = {}
        counts: list[tuple[int, int]] = []
        for line in lines:
            key, _, rest = line.partition(" ")
            if key == "perft":
                depth, nodes = rest.split()
                counts.append((int(depth), int(nodes)))
            else:
                fields[key] = rest
        options: dict[str, object] = {}
        for item in fields["options"].split(", "):
            if item:
                name, _, value = item.partition("=")
                options[name] = _option_value(value)
        hands = {}
        for part in fields["hands"].split():
            seat, _, cards = part.partition(":")
            hands[seat] = [] if cards == "-" else cards.split(",")
        trick = [] if fields["trick"] == "-" else fields["trick"].split()
        cases.append(PerftCase(fields["id"], options, fields["trump"], hands,
                               fields["leader"], trick, counts))
    return cases


CASES = load_cases()


def fast_position(case: PerftCase) -> PlayState:
    """The position in the fast engine: the trick's cards go back to their seats and are
    pushed again from the leader."""
    masks = [sum(1 << DECK.index(c) for c in case.hands[s]) for s in SEATS]
    lead = SEATS.index(case.leader)
    for i, card in enumerate(case.trick):
        masks[(lead + i) % 4] |= 1 << DECK.index(card)
    state = PlayState(case.rules, TRUMP_MODES.index(case.trump), masks, lead)
    for card in case.trick:
        state.push(DECK.index(card))
    return state


def fast_perft(state: PlayState, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for card in state.legal_cards():
        state.push(card)
        total += fast_perft(state, depth - 1)
        state.pop()
    return total


def fast_divide(state: PlayState, depth: int) -> dict[str, int]:
    result = {}
    for card in state.legal_cards():
        state.push(card)
        result[DECK[card]] = fast_perft(state, depth - 1)
        state.pop()
    return result


def test_perft_file_covers_every_option() -> None:
    """Every §6 option appears with each of its values, and SA and TA positions exist."""
    seen = {(k, v) for case in CASES for k, v in case.options.items()}
    for name in ("overtrump_partner_on_trump_lead", "partner_master_exemption",
                 "must_undertrump"):
        assert (name, True) in seen and (name, False) in seen, name
    for value in ("allowed", "only_if_only_trumps", "must_overtrump_if_only_trumps"):
        assert ("undertrump_partner", value) in seen, value
    assert {case.trump for case in CASES} >= {"SA", "TA"}
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[c.ident for c in CASES])
def test_perft_reference(case: PerftCase) -> None:
    """The reference engine reproduces the recorded counts."""
    for depth, nodes in case.counts:
        got = ref_count_sequences(case.rules, case.trump, case.hands, case.leader, case.trick,
                                  depth)
        assert got == nodes, f"{case.ident} perft {depth}: reference {got}, file {nodes}"


@pytest.mark.parametrize("case", CASES, ids=[c.ident for c in CASES])
def test_perft_fast_engine(case: PerftCase) -> None:
    """PlayState push/pop recursion gives the recorded counts; on a mismatch, a divide."""
    for depth, nodes in case.counts:
        got = fast_perft(fast_position(case), depth)
        if got != nodes:
            fast = fast_divide(fast_position(case), depth)
            ref = ref_divide(case.rules, case.trump, case.hands, case.leader, case.trick, depth)
            lines = [f"  {card}: fast {fast.get(card)} ref {ref.get(card)}"
                     for card in sorted(set(fast) | set(ref), key=DECK.index)
                     if fast.get(card) != ref.get(card)]
            pytest.fail(f"{case.ident} perft {depth}: fast {got}, file {nodes}; divide:\n"
                        + "\n".join(lines))
