// The collections and their journal are the files component's (the Rust crate `files/`,
// tested in files/src/tests.rs); this host supplies `fs` and the lock. Here: the lock let go
// while a remote service answers, lines that are not UTF-8 crossing as base64, paths that
// leave the home refused, and, with the Rust CLI, calls killed in one host recovered by the
// other.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import fsExt from "fs-ext";
import { openMemory } from "../src/index.js";
import { HomeFs } from "../src/fs.js";
import { StaticEmbedder } from "../src/embedder.js";
import { scratchDir } from "./helpers/scratch.mjs";

const NOW = "2026-03-01T12:00:00Z";
const RUST_CLI = process.env.ASH_CLI || new URL("../../../target/debug/ash-memory", import.meta.url).pathname;
const noRust = !fs.existsSync(RUST_CLI) && "no Rust CLI";
const alice = { user: "alice" };
const COLLECTIONS = { memories: "memory/memories.jsonl", archive: "memory/archive.jsonl", people: "people.jsonl" };

/** Whether another holder could take the home's lock now. */
function lockIsFree(home) {
  const fd = fs.openSync(path.join(home, ".lock"), "r+");
  try {
    fsExt.flockSync(fd, "exnb");
    fsExt.flockSync(fd, "un");
    return true;
  } catch (e) {
    if (e.code === "EAGAIN" || e.code === "EWOULDBLOCK") return false;
    throw e;
  } finally {
    fs.closeSync(fd);
  }
}

/** The embedded model, said to be remote or not, with `during` run inside each embed. */
function embedder(remote, during) {
  const model = new StaticEmbedder();
  return {
    isRemote: () => remote,
    modelId: () => model.modelId(),
    dimension: () => model.dimension(),
    embed: (texts) => {
      during();
      return model.embed(texts);
    },
  };
}

test("the lock is let go while a remote embedder answers, and kept for a local one", async () => {
  for (const remote of [true, false]) {
    const home = scratchDir("ash-files-");
    const seen = [];
    const mem = await openMemory({ home, now: NOW, embedder: embedder(remote, () => seen.push(lockIsFree(home))) });
    await mem.add(alice, { content: "I'm allergic to peanuts" });
    await mem.add(alice, { content: "I live in Lisbon" });
    assert.ok(seen.length >= 2, `${seen}`);
    assert.deepEqual(new Set(seen), new Set([remote]), `remote ${remote}`);
    const listed = (await mem.list(alice)).map((m) => m.content).sort();
    assert.deepEqual(listed, ["I live in Lisbon", "I'm allergic to peanuts"]);
    assert.equal(fs.readFileSync(path.join(home, "memory/.journal"), "utf8").trim(), "", "an empty journal is blank");
    mem.close();
  }
});

test("a call whose lock is taken while a remote service answers fails as busy and writes nothing more", async () => {
  const home = scratchDir("ash-files-");
  let thief = null;
  const steal = () => {
    if (thief !== null) return;
    thief = fs.openSync(path.join(home, ".lock"), "r+");
    fsExt.flockSync(thief, "exnb");
  };
  let stealing = false;
  const mem = await openMemory({ home, now: NOW, embedder: embedder(true, () => stealing && steal()) });
  await mem.add(alice, { content: "I'm allergic to peanuts" });
  const before = fs.readFileSync(path.join(home, COLLECTIONS.memories));
  stealing = true;
  const timeout = process.env.ASH_LOCK_TIMEOUT_SECS;
  process.env.ASH_LOCK_TIMEOUT_SECS = "0.2";
  try {
    // Its write is refused, and it fails as busy with the lock's error, as in the Rust host.
    await assert.rejects(mem.add(alice, { content: "I live in Lisbon" }), (e) => e.name === "BusyError" && !/not written/.test(e.message));
    assert.notEqual(thief, null, "the lock was taken while the embedder answered");
  } finally {
    if (timeout === undefined) delete process.env.ASH_LOCK_TIMEOUT_SECS;
    else process.env.ASH_LOCK_TIMEOUT_SECS = timeout;
    fs.closeSync(thief);
  }
  assert.deepEqual(fs.readFileSync(path.join(home, COLLECTIONS.memories)), before);
  stealing = false;
  assert.deepEqual((await mem.list(alice)).map((m) => m.content), ["I'm allergic to peanuts"]);
  mem.close();
});

