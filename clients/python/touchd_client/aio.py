"""An asyncio client for touchd's socket (docs/protocol.md).

    async with Client("/run/touchd/touchd.sock") as touchd:
        await touchd.subscribe(topics=["hits", "actions"])
        await touchd.add_view("promo", parent="home.root", properties={"frame": [0, 0, 200, 100]})
        async for message in touchd.messages():
            if isinstance(message, Action):
                ...

What the client does for the application:
- requests are awaitable: `await touchd.request("views")` returns the reply's `result`, or raises
  `TouchdError` with touchd's error code and message;
- it reconnects after the daemon restarts (exponential backoff, also between connections that
  end within a second of their `hello`), subscribes again with the same
  arguments and adds again the views it added (`add_view`); after a layout `reload` it adds again
  the views the reload dropped. `Subscription` objects stay valid across both;
- it checks `seq`: a `Gap` message says that messages were missed without a `dropped` notice;
  `Dropped` messages (touchd dropped moves for a slow reader) are passed on as they come.
"""
from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Dict, List, Optional, Tuple

from .messages import (Disconnected, Dropped, Gap, Goodbye, Hello, Message, Other, Reconnected, Reload, Reply,
                       parse_message)
from .transport import Transport, open_transport

__all__ = ["Client", "Subscription", "TouchdError", "ConnectionLost", "DEFAULT_SOCKET"]

DEFAULT_SOCKET = os.environ.get("TOUCHD_SOCKET", "/run/touchd/touchd.sock")

# A connection that lasted this long (seconds) was a working one: after it ends, the client
# connects again at once; after a shorter one, it waits the backoff first.
_STEADY_CONNECTION = 1.0


class TouchdError(Exception):
    """touchd refused a request: `code` is the protocol's error code (`forbidden`, `unknown_view`...)."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def is_final_goodbye(reason: str) -> bool:
    """Whether touchd's `goodbye` means it will not serve this client again, so connecting again
    changes nothing: its replay is over (`input ended`), or this connection is not let in
    (`not allowed`). `touchctl` reads them the same way."""
    return reason == "input ended" or reason.startswith("not allowed")


class ConnectionLost(Exception):
    """The connection ended before the request's reply came (the request may or may not have run)."""


@dataclass
class Subscription:
    """A subscription the client keeps: `arguments` as given, `server_id` its number on the current
    connection (it changes when the client subscribes again after reconnecting)."""
    arguments: Dict[str, Any]
    server_id: Optional[int] = None
    active: bool = True


@dataclass
class _OwnedView:
    parent: str
    properties: Dict[str, Any]
    keep: bool
    extra: Dict[str, Any] = field(default_factory=dict)


def _typed_message(obj: Any) -> Message:
    """The typed message of a line touchd sent on a connection. A message of a known type whose
    fields this version cannot read (a `null` where a number was expected, a field of a newer
    form) comes as `Other`, with its fields in `raw`, rather than ending the connection: only a
    line that is not a message at all (no `type` or `seq`) does."""
    try:
        return parse_message(obj)
    except ValueError:
        if isinstance(obj, dict) and isinstance(obj.get("type"), str) and isinstance(obj.get("seq"), int):
            return Other(obj["type"], obj["seq"], obj)
        raise


