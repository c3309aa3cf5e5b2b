// The public API end to end on the real component, files and SQLite: results, scoping,
// error kinds, bad input that changes nothing, file modes, and homes shared with the Rust
// CLI in both directions (when target/debug/ash-memory is there).

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { spawn, spawnSync } from "node:child_process";
import {
  openMemory, componentSha256, componentPath, MemoryError, MemoryNotFoundError, InvalidInputError,
  SecretRefusedError, PersonNotFoundError, UnknownToolError, BusyError, SandboxError,
} from "../src/index.js";
import Database from "better-sqlite3";
import { Home } from "../src/home.js";
import { callMethod } from "../src/rpc.js";
import { scratchDir } from "./helpers/scratch.mjs";

const NOW = "2026-03-01T12:00:00Z";
const RUST_CLI = process.env.ASH_CLI || new URL("../../../target/debug/ash-memory", import.meta.url).pathname;
const hasRust = fs.existsSync(RUST_CLI);
// Without the Rust CLI the test that needs it skips, unless ASH_TEST_REQUIRE_CLI=1 (set by CI
// and by the Rust suite that runs this one): then a missing CLI fails it.
const requireRust = process.env.ASH_TEST_REQUIRE_CLI === "1";
const tmp = () => scratchDir("ash-js-");
const alice = { user: "alice" };

/** Every file under a folder with its bytes, to prove a call changed nothing. */
function snapshot(dir) {
  const out = {};
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (!p.includes(`${path.sep}data${path.sep}`) && !p.endsWith(".lock")) out[p] = fs.readFileSync(p, "hex");
    }
  };
  walk(dir);
  return out;
}

test("add, search, list, get, history and delete", async () => {
  const mem = await openMemory({ home: tmp(), now: NOW, ids: "sequential" });
  const added = await mem.add(alice, { content: "I'm allergic to peanuts" });
  assert.equal(added.memories[0].id, "00000000-0000-4000-8000-000000000001");
  assert.equal(added.memories[0].memory_type, "identity");
  await mem.add(alice, { content: "My favorite color is blue" });
  const found = await mem.search(alice, { query: "What should I avoid eating?", limit: 3 });
  assert.equal(found.hits[0].content, "I'm allergic to peanuts");
  assert.ok(found.hits[0].similarity > 0.25);
  assert.equal((await mem.list(alice)).length, 2);
  assert.equal((await mem.get(alice, "00000000-0000-4000-8000-000000000002")).content, "My favorite color is blue");
  assert.equal((await mem.history(alice, "00000000-0000-4000-8000-000000000001")).length, 1);
  assert.equal(await mem.delete(alice, "00000000-0000-4000-8000-000000000001"), "00000000-0000-4000-8000-000000000001");
  assert.equal((await mem.list(alice)).length, 1);
  mem.close();
});

// The same field lists test/types.ts holds against the WIT's generated types: a result has
// exactly the fields its public type names, no more, no fewer.
const MEMORY_FIELDS = [
  "id", "content", "memory_type", "created_at", "observed_at", "context", "owner_user_id", "chat_id",
  "subject_person_ids", "source", "expires_at", "superseded_at", "superseded_by_id", "embedded",
  "archived_at", "archive_reason",
];
const sorted = (o) => Object.keys(o).sort();

test("results carry exactly the fields of their public types", async () => {
  const mem = await openMemory({ home: tmp(), now: NOW, ids: "sequential" });
  const sarah = await mem.people.add(alice, { name: "Sarah", relation: "sister" });
  assert.deepEqual(sorted(sarah), ["aliases", "created_at", "id", "name", "relation", "relationships", "updated_at"]);
  const added = await mem.add(alice, { content: "Sarah likes jazz", subjects: ["Sarah"] });
  assert.deepEqual(sorted(added), ["evicted", "memories", "restated", "superseded"]);
  assert.deepEqual(sorted(added.memories[0]), [...MEMORY_FIELDS].sort());
  assert.equal(added.memories[0].archive_reason, null, "an absent option is null");
  const hit = (await mem.search(alice, { query: "jazz" })).hits[0];
  assert.deepEqual(sorted(hit), [...MEMORY_FIELDS, "score", "similarity", "subjects", "reasons"].sort());
  assert.ok(hit.reasons.length > 0 && hit.reasons.every((r) => ["meaning", "words", "person", "entity"].includes(r)));
  const block = await mem.context(alice, "What does Sarah like?");
  assert.deepEqual(sorted(block), ["dropped", "estimated_tokens", "markdown", "memories", "past_messages", "people", "profile"]);
  mem.close();
});

