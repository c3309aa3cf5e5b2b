#!/usr/bin/env python3
"""Scores an `ash-memory eval` file through the command line, as an agent would use it:
each memory stored by its own `add` call (with `--context` when the file gives one), in
file order, and each question asked by `search --limit 10`. `eval` stores a file's memories
by one import; this is the check that its figures are what a user of `add` and `search`
gets (docs/judgment.md).

    python3 scripts/locomo_to_eval.py ../shared/bench/locomo-dev > /tmp/locomo-dev.jsonl
    python3 scripts/eval_through_cli.py target/release/ash-memory /tmp/locomo-dev.jsonl

Each group is stored in a home of its own under a temporary folder, two groups at a time.
Prints R@10 overall and per category (an answer stored as a memory that `add` folded into
another counts as found when that one is).
"""

import collections
import concurrent.futures
import json
import subprocess
import sys
import tempfile
from pathlib import Path


def call(binary: str, home: Path, *args: str) -> dict:
    done = subprocess.run([binary, "--home", str(home), "--user", "eval", *args, "--json"],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def score_group(binary: str, home: Path, memories: list, questions: list) -> list:
    stored = {}
    for m in memories:
        args = ["add", m["text"]]
        if m.get("context"):
            args += ["--context", m["context"]]
        stored[m["id"]] = call(binary, home, *args)["id"]
    scored = []
    for q in questions:
        hits = [h["id"] for h in call(binary, home, "search", q["question"], "--limit", "10")["hits"]]
        found = sum(stored.get(a) in hits for a in q["answers"])
        scored.append((q.get("category"), found / len(q["answers"])))
    return scored


def main() -> None:
    binary, file = sys.argv[1], sys.argv[2]
    memories, questions = collections.defaultdict(list), collections.defaultdict(list)
    for line in Path(file).read_text().splitlines():
        if line.strip():
            item = json.loads(line)
            kind = memories if item["kind"] == "memory" else questions
            kind[item.get("group", "")].append(item)
    with tempfile.TemporaryDirectory() as root, concurrent.futures.ThreadPoolExecutor(2) as pool:
        jobs = [pool.submit(score_group, binary, Path(root) / f"group-{i}", memories[g], questions[g])
                for i, g in enumerate(sorted(memories))]
        scored = [s for job in jobs for s in job.result()]
    print(f"R@10 {sum(r for _, r in scored) / len(scored):.4f} over {len(scored)} questions")
    by = collections.defaultdict(list)
    for category, r in scored:
        by[category].append(r)
    for category, rs in sorted(by.items(), key=lambda c: str(c[0])):
        print(f"  {category or '(no category)'}: {sum(rs) / len(rs):.3f} ({len(rs)})")


if __name__ == "__main__":
    main()
