#!/usr/bin/env python3
"""seqclient.py BASE PREFIX COUNT [KEYS=100] [FIRST=1]: COUNT sequential keep-alive GETs of
PREFIX<FIRST>..PREFIX<FIRST+KEYS-1> (Content-Length framed answers only); prints the count of each
status, then the last head."""
import socket, sys
from urllib.parse import urlsplit
base, prefix, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
keys = int(sys.argv[4]) if len(sys.argv) > 4 else 100
first = int(sys.argv[5]) if len(sys.argv) > 5 else 1
u = urlsplit(base)
s = socket.create_connection((u.hostname, u.port))
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
buf = b""
statuses = {}
for i in range(count):
    s.sendall(f"GET {prefix}{i % keys + first} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    while b"\r\n\r\n" not in buf:
        buf += s.recv(1 << 20)
    head, buf = buf.split(b"\r\n\r\n", 1)
    lines = head.split(b"\r\n")
    st = lines[0].split(b" ")[1]
    length = 0
    for l in lines[1:]:
        if l.lower().startswith(b"content-length:"):
            length = int(l.split(b":")[1])
    while len(buf) < length:
        buf += s.recv(1 << 20)
    buf = buf[length:]
    statuses[st] = statuses.get(st, 0) + 1
print(statuses)
print(head.decode() if count else "")