test("a caller sees only their own and their chat's memories", async () => {
  const mem = await openMemory({ home: tmp(), now: NOW });
  await mem.add(alice, { content: "I live in Lisbon" });
  await mem.add({ user: "alice", chat: "team" }, { content: "The team meets on Mondays", shared: true });
  assert.equal((await mem.list({ user: "bob" })).length, 0);
  assert.equal((await mem.search({ user: "bob" }, { query: "Lisbon" })).hits.length, 0);
  assert.equal((await mem.list({ user: "bob", chat: "team" })).length, 1);
  assert.equal((await mem.list({ user: "alice", chat: "team" })).length, 2);
  const [id] = (await mem.list(alice)).map((m) => m.id);
  await assert.rejects(mem.get({ user: "bob" }, id), MemoryNotFoundError);
  mem.close();
});

test("a correction replaces the memory, history keeps both, and telling it again is a restatement", async () => {
  const home = tmp();
  const mem = await openMemory({ home, now: NOW, ids: "sequential" });
  const old = (await mem.add(alice, { content: "I live in Berlin" })).memories[0];
  const corrected = await mem.correct(alice, old.id, { content: "I live in Hamburg" });
  assert.equal(corrected.memories.length, 1);
  const fixed = corrected.memories[0];
  assert.notEqual(fixed.id, old.id);
  assert.equal(fixed.content, "I live in Hamburg");
  assert.equal(fixed.memory_type, old.memory_type, "no memoryType keeps the memory's");
  assert.equal(fixed.superseded_by_id, null);
  assert.deepEqual(
    corrected.superseded.map((s) => [s.memory.id, s.memory.content, s.memory.superseded_by_id, s.superseded_by_id]),
    [[old.id, "I live in Berlin", fixed.id, fixed.id]],
  );
  assert.deepEqual([corrected.evicted, corrected.restated], [[], []]);
  assert.deepEqual((await mem.history(alice, fixed.id)).map((m) => m.content), ["I live in Berlin", "I live in Hamburg"]);
  assert.deepEqual((await mem.list(alice)).map((m) => m.id), [fixed.id]);
  // Another user cannot see the memory, so cannot correct it: nothing changes.
  const before = snapshot(home);
  await assert.rejects(mem.correct({ user: "bob" }, fixed.id, { content: "I live in Munich" }), MemoryNotFoundError);
  await assert.rejects(mem.correct(alice, fixed.id, { content: 42 }), InvalidInputError);
  assert.deepEqual(snapshot(home), before);
  // The corrected fact told again writes nothing and answers with the memory kept.
  const again = await mem.add(alice, { content: "i live in hamburg!" });
  assert.deepEqual(again.restated, [fixed.id]);
  assert.deepEqual(again.memories.map((m) => m.id), [fixed.id]);
  assert.deepEqual((await mem.list(alice)).map((m) => m.id), [fixed.id]);
  mem.close();
});

test("memory.correct over RPC: the parameters of the Rust server, the answer of memory.add", async () => {
  const mem = await openMemory({ home: tmp(), now: NOW, ids: "sequential" });
  const added = await callMethod(mem, "memory.add", { user_id: "alice", content: "I live in Berlin" });
  assert.deepEqual(sorted(added), ["evicted", "memories", "restated", "superseded"]);
  const id = added.memories[0].id;
  await assert.rejects(callMethod(mem, "memory.correct", { memory_id: id }), /missing field `content`/);
  await assert.rejects(callMethod(mem, "memory.correct", { memory_id: id, content: "x", expires_in_days: 3 }), /unknown field `expires_in_days`/);
  await assert.rejects(callMethod(mem, "memory.correct", { memory_id: id, content: "x", subjects: "Sarah" }), /invalid type for `subjects`/);
  await assert.rejects(callMethod(mem, "memory.correct", { memory_id: id, content: "x", memory_type: "mood" }), /unknown memory_type/);
  const corrected = await callMethod(mem, "memory.correct", {
    user_id: "alice", memory_id: id, content: "I live in Hamburg", memory_type: "identity", expires_days: null, subjects: null,
  });
  assert.deepEqual(sorted(corrected), ["evicted", "memories", "restated", "superseded"]);
  assert.equal(corrected.superseded[0].superseded_by_id, corrected.memories[0].id);
  await assert.rejects(
    callMethod(mem, "memory.correct", { user_id: "bob", memory_id: corrected.memories[0].id, content: "I live in Munich" }),
    MemoryNotFoundError,
  );
  mem.close();
});

