"""Bots that play belote from a seat's view only: ``random``, ``heuristic`` and ``pimc``.

:mod:`belote.bots.base` holds the interface (:class:`Bot`) and the drivers
:func:`play_deal` and :func:`play_game`; :mod:`belote.bots.registry` names the bots
(:func:`make_bot`).  Both are re-exported here.
"""

from __future__ import annotations

from belote.bots.base import *  # noqa: F403  (its __all__)
from belote.bots.base import __all__ as _base_names
from belote.bots.registry import *  # noqa: F403  (its __all__)
from belote.bots.registry import __all__ as _registry_names

__all__ = [*_base_names, *_registry_names]
