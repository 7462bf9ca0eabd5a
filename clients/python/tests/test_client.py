"""The Python client against the real daemon (TOUCHD_BIN: the folder with touchd), and its pure parts.

    TOUCHD_BIN=$(swift build --show-bin-path) python3 -m unittest discover -s clients/python/tests -v
"""
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
sys.path.insert(0, str(HERE.parent))

from touchd_client import (Action, BlockingClient, Client, ConnectionLost, Disconnected, Dropped, Gap, Hello, Hit,  # noqa: E402
                           FrameTouch, Other, Reconnected, Reload, TouchdError, TouchFrame, parse_message)

BIN = os.environ.get("TOUCHD_BIN")
LAYOUT = REPO / "config" / "kiosk.toml"
TAPS = REPO / "config" / "demo-taps.evemu"
VIEW = {"frame": [10, 700, 120, 60]}


class Daemon:
    """touchd on a private socket, with the kiosk layout and, if given, a replay (after which it
    exits, with `exit_after_replay`)."""

    def __init__(self, socket, replay=None, layout=LAYOUT, exit_after_replay=False, websocket=None):
        arguments = [os.path.join(BIN, "touchd"), "--config", str(layout), "--socket", socket,
                     "--log-level", "error", "--no-devices"]
        if websocket:
            address, tokens = websocket
            arguments += ["--websocket", address, "--websocket-tokens", tokens]
        if replay:
            arguments += ["--replay", str(replay), "--replay-waits-for-client"]
        if exit_after_replay:
            arguments.append("--exit-after-replay")
        self.process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while not os.path.exists(socket):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"touchd did not start ({self.process.returncode})")
            time.sleep(0.02)

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


