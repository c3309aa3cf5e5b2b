#!/usr/bin/env python3
"""The cross-host bench: one workload, one component, three hosts, side by side.

Writes a workload file (facts to hold, facts to add one at a time, queries), runs it
through the Rust host (`ash-memory bench --workload`), the JavaScript host
(`node bindings/js/bench/workload.mjs`) and the Python host (`python -m ash_memory.bench`),
and prints their figures with the ratio of each to Rust.

    cargo build --release -p ash-memory-cli
    (cd bindings/js && npm install && npm run build)
    python3 -m venv target/tmp/hosts-venv && target/tmp/hosts-venv/bin/pip install ./bindings/python
    scripts/bench_hosts.py --memories 1000 --python target/tmp/hosts-venv/bin/python

The hosts must hold one build's component: the bench refuses to compare different ones.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PEOPLE = ["Sarah", "Mike", "my boss", "my sister", "Tom", "the landlord", "Priya", "my dentist"]
VERBS = ["likes", "recommended", "mentioned", "asked about", "is planning", "prefers", "booked"]
THINGS = ["Italian food", "the hiking trip", "a new laptop", "the quarterly report",
          "jazz concerts", "the kitchen remodel", "vegan recipes", "the Lisbon conference",
          "chess openings", "a blue bicycle", "the insurance renewal", "sourdough"]
WHEN = ["on weekends", "every Monday", "this spring", "after work", "in the morning", "last year"]
QUERIES = ["What does Sarah like to eat?", "travel plans", "paperwork deadlines", "outdoor trips",
           "concerts", "my sister's hobbies"]


def fact(i: int) -> str:
    """A varied, deterministic fact (the numbers keep every fact distinct)."""
    pick = lambda words, salt: words[((i * 2654435761 + salt * 40503) >> 7) % len(words)]
    return f"{pick(PEOPLE, 1)} {pick(VERBS, 2)} {pick(THINGS, 3)} {pick(WHEN, 4)} (note {i})"


def run(label: str, command: list[str], cwd: Path = ROOT) -> dict:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{label} failed ({' '.join(command)}):\n{done.stderr}")
    last = done.stdout.strip().splitlines()[-1]
    return json.loads(last)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=50)
    parser.add_argument("--rust", default=str(ROOT / "target/release/ash-memory"))
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()

    workload = {
        "facts": [fact(i) for i in range(args.memories)],
        "adds": [fact(args.memories + i) for i in range(args.samples)],
        "queries": [QUERIES[i % len(QUERIES)] for i in range(args.samples)],
    }
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "workload.json"
        path.write_text(json.dumps(workload))
        results = [
            run("rust", [args.rust, "bench", "--workload", str(path)]),
            run("js", ["node", "bench/workload.mjs", "--workload", str(path)], ROOT / "bindings/js"),
            run("python", [args.python, "-m", "ash_memory.bench", "--workload", str(path)]),
        ]
    rust = results[0]
    # The other hosts run the policy with the index plugged in, which the Rust build composes.
    components = {r["host"]: r.get("composed_sha256", r.get("component_sha256")) for r in results}
    if len(set(components.values())) != 1:
        sys.exit(f"the hosts ran different components: {components}\n"
                 "rebuild them from one build (npm run build in bindings/js, pip install ./bindings/python)")
    figures = ["instantiate_ms", "instantiate_cached_ms", "fill_ms", "add_p50_ms", "search_p50_ms", "rebuild_ms"]
    print(f"cross-host bench: {args.memories} memories held, {args.samples} timed adds and searches,"
          f" one policy (sha256 {rust['component_sha256'][:16]}...; with the index,"
          f" {rust.get('composed_sha256', 'not composed')[:16]}...)")
    print(f"{'':22}" + "".join(f"{r['host']:>22}" for r in results))
    for key in figures:
        cells = []
        for r in results:
            if key not in r:
                cells.append("n/a")
                continue
            ratio = r[key] / rust[key] if rust[key] else float("nan")
            cells.append(f"{r[key]:>10.2f} ms ({ratio:>5.2f}x)")
        print(f"{key:22}" + "".join(f"{c:>22}" for c in cells))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
