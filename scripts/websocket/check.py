#!/usr/bin/python3
"""touchd's WebSocket listener, checked by an independent client: Debian's python3-websockets.

    check.py --bin DIR

Starts `touchd run` with the kiosk layout (config/kiosk.toml) on a private Unix socket and a
WebSocket listener on a free loopback port, a tokens file with a control and a read-only token and
one allowed origin, and the demo taps (config/demo-taps.evemu) replayed once a client subscribes.
Then checks, each as `ok - ...` or `FAIL - ...`: the handshake (the subprotocol, a token in the
Authorization header or in the subprotocol) and its refusals with their HTTP status (a bad key, a
version other than 13, an origin not allowed, no token, a wrong token, a token in the URL); masked
and fragmented frames; ping and pong; the close handshake; a frame larger than touchd takes, closed
with 1009; an unmasked and a binary frame, closed with 1002 and 1003; a read-only token refused
`set`; a replayed tap's `hit` and `action` delivered; at SIGTERM a `goodbye` and close 1001; and,
with the daemon limited to 40 descriptors and flooded with connections, accepting paused (little
CPU used) and served again once they are gone.
Prints `N passed, N failed`; exits 0 only when every check passed.
"""
import argparse
import asyncio
import base64
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

import websockets

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONTROL = "control-token-0123456789abcdef"
READ_ONLY = "read.only_token~0123456789"
ORIGIN = "http://127.0.0.1:8080"
results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(("ok - " if ok else "FAIL - ") + name + ("" if ok or not detail else f": {detail}"), flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_listening(port):
    """Waits (up to about 10 s) until the daemon's WebSocket port takes connections: it is bound
    after the Unix socket, so the Unix socket is there too."""
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)


