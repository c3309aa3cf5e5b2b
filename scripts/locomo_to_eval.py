#!/usr/bin/env python3
"""Converts a LoCoMo split (`turns.jsonl`, `queries.jsonl`, as in ../shared/bench/locomo-dev)
into the JSON lines `ash-memory eval` reads: each conversation is a group, each turn a
memory ("Speaker: text", with the image caption when there is one), each question asks for
its evidence turns, by category name. Questions without evidence are left out.

    python3 scripts/locomo_to_eval.py ../shared/bench/locomo-dev > /tmp/locomo-dev.jsonl
    target/release/ash-memory eval /tmp/locomo-dev.jsonl

The data is CC BY-NC 4.0: it is read from where it lies and never copied into the project.
"""

import json
import sys
from pathlib import Path


def main() -> None:
    root = Path(sys.argv[1])
    out = sys.stdout
    for line in (root / "turns.jsonl").read_text().splitlines():
        t = json.loads(line)
        text = f"{t['speaker']}: {t['text']}"
        if t.get("blip_caption"):
            text += f" [shares an image: {t['blip_caption']}]"
        out.write(json.dumps({"kind": "memory", "id": t["id"], "text": text, "group": str(t["conv"])}) + "\n")
    for line in (root / "queries.jsonl").read_text().splitlines():
        q = json.loads(line)
        if not q.get("evidence"):
            continue
        out.write(json.dumps({"kind": "question", "question": q["question"], "answers": q["evidence"],
                              "category": q["category_name"], "group": str(q["conv"])}) + "\n")


if __name__ == "__main__":
    main()
