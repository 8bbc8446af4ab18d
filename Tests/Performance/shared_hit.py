#!/usr/bin/env python3
"""Three gateway processes sharing one redis-server: the shared level's numbers (issue 13).

Usage: shared_hit.py --gateway .build/release/rds-gateway [--purges 1000] [--seconds 10] [--clients 200]

Starts, all on 127.0.0.1 and stopped at the end by their own pids: a counting upstream (this
script, threads; ids starting with "slow" answer after 200 ms), redis-server on a free port, and
three gateways A, B, C (memory → Redis; C's memory level holds 1 entry, so its reads are
memory misses served by Redis). Then it measures:

1. Invalidation propagation: with the key cached in memory on A, B and C, `DELETE
   /admin/repositories/items/cache?path=…` on A, then B's and C's `GET
   /admin/repositories/items/state?path=…` on keep-alive connections, as fast as they answer,
   until both say "initialized" (gone from memory). Time from sending the purge to the later of
   the two. p50 / p99 / max over --purges rounds (goal: p99 < 20 ms).
2. Hit throughput: wrk (when installed; 64 connections, --seconds, 100 keys) on A (memory hits)
   and on C (memory misses, Redis hits), and the single-connection latency of each (p50, p99).
3. Cold key × 3 replicas × --clients: all connections opened first, then every one sends
   GET /items/slow-<random> at once; how many requests reached the upstream (goal 1) and how long
   the answers took against the upstream's own time for a slow id (goal: all within it + 10 ms).
   One client thread with non-blocking sockets sends all requests, then reads the answers.
"""
import argparse
import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BODY = json.dumps({"data": "x" * 1000}).encode()
CALLS: dict[str, int] = {}
CALLS_LOCK = threading.Lock()


class Upstream(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        path = self.path.split("?")[0]
        with CALLS_LOCK:
            CALLS[path] = CALLS.get(path, 0) + 1
        if path.startswith("/items/slow"):
            time.sleep(0.2)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "max-age=600")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args):
        pass


class Client:
    """One keep-alive HTTP/1.1 connection (Content-Length framing only)."""

    def __init__(self, port: int):
        self.port = port
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def request(self, method: str, path: str) -> tuple[int, bytes]:
        self.sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._recv()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        while len(self.buffer) < length:
            self.buffer += self._recv()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return int(lines[0].split(" ")[1]), body

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
        if not data:
            raise ConnectionError("closed")
        return data


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, path: str = "/health", seconds: float = 20) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if Client(port).request("GET", path)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise SystemExit(f"nothing answered on port {port}")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summary(values: list[float]) -> str:
    return f"p50 {percentile(values, 0.5):.2f} ms, p99 {percentile(values, 0.99):.2f} ms, max {max(values):.2f} ms"


def propagation(a: int, b: int, c: int, rounds: int) -> list[float]:
    ca, cb, cc = Client(a), Client(b), Client(c)
    times = []
    for round_ in range(rounds):
        path = f"/items/p{round_ % 10}"
        for client in (ca, cb, cc):
            assert client.request("GET", path)[0] == 200
        state = f"/admin/repositories/items/state?path={path}"
        for client in (cb, cc):
            assert b'"loaded"' in client.request("GET", state)[1], "not cached before the purge"
        started = time.perf_counter()
        assert ca.request("DELETE", f"/admin/repositories/items/cache?path={path}")[0] == 200
        pending = [cb, cc]
        while pending:
            pending = [client for client in pending if b'"initialized"' not in client.request("GET", state)[1]]
        times.append((time.perf_counter() - started) * 1000)
    return times


def latency(port: int, count: int = 2000) -> list[float]:
    client = Client(port)
    times = []
    for index in range(count):
        started = time.perf_counter()
        assert client.request("GET", f"/items/{index % 100 + 1}")[0] == 200
        times.append((time.perf_counter() - started) * 1000)
    return times


def wrk(port: int, seconds: int, script: str) -> str:
    if not shutil.which("wrk"):
        return "wrk not installed"
    out = subprocess.run(
        ["wrk", "-t2", "-c64", f"-d{seconds}s", "-s", script, f"http://127.0.0.1:{port}"],
        capture_output=True, text=True, env={**os.environ, "KEYS": "100", "KEY_PREFIX": "/items/"}).stdout
    rate = next((line.split()[1] for line in out.splitlines() if line.startswith("Requests/sec")), "?")
    errors = [line.strip() for line in out.splitlines() if "Non-2xx" in line or "Socket errors" in line]
    return f"{rate} req/s" + (f" ({'; '.join(errors)})" if errors else "")