def raw_handshake(port, lines):
    """Sends a handshake written by hand; returns the status line's code and the connection."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    status = head.split(b"\r\n", 1)[0].split(b" ")
    return (int(status[1]) if len(status) > 1 and status[1].isdigit() else 0), sock, head.split(b"\r\n\r\n", 1)[-1]


def request_lines(port, key=None, version="13", token=CONTROL, origin=None, target="/"):
    key = key or base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {target} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", f"Sec-WebSocket-Version: {version}"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    if origin:
        lines.append(f"Origin: {origin}")
    return lines


def read_frame(sock, buffered=b""):
    """One server frame (never masked): its opcode and payload."""
    data = buffered
    def need(n):
        nonlocal data
        while len(data) < n:
            chunk = sock.recv(65536)
            if not chunk:
                raise EOFError
            data += chunk
    need(2)
    opcode, length = data[0] & 0x0F, data[1] & 0x7F
    offset = 2
    if length == 126:
        need(4)
        length, offset = struct.unpack(">H", data[2:4])[0], 4
    elif length == 127:
        need(10)
        length, offset = struct.unpack(">Q", data[2:10])[0], 10
    need(offset + length)
    return opcode, data[offset:offset + length], data[offset + length:]


def close_code_after(sock, rest, frame):
    """Sends `frame` on an open connection; returns the code of the close frame that answers it."""
    sock.sendall(frame)
    while True:
        opcode, payload, rest = read_frame(sock, rest)
        if opcode == 0x8:
            return struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None


def refusals(port):
    cases = [
        ("a key that is not 16 bytes in base64", request_lines(port, key="c2hvcnQ="), 400),
        ("WebSocket version 8", request_lines(port, version="8"), 426),
        ("an origin not allowed", request_lines(port, origin="http://evil.example"), 403),
        ("no token", request_lines(port, token=None), 401),
        ("a wrong token", request_lines(port, token="wrong-token-0123456789"), 401),
        ("a token in the URL", request_lines(port, token=None, target=f"/?token={CONTROL}"), 400),
    ]
    for name, lines, expected in cases:
        status, sock, _ = raw_handshake(port, lines)
        sock.close()
        check(f"refused: {name} ({expected})", status == expected, f"status {status}")
    status, sock, _ = raw_handshake(port, request_lines(port, origin=ORIGIN))
    sock.close()
    check("the allowed origin is let in (101)", status == 101, f"status {status}")


def raw_closes(port):
    status, sock, rest = raw_handshake(port, request_lines(port))
    _, hello, rest = read_frame(sock, rest)
    unmasked = bytes([0x81, 2]) + b"{}"
    check("an unmasked frame is closed with 1002", close_code_after(sock, rest, unmasked) == 1002)
    sock.close()
    status, sock, rest = raw_handshake(port, request_lines(port))
    _, hello, rest = read_frame(sock, rest)
    mask = os.urandom(4)
    binary = bytes([0x82, 0x80 | 3]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(b"abc"))
    check("a binary frame is closed with 1003", close_code_after(sock, rest, binary) == 1003)
    sock.close()
    status, sock, rest = raw_handshake(port, request_lines(port))
    _, hello, rest = read_frame(sock, rest)
    huge = bytes([0x81, 0x80 | 127]) + struct.pack(">Q", 1 << 40) + os.urandom(4)
    check("a frame announcing 1 TiB is closed with 1009 at once", close_code_after(sock, rest, huge) == 1009)
    sock.close()


async def next_of(ws, kind, timeout=15):
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), max(deadline - time.monotonic(), 0.01)))
        if message.get("type") == kind:
            return message


async def sessions(url):
    async with websockets.connect(url, subprotocols=["touchd.v2"], extra_headers={"Authorization": f"Bearer {CONTROL}"},
                                  max_size=2 ** 24) as ws:
        check("the subprotocol touchd.v2 is answered", ws.subprotocol == "touchd.v2", str(ws.subprotocol))
        hello = json.loads(await ws.recv())
        check("hello, with the control role of the header's token",
              hello.get("type") == "hello" and hello.get("role") == "control" and hello.get("seq") == 1, str(hello))
        await ws.send(json.dumps({"id": 1, "cmd": "ping"}))
        reply = await next_of(ws, "reply")
        check("a masked request is answered", reply.get("id") == 1 and reply.get("ok") is True, str(reply))
        await ws.send(['{"id":2,', '"cmd":', '"ping"}'])
        reply = await next_of(ws, "reply")
        check("a request in three fragments is answered", reply.get("id") == 2 and reply.get("ok") is True, str(reply))
        pong = await ws.ping(b"are you there")
        await asyncio.wait_for(pong, 10)
        check("a ping is answered with its pong", True)
        await ws.send(json.dumps({"id": 3, "cmd": "subscribe", "topics": ["hits", "actions"]}))
        hit = await next_of(ws, "hit")
        action = await next_of(ws, "action")
        check("the replayed tap's hit arrives", hit.get("view") == "tile.doors", str(hit))
        check("the replayed tap's action arrives", action.get("name") == "open-tile", str(action))
        await ws.close()
        check("the close handshake ends with 1000 both ways", ws.close_code == 1000, f"{ws.close_code} {ws.close_reason}")

    async with websockets.connect(url, subprotocols=["touchd.v2", f"touchd.bearer.{READ_ONLY}"], origin=ORIGIN) as ws:
        hello = json.loads(await ws.recv())
        check("the subprotocol's token gives its read-only role", hello.get("role") == "read_only", str(hello))
        await ws.send(json.dumps({"id": 4, "cmd": "set", "view": "tile.doors", "properties": {"hidden": True}}))
        reply = await next_of(ws, "reply")
        check("set is refused to the read-only token (forbidden)",
              reply.get("ok") is False and reply.get("error", {}).get("code") == "forbidden", str(reply))

    async with websockets.connect(url, subprotocols=["touchd.v2"], extra_headers={"Authorization": f"Bearer {CONTROL}"},
                                  max_size=2 ** 24) as ws:
        await ws.recv()
        await ws.send("x" * 200_000)
        goodbye = None
        try:
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message.get("type") == "goodbye":
                    goodbye = message
        except websockets.exceptions.ConnectionClosed:
            pass
        check("an oversized message gets goodbye and close 1009", goodbye is not None and ws.close_code == 1009,
              f"{goodbye} {ws.close_code} {ws.close_reason}")


async def shutdown(url, process):
    async with websockets.connect(url, extra_headers={"Authorization": f"Bearer {CONTROL}"}) as ws:
        await ws.recv()
        process.send_signal(signal.SIGTERM)
        goodbye = None
        try:
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message.get("type") == "goodbye":
                    goodbye = message
        except websockets.exceptions.ConnectionClosed:
            pass
        check("SIGTERM: goodbye, then close 1001", goodbye is not None and ws.close_code == 1001, f"{goodbye} {ws.close_code}")


def cpu_seconds(pid):
    """The process's user and system CPU time so far (/proc/PID/stat), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stats_over_unix_socket(path):
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(10)
        s.connect(path)
        s.sendall(b'{"id":1,"cmd":"stats"}\n')
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            for line in data.split(b"\n"):
                if line.startswith(b"{") and b'"reply"' in line:
                    return json.loads(line)["result"]


