"""The bots by name: a bot's spec (``pimc:worlds=40,seconds=0.5``) parsed, and the bot it names.

The concrete bots import only :mod:`belote.bots.base`; this module imports them, so
nothing imports in a circle.  Every bot plays at every table of docs/rules.md (four
players, and three and two at §12's profiles ``classic-3p`` and ``classic-2p``).

>>> make_bot("pimc:worlds=8").name
'pimc:worlds=8'
>>> make_bot("minimax")
Traceback (most recent call last):
...
belote.errors.OptionError: unknown bot 'minimax' (one of random, heuristic, pimc)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from belote.bots.base import BaseBot
from belote.bots.heuristic import HeuristicBot
from belote.bots.pimc import PimcBot
from belote.bots.random_bot import RandomBot
from belote.errors import OptionError

__all__ = ["BOT_CLASSES", "BOT_NAMES", "make_bot", "parse_bot_spec", "split_bot_specs"]

BOT_CLASSES: Final[Mapping[str, type[BaseBot]]] = MappingProxyType(
    {"random": RandomBot, "heuristic": HeuristicBot, "pimc": PimcBot}
)
"""Each bot's class by the name its spec starts with."""

BOT_NAMES: Final = tuple(BOT_CLASSES)


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"pimc:worlds=40,seconds=0.5"`` → ``("pimc", {"worlds": "40", "seconds": "0.5"})``."""
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(f"not a bot: {spec!r} (one of {', '.join(BOT_NAMES)})")
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    settings: dict[str, str] = {}
    for part in rest.split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"bot spec {spec!r}: setting {part!r} is not KEY=VALUE")
        settings[key.strip()] = value.strip()
    return name, settings


def split_bot_specs(text: str) -> list[str]:
    """Split a comma-separated list of bot specs, keeping each spec's own settings.

    A piece with ``=`` and no ``:`` continues the settings of the spec before it.

    >>> split_bot_specs("pimc:worlds=40,seconds=0.5,heuristic, random")
    ['pimc:worlds=40,seconds=0.5', 'heuristic', 'random']
    """
    specs: list[str] = []
    for piece in text.split(","):
        part = piece.strip()
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def make_bot(spec: str, seed: int | None = None) -> BaseBot:
    """A bot from its spec: ``random``, ``heuristic``, ``pimc``, ``pimc:worlds=40,seconds=0.5``.

    The same spec and seed give a bot that makes the same decisions from the
    same views (``pimc`` with a ``seconds`` budget excepted: the clock may stop it).
    """
    name, settings = parse_bot_spec(spec)
    if name not in BOT_CLASSES:
        raise OptionError(f"unknown bot {name!r} (one of {', '.join(BOT_NAMES)})")
    return BOT_CLASSES[name](seed, **settings)
