#!/usr/bin/env python3
"""Summarises the daemon-vm benchmark's guest output (scripts/bench/vm-job/run's "result" lines).

  daemon-vm-report.py GUEST_LOG ICOUNT_SPEC

Prints the table (medians over the complete runs of each reader) and one line per goal,
"goal NAME: ... met|missed":
  hits-and-actions CPU   touchd subscribed to hits and actions <= libinput --quiet
  touches-60hz CPU       touchd subscribed to touches at 60 Hz <= libinput --quiet
  touches-input CPU      touchd subscribed to touches at input rate <= 10 x the floor
  input-rate latency     touchd's touch messages at input rate, p99 <= 2 x the relay floor's p99
  touch frames           touchd subscribed to touch frames at input rate: CPU <= 10 x the floor,
                         latency p99 <= 2 x the relay floor's p99
  hit latency            touchd's hit messages, p99: of ten fingers landing in one frame <= 4 x the
                         relay floor's p99; of a one-finger tap <= 2 x the relay floor's p99 on the taps
  touches-60hz age       the newest sample's age at the client, p99 <= one display period + the relay's p99
  forwarded latency      a forwarded touch, source timestamp -> read() of the virtual touchscreen, p99 <= 2 x the relay's p99
                         (and, not a goal, its ratio to the uinput relay floor's p99)
Exits 0 whether or not the goals are met; 1 when the log holds no usable runs.
"""
import statistics
import sys

LABELS = {
    "floor": "floor (static C, read only)",
    "relay": "relay floor (static C, to a socket)",
    "libinput-quiet": "libinput debug-events --quiet",
    "libinput": "libinput debug-events (printing)",
    "touchd-kiosk": "touchd, hits + actions",
    "touchd-display": "touchd, touches at 60 Hz",
    "touchd-input": "touchd, touches at input rate",
    "touchd-frames": "touchd, touch frames at input rate",
    "relay-tap": "relay floor, one-finger taps",
    "touchd-tap": "touchd, hits + actions, one-finger taps",
    "uinput-relay": "uinput relay floor (static C, to uinput)",
    "forward": "touchd, forwarded to its touchscreen",
}
DISPLAY_PERIOD_US = 1e6 / 60


def parse(path):
    runs = []
    for line in open(path, encoding="utf-8", errors="replace"):
        if not line.startswith("result "):
            continue
        run = {}
        for item in line.split()[1:]:
            key, _, value = item.partition("=")
            run[key] = value
        runs.append(run)
    return runs


def number(run, key):
    try:
        return int(run.get(key, "-"))
    except ValueError:
        return None


def complete(run):
    """Saw everything, was idle before and after, and (touchd) lost nothing."""
    if run.get("note", "-") != "-":
        return False
    if run["reader"] == "libinput-quiet" and run.get("pass") == "cpu":
        return True  # prints nothing: what it read is counted in its probe runs
    if number(run, "seen") is None or number(run, "seen") != number(run, "expect"):
        return False
    if run["reader"] in ("touchd-kiosk", "touchd-frames", "touchd-tap"):
        return number(run, "gaps") == 0
    if run["reader"].startswith("touchd"):
        return number(run, "gaps") == 0 and number(run, "began") == 10 and number(run, "ended") == 10
    return True


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: daemon-vm-report.py GUEST_LOG ICOUNT_SPEC")
    runs = parse(sys.argv[1])
    cpu_runs = [r for r in runs if r.get("pass") == "cpu"]
    if not cpu_runs:
        print("daemon-vm: the guest reported no runs", file=sys.stderr)
        return 1
    rows = {}
    for reader in LABELS:
        mine = [r for r in cpu_runs if r["reader"] == reader]
        if not mine:
            continue
        good = [r for r in mine if complete(r)]
        use = good or mine
        lat_runs = [r for r in runs if r["reader"] == reader and r.get("pass") == "lat"] if reader.startswith("libinput") else use
        lat_good = [r for r in lat_runs if complete(r)] or lat_runs
        rows[reader] = {
            "cpu": median([number(r, "cpu_ns") for r in use]) / 1e6,
            "cpu_range": (min(number(r, "cpu_ns") for r in use) / 1e6, max(number(r, "cpu_ns") for r in use) / 1e6),
            "p50": median([number(r, "lat_p50") for r in lat_good]),
            "p99": median([number(r, "lat_p99") for r in lat_good]),
            "seen": median([number(r, "seen") for r in use]),
            "expect": number(mine[0], "expect"),
            "complete": f"{len(good)}/{len(mine)}",
            "client": median([number(r, "client_ns") for r in use]),
            "all_complete": bool(good),
            "lat_seen": median([number(r, "seen") for r in lat_good]) if reader.startswith("libinput") else None,
            "cold_p99": median([number(r, "cold_p99") for r in use]),
            "moved": (median([number(r, "moved_p50") for r in lat_good]), median([number(r, "moved_p99") for r in lat_good])),
            "p99_range": latency_range([number(r, "lat_p99") for r in lat_good]),
        }
    print_table(rows)
    print_goals(rows)
    return 0