def out_of_descriptors(binary, directory, tokens):
    """touchd with few descriptors and a flood of connections: accepting pauses instead of spinning."""
    port = free_port()
    unix = os.path.join(directory, "fd.sock")
    process = subprocess.Popen(
        ["sh", "-c", f'ulimit -n 40 && exec "$@"', "sh", binary, "run", "--config", os.path.join(ROOT, "config/kiosk.toml"),
         "--socket", unix, "--no-devices", "--websocket", f"127.0.0.1:{port}", "--websocket-tokens", tokens],
        stderr=subprocess.DEVNULL)
    try:
        # The port, not the Unix socket: a flood sent before the port listens would be refused
        # rather than accepted.
        wait_until_listening(port)
        held = []
        for _ in range(60):
            try:
                held.append(socket.create_connection(("127.0.0.1", port), timeout=2))
            except OSError:
                break
        time.sleep(0.5)
        before = cpu_seconds(process.pid)
        time.sleep(2)
        used = cpu_seconds(process.pid) - before
        check(f"out of descriptors, accepting pauses rather than spinning ({used:.2f} s of CPU in 2 s)", used < 1.0)
        for connection in held:
            connection.close()
        time.sleep(1.5)
        stats = stats_over_unix_socket(unix) or {}
        check("then it serves again, and counts the pauses", stats.get("accept_backoffs", 0) > 0, str(stats.get("accept_backoffs")))
    finally:
        process.kill()
        process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="the folder with touchd")
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="touchd-websocket-")
    tokens = os.path.join(directory, "websocket-tokens")
    with open(tokens, "w") as f:
        f.write(f"# the kiosk page\ncontrol {CONTROL}\nread_only {READ_ONLY}\n")
    os.chmod(tokens, 0o600)
    port = free_port()
    process = subprocess.Popen(
        [os.path.join(args.bin, "touchd"), "run", "--config", os.path.join(ROOT, "config/kiosk.toml"),
         "--socket", os.path.join(directory, "touchd.sock"), "--no-devices", "--websocket", f"127.0.0.1:{port}",
         "--websocket-tokens", tokens, "--websocket-origin", ORIGIN,
         "--replay", os.path.join(ROOT, "config/demo-taps.evemu"), "--replay-waits-for-client"],
        stderr=subprocess.PIPE, text=True)
    try:
        wait_until_listening(port)
        url = f"ws://127.0.0.1:{port}/"
        refusals(port)
        raw_closes(port)
        asyncio.run(sessions(url))
        asyncio.run(shutdown(url, process))
        check("touchd exits 0 after SIGTERM", process.wait(timeout=20) == 0)
        out_of_descriptors(os.path.join(args.bin, "touchd"), directory, tokens)
    finally:
        if process.poll() is None:
            process.kill()
        log = process.communicate()[1]
    if not all(results):
        print(log, file=sys.stderr)
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