test("errors are MemoryError subclasses with a kind", async () => {
  const mem = await openMemory({ home: tmp(), now: NOW });
  const kind = async (p) => p.then(() => "ok", (e) => (assert.ok(e instanceof MemoryError, String(e)), e.kind));
  assert.equal(await kind(mem.get(alice, "no-such-memory")), "memory_not_found");
  assert.equal(await kind(mem.add(alice, { content: "" })), "invalid_input");
  assert.equal(await kind(mem.add(alice, { content: "my key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD" })), "secret_refused");
  assert.equal(await kind(mem.people.show(alice, "Nobody")), "person_not_found");
  assert.equal(await kind(mem.tools.call(alice, "nope", {})), "unknown_tool");
  await assert.rejects(mem.add(alice, { content: 42 }), InvalidInputError);
  await assert.rejects(mem.people.show(alice, "Nobody"), PersonNotFoundError);
  await assert.rejects(mem.tools.call(alice, "nope", {}), UnknownToolError);
  await assert.rejects(mem.add(alice, { content: "token ghp_abcdefghijklmnopqrstuvwxyz0123456789" }), SecretRefusedError);
  mem.close();
});

test("a bad input changes nothing on disk", async () => {
  const home = tmp();
  const mem = await openMemory({ home, now: NOW });
  await mem.add(alice, { content: "I like tea" });
  const before = snapshot(home);
  const bad = [
    () => mem.add(alice, { content: "" }),
    () => mem.add(alice, { content: "password: hunter2hunter2 AKIAABCDEFGHIJKLMNOP" }),
    () => mem.add(alice, { content: "x", memoryType: "nonsense" }),
    () => mem.add(alice, { content: "x", expiresInDays: -1 }),
    () => mem.add(42, { content: "x" }),
    () => mem.addBatch(alice, [{ content: "fine" }, { content: "" }]),
    () => mem.delete(alice, "00000000"),
  ];
  for (const call of bad) await assert.rejects(call(), MemoryError);
  assert.deepEqual(snapshot(home), before);
  mem.close();
});

test("bad options are refused before the home is made", async () => {
  const home = path.join(tmp(), "new-home");
  const bad = [
    { home, now: "yesterday" },
    { home, now: new Date(Number.NaN) },
    { home, now: new Date("1960-01-01T00:00:00Z") },
    { home, ids: "uuid" },
    { home: 42 },
  ];
  for (const options of bad) await assert.rejects(openMemory(options), InvalidInputError);
  assert.equal(fs.existsSync(home), false);
  const mem = await openMemory({ home, now: NOW });
  assert.throws(() => mem.setNow(new Date(Number.NaN)), InvalidInputError);
  assert.throws(() => mem.setNow(new Date("+010000-01-01T00:00:00Z")), InvalidInputError);
  mem.setNow(new Date("2026-03-01T12:00:00.250Z"));
  assert.equal((await mem.add(alice, "I like tea")).memories[0].created_at, "2026-03-01T12:00:00.250+00:00");
  await assert.rejects(mem.tools.call(alice, "recall", { query: 1n }), InvalidInputError);
  mem.close();
});

test("a trap inside the index's transaction leaves nothing half written", async () => {
  // The index runs in the component: a trap between its BEGIN and COMMIT must not leave the
  // connection inside that transaction, or every later write would fail.
  const home = tmp();
  const mem = await openMemory({ home, now: NOW });
  await mem.add(alice, "I'm allergic to peanuts");
  const executeEach = mem.sql.executeEach.bind(mem.sql);
  let trapped = false;
  mem.sql.executeEach = (statement, width, params) => {
    if (statement.startsWith("INSERT INTO fts") && !trapped) {
      trapped = true;
      throw new Error("the disk went away");
    }
    return executeEach(statement, width, params);
  };
  await assert.rejects(mem.add(alice, "I live in Lisbon"), SandboxError);
  assert.ok(trapped, "the add reached the index's full-text write");
  await mem.add(alice, "I live in Porto");
  const hits = (await mem.search(alice, { query: "Where do I live?" })).hits.map((h) => h.content);
  assert.ok(hits.includes("I live in Porto") && !hits.includes("I live in Lisbon"), JSON.stringify(hits));
  mem.close();
  const db = new Database(path.join(home, "data/memory.db"), { readonly: true });
  const held = db.prepare("SELECT record FROM items").pluck().all();
  db.close();
  assert.equal(held.length, 2);
  assert.ok(!held.some((r) => r.includes("Lisbon")), JSON.stringify(held));
});

