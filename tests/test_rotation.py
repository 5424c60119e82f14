"""Fair rotations for 5, 6 or 7 players (docs/rules.md §13) and `belote rotation` (docs/json.md)."""

from __future__ import annotations

import doctest
import itertools
import json
import math
import re
from collections.abc import Sequence

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from belote import rotation
from belote.cli import rotation as rotation_cli
from belote.errors import InvalidRecordError, OptionError
from belote.rotation import (
    Seating,
    check_cycle,
    cycle_ends,
    dealer_for,
    fair_cycle,
    individual_totals,
    max_rest,
    minimal_length,
    seated,
    seating_for,
    targets,
    to_json,
)

SIZES = (5, 6, 7)
# docs/rules.md §13.2: "minimal L = 5, 15, 21 (partners 1/2/2, opponents 2/4/4, sit-outs 1/5/9)".
RULES_13_2 = {5: (5, 1, 2, 1), 6: (15, 2, 4, 5), 7: (21, 2, 4, 9)}


def kinds(problems: Sequence[str]) -> set[str]:
    """The guarantees named by the problems ("G1".."G4"), "form" for the others."""
    return {p[:2] if p[:2] in ("G1", "G2", "G3", "G4") else "form" for p in problems}


def straight_rest(cycle: Sequence[Seating], player: int) -> int:
    """The player's longest rest, not counting the wrap."""
    flags = [player in s.out for s in cycle]
    return max((len(list(g)) for k, g in itertools.groupby(flags) if k), default=0)


def resplit(seating: Seating) -> Seating:
    """The same four players in the next of their three partnerships."""
    a, b, c, d = seated(seating)
    splits = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]
    now = splits.index(seating.teams)
    team_a, team_b = splits[(now + 1) % 3]
    return Seating.of(team_a, team_b, seating.out)


# --- the cycles (§13.2) ------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_fair_cycle_holds_g1_to_g4_with_the_length_of_13_2(n: int) -> None:
    """§13.2: G1–G4 hold (the checker finds nothing) and L = 5, 15, 21."""
    cycle = fair_cycle(n)
    assert check_cycle(n, cycle) == []
    length, partners, opponents, sit_outs = RULES_13_2[n]
    assert len(cycle) == minimal_length(n) == length
    assert targets(n) == rotation.Targets(length, sit_outs, partners, opponents)
    # Recounted here from the hands alone, independently of tally() and check_cycle().
    out_counts = dict.fromkeys(range(1, n + 1), 0)
    together: dict[tuple[int, int], list[int]] = {
        pair: [0, 0] for pair in itertools.combinations(range(1, n + 1), 2)
    }
    for seating in cycle:
        (a, b), (c, d) = seating.teams
        assert sorted([a, b, c, d, *seating.out]) == list(range(1, n + 1))
        for p in seating.out:
            out_counts[p] += 1
        assert max(out_counts.values()) - min(out_counts.values()) <= 1  # G2
        for x, y in ((a, b), (c, d)):
            together[min(x, y), max(x, y)][0] += 1
        for x, y in itertools.product((a, b), (c, d)):
            together[min(x, y), max(x, y)][1] += 1
    assert set(out_counts.values()) == {sit_outs}  # G1
    assert set(map(tuple, together.values())) == {(partners, opponents)}  # G3
    twice = cycle * 2  # G4, cyclically: no run longer than the limit in the cycle played twice
    for p in range(1, n + 1):
        assert straight_rest(twice, p) <= max_rest(n) == (2 if n == 7 else 1)


@pytest.mark.parametrize("n", SIZES)
def test_no_shorter_length_is_whole_13_2(n: int) -> None:
    """§13.2 "Integrality gives minimal L": below L, G1's L(n-4)/n or G3's 2L/C(n,2)
    is not a whole number, so no shorter cycle can be fair."""
    length = RULES_13_2[n][0]
    pairs = math.comb(n, 2)
    for shorter in range(1, length):
        assert shorter * (n - 4) % n != 0 or 2 * shorter % pairs != 0
        assert targets(n, shorter) is None
    assert length * (n - 4) % n == 0 and 2 * length % pairs == 0 and 4 * length % pairs == 0


