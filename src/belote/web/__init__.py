"""The web application of ``belote serve``: score sheets, a table against bots and
rooms with friends (FastAPI, server-rendered pages, a little plain JavaScript).

It needs the ``web`` extra (``pip install 'belote[web]'``); the core package
never imports it.
"""

from __future__ import annotations

from belote.web.app import create_app
from belote.web.rooms import Room, RoomError, RoomManager, RoomSettings

__all__ = ["Room", "RoomError", "RoomManager", "RoomSettings", "create_app"]
