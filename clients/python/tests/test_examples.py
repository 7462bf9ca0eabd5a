"""The examples (examples/kiosk_client.py, examples/calibrate.py) run as users run them, against the
real daemon (TOUCHD_BIN: the folder with touchd), and calibrate.py's pure parts.

    TOUCHD_BIN=$(swift build --show-bin-path) python3 -m unittest discover -s clients/python/tests -v
"""
import importlib.util
import os
import select
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
sys.path.insert(0, str(HERE.parent))

from test_client import BIN, LAYOUT, TAPS, Daemon  # noqa: E402
from touchd_client import TouchdError, parse_message  # noqa: E402

KIOSK_CLIENT = REPO / "examples" / "kiosk_client.py"
CALIBRATE = REPO / "examples" / "calibrate.py"
# A safety net against a hung example, not a measurement: every run here takes seconds.
LONGEST_RUN = 120


def run_example(script, *arguments, env=None):
    return subprocess.run([sys.executable, str(script), *arguments], capture_output=True, text=True,
                          timeout=LONGEST_RUN, env=env, stdin=subprocess.DEVNULL)


def load_calibrate():
    spec = importlib.util.spec_from_file_location("calibrate_example", CALIBRATE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# A 1280 x 800 window with a touchscreen that keeps its calibration next to the layout.
CALIBRATION_LAYOUT = """
[[window]]
id = "main"
size = [1280, 800]
points_per_mm = 5

[[view]]
id = "screen"
parent = "main"
frame = [0, 0, 1280, 800]

[[device]]
match.kind = "touchscreen"
window = "main"
calibration_file = "panel.calibration"
"""
# touchd's default targets in that window (docs/protocol.md, `calibrate`).
TARGETS = [(128, 80), (1152, 80), (1152, 720), (128, 720), (640, 400)]


def target_taps_recording():
    """The demo touchscreen (config/demo-taps.evemu's description: 0..4095 x 0..2559) tapping each
    target in turn, from 1 s on, every half second; it stays present 60 s more, so that the session
    outlives the taps."""
    header = [line for line in TAPS.read_text().splitlines() if not line.startswith("E:")]
    events = []

    def event(seconds, type_, code, value):
        events.append(f"E: {seconds:.6f} {type_:04x} {code:04x} {value:04d}")

    for index, (x, y) in enumerate(TARGETS):
        t = 1 + index * 0.5
        ux, uy = round(x / 1280 * 4095), round(y / 800 * 2559)
        for dt, tracking, dx in ((0, index + 1, 0), (0.03, None, 1), (0.06, -1, 1)):
            if tracking is not None:
                event(t + dt, 3, 0x39, tracking)          # ABS_MT_TRACKING_ID
            if tracking != -1:
                event(t + dt, 3, 0x35, ux + dx)           # ABS_MT_POSITION_X
                event(t + dt, 3, 0x36, uy)                # ABS_MT_POSITION_Y
            event(t + dt, 1, 0x14a, 0 if tracking == -1 else 1)  # BTN_TOUCH
            event(t + dt, 0, 0, 0)                         # SYN_REPORT
    event(1 + len(TARGETS) * 0.5 + 60, 0, 0, 0)
    return "\n".join(header + events) + "\n"


@unittest.skipUnless(BIN, "TOUCHD_BIN is not set: the examples against the daemon were skipped")
class ExamplesAgainstTheDaemon(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="touchd-examples-")
        self.socket = os.path.join(self.dir, "touchd.sock")
        self.daemons = []
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)

    def tearDown(self):
        for daemon in self.daemons:
            if daemon.process.poll() is None:
                daemon.stop()

    def start(self, **options):
        daemon = Daemon(self.socket, **options)
        self.daemons.append(daemon)
        return daemon

    def start_demo(self):
        """The kiosk layout and the demo taps at their own pace; touchd exits when they end."""
        return self.start(replay=TAPS, exit_after_replay=True)

    # examples/kiosk_client.py

    def assert_the_kiosk_demo(self, lines):
        """What the kiosk client prints for the demo taps, from its first connection to the end."""
        self.assertTrue(lines[0].startswith("connected to touchd "), lines)
        self.assertIn("touch 1 landed on tile.doors at (200.05, 250.10)", lines)
        self.assertIn("action open-tile from tile.doors.tap payload {'tile': 'doors'}", lines)
        # The info button's action makes the client show the dialog; touchd applies it between
        # events, so the very next touch lands on the dialog.
        shown = lines.index("action show-info from control header.info payload {}")
        self.assertTrue(next(line for line in lines[shown + 1:] if line.startswith("touch "))
                        .startswith("touch 3 landed on dialog.panel "), lines)
        # A tap around the panel: the client hides the dialog, and the next tap reaches the home screen.
        hidden = lines.index("action dialog.outside-tap from dialog.backdrop.tap payload {}")
        self.assertTrue(next(line for line in lines[hidden + 1:] if line.startswith("touch "))
                        .startswith("touch 10 landed on tile.doors "), lines)
        self.assertEqual(lines[-1], "touchd closed the connection: input ended")

    def test_the_kiosk_client_shows_and_hides_the_dialog(self):
        self.start_demo()
        run = run_example(KIOSK_CLIENT, "--socket", self.socket)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stderr, "")
        self.assert_the_kiosk_demo(run.stdout.splitlines())

    def test_the_kiosk_client_takes_its_socket_from_the_environment(self):
        self.start_demo()
        run = run_example(KIOSK_CLIENT, env={**os.environ, "TOUCHD_SOCKET": self.socket})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout.splitlines()[-1], "touchd closed the connection: input ended")

    def test_the_kiosk_client_waits_out_a_restart(self):
        first = self.start()
        client = subprocess.Popen([sys.executable, str(KIOSK_CLIENT), "--socket", self.socket], text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                  env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.addCleanup(client.wait, LONGEST_RUN)
        self.addCleanup(lambda: client.poll() is None and client.kill())
        # The hello is printed once the client has subscribed.
        self.assertTrue(select.select([client.stdout], [], [], LONGEST_RUN)[0], "the client printed nothing")
        self.assertTrue(client.stdout.readline().startswith("connected to touchd "))
        first.stop()
        self.start_demo()
        out, err = client.communicate(timeout=LONGEST_RUN)
        self.assertEqual(client.returncode, 0, err)
        lines = out.splitlines()
        self.assertEqual(lines[:2], ["touchd closed the connection: shutting down",
                                     "touchd closed the connection: waiting for touchd to come back"])
        again = lines.index("connected again: subscribed as before")
        # The library subscribed again: the new daemon's taps reach the client, and it acts on them.
        self.assert_the_kiosk_demo(lines[2:again] + lines[again + 1:])

    def test_the_kiosk_client_says_when_it_cannot_connect(self):
        run = run_example(KIOSK_CLIENT, "--socket", os.path.join(self.dir, "nothing.sock"))
        self.assertEqual(run.returncode, 1)
        self.assertEqual(run.stdout, "")
        self.assertTrue(run.stderr.startswith(f"kiosk_client.py: cannot connect to {self.dir}/nothing.sock: "),
                        run.stderr)

    # examples/calibrate.py

    def test_calibrate_text_mode_calibrates_target_by_target(self):
        layout = Path(self.dir) / "layout.toml"
        layout.write_text(CALIBRATION_LAYOUT)
        recording = Path(self.dir) / "targets.evemu"
        recording.write_text(target_taps_recording())
        self.start(replay=recording, layout=layout)
        run = run_example(CALIBRATE, "--socket", self.socket, "--text")
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.splitlines()
        self.assertEqual(lines[0], "calibrating replay:touchd demo touchscreen (window main)")
        self.assertEqual([line for line in lines if line.startswith("touch target ")],
                         [f"touch target {i} at ({x}, {y})" for i, (x, y) in enumerate(TARGETS)])
        self.assertEqual([line.split(":")[0] for line in lines if line.startswith("target ")],
                         [f"target {i}" for i in range(5)])
        worst = next(line for line in lines if line.startswith("worst residual ")).split(" ")[2]
        self.assertLess(float(worst), 1.0, run.stdout)
        calibration = Path(self.dir) / "panel.calibration"
        self.assertEqual(lines[-1], f"kept in {calibration}")
        self.assertTrue(calibration.is_file())

    def test_calibrate_without_a_touch_device_says_why(self):
        self.start()
        run = run_example(CALIBRATE, "--socket", self.socket, "--text")
        self.assertEqual(run.returncode, 1)
        self.assertEqual(run.stdout, "")
        self.assertTrue(run.stderr.startswith('calibrate.py: calibrate: bad_argument: "device" is required'),
                        run.stderr)
        named = run_example(CALIBRATE, "--socket", self.socket, "--text", "--device", "no/such:device")
        self.assertEqual(named.returncode, 1)
        self.assertTrue(named.stderr.startswith("calibrate.py: calibrate: "), named.stderr)
        self.assertIn("no/such:device", named.stderr)

    def test_calibrate_without_a_screen_says_so_before_holding_the_device(self):
        # No device either: had the session been asked for first, touchd's refusal would be the error.
        self.start()
        env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
        run = run_example(CALIBRATE, "--socket", self.socket, env=env)
        self.assertEqual(run.returncode, 1)
        self.assertTrue(run.stderr.startswith("calibrate.py: "), run.stderr)
        self.assertIn("--text prints the targets instead", run.stderr)
        self.assertNotIn("bad_argument", run.stderr)

    def test_calibrate_says_when_it_cannot_connect(self):
        run = run_example(CALIBRATE, "--socket", os.path.join(self.dir, "nothing.sock"), "--text")
        self.assertEqual(run.returncode, 1)
        self.assertTrue(run.stderr.startswith(f"calibrate.py: cannot connect to {self.dir}/nothing.sock: "),
                        run.stderr)


class ExampleArguments(unittest.TestCase):
    def test_unknown_options_are_refused(self):
        for script in (KIOSK_CLIENT, CALIBRATE):
            run = run_example(script, "--no-such-option")
            self.assertEqual(run.returncode, 2, script)
            self.assertIn("unrecognized arguments: --no-such-option", run.stderr)

    def test_help_names_the_options(self):
        self.assertIn("--socket", run_example(KIOSK_CLIENT, "--help").stdout)
        help = run_example(CALIBRATE, "--help").stdout
        for option in ("--socket", "--device", "--text"):
            self.assertIn(option, help)

    def test_device_needs_a_value(self):
        run = run_example(CALIBRATE, "--device")
        self.assertEqual(run.returncode, 2)
        self.assertIn("--device: expected one argument", run.stderr)


class FakeTouchd:
    """Stands for a BlockingClient: answers `calibrate` with three targets and records the requests."""

    def __init__(self):
        self.requests = []

    def request(self, cmd, **arguments):
        self.requests.append((cmd, arguments))
        if cmd == "calibrate":
            return {"device": "panel", "window": "main", "targets": [{"target": i, "x": i, "y": i} for i in range(3)]}
        return {}


class CalibratePureParts(unittest.TestCase):
    def setUp(self):
        self.calibrate = load_calibrate()

    def message(self, **fields):
        return parse_message({"seq": 1, **fields})

    def test_each_sample_is_the_next_targets(self):
        touchd = FakeTouchd()
        session = self.calibrate.Session(touchd, device="panel")
        self.assertEqual(touchd.requests, [("calibrate", {"device": "panel"})])
        steps = [session.take(self.message(type="hello", protocol=2)),
                 session.take(self.message(type="calibration_touch", contact=1, x=5, y=5))]
        for sample in (4, 7, 9):
            steps.append(session.take(self.message(type="calibration_sample", sample=sample, x=5, y=5)))
        self.assertEqual(steps, [None, "touched", "next", "next", "done"])
        self.assertEqual(touchd.requests[1:], [("calibration_point", {"sample": s, "target": t})
                                               for t, s in enumerate((4, 7, 9))])
        # A sample after the last target is nobody's.
        self.assertIsNone(session.take(self.message(type="calibration_sample", sample=10, x=1, y=1)))
        self.assertEqual(len(touchd.requests), 4)

    def test_without_a_device_none_is_named(self):
        touchd = FakeTouchd()
        self.calibrate.Session(touchd)
        self.assertEqual(touchd.requests, [("calibrate", {})])

    def test_the_end_of_the_session_or_connection_is_an_error(self):
        session = self.calibrate.Session(FakeTouchd())
        for message, said in ((self.message(type="calibration_ended", reason="the device went away"),
                               "the calibration ended: the device went away"),
                              (self.message(type="goodbye", reason="shutting down"),
                               "touchd closed the connection: shutting down"),
                              (None, "touchd closed the connection")):
            with self.assertRaises(RuntimeError) as ended:
                session.take(message)
            self.assertEqual(str(ended.exception), said)

    def test_a_refusal_names_the_request(self):
        class Refusing(FakeTouchd):
            def request(self, cmd, **arguments):
                raise TouchdError("busy", "another connection calibrates this device")

        with self.assertRaises(RuntimeError) as refused:
            self.calibrate.Session(Refusing())
        self.assertEqual(str(refused.exception), "calibrate: busy: another connection calibrates this device")

    def test_the_summary(self):
        result = {"points": [{"target": 0, "residual_mm": 0.123}, {"target": 1, "residual_mm": 1.5}],
                  "worst_residual_mm": 1.5, "mean_residual_mm": 0.8115, "calibration_file": "/x/panel.calibration",
                  "kept": True}
        self.assertEqual(self.calibrate.summary(result), [
            "target 0: lands 0.12 mm from it", "target 1: lands 1.50 mm from it",
            "worst residual 1.50 mm, mean 0.81 mm; applied", "kept in /x/panel.calibration"])
        result.update(kept=False, not_kept_because="the layout names no calibration_file")
        self.assertEqual(self.calibrate.summary(result)[-1], "not kept: the layout names no calibration_file")


if __name__ == "__main__":
    unittest.main()
