#!/usr/bin/env python3
"""Every module's imports are exactly those docs/architecture.md's module table lists for it.

    python3 scripts/lint/imports.py

Reads the table under "## Modules" (a row per module: the module's name in backticks in the
first column, the modules it may import in backticks in the third) and every `import` line of
Sources/MODULE/**/*.swift (inside `#if canImport(...)` too). A module that imports something its
row does not list, a row that lists an import no file makes (the table would say more than the
code), a source module without a row, and a row without a module are each an error with the file
and line. Every Swift file the document names (`Name.swift`, `Type+Part.swift`) must exist under
Sources/ too. Exits 0 when the document and the code agree.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "docs", "architecture.md")
IMPORT = re.compile(r"^\s*(?:@testable\s+|@_implementationOnly\s+|@preconcurrency\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


def table_rows():
    """{module: (line, set of imports)} from the module table."""
    rows = {}
    with open(TABLE, encoding="utf-8") as f:
        lines = f.read().split("\n")
    inside = False
    for number, line in enumerate(lines, 1):
        if line.startswith("## "):
            inside = line.strip() == "## Modules"
            continue
        if not inside or not line.startswith("| `"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3:
            continue
        for module in re.findall(r"`([^`]+)`", cells[0]):
            rows[module] = (number, set(re.findall(r"`([^`]+)`", cells[2])))
    return rows


def source_imports(module):
    """{import: (file, line)} of the first place each import is made in Sources/MODULE."""
    found = {}
    base = os.path.join(ROOT, "Sources", module)
    for directory, _, files in sorted(os.walk(base)):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    match = IMPORT.match(line)
                    if match and match.group(1) not in found:
                        found[match.group(1)] = (os.path.relpath(path, ROOT), number)
    return found


def missing_files():
    """The Swift files docs/architecture.md names that are nowhere under Sources/."""
    present = {name for _, _, files in os.walk(os.path.join(ROOT, "Sources")) for name in files}
    problems = []
    with open(TABLE, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            for name in re.findall(r"([A-Za-z0-9_]+(?:\+[A-Za-z0-9_]+)?\.swift)", line):
                if name not in present and name != "Package.swift":
                    problems.append(f"{os.path.relpath(TABLE, ROOT)}:{number}: {name} is no file of Sources/")
    return problems


def main():
    rows = table_rows()
    sources = os.path.join(ROOT, "Sources")
    modules = sorted(d for d in os.listdir(sources)
                     if os.path.isdir(os.path.join(sources, d))
                     and any(f.endswith(".swift") for _, _, fs in os.walk(os.path.join(sources, d)) for f in fs))
    problems = []
    table = os.path.relpath(TABLE, ROOT)
    for module in modules:
        if module not in rows:
            problems.append(f"{table}: no row for the module {module} (Sources/{module})")
            continue
        line, allowed = rows[module]
        imports = source_imports(module)
        for name, (path, number) in sorted(imports.items()):
            if name not in allowed:
                problems.append(f"{path}:{number}: {module} imports {name}, which {table}:{line} does not list for it")
        for name in sorted(allowed - set(imports)):
            problems.append(f"{table}:{line}: {module} is listed as importing {name}, which no file of Sources/{module} does")
    for module, (line, _) in sorted(rows.items()):
        if module not in modules:
            problems.append(f"{table}:{line}: the row {module} names no module of Sources/")
    problems += missing_files()
    for problem in problems:
        print(problem)
    print(f"imports: {len(modules)} modules checked against {table}, {len(problems)} problems", file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
