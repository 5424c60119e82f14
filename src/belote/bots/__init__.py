"""Bots that play belote from a seat's view only: ``random``, ``heuristic`` and ``pimc``.

See :mod:`belote.bots.base` for the interface (:class:`Bot`), :func:`make_bot`
and the drivers :func:`play_deal` and :func:`play_game`.
"""

from __future__ import annotations

from belote.bots.base import (
    BOT_NAMES,
    BaseBot,
    Bot,
    BotSetting,
    legal_calls,
    legal_cards,
    make_bot,
    parse_bot_spec,
    play_deal,
    play_game,
    played_by,
    split_bot_specs,
)

__all__ = [
    "BOT_NAMES",
    "BaseBot",
    "Bot",
    "BotSetting",
    "legal_calls",
    "legal_cards",
    "make_bot",
    "parse_bot_spec",
    "play_deal",
    "play_game",
    "played_by",
    "split_bot_specs",
]
