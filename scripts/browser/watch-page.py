#!/usr/bin/env python3
"""The watch page in a real browser: headless Chromium, driven over its DevTools protocol.

    watch-page.py --bin DIR [--chromium PATH]

touchd runs the kiosk layout (config/kiosk.toml) and replays config/demo-taps.evemu as a
touchscreen; `touchctl watch --listen 127.0.0.1:0` serves the page; Chromium opens it. The checks
read the page as it is drawn: the replayed first tap (touch 1, on tile.doors at (200.05, 250.10)
window points) must appear as a touch-down mark on that view, at that point of the picture, with
its path in the view's colour and its action listed; and the page must have fetched nothing from
anywhere but touchctl. The page is opened at the address touchctl printed, with its `#token=`:
without the token `/layout` and `/events` must answer 401, and once loaded the page must have taken
the token out of its address. Prints `ok - ...` or `FAIL - ...` per check and `N passed, N failed`; exits 0
only when every check passed. Needs only Python's standard library and Debian's chromium.
"""
import argparse
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class WebSocket:
    """A minimal RFC 6455 client: text frames, masked as a client must, fragments joined."""

    def __init__(self, url, timeout=30):
        parts = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("the browser closed the DevTools connection")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError("no WebSocket upgrade: " + head.split(b"\r\n", 1)[0].decode(errors="replace"))
        self.buffer = head.split(b"\r\n\r\n", 1)[1]

    def send(self, text):
        payload = text.encode()
        header = bytearray([0x81])
        if len(payload) < 126:
            header.append(0x80 | len(payload))
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        mask = os.urandom(4)
        self.sock.sendall(bytes(header) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("the browser closed the DevTools connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            opcode = first & 0x0F
            if opcode == 8:
                raise RuntimeError("the browser closed the DevTools connection")
            if opcode in (0, 1, 2):
                message += payload
                if first & 0x80:
                    return message.decode()


class DevTools:
    """Commands to one page of the browser, over the browser's DevTools endpoint."""

    def __init__(self, url):
        self.ws = WebSocket(url)
        self.next_id = 0
        self.session = None

    def call(self, method, params=None, session=True):
        self.next_id += 1
        request = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            request["sessionId"] = self.session
        self.ws.send(json.dumps(request))
        while True:
            reply = json.loads(self.ws.receive())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def open(self, url):
        target = self.call("Target.createTarget", {"url": url}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result.get("result", {}).get("value")


# What the checks read off the page, as one JSON value.
PROBE = r"""
(() => {
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const hit = document.querySelector('circle.hit[data-touch="1"]');
  const path = document.querySelector('polyline.path[data-touch="1"]');
  const view = [...document.querySelectorAll('g.view')].find((g) => g.getAttribute('data-view') === 'tile.doors');
  const origin = location.origin;
  return {
    state: document.body.dataset.state,
    hit: hit && {cx: +hit.getAttribute('cx'), cy: +hit.getAttribute('cy'), view: hit.dataset.view, window: hit.dataset.window,
                 fill: hit.getAttribute('fill'), box: box(hit)},
    path: path && {stroke: path.getAttribute('stroke'), points: path.getAttribute('points')},
    view: view && {colour: view.getAttribute('data-colour'), box: box(view.querySelector('rect.frame'))},
    actions: [...document.querySelectorAll('#actions li')].map((li) => li.dataset.action),
    elsewhere: performance.getEntriesByType('resource').map((e) => e.name).filter((n) => !n.startsWith(origin)),
    address: location.href,
  };
})()
"""


def start(command, **kwargs):
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, **kwargs)


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise RuntimeError(f"timed out after {seconds} s waiting for {what}")


def run(args, work, processes):
    sock = os.path.join(work, "touchd.sock")
    processes.append(start(
        [os.path.join(args.bin, "touchd"), "--config", os.path.join(ROOT, "config/kiosk.toml"), "--socket", sock, "--no-devices",
         "--replay", os.path.join(ROOT, "config/demo-taps.evemu"), "--replay-waits-for-client", "--log-level", "warning"]))
    wait_for(lambda: os.path.exists(sock), 30, "touchd's socket")
    watch = start([os.path.join(args.bin, "touchctl"), "--socket", sock, "watch", "--listen", "127.0.0.1:0"],
                  stdout=subprocess.PIPE, text=True)
    processes.append(watch)
    line = watch.stdout.readline()
    if "serving http://" not in line:
        raise RuntimeError(f"touchctl watch did not start: {line!r}")
    url = line.split("serving ", 1)[1].split(" ", 1)[0]
    if "#token=" not in url:
        raise RuntimeError(f"touchctl watch printed no token: {line!r}")
    base = url.split("#", 1)[0]
    refused = {}
    for path in ("layout", "events"):
        try:
            with urllib.request.urlopen(base + path, timeout=10) as response:
                refused[path] = response.status
        except urllib.error.HTTPError as error:
            refused[path] = error.code
    profile = os.path.join(work, "chromium")
    processes.append(start(
        [args.chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
         "--disable-extensions", "--disable-background-networking", "--window-size=1400,1000", f"--user-data-dir={profile}",
         "--remote-debugging-port=0", "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    active = os.path.join(profile, "DevToolsActivePort")
    wait_for(lambda: os.path.exists(active) and len(open(active).read().split()) >= 2, 60, "Chromium's DevTools port")
    port, path = open(active).read().split()[:2]
    tools = DevTools(f"ws://127.0.0.1:{port}{path}")
    tools.open(url)
    page = wait_for(lambda: (lambda p: p if p and p.get("state") == "live" and p.get("hit") and p.get("actions") else None)(tools.evaluate(PROBE)),
                    60, "the page to show the replayed tap")
    page["refused"] = refused
    return page


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the directory of the touchd and touchctl binaries")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="touchd-watch-")
    processes = []
    passed = failed = 0

    def check(name, condition):
        nonlocal passed, failed
        if condition:
            passed += 1
            print(f"ok - {name}")
        else:
            failed += 1
            print(f"FAIL - {name}")

    try:
        page = run(args, work, processes)
    except Exception as error:  # the page never showed the tap: one failure, with the reason
        print(f"FAIL - the watch page in headless Chromium: {error}")
        print("0 passed, 1 failed")
        return 1
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)
    hit, path, view = page["hit"], page["path"] or {}, page["view"] or {}
    check("the page is live", page["state"] == "live")
    check(f"touch 1 is marked on tile.doors in window main ({hit['view']}, {hit['window']})", hit["view"] == "tile.doors" and hit["window"] == "main")
    check(f"at (200.05, 250.10) window points ({hit['cx']}, {hit['cy']})", abs(hit["cx"] - 200.05) < 0.01 and abs(hit["cy"] - 250.10) < 0.01)
    centre = ((hit["box"]["left"] + hit["box"]["right"]) / 2, (hit["box"]["top"] + hit["box"]["bottom"]) / 2)
    frame = view.get("box") or {}
    inside = frame and frame["left"] <= centre[0] <= frame["right"] and frame["top"] <= centre[1] <= frame["bottom"]
    check(f"its mark is drawn inside tile.doors on the screen (mark at {centre[0]:.0f},{centre[1]:.0f}; view {frame})", bool(inside))
    if frame:
        # tile.doors is 380 × 292 points at (40, 136): the tap is 160.05 and 114.10 points into it.
        fx = (centre[0] - frame["left"]) / (frame["right"] - frame["left"])
        fy = (centre[1] - frame["top"]) / (frame["bottom"] - frame["top"])
        check(f"at its place in the view ({fx:.3f}, {fy:.3f} of its width and height)", abs(fx - 160.05 / 380) < 0.01 and abs(fy - 114.10 / 292) < 0.01)
    check(f"the mark and the path have the view's colour {view.get('colour')}", hit["fill"] == view.get("colour") == path.get("stroke"))
    check("the path follows the touch", bool(path.get("points")) and path["points"].startswith("200.04884,250.097694"))
    check(f"the tap's action is listed ({page['actions'][:3]})", "open-tile" in page["actions"])
    check(f"nothing was fetched from elsewhere ({page['elsewhere']})", page["elsewhere"] == [])
    check(f"without the token /layout and /events answer 401 ({page['refused']})", page["refused"] == {"layout": 401, "events": 401})
    check(f"the page took the token out of its address ({page['address']})", "token" not in page["address"])
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
