"""How the web app shows the game: hands sorted for a person, declarations as a
table says them, hand results, and Spanish card names for the moroccan profile.

Everything here is a pure function of engine values; the JSON it builds holds
cards by their canonical names (``JH``, ``TS``) only, the browser drawing them
with French or Spanish faces (docs/rules.md §1.2).

>>> from belote.cards import HEARTS, mask_of, parse_card
>>> sort_hand(mask_of(parse_card(c) for c in "7S JH AS 9H TD 8C".split()), HEARTS)
['JH', '9H', 'AS', '7S', 'TD', '8C']
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from typing import Any, Final

from belote.cards import (
    NO_TRUMP,
    SUIT_MASKS,
    Card,
    CardMask,
    TrumpMode,
    card_name,
    order_table,
    scan_forward,
    suit_of,
    trump_name,
)
from belote.declarations import CARRE, Declaration
from belote.errors import BeloteError, Refusal
from belote.hand import Contract, HandResult
from belote.options import Rules
from belote.play import SEAT_NAMES, TEAM_NAMES, Trick
from belote.round import Announced
from belote.scoring import (
    GameScore,
    HandEntry,
    Outcome,
    score_dict,
    score_hand,
    score_names,
)
from belote.table import Table, seat_named
from belote.web.i18n import N_, gettext

# Suits laid out so that colours alternate: spades, hearts, clubs, diamonds.
_ALTERNATING: Final = (0, 1, 3, 2)
_RED: Final = (False, True, True, False)  # ♠ ♥ ♦ ♣
ALL_SUITS_MASK: Final = (1 << 32) - 1


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat]


def parse_seat(text: object, players: int = 4) -> int:
    """``"N"`` → 0 … ``"W"`` → 3 (N, E, S with three players, N, E with two, §12);
    anything else is refused (:attr:`Refusal.NOT_A_SEAT_WORD`, a :class:`ValueError`)."""
    seat = seat_named(text, players)
    if seat is not None:
        return seat
    names = SEAT_NAMES[:players]
    listed = ", ".join(names[:-1]) + " or " + names[-1]
    where = "" if players == 4 else f" at a table of {players}"
    raise BeloteError.refused(Refusal.NOT_A_SEAT_WORD, text=text, seats=listed + where,
                              players=players)


def suit_order(trump: TrumpMode | None, present: CardMask = ALL_SUITS_MASK) -> list[int]:
    """Suits from left to right: the trump first, then the suits held so that
    colours alternate as far as they can (♠ ♥ ♣ ♦ when all four are there)."""
    held = [s for s in _ALTERNATING if present & SUIT_MASKS[s]]
    lead = [trump] if trump is not None and trump < NO_TRUMP and trump in held else []
    rest = [s for s in held if s not in lead]

    def clashes(order: tuple[int, ...]) -> int:
        seq = [*lead, *order]
        return sum(1 for a, b in itertools.pairwise(seq) if _RED[a] == _RED[b])

    best = min(itertools.permutations(rest), key=clashes) if rest else ()
    out = [*lead, *best]
    return out + [s for s in _ALTERNATING if s not in out]


def sort_hand(hand: CardMask, trump: TrumpMode | None) -> list[str]:
    """A hand as a player holds it: grouped by suit (trump first), strongest first
    (each hand sorted once and kept: every state of the seat shows it)."""
    return list(_sorted_hand(hand, trump))


@functools.lru_cache(maxsize=8192)
def _sorted_hand(hand: CardMask, trump: TrumpMode | None) -> tuple[str, ...]:
    order = suit_order(trump, hand)
    strength = order_table(NO_TRUMP if trump is None else trump)
    cards = sorted(scan_forward(hand), key=lambda c: (order.index(suit_of(c)), -strength[c]))
    return tuple(card_name(c) for c in cards)


def announced_type(d: Announced) -> str:
    """What the table hears at trick 1: the kind only (§7.4), never the cards."""
    return "carré" if d.kind == CARRE else d.name


def declaration_json(d: Declaration) -> dict[str, Any]:
    """A declaration once it may be seen: its name, cards and points."""
    return {"name": d.name, "cards": d.card_names(), "points": d.points}


def trick_json(trick: Trick, players: int = 4) -> dict[str, Any]:
    """A completed trick; ``players`` is 4, or 3 and 2 at the small tables (§12)."""
    return {
        **current_trick_json(trick.leader, trick.cards, players),
        "winner": SEAT_NAMES[trick.winner],
        "points": trick.points,
    }


def current_trick_json(leader: int, cards: Sequence[Card], players: int = 4) -> dict[str, Any]:
    order = Table.seated(players).order(leader)
    return {
        "leader": SEAT_NAMES[leader],
        "cards": [{"seat": SEAT_NAMES[order[i]], "card": card_name(c)}
                  for i, c in enumerate(cards)],
    }


def trump_text(mode: TrumpMode | None) -> str | None:
    return None if mode is None else trump_name(mode)


def result_json(result: HandResult, players: int = 4) -> dict[str, Any]:
    """A finished hand, everything public by then: contract, points, outcome, score;
    at a table of three or two the sides' points and each seat's score (§12,
    :func:`_seat_result_json`)."""
    if players != 4:
        return _seat_result_json(result, players)
    decl = result.declarations
    return {
        "contract": result.contract.to_json(),
        "trick_points": dict(zip(TEAM_NAMES, result.trick_points, strict=True)),
        "declarations": dict(zip(TEAM_NAMES, decl.points, strict=True)),
        "declarations_winner": None if decl.winner is None else TEAM_NAMES[decl.winner],
        "belote": None if result.belote_team is None else TEAM_NAMES[result.belote_team],
        "belote_points": dict(zip(TEAM_NAMES, result.belote_points, strict=True)),
        "capot": None if result.capot is None else TEAM_NAMES[result.capot],
        "tricks_won": tricks_won_json(result.tricks, 4)[0],
        "score": result.score.to_json(),
    }


def tricks_won_json(
    tricks: Sequence[Trick], players: int,
) -> tuple[dict[str, int], dict[str, int]]:
    """The tricks and card points won, per column of the game's score: per team with
    four players, per seat at the small tables (§12)."""
    table = Table.seated(players)
    names = score_names(players)
    won = dict.fromkeys(names, 0)
    points = dict.fromkeys(names, 0)
    for t in tricks:
        name = names[table.score_column(t.winner)]
        won[name] += 1
        points[name] += t.points
    return won, points


def side_seats(contract: Contract, players: int) -> list[list[str]]:
    """The seats of each side of a hand at a small table (§12): with three the
    taker's side and the other two (§12.1), with two each seat its own side."""
    if players == 3:
        return [[SEAT_NAMES[contract.taker]],
                [SEAT_NAMES[s] for s in range(3) if s != contract.taker]]
    return [[SEAT_NAMES[s]] for s in range(players)]