@unittest.skipUnless(BIN, "TOUCHD_BIN is not set: the tests against the daemon were skipped")
class AgainstTheDaemon(unittest.IsolatedAsyncioTestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="touchd-client-")
        self.socket = os.path.join(self.dir, "touchd.sock")
        self.daemons = []

    def tearDown(self):
        for daemon in self.daemons:
            if daemon.process.poll() is None:
                daemon.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def start(self, **options):
        daemon = Daemon(self.socket, **options)
        self.daemons.append(daemon)
        return daemon

    async def next_of(self, client, kind, timeout=20):
        while True:
            message = await client.next_message(timeout)
            if message is None:
                self.fail(f"the client ended before a {kind.__name__}")
            if isinstance(message, kind):
                return message

    async def test_typed_hits_and_actions_of_a_replay(self):
        self.start(replay=TAPS)
        async with Client(self.socket) as touchd:
            self.assertIsInstance(touchd.hello, Hello)
            self.assertEqual(touchd.hello.protocol, 2)
            await touchd.subscribe(topics=["hits", "actions"])
            hit = await self.next_of(touchd, Hit)
            self.assertEqual(hit.view, "tile.doors")
            self.assertEqual(hit.path, ("main", "home.root", "grid", "tile.doors"))
            self.assertAlmostEqual(hit.point.x, 200.05, places=2)
            action = await self.next_of(touchd, Action)
            self.assertEqual((action.name, action.responder, action.payload), ("open-tile", "tile.doors.tap",
                                                                               {"tile": "doors"}))

    async def test_a_refused_request_raises_with_the_code(self):
        self.start()
        async with Client(self.socket) as touchd:
            with self.assertRaises(TouchdError) as refused:
                await touchd.set("no.such.view", hidden=True)
            self.assertEqual(refused.exception.code, "unknown_view")
            self.assertEqual(await touchd.request("ping"), {"pong": True})

    async def test_a_restart_is_survived_with_subscriptions_and_views(self):
        first = self.start()
        async with Client(self.socket, initial_backoff=0.05, max_backoff=0.2) as touchd:
            subscription = await touchd.subscribe(topics=["hits", "actions"])
            await touchd.add_view("client.badge", parent="home.root", properties=VIEW)
            first.stop()
            lost = await self.next_of(touchd, Disconnected)
            self.assertIn("closed", lost.reason)
            self.start(replay=TAPS)
            seen = []
            while not seen or not isinstance(seen[-1], Reconnected):
                seen.append(await touchd.next_message(20))
            self.assertEqual(seen[-1].restored_views, ("client.badge",))
            self.assertIsNotNone(subscription.server_id)
            views = await touchd.request("views")
            self.assertIn("client.badge", str(views))
            # The subscription was made again: the new daemon's replay reaches the client (its first
            # hit may come before the client says it has restored everything).
            hit = next((m for m in seen if isinstance(m, Hit)), None) or await self.next_of(touchd, Hit)
            self.assertEqual(hit.view, "tile.doors")

    async def test_views_dropped_by_a_reload_are_added_again(self):
        self.start()
        async with Client(self.socket) as touchd:
            await touchd.subscribe(topics=["hits"])
            await touchd.add_view("client.badge", parent="home.root", properties=VIEW)
            await touchd.request("reload")
            reload = await self.next_of(touchd, Reload)
            self.assertEqual(reload.dropped.get("added"), ["client.badge"])
            for _ in range(100):
                if "client.badge" in str(await touchd.request("views")):
                    break
                await asyncio.sleep(0.05)
            else:
                self.fail("the view dropped by the reload was not added again")

    async def test_over_websocket_with_a_token(self):
        try:
            import websockets  # noqa: F401
        except ImportError:
            self.skipTest("no websockets package: the WebSocket transport was not tested")
        tokens = os.path.join(self.dir, "websocket-tokens")
        with open(tokens, "w") as f:
            f.write("control python-client-token-0123456789\n")
        os.chmod(tokens, 0o600)
        import socket as sockets
        with sockets.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.start(replay=TAPS, websocket=(f"127.0.0.1:{port}", tokens))
        url = f"ws://127.0.0.1:{port}/"
        for _ in range(100):
            try:
                sockets.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        async with Client(url, token="python-client-token-0123456789") as touchd:
            self.assertEqual(touchd.hello.role, "control")
            await touchd.subscribe(topics=["hits", "actions"])
            hit = await self.next_of(touchd, Hit)
            self.assertEqual(hit.view, "tile.doors")
            self.assertEqual(await touchd.request("ping"), {"pong": True})
            with self.assertRaises(TouchdError) as raised:
                await touchd.set("no.such.view", hidden=True)
            self.assertEqual(raised.exception.code, "unknown_view")
        with self.assertRaises(ConnectionLost):
            async with Client(url, token="not-the-token-0123456789", reconnect=False):
                pass

    async def test_a_final_goodbye_ends_the_client(self):
        self.start(replay=TAPS, exit_after_replay=True)
        async with Client(self.socket, initial_backoff=0.05, max_backoff=0.2) as touchd:
            await touchd.subscribe(topics=["hits"])
            goodbye = disconnected = None
            while True:
                message = await touchd.next_message(30)
                if message is None:
                    break
                if isinstance(message, Disconnected):
                    disconnected = message
                if message.type == "goodbye":
                    goodbye = message
                self.assertNotIsInstance(message, Reconnected)
            self.assertEqual(goodbye.reason, "input ended")
            self.assertIsNotNone(disconnected, "told that the connection ended")

    async def test_without_reconnect_the_messages_end(self):
        daemon = self.start()
        touchd = Client(self.socket, reconnect=False)
        await touchd.connect()
        daemon.stop()
        seen = [message async for message in touchd.messages()]
        self.assertIsInstance(seen[-1], Disconnected)
        with self.assertRaises(ConnectionLost):
            await touchd._request_now("ping", {})
        await touchd.close()

    def test_the_blocking_client(self):
        self.start(replay=TAPS)
        with BlockingClient(self.socket, timeout=20) as touchd:
            touchd.subscribe(topics=["actions"])
            self.assertEqual(touchd.request("ping"), {"pong": True})
            while True:
                message = touchd.next_message(timeout=20)
                if isinstance(message, Action):
                    break
            self.assertEqual(message.name, "open-tile")
            with self.assertRaises(TouchdError):
                touchd.request("set", view="nope", properties={"hidden": True})


