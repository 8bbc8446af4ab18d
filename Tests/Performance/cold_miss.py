#!/usr/bin/env python3
"""Median latency a cold miss through the gateway adds to the upstream's own latency.

Usage: cold_miss.py [--gateway http://127.0.0.1:8080] [--upstream http://127.0.0.1:9100] [--keys 200]

For each of KEYS distinct, never-requested ids (prefixed with a random run id) it times, in turn,
  1. GET /items/<id>-direct straight from the upstream, and
  2. GET /items/<id> through the gateway (a cold key: the gateway must call the upstream),
each on its own keep-alive connection opened beforehand, with one small raw-socket client that sets
TCP_NODELAY and re-arms TCP_QUICKACK after every read (so neither side waits on a delayed ACK: the
upstream writes head and body separately, Nagle on). The added latency of a key is (2) - (1);
the script prints the median, p90 and p99 of both times and of the difference, and checks that every
answer is a 200 and that the gateway's answer says it missed the cache.
Also times the gateway's first miss of the run separately when --fresh-gateway is given (its upstream
connection pool is empty then, so that miss includes the connect).
"""
import argparse
import socket
import statistics
import time
import uuid
from urllib.parse import urlsplit


class Client:
    """One keep-alive HTTP/1.1 connection; reads Content-Length framed answers only."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.sock = socket.create_connection((self.host, self.port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
        if not data:
            raise ConnectionError(f"{self.host}:{self.port} closed the connection")
        return data

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        request = f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n\r\n".encode()
        self.sock.sendall(request)
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._recv()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self.buffer += self._recv()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, headers, body


def timed(client: Client, path: str) -> tuple[float, int, dict[str, str]]:
    started = time.perf_counter()
    status, headers, _ = client.get(path)
    return (time.perf_counter() - started) * 1000, status, headers


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gateway", default="http://127.0.0.1:8080")
    parser.add_argument("--upstream", default="http://127.0.0.1:9100")
    parser.add_argument("--keys", type=int, default=200)
    parser.add_argument("--fresh-gateway", action="store_true",
                        help="the gateway was just started: report its first miss (with the connect) apart")
    args = parser.parse_args()

    run = uuid.uuid4().hex[:8]
    gateway, upstream = Client(args.gateway), Client(args.upstream)
    if args.fresh_gateway:
        first, status, _ = timed(gateway, f"/items/cm-{run}-first")
        print(f"first miss of a fresh gateway (connects upstream): {first:.2f} ms (status {status})")
    else:
        timed(gateway, f"/items/cm-{run}-warm")  # the pool holds a connection from now on
    timed(upstream, f"/items/cm-{run}-warm-direct")

    direct, through, added, failures = [], [], [], 0
    for index in range(args.keys):
        key = f"/items/cm-{run}-{index}"
        direct_ms, direct_status, _ = timed(upstream, key + "-direct")
        gateway_ms, gateway_status, headers = timed(gateway, key)
        missed = "miss" in headers.get("x-cache", "").lower() or "fwd=miss" in headers.get("cache-status", "")
        if direct_status != 200 or gateway_status != 200 or not missed:
            failures += 1
            continue
        direct.append(direct_ms)
        through.append(gateway_ms)
        added.append(gateway_ms - direct_ms)

    for name, values in (("upstream direct", direct), ("gateway cold miss", through), ("added by gateway", added)):
        if values:
            print(f"{name:>18}: median {statistics.median(values):7.3f} ms  p90 {percentile(values, 0.9):7.3f} ms"
                  f"  p99 {percentile(values, 0.99):7.3f} ms  max {max(values):7.3f} ms")
    print(f"keys: {len(added)} measured, {failures} failed (not 200 or not a miss)")
    if not added:
        return 1
    median = statistics.median(added)
    print(f"cold-miss median added latency: {median:.3f} ms ({'under' if median < 1 else 'NOT under'} 1 ms)")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
