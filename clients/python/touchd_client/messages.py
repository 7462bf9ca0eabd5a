"""Typed messages of touchd's socket protocol (docs/protocol.md).

Every line touchd writes becomes one of these classes; a message type this version does not know
becomes an `Other`, so that a newer daemon never breaks an older client. Each message keeps the
whole JSON object it came from in `raw`, for the fields a class does not name.

The client also makes a few messages of its own, which touchd never sends: `Gap` (messages were
missed and no `dropped` told of them yet), `Disconnected` and `Reconnected`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

__all__ = [
    "Message", "Hello", "Hit", "Touch", "FrameTouch", "TouchFrame", "Action", "Gesture", "Device", "Press", "Reply", "Reload",
    "Dropped", "Goodbye", "Other", "Gap", "Disconnected", "Reconnected", "Point", "parse_message",
]


@dataclass(frozen=True)
class Point:
    """A point in window or view coordinates (points)."""
    x: float
    y: float

    @staticmethod
    def of(value: Any) -> Optional["Point"]:
        if isinstance(value, dict) and "x" in value and "y" in value:
            return Point(float(value["x"]), float(value["y"]))
        return None


@dataclass(frozen=True)
class Message:
    """What every message has: its type, its sequence number on this connection and the raw object."""
    type: str
    seq: int
    raw: dict = field(repr=False, compare=False)


@dataclass(frozen=True)
class Hello(Message):
    """The first message of a connection."""
    protocol: int = 0
    daemon: str = ""
    role: str = ""
    topics: tuple = ()


@dataclass(frozen=True)
class Hit(Message):
    """Where a touch landed, at touch-down (topic `hits`)."""
    time: float = 0.0
    touch: int = 0
    device: str = ""
    window: Optional[str] = None
    view: Optional[str] = None
    path: tuple = ()
    point: Optional[Point] = None
    point_in_view: Optional[Point] = None
    tap_count: int = 0
    delivered: bool = True
    reason: Optional[str] = None


@dataclass(frozen=True)
class Touch(Message):
    """A change of a touch (topic `touches`)."""
    time: float = 0.0
    touch: int = 0
    phase: str = ""
    device: str = ""
    window: Optional[str] = None
    view: Optional[str] = None
    location: Optional[Point] = None
    previous_location: Optional[Point] = None
    location_in_view: Optional[Point] = None
    tap_count: int = 0
    force: float = 0.0
    major_radius: float = 0.0
    coalesced: tuple = ()


@dataclass(frozen=True)
class FrameTouch:
    """One touch of a `touch_frame`: `[touch, phase, x, y, force, major_radius]` (elements a newer
    daemon adds after these are in the message's `raw`)."""
    touch: int
    phase: str
    x: float
    y: float
    force: float
    major_radius: float

    @staticmethod
    def of(value: Any) -> "FrameTouch":
        if not isinstance(value, list) or len(value) < 6:
            raise ValueError(f"not a touch_frame entry: {value!r:.100}")
        return FrameTouch(int(value[0]), str(value[1]), float(value[2]), float(value[3]), float(value[4]),
                          float(value[5]))


@dataclass(frozen=True)
class TouchFrame(Message):
    """One input frame's changed touches, compactly (topic `touches`, `touch_samples="frames"`)."""
    time: float = 0.0
    device: str = ""
    window: Optional[str] = None
    touches: tuple = ()


@dataclass(frozen=True)
class Action(Message):
    """An action of a handler, a recognizer or a control (topic `actions`)."""
    time: float = 0.0
    name: str = ""
    responder: Optional[str] = None
    event: str = ""
    view: Optional[str] = None
    touches: tuple = ()
    payload: dict = field(default_factory=dict, compare=False)
    control: Optional[str] = None
    control_event: Optional[str] = None
    control_action: Optional[str] = None
    value: Any = None


@dataclass(frozen=True)
class Gesture(Message):
    """A recognizer changed state (topic `gestures`)."""
    time: float = 0.0
    recognizer: str = ""
    kind: str = ""
    view: Optional[str] = None
    state: str = ""
    location: Optional[Point] = None
    touches: tuple = ()


@dataclass(frozen=True)
class Device(Message):
    """An input device appeared (`event` "added") or went away ("removed") (topic `devices`)."""
    event: str = ""
    device: str = ""
    already_present: bool = False
    description: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Press(Message):
    """A key went down or up (topic `presses`)."""
    time: float = 0.0
    press: int = 0
    phase: str = ""
    key: str = ""
    code: int = 0
    responder: Optional[str] = None


@dataclass(frozen=True)
class Reply(Message):
    """The answer to a request."""
    id: Any = None
    ok: bool = False
    result: Any = None
    error_code: Optional[str] = None
    error_message: Optional[str] = None


@dataclass(frozen=True)
class Reload(Message):
    """The layout was reloaded: what clients changed at run time is gone (`dropped`)."""
    views: int = 0
    dropped: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Dropped(Message):
    """touchd dropped `count` messages for this slow client, from `first_seq` to `last_seq`."""
    count: int = 0
    first_seq: int = 0
    last_seq: int = 0


@dataclass(frozen=True)
class Goodbye(Message):
    """touchd is closing this connection, and why."""
    reason: str = ""


@dataclass(frozen=True)
class Other(Message):
    """A message type this client has no class for (see `raw`)."""


@dataclass(frozen=True)
class Gap(Message):
    """Made by the client: the sequence numbers `first_seq` to `last_seq` never arrived and no
    `dropped` message accounted for them (yet). touchd sends `dropped` for every message it drops,
    so a gap that no `dropped` follows means a bug or a broken connection. A gap also reports the
    messages the client itself dropped, from `first_seq` to `last_seq`, because the application
    left `queue_size` messages unread."""
    first_seq: int = 0
    last_seq: int = 0


@dataclass(frozen=True)
class Disconnected(Message):
    """Made by the client: the connection ended (`reason`); it reconnects unless told not to."""
    reason: str = ""


@dataclass(frozen=True)
class Reconnected(Message):
    """Made by the client: connected again after `attempts` tries; subscriptions and owned views
    were restored (`restored_views` lists the views added again)."""
    attempts: int = 0
    restored_views: tuple = ()


def _tuple(value: Any) -> tuple:
    return tuple(value) if isinstance(value, list) else ()


def _build(kind: str, seq: int, obj: dict) -> Message:
    get = obj.get
    if kind == "hello":
        return Hello(kind, seq, obj, int(get("protocol", 0)), str(get("daemon", "")), str(get("role", "")),
                     _tuple(get("topics")))
    if kind == "hit":
        return Hit(kind, seq, obj, float(get("time", 0)), int(get("touch", 0)), str(get("device", "")),
                   get("window"), get("view"), _tuple(get("path")), Point.of(get("point")),
                   Point.of(get("point_in_view")), int(get("tap_count", 0)), bool(get("delivered", True)),
                   get("reason"))
    if kind == "touch":
        return Touch(kind, seq, obj, float(get("time", 0)), int(get("touch", 0)), str(get("phase", "")),
                     str(get("device", "")), get("window"), get("view"), Point.of(get("location")),
                     Point.of(get("previous_location")), Point.of(get("location_in_view")),
                     int(get("tap_count", 0)), float(get("force", 0)), float(get("major_radius", 0)),
                     _tuple(get("coalesced")))
    if kind == "touch_frame":
        return TouchFrame(kind, seq, obj, float(get("time", 0)), str(get("device", "")), get("window"),
                          tuple(FrameTouch.of(entry) for entry in _tuple(get("touches"))))
    if kind == "action":
        payload = get("payload")
        return Action(kind, seq, obj, float(get("time", 0)), str(get("name", "")), get("responder"),
                      str(get("event", "")), get("view"), _tuple(get("touches")),
                      payload if isinstance(payload, dict) else {}, get("control"), get("control_event"),
                      get("control_action"), get("value"))
    if kind == "gesture":
        return Gesture(kind, seq, obj, float(get("time", 0)), str(get("recognizer", "")), str(get("kind", "")),
                       get("view"), str(get("state", "")), Point.of(get("location")), _tuple(get("touches")))
    if kind == "device":
        description = get("description")
        return Device(kind, seq, obj, str(get("event", "")), str(get("device", "")),
                      bool(get("already_present", False)), description if isinstance(description, dict) else {})
    if kind == "press":
        return Press(kind, seq, obj, float(get("time", 0)), int(get("press", 0)), str(get("phase", "")),
                     str(get("key", "")), int(get("code", 0)), get("responder"))
    if kind == "reply":
        error = get("error") if isinstance(get("error"), dict) else {}
        return Reply(kind, seq, obj, get("id"), bool(get("ok", False)), get("result"), error.get("code"),
                     error.get("message"))
    if kind == "reload":
        dropped = get("dropped")
        return Reload(kind, seq, obj, int(get("views", 0)), dropped if isinstance(dropped, dict) else {})
    if kind == "dropped":
        return Dropped(kind, seq, obj, int(get("count", 0)), int(get("first_seq", 0)), int(get("last_seq", 0)))
    if kind == "goodbye":
        return Goodbye(kind, seq, obj, str(get("reason", "")))
    return Other(kind, seq, obj)


def parse_message(obj: Any) -> Message:
    """The typed message for one decoded JSON line. Raises ValueError for what is not a message."""
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str) or not isinstance(obj.get("seq"), int):
        raise ValueError(f"not a touchd message: {obj!r:.200}")
    try:
        return _build(obj["type"], obj["seq"], obj)
    except (TypeError, ValueError) as error:
        raise ValueError(f"a malformed {obj['type']} message: {error}") from error
