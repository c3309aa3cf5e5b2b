#!/usr/bin/env python3
"""Scores the context's past messages on an `ash-memory eval` file, as an agent that
stores a conversation through `turn` reads it back: each memory of the file stored by its
own `turn` call (its text as the user's message, in a session named by the id's part
before ":", so "D3:7" goes to session "D3"), in file order, and each question asked by
`context --session qa`. A question counts the share of its answers among the messages
the context shows (at most five): recall at five (docs/performance.md#past-messages).

    python3 scripts/locomo_to_eval.py --no-context ../shared/bench/locomo-dev > /tmp/plain.jsonl
    python3 scripts/eval_past_messages.py target/release/ash-memory /tmp/plain.jsonl

Contexts in the file are not stored: a turn has none. Each group is stored in a home of its
own under a temporary folder, two groups at a time. Prints recall overall, per half of the
groups (the first three and the rest, as LoCoMo's development half is split) and per
category, and how many messages a context showed on average.
"""

import collections
import concurrent.futures
import sys
import tempfile
from pathlib import Path

from eval_through_cli import call, read_groups


def score_group(binary: str, home: Path, memories: list, questions: list) -> list:
    # The file's id of each message `turn` stored.
    file_id = {}
    for m in memories:
        session = m["id"].split(":")[0]
        stored = call(binary, home, "turn", "--session", session, "--", m["text"])
        file_id[stored["message_ids"][0]] = m["id"]
    scored = []
    for q in questions:
        block = call(binary, home, "context", "--session", "qa", "--", q["question"])
        shown = {file_id.get(message["id"]) for message in block["past_messages"]}
        share = sum(a in shown for a in q["answers"]) / len(q["answers"])
        scored.append((q.get("group") or "", q.get("category") or "", share, len(block["past_messages"])))
    return scored


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: eval_past_messages.py ASH_MEMORY_BINARY EVAL_FILE")
    binary, file = sys.argv[1], sys.argv[2]
    memories, questions, groups = read_groups(file)
    with tempfile.TemporaryDirectory() as root:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            jobs = [pool.submit(score_group, binary, Path(root) / f"group-{i}", memories[g], questions[g])
                    for i, g in enumerate(groups)]
            scored = [s for job in jobs for s in job.result()]
    if not scored:
        sys.exit("no questions in the file")
    mean = lambda xs: sum(xs) / len(xs)
    print(f"R@5 {mean([s for _, _, s, _ in scored]):.4f} over {len(scored)} questions,"
          f" {mean([n for _, _, _, n in scored]):.2f} messages shown")
    halves = collections.defaultdict(list)
    for group, _, share, _ in scored:
        halves["first three groups" if group in groups[:3] else "the rest"].append(share)
    for half, shares in halves.items():
        print(f"  {half}: {mean(shares):.4f} ({len(shares)})")
    by = collections.defaultdict(list)
    for _, category, share, _ in scored:
        by[category].append(share)
    for category, shares in sorted(by.items()):
        print(f"  {category or '(no category)'}: {mean(shares):.3f} ({len(shares)})")


if __name__ == "__main__":
    main()
