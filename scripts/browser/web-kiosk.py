#!/usr/bin/env python3
"""The web kiosk example in a real browser: headless Chromium, touchd's WebSocket listener, a replay.

    web-kiosk.py --bin DIR [--chromium PATH]

examples/web-kiosk is a page whose buttons are touch targets in touchd's tree. This script serves
the repository over HTTP on the loopback, runs touchd with examples/web-kiosk/layout.toml, its
WebSocket listener on a free port of the loopback, a tokens file with one control token (mode 0600)
and the page's origin allowed, and opens the page in Chromium at
`/examples/web-kiosk/#ws=...&token=...`. Then it checks, reading the page over the DevTools
protocol and touchd over its Unix socket (`views`):
- the page connects with the control role, and each of its targets is a view under kiosk.root with
  the rectangle the browser laid the element out at (getBoundingClientRect);
- when the page lays out again (one column instead of two), the views follow;
- touchd is stopped (SIGTERM) and started again on the same port, replaying a recording with a tap
  on the door button's centre 3 s after the page subscribes: the page reconnects by itself, its
  views are back with their last rectangles, and the tap arrives (the button counts one tap, the
  status line says "door tapped", no other button was tapped);
- the token is out of the page's address, nothing was fetched from elsewhere, and the listener
  refuses a wrong token and another origin.
Prints `ok - ...` or `FAIL - ...` per check and `N passed, N failed`; exits 0 only when every check
passed. Needs only Python's standard library and Debian's chromium.
"""
import argparse
import base64
import functools
import http.server
import importlib.util
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAYOUT = os.path.join(ROOT, "examples/web-kiosk/layout.toml")
TARGETS = ("door", "lights", "heating", "call")
WINDOW = (1280, 800)

# The DevTools client and the waiting of the watch page's test.
_spec = importlib.util.spec_from_file_location("watch_page", os.path.join(os.path.dirname(os.path.abspath(__file__)), "watch-page.py"))
watch_page = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(watch_page)
DevTools, wait_for, start = watch_page.DevTools, watch_page.wait_for, watch_page.start

# What the checks read off the page, as one JSON value.
PROBE = r"""
(() => {
  const targets = {};
  for (const e of document.querySelectorAll('[data-touchd-view]')) {
    const r = e.getBoundingClientRect();
    targets[e.dataset.touchdView] = {rect: [r.left, r.top, r.width, r.height], taps: Number(e.dataset.touchdTaps || 0)};
  }
  return {
    state: document.body.dataset.state, role: document.body.dataset.role, synced: Number(document.body.dataset.synced || 0),
    status: document.getElementById('status').textContent, last: document.getElementById('last').textContent,
    viewport: [document.documentElement.clientWidth, document.documentElement.clientHeight],
    targets, address: location.href,
    elsewhere: performance.getEntriesByType('resource').map((e) => e.name).filter((n) => !n.startsWith(location.origin)),
  };
})()
"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    """Serves the repository on a free port of the loopback, from a thread; returns the server."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=directory))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Daemon:
    """touchd run, its standard error kept (and read for the listener's port)."""

    def __init__(self, command):
        self.lines = []
        self.process = start(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))

    def listening(self):
        for line in self.lines:
            if "websocket: listening on " in line:
                return line.split("websocket: listening on ", 1)[1].split()[0]
        if self.process.poll() is not None:
            raise RuntimeError("touchd exited: " + " | ".join(self.lines[-5:]))
        return None

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return None


def views(sock):
    """touchd's `views` over its Unix socket: {id: entry}."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(10)
        client.connect(sock)
        reader = client.makefile("r", encoding="utf-8")
        hello = json.loads(reader.readline())
        if hello.get("type") != "hello":
            raise RuntimeError(f"touchd said {hello} first")
        client.sendall(b'{"id":1,"cmd":"views"}\n')
        while True:
            message = json.loads(reader.readline())
            if message.get("type") == "reply" and message.get("id") == 1:
                if not message.get("ok"):
                    raise RuntimeError(f"views: {message.get('error')}")
                return {entry["id"]: entry for entry in message["result"]}


def frame_problems(tree, page):
    """What differs between the page's targets and touchd's views: each target must be a view under
    kiosk.root whose frame is the element's rectangle (to 0.01 point). Empty when they agree."""
    problems = {}
    for name in TARGETS:
        entry, target = tree.get(name), page["targets"].get(name)
        frame = entry.get("frame") if entry else None
        if not entry or not target:
            problems[name] = "no view" if target else "no element"
        elif entry.get("parent") != "kiosk.root":
            problems[name] = f"parent {entry.get('parent')}"
        elif not frame or len(frame) != 4 or any(abs(a - b) > 0.01 for a, b in zip(frame, target["rect"])):
            problems[name] = f"frame {frame}, element at {target['rect']}"
    return problems


