#!/usr/bin/env python3
"""refcounts.py PROFILE REQUESTS — reference-counting calls per request in a callgrind profile.

Prints retains+releases per request (swift_retain/release, their _n forms, bridgeObject and
unknownObject variants, recursion copies such as swift_release'2) and allocations per request
(malloc: Swift objects, arrays and strings alike): how many objects a path touches and
makes. Each retain or release is an atomic read-modify-write, yet a build with non-atomic
reference counting (`-assume-single-threaded`, one event loop, 2026-11-28) spent the same CPU per
pass-through and per hit within the noise: read the count as object traffic, not as time.
"""
import re
import sys

COUNTED = re.compile(r"^swift_(?:nonatomic_)?(?:unknownObject|bridgeObject)?(?:Retain|Release|retain|release)(?:_n)?$")
ALLOC = re.compile(r"^malloc$")


def base_name(name):
    """`file:function [object]` or `function'2` → `function`."""
    function = name.split(" [")[0].split(":")[-1]
    return re.sub(r"'\d+$", "", function)


def main(path, requests):
    names, current, refcounts, allocations = {}, None, 0, 0
    with open(path, errors="replace") as profile:
        for line in profile:
            match = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
            if match:
                kind, ident, name = match.groups()
                if name:
                    names[ident] = base_name(name.strip())
                if kind == "cfn":
                    current = names.get(ident, "")
                continue
            match = re.match(r"calls=(\d+)", line)
            if match and current:
                if COUNTED.match(current):
                    refcounts += int(match.group(1))
                elif ALLOC.match(current):
                    allocations += int(match.group(1))
    print(f"{refcounts / requests:.0f} {allocations / requests:.1f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