class Client:
    """One logical connection to touchd that survives the daemon's restarts.

    `target` is the Unix socket's path, or a `ws://` / `wss://` URL of touchd's WebSocket listener
    (then `token` is sent as the `Authorization: Bearer` header and `origin` as `Origin`).
    `reconnect=False` makes a lost connection final: `messages()` ends after `Disconnected`. A
    final `goodbye` (`input ended`: touchd's replay is over; `not allowed`) ends it the same way.
    `queue_size` bounds the messages of touchd that wait for the application to read them: beyond
    it they are dropped, and a `Gap` says which before the next message that is kept (the client's
    own messages and the end of `messages()` are never dropped).
    """

    def __init__(self, target: str = DEFAULT_SOCKET, *, reconnect: bool = True, initial_backoff: float = 0.1,
                 max_backoff: float = 5.0, token: Optional[str] = None, origin: Optional[str] = None,
                 queue_size: int = 10000):
        self.target = target
        self.reconnect = reconnect
        self.initial_backoff = initial_backoff
        self.max_backoff = max_backoff
        self.token = token
        self.origin = origin
        self.hello: Optional[Hello] = None
        self._transport: Optional[Transport] = None
        self.queue_size = queue_size
        self._messages: "asyncio.Queue[Optional[Message]]" = asyncio.Queue()
        # The first and last `seq` of touchd's messages dropped because the application did not read.
        self._overflow: Optional[Tuple[int, int]] = None
        self._pending: Dict[Any, asyncio.Future] = {}
        self._next_id = 1
        # The reason of the connection's `goodbye`, once one came.
        self._goodbye: Optional[str] = None
        self._last_seq = 0
        self._subscriptions: List[Subscription] = []
        self._views: Dict[str, _OwnedView] = {}
        self._reader: Optional[asyncio.Task] = None
        self._closed = False
        # When the current connection was made (the loop's clock), and the wait before connecting
        # again after a connection that did not last (it grows as `_open`'s backoff does).
        self._connected_at = 0.0
        self._retry_delay = initial_backoff
        self._connected = asyncio.Event()

    # Connection

    async def __aenter__(self) -> "Client":
        await self.connect()
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.close()

    async def connect(self) -> Hello:
        """Connects (retrying with backoff while `reconnect` is on) and returns touchd's `hello`."""
        await self._open(first=True)
        assert self.hello is not None
        return self.hello

    async def close(self) -> None:
        """Closes the connection for good: pending requests fail with `ConnectionLost`."""
        self._closed = True
        if self._transport is not None:
            await self._transport.close()
        if self._reader is not None and self._reader is not asyncio.current_task():
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):
                pass
        self._fail_pending("the client closed the connection")
        self._put(None)

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    async def wait_connected(self, timeout: Optional[float] = None) -> None:
        """Waits until the client is connected (again)."""
        await asyncio.wait_for(self._connected.wait(), timeout)

    # Messages

    async def messages(self) -> AsyncIterator[Message]:
        """Every message, in order, with the client's own `Gap`, `Disconnected` and `Reconnected`.
        Ends when the client is closed (or the connection is lost with `reconnect=False`)."""
        while True:
            message = await self._messages.get()
            if message is None:
                self._put(None)  # let other readers end too
                return
            yield message

    async def next_message(self, timeout: Optional[float] = None) -> Optional[Message]:
        """The next message, or None when the client has ended."""
        message = await asyncio.wait_for(self._messages.get(), timeout)
        if message is None:
            self._put(None)
        return message

    # Requests

    async def request(self, cmd: str, **arguments: Any) -> Any:
        """Sends a request and returns its reply's `result`; raises `TouchdError` when refused,
        `ConnectionLost` when the connection ended first. It waits for a connection and for the
        reply as long as they take: bound it with `asyncio.wait_for`, which gives the request up."""
        await self._connected.wait()
        return await self._request_now(cmd, arguments)

    async def subscribe(self, topics: Optional[List[str]] = None, views: Optional[List[str]] = None,
                        actions: Optional[List[str]] = None, touch_samples: Optional[str] = None) -> Subscription:
        """Subscribes; the subscription is made again after every reconnection."""
        arguments = {key: value for key, value in (("topics", topics), ("views", views), ("actions", actions),
                                                   ("touch_samples", touch_samples)) if value is not None}
        result = await self.request("subscribe", **arguments)
        subscription = Subscription(arguments, int(result["subscription"]))
        self._subscriptions.append(subscription)
        return subscription

    async def unsubscribe(self, subscription: Subscription) -> None:
        subscription.active = False
        if subscription in self._subscriptions:
            self._subscriptions.remove(subscription)
        if subscription.server_id is not None and self.connected:
            await self.request("unsubscribe", subscription=subscription.server_id)

    async def add_view(self, view: str, parent: str, properties: Dict[str, Any], keep: bool = False) -> None:
        """Adds a view this client owns: added again after a reconnection or a reload."""
        await self.request("add_view", view=view, parent=parent, properties=properties, keep=keep)
        self._views[view] = _OwnedView(parent, dict(properties), keep)

    async def remove_view(self, view: str) -> None:
        self._views.pop(view, None)
        for owned in [name for name, v in self._views.items() if v.parent == view]:
            self._views.pop(owned, None)
        await self.request("remove_view", view=view)

    async def set(self, view: str, **properties: Any) -> None:
        """Sets properties of a view; for a view this client owns they are kept for re-adding."""
        await self.request("set", view=view, properties=properties)
        if view in self._views:
            self._views[view].properties.update(properties)

    @property
    def owned_views(self) -> List[str]:
        return list(self._views)

    # Inside

    def _put(self, message: Optional[Message]) -> None:
        """Queues a message for the application: one of touchd's beyond `queue_size` unread ones is
        dropped, and a `Gap` before the next message queued says which were."""
        if message is not None and message.seq > 0 and self._messages.qsize() >= self.queue_size:
            first = self._overflow[0] if self._overflow is not None else message.seq
            self._overflow = (first, message.seq)
            return
        if self._overflow is not None:
            first, last = self._overflow
            self._overflow = None
            self._messages.put_nowait(Gap("gap", 0, {}, first, last))
        self._messages.put_nowait(message)

    async def _request_now(self, cmd: str, arguments: Dict[str, Any]) -> Any:
        transport = self._transport
        if transport is None:
            raise ConnectionLost("not connected")
        request_id = self._next_id
        self._next_id += 1
        future = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            await transport.write_line(json.dumps({"id": request_id, "cmd": cmd, **arguments}, separators=(",", ":")))
        except (OSError, ConnectionError) as error:
            self._pending.pop(request_id, None)
            raise ConnectionLost(str(error)) from error
        try:
            reply: Reply = await future
        finally:
            self._pending.pop(request_id, None)  # a request given up on (a timeout) leaves nothing behind
        if not reply.ok:
            raise TouchdError(reply.error_code or "unknown", reply.error_message or "")
        return reply.result

    def _fail_pending(self, reason: str) -> None:
        pending, self._pending = self._pending, {}
        for future in pending.values():
            if not future.done():
                future.set_exception(ConnectionLost(reason))

    async def _open(self, first: bool) -> None:
        attempts = 0
        delay = self.initial_backoff
        while True:
            attempts += 1
            try:
                transport = await open_transport(self.target, token=self.token, origin=self.origin)
                line = await transport.read_line()
                if line is None:
                    raise ConnectionLost("touchd closed the connection before its hello")
                message = parse_message(json.loads(line))
                if isinstance(message, Goodbye):
                    await transport.close()
                    refusal = ConnectionLost(f"touchd refused the connection: {message.reason}")
                    refusal.final = is_final_goodbye(message.reason)
                    raise refusal
                if not isinstance(message, Hello):
                    raise ConnectionLost(f"touchd's first message was {message.type}, not hello")
                break
            except (OSError, ConnectionError, ConnectionLost, ValueError) as error:
                if self._closed or not self.reconnect or getattr(error, "final", False):
                    raise ConnectionLost(f"cannot connect to {self.target}: {error}") from error
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.max_backoff)
        self._transport = transport
        self.hello = message
        self._last_seq = message.seq
        self._put(message)
        self._reader = asyncio.get_running_loop().create_task(self._read_loop(transport))
        self._connected_at = asyncio.get_running_loop().time()
        self._connected.set()
        if not first:
            restored = await self._restore()
            self._put(Reconnected("reconnected", 0, {}, attempts, tuple(restored)))

    async def _restore(self) -> List[str]:
        """Subscribes again and adds the owned views again, on a new connection."""
        for subscription in list(self._subscriptions):
            try:
                result = await self._request_now("subscribe", subscription.arguments)
                subscription.server_id = int(result["subscription"])
            except (TouchdError, ConnectionLost):
                subscription.server_id = None
        return await self._add_views_again(list(self._views))

    async def _add_views_again(self, names: List[str]) -> List[str]:
        restored = []
        for name in names:
            owned = self._views.get(name)
            if owned is None:
                continue
            try:
                await self._request_now("add_view", {"view": name, "parent": owned.parent,
                                                     "properties": owned.properties, "keep": owned.keep})
                restored.append(name)
            except TouchdError as error:
                if error.code != "bad_argument" or "already" not in error.message:
                    self._views.pop(name, None)  # its parent is gone, say: it can no longer be owned
            except ConnectionLost:
                break
        return restored

    async def _read_loop(self, transport: Transport) -> None:
        self._goodbye = None
        reason = "touchd closed the connection"
        try:
            while True:
                line = await transport.read_line()
                if line is None:
                    break
                self._receive(_typed_message(json.loads(line)))
        except (OSError, ConnectionError, ValueError) as error:
            reason = f"the connection failed: {error}"
        except asyncio.CancelledError:
            return
        await self._lost(reason, final=is_final_goodbye(self._goodbye or ""))

    def _receive(self, message: Message) -> None:
        expected = self._last_seq + 1
        if message.seq > expected and not (isinstance(message, Dropped) and message.first_seq <= expected):
            self._put(Gap("gap", 0, {}, expected, message.seq - 1))
        self._last_seq = max(self._last_seq, message.seq)
        if isinstance(message, Reply):
            future = self._pending.pop(message.id, None)
            if future is not None and not future.done():
                future.set_result(message)
            return
        if isinstance(message, Goodbye):
            self._connected.clear()
            self._goodbye = message.reason
        if isinstance(message, Reload):
            dropped = message.dropped.get("added", [])
            mine = [name for name in self._views if name in dropped]
            if mine:
                asyncio.get_running_loop().create_task(self._add_views_again(mine))
        self._put(message)

    async def _lost(self, reason: str, final: bool = False) -> None:
        self._connected.clear()
        self._transport = None
        self._fail_pending(reason)
        if self._closed:
            return
        self._put(Disconnected("disconnected", 0, {}, reason))
        # A final goodbye ends the client as `reconnect=False` would: connecting again changes nothing.
        if not self.reconnect or final:
            self._closed = True
            self._put(None)
            return
        # A daemon that greets and closes at once (one starting and stopping over and over) is
        # connected to again with backoff, not in a busy loop.
        if asyncio.get_running_loop().time() - self._connected_at < _STEADY_CONNECTION:
            await asyncio.sleep(self._retry_delay)
            self._retry_delay = min(self._retry_delay * 2, self.max_backoff)
        else:
            self._retry_delay = self.initial_backoff
        try:
            await self._open(first=False)
        except ConnectionLost as error:
            self._put(Disconnected("disconnected", 0, {}, str(error)))
            self._put(None)