def poll(read, good, seconds):
    """Reads until `good` says yes or `seconds` have passed; returns the last reading either way."""
    deadline = time.monotonic() + seconds
    value = read()
    while not good(value) and time.monotonic() < deadline:
        time.sleep(0.1)
        value = read()
    return value


def handshake(port, origin, token):
    """The status line of a WebSocket handshake with the listener, as a browser at `origin` makes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n"
                   f"Sec-WebSocket-Protocol: touchd.v2, touchd.bearer.{token}\r\n\r\n").encode())
        head = b""
        try:
            while b"\r\n" not in head:
                chunk = s.recv(4096)
                if not chunk:
                    break
                head += chunk
        except OSError:
            pass
        return head.split(b"\r\n", 1)[0].decode(errors="replace") or "(closed)"


def evemu_tap(path, x, y, delay):
    """A recording of the demo touchscreen (config/demo-taps.evemu's description, 4095 × 2559 onto
    the whole window): a touch in the window's top left corner, on no target, to start the
    recording's clock, then, `delay` seconds later, a tap at (x, y) window points."""
    with open(os.path.join(ROOT, "config/demo-taps.evemu")) as f:
        lines = [line.rstrip("\n") for line in f if not line.startswith("E:")]

    def event(t, kind, code, value):
        return f"E: {int(t)}.{round((t - int(t)) * 1e6):06d} {kind:04x} {code:04x} {value:04d}"

    def tap(t, px, py, tracking):
        ux, uy = round(px / WINDOW[0] * 4095), round(py / WINDOW[1] * 2559)
        down = [event(t, 3, 0x2F, 0), event(t, 3, 0x39, tracking), event(t, 3, 0x35, ux), event(t, 3, 0x36, uy),
                event(t, 3, 0x3A, 40), event(t, 3, 0x30, 112), event(t, 1, 0x14A, 1), event(t, 0, 0, 0)]
        up = [event(t + 0.08, 3, 0x2F, 0), event(t + 0.08, 3, 0x39, -1), event(t + 0.08, 1, 0x14A, 0), event(t + 0.08, 0, 0, 0)]
        return down + up

    lines += tap(1.0, 4, 4, 1) + tap(1.0 + delay, x, y, 2)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def run(args, work, processes, record):
    token = secrets.token_urlsafe(24)
    tokens = os.path.join(work, "websocket-tokens")
    with open(tokens, "w") as f:
        f.write("# the web kiosk page\ncontrol " + token + "\n")
    os.chmod(tokens, 0o600)
    server = serve(ROOT)
    processes.append(server)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    sock = os.path.join(work, "touchd.sock")

    def touchd(port, *extra):
        daemon = Daemon([os.path.join(args.bin, "touchd"), "run", "--config", LAYOUT, "--socket", sock, "--no-devices",
                         "--websocket", f"127.0.0.1:{port}", "--websocket-tokens", tokens, "--websocket-origin", origin, *extra])
        processes.append(daemon)
        address = wait_for(daemon.listening, 30, "touchd's WebSocket listener")
        wait_for(lambda: os.path.exists(sock), 30, "touchd's socket")
        return daemon, int(address.rsplit(":", 1)[1])

    daemon, port = touchd(0)
    record("the listener's refusals", {"wrong token": handshake(port, origin, "x" * 32), "other origin": handshake(port, "http://evil.example", token)})
    profile = os.path.join(work, "chromium")
    processes.append(start(
        [args.chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
         "--disable-extensions", "--disable-background-networking", f"--window-size={WINDOW[0]},{WINDOW[1]}", f"--user-data-dir={profile}",
         "--remote-debugging-port=0", "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    active = os.path.join(profile, "DevToolsActivePort")
    wait_for(lambda: os.path.exists(active) and len(open(active).read().split()) >= 2, 60, "Chromium's DevTools port")
    devtools_port, path = open(active).read().split()[:2]
    tools = DevTools(f"ws://127.0.0.1:{devtools_port}{path}")
    tools.open("about:blank")
    # The kiosk's screen: a 1280 × 800 CSS pixel viewport, the layout's window.
    tools.call("Emulation.setDeviceMetricsOverride", {"width": WINDOW[0], "height": WINDOW[1], "deviceScaleFactor": 1, "mobile": False})
    ws = f"ws://127.0.0.1:{port}/"
    tools.call("Page.navigate", {"url": f"{origin}/examples/web-kiosk/#ws={ws}&token={token}"})
    probe = lambda: tools.evaluate(PROBE)

    def tree():
        try:
            return views(sock)
        except OSError:
            return {}

    def agreed(seconds):
        """The page and touchd's views once they agree (or as they are after `seconds`)."""
        both = poll(lambda: (probe(), tree()), lambda pt: not frame_problems(pt[1], pt[0]), seconds)
        return {"page": both[0], "tree": both[1], "problems": frame_problems(both[1], both[0])}

    wait_for(lambda: (lambda p: p if p and p["state"] == "live" and p["synced"] >= 1 else None)(probe()), 60, "the page to connect and add its views")
    first = agreed(10)
    record("first", first)

    # The page lays out again: one column instead of two. Its views follow.
    tools.evaluate("document.querySelector('main').style.gridTemplateColumns = '1fr'")
    relaid = agreed(10)
    relaid["moved"] = relaid["page"]["targets"]["door"]["rect"] != first["page"]["targets"]["door"]["rect"]
    record("relaid", relaid)

    # touchd stops; it starts again on the same port, replaying a tap on the door's centre.
    record("stopped", daemon.stop())
    record("while stopped", poll(probe, lambda p: p["state"] == "connecting", 10))
    door = relaid["page"]["targets"]["door"]["rect"]
    centre = (door[0] + door[2] / 2, door[1] + door[3] / 2)
    recording = os.path.join(work, "tap.evemu")
    evemu_tap(recording, *centre, delay=3.0)
    touchd(port, "--replay", recording, "--replay-waits-for-client")
    poll(probe, lambda p: p["state"] == "live" and p["targets"]["door"]["taps"] > 0, 60)
    after = agreed(10)
    after["centre"] = centre
    record("after", after)
    time.sleep(0.5)  # anything more the replay would send (it sends nothing more)
    record("final", probe())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the directory of the touchd binary")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="touchd-web-kiosk-")
    processes = []
    seen = {}
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
        run(args, work, processes, seen.__setitem__)
        error = None
    except Exception as caught:  # reported below, after the checks of what was seen
        error = caught
    finally:
        daemon_logs = [line for p in processes if isinstance(p, Daemon) for line in p.lines]
        for process in reversed(processes):
            if isinstance(process, http.server.HTTPServer):
                process.shutdown()
            elif isinstance(process, Daemon):
                process.stop()
            elif process.poll() is None:
                process.terminate()
        for process in processes:
            if isinstance(process, subprocess.Popen):
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        shutil.rmtree(work, ignore_errors=True)
    report(seen, check)
    if error is not None:
        check(f"the web kiosk in headless Chromium: {error}", False)
        for line in daemon_logs[-20:]:
            print(f"# touchd: {line}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def problems(seen):
    return f": {seen['problems']}" if seen["problems"] else ""


def report(seen, check):
    """One check per claim, on what `run` saw (as far as it got)."""
    refusals = seen.get("the listener's refusals")
    if refusals:
        check(f"the listener refuses a wrong token ({refusals['wrong token']})", " 101 " not in refusals["wrong token"] + " ")
        check(f"the listener refuses another origin ({refusals['other origin']})", " 101 " not in refusals["other origin"] + " ")
    first = seen.get("first")
    if first:
        page = first["page"]
        check(f"the page is live with the control role ({page['state']}, {page['role']}: {page['status']})", page["state"] == "live" and page["role"] == "control")
        check(f"its viewport is the layout's window ({page['viewport']})", page["viewport"] == list(WINDOW))
        for name in TARGETS:
            problem = first["problems"].get(name)
            check(f"{name} is a view under kiosk.root at the page's rectangle {page['targets'].get(name, {}).get('rect')}{': ' + problem if problem else ''}", not problem)
    relaid = seen.get("relaid")
    if relaid:
        door = relaid["page"]["targets"]["door"]["rect"]
        check(f"after the page laid out again, the views have its new rectangles (door at {door}){problems(relaid)}", relaid["moved"] and not relaid["problems"])
    if "stopped" in seen:
        check(f"touchd stopped on SIGTERM (status {seen['stopped']})", seen["stopped"] == 0)
    if "while stopped" in seen:
        check(f"the page noticed ({seen['while stopped']['status']})", seen["while stopped"]["state"] == "connecting")
    after = seen.get("after")
    if after:
        page = after["page"]
        check(f"the page reconnected by itself ({page['status']})", page["state"] == "live")
        check(f"its views are back, at their last rectangles{problems(after)}", not after["problems"] and after["tree"].get("door", {}).get("frame") == seen["relaid"]["tree"].get("door", {}).get("frame"))
        check(f"the replayed tap at {tuple(round(c, 2) for c in after['centre'])} reached the door button (taps {page['targets']['door']['taps']})",
              page["targets"]["door"]["taps"] == 1)
    final = seen.get("final")
    if final:
        check(f"the page says so ({final['last']!r})", final["last"] == "door tapped")
        others = {name: final["targets"][name]["taps"] for name in TARGETS if name != "door"}
        check(f"no other button was tapped ({others})", not any(others.values()))
        check(f"the token is out of the page's address ({final['address']})", "token" not in final["address"] and "#" not in final["address"])
        check(f"nothing was fetched from elsewhere ({final['elsewhere']})", final["elsewhere"] == [])


if __name__ == "__main__":
    sys.exit(main())
