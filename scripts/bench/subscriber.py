#!/usr/bin/env python3
"""A touchd client for the benchmarks: subscribes to every topic and reads until the daemon closes
the connection, then prints how many messages it got. With READY_FILE, creates that file once the
subscription is confirmed.

    python3 scripts/bench/subscriber.py SOCKET [READY_FILE]
"""
import json
import socket
import sys
import time

path = sys.argv[1]
for attempt in range(100):
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        break
    except OSError:
        sock.close()
        time.sleep(0.1)
else:
    sys.exit(f"subscriber: cannot connect to {path}")
sock.sendall(b'{"id":1,"cmd":"subscribe"}\n')
ready = sys.argv[2] if len(sys.argv) > 2 else None
count = 0
pending = b""
while True:
    chunk = sock.recv(1 << 16)
    if not chunk:
        break
    pending += chunk
    *lines, pending = pending.split(b"\n")
    count += len(lines)
    if ready and any(b'"type":"reply"' in line for line in lines):
        open(ready, "w").close()
        ready = None
print(count)