def _seat_result_json(result: HandResult, players: int) -> dict[str, Any]:
    """A finished hand at a table of three or two (§12): the two sides' points (the
    taker against the other two, or seat against seat), then each seat's score.

    Nothing hidden is in it: the taker's kitty discards (§12.1) count in his trick
    points but are never named."""
    assert result.seats is not None
    decl = result.declarations
    return {
        "contract": result.contract.to_json(),
        "outcome": result.score.outcome,
        "sides": side_seats(result.contract, players),
        "trick_points": list(result.trick_points),
        "declarations": list(decl.points),
        "declarations_winner": decl.winner,
        "belote_points": list(result.belote_points),
        "capot": result.capot,
        "side_totals": list(result.score.totals),
        "side_score": list(result.score.score),
        "reserve": result.score.reserve,
        "tricks_won": tricks_won_json(result.tricks, players)[0],
        "seats": dict(zip(SEAT_NAMES, result.seats, strict=False)),
    }


def score_json(score: GameScore) -> dict[str, Any]:
    """The game's score (:meth:`~belote.scoring.GameScore.to_json`); at a table of
    three or two (§12) the seats come first and each deal shows only what each seat
    scored."""
    out = score.to_json()
    if score.players == 4:
        return out
    return {"seats": list(score_names(score.players)), **out,
            "hands": [score_dict(h.score, score.players) for h in score.hands]}


# --- words of the pages -----------------------------------------------------------------

# A hand's outcome (scoring.OUTCOMES) as the sheet's rows say it.
OUTCOME_LABELS: Final = {
    "made": N_("made"),
    "failed": N_("failed"),
    "litige": N_("litige"),
    "void": N_("void"),
    "counted": N_("counted"),
}

# Labels the rooms' pages take from routes_rooms.py (SMALL_LABELS, DEAL_LABELS,
# DEAL_NAMES), listed here for the catalogue; a test checks each one is translated.
ROOM_LABELS: Final = (
    N_("Belote for three"),
    N_("Belote for two"),
    N_("24 cards (7s and 8s out), 5 + 3 with a turned card"),
    N_("32 cards, 10 each and a 2-card kitty to the taker"),
    N_("6 + 3 each, the turned card and a bergère left face up"),
    N_("6 + 3 each, the turned card and a bergère left face up, 12 cards out"),
    N_("belote découverte: 8 face-up cards on 8 face-down, no bidding"),
    N_("24 cards"),
    N_("kitty"),
    N_("six each"),
    N_("stock"),
    N_("découverte"),
)


