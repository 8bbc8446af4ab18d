#!/usr/bin/env python3
"""table.py results.tsv: the paths-bench.sh table (medians over the rounds), gateway beside nginx."""
import csv
import glob
import os
import statistics
import sys

rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))


def median(row, peer, column):
    values = [float(r[column]) for r in rows if r["row"] == row and r["peer"] == peer and r[column] not in ("", None)]
    return statistics.median(values) if values else float("nan")


def rounds(row, peer):
    return sum(1 for r in rows if r["row"] == row and r["peer"] == peer)


GOALS = {
    "hit-1k": "≥ 1.25× req/s, ≤ 11 µs CPU, p99 ≤ nginx",
    "big-1m": "≥ 1.0× MB/s, RSS flat",
    "zipf-4k": "≥ 1.0× req/s, p99 ≤ nginx",
    "pass-8": "≥ 0.9× req/s, added p50 ≤ 100 µs",
    "pass-64": "≥ 0.9× req/s",
    "reval": "≥ 1.0× req/s",
    "idle-10k": "RSS ≤ 64 MiB, p99 ≤ 5 ms",
}
print("| path | gateway req/s | nginx req/s | ratio | p50 ms gw / nginx | p99 ms gw / nginx "
      "| CPU µs/req gw / nginx | RSS MiB gw / nginx (before → after) | errors gw / nginx | goal |")
print("|---|---|---|---|---|---|---|---|---|---|")
origin_p50 = median("origin-8", "origin", "p50_ms")
for row in GOALS:
    if not rounds(row, "gateway"):
        continue
    g = {c: median(row, "gateway", c) for c in ("rps", "p50_ms", "p99_ms", "cpu_us", "rss_before_kib", "rss_after_kib", "errors")}
    n = {c: median(row, "nginx", c) for c in g}
    unit = ""
    if row == "big-1m":  # throughput: 1 MiB per answer
        g["rps"], n["rps"], unit = g["rps"], n["rps"], " (× 1 MiB)"
    p50 = f"{g['p50_ms']:.3f} / {n['p50_ms']:.3f}"
    if row == "pass-8" and origin_p50 == origin_p50:
        p50 += f" (origin alone {origin_p50:.3f}: adds {1000 * (g['p50_ms'] - origin_p50):.0f} / {1000 * (n['p50_ms'] - origin_p50):.0f} µs)"
    print(f"| {row}{unit} | {g['rps']:,.0f} | {n['rps']:,.0f} | **{g['rps'] / n['rps']:.2f}×** | {p50} "
          f"| {g['p99_ms']:.2f} / {n['p99_ms']:.2f} | {g['cpu_us']:.1f} / {n['cpu_us']:.1f} "
          f"| {g['rss_before_kib'] / 1024:.0f} → {g['rss_after_kib'] / 1024:.0f} / {n['rss_before_kib'] / 1024:.0f} → {n['rss_after_kib'] / 1024:.0f} "
          f"| {g['errors']:.0f} / {n['errors']:.0f} | {GOALS[row]} |")
for peer in ("gateway", "nginx"):
    for log in sorted(glob.glob(os.path.join(os.path.dirname(sys.argv[1]), f"idle-{peer}-*.log")))[-1:]:
        held = open(log).read().split()
        print(f"\nidle connections, {peer} (last round): " + " ".join(held))
idle = [float(r["idle_pct"]) for r in rows if r["idle_pct"]]
print(f"\nrounds: {max(rounds(r, 'gateway') for r in GOALS)}; machine idle during the measured runs: median "
      f"{statistics.median(idle):.0f} % (min {min(idle):.0f} %) of both cores, wrk and the servers included")
