#!/usr/bin/env python3
"""Live repositories benchmark (issue 10): change propagation, fan-out and idle cost of followed keys.

Usage: live_bench.py [--binary .build/release/rds-gateway] [--rounds 30] [--fan 10000] [--followed 100000]

Starts a local upstream (this script, threads, 127.0.0.1) and the gateway (a configuration of its
own: repository `items` with a hook and background refresh of recent and subscribed keys), then:
  hook    1,000 SSE subscribers of one resource; the value changes at the upstream, a signed
          webhook says so; time from sending the webhook to the last subscriber seeing the new
          value, per round                                                  goal p99 < 50 ms
  fanout  10,000 SSE subscribers of one resource, one change: time to each subscriber, and the
          gateway's RSS growth                                              goal p99 < 500 ms, < 100 MiB
  idle    100,000 keys read once (followed as `recent`, refreshed before expiry in an hour):
          the gateway's CPU time over 10 s of nothing                       goal ~0 (no work per key)
Prints one line per figure. Loopback only; run it under `nice`.
"""
import argparse
import hashlib
import hmac
import json
import os
import resource
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Robustness"))
from memory import free_port, rss_mib  # noqa: E402  (the memory benchmark's helpers)

SECRET = "bench-secret"
VERSION = {"n": 1}


