#!/usr/bin/env python3
"""Fails when a function, initialiser, subscript or accessor body in Sources/ is longer than the limit.

Usage: scripts/lint/function-length.py [--limit N] [ROOT]   (default limit 60, root Sources/)

A body's length is counted from the line of its declaration to the line of its closing brace. Strings
and comments are skipped when matching braces. The generated event-code table is exempt.
"""
import os
import re
import sys

EXEMPT = {"TouchEvdev/EventCodeTable.swift"}
DECL = re.compile(r"\b(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])")


def strip_code(text):
    """The text with string literals and comments replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r"#*", text[i:]).group(0))
            start = i
            i += hashes
            triple = text.startswith('"""', i)
            close = ('"""' if triple else '"') + "#" * hashes
            i += 3 if triple else 1
            while i < n:
                if hashes == 0 and text[i] == "\\":
                    if text.startswith("\\(", i):
                        depth, i = 1, i + 2
                        while i < n and depth:
                            depth += {"(": 1, ")": -1}.get(text[i], 0)
                            i += 1
                        continue
                    i += 2
                    continue
                if text.startswith(close, i):
                    i += len(close)
                    break
                if not triple and text[i] == "\n":
                    break
                i += 1
            out.append(re.sub(r"[^\n]", " ", text[start:i]))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def long_bodies(path, limit):
    code = strip_code(open(path, encoding="utf-8").read())
    lines = code.split("\n")
    offsets, total = [], 0
    for line in lines:
        offsets.append(total)
        total += len(line) + 1
    found = []
    for match in DECL.finditer(code):
        # The body starts at the first "{" after the declaration, unless a ";" or "}" comes first
        # (a protocol requirement has no body).
        j = match.end()
        if code[j - 1] in "(<":
            j -= 1
        depth_paren = 0
        while j < len(code):
            ch = code[j]
            if ch in "([":
                depth_paren += 1
            elif ch in ")]":
                depth_paren -= 1
            elif depth_paren == 0 and ch in ";}\n" and ch != "\n":
                j = -1
                break
            elif depth_paren == 0 and ch == "{":
                break
            elif depth_paren == 0 and ch == "\n" and re.match(r"\s*(public |private |internal |fileprivate |@|static |func |var |let |case |init|deinit|}|$)", code[j + 1:j + 80]) and "{" not in code[match.end():j]:
                # A requirement without a body ends at the line's end.
                nxt = code[j + 1:j + 200].lstrip()
                if not nxt.startswith(("throws", "where", "->", "{", "async", "rethrows")):
                    j = -1
                    break
            j += 1
        if j < 0 or j >= len(code):
            continue
        depth, k = 0, j
        while k < len(code):
            if code[k] == "{":
                depth += 1
            elif code[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        first = code.count("\n", 0, match.start()) + 1
        last = code.count("\n", 0, k) + 1
        length = last - first + 1
        if length > limit:
            name = match.group(1).strip().rstrip("(<")
            found.append((first, length, name))
    return found


def main():
    args = sys.argv[1:]
    limit = 60
    if args[:1] == ["--limit"]:
        limit = int(args[1])
        args = args[2:]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..", "Sources")
    root = os.path.normpath(root)
    failures = 0
    for directory, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            rel = os.path.relpath(path, root)
            if rel in EXEMPT:
                continue
            for line, length, decl in long_bodies(path, limit):
                print(f"{os.path.join(os.path.basename(root), rel)}:{line}: {decl} is {length} lines (limit {limit})")
                failures += 1
    if failures:
        print(f"{failures} function{'s' if failures != 1 else ''} over {limit} lines")
        return 1
    print(f"no function over {limit} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
