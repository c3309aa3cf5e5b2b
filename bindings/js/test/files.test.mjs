// The files capability's transaction journal, below the component: a rollback killed at
// any of its steps, a home copied while a call was open, a tampered journal, and a journal
// the Rust host wrote (host/src/files/tests.rs has the same cases); with the Rust CLI, calls
// killed in one host recovered by the other.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { Home } from "../src/home.js";
import { FileStore, mix } from "../src/files.js";
import { scratchDir } from "./helpers/scratch.mjs";

const RUST_CLI = process.env.ASH_CLI || new URL("../../../target/debug/ash-memory", import.meta.url).pathname;
const noRust = !fs.existsSync(RUST_CLI) && "no Rust CLI";
const quiet = () => {};
const read = (files, c) => fs.readFileSync(files.path(c), "utf8");

/**
 * A home with one acknowledged line in each of two collections, and a call's unfinished
 * appends to both (and to a collection it created), as a killed process leaves them.
 */
function homeWithAnOpenTransaction() {
  const home = new Home(scratchDir("ash-files-"));
  const files = new FileStore(home, quiet);
  files.append("memories", ["kept"]);
  files.append("archive", ["kept copy"]);
  files.commit();
  files.append("archive", ["undone copy"]);
  files.append("people", ["undone person"]);
  files.append("memories", ["undone"]);
  files.close();
  return home;
}

/** Asserts the call left open is wholly undone and recovery left nothing behind. */
function assertRolledBack(home, what) {
  const files = new FileStore(home, quiet);
  assert.equal(read(files, "memories"), "kept\n", what);
  assert.equal(read(files, "archive"), "kept copy\n", what);
  assert.ok(!fs.existsSync(files.path("people")), `${what}: the file the call made is gone`);
  assert.equal(files.journal.pending(), null, what);
  for (const dir of [home.root, path.dirname(home.memories)]) {
    assert.deepEqual(fs.readdirSync(dir).filter((n) => n.includes(".tmp-")), [], what);
  }
  files.close();
}

test("a rollback killed after its first cut and token finishes the others", () => {
  const home = homeWithAnOpenTransaction();
  const dying = new FileStore(home, quiet);
  const pending = dying.journal.pending();
  dying.journal.record(pending.states, null, ["archive", "memories", "people"]);
  // The first cut and its new token are done, then the process dies.
  dying.cutBack(pending.states.find((b) => b.collection === "archive"));
  dying.newToken("archive");
  dying.close();

  const next = new FileStore(home, quiet);
  next.rollBack();
  next.close();
  assertRolledBack(home, "the second cut is not skipped");
});

/**
 * Runs `fn` as a process that dies before its `n`th write to the disk (a write, flush,
 * truncation, rename or removal): that one and every later one fails.
 * @returns whether it died
 */
function killedAt(n, fn) {
  const names = ["writeSync", "fsyncSync", "fdatasyncSync", "ftruncateSync", "renameSync", "unlinkSync"];
  const real = Object.fromEntries(names.map((name) => [name, fs[name]]));
  let count = 0;
  for (const name of names) {
    fs[name] = (...args) => {
      if (++count >= n) throw Object.assign(new Error(`killed before ${name}`), { code: "EKILLED" });
      return real[name](...args);
    };
  }
  try {
    fn();
    return false;
  } catch {
    return true;
  } finally {
    Object.assign(fs, real);
  }
}

test("a rollback killed at any of its steps is finished by the next call", () => {
  let steps = 0;
  for (let n = 1; ; n++) {
    const home = homeWithAnOpenTransaction();
    const before = new FileStore(home, quiet);
    const tokens = ["memories", "archive"].map((c) => before.token(c));
    before.close();
    const dying = new FileStore(home, quiet);
    const died = killedAt(n, () => dying.rollBack());
    dying.close();
    const next = new FileStore(home, quiet);
    next.rollBack();
    assert.notEqual(next.token("memories"), tokens[0], `killed at ${n}: readers of memories read again`);
    assert.notEqual(next.token("archive"), tokens[1], `killed at ${n}: readers of archive read again`);
    next.close();
    assertRolledBack(home, `killed at write ${n}`);
    if (!died) break;
    steps = n;
  }
  assert.ok(steps >= 8, `a rollback of three collections takes more steps than ${steps}`);
});

