#!/usr/bin/env python3
"""Writes touchd's man pages from the templates in man/.

    generate.py --touchd BIN --touchctl BIN [--out DIR]    (default: man/, where they are committed)
    generate.py --touchd BIN --touchctl BIN --check        (exit 1 when a committed page is stale)

The generated pages are committed beside their templates (man/touchd.8 beside man/touchd.8.in), so
that `man -l man/touchd.8` reads completely in the repository; `make man` writes them again after a
template, an option or a layout key changed, and the tests run --check.

Each template (man/touchd.8.in, man/touchctl.1.in, man/touchd-layout.5.in) holds the hand-written
sections; the generated parts come from their one home:
  @COMMANDS@  the commands and every option with its default, from `TOOL --experimental-dump-help`;
  @KEYS@      the layout's tables and keys with their defaults, from docs/layout.md;
  @VERSION@, @DATE@  the release version (Sources/TouchProtocol/ReleaseVersion.swift) and the date
              of debian/changelog's latest entry.
"""
import argparse
import email.utils
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def roff(text):
    """Markdown-ish help text as roff: `code` bold, *word* italic, links as their text, options
    with real minus signs, and no line that roff would read as a request."""
    text = text.replace("\\", "\\e")
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", text)
    text = re.sub(r"(?<![\w-])(--?[A-Za-z][\w-]*)", lambda m: m.group(1).replace("-", "\\-"), text)
    text = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", text)
    text = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\\fI\1\\fR", text)
    text = text.replace("**", "")
    text = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in text)
    return "\n".join("\\&" + line if line[:1] in (".", "'") else line for line in text.split("\n"))


def option_synopsis(argument):
    names = [("--" if n["kind"] == "long" else "-") + n["name"] for n in argument.get("names", [])]
    flag = ", ".join("\\fB" + n.replace("-", "\\-") + "\\fR" for n in names)
    if argument["kind"] == "option":
        flag += " \\fI" + argument.get("valueName", "value").upper().replace("-", "_") + "\\fR"
    return flag


def default_text(argument):
    if "defaultValue" in argument:
        value = argument["defaultValue"]
        if re.fullmatch(r"-?\d+\.0", value):
            value = value[:-2]
        return " Default: \\fB" + value.replace("-", "\\-") + "\\fR."
    if argument["kind"] == "flag":
        return " Default: off."
    if not argument.get("isOptional", False):
        return " Required."
    return ""


def commands(tool, binary):
    """Every subcommand of TOOL with its synopsis and options (help and version left out)."""
    info = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout)
    root = info["command"]
    default = root.get("defaultSubcommand")
    out = []
    for command in root.get("subcommands", []):
        name = command["commandName"]
        if name == "help":
            continue
        arguments = [a for a in command.get("arguments", []) if not any(n["name"] in ("help", "version") for n in a.get("names", []))]
        positionals = [a for a in arguments if a["kind"] == "positional"]
        options = [a for a in arguments if a["kind"] != "positional"]
        synopsis = f"{tool} {name}"
        if options:
            synopsis += " [options]"
        for p in positionals:
            synopsis += " " + p["valueName"].upper() + ("..." if p.get("isRepeating") else "")
        out.append(f'.SS "{synopsis}"')
        abstract = command.get("abstract", "")
        if name == default:
            abstract += f" {tool} with no command runs this one."
        out.append(roff(abstract))
        for p in positionals:
            out += [".TP", "\\fI" + p["valueName"].upper() + "\\fR", roff(p.get("abstract", ""))]
        for o in options:
            out += [".TP", option_synopsis(o), roff(o.get("abstract", "")) + default_text(o)]
    return "\n".join(out)


def cells(row):
    return [c.strip() for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def layout_keys(markdown):
    """The key tables of docs/layout.md, one subsection per table of the file."""
    out = []
    section = None
    header = None
    for line in markdown.split("\n"):
        heading = re.match(r"^## (.*)$", line)
        if heading:
            title = heading.group(1)
            section = title.strip("`") if (title.startswith("`[") or title == "Top level") else None
            header = None
            tables_in_section = 0
            continue
        if section is None or not line.startswith("|"):
            if header is not None and not line.startswith("|"):
                header = None
            continue
        row = cells(line)
        if header is None:
            if row and row[0] == "Key":
                header = row
                title = section if tables_in_section == 0 else f"{section} match"
                tables_in_section += 1
                out.append(f'.SS "{title}"')
            continue
        if set(line.replace("|", "").strip()) <= set("-: "):
            continue
        entry = dict(zip(header, row))
        detail = entry.get("Type", "")
        if entry.get("Default") == "required":
            detail += "; required"
        elif entry.get("Default"):
            detail += "; default " + entry["Default"]
        text = entry.get("Meaning", "")
        if entry.get("Constraint"):
            text += " (" + entry["Constraint"] + ")"
        out += [".TP", roff(entry["Key"]) + " \\(em " + roff(detail), roff(text)]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--touchd", required=True)
    parser.add_argument("--touchctl", required=True)
    parser.add_argument("--out", default=str(ROOT / "man"))
    parser.add_argument("--check", action="store_true", help="compare with the pages in man/ instead of writing")
    args = parser.parse_args()
    version = re.search(r'static let number = "([^"]+)"', (ROOT / "Sources/TouchProtocol/ReleaseVersion.swift").read_text()).group(1)
    trailer = next(line for line in (ROOT / "debian/changelog").read_text().split("\n") if line.startswith(" -- "))
    date = email.utils.parsedate_to_datetime(trailer.split("  ", 1)[1]).strftime("%Y-%m-%d")
    out = Path(args.out)
    if not args.check:
        out.mkdir(parents=True, exist_ok=True)
    stale = []
    parts = {
        "touchd.8": {"@COMMANDS@": lambda: commands("touchd", args.touchd)},
        "touchctl.1": {"@COMMANDS@": lambda: commands("touchctl", args.touchctl)},
        "touchd-layout.5": {"@KEYS@": lambda: layout_keys((ROOT / "docs/layout.md").read_text())},
    }
    for page, generated in parts.items():
        text = (ROOT / "man" / (page + ".in")).read_text()
        text = text.replace("@VERSION@", version).replace("@DATE@", date)
        for marker, make in generated.items():
            if marker not in text:
                sys.exit(f"man/{page}.in: no {marker}")
            text = text.replace(marker, make())
        if not args.check:
            (out / page).write_text(text)
            continue
        committed = ROOT / "man" / page
        if not committed.exists() or committed.read_text() != text:
            stale.append(f"man/{page}")
    if stale:
        sys.exit(
            f"{', '.join(stale)}: stale (a template, an option or a layout key changed since they were generated); "
            "write them again with `make man`, or: python3 scripts/man/generate.py --touchd .build/debug/touchd "
            "--touchctl .build/debug/touchctl, and commit them")


if __name__ == "__main__":
    main()
