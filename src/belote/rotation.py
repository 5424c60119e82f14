"""Fair rotation tables for five, six or seven players at one table (docs/rules.md §13).

Each hand four players play, in two partnerships, and the other ``n - 4`` sit
out (§13.1).  A *fair cycle* of ``L`` hands (§13.2) guarantees:

* G1: every player sits out ``L(n-4)/n`` times;
* G2: after every hand the sit-out counts differ by at most 1;
* G3: every pair of players are partners ``2L/C(n,2)`` times and opponents
  ``4L/C(n,2)`` times;
* G4: nobody sits out more than 1 (n = 5, 6) or 2 (n = 7) hands in a row,
  counting the wrap from the last hand of the cycle to the first.

Integrality of G1 and G3 gives the minimal lengths 5, 15 and 21
(:func:`minimal_length`).  :func:`fair_cycle` finds such a cycle by a
backtracking search (nothing is typed in as a table) and :func:`check_cycle`
checks one independently, listing every broken guarantee.

>>> [len(fair_cycle(n)) for n in (5, 6, 7)]
[5, 15, 21]
>>> check_cycle(7, fair_cycle(7))
[]
>>> fair_cycle(5)[0]
Seating(teams=((2, 3), (4, 5)), out=(1,))
>>> fair_cycle(4)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
belote.errors.OptionError: rotation: the number of players must be 5, 6 or 7 (...§13), got 4

The §13.1 helpers keep a score sheet for such a table: :func:`seated`,
:func:`dealer_for`, :func:`individual_totals` and :func:`cycle_ends`.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from belote.errors import InvalidRecordError, OptionError

PLAYER_COUNTS: Final = (5, 6, 7)
"""The table sizes of docs/rules.md §13."""

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Seating:
    """One hand at a table of ``n`` players (numbered 1..n).

    ``teams`` are the two partnerships, each pair sorted and the pair holding
    the lowest seated player first; ``out`` are the players who sit out,
    sorted.  :meth:`of` builds this canonical form from any order; the class
    itself does not check its fields, so that :func:`check_cycle` can be shown
    broken hands.
    """

    teams: tuple[Pair, Pair]
    out: tuple[int, ...]

    @classmethod
    def of(cls, team_a: Iterable[int], team_b: Iterable[int], out: Iterable[int]) -> Seating:
        """The canonical seating of two partnerships and the players sitting out.

        >>> Seating.of((6, 4), (3, 2), (7, 1, 5))
        Seating(teams=((2, 3), (4, 6)), out=(1, 5, 7))
        """
        a, b = _pair(team_a), _pair(team_b)
        return cls(teams=(a, b) if a <= b else (b, a), out=tuple(sorted(out)))


def _pair(team: Iterable[int]) -> Pair:
    members = sorted(team)
    if len(members) != 2:
        raise InvalidRecordError(f"a partnership is two players, got {members!r}")
    return (members[0], members[1])


def seated(seating: Seating) -> tuple[int, ...]:
    """The four players of the hand, sorted (docs/rules.md §13.1).

    >>> seated(Seating.of((2, 3), (4, 6), (1, 5, 7)))
    (2, 3, 4, 6)
    """
    return tuple(sorted(p for team in seating.teams for p in team))


def check_players(n: object) -> int:
    """``n`` when it is 5, 6 or 7 (docs/rules.md §13), else :class:`~belote.errors.OptionError`."""
    if isinstance(n, bool) or not isinstance(n, int) or n not in PLAYER_COUNTS:
        raise OptionError(
            f"rotation: the number of players must be 5, 6 or 7 (docs/rules.md §13), got {n!r}"
        )
    return n


def minimal_length(n: int) -> int:
    """The shortest cycle length that G1 and G3 allow: the least ``L`` for which
    ``L(n-4)/n``, ``2L/C(n,2)`` and ``4L/C(n,2)`` are whole numbers (§13.2).

    >>> [minimal_length(n) for n in (5, 6, 7)]
    [5, 15, 21]
    """
    check_players(n)
    pairs = math.comb(n, 2)
    return next(
        length
        for length in itertools.count(1)
        if length * (n - 4) % n == 0 and 2 * length % pairs == 0 and 4 * length % pairs == 0
    )


def max_rest(n: int) -> int:
    """G4: the most hands in a row a player may sit out (1 for 5 or 6 players, 2 for 7)."""
    return 2 if check_players(n) == 7 else 1


@dataclass(frozen=True, slots=True)
class Targets:
    """What a fair cycle of ``length`` hands gives every player and every pair (§13.2)."""

    length: int
    sit_outs: int  # G1, per player
    partners: int  # G3, per pair
    opponents: int  # G3, per pair


def targets(n: int, length: int | None = None) -> Targets | None:
    """The G1 and G3 counts for a cycle of ``length`` hands (default: the minimal one),
    or None when integrality makes such a cycle impossible."""
    check_players(n)
    length = minimal_length(n) if length is None else length
    pairs = math.comb(n, 2)
    if length <= 0 or length * (n - 4) % n or 2 * length % pairs:
        return None
    return Targets(length, length * (n - 4) // n, 2 * length // pairs, 4 * length // pairs)


# --- the checker -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerTally:
    """One player's share of a cycle: how often he sits out, his longest rest
    (cyclically) and how often he partners and faces every other player."""

    player: int
    sit_outs: int
    longest_rest: int
    partners: dict[int, int]
    opponents: dict[int, int]


def _longest_rest(flags: Sequence[bool]) -> int:
    """Longest run of True, counting the wrap from the end to the start;
    ``len(flags)`` when every flag is True (the player never plays)."""
    if all(flags):
        return len(flags)
    best = run = 0
    for flag in itertools.chain(flags, flags):
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


def tally(n: int, cycle: Sequence[Seating]) -> tuple[PlayerTally, ...]:
    """Every player's sit-outs, longest rest, partners and opponents over ``cycle``.

    Players outside 1..n are ignored here; :func:`check_cycle` reports them.
    """
    check_players(n)
    players = range(1, n + 1)
    partners = {p: dict.fromkeys(players, 0) for p in players}
    opponents = {p: dict.fromkeys(players, 0) for p in players}
    for seating in cycle:
        teams = [tuple(t) for t in seating.teams]
        for i, team in enumerate(teams):
            for x, y in itertools.permutations(team, 2):
                if x in partners and y in partners:
                    partners[x][y] += 1
            for other in teams[i + 1 :]:
                for x in team:
                    for y in other:
                        if x in opponents and y in opponents and x != y:
                            opponents[x][y] += 1
                            opponents[y][x] += 1
    result = []
    for p in players:
        flags = [p in seating.out for seating in cycle]
        result.append(
            PlayerTally(
                player=p,
                sit_outs=sum(flags),
                longest_rest=_longest_rest(flags) if flags else 0,
                partners={q: c for q, c in partners[p].items() if q != p},
                opponents={q: c for q, c in opponents[p].items() if q != p},
            )
        )
    return tuple(result)


def _check_form(n: int, number: int, seating: Seating) -> list[str]:
    """A hand must seat 4 distinct players of 1..n in two pairs and sit out the rest."""
    where = f"hand {number}"
    problems: list[str] = []
    teams = seating.teams
    if len(teams) != 2 or any(len(team) != 2 for team in teams):
        return [f"{where}: teams {teams!r} are not two pairs of players"]
    playing = [p for team in teams for p in team]
    out = list(seating.out)
    everyone = playing + out
    for p in sorted(set(everyone)):
        if not isinstance(p, int) or isinstance(p, bool) or not 1 <= p <= n:
            problems.append(f"{where}: player {p!r} is not one of 1..{n}")
    for p in sorted({p for p in playing if playing.count(p) > 1}):
        problems.append(f"{where}: player {p!r} is seated twice")
    for p in sorted({p for p in out if out.count(p) > 1}):
        problems.append(f"{where}: player {p!r} sits out twice")
    for p in sorted(set(playing) & set(out)):
        problems.append(f"{where}: player {p!r} both plays and sits out")
    for p in range(1, n + 1):
        if p not in everyone:
            problems.append(f"{where}: player {p} neither plays nor sits out")
    if not problems:
        canonical = Seating.of(teams[0], teams[1], out)
        if seating != canonical:
            problems.append(
                f"{where}: not in canonical order: {_show(seating)}, expected {_show(canonical)}"
            )
    return problems


def _show(seating: Seating) -> str:
    return f"teams {[list(t) for t in seating.teams]!r}, out {list(seating.out)!r}"


def check_cycle(n: int, cycle: Sequence[Seating]) -> list[str]:
    """Every guarantee of docs/rules.md §13.2 that ``cycle`` breaks, as messages
    starting with ``G1:`` … ``G4:``, after the problems of form (a hand that
    does not seat 4 distinct players of 1..n and sit out the rest).  Empty when
    the cycle is fair.  Minimality is not a guarantee: a fair cycle played twice
    is still fair.

    >>> bad = list(fair_cycle(5))
    >>> bad[1] = bad[0]  # player 1 sits out twice in a row, player 2 never
    >>> problems = check_cycle(5, bad)
    >>> for problem in problems[:3]: print(problem)
    G1: player 1 sits out 2 times, not 1
    G1: player 2 sits out 0 times, not 1
    G2: after hand 2 the sit-out counts range from 0 to 2 (and after 3 later hands too)
    >>> sorted({problem[:2] for problem in problems})
    ['G1', 'G2', 'G3', 'G4']
    """
    check_players(n)
    if not cycle:
        return ["the cycle is empty"]
    problems: list[str] = []
    for number, seating in enumerate(cycle, start=1):
        problems.extend(_check_form(n, number, seating))
    length = len(cycle)
    pairs = math.comb(n, 2)
    tallies = tally(n, cycle)

    # G1: equal sit-outs.
    if length * (n - 4) % n:
        problems.append(
            f"G1: {length} hands cannot give {n} players equal sit-outs "
            f"({length}×{n - 4}/{n} is not whole)"
        )
    else:
        share = length * (n - 4) // n
        problems.extend(
            f"G1: player {t.player} sits out {t.sit_outs} times, not {share}"
            for t in tallies
            if t.sit_outs != share
        )

    # G2: after every hand, sit-out counts differ by at most 1.
    counts = dict.fromkeys(range(1, n + 1), 0)
    bad_hands = []
    for number, seating in enumerate(cycle, start=1):
        for p in set(seating.out):
            if p in counts:
                counts[p] += 1
        low, high = min(counts.values()), max(counts.values())
        if high - low > 1:
            bad_hands.append((number, low, high))
    if bad_hands:
        number, low, high = bad_hands[0]
        more = f" (and after {len(bad_hands) - 1} later hands too)" if len(bad_hands) > 1 else ""
        problems.append(
            f"G2: after hand {number} the sit-out counts range from {low} to {high}{more}"
        )

    # G3: equal partnerships and oppositions.
    if 2 * length % pairs:
        problems.append(
            f"G3: {length} hands cannot make every pair of {n} players partners equally "
            f"often (2×{length}/{pairs} is not whole)"
        )
    else:
        partner_share, opponent_share = 2 * length // pairs, 4 * length // pairs
        for t in tallies:
            for q in range(t.player + 1, n + 1):
                if t.partners[q] != partner_share:
                    problems.append(
                        f"G3: players {t.player} and {q} are partners {t.partners[q]} times, "
                        f"not {partner_share}"
                    )
                if t.opponents[q] != opponent_share:
                    problems.append(
                        f"G3: players {t.player} and {q} are opponents {t.opponents[q]} times, "
                        f"not {opponent_share}"
                    )

    # G4: no long rests, cyclically.
    limit = max_rest(n)
    for t in tallies:
        if t.longest_rest == length:
            problems.append(f"G4: player {t.player} sits out every hand")
        elif t.longest_rest > limit:
            problems.append(
                f"G4: player {t.player} sits out {t.longest_rest} hands in a row (at most {limit})"
            )
    return problems


# --- the search --------------------------------------------------------------------------


def _symmetry(n: int) -> tuple[int, ...]:
    """The player permutation ``sigma`` (``sigma[p]``, index 0 unused) that the
    searched cycle is asked to keep.

    For 5 and 6 players it is the identity: the plain search is immediate.  For
    7 the search looks for a cycle ``H, σ(H), σ²(H)`` made of 7 hands and their
    images under ``σ(p) = 2(p-1) mod 7 + 1`` (2 has order 3 modulo 7, and 3
    divides 21): only 7 hands are searched instead of 21, the classical way of
    finding combinatorial designs by prescribing an automorphism.
    """
    if n == 7:
        return (0, *(2 * (p - 1) % 7 + 1 for p in range(1, 8)))
    return tuple(range(n + 1))


def _order(sigma: Sequence[int]) -> int:
    power, order = list(sigma), 1
    while any(power[p] != p for p in range(len(sigma))):
        power = [sigma[q] for q in power]
        order += 1
    return order


@dataclass(frozen=True, slots=True)
class _Candidate:
    seating: Seating
    out: tuple[int, ...]
    counters: tuple[int, ...]  # counters this hand and its images add 1 to (with repeats)


def _search(n: int, sigma: Sequence[int]) -> tuple[Seating, ...] | None:
    """Depth-first search for a fair cycle of minimal length invariant under ``sigma``.

    Each candidate hand, with its images under the powers of ``sigma``, adds
    to counters: sit-outs per player, partnerships, oppositions and joint
    sit-outs per pair.  A branch dies as soon as a counter passes its target:
    since the counters of each kind sum to a fixed total over ``L`` hands,
    reaching the full length with no counter over its target is G1 and G3
    exactly.  G2 and G4 prune on the prefix of searched hands, which is a
    prefix of the cycle; the full cycle is then confirmed by :func:`check_cycle`
    (which catches G2 and G4 across the images) and the search goes on if it
    fails.
    """
    want = targets(n)
    assert want is not None
    order = _order(sigma)
    length = want.length
    assert length % order == 0
    base_length = length // order
    limit = max_rest(n)
    players = range(1, n + 1)

    powers = [list(range(n + 1))]
    for _ in range(order - 1):
        powers.append([sigma[p] for p in powers[-1]])

    pair_index = {pair: i for i, pair in enumerate(itertools.combinations(players, 2))}
    pairs = len(pair_index)
    # Counter layout: sit-outs per player, then partners, opponents, joint sit-outs per pair.
    out_base, partner_base, opponent_base, both_base = 0, n, n + pairs, n + 2 * pairs
    # A pair shares L - 2S + J hands (J: hands both sit out) and must share P + O.
    both_target = want.partners + want.opponents - length + 2 * want.sit_outs
    caps = (
        [want.sit_outs] * n
        + [want.partners] * pairs
        + [want.opponents] * pairs
        + [both_target] * pairs
    )

    def pid(x: int, y: int) -> int:
        return pair_index[(x, y) if x < y else (y, x)]

    candidates: list[_Candidate] = []
    for out in itertools.combinations(players, n - 4):
        a, b, c, d = (p for p in players if p not in out)
        for team_a, team_b in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
            counters: list[int] = []
            for image in powers:
                counters.extend(out_base + image[p] - 1 for p in out)
                for x, y in (team_a, team_b):
                    counters.append(partner_base + pid(image[x], image[y]))
                for x in team_a:
                    for y in team_b:
                        counters.append(opponent_base + pid(image[x], image[y]))
                for x, y in itertools.combinations(out, 2):
                    counters.append(both_base + pid(image[x], image[y]))
            candidates.append(_Candidate(Seating.of(team_a, team_b, out), out, tuple(counters)))

    totals = [0] * len(caps)
    prefix_outs = [0] * (n + 1)  # sit-outs in the searched prefix (G2)
    rests = [0] * (n + 1)  # current run of sit-outs (G4)
    chosen: list[_Candidate] = []

    def expand() -> tuple[Seating, ...]:
        return tuple(
            Seating.of(
                (image[c.seating.teams[0][0]], image[c.seating.teams[0][1]]),
                (image[c.seating.teams[1][0]], image[c.seating.teams[1][1]]),
                (image[p] for p in c.out),
            )
            for image in powers
            for c in chosen
        )

    def extend(depth: int) -> tuple[Seating, ...] | None:
        if depth == base_length:
            cycle = expand()
            return None if check_cycle(n, cycle) else cycle
        for cand in candidates:
            if any(rests[p] >= limit for p in cand.out):
                continue  # G4
            for p in cand.out:
                prefix_outs[p] += 1
            counts = prefix_outs[1:]
            balanced = max(counts) - min(counts) <= 1  # G2
            if balanced:
                for i in cand.counters:
                    totals[i] += 1
                if all(totals[i] <= caps[i] for i in cand.counters):
                    saved = rests[:]
                    for p in players:
                        rests[p] = rests[p] + 1 if p in cand.out else 0
                    chosen.append(cand)
                    found = extend(depth + 1)
                    if found is not None:
                        return found
                    chosen.pop()
                    rests[:] = saved
                for i in cand.counters:
                    totals[i] -= 1
            for p in cand.out:
                prefix_outs[p] -= 1
        return None

    return extend(0)


@functools.cache
def _fair_cycle(n: int) -> tuple[Seating, ...]:
    cycle = _search(n, _symmetry(n))
    if cycle is None:  # pragma: no cover - the search always succeeds for 5, 6, 7
        raise AssertionError(f"rotation: no fair cycle found for {n} players")
    return cycle


def fair_cycle(n: int) -> tuple[Seating, ...]:
    """A fair cycle of minimal length for ``n`` = 5, 6 or 7 players (docs/rules.md §13.2):
    5, 15 or 21 hands holding G1–G4.  Found by a search, the same every call, and
    cached.  Other ``n``: :class:`~belote.errors.OptionError`.
    """
    return _fair_cycle(check_players(n))


# --- score sheets with N players (§13.1) ---------------------------------------------------


def seating_for(n: int, hand: int) -> Seating:
    """The seating of hand number ``hand`` (1, 2, ...) when a table of ``n``
    follows :func:`fair_cycle` round and round.

    >>> seating_for(5, 6) == fair_cycle(5)[0]
    True
    """
    if isinstance(hand, bool) or not isinstance(hand, int) or hand < 1:
        raise InvalidRecordError(f"rotation: a hand number is 1 or more, got {hand!r}")
    cycle = fair_cycle(n)
    return cycle[(hand - 1) % len(cycle)]


def dealer_for(seating: Seating, dealt_counts: Mapping[int, int]) -> int:
    """The dealer of a hand: the seated player who has dealt least, ties going to
    the lowest number (docs/rules.md §13.1).  Players missing from ``dealt_counts``
    have dealt 0 times.

    >>> dealer_for(Seating.of((2, 3), (4, 6), (1, 5, 7)), {2: 1, 3: 1, 4: 0, 6: 0})
    4
    """
    return min(seated(seating), key=lambda p: (dealt_counts.get(p, 0), p))


def individual_totals(
    n: int, seatings: Sequence[Seating], team_scores: Sequence[tuple[int, int]]
) -> dict[int, int]:
    """Each player's individual total (docs/rules.md §13.1): in every hand each seated
    player adds his team's score, ``team_scores[i]`` being (score of
    ``teams[0]``, score of ``teams[1]``) for hand ``i``; sitters add 0.

    >>> individual_totals(5, [Seating.of((1, 2), (3, 4), (5,))], [(92, 70)])
    {1: 92, 2: 92, 3: 70, 4: 70, 5: 0}
    """
    check_players(n)
    if len(seatings) != len(team_scores):
        raise InvalidRecordError(
            f"rotation: {len(seatings)} seatings but {len(team_scores)} team scores"
        )
    totals = dict.fromkeys(range(1, n + 1), 0)
    for number, (seating, scores) in enumerate(zip(seatings, team_scores, strict=True), start=1):
        if len(scores) != 2:
            raise InvalidRecordError(
                f"rotation: hand {number}: expected two team scores, got {scores!r}"
            )
        for team, score in zip(seating.teams, scores, strict=True):
            for p in team:
                if p not in totals:
                    raise InvalidRecordError(
                        f"rotation: hand {number}: player {p!r} is not one of 1..{n}"
                    )
                totals[p] += score
    return totals


def cycle_ends(n: int, hands_played: int) -> list[int]:
    """The hand counts, up to ``hands_played``, at which a cycle of
    :func:`fair_cycle` ends: there every player has sat out, partnered and
    faced every other player equally often, so standings compare fairly
    (docs/rules.md §13.2).

    >>> cycle_ends(5, 12)
    [5, 10]
    """
    if isinstance(hands_played, bool) or not isinstance(hands_played, int) or hands_played < 0:
        raise InvalidRecordError(
            f"rotation: the number of hands played is 0 or more, got {hands_played!r}"
        )
    length = len(fair_cycle(n))
    return list(range(length, hands_played + 1, length))


def to_json(n: int, cycle: Sequence[Seating]) -> dict[str, Any]:
    """The docs/json.md form of a cycle.

    >>> to_json(5, fair_cycle(5)[:1])
    {'players': 5, 'cycle': [{'teams': [[2, 3], [4, 5]], 'out': [1]}]}
    """
    return {
        "players": n,
        "cycle": [
            {"teams": [list(team) for team in seating.teams], "out": list(seating.out)}
            for seating in cycle
        ],
    }