test("a line that is not UTF-8 is set aside with its bytes, and the rest is kept", async () => {
  const home = scratchDir("ash-files-");
  let mem = await openMemory({ home, now: NOW });
  await mem.add(alice, { content: "I'm allergic to peanuts" });
  mem.close();
  const file = path.join(home, COLLECTIONS.memories);
  const bad = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]);
  fs.appendFileSync(file, bad);
  mem = await openMemory({ home, now: NOW });
  assert.deepEqual((await mem.list(alice)).map((m) => m.content), ["I'm allergic to peanuts"]);
  mem.close();
  assert.ok(!fs.readFileSync(file).includes(Buffer.from([0xff, 0xfe])), "the collection no longer holds it");
  const quarantine = fs.readFileSync(path.join(home, "memory/memories.quarantine.jsonl"), "utf8");
  const record = quarantine.trim().split("\n").map((l) => JSON.parse(l)).find((r) => r.line_base64);
  assert.deepEqual(Buffer.from(record.line_base64, "base64"), bad.subarray(0, -1));
});

test("a path outside the home is refused, and changes nothing", () => {
  const root = scratchDir("ash-files-");
  const outside = scratchDir("ash-outside-");
  const files = new HomeFs(root, { unlocksFor: () => false, unlock() {}, lock() {} }).imports();
  const escape = path.relative(root, path.join(outside, "x"));
  for (const p of [escape, `${outside}/x`, "memory/../../x", "..", "a\\..\\b"]) {
    assert.throws(() => files.open(p, "create"), (e) => e.tag === "io" && /not a path inside the home/.test(e.val), p);
    assert.throws(() => files.rename("x", p), (e) => e.tag === "io", p);
    assert.throws(() => files.remove(p), (e) => e.tag === "io", p);
    assert.throws(() => files.overwrite(p, { tag: "text", val: "x" }), (e) => e.tag === "io", p);
    assert.throws(() => files.readFrom(p, 0n), (e) => e.tag === "io", p);
    assert.throws(() => files.readWhole(p), (e) => e.tag === "io", p);
  }
  assert.deepEqual(fs.readdirSync(outside), []);
  assert.throws(() => files.stat("missing"), (e) => e.tag === "not-found");
  assert.throws(() => files.readWhole("missing"), (e) => e.tag === "not-found");
  fs.writeFileSync(path.join(root, "bytes"), Buffer.from([0xff, 0x41]));
  assert.deepEqual(files.readWhole("bytes"), { tag: "base64", val: "/0E=" });
  assert.equal(files.overwrite("journal", { tag: "text", val: "a longer entry" }), true, "made");
  assert.equal(files.overwrite("journal", { tag: "base64", val: "/w==" }), false, "already there");
  assert.deepEqual(fs.readFileSync(path.join(root, "journal")), Buffer.from([0xff]));
  assert.equal(fs.statSync(path.join(root, "journal")).mode & 0o777, 0o600);
  const [meta, rest] = files.readFrom("journal", 0n);
  assert.deepEqual([meta.len, rest], [1n, { tag: "base64", val: "/w==" }]);
  assert.deepEqual(files.readFrom("journal", 5n)[1], { tag: "text", val: "" }, "past its end");
  assert.throws(() => files.open("missing", "read"), (e) => e.tag === "not-found");
});

