#!/usr/bin/env python3
"""Writes a layout with N views for the benchmarks: a 1280x800 window whose grid holds N - 1 tiles,
each with a touches_ended handler, and a [[device]] entry that takes every touchscreen.

    python3 scripts/bench/make-layout.py 1000 > /tmp/views.toml
"""
import math
import sys

count = int(sys.argv[1])
tiles = count - 1
columns = math.ceil(math.sqrt(tiles * 1280 / 800))
rows = math.ceil(tiles / columns)
w, h = 1280 / columns, 800 / rows
print('[[window]]\nid = "main"\nsize = [1280, 800]\n')
print('[[view]]\nid = "grid"\nparent = "main"\nframe = [0, 0, 1280, 800]\n')
for n in range(tiles):
    x, y = (n % columns) * w, (n // columns) * h
    print(f'[[view]]\nid = "tile{n}"\nparent = "grid"\nframe = [{x:.3f}, {y:.3f}, {w:.3f}, {h:.3f}]\n')
    print(f'[[handler]]\nresponder = "tile{n}"\non = "touches_ended"\naction = "tile"\npayload = {{ tile = {n} }}\n')
print('[[device]]\nmatch.kind = "touchscreen"\nwindow = "main"\n')
