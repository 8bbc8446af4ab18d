#!/usr/bin/env python3
"""make_docroot.py DIR: the origin's bodies for nginx-origin.conf, JSON of exactly 1 KiB, 4 KiB and 1 MiB."""
import json
import sys

for name, size in (("1k.json", 1024), ("4k.json", 4096), ("1m.json", 1 << 20)):
    doc = {"id": name, "description": ""}
    doc["description"] = "x" * (size - len(json.dumps(doc, separators=(",", ":"))))
    with open(f"{sys.argv[1]}/{name}", "w") as out:
        out.write(json.dumps(doc, separators=(",", ":")))
