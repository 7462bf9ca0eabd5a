#!/usr/bin/env python3
"""TUIO out of touchd, read by an independent OSC decoder (python-osc, from PyPI).

touchd replays config/demo-taps.evemu (`touchd --replay`) and sends its touches as TUIO 1.1
/tuio/2Dcur bundles to a UDP port this script listens on; python-osc decodes every datagram. The
same recording through `touchd replay --topics touches` gives the reference: each touch's
positions in its window. Checked, for every touch (`--tuio-touches all`) and for the forwarded
ones only (a layout whose left part keeps its touches, the rest `forward = "unclaimed"`):

  - every datagram is one OSC bundle of /tuio/2Dcur messages: source, alive, set..., fseq (a
    frame split into several bundles has fseq in its last only, and so does the stream);
  - fseq counts 1, 2, 3, ... and every set's session is alive in its bundle;
  - the sessions are the expected touches, each first set where the touch began and its last
    where it was last, normalised to the window (0...1), within float32's precision;
  - a touch leaves alive when it ends, and the last bundle has none alive.

Usage: replay-check.py --bin DIR (the directory of the built touchd). Installs python-osc into a
virtual environment under .build/tuio-venv on first use. Prints `N passed, N failed`; exits 0 only
when every check passed.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV = os.path.join(ROOT, ".build", "tuio-venv")
RECORDING = os.path.join(ROOT, "config", "demo-taps.evemu")
WIDTH, HEIGHT = 1280.0, 800.0


def ensure_python_osc():
    """Re-runs this script inside a virtual environment that has python-osc."""
    try:
        import pythonosc  # noqa: F401
        return
    except ImportError:
        pass
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([python, "-m", "pip", "install", "-q", "python-osc==1.10.2"], check=True)
    os.execv(python, [python] + sys.argv)


LAYOUT = """
[[window]]
id = "main"
size = [1280, 800]
points_per_mm = 5
{window_forward}

[[view]]
id = "kept"
parent = "main"
frame = [0, 0, {split}, 800]
forward = "none"