test("a home copied with new inodes while a call was open is rolled back in the copy", () => {
  const home = homeWithAnOpenTransaction();
  const copy = scratchDir("ash-files-copy-");
  // Every file made anew, as `cp -a` or a restore makes them: new inodes.
  const cp = spawnSync("cp", ["-a", `${home.root}/.`, copy]);
  assert.equal(cp.status, 0, String(cp.stderr));
  assert.notEqual(fs.statSync(path.join(copy, "memory/memories.jsonl")).ino, fs.statSync(home.memories).ino);
  const files = new FileStore(new Home(copy), quiet);
  files.rollBack();
  files.close();
  assertRolledBack(new Home(copy), "the copy");
  assert.equal(fs.readFileSync(home.memories, "utf8"), "kept\nundone\n", "the original is not touched");
});

test("a journal naming a file outside the home for its replace changes nothing", () => {
  const home = new Home(scratchDir("ash-files-"));
  const files = new FileStore(home, quiet);
  files.append("memories", ["mine"]);
  files.commit();
  // Bait that the names below reach from the working folder, with the old code's reading.
  const elsewhere = scratchDir("ash-files-elsewhere-");
  const outside = path.join(elsewhere, ".memories.jsonl.tmp-1");
  const evil = path.join(elsewhere, "evil.jsonl");
  const cwd = path.join(elsewhere, "a", "b");
  fs.mkdirSync(path.join(elsewhere, "etc"));
  fs.mkdirSync(cwd, { recursive: true });
  const baits = [outside, evil, path.join(elsewhere, "etc/passwd"), path.join(cwd, ".journal")];
  for (const bait of baits) fs.writeFileSync(bait, "not yours\n");
  const was = process.cwd();
  process.chdir(cwd);
  try {
    for (const named of [outside, evil, "../../etc/passwd", ".journal", "..", "/", ""]) {
      // As a tampered journal has it: the path as written, not reduced to a name.
      const text = JSON.stringify({ pid: 1, before: [], replace: ["memories", named] });
      fs.writeFileSync(home.journal, text + "\n");
      const next = new FileStore(home, quiet);
      next.rollBack();
      next.close();
      assert.equal(read(files, "memories"), "mine\n", `named ${named}`);
    }
  } finally {
    process.chdir(was);
  }
  for (const bait of baits) assert.equal(fs.readFileSync(bait, "utf8"), "not yours\n", bait);
  assert.equal(fs.readFileSync(home.journal, "utf8"), "", "and the journal is emptied");
  files.close();
});

test("a journal the Rust host wrote is understood: tokens and a bare name in replace", () => {
  const home = homeWithAnOpenTransaction();
  const files = new FileStore(home, quiet);
  files.newToken("memories");
  files.newToken("archive");
  const token = (c) => files.token(c).toString();
  const end = (c) => fs.statSync(files.path(c)).size;
  // Generations no file here has (as in a copied home): the tokens match the files. People
  // was missing: its generation is its token's alone.
  const text =
    `{"pid":4242,"before":[["memories",${end("memories") - 7},123],["people",0,${mix([0n, 0n, 0n])}],` +
    `["archive",${end("archive")},456]],"tokens":[["memories",${token("memories")}],["people",0],` +
    `["archive",${token("archive")}]],"replace":["archive",".archive.jsonl.tmp-4242"]}\n`;
  fs.writeFileSync(home.journal, text);
  // A committed rewrite of the archive whose rename the process did not live to make.
  fs.writeFileSync(path.join(path.dirname(home.archive), ".archive.jsonl.tmp-4242"), "rewritten\n");
  const archiveToken = files.token("archive");
  files.rollBack();
  assert.equal(read(files, "memories"), "kept\n", "cut by its token");
  assert.equal(read(files, "archive"), "rewritten\n", "the rename is finished beside the collection");
  assert.notEqual(files.token("archive"), archiveToken, "a rewrite gives a new token");
  assert.ok(!fs.existsSync(files.path("people")), "made by the call: removed");
  assert.equal(files.journal.pending(), null);
  files.close();
});

