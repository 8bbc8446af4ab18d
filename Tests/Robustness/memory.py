#!/usr/bin/env python3
"""Peak resident memory of a built gateway under three memory stresses, each beside its goal.

Usage: memory.py [--binary .build/release/rds-gateway] [--budget-mib 256] [--only slow|miss|sse]
                 [--legacy-config]   (for a gateway without cache.inFlightBodyBytes, to measure "before")

Starts a local upstream (this script, threads, 127.0.0.1) and the gateway (memory cache only, a
configuration of its own), then runs, sampling the gateway's VmRSS from /proc every 20 ms:
  slow  200 slow readers of one cached 12 MB object (each reads 4 KiB a second)   goal < 150 MiB
  miss  100 concurrent misses of distinct 16 MB objects, read at full speed      goal < budget + 64 MiB
  sse   1,000 Server-Sent Events subscribers of a 1 MB resource that never read,
        during 100 forced refreshes (each a new 1 MB value)                     goal < 150 MiB
Prints one line per figure: peak RSS, RSS at the end, goal, and what the clients saw.
Loopback only. Run it under `nice`; it takes about a minute.
"""
import argparse
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MIB = 1 << 20
BIG = b"x" * (12 * 1_000_000)
HUGE = b"y" * (16 * 1_000_000)
VERSION = {"n": 0}
VERSION_LOCK = threading.Lock()


class Upstream(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/big/"):
            body, age = BIG, 3600
        elif self.path.startswith("/huge/"):
            body, age = HUGE, 3600
        elif self.path.startswith("/live/"):
            with VERSION_LOCK:
                VERSION["n"] += 1
                n = VERSION["n"]
            body, age = (b"%08d" % n) + b"z" * (MIB - 8), 3600
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Cache-Control", f"max-age={age}")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        view = memoryview(body)
        for start in range(0, len(body), 1 << 20):
            self.wfile.write(view[start:start + (1 << 20)])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_mib(pid: int) -> float:
    """VmRSS of a live process; OSError once it is gone."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise ProcessLookupError(pid)


def current_rss(pid: int) -> float:
    """VmRSS, or NaN once the process is gone."""
    try:
        return rss_mib(pid)
    except OSError:
        return float("nan")


RSS_CAP_MIB = 4096


class Sampler:
    """Samples a process's RSS every 20 ms until stopped; keeps the peak. A process past
    RSS_CAP_MIB is killed (an unbounded gateway must not take the machine down with it)."""

    def __init__(self, pid: int):
        self.pid, self.peak, self.running = pid, 0.0, True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while self.running:
            try:
                self.peak = max(self.peak, rss_mib(self.pid))
            except OSError:
                return
            if self.peak > RSS_CAP_MIB:
                os.kill(self.pid, 9)
                return
            time.sleep(0.02)

    def stop(self) -> float:
        self.running = False
        self.thread.join()
        try:
            return max(self.peak, rss_mib(self.pid))
        except OSError:
            return self.peak


def request(port: int, path: str, headers: str = "", method: str = "GET") -> tuple[int, dict, int]:
    """One request on a new connection; reads the whole answer at full speed and returns the
    status, the header fields and the body's size (the bytes are not kept)."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{headers}\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(65536)
            if not chunk:
                break
            head += chunk
        head, _, body = head.partition(b"\r\n\r\n")
        buffer = bytearray(1 << 20)
        size = len(body)
        while True:
            count = sock.recv_into(buffer)
            if not count:
                break
            size += count
    lines = head.decode("latin-1").split("\r\n")
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    return int(lines[0].split(" ")[1]), fields, size


def open_request(port: int, path: str, headers: str = "") -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n{headers}\r\n".encode())
    return sock


def slow_readers(port: int, pid: int) -> tuple[float, float, str]:
    status, _, size = request(port, "/big/one")
    assert status == 200 and size == len(BIG), (status, size)
    sampler = Sampler(pid)
    readers = [open_request(port, "/big/one") for _ in range(200)]
    received = 0
    for _ in range(5):
        for sock in readers:
            sock.setblocking(False)
            try:
                received += len(sock.recv(4096))
            except BlockingIOError:
                pass
        time.sleep(1)
    peak = sampler.stop()
    end = current_rss(pid)
    for sock in readers:
        sock.close()
    return peak, end, f"200 readers took {received // 1024} KiB in 5 s"


def misses(port: int, pid: int) -> tuple[float, float, str]:
    sampler = Sampler(pid)
    outcomes = []
    lock = threading.Lock()

    def miss(index: int):
        try:
            status, fields, size = request(port, f"/huge/{index}")
            outcome = (status, size, fields.get("retry-after"))
        except OSError as error:
            outcome = ("error", str(error), None)
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=miss, args=(index,)) for index in range(100)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    peak = sampler.stop()
    time.sleep(1)
    end = current_rss(pid)
    ok = sum(1 for o in outcomes if o[0] == 200 and o[1] == len(HUGE))
    busy = sum(1 for o in outcomes if o[0] == 503 and o[2])
    others = sorted({str(o[0]) for o in outcomes if not (o[0] == 200 and o[1] == len(HUGE)) and not (o[0] == 503 and o[2])})
    other = len(outcomes) - ok - busy
    return peak, end, f"{ok} x 200 (whole body), {busy} x 503 with Retry-After, {other} other {' '.join(others)}"


