"""How the client reaches touchd: its Unix socket (newline-delimited JSON), or its WebSocket
listener (one message per text frame; needs the `websockets` package)."""
from __future__ import annotations

import asyncio
from typing import Optional

__all__ = ["Transport", "open_transport"]

# touchd writes lines of at most a few MiB (a `views` or `snapshot` reply is at most 4 MiB).
_LINE_LIMIT = 8 * 1024 * 1024


class Transport:
    """A connection that carries one JSON message per line (or frame)."""

    async def read_line(self) -> Optional[str]:
        """The next message's text, or None at the end of the stream."""
        raise NotImplementedError

    async def write_line(self, text: str) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError


class _UnixTransport(Transport):
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader = reader
        self.writer = writer

    async def read_line(self) -> Optional[str]:
        line = await self.reader.readline()
        if not line:
            return None
        if not line.endswith(b"\n"):
            return None  # a cut line: the stream ended in the middle of it
        return line.decode("utf-8")

    async def write_line(self, text: str) -> None:
        self.writer.write(text.encode("utf-8") + b"\n")
        await self.writer.drain()

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (OSError, ConnectionError):
            pass


class _WebSocketTransport(Transport):
    def __init__(self, socket):
        self.socket = socket

    async def read_line(self) -> Optional[str]:
        import websockets  # noqa: F401 (imported by open_transport already)
        try:
            message = await self.socket.recv()
        except websockets.ConnectionClosed:
            return None
        return message if isinstance(message, str) else message.decode("utf-8")

    async def write_line(self, text: str) -> None:
        await self.socket.send(text)

    async def close(self) -> None:
        await self.socket.close()


async def open_transport(target: str, token: Optional[str] = None, origin: Optional[str] = None) -> Transport:
    """Connects to a Unix socket path, or to a `ws://`/`wss://` URL."""
    if target.startswith(("ws://", "wss://")):
        try:
            import websockets
        except ImportError as error:
            raise ConnectionError("a WebSocket URL needs the websockets package (pip install websockets)") from error
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            socket = await websockets.connect(target, extra_headers=headers, origin=origin, max_size=_LINE_LIMIT,
                                              open_timeout=5)
        except websockets.exceptions.InvalidStatusCode as error:
            # touchd's refusal (a bad token 401, an origin 403, no place 503): the body says why.
            raise ConnectionError(f"touchd refused the WebSocket handshake: HTTP {error.status_code}") from error
        except (websockets.exceptions.WebSocketException, asyncio.TimeoutError) as error:
            raise ConnectionError(f"no WebSocket handshake with {target}: {error}") from error
        return _WebSocketTransport(socket)
    reader, writer = await asyncio.open_unix_connection(target, limit=_LINE_LIMIT)
    return _UnixTransport(reader, writer)
