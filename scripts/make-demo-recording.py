#!/usr/bin/env python3
"""Writes config/demo-taps.evemu: a recording, in evemu format, of a made-up 10-finger touchscreen
being used on the kiosk layout (config/kiosk.toml, a 1280x800 window).

The device reports 0..4095 x 0..2559 (16 units per millimetre: a 256 x 160 mm screen), pressure and
touch size, with multi-touch protocol B, like a typical USB HID touchscreen. The script is the
recording's source: run it again after changing the gestures below.
"""
import os

WINDOW = (1280, 800)
RANGE = (4095, 2559)

# (name, list of (time, [(slot, tracking id or -1 to lift, x, y)])) in window points.
def tap(t, x, y, slot=0, tid=0, hold=0.08):
    return [(t, [(slot, tid, x, y)]), (t + hold / 2, [(slot, None, x + 1, y)]), (t + hold, [(slot, -1, x + 1, y)])]

def drag(t, start, end, steps=12, dt=0.016, slot=0, tid=0):
    frames = [(t, [(slot, tid, *start)])]
    for i in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * i / steps
        y = start[1] + (end[1] - start[1]) * i / steps
        frames.append((t + i * dt, [(slot, None, x, y)]))
    frames.append((t + (steps + 1) * dt, [(slot, -1, *end)]))
    return frames

script = []
script += tap(1.00, 200, 250, tid=1)            # the doors tile
script += tap(2.00, 1218, 40, tid=2)            # the 20x20 info button, just outside it: its hit expansion takes it
script += tap(3.00, 600, 250, tid=3)            # the lights tile, once...
script += tap(3.20, 603, 252, tid=4)            # ...and again: a double tap
script += tap(4.50, 640, 452, tid=5)            # the gap between tiles: the grid takes it, nobody handles it
script += drag(5.50, (230, 600), (330, 600), tid=6)   # a drag on the music tile: no tap, it opens nothing
# Two fingers on the cameras tile at once (the view takes only its first touch; two fingers are no one-finger tap).
script += [(7.00, [(0, 7, 600, 600), (1, 8, 700, 620)]), (7.05, [(0, -1, 600, 600), (1, -1, 700, 620)])]
script += tap(8.00, 200, 650, tid=9)            # the music tile (around the dialog, when an app has shown it)
script += tap(9.00, 200, 250, tid=10)           # the doors tile again

def units(x, y):
    return round(x / WINDOW[0] * RANGE[0]), round(y / WINDOW[1] * RANGE[1])

def bitmask_lines(type_code, codes, nbytes):
    data = bytearray(nbytes)
    for c in codes:
        data[c // 8] |= 1 << (c % 8)
    return [f"B: {type_code:02x} " + " ".join(f"{b:02x}" for b in data[i:i + 8]) for i in range(0, nbytes, 8)]

ABS = {"X": 0x00, "Y": 0x01, "PRESSURE": 0x18, "MT_SLOT": 0x2f, "MT_TOUCH_MAJOR": 0x30, "MT_POSITION_X": 0x35,
       "MT_POSITION_Y": 0x36, "MT_TRACKING_ID": 0x39, "MT_PRESSURE": 0x3a}
lines = [
    "# EVEMU 1.3",
    "# A recording made by scripts/make-demo-recording.py for config/kiosk.toml (not real hardware).",
    "N: touchd demo touchscreen",
    "I: 0003 1d6b 0104 0100",
    "P: 02 00 00 00 00 00 00 00",
    "B: 00 0b 00 00 00 00 00 00 00",
]
lines += bitmask_lines(1, [0x14a], 96)           # BTN_TOUCH
lines += bitmask_lines(3, sorted(ABS.values()), 8)
lines += [
    f"A: 00 0 {RANGE[0]} 0 0 16", f"A: 01 0 {RANGE[1]} 0 0 16", "A: 18 0 255 0 0 0",
    "A: 2f 0 9 0 0 0", "A: 30 0 255 0 0 16", f"A: 35 0 {RANGE[0]} 0 0 16", f"A: 36 0 {RANGE[1]} 0 0 16",
    "A: 39 0 65535 0 0 0", "A: 3a 0 255 0 0 0",
]

def event(t, type_, code, value):
    sec = int(t)
    usec = round((t - sec) * 1e6)
    return f"E: {sec}.{usec:06d} {type_:04x} {code:04x} {value:04d}"

down = set()
for t, contacts in script:
    for slot, tid, x, y in contacts:
        ux, uy = units(x, y)
        lines.append(event(t, 3, ABS["MT_SLOT"], slot))
        if tid == -1:
            lines.append(event(t, 3, ABS["MT_TRACKING_ID"], -1))
            down.discard(slot)
            continue
        if tid is not None:
            lines.append(event(t, 3, ABS["MT_TRACKING_ID"], tid))
            down.add(slot)
        lines += [event(t, 3, ABS["MT_POSITION_X"], ux), event(t, 3, ABS["MT_POSITION_Y"], uy),
                  event(t, 3, ABS["MT_PRESSURE"], 40), event(t, 3, ABS["MT_TOUCH_MAJOR"], 112)]
    lines.append(event(t, 1, 0x14a, 1 if down else 0))
    lines.append(event(t, 0, 0, 0))

out = os.path.join(os.path.dirname(__file__), "..", "config", "demo-taps.evemu")
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
print(f"wrote {os.path.normpath(out)}: {sum(1 for l in lines if l.startswith('E:'))} events")