def latency_range(values):
    """The lowest and highest of the runs' figures, or None without two."""
    known = [v for v in values if v is not None]
    return (min(known), max(known)) if len(known) > 1 else None


def print_table(rows):
    floor = rows.get("floor")
    print(f"daemon-vm: QEMU -icount {sys.argv[2]} (CPU in instruction-milliseconds: 1 ms = 1M guest instructions);")
    print("one stream of 10 fingers at 1 kHz (302 frames, 9,988 events written; the *-tap readers: 50 one-finger taps,")
    print("100 frames, 700 events), each reader alone on its own replay;")
    print("medians over the complete runs. Latency: kernel event timestamp -> the reader's read() returning it (for touchd:")
    print("of hit messages with hits + actions, of the newest sample of each touch message otherwise).")
    print()
    print(f"{'reader':<38} {'CPU ms':>8} {'x floor':>8} {'p50/p99 us':>13}  {'seen/expected':>14}  complete")
    for reader, row in rows.items():
        ratio = f"{row['cpu'] / floor['cpu']:.1f}" if floor and floor["cpu"] > 0 else "-"
        lat = f"{row['p50']:.0f}/{row['p99']:.0f}" if row["p50"] is not None and row["p99"] is not None else "-"
        seen = f"{row['seen']:.0f}/{row['expect']}" if row["seen"] is not None else "-"
        if row["lat_seen"] is not None and row["seen"] is None:
            seen = f"{row['lat_seen']:.0f}/9987 probe"
        print(f"{LABELS[reader]:<38} {row['cpu']:>8.1f} {ratio:>8} {lat:>13}  {seen:>14}  {row['complete']}")
    print()
    print("seen: evdev events for the floors, libinput's touch events (down, motion, up, frame) printed; for touchd the hit")
    print("messages (hits + actions: 10; on the taps 50), the samples delivered (60 Hz: each moved message and its coalesced samples, 3000),")
    print("the touch messages (input rate: 10 began, 3000 moved, 10 ended). libinput --quiet prints nothing: its latency")
    print("and counts come from separate runs under an LD_PRELOAD read() probe", end="")
    quiet = rows.get("libinput-quiet")
    if quiet and quiet["lat_seen"] is not None:
        print(f" (it read {quiet['lat_seen']:.0f}/9987 events).")
    else:
        print(".")
    colds = [(LABELS[reader], row["cold_p99"]) for reader, row in rows.items() if row["cold_p99"] is not None]
    if colds:
        print("touchd is measured running: each run plays the stream once unmeasured first. That first play's latency p99 (a")
        print("fresh daemon's first touches, with the runtime's and the kernel's one-time work): "
              + ", ".join(f"{label} {p99:.0f} us" for label, p99 in colds) + ".")
    for reader, row in rows.items():
        if row["client"] is not None:
            print(f"{LABELS[reader]}: its client itself used {row['client'] / 1e6:.1f} ms (not in the figure).")
    for reader, row in rows.items():
        lo, hi = row["cpu_range"]
        if hi - lo > 0.05 * max(hi, 1e-9):
            print(f"note: {reader} CPU varied from {lo:.1f} to {hi:.1f} ms between runs.")
    for reader, row in rows.items():
        moved50, moved99 = row["moved"]
        if reader == "touchd-input" and moved50 is not None and moved99 is not None and moved50 >= 0:
            print(f"{LABELS[reader]}: the moved messages alone p50/p99 {moved50:.0f}/{moved99:.0f} us "
                  "(a touch-down's and a lift's messages follow their frame's dispatch).")
        if row["p99_range"] and row["p99_range"][1] - row["p99_range"][0] > 0.1 * max(row["p99_range"][1], 1e-9):
            lo, hi = row["p99_range"]
            # At the input's rate, the frames that came while a display tick's moves were dispatched
            # waited for them: how many did is what moves the p99 from run to run.
            why = (" (a frame that arrives while a display tick's moves are dispatched waits for them, and how many "
                   "frames did varies from run to run)") if reader in ("touchd-input", "touchd-frames") else ""
            print(f"note: {reader} latency p99 varied from {lo:.0f} to {hi:.0f} us between runs{why}.")
    print()


