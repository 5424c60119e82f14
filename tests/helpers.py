"""Small builders shared by the tests."""

from __future__ import annotations

from typing import Any

from belote.cards import mask_of, parse_card, parse_trump
from belote.options import Rules, make_rules
from belote.play import PlayState


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
