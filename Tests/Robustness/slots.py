#!/usr/bin/env python3
"""Connection slots under abuse: does /health keep answering?

Starts the built gateway (release if built, else debug; or --binary) with Config/gateway.json on a
free loopback port, then for each case holds many connections open while a poller opens a new
connection for `GET /health` every 10 ms and measures its latency (connect to last byte). The
connections are opened and held by a second process, so the poller never waits on them:

  baseline     nothing held: the machine's own noise (other processes, scheduling)
  idle         2,000 connections that send nothing
  sse          1,030 Server-Sent Events streams (`/weather/london`, Accept: text/event-stream)
  slow-header  1,500 clients sending a request head one header line per second

Each case runs twice: with the default connection limit (derived from the open-files limit) and
with `maxConnections: 1024`, where the gateway must make room (close the longest-idle connection)
or answer /health from its reserve. Prints max and p99 latency per case beside the goal (50 ms),
and how many of the held connections were still open at the end.

Usage: nice -n 19 python3 Tests/Robustness/slots.py [--binary PATH] [--hold SECONDS]
Loopback only. Needs an open-files limit above ~3,600 (raised to the hard limit here).
"""

import argparse
import json
import multiprocessing
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time

GOAL_MS = 50.0
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def health_latency(port, timeout=5.0):
    """Milliseconds for one `GET /health` on a new connection, or None when it failed."""
    start = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            data = b""
            while b'"status":"ok"' not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
        if b" 200 " not in data.split(b"\r\n", 1)[0]:
            return None
    except OSError:
        return None
    return (time.perf_counter() - start) * 1000


class Poller(threading.Thread):
    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.samples = []
        self.failures = 0
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            latency = health_latency(self.port)
            if latency is None:
                self.failures += 1
            else:
                self.samples.append(latency)
            time.sleep(0.01)


def open_many(port, count, first_bytes):
    held = []
    for _ in range(count):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            if first_bytes:
                s.sendall(first_bytes)
            held.append(s)
        except OSError:
            pass
    return held


def still_open(sockets):
    """How many of `sockets` the server has not closed (a non-blocking peek sees no EOF)."""
    alive = 0
    for s in sockets:
        s.setblocking(False)
        try:
            data = s.recv(65536, socket.MSG_PEEK)
            alive += 1 if data else 0
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
    return alive


CASES = [
    ("baseline", 0, b"", None),
    ("idle", 2000, b"", None),
    ("sse", 1030, b"GET /weather/london HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n", None),
    ("slow-header", 1500, b"GET /weather/london HTTP/1.1\r\nHost: x\r\n", b"X-Slow: 1\r\n"),
]


def hold(port, count, first_bytes, trickle, stop, results):
    """In a process of its own (so the poller never waits for this one's interpreter lock):
    opens the connections, trickles, and reports how many were opened and are still open."""
    held = open_many(port, count, first_bytes)
    while not stop.wait(1):
        if trickle:
            for s in held:
                try:
                    s.sendall(trickle)
                except OSError:
                    pass
    results.put((len(held), still_open(held)))
    for s in held:
        s.close()


def run_case(port, name, count, first_bytes, trickle, hold_seconds):
    poller = Poller(port)
    poller.start()
    stop = multiprocessing.Event()
    results = multiprocessing.Queue()
    holder = multiprocessing.Process(target=hold, args=(port, count, first_bytes, trickle, stop, results))
    holder.start()
    time.sleep(hold_seconds)
    stop.set()
    opened, alive = results.get()
    holder.join()
    poller.stop.set()
    poller.join()
    samples = sorted(poller.samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))] if samples else float("nan")
    worst = samples[-1] if samples else float("nan")
    return {
        "case": name, "held": count, "opened": opened, "open_at_end": alive, "polls": len(samples),
        "failed": poller.failures, "max_ms": worst, "p99_ms": p99,
        "over_goal": sum(1 for sample in samples if sample > GOAL_MS),
    }


def start_gateway(binary, config_path, port):
    env = dict(os.environ, RDS_LOG_LEVEL="warning", RDS_CACHE_DIR=tempfile.mkdtemp(prefix="rds-slots-"))
    process = subprocess.Popen(
        [binary, "--config", config_path, "--port", str(port)], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        if health_latency(port, timeout=0.5) is not None:
            return process
        time.sleep(0.05)
    process.kill()
    sys.exit("the gateway did not answer /health")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary")
    parser.add_argument("--hold", type=float, default=6.0, help="seconds each case runs (opening, then holding)")
    args = parser.parse_args()
    binary = args.binary or next(
        (p for p in (os.path.join(ROOT, ".build", c, "rds-gateway") for c in ("release", "debug")) if os.path.exists(p)),
        None)
    if not binary:
        sys.exit("build the gateway first (swift build -c release)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    with open(os.path.join(ROOT, "Config", "gateway.json")) as f:
        base = json.load(f)
    capped = json.loads(json.dumps(base))
    capped["server"]["limits"]["maxConnections"] = 1024
    folder = tempfile.mkdtemp(prefix="rds-slots-config-")
    configs = []
    for label, config in (("default limit", base), ("maxConnections 1024", capped)):
        path = os.path.join(folder, label.replace(" ", "-") + ".json")
        with open(path, "w") as f:
            json.dump(config, f)
        configs.append((label, path))

    print(f"binary: {os.path.relpath(binary, ROOT)}; open-files limit {hard}; goal: /health within {GOAL_MS:.0f} ms; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'limit':<20} {'case':<12} {'held':>5} {'open@end':>8} {'polls':>5} {'failed':>6} "
          f"{'max ms':>8} {'p99 ms':>8} {'>50ms':>5}  goal")
    ok = True
    for label, path in configs:
        port = free_port()
        gateway = start_gateway(binary, path, port)
        try:
            for name, count, first_bytes, trickle in CASES:
                r = run_case(port, name, count, first_bytes, trickle, args.hold)
                met = r["failed"] == 0 and r["max_ms"] <= GOAL_MS
                ok = ok and met
                print(f"{label:<20} {r['case']:<12} {r['held']:>5} {r['open_at_end']:>8} {r['polls']:>5} "
                      f"{r['failed']:>6} {r['max_ms']:>8.1f} {r['p99_ms']:>8.1f} {r['over_goal']:>5}  "
                      f"{'met' if met else 'MISSED'}",
                      flush=True)
                time.sleep(1)
        finally:
            gateway.terminate()
            gateway.wait(timeout=30)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
