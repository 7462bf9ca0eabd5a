#!/usr/bin/env python3
"""A full-screen calibration client for touchd, with touchd's Python client library and tkinter.

Starts a calibration session (the `calibrate` request: the device's touches reach no view while
it runs), shows each target full screen in turn as a cross in a circle, takes the next touch for
it, and at the end asks touchd to fit, apply and keep the calibration, then shows how far each
touch lands from its target. Escape cancels: nothing changes. Run it on the kiosk's display, as a
user with touchd's control role:

    python3 examples/calibrate.py [--socket /run/touchd/touchd.sock] [--device ID]

The screen is taken to show the device's window, edge to edge: a target at window point (x, y)
is drawn at (x, y) scaled by the screen's size over the window's. --text prints the targets
instead of drawing them (no display needed).

It needs the touchd_client package: `pip install ./clients/python` in touchd's repository installs
it (run from a checkout of the repository, the example finds it there without installing); the
full-screen mode needs tkinter too (Debian: python3-tk).
"""
import argparse
import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("touchd_client") is None:  # run from a checkout: use the repository's copy
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "clients" / "python"))
from touchd_client import DEFAULT_SOCKET, BlockingClient, ConnectionLost, Disconnected, Goodbye, TouchdError  # noqa: E402


class Session:
    """A calibration session: while it runs, touchd sends the device's touches to this client only
    (`calibration_touch` at touch-down, `calibration_sample` when the finger lifts)."""

    def __init__(self, touchd, device=None):
        self.touchd = touchd
        self.started = self.request("calibrate", **({"device": device} if device else {}))
        self.targets = self.started["targets"]
        self.current = 0

    def request(self, cmd, **arguments):
        try:
            return self.touchd.request(cmd, **arguments)
        except TouchdError as error:
            raise RuntimeError(f"{cmd}: {error}") from error

    def take(self, message):
        """Takes a message; returns what the screen should do: 'touched', 'next', 'done' or None."""
        if message is None or isinstance(message, Disconnected):
            raise RuntimeError(getattr(message, "reason", "touchd closed the connection"))
        if isinstance(message, Goodbye):
            raise RuntimeError(f"touchd closed the connection: {message.reason}")
        if message.type == "calibration_ended":
            raise RuntimeError("the calibration ended: " + message.raw.get("reason", ""))
        if message.type == "calibration_touch":
            return "touched"
        if message.type == "calibration_sample" and self.current < len(self.targets):
            self.request("calibration_point", sample=message.raw["sample"], target=self.current)
            self.current += 1
            return "next" if self.current < len(self.targets) else "done"
        return None

    def finish(self):
        return self.request("finish_calibration")

    def cancel(self):
        self.request("cancel_calibration")


def summary(result):
    lines = [f"target {p['target']}: lands {p['residual_mm']:.2f} mm from it" for p in result["points"]]
    lines.append(f"worst residual {result['worst_residual_mm']:.2f} mm, mean {result['mean_residual_mm']:.2f} mm; applied")
    lines.append(f"kept in {result['calibration_file']}" if result.get("kept") else "not kept: " + result.get("not_kept_because", ""))
    return lines


def run_text(touchd, device):
    """Prints each target and waits for its touch."""
    session = Session(touchd, device)
    print(f"calibrating {session.started['device']} (window {session.started['window']})", flush=True)
    step = "next"
    while step != "done":
        if step == "next":
            target = session.targets[session.current]
            print(f"touch target {session.current} at ({target['x']:g}, {target['y']:g})", flush=True)
        step = session.take(touchd.next_message())
    for line in summary(session.finish()):
        print(line)


def open_screen():
    """A full-screen black window; a RuntimeError says why there is none."""
    try:
        import tkinter
        root = tkinter.Tk()
    except ImportError as error:
        raise RuntimeError(f"the full-screen mode needs tkinter ({error}; Debian: python3-tk); --text prints the targets instead") from error
    except tkinter.TclError as error:
        raise RuntimeError(f"cannot open the screen ({error}); --text prints the targets instead") from error
    root.attributes("-fullscreen", True)
    root.configure(background="black", cursor="none")
    return root


def run_screen(touchd, device):
    """Draws each target full screen and waits for its touch."""
    root = open_screen()  # before the session: without a screen, the device is never held
    import tkinter

    canvas = tkinter.Canvas(root, background="black", highlightthickness=0)
    canvas.pack(fill="both", expand=True)
    root.update()
    session = Session(touchd, device)
    width, height = root.winfo_width(), root.winfo_height()
    window_width, window_height = session.started.get("window_size", [width, height])
    scale = (width / window_width, height / window_height)

    def show(text, colour="white"):
        canvas.delete("all")
        canvas.create_text(width / 2, height / 2 + 80, text=text, fill=colour, font=("sans", 18), justify="center")

    def draw():
        target = session.targets[session.current]
        x, y = target["x"] * scale[0], target["y"] * scale[1]
        show(f"Touch the centre of the cross ({session.current + 1} of {len(session.targets)}). Escape cancels.")
        canvas.create_oval(x - 20, y - 20, x + 20, y + 20, outline="red", width=3)
        canvas.create_line(x - 30, y, x + 30, y, fill="white", width=2)
        canvas.create_line(x, y - 30, x, y + 30, fill="white", width=2)

    def finish():
        lines = summary(session.finish())
        show("\n".join(lines) + "\n\nany key or touch closes this", "lightgreen")
        root.bind("<Key>", lambda _: root.destroy())
        root.bind("<Button>", lambda _: root.destroy())

    def poll():
        """Takes the messages that have come (the library reads them on its own thread)."""
        try:
            while True:
                try:
                    step = session.take(touchd.next_message(timeout=0.001))
                except TimeoutError:
                    break
                if step == "next":
                    draw()
                elif step == "done":
                    finish()
                    return
        except (RuntimeError, ConnectionLost) as error:
            show(str(error), "red")
            root.after(3000, root.destroy)
            return
        root.after(20, poll)

    def cancel(_):
        try:
            session.cancel()
        except (RuntimeError, ConnectionLost):
            pass  # the session is over anyway
        root.destroy()

    root.bind("<Escape>", cancel)
    draw()
    poll()
    root.mainloop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default=DEFAULT_SOCKET,
                        help="touchd's socket (default: $TOUCHD_SOCKET, else /run/touchd/touchd.sock)")
    parser.add_argument("--device", help="the device's identity (default: touchd's only touch device)")
    parser.add_argument("--text", action="store_true", help="print the targets instead of drawing them")
    args = parser.parse_args()
    try:
        # A session belongs to its connection: a lost connection ends it, so there is no reconnecting.
        with BlockingClient(args.socket, reconnect=False) as touchd:
            (run_text if args.text else run_screen)(touchd, args.device)
    except (ConnectionLost, RuntimeError) as error:
        print(f"calibrate.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