def goal(name, figure, limit, unit, row, how):
    """One goal line: the figure, the limit and how it was set, met or missed."""
    if row is None or figure is None or limit is None:
        print(f"goal {name}: not measured: missed")
        return
    met = figure <= limit and row["all_complete"]
    why = "" if row["all_complete"] else " (no complete run)"
    print(f"goal {name}: {figure:.1f}{unit} against at most {limit:.1f}{unit} ({how}){why}: {'met' if met else 'missed'}")


def print_goals(rows):
    floor, relay, quiet = rows.get("floor"), rows.get("relay"), rows.get("libinput-quiet")
    kiosk, display, each = rows.get("touchd-kiosk"), rows.get("touchd-display"), rows.get("touchd-input")
    q = quiet["cpu"] if quiet else None
    goal("hits and actions, CPU", kiosk and kiosk["cpu"], q, " ms", kiosk, "libinput --quiet")
    goal("touches at 60 Hz, CPU", display and display["cpu"], q, " ms", display, "libinput --quiet")
    goal("touches at input rate, CPU", each and floor and each["cpu"] / floor["cpu"], 10.0, "x floor", each,
         "10 x the read-only floor; libinput printing is " + (f"{rows['libinput']['cpu'] / floor['cpu']:.1f}x" if floor and "libinput" in rows else "-"))
    relay99 = relay["p99"] if relay else None
    goal("hit latency p99, ten fingers landing in one frame", kiosk and kiosk["p99"], relay99 and 4 * relay99, " us", kiosk,
         "4 x the relay floor's p99")
    tap, relay_tap = rows.get("touchd-tap"), rows.get("relay-tap")
    goal("hit latency p99, one-finger taps", tap and tap["p99"], relay_tap and relay_tap["p99"] and 2 * relay_tap["p99"], " us", tap,
         "2 x the relay floor's p99 on the taps")
    goal("touches at 60 Hz, newest sample's age p99", display and display["p99"], relay99 and DISPLAY_PERIOD_US + relay99, " us",
         display, "one display period + the relay floor's p99")
    goal("input-rate touch latency p99", each and each["p99"], relay99 and 2 * relay99, " us", each, "2 x the relay floor's p99")
    frames = rows.get("touchd-frames")
    goal("touch frames at input rate, CPU", frames and floor and frames["cpu"] / floor["cpu"], 10.0, "x floor", frames, "10 x the read-only floor")
    goal("touch frames at input rate, latency p99", frames and frames["p99"], relay99 and 2 * relay99, " us", frames, "2 x the relay floor's p99")
    forward = rows.get("forward")
    goal("forwarded touch latency p99", forward and forward["p99"], relay99 and 2 * relay99, " us", forward, "2 x the relay floor's p99")
    uinput = rows.get("uinput-relay")
    if forward and uinput and uinput["p99"]:
        # Not a goal: what the kernel's uinput path itself costs a forwarder, for comparison.
        print(f"forwarded touch latency p99 against the uinput relay floor's ({uinput['p99']:.1f} us): {forward['p99'] / uinput['p99']:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
