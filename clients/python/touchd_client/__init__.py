"""touchd_client: a Python client for touchd, the touch-input daemon (docs/protocol.md).

`Client` is for asyncio programs, `BlockingClient` for everything else; both reconnect after the
daemon restarts, subscribe again, add again the views they added, and report missed messages.
"""
from .aio import DEFAULT_SOCKET, Client, ConnectionLost, Subscription, TouchdError
from .blocking import BlockingClient
from .messages import (Action, Device, Disconnected, Dropped, Gap, Gesture, Goodbye, Hello, Hit, Message, Other,
                       Point, Press, Reconnected, Reload, Reply, Touch, FrameTouch, TouchFrame, parse_message)

__all__ = [
    "Client", "BlockingClient", "Subscription", "TouchdError", "ConnectionLost", "DEFAULT_SOCKET",
    "Message", "Hello", "Hit", "Touch", "FrameTouch", "TouchFrame", "Action", "Gesture", "Device", "Press", "Reply", "Reload", "Dropped",
    "Goodbye", "Other", "Gap", "Disconnected", "Reconnected", "Point", "parse_message",
]
__version__ = "0.1.0"
