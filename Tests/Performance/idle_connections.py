#!/usr/bin/env python3
"""Hold N idle keep-alive connections to a server and report its resident memory.

usage: idle_connections.py PID[,PID...] [PORT=8080] [N=10000] [HOLD_SECONDS=5] [PATH=/items/1]

Opens N connections to 127.0.0.1:PORT, sends one GET PATH on each and reads its answer (so every
connection has been served and sits idle in keep-alive), then reads VmRSS of the PIDs (summed:
a server's process tree) before and after, holds them HOLD_SECONDS, and closes them. Bounded:
every socket has a 10 s timeout.
"""
import resource
import selectors
import socket
import sys
import time


def rss_kib(pids):
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def server_keeps_open(client):
    """True when the server has not closed this connection (a peek finds nothing to read)."""
    try:
        return client.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def main():
    pid = [int(p) for p in sys.argv[1].split(",")]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 8080
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    hold = float(sys.argv[4]) if len(sys.argv) > 4 else 5.0
    path = sys.argv[5] if len(sys.argv) > 5 else "/items/1"
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 1024), hard))

    before = rss_kib(pid)
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    selector = selectors.DefaultSelector()
    sockets = []
    started = time.monotonic()
    for _ in range(count):
        client = socket.create_connection(("127.0.0.1", port), timeout=10)
        client.sendall(request)
        client.setblocking(False)
        selector.register(client, selectors.EVENT_READ, bytearray())
        sockets.append(client)
    answered = 0
    deadline = time.monotonic() + 30
    while answered < count and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=1):
            buffer = key.data
            chunk = key.fileobj.recv(65536)
            if not chunk:
                selector.unregister(key.fileobj)
                continue
            buffer.extend(chunk)
            head_end = buffer.find(b"\r\n\r\n")
            if head_end >= 0:
                head = bytes(buffer[:head_end]).lower()
                length = int(head.split(b"content-length:")[1].split(b"\r\n")[0]) if b"content-length:" in head else 0
                if len(buffer) >= head_end + 4 + length:
                    selector.unregister(key.fileobj)
                    answered += 1
    setup = time.monotonic() - started
    time.sleep(1)
    held = rss_kib(pid)
    time.sleep(max(0.0, hold - 1))
    still_open = sum(1 for client in sockets if server_keeps_open(client))
    for client in sockets:
        client.close()
    time.sleep(1)
    after = rss_kib(pid)
    print(f"connections={count} answered={answered} setup_s={setup:.1f} kept_open_by_server={still_open}")
    print(f"server_rss_kib before={before} holding={held} after_close={after} "
          f"holding_mib={held / 1024:.1f} per_connection_bytes={(held - before) * 1024 / max(count, 1):.0f}")


if __name__ == "__main__":
    main()
