#!/usr/bin/env python3
"""A full-screen calibration client for touchd, using only Python's standard library (tkinter).

Starts a calibration session (the `calibrate` request: the device's touches reach no view while
it runs), shows each target full screen in turn as a cross in a circle, takes the next touch for
it, and at the end asks touchd to fit, apply and keep the calibration, then shows how far each
touch lands from its target. Escape cancels: nothing changes. Run it on the kiosk's display, as a
user with touchd's control role:

    python3 examples/calibrate.py [--socket /run/touchd/touchd.sock] [--device ID]

The screen is taken to show the device's window, edge to edge: a target at window point (x, y)
is drawn at (x, y) scaled by the screen's size over the window's. --text prints the targets
instead of drawing them (no display needed).
"""
import argparse
import json
import os
import socket
import sys


class Session:
    """A calibration session over touchd's socket: newline-delimited JSON both ways."""

    def __init__(self, path, device=None):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 1
        self.pending = []
        request = {"cmd": "calibrate"}
        if device:
            request["device"] = device
        self.started = self.request(request)
        self.targets = self.started["targets"]
        self.current = 0

    def send(self, request):
        request = dict(request, id=self.next_id)
        self.next_id += 1
        self.sock.sendall((json.dumps(request) + "\n").encode())
        return request["id"]

    def read(self):
        """The messages that have arrived; blocks until one has. Raises EOFError when touchd closed."""
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("touchd closed the connection")
            self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in lines if line]

    def request(self, request):
        """Sends a request and waits for its reply; other messages are kept for later."""
        wanted = self.send(request)
        while True:
            for message in self.read():
                if message.get("type") == "reply" and message.get("id") == wanted:
                    if not message.get("ok"):
                        raise RuntimeError(f"{request['cmd']}: {message['error']['code']}: {message['error']['message']}")
                    return message.get("result")
                self.pending.append(message)

    def take(self, message):
        """Takes a message; returns what the screen should do: 'touched', 'next', 'done' or None."""
        kind = message.get("type")
        if kind == "calibration_ended":
            raise RuntimeError("the calibration ended: " + message.get("reason", ""))
        if kind == "calibration_touch":
            return "touched"
        if kind == "calibration_sample" and self.current < len(self.targets):
            self.request({"cmd": "calibration_point", "sample": message["sample"], "target": self.current})
            self.current += 1
            return "next" if self.current < len(self.targets) else "done"
        return None

    def finish(self):
        return self.request({"cmd": "finish_calibration"})

    def cancel(self):
        self.send({"cmd": "cancel_calibration"})


def summary(result):
    lines = [f"target {p['target']}: lands {p['residual_mm']:.2f} mm from it" for p in result["points"]]
    lines.append(f"worst residual {result['worst_residual_mm']:.2f} mm, mean {result['mean_residual_mm']:.2f} mm; applied")
    lines.append(f"kept in {result['calibration_file']}" if result.get("kept") else "not kept: " + result.get("not_kept_because", ""))
    return lines


def run_text(session):
    """Prints each target and waits for its touch."""
    print(f"calibrating {session.started['device']} (window {session.started['window']})", flush=True)
    while session.current < len(session.targets):
        wanted = session.current
        target = session.targets[wanted]
        print(f"touch target {wanted} at ({target['x']:g}, {target['y']:g})", flush=True)
        while session.current == wanted:
            messages, session.pending = session.pending or session.read(), []
            for index, message in enumerate(messages):
                session.take(message)
                if session.current != wanted:
                    # What came after this target's touch is the next target's.
                    session.pending = messages[index + 1:] + session.pending
                    break
    for line in summary(session.finish()):
        print(line)


def run_screen(session):
    """Draws each target full screen and waits for its touch."""
    import tkinter

    root = tkinter.Tk()
    root.attributes("-fullscreen", True)
    root.configure(background="black", cursor="none")
    canvas = tkinter.Canvas(root, background="black", highlightthickness=0)
    canvas.pack(fill="both", expand=True)
    root.update()
    width, height = root.winfo_width(), root.winfo_height()
    window_width, window_height = session.started.get("window_size", [width, height])
    scale = (width / window_width, height / window_height)

    def show(text, colour="white"):
        canvas.delete("all")
        canvas.create_text(width / 2, height / 2 + 80, text=text, fill=colour, font=("sans", 18), justify="center")

    def draw():
        if session.current >= len(session.targets):
            return
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

    def readable(*_):
        try:
            messages, session.pending = session.pending, []
            for message in messages or session.read():
                step = session.take(message)
                if step == "next":
                    draw()
                elif step == "done":
                    root.tk.deletefilehandler(session.sock)
                    finish()
                    return
        except (RuntimeError, EOFError) as error:
            show(str(error), "red")
            root.after(3000, root.destroy)

    def cancel(_):
        session.cancel()
        root.destroy()

    root.bind("<Escape>", cancel)
    root.tk.createfilehandler(session.sock, tkinter.READABLE, readable)
    draw()
    root.mainloop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default=os.environ.get("TOUCHD_SOCKET", "/run/touchd/touchd.sock"))
    parser.add_argument("--device", help="the device's identity (default: touchd's only touch device)")
    parser.add_argument("--text", action="store_true", help="print the targets instead of drawing them")
    args = parser.parse_args()
    try:
        session = Session(args.socket, args.device)
        run_text(session) if args.text else run_screen(session)
    except (OSError, RuntimeError, EOFError) as error:
        print(f"calibrate.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
