// The JavaScript host's side of the cross-host bench (scripts/bench_hosts.py), measured
// as the Rust host's `bench --workload` measures: load, compile and instantiate the
// component (no cache), fill the home in batches of 250, then time single adds and
// searches. Returns the figures for one JSON line.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openMemory, componentSha256 } from "../src/index.js";

/** The median of a list of durations (the upper one of an even count, as the Rust bench). */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}

const round = (x) => Math.round(x * 1000) / 1000;

/**
 * @param {{ facts: string[], adds: string[], queries: string[] }} work
 */
export async function runWorkload(work) {
  for (const key of Object.keys(work)) {
    if (!["facts", "adds", "queries"].includes(key)) throw new Error(`unknown workload field ${key}`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ash-bench-"));
  const me = { user: "bench" };
  try {
    let t = performance.now();
    const mem = await openMemory({ home: path.join(dir, "home") });
    // The instance is made on first use: make it now, as wasmtime links at open.
    mem.instance = mem.component.instantiate(mem.component.getCoreModule, mem.imports);
    const instantiate = performance.now() - t;

    t = performance.now();
    for (let i = 0; i < work.facts.length; i += 250) {
      await mem.addBatch(me, work.facts.slice(i, i + 250).map((content) => ({ content })));
    }
    const fill = performance.now() - t;
    const adds = [];
    for (const content of work.adds) {
      t = performance.now();
      await mem.add(me, { content });
      adds.push(performance.now() - t);
    }
    const searches = [];
    for (const query of work.queries) {
      t = performance.now();
      const found = await mem.search(me, { query, limit: 10 });
      searches.push(performance.now() - t);
      if (found.hits.length === 0) throw new Error(`search for ${JSON.stringify(query)} found nothing`);
    }
    t = performance.now();
    await mem.rebuildIndex();
    const rebuild = performance.now() - t;
    mem.close();
    return {
      host: "js",
      component_sha256: componentSha256(),
      memories: work.facts.length + work.adds.length,
      instantiate_ms: round(instantiate),
      fill_ms: round(fill),
      add_p50_ms: round(median(adds)),
      search_p50_ms: round(median(searches)),
      rebuild_ms: round(rebuild),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
