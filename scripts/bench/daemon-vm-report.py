#!/usr/bin/env python3
"""Summarises the daemon-vm benchmark's guest output (scripts/bench/vm-job/run's "result" lines).

  daemon-vm-report.py GUEST_LOG ICOUNT_SPEC

Prints the table (medians over the complete runs of each reader) and a verdict per goal:
  CPU      touchd's CPU / the floor's <= libinput --quiet's CPU / the floor's
  latency  touchd's p99 <= 1.5 x the floor's p99
Exits 0 whether or not the goals are met; 1 when the log holds no usable runs.
"""
import statistics
import sys

LABELS = {
    "floor": "floor (static C, read only)",
    "libinput-quiet": "libinput debug-events --quiet",
    "libinput": "libinput debug-events (printing)",
    "touchd": "touchd (daemon, 340 views)",
}


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
    if run["reader"] == "touchd":
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
        }
    floor = rows.get("floor")
    print(f"daemon-vm: QEMU -icount {sys.argv[2]} (CPU in instruction-milliseconds: 1 ms = 1M guest instructions);")
    print("one stream of 10 fingers at 1 kHz (302 frames, 9,988 events written), each reader alone on its own replay;")
    print("medians over the complete runs. Latency: kernel event timestamp -> the reader's read() returning it.")
    print()
    print(f"{'reader':<36} {'CPU ms':>8} {'x floor':>8} {'p50/p99 us':>12}  {'seen/expected':>14}  complete")
    for reader, row in rows.items():
        ratio = f"{row['cpu'] / floor['cpu']:.1f}" if floor and floor["cpu"] > 0 else "-"
        lat = f"{row['p50']:.0f}/{row['p99']:.0f}" if row["p50"] is not None and row["p99"] is not None else "-"
        seen = f"{row['seen']:.0f}/{row['expect']}" if row["seen"] is not None else "-"
        if row["lat_seen"] is not None and row["seen"] is None:
            seen = f"{row['lat_seen']:.0f}/9987 probe"
        print(f"{LABELS[reader]:<36} {row['cpu']:>8.1f} {ratio:>8} {lat:>12}  {seen:>14}  {row['complete']}")
    print()
    print("seen: evdev events for the floor, libinput's touch events (down, motion, up, frame) printed, touch messages")
    print("the subscriber received (10 began, 3000 moved, 10 ended) for touchd. libinput --quiet prints nothing: its")
    print("latency and counts come from separate runs under an LD_PRELOAD read() probe", end="")
    quiet = rows.get("libinput-quiet")
    if quiet and quiet["lat_seen"] is not None:
        print(f" (it read {quiet['lat_seen']:.0f}/9987 events).")
    else:
        print(".")
    if "touchd" in rows and rows["touchd"]["client"] is not None:
        print(f"touchd's subscriber itself used {rows['touchd']['client'] / 1e6:.1f} ms (not in touchd's figure).")
    for reader, row in rows.items():
        lo, hi = row["cpu_range"]
        if hi - lo > 0.05 * max(hi, 1e-9):
            print(f"note: {reader} CPU varied from {lo:.1f} to {hi:.1f} ms between runs.")
    print()
    if not (floor and quiet and "touchd" in rows):
        print("verdict: not enough readers measured to judge the goals")
        return 0
    touchd = rows["touchd"]
    if not touchd["all_complete"]:
        print("verdict: touchd did not deliver the whole stream in any run: goals missed")
    goal_cpu = quiet["cpu"] / floor["cpu"]
    ratio = touchd["cpu"] / floor["cpu"]
    verdict = "met" if ratio <= goal_cpu and touchd["all_complete"] else "goal missed"
    print(f"goal CPU     touchd {ratio:.1f}x the floor, libinput --quiet {goal_cpu:.1f}x: {verdict}")
    if touchd["p99"] is None or floor["p99"] is None:
        print("goal latency no latency figures: goal missed")
    else:
        limit = 1.5 * floor["p99"]
        verdict = "met" if touchd["p99"] <= limit and touchd["all_complete"] else "goal missed"
        print(f"goal latency touchd p99 {touchd['p99']:.0f} us, limit 1.5 x the floor's {floor['p99']:.0f} us = {limit:.0f} us: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