[[device]]
match.kind = "touchscreen"
window = "main"
"""


def reference(touchd, layout):
    """Each touch's (phase, x, y) steps, from touchd's own messages."""
    out = subprocess.run([touchd, "replay", RECORDING, "--config", layout, "--topics", "touches"],
                         check=True, capture_output=True, text=True).stdout
    touches = {}
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        m = json.loads(line)
        if m.get("type") != "touch" or m["phase"] == "stationary":
            continue
        touches.setdefault(m["touch"], []).append((m["phase"], m["location"]["x"], m["location"]["y"]))
    return touches


def receive(touchd, layout, mode):
    """The datagrams touchd sends while it replays the recording."""
    from pythonosc.osc_bundle import OscBundle
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(0.2)
    port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        daemon = subprocess.Popen(
            [touchd, "--config", layout, "--socket", os.path.join(tmp, "touchd.sock"), "--no-devices",
             "--replay", RECORDING, "--replay-speed", "4", "--exit-after-replay", "--log-level", "warning",
             "--tuio", str(port), "--tuio-touches", mode],
            stderr=subprocess.PIPE, text=True)
        datagrams = []
        deadline = time.time() + 120
        while time.time() < deadline:
            try:
                datagrams.append(sock.recv(65536))
            except socket.timeout:
                if daemon.poll() is not None:
                    break
        daemon.wait(timeout=30)
        errors = daemon.stderr.read()
    bundles = []
    for datagram in datagrams:
        if not OscBundle.dgram_is_bundle(datagram):
            bundles.append(None)
            continue
        bundle = OscBundle(datagram)
        bundles.append([(m.address, list(m.params)) for m in bundle])
    return bundles, daemon.returncode, errors


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok - {name}")
        else:
            self.failed += 1
            print(f"FAIL - {name}" + (f": {detail}" if detail else ""))


def check_stream(check, label, bundles, expected, rc, errors):
    check(f"{label}: touchd exits 0 after the replay", rc == 0, errors[-500:])
    check(f"{label}: every datagram is an OSC bundle", bundles and all(b is not None for b in bundles), f"{len(bundles)} datagrams")
    bundles = [b for b in bundles if b]
    shapes_ok, fseqs, sessions_ok = True, [], True
    firsts, lasts, alive_after = {}, {}, {}
    for i, bundle in enumerate(bundles):
        addresses = {a for a, _ in bundle}
        commands = [p[0] if p else None for _, p in bundle]
        has_fseq = commands[-1] == "fseq"
        sets = bundle[2:-1] if has_fseq else bundle[2:]
        if addresses != {"/tuio/2Dcur"} or commands[0] != "source" or commands[1] != "alive" \
                or any(not p or p[0] != "set" for _, p in sets) or (i == len(bundles) - 1 and not has_fseq):
            shapes_ok = False
            continue
        alive = bundle[1][1][1:]
        if has_fseq:
            fseqs.append(bundle[-1][1][1])
        for _, params in sets:
            session, x, y = params[1], params[2], params[3]
            if session not in alive or len(params) != 7:
                sessions_ok = False
            firsts.setdefault(session, (x, y))
            lasts[session] = (x, y)
        for session in list(firsts):
            if session not in alive:
                alive_after.setdefault(session, i)
    check(f"{label}: each bundle is source, alive, set..., fseq (its last part only) on /tuio/2Dcur", shapes_ok)
    check(f"{label}: fseq counts 1, 2, 3, ...", fseqs == list(range(1, len(fseqs) + 1)), str(fseqs[:10]))
    check(f"{label}: every set's session is alive in its bundle", sessions_ok)
    check(f"{label}: the sessions are the expected touches ({sorted(expected)})", sorted(firsts) == sorted(expected), str(sorted(firsts)))

    def near(a, b):
        return abs(a[0] - b[0]) < 1e-4 and abs(a[1] - b[1]) < 1e-4
    began_ok = all(near(firsts.get(t, (-1, -1)), (s[0][1] / WIDTH, s[0][2] / HEIGHT)) for t, s in expected.items())
    last_ok = all(near(lasts.get(t, (-1, -1)), (s[-1][1] / WIDTH, s[-1][2] / HEIGHT)) for t, s in expected.items())
    check(f"{label}: each touch's first set is where it began, normalised to the window", began_ok,
          str([(t, firsts.get(t), s[0]) for t, s in list(expected.items())[:3]]))
    check(f"{label}: each touch's last set is where it was last", last_ok)
    check(f"{label}: every touch leaves alive when it ends; none is alive at the end",
          bundles and bundles[-1][1][1][1:] == [] and sorted(alive_after) == sorted(expected))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="the directory of the built touchd")
    args = parser.parse_args()
    ensure_python_osc()
    touchd = os.path.join(args.bin, "touchd")
    check = Checks()
    with tempfile.TemporaryDirectory() as tmp:
        everything = os.path.join(tmp, "all.toml")
        with open(everything, "w") as f:
            f.write(LAYOUT.format(window_forward="", split=1))
        ref = reference(touchd, everything)
        check("the replay has touches", len(ref) >= 2, str(len(ref)))
        bundles, rc, errors = receive(touchd, everything, "all")
        check_stream(check, "all touches", bundles, ref, rc, errors)
        # Split between the touches: those left of it stay in touchd, the others go on.
        xs = sorted(steps[0][1] for steps in ref.values())
        split = round((xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2)
        forwarding = os.path.join(tmp, "forward.toml")
        with open(forwarding, "w") as f:
            f.write(LAYOUT.format(window_forward='forward = "unclaimed"', split=split))
        forwarded = {t: s for t, s in ref.items() if s[0][1] >= split}
        check(f"some touches are kept, some forwarded (split at x = {split})", 0 < len(forwarded) < len(ref))
        bundles, rc, errors = receive(touchd, forwarding, "forwarded")
        check_stream(check, "forwarded touches", bundles, forwarded, rc, errors)
    print(f"{check.passed} passed, {check.failed} failed")
    return 0 if check.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
