"""The web application of ``belote serve``: score sheets, a table against bots and
rooms with friends (FastAPI, server-rendered pages, a little plain JavaScript).

It needs the ``web`` extra (``pip install 'belote[web]'``); the core package
never imports it.  The names below are loaded on first use, so that
:mod:`belote.web.settings` (standard library only) can be read by the command
line without loading FastAPI.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from belote.web.app import create_app
    from belote.web.room_manager import RoomManager
    from belote.web.rooms import Room, RoomError, RoomSettings

__all__ = ["Room", "RoomError", "RoomManager", "RoomSettings", "create_app"]

_HOMES = {"create_app": "belote.web.app", "Room": "belote.web.rooms",
          "RoomError": "belote.web.rooms", "RoomManager": "belote.web.room_manager",
          "RoomSettings": "belote.web.settings"}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'belote.web' has no attribute {name!r}")
