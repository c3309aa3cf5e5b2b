#!/usr/bin/env python3
"""Converts a LoCoMo split (`turns.jsonl`, `queries.jsonl`, as in ../shared/bench/locomo-dev)
into the JSON lines `ash-memory eval` reads: each conversation is a group, each turn a
memory ("Speaker: text", with the image caption when there is one) whose context is what a
conversation keeps around a turn: the session's date and the turn before it in the same
session. Each question asks for its evidence turns, by category name. Questions without
evidence are left out.

    python3 scripts/locomo_to_eval.py ../shared/bench/locomo-dev > /tmp/locomo-dev.jsonl
    target/release/ash-memory eval /tmp/locomo-dev.jsonl

`--no-context` leaves the context out (how turns were stored before memories had one).

The data is CC BY-NC 4.0: it is read from where it lies and never copied into the project.
"""

import json
import sys
from datetime import datetime
from pathlib import Path


def day(session_date: str) -> str:
    """ "1:56 pm on 8 May, 2023" -> "8 May 2023". """
    d = datetime.strptime(session_date, "%I:%M %p on %d %B, %Y")
    return f"{d.day} {d:%B %Y}"


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    with_context = "--no-context" not in sys.argv
    root = Path(args[0])
    out = sys.stdout
    before = None
    for line in (root / "turns.jsonl").read_text().splitlines():
        t = json.loads(line)
        text = f"{t['speaker']}: {t['text']}"
        if t.get("blip_caption"):
            text += f" [shares an image: {t['blip_caption']}]"
        memory = {"kind": "memory", "id": t["id"], "text": text, "group": str(t["conv"])}
        if with_context:
            context = [day(t["session_date"])]
            if before and (before["conv"], before["session"]) == (t["conv"], t["session"]):
                context.append(before["text"])
            memory["context"] = "\n".join(context)
        before = {"conv": t["conv"], "session": t["session"], "text": text}
        out.write(json.dumps(memory) + "\n")
    for line in (root / "queries.jsonl").read_text().splitlines():
        q = json.loads(line)
        if not q.get("evidence"):
            continue
        out.write(json.dumps({"kind": "question", "question": q["question"], "answers": q["evidence"],
                              "category": q["category_name"], "group": str(q["conv"])}) + "\n")


if __name__ == "__main__":
    main()
