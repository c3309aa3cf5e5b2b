#!/usr/bin/env python3
"""Scores an `ash-memory eval` file through the command line, as an agent would use it:
each memory stored by its own `add` call (with `--context` when the file gives one), in
file order, and each question asked by `search --limit 10`. `eval` stores a file's memories
by one import; this is the check that its figures are what a user of `add` and `search`
gets (docs/performance.md#retrieval-quality).

    python3 scripts/locomo_to_eval.py ../shared/bench/locomo-dev > /tmp/locomo-dev.jsonl
    python3 scripts/eval_through_cli.py target/release/ash-memory /tmp/locomo-dev.jsonl

Each group is stored in a home of its own under a temporary folder, two groups at a time.
Prints R@10 overall and per category, averaged over questions as `eval` does. A memory
`add` refuses (a secret, say) is counted and answers nothing; an answer that `add` folded
into an earlier memory counts as found when that one is.
"""

import collections
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

# The caller's own settings would change what is measured: a fixed clock, a chat scope.
CLEARED = ("ASH_NOW", "ASH_CHAT_ID", "ASH_USER_ID", "ASH_HOME", "ASH_COMPONENT")


class Refused(Exception):
    """The CLI exited with an error; the message holds what it said."""


def call(binary: str, home: Path, *args: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    done = subprocess.run([binary, "--json", "--home", str(home), "--user", "eval", *args],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise Refused(f"{' '.join(args[:1])}: exit {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def score_group(binary: str, home: Path, memories: list, questions: list) -> tuple:
    stored, refused = {}, 0
    for m in memories:
        # Flags first, the text after `--`: a turn that starts with "-" is still text.
        flags = ["--context", m["context"]] if m.get("context") else []
        try:
            stored[m["id"]] = call(binary, home, "add", *flags, "--", m["text"])["id"]
        except Refused:
            refused += 1
    scored = []
    for q in questions:
        found = call(binary, home, "search", "--limit", "10", "--", q["question"])
        hits = [h["id"] for h in found["hits"]]
        share = sum(stored.get(a) in hits for a in q["answers"] if a in stored)
        scored.append((q.get("category") or "", share / len(q["answers"])))
    return scored, refused


def read_groups(file: str) -> tuple:
    """An eval file's memories and questions by group, and the groups in order."""
    memories, questions = collections.defaultdict(list), collections.defaultdict(list)
    for line in Path(file).read_text().splitlines():
        if line.strip():
            item = json.loads(line)
            kind = memories if item["kind"] == "memory" else questions
            kind[item.get("group") or ""].append(item)
    return memories, questions, sorted(set(memories) | set(questions))


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: eval_through_cli.py ASH_MEMORY_BINARY EVAL_FILE")
    binary, file = sys.argv[1], sys.argv[2]
    memories, questions, groups = read_groups(file)
    with tempfile.TemporaryDirectory() as root:
        pool = concurrent.futures.ThreadPoolExecutor(2)
        jobs = [pool.submit(score_group, binary, Path(root) / f"group-{i}", memories[g], questions[g])
                for i, g in enumerate(groups)]
        try:
            done = [job.result() for job in jobs]
        finally:
            pool.shutdown(cancel_futures=True)
    scored = [s for part, _ in done for s in part]
    refused = sum(r for _, r in done)
    if not scored:
        sys.exit("no questions in the file")
    print(f"R@10 {sum(r for _, r in scored) / len(scored):.4f} over {len(scored)} questions"
          f" ({refused} memories refused)")
    by = collections.defaultdict(list)
    for category, r in scored:
        by[category].append(r)
    for category, rs in sorted(by.items()):
        print(f"  {category or '(no category)'}: {sum(rs) / len(rs):.3f} ({len(rs)})")


if __name__ == "__main__":
    main()
