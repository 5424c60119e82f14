"""Where the cards and the seats of a tournament come from: each board's decks and dealers,
each bot's seed, and who sits where at each table of a board (docs/rules.md §2.1–§2.3, §12).

Every deck is a fresh shuffle and cut (§2.2, §2.3) drawn from the tournament seed and
the board (and the deal, in a game) alone, so both tables of a duplicate board see
the same cards whatever happens in play, and the results do not depend on how the
boards are split between workers.
"""

from __future__ import annotations

import random

from belote.cards import Card
from belote.deal import cut, new_deck, shuffle
from belote.options import Rules
from belote.table import Table

__all__ = [
    "board_deal",
    "bot_seed",
    "game_deck",
    "game_first_dealer",
    "seating",
    "tables_per_board",
]


def _rng(seed: int, *key: object) -> random.Random:
    # str seeds are hashed with SHA-512 by random.Random: stable across processes.
    return random.Random(":".join(str(k) for k in ("belote-tournament", seed, *key)))


def bot_seed(seed: int, pairing: int, board: int, table: int, seat: int) -> int:
    """The seed of the bot at ``seat`` of ``table`` of ``board`` in ``pairing``."""
    return _rng(seed, "bot", pairing, board, table, seat).getrandbits(63)


def _shuffled(rules: Rules, rng: random.Random) -> list[Card]:
    deck = new_deck(rules.players, rules.three_deal)
    shuffle(deck, rng)
    return cut(deck, rng, rules.min_cut)


def board_deal(rules: Rules, seed: int, board: int) -> tuple[int, list[Card]]:
    """Deals mode: the dealer and the deck of ``board`` (shared by every pairing)."""
    rng = _rng(seed, "deal", board)
    dealer = rng.randrange(rules.players)
    return dealer, _shuffled(rules, rng)


def game_first_dealer(seed: int, board: int, players: int = 4) -> int:
    """Games mode: the first dealer of the game of ``board`` (§2.1, drawn at random)."""
    return _rng(seed, "game", board).randrange(players)


def game_deck(rules: Rules, seed: int, board: int, deal: int) -> list[Card]:
    """Games mode: the deck of deal ``deal`` (0-based) of the game of ``board``."""
    return _shuffled(rules, _rng(seed, "game", board, "deal", deal))


def seating(players: int, board: int, table: int) -> tuple[int, ...]:
    """Which bot of the pairing (0: A, 1: B) sits at each seat of ``table`` of ``board``.

    Four players: A holds NS at table 0 and EW at table 1.  Three or two (§12): the
    seats rotate; one bot sits alone at seat ``table`` (A at even boards, B at odd
    ones), the other at the other seats.

    >>> [seating(3, 0, t) for t in range(3)]
    [(0, 1, 1), (1, 0, 1), (1, 1, 0)]
    >>> [seating(2, 1, t) for t in range(2)]
    [(1, 0), (0, 1)]
    """
    if Table.seated(players).partnerships:  # two teams of two: the teams swap
        return (0, 1, 0, 1) if table == 0 else (1, 0, 1, 0)
    alone = board % 2
    return tuple(alone if s == table else 1 - alone for s in range(players))


def tables_per_board(players: int) -> int:
    """Tables a board is played at: 2 (teams swapped), or one a seat (rotated, §12)."""
    return 2 if Table.seated(players).partnerships else players