# --- the score sheet as a table keeps it ----------------------------------------------

DECL_LABELS: Final = {
    "tierce": N_("tierce"), "cinquante": N_("cinquante"), "cent": N_("cent"),
    "carre_J": N_("carré of jacks"), "carre_9": N_("carré of nines"),
    "carre_A": N_("carré of aces"), "carre_T": N_("carré of tens"),
    "carre_K": N_("carré of kings"), "carre_Q": N_("carré of queens"),
}


def declaration_comparison(lang: str, compared: Mapping[str, Any],
                           teams: Mapping[str, str]) -> str:
    """The comparison of declarations entered by name (forms.compare_declarations) as
    a sentence: each team's declarations and points, then who scores (§7.5).

    >>> from belote.options import make_rules
    >>> from belote.web.forms import compare_declarations, named_declarations
    >>> d = named_declarations({"decl_NS_tierce": "1", "decl_NS_cinquante": "1",
    ...                         "decl_EW_carre_9": "1"})
    >>> text = declaration_comparison(
    ...     "en", compare_declarations(d, make_rules(), 0, None), {"NS": "Us", "EW": "Them"})
    >>> text.split(". Best")[0]
    'Us: tierce 20 + cinquante 50 = 70 · Them: carré of nines 150'
    >>> "Best" + text.split(". Best")[1]
    'Best declaration: carré of nines (Them) over cinquante (Us): Them score 150.'
    """
    def label(kind: str) -> str:
        return gettext(lang, DECL_LABELS.get(kind, kind))

    parts = []
    for t in ("NS", "EW"):
        items = compared["items"][t]
        if not items:
            continue
        text = " + ".join(f"{label(k)} {p}" for k, p in items)
        if len(items) > 1:
            text += f" = {compared['totals'][t]}"
        parts.append(gettext(lang, N_("%(team)s: %(items)s")) % {"team": teams[t],
                                                                  "items": text})
    winner = compared["winner"]
    best = compared["best"]
    words = {"winner": teams.get(winner or "", ""), "points": compared["points"]}
    if compared["tied"]:
        words["best"] = label(best["NS"])
        if winner is None:
            verdict = gettext(lang, N_(
                "Equal best declarations (%(best)s each): nobody scores them.")) % words
        else:
            verdict = gettext(lang, N_(
                "Equal best declarations (%(best)s each): %(winner)s's is higher, "
                "%(winner)s score %(points)s.")) % words
    elif winner is None:
        verdict = ""
    else:
        loser = "EW" if winner == "NS" else "NS"
        if best[loser] is None:
            verdict = gettext(lang, N_("Only %(winner)s declared: %(winner)s score %(points)s.")
                              ) % words
        else:
            words.update(best=label(best[winner]), other=label(best[loser]),
                         loser=teams[loser])
            verdict = gettext(lang, N_(
                "Best declaration: %(best)s (%(winner)s) over %(other)s (%(loser)s): "
                "%(winner)s score %(points)s.")) % words
    return " · ".join(parts) + (". " + verdict if verdict else "")


def score_calculation(rules: Rules, entry: HandEntry) -> str | None:
    """How a coinched or surcoinched hand (and a failed contract) was counted, as the
    sheet writes it: ``(160 + 100) × 2`` (docs/rules.md §9.2-9.4), the winner's side
    of the score's breakdown (:class:`belote.scoring.Breakdown`); None for the hands
    whose winner scores his own trick points (§8, and a made hand at M = 1).

    >>> from belote.options import make_rules
    >>> from belote.scoring import HandEntry
    >>> e = HandEntry(taker=0, trick_points=(102, 60), contract=100, multiplier=2,
    ...               declarations=(0, 20))
    >>> score_calculation(make_rules("coinche"), e)
    '(160 + 100 + 20) × 2'
    """
    hand = score_hand(rules, entry)
    breakdown = hand.breakdown
    if breakdown is None or entry.taker is None:
        return None
    taker = entry.side_of(entry.taker)
    winner = taker if hand.outcome is Outcome.MADE else 1 - taker
    if breakdown.counted_by_points(winner):
        return None
    return breakdown.formula(winner)
