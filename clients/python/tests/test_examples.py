"""The examples (examples/kiosk_client.py) run as users run them, against the real daemon
(TOUCHD_BIN: the folder with touchd).

    TOUCHD_BIN=$(swift build --show-bin-path) python3 -m unittest discover -s clients/python/tests -v
"""
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

KIOSK_CLIENT = REPO / "examples" / "kiosk_client.py"
# A safety net against a hung example, not a measurement: every run here takes seconds.
LONGEST_RUN = 120


def run_example(script, *arguments, env=None):
    return subprocess.run([sys.executable, str(script), *arguments], capture_output=True, text=True,
                          timeout=LONGEST_RUN, env=env, stdin=subprocess.DEVNULL)


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


class ExampleArguments(unittest.TestCase):
    def test_unknown_options_are_refused(self):
        for script in (KIOSK_CLIENT,):
            run = run_example(script, "--no-such-option")
            self.assertEqual(run.returncode, 2, script)
            self.assertIn("unrecognized arguments: --no-such-option", run.stderr)

    def test_help_names_the_options(self):
        self.assertIn("--socket", run_example(KIOSK_CLIENT, "--help").stdout)


if __name__ == "__main__":
    unittest.main()
