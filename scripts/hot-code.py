#!/usr/bin/env python3
"""Prints link/hot-code.ld from callgrind profiles (see scripts/hot-code.sh).

    hot-code.py BUILD_DIR PROFILE...

PROFILE: callgrind output written with --compress-strings=no. BUILD_DIR: the release build's
directory (its MODULE.build/*.o are the daemon's own objects). Every function that ran is listed,
the most run first: by its own section (`.text.NAME`) when it has one (the public functions of
touchd's modules, the standard library's and the runtime's, built with function sections), else
by its object's `.text` (the Swift compiler keeps a module's internal and specialised functions
in one section per source file), once, at the place of its first function."""
import glob
import os
import re
import subprocess
import sys


def function_costs(paths):
    cost = {}
    for path in paths:
        function = None
        call_cost_next = False
        with open(path, encoding="utf-8", errors="replace") as profile:
            for line in profile:
                if line.startswith("fn="):
                    function = line[3:].strip()
                    cost.setdefault(function, 0)
                elif line.startswith("calls="):
                    call_cost_next = True
                elif line[:1].isdigit() or line[:1] in "+-*":
                    if call_cost_next:
                        call_cost_next = False
                        continue
                    fields = line.split()
                    if function is not None and len(fields) >= 2 and fields[1].isdigit():
                        cost[function] += int(fields[1])
    return cost


def own_objects(build):
    """Each function defined in the daemon's own objects: (object path, its section's name)."""
    where = {}
    for obj in sorted(glob.glob(os.path.join(build, "*.build", "*.o"))):
        sections = {}
        out = subprocess.run(["readelf", "-SW", obj], capture_output=True, text=True, errors="replace").stdout
        for line in out.splitlines():
            m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)", line)
            if m:
                sections[m.group(1)] = m.group(2)
        out = subprocess.run(["readelf", "-sW", obj], capture_output=True, text=True, errors="replace").stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 8 and f[3] == "FUNC" and f[6].isdigit():
                where.setdefault(f[7], (obj, sections.get(f[6], "")))
    return where


def main():
    build, profiles = sys.argv[1], sys.argv[2:]
    cost = function_costs(profiles)
    where = own_objects(build)
    symbol = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$.]*$")
    lines, seen = [], set()
    for name in sorted((n for n, c in cost.items() if c > 0 and symbol.match(n)), key=lambda n: (-cost[n], n)):
        obj, section = where.get(name, (None, ".text." + name))
        if section == ".text" and obj is not None:
            module_file = "/".join(obj.split(os.sep)[-2:])
            entry = f"    */{module_file}(.text)"
        else:
            entry = f"    *({section})" if section.startswith(".text") else None
        if entry and entry not in seen:
            seen.add(entry)
            lines.append(entry)
    print("/* The functions a started daemon runs, the most run first: written by scripts/hot-code.sh")
    print(" * from a profile; do not edit. The release link puts them side by side before the rest of")
    print(" * the code (Package.swift), so the pages a touch and a client run are few and together. */")
    print("SECTIONS")
    print("{")
    print("  .text.hot.touchd :")
    print("  {")
    print("\n".join(lines))
    print("  }")
    print("}")
    print("INSERT BEFORE .text;")


main()
