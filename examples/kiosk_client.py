#!/usr/bin/env python3
"""A touchd client using only Python's standard library.

Subscribes to actions and hits, prints them, and reacts to actions by changing the tree: when
the kiosk layout's info button sends "show-info", it shows the dialog; the dialog's buttons
("dialog.confirm", "dialog.dismiss") and a tap around its panel ("dialog.outside-tap") hide it
again. A reload of the layout brings the dialog back as the layout has it (hidden): the client
shows it again if it had it open.

    python3 examples/kiosk_client.py [--socket /run/touchd/touchd.sock]
"""
import argparse
import json
import os
import socket


class Touchd:
    """One connection to touchd: newline-delimited JSON both ways."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.reader = self.sock.makefile("r", encoding="utf-8")
        self.next_id = 1
        self.last_seq = 0

    def send(self, cmd, **args):
        request = {"id": self.next_id, "cmd": cmd, **args}
        self.next_id += 1
        self.sock.sendall((json.dumps(request) + "\n").encode())
        return request["id"]

    def messages(self):
        for line in self.reader:
            message = json.loads(line)
            seq = message["seq"]
            if seq != self.last_seq + 1 and message["type"] != "dropped":
                print(f"(messages {self.last_seq + 1}..{seq - 1} were not received)")
            self.last_seq = seq
            yield message


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default=os.environ.get("TOUCHD_SOCKET", "/run/touchd/touchd.sock"))
    args = parser.parse_args()

    touchd = Touchd(args.socket)
    touchd.send("subscribe", topics=["hits", "actions", "devices"])
    dialog_open = False

    def show_dialog(shown):
        nonlocal dialog_open
        dialog_open = shown
        touchd.send("set", view="dialog.root", properties={"hidden": not shown})

    for message in touchd.messages():
        kind = message["type"]
        if kind == "hello":
            print(f"connected to {message['daemon']} (protocol {message['protocol']})")
        elif kind == "hit":
            print(f"touch {message['touch']} landed on {message['view']} at {message['point']}")
        elif kind == "action":
            # A control's action that no responder took has no responder: it names its control.
            source = message["responder"] or f"control {message['control']}"
            print(f"action {message['name']} from {source} payload {message['payload']}")
            if message["name"] == "show-info":
                show_dialog(True)
            elif message["name"] in ("dialog.confirm", "dialog.dismiss", "dialog.outside-tap"):
                show_dialog(False)
        elif kind == "reload":
            # The new layout starts as its file says: what this client changed is gone.
            print(f"the layout was reloaded ({message['views']} views)")
            if dialog_open:
                show_dialog(True)
        elif kind == "reply" and not message["ok"]:
            print(f"request {message['id']} refused: {message['error']['message']}")
        elif kind == "dropped":
            print(f"touchd dropped {message['count']} messages for this client")
        elif kind == "goodbye":
            print(f"touchd closed the connection: {message['reason']}")

if __name__ == "__main__":
    main()