class Upstream(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        name = self.path.rsplit("/", 1)[-1]
        body = f"{name}:v{VERSION['n']}".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Cache-Control", "max-age=3600")
        self.send_header("ETag", '"%s"' % hashlib.sha1(body).hexdigest()[:16])
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def send(port: int, method: str, path: str, headers: dict | None = None, body: bytes = b"") -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        lines = [f"{method} {path} HTTP/1.1", "Host: x", "Connection: close", f"Content-Length: {len(body)}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return int(data.split(b" ", 2)[1]), data.partition(b"\r\n\r\n")[2]


def hook(port: int, path: str) -> None:
    body = json.dumps({"action": "refresh", "paths": [path]}).encode()
    timestamp = str(int(time.time()))
    signature = hmac.new(SECRET.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    status, answer = send(port, "POST", "/hooks/items", {"X-RDS-Timestamp": timestamp,
                                                        "X-RDS-Signature": "sha256=" + signature,
                                                        "Content-Type": "application/json"}, body)
    assert status == 200, (status, answer)


class Subscribers:
    """Many SSE subscribers of one path on non-blocking sockets, read by one selector."""

    def __init__(self, port: int, path: str, count: int):
        self.selector = selectors.DefaultSelector()
        self.tails: dict[socket.socket, bytes] = {}
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.tails[sock] = b""

    def wait_for(self, marker: bytes, timeout: float = 30) -> list[float]:
        """Reads until every subscriber has seen `marker`; returns when each saw it."""
        seen: dict[socket.socket, float] = {}
        deadline = time.monotonic() + timeout
        while len(seen) < len(self.tails) and time.monotonic() < deadline:
            for key, _ in self.selector.select(timeout=0.5):
                sock = key.fileobj
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                now = time.monotonic()
                text = self.tails[sock] + data
                if sock not in seen and marker in text:
                    seen[sock] = now
                self.tails[sock] = text[-64:]
        return list(seen.values())

    def close(self):
        for sock in self.tails:
            sock.close()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/rds-gateway")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--fan", type=int, default=10_000)
    parser.add_argument("--followed", type=int, default=100_000)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    upstream = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = free_port()
    config = {
        "server": {"host": "127.0.0.1", "port": port, "limits": {"maxConnections": 30_000, "sseMaxLag": 60}},
        "cache": {"memory": {"maxBytes": 512 << 20, "maxEntries": 400_000}},
        "logging": {"level": "error"},
        "services": {"up": {"baseURL": f"http://127.0.0.1:{upstream.server_port}"}},
        "repositories": {"items": {
            "route": "/items/{id}", "service": "up",
            "refresh": {"keys": ["recent", "subscribed"], "beforeExpiry": 0.8, "recentWindow": 86400,
                        "maxKeys": 200_000},
            "hook": {"secret": {"env": "BENCH_HOOK_SECRET"}}}},
    }
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "live.json")
    with open(path, "w") as file:
        json.dump(config, file)
    gateway = subprocess.Popen([args.binary, "--config", path], env={**os.environ, "BENCH_HOOK_SECRET": SECRET},
                               stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                if send(port, "GET", "/health")[0] == 200:
                    break
            except OSError:
                time.sleep(0.05)

        # hook: webhook → last of 1,000 subscribers
        subscribers = Subscribers(port, "/items/hot", 1000)
        subscribers.wait_for(b"hot:v1")
        lasts, all_deliveries = [], []
        for round_number in range(2, args.rounds + 2):
            VERSION["n"] = round_number
            start = time.monotonic()
            hook(port, "/items/hot")
            seen = subscribers.wait_for(f"hot:v{round_number}".encode())
            assert len(seen) == 1000, len(seen)
            deliveries = [(t - start) * 1000 for t in seen]
            lasts.append(max(deliveries))
            all_deliveries += deliveries
        subscribers.close()
        print(f"hook: webhook -> last of 1,000 subscribers: p50 {percentile(lasts, 0.5):.1f} ms, "
              f"p99 {percentile(lasts, 0.99):.1f} ms, max {max(lasts):.1f} ms over {args.rounds} rounds "
              f"(each delivery p99 {percentile(all_deliveries, 0.99):.1f} ms); goal p99 < 50 ms")

        # fanout: one change to N subscribers
        time.sleep(1)
        before = rss_mib(gateway.pid)
        VERSION["n"] = 1
        fan = Subscribers(port, "/items/fan", args.fan)
        ready = fan.wait_for(b"fan:v1", timeout=120)
        subscribed = rss_mib(gateway.pid)
        VERSION["n"] = 2
        start = time.monotonic()
        hook(port, "/items/fan")
        seen = fan.wait_for(b"fan:v2", timeout=60)
        peak = max(subscribed, rss_mib(gateway.pid))
        latencies = [(t - start) * 1000 for t in seen]
        print(f"fanout: one change to {len(seen)}/{args.fan} subscribers ({len(ready)} subscribed): "
              f"p50 {percentile(latencies, 0.5):.0f} ms, p99 {percentile(latencies, 0.99):.0f} ms, "
              f"last {max(latencies):.0f} ms; RSS {before:.0f} -> {subscribed:.0f} MiB subscribed, "
              f"{peak:.0f} MiB after the change (growth {peak - before:.0f} MiB); goal p99 < 500 ms, < 100 MiB")
        fan.close()

        # idle: 100,000 followed keys cost no CPU between refreshes
        time.sleep(1)
        with socket.create_connection(("127.0.0.1", port)) as sock:
            batch = 200
            for first in range(0, args.followed, batch):
                count = min(batch, args.followed - first)
                sock.sendall(b"".join(f"GET /items/k{first + n} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
                                      for n in range(count)))
                answers, data = 0, b""
                while answers < count:
                    data += sock.recv(1 << 20)
                    answers = data.count(b"HTTP/1.1 200")
        status, state = send(port, "GET", f"/admin/repositories/items/state?path=/items/k{args.followed - 1}")
        next_refresh = json.loads(state).get("nextRefreshAt")
        time.sleep(2)
        rss = rss_mib(gateway.pid)
        cpu_before = cpu_seconds(gateway.pid)
        time.sleep(10)
        cpu = cpu_seconds(gateway.pid) - cpu_before
        print(f"idle: {args.followed} followed keys (last one's nextRefreshAt {next_refresh}): "
              f"gateway CPU {cpu * 1000:.0f} ms over 10 s idle ({cpu / 10 * 100:.2f} %), RSS {rss:.0f} MiB; goal ~0")
    finally:
        gateway.terminate()
        gateway.wait()
        upstream.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