test("the journal is written in the Rust host's format", () => {
  const home = new Home(scratchDir("ash-files-"));
  const files = new FileStore(home, quiet);
  files.append("memories", ["a"]);
  const entry = (t) => JSON.parse(t.replace(/(\d{16,})/g, '"$1"'));
  const first = entry(fs.readFileSync(home.journal, "utf8"));
  assert.deepEqual(Object.keys(first), ["pid", "before", "tokens"]);
  assert.deepEqual(first.before[0].slice(0, 2), ["memories", 0]);
  assert.deepEqual(first.tokens.map(([c]) => c), ["memories", "people", "archive", "sessions", "messages"]);
  const tmp = path.join(path.dirname(home.memories), `.memories.jsonl.tmp-${process.pid}`);
  files.journal.record(files.states(), ["memories", tmp], ["archive"]);
  const recorded = entry(fs.readFileSync(home.journal, "utf8"));
  assert.deepEqual(Object.keys(recorded), ["pid", "before", "tokens", "replace", "rolling_back"]);
  assert.deepEqual(recorded.replace, ["memories", `.memories.jsonl.tmp-${process.pid}`], "the name alone");
  assert.deepEqual(recorded.rolling_back, ["archive"]);
  assert.deepEqual(fs.readdirSync(path.dirname(home.journal)).filter((n) => n.includes(".tmp-")), []);
  files.commit();
  files.close();
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
function contents(files) {
  const out = {};
  for (const c of ["memories", "people", "archive", "sessions", "messages"]) {
    out[c] = fs.existsSync(files.path(c)) ? fs.readFileSync(files.path(c), "utf8") : null;
  }
  return out;
}

test("a call the Rust CLI was killed in is recovered here", { skip: noRust }, () => {
  const home = new Home(scratchDir("ash-files-"));
  const at = ["--home", home.root, "--user", "u"];
  for (const fact of ["I'm allergic to peanuts", "I have a cat named Tom", "I live in Lisbon"]) cli([...at, "add", fact]);
  const listed = JSON.parse(cli([...at, "--json", "list"]));
  // A removal line, which gc's rewrite folds away.
  cli([...at, "delete", listed[2].id]);
  const files = new FileStore(home, quiet);
  const committed = contents(files);
  // A delete killed once both of its appends are flushed: the journal has tokens.
  cli([...at, "delete", listed[0].id], "append:memories:synced");
  assert.match(fs.readFileSync(home.journal, "utf8"), /"tokens":/);
  files.rollBack();
  assert.deepEqual(contents(files), committed);
  // gc killed after its rewrite's commit point and new token, before the rename: the
  // journal names the temporary file by its name alone, and recovery here finishes it.
  cli([...at, "gc"], "replace:memories:token");
  const name = JSON.parse(fs.readFileSync(home.journal, "utf8").replace(/(\d{16,})/g, '"$1"')).replace[1];
  assert.match(name, /^\.memories\.jsonl\.tmp-\d+$/);
  const tmp = path.join(path.dirname(home.memories), name);
  const rewritten = fs.readFileSync(tmp, "utf8");
  files.rollBack();
  files.close();
  assert.equal(fs.readFileSync(home.memories, "utf8"), rewritten);
  assert.ok(!fs.existsSync(tmp));
  const left = JSON.parse(cli([...at, "--json", "list"])).map((m) => m.content);
  assert.deepEqual(left, ["I live in Lisbon", "I have a cat named Tom"]);
  // A search brings the index up to the files, as any ordinary call may.
  cli([...at, "search", "cat"]);
  assert.doesNotMatch(cli(["--home", home.root, "doctor"]), /WARN/);
});

test("the Rust CLI finishes a rollback this host was killed in", { skip: noRust }, () => {
  const home = new Home(scratchDir("ash-files-"));
  const at = ["--home", home.root, "--user", "u"];
  cli([...at, "add", "I'm allergic to peanuts"]);
  const files = new FileStore(home, quiet);
  const committed = contents(files);
  files.append("archive", ['{"id":"half-archived","version":1}']);
  files.append("memories", ['{"id":"half-written","version":1}']);
  files.close();
  const dying = new FileStore(home, quiet);
  const pending = dying.journal.pending();
  dying.journal.record(pending.states, null, ["memories", "archive"]);
  // The first cut and its new token are done, then the process dies.
  dying.cutBack(pending.states.find((b) => b.collection === "memories"));
  dying.newToken("memories");
  dying.close();
  const left = JSON.parse(cli([...at, "--json", "list"])).map((m) => m.content);
  assert.deepEqual(left, ["I'm allergic to peanuts"]);
  assert.deepEqual(contents(files), committed);
  assert.equal(fs.readFileSync(home.journal, "utf8"), "");
});