def test_no_cycle_of_five_players_shorter_than_5_meets_g1_to_g3() -> None:
    """§13.2 for 5 players, by exhaustion: every sequence of 1 to 4 hands breaks G1 or G3.

    G1 and G3 count hands regardless of their order, so every multiset of the
    15 possible seatings (5 sitters × 3 partnerships) stands for all its orders.
    """
    players = range(1, 6)
    hands = []
    for sitter in players:
        a, b, c, d = (p for p in players if p != sitter)
        for team_a, team_b in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
            hands.append(Seating.of(team_a, team_b, (sitter,)))
    assert len(set(hands)) == 15
    tried = 0
    for length in range(1, 5):
        for cycle in itertools.combinations_with_replacement(hands, length):
            assert kinds(check_cycle(5, cycle)) & {"G1", "G3"}, cycle
            tried += 1
    assert tried == 15 + 120 + 680 + 3060


@pytest.mark.parametrize("n", SIZES)
def test_fair_cycle_is_deterministic_and_cached(n: int) -> None:
    """The same cycle every call: cached, and found again identically by a fresh search."""
    first = fair_cycle(n)
    assert fair_cycle(n) is first
    rotation._fair_cycle.cache_clear()
    again = fair_cycle(n)
    assert again == first and again is not first


@pytest.mark.parametrize("n", SIZES)
def test_repeated_cycle_stays_fair_13_2(n: int) -> None:
    """§13.2 "Compare standings at cycle ends": play the cycle round and round and
    G1–G4 (G2 after every hand, G4 across each wrap) still hold."""
    assert check_cycle(n, fair_cycle(n) * 3) == []


@pytest.mark.parametrize("bad", [4, 8, 0, -5, 3, "5", 5.0, True, None])
def test_fair_cycle_refuses_other_table_sizes(bad: object) -> None:
    """§13 covers five to seven players only."""
    expected = r"must be 5, 6 or 7 .*got " + re.escape(repr(bad))
    with pytest.raises(OptionError, match=expected):
        fair_cycle(bad)  # type: ignore[arg-type]
    assert issubclass(OptionError, ValueError)


def test_module_doctests() -> None:
    result = doctest.testmod(rotation)
    assert result.attempted > 10 and result.failed == 0


# --- the checker catches every broken guarantee ---------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_checker_reports_a_changed_partnership_as_g3(n: int) -> None:
    """§13.2 G3: the same four players, partnered differently in one hand, break
    only G3, naming the pairs whose counts moved."""
    cycle = list(fair_cycle(n))
    before = cycle[0]
    cycle[0] = resplit(before)
    problems = check_cycle(n, cycle)
    assert problems and kinds(problems) == {"G3"}
    a, b = before.teams[0]
    partners = f"players {a} and {b} are partners {RULES_13_2[n][1] - 1} times"
    opponents = f"players {a} and {b} are opponents {RULES_13_2[n][2] + 1} times"
    assert any(p.startswith(f"G3: {partners}") for p in problems), problems
    assert any(p.startswith(f"G3: {opponents}") for p in problems), problems


@pytest.mark.parametrize("n", SIZES)
def test_checker_reports_unequal_sit_outs_as_g1_and_g2(n: int) -> None:
    """§13.2 G1 and G2: in the last hand a sitter takes a seated player's place."""
    cycle = list(fair_cycle(n))
    last = cycle[-1]
    sitter, player = last.out[0], last.teams[0][0]
    team_a = (sitter if p == player else p for p in last.teams[0])
    out = (player if p == sitter else p for p in last.out)
    cycle[-1] = Seating.of(team_a, last.teams[1], out)
    problems = check_cycle(n, cycle)
    share = RULES_13_2[n][3]
    assert f"G1: player {sitter} sits out {share - 1} times, not {share}" in problems
    assert f"G1: player {player} sits out {share + 1} times, not {share}" in problems
    assert any(p.startswith(f"G2: after hand {len(cycle)} ") for p in problems), problems
    assert "G3" in kinds(problems)


@pytest.mark.parametrize("n", [6, 7])
def test_checker_reports_an_unbalanced_order_as_g2(n: int) -> None:
    """§13.2 G2: the same hands ordered by who sits out (player 1's rests first)
    keep G1 and G3 but not the balance after every hand."""
    cycle = sorted(fair_cycle(n), key=lambda s: s.out)
    problems = check_cycle(n, cycle)
    assert "G2" in kinds(problems)
    assert not kinds(problems) & {"G1", "G3", "form"}