class FakeDaemon:
    """A stand-in for touchd on a Unix socket: `serve(reader, writer)` runs for each connection;
    `connections` counts them."""

    def __init__(self, folder, serve):
        self.path = os.path.join(folder, "fake.sock")
        self.serve = serve
        self.connections = 0
        self.server = None

    async def start(self):
        async def handle(reader, writer):
            self.connections += 1
            try:
                await self.serve(reader, writer)
            except (OSError, ConnectionError):
                pass
            finally:
                writer.close()
        self.server = await asyncio.start_unix_server(handle, self.path)
        return self

    async def stop(self):
        self.server.close()
        await self.server.wait_closed()


def line(**message):
    return (json.dumps(message) + "\n").encode()


HELLO = {"type": "hello", "protocol": 2, "daemon": "touchd 0.1.0", "role": "control", "topics": []}


class AgainstAFakeDaemon(unittest.IsolatedAsyncioTestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="touchd-client-fake-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    async def test_a_message_this_version_cannot_read_keeps_the_connection(self):
        async def serve(reader, writer):
            writer.write(line(seq=1, **HELLO))
            writer.write(line(seq=2, type="touch", touch=1, phase="moved", force=None, tap_count=None))
            writer.write(line(seq=3, type="touch_frame", touches=[[3, "moved", 416, 300, 0.5, 4, "newer"]]))
            writer.write(line(seq=4, type="action", name="open-door", payload={}))
            await writer.drain()
            await reader.read()
        daemon = await FakeDaemon(self.dir, serve).start()
        try:
            async with Client(daemon.path, reconnect=False) as touchd:
                seen = [await touchd.next_message(5) for _ in range(4)]
        finally:
            await daemon.stop()
        self.assertEqual([type(m) for m in seen], [Hello, Other, TouchFrame, Action])
        self.assertEqual((seen[1].type, seen[1].seq, seen[1].raw["force"]), ("touch", 2, None))
        self.assertEqual(seen[2].touches, (FrameTouch(3, "moved", 416.0, 300.0, 0.5, 4.0),))
        self.assertEqual(daemon.connections, 1)

    async def test_a_slow_application_is_told_what_it_missed_and_still_sees_the_end(self):
        async def serve(reader, writer):
            writer.write(line(seq=1, **HELLO))
            for seq in range(2, 12):
                writer.write(line(seq=seq, type="hit", touch=seq))
            await writer.drain()
        daemon = await FakeDaemon(self.dir, serve).start()
        try:
            touchd = Client(daemon.path, reconnect=False, queue_size=3)
            await touchd.connect()
            await asyncio.wait_for(touchd._reader, 5)
            seen = []
            while (message := await touchd.next_message(5)) is not None:
                seen.append(message)
            await touchd.close()
        finally:
            await daemon.stop()
        self.assertEqual([type(m) for m in seen], [Hello, Hit, Hit, Gap, Disconnected])
        self.assertEqual((seen[3].first_seq, seen[3].last_seq), (4, 11))

    async def test_a_request_given_up_on_leaves_nothing_pending(self):
        async def serve(reader, writer):
            writer.write(line(seq=1, **HELLO))
            await writer.drain()
            await reader.read()  # never answers
        daemon = await FakeDaemon(self.dir, serve).start()
        try:
            async with Client(daemon.path, reconnect=False) as touchd:
                with self.assertRaises(asyncio.TimeoutError):
                    await asyncio.wait_for(touchd.request("ping"), 0.2)
                self.assertEqual(touchd._pending, {})

                def blocking():
                    with BlockingClient(daemon.path, timeout=0.2, reconnect=False) as client:
                        with self.assertRaises(TimeoutError):
                            client.request("ping")
                        deadline = time.monotonic() + 5
                        while client._client._pending and time.monotonic() < deadline:
                            time.sleep(0.01)
                        return dict(client._client._pending)
                self.assertEqual(await asyncio.to_thread(blocking), {})
        finally:
            await daemon.stop()

    async def test_a_daemon_that_greets_and_closes_is_retried_with_backoff(self):
        async def serve(reader, writer):
            writer.write(line(seq=1, **HELLO))
            await writer.drain()
        daemon = await FakeDaemon(self.dir, serve).start()
        try:
            touchd = Client(daemon.path, initial_backoff=0.05, max_backoff=0.2)
            await touchd.connect()
            await asyncio.sleep(1.0)
            await touchd.close()
        finally:
            await daemon.stop()
        # 0.05 + 0.1 + 0.2 + 0.2 ... s apart: a handful of connections, not one per round trip.
        self.assertLessEqual(daemon.connections, 10)
        self.assertGreaterEqual(daemon.connections, 3)


class PureParts(unittest.IsolatedAsyncioTestCase):
    async def test_a_gap_without_a_dropped_notice_is_reported(self):
        client = Client("/nonexistent", reconnect=False)
        client._last_seq = 4
        client._receive(parse_message({"seq": 5, "type": "hit", "touch": 1}))
        client._receive(parse_message({"seq": 9, "type": "hit", "touch": 2}))
        messages = []
        while not client._messages.empty():
            messages.append(client._messages.get_nowait())
        self.assertEqual([type(m) for m in messages], [Hit, Gap, Hit])
        self.assertEqual((messages[1].first_seq, messages[1].last_seq), (6, 8))

    async def test_a_dropped_notice_covers_its_gap(self):
        client = Client("/nonexistent", reconnect=False)
        client._last_seq = 10
        client._receive(parse_message({"seq": 20, "type": "dropped", "count": 9, "first_seq": 11, "last_seq": 19}))
        message = client._messages.get_nowait()
        self.assertIsInstance(message, Dropped)
        self.assertEqual(message.count, 9)
        self.assertTrue(client._messages.empty())

    def test_touch_frames_are_typed(self):
        frame = parse_message({"seq": 3, "type": "touch_frame", "time": 12.5, "device": "1234:0001/panel", "window": "main",
                               "touches": [[3, "moved", 416, 300, 0.5, 4], [4, "began", 512.5, 280, 0, 3]]})
        self.assertIsInstance(frame, TouchFrame)
        self.assertEqual((frame.time, frame.device, frame.window), (12.5, "1234:0001/panel", "main"))
        self.assertEqual(frame.touches, (FrameTouch(3, "moved", 416.0, 300.0, 0.5, 4.0),
                                         FrameTouch(4, "began", 512.5, 280.0, 0.0, 3.0)))
        with self.assertRaises(ValueError):
            parse_message({"seq": 4, "type": "touch_frame", "touches": [[3, "moved", 416]]})

    def test_unknown_types_and_bad_lines(self):
        self.assertEqual(parse_message({"seq": 1, "type": "future_thing", "x": 1}).raw["x"], 1)
        for bad in ([], {"type": "hit"}, {"seq": "1", "type": "hit"}, {"seq": 1, "type": "hit", "touch": "x"}):
            with self.assertRaises(ValueError):
                parse_message(bad)


class Installable(unittest.TestCase):
    def test_pip_installs_it_from_the_repo(self):
        if os.environ.get("TOUCHD_SKIP_PIP"):
            self.skipTest("TOUCHD_SKIP_PIP is set")
        work = tempfile.mkdtemp(prefix="touchd-client-pip-")
        target, source = os.path.join(work, "site"), os.path.join(work, "source")
        # A copy, so that the build leaves nothing in the repository.
        shutil.copytree(HERE.parent, source, ignore=shutil.ignore_patterns("tests", "build", "*.egg-info",
                                                                         "__pycache__"))
        try:
            run = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                                  "--no-build-isolation", "--target", target, source],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            check = subprocess.run([sys.executable, "-c", "import touchd_client, sys; print(touchd_client.__file__)"],
                                   capture_output=True, text=True, env={**os.environ, "PYTHONPATH": target},
                                   cwd=target)
            self.assertEqual(check.returncode, 0, check.stderr)
            self.assertTrue(check.stdout.startswith(target), check.stdout)
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
