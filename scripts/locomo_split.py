#!/usr/bin/env python3
"""Writes a split of LoCoMo in the layout of ../shared/bench/locomo-dev (`turns.jsonl`,
`queries.jsonl`) from the authors' `data/locomo10.json` (github.com/snap-research/locomo),
so that the held-out conversations 5-9 can be measured as the development half is:

    python3 scripts/locomo_split.py locomo10.json 5 9 /tmp/locomo-held
    python3 scripts/locomo_to_eval.py /tmp/locomo-held > /tmp/locomo-held.jsonl
    target/release/ash-memory eval /tmp/locomo-held.jsonl

Evidence ids are read as the development half's were: "D8:6; D9:17" is two ids, "D:11:26"
is D11:26 and "D30:05" D30:5, ids of no turn are left out, and so are questions left
without evidence. Given 0 4, it writes the development half byte for byte.

The data is CC BY-NC 4.0: it is read from where it lies and never copied into the project.
"""

import json
import re
import sys

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}


def sessions(conversation: dict):
    """(number, date, turns) of each session, in order."""
    n = 1
    while f"session_{n}" in conversation:
        yield n, conversation[f"session_{n}_date_time"], conversation[f"session_{n}"]
        n += 1


def evidence(cited: list, turns: set) -> list:
    ids = []
    for entry in cited:
        for part in re.split(r"[;,\s]+", entry):
            part = re.sub(r":0+(\d)", r":\1", re.sub(r"^D:", "D", part.strip()))
            if part in turns and part not in ids:
                ids.append(part)
    return ids


def main() -> None:
    source, first, last, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    samples = json.load(open(source))
    with open(f"{out}/turns.jsonl", "w") as turns_file, open(f"{out}/queries.jsonl", "w") as queries_file:
        for conv in range(first, last + 1):
            sample = samples[conv]
            turns = set()
            for number, date, session in sessions(sample["conversation"]):
                for turn in session:
                    row = {"id": turn["dia_id"], "conv": conv, "sample_id": sample["sample_id"],
                           "session": number, "speaker": turn["speaker"], "text": turn["text"],
                           "session_date": date}
                    if turn.get("blip_caption"):
                        row["blip_caption"] = turn["blip_caption"]
                    turns_file.write(json.dumps(row) + "\n")
                    turns.add(turn["dia_id"])
            for i, qa in enumerate(sample["qa"]):
                ids = evidence(qa.get("evidence") or [], turns)
                if not ids:
                    continue
                answer = qa.get("answer", qa.get("adversarial_answer"))
                queries_file.write(json.dumps({
                    "conv": conv, "sample_id": sample["sample_id"], "qid": f"{sample['sample_id']}/q{i}",
                    "question": qa["question"], "evidence": ids, "category": qa["category"],
                    "category_name": CATEGORIES[qa["category"]], "answer": str(answer)}) + "\n")


if __name__ == "__main__":
    main()
