#!/usr/bin/env python3
"""Writes a split of LoCoMo in the layout of ../shared/bench/locomo-dev (`turns.jsonl`,
`queries.jsonl`) from the authors' `data/locomo10.json` (github.com/snap-research/locomo),
so that the held-out conversations 5-9 can be measured as the development half is:

    python3 scripts/locomo_split.py locomo10.json 5 9 /tmp/locomo-held
    python3 scripts/locomo_to_eval.py /tmp/locomo-held > /tmp/locomo-held.jsonl
    target/release/ash-memory eval /tmp/locomo-held.jsonl

Evidence ids are read as the development half's were: "D8:6; D9:17" is two ids, "D:11:26"
is D11:26 and "D30:05" D30:5, ids of no turn are left out, and so are questions left
without evidence. Given 0 4, it writes the development half byte for byte. SOURCE may also be
the directory `data/multimodal_dialog/locomo10_v2` unpacked from the repository's
`data/locomo10.zip` (where a snapshot holds no `locomo10.json`): the same data, the same
output.

The data is CC BY-NC 4.0: it is read from where it lies and never copied into the project.
"""

import json
import re
import sys
from pathlib import Path

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


def load(source: str) -> list:
    """The ten samples of `data/locomo10.json`, or of the directory of per-conversation
    files that the repository's `data/locomo10.zip` holds (`locomo10_v2/26.json`, ...: a
    sample's conversation and questions in one object), in the order of their numbers."""
    path = Path(source)
    if not path.is_dir():
        return json.load(open(path))
    samples = []
    for file in sorted(path.glob("*.json"), key=lambda f: int(f.stem)):
        data = json.load(open(file))
        conversation = {k: v for k, v in data.items() if k in ("speaker_a", "speaker_b") or k.startswith("session_")}
        samples.append({"sample_id": f"conv-{file.stem}", "conversation": conversation, "qa": data["qa"]})
    return samples


def main() -> None:
    source, first, last, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    samples = load(source)
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