/** Runs the Rust CLI; `fault` makes it abort (as kill -9 would) at that fault point. */
function cli(args, fault) {
  const env = { ...process.env };
  delete env.ASH_FAULT;
  // $ASH_COMPONENT names this package's component; the CLI runs its own policy.
  delete env.ASH_COMPONENT;
  if (fault) env.ASH_FAULT = fault;
  const r = spawnSync(RUST_CLI, args, { env, encoding: "utf8" });
  if (fault) assert.equal(r.signal, "SIGABRT", r.stderr);
  else assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** Every collection's bytes, null for one that is not there. */
function contents(home) {
  const out = {};
  for (const [c, p] of Object.entries(COLLECTIONS)) {
    const full = path.join(home, p);
    out[c] = fs.existsSync(full) ? fs.readFileSync(full, "utf8") : null;
  }
  return out;
}

test("a call the Rust CLI was killed in is recovered here", { skip: noRust }, async () => {
  const home = scratchDir("ash-files-");
  const at = ["--home", home, "--user", "alice"];
  for (const fact of ["I'm allergic to peanuts", "I have a cat named Tom", "I live in Lisbon"]) cli([...at, "add", fact]);
  const listed = JSON.parse(cli([...at, "--json", "list"]));
  cli([...at, "delete", listed[2].id]);
  const committed = contents(home);
  // A delete killed once both of its appends are flushed.
  cli([...at, "delete", listed[0].id], "append:memories:synced");
  assert.match(fs.readFileSync(path.join(home, "memory/.journal"), "utf8"), /"tokens":/);
  let mem = await openMemory({ home, now: NOW });
  assert.equal((await mem.list(alice)).length, 2);
  mem.close();
  assert.deepEqual(contents(home), committed);
  // gc killed after its rewrite's commit point, before the rename: recovery here finishes it.
  cli([...at, "gc"], "replace:memories:token");
  const name = JSON.parse(fs.readFileSync(path.join(home, "memory/.journal"), "utf8").replace(/(\d{16,})/g, '"$1"')).replace[1];
  const tmp = path.join(home, "memory", name);
  const rewritten = fs.readFileSync(tmp, "utf8");
  mem = await openMemory({ home, now: NOW });
  assert.deepEqual((await mem.list(alice)).map((m) => m.content).sort(), ["I have a cat named Tom", "I live in Lisbon"]);
  mem.close();
  assert.equal(fs.readFileSync(path.join(home, COLLECTIONS.memories), "utf8"), rewritten);
  assert.ok(!fs.existsSync(tmp));
  // A search brings the index up to the files, as any ordinary call may.
  cli([...at, "search", "cat"]);
  assert.doesNotMatch(cli(["--home", home, "doctor"]), /WARN/);
});

/** A child process that adds a memory here and is killed once that append is flushed. */
const DIE_AFTER_APPEND = `
  import { openMemory } from ${JSON.stringify(new URL("../src/index.js", import.meta.url).href)};
  const mem = await openMemory({ home: process.argv[1], now: "${NOW}" });
  const { File } = mem.imports["ash:memory/fs@0.2.0"];
  const sync = File.prototype.syncData;
  File.prototype.syncData = function () {
    sync.call(this);
    if (this.full.endsWith("memories.jsonl")) process.kill(process.pid, "SIGKILL");
  };
  await mem.add({ user: "alice" }, { content: "I live in Lisbon" });
`;

for (const recoverer of ["this host", "the Rust CLI"]) {
  test(`a call this host was killed in is rolled back by ${recoverer}`, { skip: recoverer !== "this host" && noRust }, async () => {
    const home = scratchDir("ash-files-");
    let mem = await openMemory({ home, now: NOW });
    await mem.add(alice, { content: "I'm allergic to peanuts" });
    mem.close();
    const committed = contents(home);
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", DIE_AFTER_APPEND, home], { encoding: "utf8" });
    assert.equal(r.signal, "SIGKILL", r.stderr);
    assert.notDeepEqual(contents(home), committed, "the killed call had appended");
    assert.match(fs.readFileSync(path.join(home, "memory/.journal"), "utf8"), /"before":/);
    if (recoverer === "this host") {
      mem = await openMemory({ home, now: NOW });
      assert.deepEqual((await mem.list(alice)).map((m) => m.content), ["I'm allergic to peanuts"]);
      mem.close();
    } else {
      const left = JSON.parse(cli(["--home", home, "--user", "alice", "--json", "list"])).map((m) => m.content);
      assert.deepEqual(left, ["I'm allergic to peanuts"]);
    }
    assert.deepEqual(contents(home), committed);
    assert.equal(fs.readFileSync(path.join(home, "memory/.journal"), "utf8").trim(), "", "an empty journal is blank");
  });
}