@pytest.mark.parametrize("n", SIZES)
def test_checker_reports_a_long_rest_as_g4(n: int) -> None:
    """§13.2 G4: one hand played twice in a row makes its sitters rest too long
    (with 7 players a third time in a row)."""
    cycle = list(fair_cycle(n))
    repeats = max_rest(n) + 1
    cycle[1:repeats] = [cycle[0]] * (repeats - 1)
    problems = check_cycle(n, cycle)
    for p in cycle[0].out:
        assert any(
            q.startswith(f"G4: player {p} sits out ") and q.endswith(f"(at most {max_rest(n)})")
            for q in problems
        ), problems


@pytest.mark.parametrize("n", SIZES)
def test_checker_counts_a_rest_across_the_wrap_as_g4(n: int) -> None:
    """§13.2 G4 "cyclically": after the first hand is played again at the end of the
    cycle (twice with 7 players), a sitter of that hand rests too long only when
    the end of the cycle is joined to its start."""
    fair = fair_cycle(n)
    cycle = [*fair, *[fair[0]] * max_rest(n)]
    problems = check_cycle(n, cycle)
    wrapped = [
        p for p in fair[0].out
        if p not in fair[1].out and p not in fair[-1].out
        and straight_rest(cycle, p) <= max_rest(n)
    ]
    assert wrapped
    for p in wrapped:
        assert (
            f"G4: player {p} sits out {max_rest(n) + 1} hands in a row (at most {max_rest(n)})"
            in problems
        )


def test_checker_reports_only_g4_when_the_wrap_alone_is_broken() -> None:
    """§13.2 with 6 players: G2 makes every 3 hands a round where each player sits
    out once, so reordering the last round keeps G1–G3; some orders break G4
    only, and only where the last hand meets the first."""
    fair = list(fair_cycle(6))
    found = 0
    for last in itertools.permutations(fair[-3:]):
        cycle = fair[:-3] + list(last)
        problems = check_cycle(6, cycle)
        assert not kinds(problems) & {"G1", "G2", "G3", "form"}
        players = [int(p.split()[2]) for p in problems]
        if players and all(
            p in cycle[0].out and p in cycle[-1].out and straight_rest(cycle, p) == 1
            for p in players
        ):
            found += 1
    assert found


def test_checker_reports_hands_of_the_wrong_form() -> None:
    """§13.1: each hand seats four distinct players in two partnerships and sits out the rest."""
    good = fair_cycle(5)
    cases: list[tuple[Seating, str]] = [
        (Seating(((1, 2), (2, 3)), (4, 5)), "hand 1: player 2 is seated twice"),
        (Seating(((1, 2), (3, 4)), (4, 5)), "hand 1: player 4 both plays and sits out"),
        (Seating(((1, 2), (3, 4)), (5, 5)), "hand 1: player 5 sits out twice"),
        (Seating(((1, 2), (3, 4)), (6,)), "hand 1: player 6 is not one of 1..5"),
        (Seating(((1, 2), (3, 4)), ()), "hand 1: player 5 neither plays nor sits out"),
        (Seating(((3, 4), (1, 2)), (5,)), "hand 1: not in canonical order"),
        (Seating(((2, 1), (3, 4)), (5,)), "hand 1: not in canonical order"),
        (Seating(((1, 2, 3), (4,)), (5,)), "hand 1: teams ((1, 2, 3), (4,)) are not two pairs"),  # type: ignore[arg-type]
    ]
    for bad, message in cases:
        problems = check_cycle(5, [bad, *good[1:]])
        assert any(p.startswith(message) for p in problems), (bad, problems)
    assert check_cycle(5, []) == ["the cycle is empty"]


def test_checker_reports_a_length_that_cannot_be_fair() -> None:
    """§13.2 integrality: 4 hands of 5 players cannot share sit-outs or partnerships evenly."""
    problems = check_cycle(5, fair_cycle(5)[:4])
    assert "G1: 4 hands cannot give 5 players equal sit-outs (4×1/5 is not whole)" in problems
    assert any(p.startswith("G3: 4 hands cannot make every pair") for p in problems)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SIZES), st.data())
def test_order_never_matters_to_g1_and_g3(n: int, data: st.DataObject) -> None:
    """§13.2: G1 and G3 count hands; G2 and G4 depend on their order."""
    cycle = data.draw(st.permutations(fair_cycle(n)))
    assert not kinds(check_cycle(n, cycle)) & {"G1", "G3", "form"}


# --- the JSON face (docs/json.md `belote rotation N --json`) ----------------------------