def cold_key(ports: list[int], clients: int) -> tuple[int, list[float], list[int]]:
    """One thread, non-blocking sockets: every connection is opened first, then each sends its
    request and the answers are read as they come (no client threads to schedule)."""
    key = f"/items/slow-{uuid.uuid4().hex[:8]}"
    selector = selectors.DefaultSelector()
    pending = {}
    for port in ports:
        for _ in range(clients):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            pending[sock] = b""
    request = f"GET {key} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    sent = {}
    for sock in pending:
        sock.sendall(request)
        sent[sock] = time.perf_counter()
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    times, statuses = [], []
    while pending:
        for event, _ in selector.select(timeout=10):
            sock = event.fileobj
            data = sock.recv(65536)
            buffer = pending[sock] + data
            if b"\r\n\r\n" in buffer:
                head, body = buffer.split(b"\r\n\r\n", 1)
                lines = head.decode("latin-1").split("\r\n")
                length = next((int(l.split(":", 1)[1]) for l in lines if l.lower().startswith("content-length:")), 0)
                if len(body) >= length or not data:
                    times.append((time.perf_counter() - sent[sock]) * 1000)
                    statuses.append(int(lines[0].split(" ")[1]))
                    selector.unregister(sock)
                    sock.close()
                    del pending[sock]
                    continue
            if not data:
                raise SystemExit("a gateway closed a connection before answering")
            pending[sock] = buffer
    with CALLS_LOCK:
        calls = CALLS.get(key, 0)
    return calls, times, statuses


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gateway", required=True)
    parser.add_argument("--purges", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--clients", type=int, default=200)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="rds-shared-bench-")
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    upstream.daemon_threads = True
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    redis_port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL)
    processes = [redis]
    try:
        ports = [free_port() for _ in range(3)]
        for index, port in enumerate(ports):
            config = {
                "server": {"host": "127.0.0.1", "port": port, "limits": {"maxConnections": 4096}},
                "cache": {
                    "memory": {"maxBytes": 134217728, "maxEntries": 1 if index == 2 else 100000},
                    "shared": {"redis": {"url": f"redis://127.0.0.1:{redis_port}", "prefix": "bench:"}},
                },
                "logging": {"level": "error"},
                "services": {"up": {"baseURL": f"http://127.0.0.1:{upstream.server_port}"}},
                "repositories": {"items": {"route": "/items/{id}", "service": "up"}},
            }
            path = os.path.join(folder, f"replica-{index}.json")
            with open(path, "w") as file:
                json.dump(config, file)
            processes.append(subprocess.Popen(
                [args.gateway, "--config", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for port in ports:
            wait_for(port)
            wait_for(port, "/health/ready")
        a, b, c = ports

        times = propagation(a, b, c, args.purges)
        print(f"invalidation propagation, purge on A → gone on B and C, {args.purges} purges: {summary(times)}"
              f"  (goal p99 < 20 ms)")

        for index in range(1, 101):
            Client(a).request("GET", f"/items/{index}")
        memory = latency(a)
        shared = latency(c)
        print(f"memory hit (A), one connection: {summary(memory)}")
        print(f"shared hit (C: memory miss, Redis hit), one connection: {summary(shared)}"
              f"; added p50 {percentile(shared, 0.5) - percentile(memory, 0.5):.2f} ms")
        script = os.path.join(folder, "keys.lua")
        with open(script, "w") as file:
            file.write('local n = tonumber(os.getenv("KEYS") or "100")\nlocal p = os.getenv("KEY_PREFIX") or "/items/"\n'
                       'local r = {}\nlocal i = 0\nfunction init(a) for k = 1, n do r[k] = wrk.format("GET", p .. k) end end\n'
                       'function request() i = i % n + 1 return r[i] end\n')
        print(f"wrk 64 connections {args.seconds} s, memory hits on A: {wrk(a, args.seconds, script)}")
        print(f"wrk 64 connections {args.seconds} s, shared hits on C: {wrk(c, args.seconds, script)}")

        direct = []
        for _ in range(5):
            started = time.perf_counter()
            Client(upstream.server_port).request("GET", f"/items/slow-direct-{uuid.uuid4().hex[:8]}")
            direct.append((time.perf_counter() - started) * 1000)
        upstream_time = percentile(direct, 0.5)
        calls, answer_times, statuses = cold_key(ports, args.clients)
        ok = sum(1 for s in statuses if s == 200)
        print(f"cold key, 3 replicas × {args.clients} clients: {calls} upstream call(s) (goal 1), {ok}/{len(statuses)} × 200,"
              f" answers {summary(answer_times)}; the upstream alone takes {upstream_time:.2f} ms (p50 of 5 direct calls),"
              f" so the slowest answer came {max(answer_times) - upstream_time:.2f} ms after it (goal ≤ 10 ms)")
        calls, answer_times, statuses = cold_key([a], 3 * args.clients)
        ok = sum(1 for s in statuses if s == 200)
        print(f"for comparison, the same {3 * args.clients} clients on replica A alone: {calls} upstream call(s),"
              f" {ok}/{len(statuses)} × 200, answers {summary(answer_times)}, the slowest"
              f" {max(answer_times) - upstream_time:.2f} ms after the upstream's time")
    finally:
        for process in reversed(processes):
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        upstream.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
