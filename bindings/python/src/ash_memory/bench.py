"""`python -m ash_memory.bench [--memories N] [--samples N] [--workload FILE]`: add and search
latency through the real component, index and embedder, in a temporary home. Prints one JSON
line: `{"host": "python", "memories", "instantiate_ms", "fill_ms", "add_p50_ms", "search_p50_ms",
"rebuild_ms"}`.

`--workload FILE` runs the cross-host bench's file (`scripts/bench_hosts.py`: facts to hold,
facts to add one at a time, queries); without it the same kind of workload is generated.
As in the Rust host's workload bench, `instantiate_ms` loads, compiles and instantiates the
component with no compile cache.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from .component import component_sha256
from .memory import Memory

PEOPLE = ["Sarah", "Mike", "my boss", "my sister", "Tom", "the landlord", "Priya", "my dentist"]
VERBS = ["likes", "recommended", "mentioned", "asked about", "is planning", "prefers", "booked"]
THINGS = ["Italian food", "the hiking trip", "a new laptop", "the quarterly report", "jazz concerts",
          "the kitchen remodel", "vegan recipes", "the Lisbon conference", "chess openings",
          "a blue bicycle", "the insurance renewal", "sourdough"]
WHEN = ["on weekends", "every Monday", "this spring", "after work", "in the morning", "last year"]
QUERIES = ["What does Sarah like to eat?", "travel plans", "paperwork deadlines", "sports", "music",
           "my sister's hobbies"]


def fact(i: int) -> str:
    """A varied, deterministic fact (the number keeps every fact distinct)."""
    def pick(words: list[str], salt: int) -> str:
        return words[((i * 2654435761 + salt * 40503) >> 7) % len(words)]

    return f"{pick(PEOPLE, 1)} {pick(VERBS, 2)} {pick(THINGS, 3)} {pick(WHEN, 4)} (note {i})"


def workload(memories: int, samples: int) -> dict[str, list[str]]:
    """Facts to hold, facts to add one at a time, queries."""
    return {
        "facts": [fact(i) for i in range(memories)],
        "adds": [fact(memories + i) for i in range(samples)],
        "queries": [QUERIES[i % len(QUERIES)] for i in range(samples)],
    }


def median_ms(samples: list[float]) -> float:
    """The median, in milliseconds (the upper one of an even count, as the Rust bench)."""
    s = sorted(samples)
    return s[len(s) // 2] * 1e3 if s else 0.0


def run(work: dict[str, list[str]]) -> dict[str, object]:
    """Runs a workload in a temporary home and returns the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        m = Memory(Path(tmp) / "home", user="bench", cache_dir=None)
        m.instantiate()
        instantiate = time.perf_counter() - t
        with m:
            t = time.perf_counter()
            facts = work["facts"]
            for start in range(0, len(facts), 250):
                m.add_batch([{"content": f} for f in facts[start:start + 250]])
            fill = time.perf_counter() - t
            adds = []
            for f in work["adds"]:
                t = time.perf_counter()
                m.add(f)
                adds.append(time.perf_counter() - t)
            searches = []
            for q in work["queries"]:
                t = time.perf_counter()
                found = m.search(q, limit=10)
                searches.append(time.perf_counter() - t)
                if not found.hits:
                    raise SystemExit(f"search for {q!r} found nothing")
            t = time.perf_counter()
            m.rebuild_index()
            rebuild = time.perf_counter() - t
    return {
        "host": "python",
        "component_sha256": component_sha256(),
        "memories": len(work["facts"]) + len(work["adds"]),
        "instantiate_ms": instantiate * 1e3,
        "fill_ms": fill * 1e3,
        "add_p50_ms": median_ms(adds),
        "search_p50_ms": median_ms(searches),
        "rebuild_ms": rebuild * 1e3,
    }


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m ash_memory.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=50)
    parser.add_argument("--workload", type=Path, help="the cross-host bench's workload file")
    args = parser.parse_args(argv)
    work = json.loads(args.workload.read_text()) if args.workload else workload(args.memories, args.samples)
    print(json.dumps(run(work)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
