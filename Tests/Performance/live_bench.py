#!/usr/bin/env python3
"""Live repositories benchmark (issue 10): change propagation, fan-out and idle cost of followed keys.

Usage: live_bench.py [--binary .build/release/rds-gateway] [--rounds 30] [--fan 10000] [--followed 100000]
                     [--only hook|stream|poll|topics|fanout|idle]

Starts a local upstream (this script, threads, 127.0.0.1) and the gateway (a configuration of its
own: repository `items` with a hook and background refresh of recent and subscribed keys), then:
  hook    1,000 SSE subscribers of one resource; the value changes at the upstream, a signed
          webhook says so; time from sending the webhook to the last subscriber seeing the new
          value, per round                                                  goal p99 < 50 ms
  stream  the same, the change announced on the upstream's own event stream  goal p99 < 50 ms
  poll    a source polled every second (`interval: 1`): change -> subscriber  goal < 1,100 ms
  topics  one subscriber of 1,000 topics sees every resource load
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
import multiprocessing
import os
import queue
import random
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
VERSION = {"n": 1, "polled": 1}
CHANGES: "queue.Queue[bytes]" = queue.Queue()


class Upstream(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/changes":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            while True:
                self.wfile.write(CHANGES.get())
                self.wfile.flush()
        name = self.path.rsplit("/", 1)[-1]
        polled = self.path.startswith("/polled/")
        body = f"{name}:v{VERSION['polled' if polled else 'n']}".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Cache-Control", "max-age=0" if polled else "max-age=3600")
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
    parser.add_argument("--only", choices=["hook", "stream", "poll", "topics", "fanout", "idle"])
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    upstream = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = free_port()
    config = {
        "server": {"host": "127.0.0.1", "port": port,
                   "limits": {"maxConnections": 30_000, "sseMaxLag": 60, "maxHeaderBytes": 65_536}},
        "cache": {"memory": {"maxBytes": 512 << 20, "maxEntries": 400_000}},
        "logging": {"level": "error"},
        "services": {"up": {"baseURL": f"http://127.0.0.1:{upstream.server_port}",
                            "changes": {"url": f"http://127.0.0.1:{upstream.server_port}/changes"}}},
        "repositories": {
            "polled": {"route": "/polled/{id}", "service": "up", "refresh": {"keys": ["subscribed"], "interval": 1}},
            "items": {
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

        if args.only in (None, "hook"):
            hook_phase(port, args.rounds)
        if args.only in (None, "stream"):
            stream_phase(port, args.rounds)
        if args.only in (None, "poll"):
            poll_phase(port)
        if args.only in (None, "topics"):
            topics_phase(port)
        if args.only in (None, "fanout"):
            fanout_phase(port, gateway.pid, args.fan)
        if args.only in (None, "idle"):
            idle_phase(port, gateway.pid, args.followed)
    finally:
        gateway.terminate()
        gateway.wait()
        upstream.shutdown()
    return 0


def hook_phase(port: int, rounds: int) -> None:
    """Webhook → last of 1,000 subscribers of one resource, per round."""
    subscribers = Subscribers(port, "/items/hot", 1000)
    subscribers.wait_for(b"hot:v1")
    lasts, all_deliveries = [], []
    for round_number in range(2, rounds + 2):
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
          f"p99 {percentile(lasts, 0.99):.1f} ms, max {max(lasts):.1f} ms over {rounds} rounds "
          f"(each delivery p99 {percentile(all_deliveries, 0.99):.1f} ms); goal p99 < 50 ms")


def stream_phase(port: int, rounds: int) -> None:
    """Upstream event stream → last of 1,000 subscribers of one resource, per round."""
    subscribers = Subscribers(port, "/items/sx", 1000)
    subscribers.wait_for(b"sx:v")
    lasts = []
    for round_number in range(100, rounds + 100):
        VERSION["n"] = round_number
        start = time.monotonic()
        CHANGES.put(f'id: {round_number}\ndata: {{"paths": ["/items/sx"]}}\n\n'.encode())
        seen = subscribers.wait_for(f"sx:v{round_number}".encode())
        assert len(seen) == 1000, len(seen)
        lasts.append((max(seen) - start) * 1000)
    subscribers.close()
    print(f"stream: upstream event -> last of 1,000 subscribers: p50 {percentile(lasts, 0.5):.1f} ms, "
          f"p99 {percentile(lasts, 0.99):.1f} ms over {rounds} rounds; goal p99 < 50 ms")


def poll_phase(port: int, rounds: int = 10) -> None:
    """A change at a source polled every second (`interval: 1`) → its subscriber."""
    subscriber = Subscribers(port, "/polled/p", 1)
    subscriber.wait_for(b"p:v1")
    delays = []
    for round_number in range(2, rounds + 2):
        time.sleep(random.random())
        VERSION["polled"] = round_number
        start = time.monotonic()
        seen = subscriber.wait_for(f"p:v{round_number}".encode(), timeout=5)
        delays.append((seen[0] - start) * 1000 if seen else float("inf"))
    subscriber.close()
    print(f"poll: change at a source polled every 1 s -> subscriber: max {max(delays):.0f} ms, "
          f"p50 {percentile(delays, 0.5):.0f} ms over {rounds} changes; goal within interval + 100 ms = 1100 ms")


def topics_phase(port: int, count: int = 1000) -> None:
    """One subscriber of `count` topics sees every one of them load."""
    topics = "&".join(f"topic=/items/t{n}" for n in range(count))
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"GET /events?{topics} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    received = b""
    while received.count(b"event: initialized") < count:
        received += sock.recv(1 << 20)
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as reader:
        reader.sendall(b"".join(f"GET /items/t{n} HTTP/1.1\r\nHost: x\r\n\r\n".encode() for n in range(count)))
        received = b""
        while received.count(b"event: loaded") < count:
            received += sock.recv(1 << 20)
    elapsed = (time.monotonic() - start) * 1000
    sock.close()
    print(f"topics: one subscriber of {count} topics saw all {count} resources load "
          f"{elapsed:.0f} ms after the first of {count} reads was sent")


def fanout_worker(port: int, count: int, connection) -> None:
    """One client process of the fan-out: `count` subscribers; reports when each saw the change."""
    subscribers = Subscribers(port, "/items/fan", count)
    connection.send(len(subscribers.wait_for(b"fan:v1", timeout=120)))
    connection.send(subscribers.wait_for(b"fan:v2", timeout=60))
    subscribers.close()


def fanout_phase(port: int, pid: int, count: int, processes: int = 4) -> None:
    """One change to `count` subscribers of one resource (read by `processes` client processes,
    so the client's own reading is not what is measured), and the RSS it costs."""
    time.sleep(1)
    before = rss_mib(pid)
    VERSION["n"] = 1
    context = multiprocessing.get_context("fork")
    pipes, workers = [], []
    for index in range(processes):
        parent, child = context.Pipe()
        share = count // processes + (1 if index < count % processes else 0)
        worker = context.Process(target=fanout_worker, args=(port, share, child))
        worker.start()
        pipes.append(parent)
        workers.append(worker)
    ready = sum(pipe.recv() for pipe in pipes)
    subscribed = rss_mib(pid)
    VERSION["n"] = 2
    start = time.monotonic()
    hook(port, "/items/fan")
    seen = [t for pipe in pipes for t in pipe.recv()]
    peak = max(subscribed, rss_mib(pid))
    for worker in workers:
        worker.join()
    latencies = [(t - start) * 1000 for t in seen]
    print(f"fanout: one change to {len(seen)}/{count} subscribers ({ready} subscribed, {processes} client processes): "
          f"p50 {percentile(latencies, 0.5):.0f} ms, p99 {percentile(latencies, 0.99):.0f} ms, "
          f"last {max(latencies):.0f} ms; RSS {before:.0f} -> {subscribed:.0f} MiB subscribed, "
          f"{peak:.0f} MiB after the change (growth {peak - before:.0f} MiB); goal p99 < 500 ms, < 100 MiB")


def idle_phase(port: int, pid: int, followed: int) -> None:
    """CPU of the gateway while `followed` keys wait for their refreshes."""
    time.sleep(1)
    with socket.create_connection(("127.0.0.1", port)) as sock:
        batch = 200
        for first in range(0, followed, batch):
            count = min(batch, followed - first)
            sock.sendall(b"".join(f"GET /items/k{first + n} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
                                  for n in range(count)))
            answers, data = 0, b""
            while answers < count:
                data += sock.recv(1 << 20)
                answers = data.count(b"HTTP/1.1 200")
    _, state = send(port, "GET", f"/admin/repositories/items/state?path=/items/k{followed - 1}")
    next_refresh = json.loads(state).get("nextRefreshAt")
    settle_start = time.monotonic()
    while time.monotonic() - settle_start < 120:
        used = cpu_seconds(pid)
        time.sleep(2)
        if cpu_seconds(pid) - used < 0.04:
            break
    settled = time.monotonic() - settle_start
    rss = rss_mib(pid)
    cpu_before = cpu_seconds(pid)
    time.sleep(10)
    cpu = cpu_seconds(pid) - cpu_before
    print(f"idle: {followed} followed keys (last one's nextRefreshAt {next_refresh}): "
          f"settled {settled:.0f} s after the reads, then gateway CPU {cpu * 1000:.0f} ms over 10 s idle "
          f"({cpu / 10 * 100:.2f} %), RSS {rss:.0f} MiB; goal ~0")


if __name__ == "__main__":
    sys.exit(main())
