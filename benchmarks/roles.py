"""Where each bot's points come from: the deals of a kept tournament (``belote tournament
--keep-records PATH``, read back from that history file) split by each seat's role.

A seat of a scored deal is the taker, the taker's partner (four players) or a defender;
an all-pass deal is counted apart (it scores nothing).  For each bot, over its seats:
the deals, how many it took and made, and its points a deal as taker and as defender
(the seat's score column: its own at three and two players, its team's at four), with
each role's part of its points a seat-deal (the parts add up to its points a seat-deal).
Two bots' parts side by side say whether one gains on the other by its takes or by its
defence (and the take rate and the made rate, whether by its calls).

    .venv/bin/belote tournament --bots heuristic,pimc --deals 400 --profile classic-3p \\
        --seed 5 --keep-records /tmp/roles.db
    .venv/bin/python benchmarks/roles.py /tmp/roles.db [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from belote.errors import BeloteError
from belote.history import GameSummary, HistoryStore
from belote.play import SEAT_NAMES, TEAM_NAMES
from belote.scoring import Outcome
from belote.table import Table

ROLES: Final = ("taker", "partner", "defender")


@dataclass
class RoleTally:
    """One bot's seat-deals in one role: how many, made (the taker's side), points."""

    deals: int = 0
    made: int = 0
    points: int = 0

    def to_json(self, seat_deals: int) -> dict[str, Any]:
        return {"deals": self.deals, "made": self.made, "points": self.points,
                "points_a_deal": round(self.points / self.deals, 2) if self.deals else None,
                "part_a_seat_deal": round(self.points / seat_deals, 2) if seat_deals else None}


@dataclass
class BotTally:
    """One bot's seat-deals: all-passes apart, then by role."""

    passed: int = 0
    roles: dict[str, RoleTally] = field(default_factory=lambda: {r: RoleTally() for r in ROLES})

    @property
    def scored(self) -> int:
        return sum(t.deals for t in self.roles.values())

    def to_json(self) -> dict[str, Any]:
        seat_deals = self.scored + self.passed
        points = sum(t.points for t in self.roles.values())
        return {"seat_deals": seat_deals, "passed": self.passed,
                "points_a_seat_deal": round(points / seat_deals, 2) if seat_deals else None,
                **{r: t.to_json(seat_deals) for r, t in self.roles.items()
                   if r != "partner" or t.deals}}


def roles(games: Iterable[GameSummary]) -> dict[str, BotTally]:
    """Each bot's tally (by the name its seat was kept under) over ``games``' deals."""
    out: dict[str, BotTally] = {}
    for game in games:
        table = Table.seated(game.players)
        for deal in game.deals:
            result = deal.result
            for seat, player in enumerate(game.seats):
                tally = out.setdefault(player.name, BotTally())
                if result["outcome"] == Outcome.VOID:
                    tally.passed += 1
                    continue
                taker = SEAT_NAMES.index(result["taker"])
                sides = table.sides(taker)  # (fixed teams at four and two players)
                with_taker = sides[seat] == sides[taker]
                role = "taker" if seat == taker else "partner" if with_taker else "defender"
                column = (TEAM_NAMES[table.score_column(seat)] if table.partnerships
                          else SEAT_NAMES[seat])
                entry = tally.roles[role]
                entry.deals += 1
                entry.points += int(result["score"][column])
                entry.made += with_taker and result["outcome"] == Outcome.MADE
    return out


def describe(name: str, tally: BotTally) -> str:
    data = tally.to_json()
    lines = [f"{name}: {data['seat_deals']} seat-deals ({data['passed']} all-pass), "
             f"{data['points_a_seat_deal']} points a seat-deal"]
    for role in ROLES:
        part = data.get(role)
        if part is None:
            continue
        made = f", {part['made']} made" if role != "defender" else ""
        lines.append(f"  as {role}: {part['deals']} deals{made}, {part['points_a_deal']} "
                     f"points a deal, {part['part_a_seat_deal']} of its points a seat-deal")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path, help="the history file of --keep-records")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.db.is_file():
        print(f"error: {args.db}: no such history file", file=sys.stderr)
        return 2
    try:
        with HistoryStore(args.db) as store:
            tallies = roles(store.all_games())
    except BeloteError as exc:
        print(f"error: {args.db}: {exc}", file=sys.stderr)
        return 2
    if not tallies:
        print(f"error: {args.db}: no game kept", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({n: t.to_json() for n, t in tallies.items()}, indent=2))
    else:
        print("\n".join(describe(n, t) for n, t in tallies.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
