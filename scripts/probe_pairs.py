#!/usr/bin/env python3
"""Put labelled pairs of facts through the CLI, as a user would tell them.

usage: probe_pairs.py BINARY PAIRS.tsv [--show]

PAIRS.tsv is a judgment set (eval/judgment/*.tsv: label, who, old fact, new fact). Each
pair gets a home of its own: the old fact is added on Wednesday 4 March 2026 at 10:00 and
the new an hour later; what is live is listed then and a month on. Each pair's outcome is
"<an hour on>/<a month on>": both, same (the new was told again) or replaced, then which of
them is live a month on (old, new, both or none). Prints a tally of outcomes per label;
--show prints each pair's too.
"""
import collections
import json
import subprocess
import sys
import tempfile

BIN, TSV = sys.argv[1], sys.argv[2]
SHOW = "--show" in sys.argv
TOLD = "2026-03-04T10:00:00Z"
HOUR_ON = "2026-03-04T11:00:00Z"
MONTH_ON = "2026-04-03T11:00:00Z"


def run(home, now, *args):
    out = subprocess.run([BIN, "--home", home, "--now", now, "--json", *args], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout) if out.stdout.strip() else None


def live(home, now):
    return {m["id"] for m in run(home, now, "list")}


tally = collections.defaultdict(collections.Counter)
for line in open(TSV, encoding="utf-8"):
    if not line.strip() or line.startswith("#"):
        continue
    label, _who, old, new = line.rstrip("\n").split("\t")
    with tempfile.TemporaryDirectory() as home:
        old_id = run(home, TOLD, "add", old)["id"]
        added = run(home, HOUR_ON, "add", new)
        first, later = live(home, HOUR_ON), live(home, MONTH_ON)
    # Judged by what the add answered and what is live by id, not by the words stored.
    if added["restated"]:
        judged = "same"
    else:
        judged = "both" if old_id in first else "replaced"
    new_id = None if added["restated"] else added["id"]
    old_later, new_later = old_id in later, new_id in later
    if old_later and new_later:
        kept = "both"
    elif old_later or new_later:
        kept = "old" if old_later else "new"
    else:
        kept = "none"
    outcome = f"{judged}/{kept}"
    tally[label][outcome] += 1
    if SHOW:
        print(f"{label}\t{outcome}\t{old}\t{new}", flush=True)
for label, counts in sorted(tally.items()):
    print(label, sum(counts.values()), dict(counts.most_common()))
