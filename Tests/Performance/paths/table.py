#!/usr/bin/env python3
"""table.py results.tsv: the paths-bench.sh table (medians over the rounds), one line per row and
peer, with each peer's ratio against nginx and against Varnish."""
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
    "hit-1k": "≥ 1.25× nginx req/s, ≤ 11 µs CPU, p99 ≤ nginx",
    "big-1m": "≥ 1.0× nginx MB/s, RSS flat",
    "zipf-4k": "≥ 1.0× nginx req/s, p99 ≤ nginx",
    "pass-8": "≥ 0.9× nginx req/s, added p50 ≤ 100 µs",
    "pass-64": "≥ 0.9× nginx req/s",
    "reval": "≥ 1.0× nginx req/s",
    "idle-10k": "RSS ≤ 64 MiB, p99 ≤ 5 ms",
}
PEERS = ("gateway", "gateway-idle", "nginx", "varnish")
LABELS = {"gateway-idle": "gateway (own process, 16 MB level)"}


def upstream(m):
    """Upstream requests per request (the origin's counter around the run), or – when unknown."""
    value = m["upstream_per_request"]
    return f"{value:.2f}" if value == value and value >= 0 else "–"


def ratio(value, other):
    return f"{value / other:.2f}×" if other == other and other > 0 else "–"


print("| path | peer | req/s | × nginx | × Varnish | p50 ms | p99 ms | CPU µs/req | RSS MiB (before → after) "
      "| upstream/req | errors | goal |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
origin_p50 = median("origin-8", "origin", "p50_ms")
for row in GOALS:
    nginx, varnish = median(row, "nginx", "rps"), median(row, "varnish", "rps")
    for peer in PEERS:
        if not rounds(row, peer):
            continue
        m = {c: median(row, peer, c) for c in ("rps", "p50_ms", "p99_ms", "cpu_us", "rss_before_kib", "rss_after_kib", "errors",
                                          "upstream_per_request")}
        name = row + (" (× 1 MiB)" if row == "big-1m" else "")
        p50 = f"{m['p50_ms']:.3f}"
        if row == "pass-8" and origin_p50 == origin_p50:
            p50 += f" (adds {1000 * (m['p50_ms'] - origin_p50):.0f} µs)"
        own = f"**{ratio(m['rps'], nginx)}**" if peer.startswith("gateway") else ratio(m["rps"], nginx)
        print(f"| {name} | {LABELS.get(peer, peer)} | {m['rps']:,.0f} | {own if peer != 'nginx' else ''} "
              f"| {ratio(m['rps'], varnish) if peer != 'varnish' else ''} | {p50} | {m['p99_ms']:.2f} | {m['cpu_us']:.1f} "
              f"| {m['rss_before_kib'] / 1024:.0f} → {m['rss_after_kib'] / 1024:.0f} | {upstream(m)} | {m['errors']:.0f} "
              f"| {GOALS[row] if peer.startswith('gateway') else ''} |")
if origin_p50 == origin_p50:
    print(f"\npass-8: the origin alone answers in p50 {origin_p50:.3f} ms; \"adds\" is each proxy's p50 minus that.")
for peer in PEERS:
    for log in sorted(glob.glob(os.path.join(os.path.dirname(sys.argv[1]), f"idle-{peer}-[0-9]*.log")))[-1:]:
        held = open(log).read().split()
        print(f"\nidle connections, {LABELS.get(peer, peer)} (last round): " + " ".join(held))
resident = {peer: [r["resident_pct"] for r in rows if r["row"] == "zipf-4k" and r["peer"] == peer and r.get("resident_pct")]
            for peer in PEERS}
if any(resident.values()):
    print("\nzipf-4k: the share of each peer's cache files in the page cache before each round's run "
          "(the rest is read from the disk): " + "; ".join(f"{peer} {', '.join(v)} %" for peer, v in resident.items() if v))
idle = [float(r["idle_pct"]) for r in rows if r["idle_pct"]]
print(f"\nrounds: {max(rounds(r['row'], r['peer']) for r in rows)}; machine idle during the measured runs: median "
      f"{statistics.median(idle):.0f} % (min {min(idle):.0f} %) of both cores, wrk and the servers included")