def test_to_json_matches_the_contract_example() -> None:
    """docs/json.md: `{"players": 7, "cycle": [{"teams": [[2, 3], [4, 6]],
    "out": [1, 5, 7]}, ...]}`."""
    hand = Seating.of((6, 4), (3, 2), (7, 1, 5))
    assert json.dumps(to_json(7, [hand])) == (
        '{"players": 7, "cycle": [{"teams": [[2, 3], [4, 6]], "out": [1, 5, 7]}]}'
    )


@pytest.mark.parametrize("n", SIZES)
def test_to_json_of_the_fair_cycle(n: int) -> None:
    obj = to_json(n, fair_cycle(n))
    assert list(obj) == ["players", "cycle"] and obj["players"] == n
    assert len(obj["cycle"]) == RULES_13_2[n][0]
    for hand, seating in zip(obj["cycle"], fair_cycle(n), strict=True):
        assert list(hand) == ["teams", "out"]
        (a, b), (c, d) = hand["teams"]
        assert a < b and c < d and a < c
        assert hand["out"] == sorted(hand["out"]) and len(hand["out"]) == n - 4
        assert sorted([a, b, c, d, *hand["out"]]) == list(range(1, n + 1))
        assert all(type(p) is int for p in [a, b, c, d, *hand["out"]])
        assert Seating.of((a, b), (c, d), hand["out"]) == seating


# --- the command line ----------------------------------------------------------------------

runner = CliRunner()


def make_app() -> typer.Typer:
    app = typer.Typer()
    rotation_cli.register(app)

    @app.command("version")  # a second command keeps "rotation" a sub-command
    def version() -> None:
        typer.echo("test")

    return app


APP = make_app()


@pytest.mark.parametrize("n", SIZES)
def test_cli_json(n: int) -> None:
    """docs/json.md `belote rotation N --json`."""
    result = runner.invoke(APP, ["rotation", str(n), "--json"])
    assert result.exit_code == 0 and result.stderr == ""
    assert json.loads(result.stdout) == to_json(n, fair_cycle(n))


@pytest.mark.parametrize("bad", ["4", "8", "0", "-1", "seven", "5.5", ""])
@pytest.mark.parametrize("json_mode", [True, False])
def test_cli_refuses_other_sizes(bad: str, json_mode: bool) -> None:
    """docs/json.md errors: exit 2, one `error: ...` line on stderr; with --json also on stdout."""
    args = ["rotation", bad, *(["--json"] if json_mode else [])]
    result = runner.invoke(APP, args)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: rotation: the number of players")
    if json_mode:
        assert json.loads(result.stdout) == {"error": lines[0].removeprefix("error: ")}
    else:
        assert result.stdout == ""


def test_cli_human_table() -> None:
    """The readable form: every hand, then a per-player summary proving §13.2."""
    result = runner.invoke(APP, ["rotation", "6"])
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert "Fair rotation for 6 players: 15 hands" in out
    assert "Sitting out" in out and "│   15 │" in out
    first = fair_cycle(6)[0]
    assert f"│ {first.teams[0][0]} + {first.teams[0][1]}  │" in out
    assert out.count("2/4") == 6 * 5
    assert "every player sits out 5 of 15 hands, never more than 1 in a row" in " ".join(
        out.split()
    )


