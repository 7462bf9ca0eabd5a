"""A blocking client for scripts and programs without asyncio: the asyncio client run on a thread.

    with BlockingClient("/run/touchd/touchd.sock") as touchd:
        touchd.subscribe(topics=["actions"])
        for message in touchd.messages():
            ...

Every method of `aio.Client` is here with the same arguments; each blocks until its reply (at most
`timeout` seconds, then it raises `TimeoutError` and the request is given up) and raises the same
errors. The methods may be called from any thread.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from typing import Any, Dict, Iterator, List, Optional

from .aio import DEFAULT_SOCKET, Client, Subscription
from .messages import Hello, Message

__all__ = ["BlockingClient"]


class BlockingClient:
    def __init__(self, target: str = DEFAULT_SOCKET, *, timeout: float = 30.0, **options: Any):
        self.timeout = timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="touchd-client", daemon=True)
        self._thread.start()
        self._client: Client = self._call(self._make(target, options))

    @staticmethod
    async def _make(target: str, options: Dict[str, Any]) -> Client:
        return Client(target, **options)

    def _call(self, coroutine, timeout: Optional[float] = None) -> Any:
        """Runs `coroutine` on the client's loop; after `timeout` seconds it is given up (cancelled:
        a request's reply that comes later is ignored) and `TimeoutError` is raised."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError as error:
            future.cancel()
            raise TimeoutError(f"no answer from touchd within {timeout} s") from error

    def __enter__(self) -> "BlockingClient":
        self.connect()
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    @property
    def hello(self) -> Optional[Hello]:
        return self._client.hello

    @property
    def connected(self) -> bool:
        return self._client.connected

    @property
    def owned_views(self) -> List[str]:
        return self._client.owned_views

    def connect(self, timeout: Optional[float] = None) -> Hello:
        """Connects (retrying while `reconnect` is on, for at most `timeout` seconds if given)."""
        return self._call(self._client.connect(), timeout)

    def close(self) -> None:
        if self._loop.is_closed():
            return
        self._call(self._client.close(), self.timeout)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(self.timeout)
        self._loop.close()

    def request(self, cmd: str, **arguments: Any) -> Any:
        return self._call(self._client.request(cmd, **arguments), self.timeout)

    def subscribe(self, **arguments: Any) -> Subscription:
        return self._call(self._client.subscribe(**arguments), self.timeout)

    def unsubscribe(self, subscription: Subscription) -> None:
        self._call(self._client.unsubscribe(subscription), self.timeout)

    def add_view(self, view: str, parent: str, properties: Dict[str, Any], keep: bool = False) -> None:
        self._call(self._client.add_view(view, parent, properties, keep), self.timeout)

    def remove_view(self, view: str) -> None:
        self._call(self._client.remove_view(view), self.timeout)

    def set(self, view: str, **properties: Any) -> None:
        self._call(self._client.set(view, **properties), self.timeout)

    def wait_connected(self, timeout: Optional[float] = None) -> None:
        self._call(self._client.wait_connected(timeout))

    def next_message(self, timeout: Optional[float] = None) -> Optional[Message]:
        """The next message (None when the client has ended); raises TimeoutError after `timeout`."""
        try:
            return self._call(self._client.next_message(timeout))
        except asyncio.TimeoutError as error:
            raise TimeoutError(f"no message within {timeout} s") from error

    def messages(self) -> Iterator[Message]:
        """Every message until the client ends (see `aio.Client.messages`)."""
        while True:
            message = self.next_message()
            if message is None:
                return
            yield message
