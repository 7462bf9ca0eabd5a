#!/usr/bin/env python3
"""Compares the conversions the lint build found with the reviewed list (see conversions.sh)."""
import argparse
import os
import re
import sys

WARNING = re.compile(r"^(?P<file>/[^:]+\.swift):(?P<line>\d+):\d+: warning: .*TOUCHD-LINT (?P<conversion>[A-Za-z0-9]+->[A-Za-z0-9]+)")
HEADER = """\
# Conversions that can trap (Double or Float to an integer, narrowing or sign-changing integer to
# integer) found in Sources/ by scripts/lint/conversions.sh, which fails on any not listed here.
# One per line, tab-separated: file, conversion, the trimmed source line, and why it cannot trap,
# or "TRAPS: ..." when it can and is yet to be fixed. An entry covers every identical line of its
# file. `scripts/lint/conversions.sh --update` rewrites the list, keeping these reasons; a new
# conversion gets the reason UNREVIEWED until a person writes one.
"""
UNREVIEWED = "UNREVIEWED"


def found_conversions(log, copy):
    """{(file, conversion, text): [line numbers]} from the build log's warnings."""
    found = {}
    lines_of = {}
    prefix = os.path.realpath(copy) + os.sep
    with open(log, encoding="utf-8", errors="replace") as f:
        for raw in f:
            m = WARNING.match(raw.rstrip("\n"))
            if not m:
                continue
            path = os.path.realpath(m["file"])
            if not path.startswith(prefix):
                continue
            rel = path[len(prefix):]
            if rel not in lines_of:
                with open(path, encoding="utf-8", errors="replace") as source:
                    lines_of[rel] = source.read().split("\n")
            number = int(m["line"])
            text = " ".join(lines_of[rel][number - 1].replace("\t", " ").split()) if number <= len(lines_of[rel]) else ""
            key = (rel, m["conversion"], text)
            if number not in found.setdefault(key, []):
                found[key].append(number)
    return found


def read_reviewed(path):
    """{(file, conversion, text): reason}, and the malformed lines."""
    reviewed, malformed = {}, []
    if not os.path.exists(path):
        return reviewed, malformed
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 4:
                malformed.append(f"{path}:{n}: expected 4 tab-separated fields (file, conversion, line, reason)")
                continue
            reviewed[(parts[0], parts[1], parts[2])] = parts[3].strip()
    return reviewed, malformed


def write_reviewed(path, found, reviewed):
    with open(path, "w", encoding="utf-8") as f:
        f.write(HEADER)
        for key in sorted(found):
            f.write("\t".join(key + (reviewed.get(key) or UNREVIEWED,)) + "\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--log", required=True)
    p.add_argument("--copy", required=True)
    p.add_argument("--reviewed", required=True)
    p.add_argument("--update", action="store_true")
    p.add_argument("--strict", action="store_true")
    args = p.parse_args()

    found = found_conversions(args.log, args.copy)
    reviewed, malformed = read_reviewed(args.reviewed)
    for message in malformed:
        print(message)
    if args.update:
        write_reviewed(args.reviewed, found, reviewed)
        reviewed = {key: reviewed.get(key) or UNREVIEWED for key in found}

    def is_reviewed(key):
        reason = reviewed.get(key, "")
        return bool(reason) and not reason.startswith(UNREVIEWED)

    unreviewed = sorted(key for key in found if not is_reviewed(key))
    traps = sorted(key for key in found if is_reviewed(key) and reviewed[key].startswith("TRAPS:"))
    stale = sorted(key for key in reviewed if key not in found)
    for file, conversion, text in unreviewed:
        for number in sorted(found[(file, conversion, text)]):
            print(f"{file}:{number}: unreviewed conversion {conversion}: {text}")
    if args.strict:
        for file, conversion, text in traps:
            for number in sorted(found[(file, conversion, text)]):
                print(f"{file}:{number}: {conversion} can trap: {text}  ({reviewed[(file, conversion, text)]})")
    if stale and not args.update:
        print(f"conversions: {len(stale)} reviewed conversions are gone from the code (--update drops them)", file=sys.stderr)
    print(
        f"conversions: {len(found)} found, {len(found) - len(unreviewed)} reviewed ({len(traps)} marked TRAPS:), "
        f"{len(unreviewed)} unreviewed" + (f"; {args.reviewed} rewritten" if args.update else ""),
        file=sys.stderr)
    failed = unreviewed or malformed or (args.strict and traps)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