test("a statement run for many rows binds each row and refuses a partial one", async () => {
  const home = tmp();
  const mem = await openMemory({ home, now: NOW });
  await mem.add(alice, "I'm allergic to peanuts");
  // `encoded-values` (wit/sql.wit): integers as a tag byte 1 and eight bytes.
  const ints = (...xs) => Buffer.concat(xs.map((x) => {
    const b = Buffer.alloc(9);
    b[0] = 1;
    b.writeBigInt64LE(BigInt(x), 1);
    return b;
  })).toString("base64");
  const sql = mem.sql;
  sql.execute("CREATE TABLE t (a INTEGER, b INTEGER)", "");
  assert.equal(sql.executeEach("INSERT INTO t VALUES (?1, ?2)", 2, ints(1, 2, 3, 4, 5, 6)), 3n);
  assert.throws(() => sql.executeEach("INSERT INTO t VALUES (?1, ?2)", 2, ints(7, 8, 9)),
    (e) => e.tag === "failed" && /rows of 2/.test(e.val));
  assert.equal(sql.query("SELECT a * 10 + b FROM t ORDER BY a", "")[1],
    Buffer.concat([12, 34, 56].map((x) => Buffer.from(ints(x), "base64"))).toString("base64"));
  mem.close();
});

test("files are 0600 and folders 0700", async () => {
  const home = tmp();
  const mem = await openMemory({ home, now: NOW });
  await mem.add(alice, { content: "I like tea" });
  await mem.people.add(alice, { name: "Sarah", relation: "wife" });
  mem.close();
  for (const d of [home, path.join(home, "memory"), path.join(home, "data")]) {
    assert.equal(fs.statSync(d).mode & 0o777, 0o700, d);
  }
  for (const f of ["memory/memories.jsonl", "people.jsonl", "memory/.journal", "data/memory.db", ".lock"]) {
    assert.equal(fs.statSync(path.join(home, f)).mode & 0o777, 0o600, f);
  }
});

test("a call waits for the lock, then gives up as busy", async () => {
  const home = tmp();
  const mem = await openMemory({ home, now: NOW });
  const held = new Home(home).lockWithin(1);
  process.env.ASH_LOCK_TIMEOUT_SECS = "0.2";
  try {
    await assert.rejects(mem.list(alice), (e) => e instanceof BusyError && /busy/.test(e.message) && e.kind === "busy");
  } finally {
    delete process.env.ASH_LOCK_TIMEOUT_SECS;
    held.release();
  }
  assert.deepEqual(await mem.list(alice), []);
  // What Rust cannot parse as a number means the default (30 s), not its leading digits:
  // another process holds the lock for a second and the call waits it out.
  const holder = spawn("flock", [path.join(home, ".lock"), "-c", "echo held; sleep 1"]);
  await new Promise((resolve) => holder.stdout.once("data", resolve));
  process.env.ASH_LOCK_TIMEOUT_SECS = "0.2s";
  const started = Date.now();
  try {
    assert.deepEqual(await mem.list(alice), []);
  } finally {
    delete process.env.ASH_LOCK_TIMEOUT_SECS;
  }
  assert.ok(Date.now() - started >= 700, "gave up at 0.2 s instead of waiting for the holder");
  mem.close();
});

test("the component shipped is the one transpiled", () => {
  const sha = createHash("sha256").update(fs.readFileSync(componentPath())).digest("hex");
  assert.equal(componentSha256(), sha);
  const built = new URL("../../../target/ash_memory.wasm", import.meta.url).pathname;
  if (!process.env.ASH_COMPONENT && fs.existsSync(built)) {
    const input = createHash("sha256").update(fs.readFileSync(built)).digest("hex");
    assert.equal(sha, input, "generated/ is stale: run npm run build");
  }
});