def subscribers(port: int, pid: int) -> tuple[float, float, str]:
    status, _, _ = request(port, "/live/one")
    assert status == 200, status
    sampler = Sampler(pid)
    streams = [open_request(port, "/live/one", "Accept: text/event-stream\r\n") for _ in range(1000)]
    refreshed = 0
    for _ in range(100):
        status, _, _ = request(port, "/admin/repositories/live/refresh?path=/live/one", method="POST")
        refreshed += status == 200
    time.sleep(1)
    peak = sampler.stop()
    end = current_rss(pid)
    alive = 0
    for sock in streams:
        sock.setblocking(False)
        try:
            alive += sock.recv(1) != b""
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
        sock.close()
    return peak, end, f"{refreshed}/100 refreshes answered 200, {alive}/1000 streams still open"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/rds-gateway")
    parser.add_argument("--budget-mib", type=int, default=256)
    parser.add_argument("--only", choices=["slow", "miss", "sse"])
    parser.add_argument("--legacy-config", action="store_true", help="omit cache.inFlightBodyBytes (older gateways)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))

    ThreadingHTTPServer.request_queue_size = 1024
    upstream = ThreadingHTTPServer(("127.0.0.1", free_port()), Upstream)
    upstream.daemon_threads = True
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = free_port()
    base = f"http://127.0.0.1:{upstream.server_address[1]}"
    repository = {"service": "up", "methods": ["GET", "HEAD"], "minTTL": 3600, "defaultTTL": 3600}
    config = {
        "server": {"host": "127.0.0.1", "port": port,
                   "limits": {"maxConnections": 4096, "maxHeaderBytes": 16384, "maxBodyBytes": 1048576}},
        "cache": {"memory": {"maxBytes": 64 * MIB, "maxEntries": 10000},
                  "inFlightBodyBytes": args.budget_mib * MIB},
        "logging": {"level": "error"},
        "services": {"up": {"baseURL": base, "timeouts": {"connect": 2, "firstByte": 30, "total": 60}}},
        "repositories": {
            "big": dict(repository, route="/big/{id}", upstreamPath="/big/{id}"),
            "huge": dict(repository, route="/huge/{id}", upstreamPath="/huge/{id}"),
            "live": dict(repository, route="/live/{id}", upstreamPath="/live/{id}"),
        },
    }
    if args.legacy_config:
        del config["cache"]["inFlightBodyBytes"]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(config, file)
    gateway = subprocess.Popen([args.binary, "--config", file.name], stdout=subprocess.DEVNULL)
    try:
        for _ in range(500):
            try:
                if request(port, "/health")[0] == 200:
                    break
            except OSError:
                time.sleep(0.02)
        print(f"gateway idle: {rss_mib(gateway.pid):.0f} MiB RSS")
        runs = [
            ("slow", "200 slow readers, cached 12 MB", slow_readers, 150),
            ("miss", "100 concurrent 16 MB misses", misses, args.budget_mib + 64),
            ("sse", "1,000 idle SSE subscribers, 100 refreshes of 1 MB", subscribers, 150),
        ]
        for name, title, run, goal in runs:
            if args.only and args.only != name:
                continue
            try:
                peak, end, note = run(port, gateway.pid)
            except (OSError, AssertionError) as error:
                print(f"{title:<52} gateway gone (killed past {RSS_CAP_MIB} MiB, or crashed): {error!r}")
                break
            verdict = "ok" if peak < goal and gateway.poll() is None else "OVER GOAL"
            print(f"{title:<52} peak {peak:6.0f} MiB  end {end:6.0f} MiB  goal < {goal} MiB  {verdict}  ({note})")
            sys.stdout.flush()
        print("gateway " + ("still running" if gateway.poll() is None else f"exited with {gateway.returncode}"))
    finally:
        gateway.terminate()
        gateway.wait(timeout=15)
        os.unlink(file.name)
        upstream.shutdown()


if __name__ == "__main__":
    main()
