#!/usr/bin/env python3
"""A touchd client for the bundled kiosk layout, with touchd's Python client library.

Subscribes to actions and hits, prints them, and reacts to actions by changing the tree: when
the kiosk layout's info button sends "show-info", it shows the dialog; the dialog's buttons
("dialog.confirm", "dialog.dismiss") and a tap around its panel ("dialog.outside-tap") hide it
again. A reload of the layout, or a restart of touchd, brings the dialog back as the layout has it
(hidden): the client shows it again if it had it open. After a restart the library connects and
subscribes again by itself; the client ends when touchd's input ends (a replay's `input ended`).

    python3 examples/kiosk_client.py [--socket /run/touchd/touchd.sock]

It needs the touchd_client package: `pip install ./clients/python` in touchd's repository installs
it (run from a checkout of the repository, the example finds it there without installing).
"""
import argparse
import asyncio
import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("touchd_client") is None:  # run from a checkout: use the repository's copy
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "clients" / "python"))
from touchd_client import (DEFAULT_SOCKET, Action, Client, ConnectionLost, Disconnected, Dropped,  # noqa: E402
                           Gap, Goodbye, Hello, Hit, Reconnected, Reload, TouchdError)

HIDES_THE_DIALOG = ("dialog.confirm", "dialog.dismiss", "dialog.outside-tap")


async def run(socket):
    # The first connection must succeed (an error says why not); from then on, a restart of touchd
    # is waited out and the library subscribes again.
    touchd = Client(socket, reconnect=False)
    await touchd.connect()
    touchd.reconnect = True
    dialog_open = False

    async def show_dialog(shown):
        nonlocal dialog_open
        dialog_open = shown
        try:
            await touchd.set("dialog.root", hidden=not shown)
        except (TouchdError, ConnectionLost) as error:
            print(f"set dialog.root refused: {error}")

    try:
        await touchd.subscribe(topics=["hits", "actions", "devices"])
        async for message in touchd.messages():
            if isinstance(message, Hello):
                print(f"connected to {message.daemon} (protocol {message.protocol})")
            elif isinstance(message, Hit):
                print(f"touch {message.touch} landed on {message.view} at ({message.point.x:.2f}, {message.point.y:.2f})")
            elif isinstance(message, Action):
                # A control's action that no responder took has no responder: it names its control.
                source = message.responder or f"control {message.control}"
                print(f"action {message.name} from {source} payload {message.payload}")
                if message.name == "show-info":
                    await show_dialog(True)
                elif message.name in HIDES_THE_DIALOG:
                    await show_dialog(False)
            elif isinstance(message, Reload):
                # The new layout starts as its file says: what this client changed is gone.
                print(f"the layout was reloaded ({message.views} views)")
                if dialog_open:
                    await show_dialog(True)
            elif isinstance(message, Reconnected):
                print("connected again: subscribed as before")
                if dialog_open:
                    await show_dialog(True)
            elif isinstance(message, Gap):
                print(f"(messages {message.first_seq}..{message.last_seq} were not received)")
            elif isinstance(message, Dropped):
                print(f"touchd dropped {message.count} messages for this client")
            elif isinstance(message, Goodbye):
                print(f"touchd closed the connection: {message.reason}")
                if message.reason == "input ended":  # a replay is over: touchd does not come back
                    return
            elif isinstance(message, Disconnected):
                print(f"{message.reason}: waiting for touchd to come back")
    finally:
        await touchd.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default=DEFAULT_SOCKET,
                        help="touchd's socket (default: $TOUCHD_SOCKET, else /run/touchd/touchd.sock)")
    args = parser.parse_args()
    try:
        asyncio.run(run(args.socket))
    except (ConnectionLost, TouchdError) as error:
        print(f"kiosk_client.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