test("a home written here is read by the Rust CLI, and the reverse", { skip: !hasRust && !requireRust && "no Rust CLI" }, async () => {
  assert.ok(hasRust, `ASH_TEST_REQUIRE_CLI=1 but there is no Rust CLI at ${RUST_CLI} (build it, or set $ASH_CLI)`);
  const rust = (home, ...args) => {
    const r = spawnSync(RUST_CLI, ["--home", home, "--user", "alice", "--now", NOW, ...args], {
      encoding: "utf8",
      // $ASH_COMPONENT names this package's component; the CLI runs its own policy.
      env: { ...process.env, ASH_LOG: "info", ASH_COMPONENT: undefined },
    });
    assert.equal(r.status, 0, r.stderr);
    return r;
  };
  const home = tmp();
  const mem = await openMemory({ home, now: NOW });
  await mem.add(alice, { content: "I'm allergic to peanuts" });
  await mem.add(alice, { content: "My favorite color is blue" });
  mem.close();
  const search = rust(home, "--json", "search", "What should I avoid eating?");
  assert.equal(JSON.parse(search.stdout).hits[0].content, "I'm allergic to peanuts");
  assert.equal(search.stderr.trim(), "", "no warning, no rebuild");
  assert.equal(rust(home, "list").stderr.trim(), "");
  // The coarse codes of the Rust host's one-shot searches, written here as it writes them.
  const mirror = tmp();
  rust(mirror, "add", "I'm allergic to peanuts");
  rust(mirror, "add", "My favorite color is blue");
  const codes = (h) => {
    const db = new Database(path.join(h, "data", "memory.db"), { readonly: true });
    try {
      return db
        .prepare(`SELECT json_extract(items.record, '$.content'), codes.scope, codes.scale, codes.code
                    FROM codes JOIN items ON items.rowid = codes.item ORDER BY 1`)
        .raw()
        .all();
    } finally {
      db.close();
    }
  };
  assert.equal(codes(home).length, 2);
  assert.deepEqual(codes(home), codes(mirror));

  const other = tmp();
  rust(other, "add", "I live in Lisbon");
  rust(other, "add", "I prefer tea over coffee");
  const lines = [];
  const back = await openMemory({ home: other, now: NOW, log: (level, m) => lines.push(`${level}: ${m}`) });
  const hits = (await back.search(alice, { query: "Where do I live?" })).hits;
  assert.equal(hits[0].content, "I live in Lisbon");
  assert.equal((await back.list(alice)).length, 2);
  assert.deepEqual(lines.filter((l) => !l.startsWith("debug:")), [], "no warning, no rebuild");
  // The search read the records the Rust host kept in the index, not memories.jsonl.
  assert.ok(lines.some((l) => l.includes("search: answered from the index")), lines.join("\n"));
  back.close();
  // A list with a limit, in a new instance, reads the most recent from the index too.
  lines.length = 0;
  const again = await openMemory({ home: other, now: NOW, log: (level, m) => lines.push(`${level}: ${m}`) });
  assert.deepEqual((await again.list(alice, { limit: 1 })).map((m) => m.content), ["I prefer tea over coffee"]);
  assert.ok(lines.some((l) => l.includes("list: read from the index")), lines.join("\n"));
  again.close();
});

test("a context is searched with the content, kept in the record, and returned apart from it", async () => {
  const home = tmp();
  const mem = await openMemory({ home, now: NOW, ids: "sequential" });
  await mem.add(alice, { content: "I drive a 2015 Subaru Outback" });
  await mem.add(alice, { content: "Yes, twice, and I would go back tomorrow", context: "Ana: Have you ever been to Japan?" });
  const found = await mem.search(alice, { query: "japan" });
  assert.deepEqual(found.hits.map((h) => h.content), ["Yes, twice, and I would go back tomorrow"]);
  assert.equal(found.hits[0].context, "Ana: Have you ever been to Japan?");
  const car = (await mem.list(alice)).find((m) => m.content.includes("Subaru"));
  assert.equal(car.context, null);
  const line = fs.readFileSync(path.join(home, "memory", "memories.jsonl"), "utf8").trim().split("\n").pop();
  assert.equal(JSON.parse(line).context, "Ana: Have you ever been to Japan?");
  const before = snapshot(home);
  await assert.rejects(
    mem.add(alice, { content: "Noted", context: "my token is ghp_0123456789abcdefghijABCDEFGHIJ0123" }),
    SecretRefusedError,
  );
  await assert.rejects(mem.add(alice, { content: "Noted", context: 7 }), InvalidInputError);
  assert.deepEqual(snapshot(home), before);
  mem.close();
});
