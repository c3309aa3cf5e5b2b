#!/usr/bin/env node
// The conformance runner: `node bindings/js/test/conformance.mjs [--keep DIR] FILES...`, as
// tests/conformance/README.md specifies. Each scenario runs in a new home with a fixed
// clock and sequential ids; every step is a JSON-RPC method whose result must match
// `expect` as a subset (numbers within 1e-4), or which must fail with `error`.
// One line per scenario, a diff on failure, exit status 1 if any failed.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openMemory } from "../src/index.js";
import { callMethod, errorKind } from "../src/rpc.js";

/**
 * Where `actual` departs from `expected`: a list of "path: what" lines, empty on a match.
 * @param {unknown} expected
 * @param {unknown} actual
 * @param {string} at
 */
export function mismatches(expected, actual, at = "$") {
  if (expected === null || typeof expected !== "object") {
    if (typeof expected === "number" && typeof actual === "number") {
      return Math.abs(expected - actual) <= 1e-4 ? [] : [`${at}: expected ${expected}, got ${actual}`];
    }
    return expected === actual ? [] : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${JSON.stringify(actual)}`];
    if (expected.length !== actual.length) {
      return [`${at}: expected ${expected.length} element(s), got ${actual.length}: ${JSON.stringify(actual)}`];
    }
    return expected.flatMap((e, i) => mismatches(e, actual[i], `${at}[${i}]`));
  }
  if (actual === null || typeof actual !== "object" || Array.isArray(actual)) {
    return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
  }
  return Object.entries(expected).flatMap(([k, v]) =>
    k in actual ? mismatches(v, actual[k], `${at}.${k}`) : [`${at}.${k}: missing`],
  );
}

/**
 * Runs one scenario file; returns its failures (empty when it passes) and step count.
 * @param {string} file
 * @param {string} home a new empty folder
 */
export async function runScenario(file, home) {
  const scenario = JSON.parse(fs.readFileSync(file, "utf8"));
  fs.mkdirSync(home, { recursive: true });
  // Owner-only, as every file of a home.
  if (scenario.config !== undefined) fs.writeFileSync(path.join(home, "config.toml"), scenario.config, { mode: 0o600 });
  const mem = await openMemory({ home, now: scenario.now, ids: "sequential" });
  const failures = [];
  try {
    for (const [i, step] of (scenario.steps ?? []).entries()) {
      if (step.now !== undefined) mem.setNow(step.now);
      const label = `step ${i + 1} (${step.method}${step.note ? `: ${step.note}` : ""})`;
      let result;
      let error;
      try {
        // Results go through JSON, as an RPC client would see them.
        result = JSON.parse(JSON.stringify((await callMethod(mem, step.method, structuredClone(step.params ?? {}))) ?? null));
      } catch (e) {
        error = e;
      }
      if (step.error !== undefined) {
        const kind = error === undefined ? null : errorKind(error);
        if (kind !== step.error) {
          failures.push(`${label}: expected error ${step.error}, got ${error === undefined ? `result ${JSON.stringify(result)}` : `${kind}: ${error.message}`}`);
        }
        continue;
      }
      if (error !== undefined) {
        failures.push(`${label}: failed with ${errorKind(error)}: ${error.message}`);
        continue;
      }
      if (step.expect !== undefined) {
        const diff = mismatches(step.expect, result);
        if (diff.length) failures.push(`${label}:\n${diff.map((d) => `      ${d}`).join("\n")}`);
      }
    }
  } finally {
    mem.close();
  }
  return { failures, steps: (scenario.steps ?? []).length };
}

async function main(argv) {
  const files = [];
  let keep = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--keep") keep = argv[++i];
    else if (argv[i].startsWith("--keep=")) keep = argv[i].slice(7);
    else files.push(argv[i]);
  }
  if (files.length === 0 || (keep !== null && !keep)) {
    console.error("usage: node bindings/js/test/conformance.mjs [--keep DIR] FILES...");
    return 2;
  }
  const scratch = keep === null ? fs.mkdtempSync(path.join(os.tmpdir(), "ash-conformance-")) : null;
  let passed = 0;
  let failed = 0;
  for (const file of files) {
    const name = path.basename(file, ".json");
    const home = path.join(keep ?? scratch, name);
    fs.rmSync(home, { recursive: true, force: true });
    let failures;
    let steps = 0;
    try {
      ({ failures, steps } = await runScenario(file, home));
    } catch (e) {
      failures = [`cannot run: ${e.message}`];
    }
    if (failures.length === 0) {
      passed++;
      console.log(`ok    ${name} (${steps} steps)`);
    } else {
      failed++;
      console.log(`FAIL  ${name}`);
      for (const f of failures) console.log(`    ${f}`);
    }
  }
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("conformance.mjs")) {
  process.exitCode = await main(process.argv.slice(2));
}