def test_cli_is_registered() -> None:
    """`belote rotation` is a subcommand of the `belote` command."""
    from belote.cli import app

    result = runner.invoke(app, ["rotation", "5", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["players"] == 5


# --- score sheets with N players (§13.1) ------------------------------------------------------


def test_dealer_is_the_seated_player_who_dealt_least_13_1() -> None:
    """§13.1 "dealer = seated player who has dealt least (ties: lowest number)"."""
    hand = Seating.of((2, 3), (4, 6), (1, 5, 7))
    # Player 1 has dealt least of all but sits out; 4 and 6 tie at 0: the lowest, 4.
    assert dealer_for(hand, {1: 0, 2: 1, 3: 1, 4: 0, 5: 0, 6: 0, 7: 0}) == 4
    assert dealer_for(hand, {4: 2, 6: 1, 2: 1, 3: 1}) == 2
    assert dealer_for(hand, {}) == 2
    assert dealer_for(hand, {2: 3, 3: 3, 4: 3, 6: 2, 1: 0}) == 6


def test_dealing_round_a_five_player_cycle_13_1() -> None:
    """§13.1 applied hand by hand over the 5-player cycle."""
    dealt: dict[int, int] = {}
    dealers = []
    for seating in fair_cycle(5):
        dealer = dealer_for(seating, dealt)
        assert dealer in seated(seating)
        assert all(dealt.get(p, 0) >= dealt.get(dealer, 0) for p in seated(seating))
        dealt[dealer] = dealt.get(dealer, 0) + 1
        dealers.append(dealer)
    assert len(dealers) == 5 and max(dealt.values()) <= 2


def test_individual_totals_13_1() -> None:
    """§13.1 "each seated player adds his team's hand score to his individual total;
    sitters add 0"."""
    hands = [Seating.of((2, 3), (4, 5), (1,)), Seating.of((1, 4), (3, 5), (2,))]
    assert individual_totals(5, hands, [(92, 70), (0, 162)]) == {
        1: 0, 2: 92, 3: 92 + 162, 4: 70 + 0, 5: 70 + 162,
    }
    assert individual_totals(5, [], []) == {1: 0, 2: 0, 3: 0, 4: 0, 5: 0}


def test_individual_totals_refuses_bad_sheets() -> None:
    hand = Seating.of((1, 2), (3, 4), (5,))
    with pytest.raises(InvalidRecordError, match="1 seatings but 2 team scores"):
        individual_totals(5, [hand], [(1, 2), (3, 4)])
    with pytest.raises(InvalidRecordError, match=r"hand 1: player 6 is not one of 1\.\.5"):
        individual_totals(5, [Seating.of((1, 6), (3, 4), (2,))], [(1, 2)])
    with pytest.raises(InvalidRecordError, match=r"hand 1: expected two team scores"):
        individual_totals(5, [hand], [(1, 2, 3)])  # type: ignore[list-item]
    with pytest.raises(OptionError):
        individual_totals(4, [], [])


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(SIZES),
    st.lists(st.tuples(st.integers(0, 500), st.integers(0, 500)), max_size=30),
)
def test_individual_totals_add_two_players_per_team(
    n: int, scores: list[tuple[int, int]]
) -> None:
    """§13.1: every team score goes to its two players, so the totals add to twice
    the scores, and nobody gains in a hand he sits out."""
    seatings = [seating_for(n, i + 1) for i in range(len(scores))]
    totals = individual_totals(n, seatings, scores)
    assert sum(totals.values()) == 2 * sum(a + b for a, b in scores)
    for p in range(1, n + 1):
        played = [
            score
            for seating, pair in zip(seatings, scores, strict=True)
            for team, score in zip(seating.teams, pair, strict=True)
            if p in team
        ]
        assert totals[p] == sum(played)


def test_cycle_ends_13_2() -> None:
    """§13.2 "Compare standings at cycle ends"."""
    assert cycle_ends(5, 0) == [] and cycle_ends(5, 4) == []
    assert cycle_ends(5, 5) == [5] and cycle_ends(5, 12) == [5, 10]
    assert cycle_ends(6, 30) == [15, 30]
    assert cycle_ends(7, 45) == [21, 42]
    with pytest.raises(InvalidRecordError):
        cycle_ends(7, -1)
    with pytest.raises(OptionError):
        cycle_ends(8, 10)


def test_seating_for_follows_the_cycle_round_and_round() -> None:
    cycle = fair_cycle(7)
    assert [seating_for(7, h) for h in range(1, 43)] == list(cycle) * 2
    with pytest.raises(InvalidRecordError, match="got 0"):
        seating_for(7, 0)


def test_seating_of_is_canonical() -> None:
    assert Seating.of([4, 3], [2, 1], [5]) == Seating(((1, 2), (3, 4)), (5,))
    assert seated(Seating.of((4, 3), (2, 1), (5,))) == (1, 2, 3, 4)
    with pytest.raises(InvalidRecordError, match="two players"):
        Seating.of((1, 2, 3), (4,), (5,))


@pytest.mark.parametrize("n", SIZES)
def test_tally_agrees_with_13_2(n: int) -> None:
    """The per-player summary behind `belote rotation N` (§13.2 counts)."""
    _, partners, opponents, sit_outs = RULES_13_2[n]
    others = {p: [q for q in range(1, n + 1) if q != p] for p in range(1, n + 1)}
    for t in rotation.tally(n, fair_cycle(n)):
        assert t.sit_outs == sit_outs and 1 <= t.longest_rest <= max_rest(n)
        assert sorted(t.partners) == sorted(t.opponents) == others[t.player]
        assert set(t.partners.values()) == {partners}
        assert set(t.opponents.values()) == {opponents}
