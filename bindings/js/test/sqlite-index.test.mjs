// The SQLite index: memories and messages kept apart by kind, as the Rust host keeps them
// (the same scope keys and meta rows); and its error variants: SQLite's "corrupt" family,
// extended codes included, is `unavailable` as in the Rust host (rusqlite compares primary
// codes), so that the guest's message and its rebuild decision are the same on both hosts.
// Memory entries keep their records (fetch, setRecords) and entries without a vector are
// counted (pending); an older version's index, without those columns, is rebuilt.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { SqliteIndex, coarseCode } from "../src/sqlite-index.js";
import { scratchDir } from "./helpers/scratch.mjs";

test("a corrupt full-text index (SQLITE_CORRUPT_VTAB) is unavailable, not an sql error", () => {
  const file = path.join(scratchDir("ash-index-"), "memory.db");
  const index = new SqliteIndex(file);
  index.clear({ model: "m", dimension: 2 });
  const scope = { kind: "memory", userId: "alice", chatId: undefined };
  index.upsert(Array.from({ length: 30 }, (_, i) => ({
    kind: "memory", id: `id-${i}`, content: `peanut allergy note ${i} word${i}`, ownerUserId: "alice", embedding: new Float32Array([1, i]),
  })));
  assert.equal(index.textSearch(["peanut"], 5, scope).length, 5);
  index.close();
  // FTS5's shadow table overwritten with junk: its reads fail with SQLITE_CORRUPT_VTAB.
  const db = new Database(file);
  db.unsafeMode(true);
  db.exec("UPDATE fts_data SET block = X'00FFFFFFFF' WHERE id > 10");
  db.close();
  assert.throws(() => index.textSearch(["peanut"], 5, scope), (e) => e.tag === "unavailable" && /corrupt/.test(e.val));
  index.close();
});

test("memories and messages are kept apart: search, count and reflects are per kind", () => {
  const file = path.join(scratchDir("ash-index-"), "memory.db");
  const index = new SqliteIndex(file);
  index.clear({ model: "m", dimension: 2 });
  index.upsert([
    { kind: "memory", id: "mem-1", content: "peanut allergy", ownerUserId: "alice", embedding: new Float32Array([1, 0]) },
    { kind: "message", id: "msg-1", content: "peanut butter", ownerUserId: "alice", embedding: new Float32Array([1, 0.1]) },
    { kind: "message", id: "msg-2", content: "peanut sauce", chatId: "team", embedding: new Float32Array([1, 0.2]) },
  ]);
  const memories = { kind: "memory", userId: "alice", chatId: "team" };
  const messages = { kind: "message", userId: "alice", chatId: "team" };
  assert.deepEqual(index.knn(new Float32Array([1, 0]), 10, memories).map((h) => h.id), ["mem-1"]);
  assert.deepEqual(index.knn(new Float32Array([1, 0]), 10, messages).map((h) => h.id), ["msg-1", "msg-2"]);
  assert.deepEqual(index.textSearch(["peanut"], 10, memories).map((h) => h.id), ["mem-1"]);
  assert.deepEqual(index.textSearch(["peanut"], 10, messages).map((h) => h.id).sort(), ["msg-1", "msg-2"]);
  assert.equal(index.count("memory"), 1n);
  assert.equal(index.count("message"), 2n);
  // The Rust host's scope keys: memories unprefixed (older files stay valid), messages `m`.
  const db = new Database(file, { readonly: true });
  assert.deepEqual(db.prepare("SELECT id, scope FROM items ORDER BY id").raw().all(), [
    ["mem-1", "u:alice"], ["msg-1", "mu:alice"], ["msg-2", "mc:team"],
  ]);
  // The Rust host's chunk size, not sqlite-vec's default of 1024 (one chunk per scope here).
  assert.deepEqual(db.prepare("SELECT size, count(*) FROM vecs_chunks GROUP BY size").raw().all(), [[128, 3]]);
  db.close();

  assert.equal(index.reflects("memory"), undefined);
  index.setReflects("memory", { generation: 7n, end: 10n });
  index.setReflects("message", { generation: 8n, end: 20n });
  assert.deepEqual(index.reflects("memory"), { generation: 7n, end: 10n });
  assert.deepEqual(index.reflects("message"), { generation: 8n, end: 20n });
  const meta = new Database(file, { readonly: true });
  assert.equal(meta.prepare("SELECT value FROM meta WHERE key = 'reflects_message_codes'").pluck().get(), "8 20");
  meta.close();
  index.clear({ model: "m", dimension: 2 });
  assert.equal(index.reflects("memory"), undefined);
  assert.equal(index.reflects("message"), undefined);
  assert.equal(index.count("memory"), 0n);
  assert.equal(index.count("message"), 0n);
  index.close();
});

test("records: upsert keeps them and marks entries without a vector pending; fetch hands them back in order", () => {
  const file = path.join(scratchDir("ash-index-"), "memory.db");
  const index = new SqliteIndex(file);
  index.clear({ model: "m", dimension: 2 });
  index.upsert([
    { kind: "memory", id: "mem-1", content: "peanut allergy", ownerUserId: "alice", embedding: new Float32Array([1, 0.5]), record: '{"id":"mem-1"}' },
    { kind: "memory", id: "mem-2", content: "likes tea", chatId: "team", embedding: undefined, record: '{"id":"mem-2"}' },
    // A vector without a direction is not stored: pending as much as a missing one.
    { kind: "memory", id: "mem-3", content: "zero vector", ownerUserId: "alice", embedding: [0, 0], record: '{"id":"mem-3"}', marks: { keys: [], lapses: undefined, observed: 2n, made: 3n } },
    { kind: "memory", id: "mem-4", content: "no record", ownerUserId: "alice", embedding: [0, 1], record: undefined },
    { kind: "message", id: "msg-1", content: "peanut butter", ownerUserId: "alice", embedding: undefined },
  ]);
  assert.deepEqual(index.fetch(["mem-3", "unknown", "mem-1", "mem-4", "msg-1", "mem-2"]), [
    { id: "mem-3", record: '{"id":"mem-3"}', embedding: undefined },
    { id: "mem-1", record: '{"id":"mem-1"}', embedding: [1, 0.5] },
    { id: "mem-2", record: '{"id":"mem-2"}', embedding: undefined },
  ]);
  assert.deepEqual(index.fetch([]), []);
  assert.equal(index.pending("memory"), 2n);
  assert.equal(index.pending("message"), 1n);

  // A vector arriving later clears the mark; a replaced entry's record is the new one.
  index.upsert([{ kind: "memory", id: "mem-2", content: "likes tea", chatId: "team", embedding: [0.25, 1], record: '{"id":"mem-2","v":2}', marks: { keys: [], lapses: undefined, observed: 8n, made: 9n } }]);
  assert.equal(index.pending("memory"), 1n);
  assert.deepEqual(index.fetch(["mem-2"]), [{ id: "mem-2", record: '{"id":"mem-2","v":2}', embedding: [0.25, 1] }]);
  // And losing it sets the mark again.
  index.upsert([{ kind: "memory", id: "mem-1", content: "peanut allergy", ownerUserId: "alice", embedding: undefined, record: '{"id":"mem-1"}' }]);
  assert.equal(index.pending("memory"), 2n);
  assert.deepEqual(index.fetch(["mem-1"]), [{ id: "mem-1", record: '{"id":"mem-1"}', embedding: undefined }]);

  // The schema the Rust host writes: the same columns and the partial index.
  const db = new Database(file, { readonly: true });
  assert.deepEqual(db.prepare("SELECT name FROM pragma_table_info('items') ORDER BY cid").pluck().all(), ["rowid", "id", "scope", "pending", "record", "lapses", "keys", "observed", "made"]);
  assert.deepEqual(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items' AND sql IS NOT NULL ORDER BY name").pluck().all(), ["items_made", "items_pending", "items_scope"]);
  // The made moment as inserted (mem-3) and as updated (mem-2); zero without marks (a message's).
  assert.deepEqual(db.prepare("SELECT id, observed, made FROM items ORDER BY id").raw().all(), [
    ["mem-1", 0, 0], ["mem-2", 8, 9], ["mem-3", 2, 3], ["mem-4", 0, 0], ["msg-1", 0, 0],
  ]);
  db.close();
  index.close();
});

test("setRecords changes records only: search, vectors and scope stay; unknown ids are ignored", () => {
  const file = path.join(scratchDir("ash-index-"), "memory.db");
  const index = new SqliteIndex(file);
  index.clear({ model: "m", dimension: 2 });
  index.upsert([
    { kind: "memory", id: "mem-1", content: "peanut allergy", ownerUserId: "alice", embedding: [1, 0], record: '{"id":"mem-1","n":1}' },
    { kind: "memory", id: "mem-2", content: "peanut sauce", chatId: "team", embedding: [1, 0.3], record: '{"id":"mem-2","n":1}' },
    { kind: "memory", id: "mem-3", content: "walnut", ownerUserId: "alice", embedding: undefined, record: undefined },
  ]);
  const scope = { kind: "memory", userId: "alice", chatId: "team" };
  const knnBefore = index.knn([1, 0], 10, scope);
  const textBefore = index.textSearch(["peanut", "walnut"], 10, scope);

  const none = { keys: [], lapses: undefined, observed: 0n, made: 0n };
  index.setRecords([
    { id: "mem-1", record: '{"id":"mem-1","n":2}', marks: { ...none, observed: 41n, made: 42n } },
    { id: "unknown", record: "{}", marks: none },
    { id: "mem-3", record: '{"id":"mem-3"}', marks: none },
  ]);
  index.setRecords([]);
  assert.deepEqual(index.fetch(["mem-1", "mem-2", "mem-3", "unknown"]), [
    { id: "mem-1", record: '{"id":"mem-1","n":2}', embedding: [1, 0] },
    { id: "mem-2", record: '{"id":"mem-2","n":1}', embedding: [1, 0.30000001192092896] },
    { id: "mem-3", record: '{"id":"mem-3"}', embedding: undefined },
  ]);
  assert.deepEqual(index.knn([1, 0], 10, scope), knnBefore);
  assert.deepEqual(index.textSearch(["peanut", "walnut"], 10, scope), textBefore);
  assert.equal(index.count("memory"), 3n);
  assert.equal(index.pending("memory"), 1n);
  const db = new Database(file, { readonly: true });
  assert.deepEqual(db.prepare("SELECT id, scope, observed, made FROM items ORDER BY id").raw().all(), [
    ["mem-1", "u:alice", 41, 42], ["mem-2", "c:team", 0, 0], ["mem-3", "u:alice", 0, 0],
  ]);
  db.close();
  index.close();
});

test("an index of an older version, whose items keep no records, is unavailable until cleared", () => {
  const file = path.join(scratchDir("ash-index-"), "memory.db");
  // The previous version's schema, written by hand, with an entry in it.
  const old = new Database(file);
  sqliteVec.load(old);
  old.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE items (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, scope TEXT NOT NULL);
    CREATE INDEX items_scope ON items (scope);
    CREATE VIRTUAL TABLE fts USING fts5 (content, tokenize = 'porter unicode61');
    CREATE VIRTUAL TABLE vecs USING vec0 (scope TEXT PARTITION KEY, embedding FLOAT[2] distance_metric=cosine);
    INSERT INTO meta (key, value) VALUES ('model', 'm'), ('dimension', '2'), ('reflects', '1 10');
    INSERT INTO items (rowid, id, scope) VALUES (1, 'mem-1', 'u:alice');
    INSERT INTO fts (rowid, content) VALUES (1, 'peanut allergy');
  `);
  old.close();

  const index = new SqliteIndex(file);
  const older = (e) => e.tag === "unavailable" && /older version/.test(e.val);
  assert.throws(() => index.info(), older);
  assert.throws(() => index.fetch(["mem-1"]), older);
  assert.throws(() => index.upsert([{ kind: "memory", id: "mem-2", content: "x", ownerUserId: "alice", embedding: [1, 0], record: "{}" }]), older);

  index.clear({ model: "m", dimension: 2 });
  assert.deepEqual(index.info(), { model: "m", dimension: 2 });
  assert.equal(index.count("memory"), 0n);
  assert.equal(index.reflects("memory"), undefined);
  index.upsert([{ kind: "memory", id: "mem-1", content: "peanut allergy", ownerUserId: "alice", embedding: undefined, record: '{"id":"mem-1"}' }]);
  assert.deepEqual(index.fetch(["mem-1"]), [{ id: "mem-1", record: '{"id":"mem-1"}', embedding: undefined }]);
  assert.equal(index.pending("memory"), 1n);
  index.close();
  const reopened = new SqliteIndex(file);
  assert.deepEqual(reopened.info(), { model: "m", dimension: 2 });
  reopened.close();

  // An old items table in a file that clear keeps (no model recorded yet, so nothing to
  // refuse): it is dropped and made anew, not emptied.
  const kept = path.join(scratchDir("ash-index-"), "memory.db");
  const bare = new Database(kept);
  bare.exec("CREATE TABLE items (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, scope TEXT NOT NULL); INSERT INTO items (id, scope) VALUES ('mem-9', 'u:alice');");
  bare.close();
  const fresh = new SqliteIndex(kept);
  assert.equal(fresh.info(), undefined);
  fresh.clear({ model: "m", dimension: 2 });
  assert.deepEqual(fresh.info(), { model: "m", dimension: 2 });
  assert.equal(fresh.count("memory"), 0n);
  fresh.upsert([{ kind: "memory", id: "mem-9", content: "tea", ownerUserId: "alice", embedding: [0, 1], record: '{"id":"mem-9"}' }]);
  assert.deepEqual(fresh.fetch(["mem-9"]), [{ id: "mem-9", record: '{"id":"mem-9"}', embedding: [0, 1] }]);
  assert.equal(fresh.pending("memory"), 0n);
  fresh.close();
  const check = new Database(kept, { readonly: true });
  assert.equal(check.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'items_pending'").pluck().get(), 1);
  check.close();
});

test("marks count and fetch the live holders of a scope and follow every write", () => {
  // The Rust host's case (host/src/index/tests/marks.rs), on this host's index.
  const file = path.join(scratchDir("ash-index-"), "memory.db");
  const index = new SqliteIndex(file);
  index.clear({ model: "m", dimension: 2 });
  const entry = (id, user, chat, keys, lapses) => ({
    kind: "memory", id, content: id, ownerUserId: user, chatId: chat, embedding: [1, 0.5],
    record: `{"id":"${id}"}`, marks: { keys, lapses: lapses === undefined ? undefined : BigInt(lapses), observed: 0n, made: 0n },
  });
  const alone = { kind: "memory", userId: "alice" };
  const inChat = { kind: "memory", userId: "alice", chatId: "c1" };
  const tally = (keys, scope, now) => {
    const t = index.tally(keys, scope, BigInt(now));
    return [t.live, t.holding];
  };
  const held = (keys, scope, now) => {
    const found = index.holding(keys, scope, BigInt(now));
    for (const h of found) {
      assert.equal(h.record, `{"id":"${h.id}"}`);
      assert.deepEqual(h.embedding, [1, 0.5]);
    }
    return found.map((h) => h.id).sort();
  };
  index.upsert([
    entry("a", "alice", undefined, ["subject:ana", "entity:lisbon"]),
    entry("b", "alice", undefined, ["entity:lisbon"], 100),
    entry("c", "bob", undefined, ["subject:ana", "entity:lisbon"]),
    entry("d", "alice", "c1", ["entity:lisbon"]),
    entry("e", "alice", undefined, []),
  ]);
  const keys = ["entity:lisbon", "subject:ana", "entity:nowhere"];
  assert.deepEqual(tally(keys, alone, 50), [3n, [2n, 1n, 0n]]);
  assert.deepEqual(tally(keys, alone, 100), [2n, [1n, 1n, 0n]], "b lapses at 100");
  assert.deepEqual(tally(keys, inChat, 50), [4n, [3n, 1n, 0n]]);
  assert.deepEqual(tally(keys, { ...alone, kind: "message" }, 50), [0n, [0n, 0n, 0n]]);
  assert.deepEqual(held(["entity:lisbon"], alone, 50), ["a", "b"]);
  assert.deepEqual(held(["entity:lisbon"], alone, 100), ["a"]);
  assert.deepEqual(held(["subject:ana", "entity:lisbon"], alone, 50), ["a", "b"]);
  assert.deepEqual(held(["subject:ana"], inChat, 50), ["a"], "never Bob's");

  // Written again with the same marks (an access, a replay): they stay.
  index.setRecords([{ id: "a", record: '{"id":"a"}', marks: { keys: ["subject:ana", "entity:lisbon"], lapses: undefined, observed: 0n, made: 0n } }]);
  index.upsert([entry("b", "alice", undefined, ["entity:lisbon"], 100)]);
  assert.deepEqual(tally(keys, alone, 50), [3n, [2n, 1n, 0n]]);
  assert.deepEqual(held(["entity:lisbon"], alone, 50), ["a", "b"]);
  // The same keys with another expiry: the rows follow it.
  index.setRecords([{ id: "b", record: '{"id":"b"}', marks: { keys: ["entity:lisbon"], lapses: 40n, observed: 0n, made: 0n } }]);
  assert.deepEqual(tally(keys, alone, 50), [2n, [1n, 1n, 0n]]);
  index.setRecords([{ id: "b", record: '{"id":"b"}', marks: { keys: ["entity:lisbon"], lapses: 100n, observed: 0n, made: 0n } }]);

  index.setRecords([{ id: "a", record: '{"id":"a"}', marks: { keys: ["entity:porto"], lapses: 60n, observed: 0n, made: 0n } }]);
  assert.deepEqual(tally(["entity:lisbon", "entity:porto", "subject:ana"], alone, 50), [3n, [1n, 1n, 0n]]);
  assert.deepEqual(tally(["entity:porto"], alone, 70), [2n, [0n]]);

  index.upsert([entry("a", "alice", undefined, ["entity:madrid"]), entry("a", "alice", "c1", ["entity:lisbon"])]);
  assert.deepEqual(tally(["entity:lisbon", "entity:porto", "entity:madrid"], alone, 50), [2n, [1n, 0n, 0n]]);
  assert.deepEqual(held(["entity:lisbon"], inChat, 50), ["a", "b", "d"]);

  index.remove(["a", "b", "c", "d"]);
  const db = new Database(file, { readonly: true });
  assert.equal(db.prepare("SELECT count(*) FROM marks").pluck().get(), 0);
  db.close();
  assert.deepEqual(tally(keys, alone, 50), [1n, [0n, 0n, 0n]]);
  index.close();
});

test("newest: a key's holders by moment then id, within the scope, live, following every write", () => {
  // The Rust host's case (host/src/index/tests/newest.rs), on this host's index.
  const file = path.join(scratchDir("ash-index-"), "memory.db");
  const index = new SqliteIndex(file);
  index.clear({ model: "m", dimension: 2 });
  const key = "profile:preference";
  const entry = (id, user, chat, keys, observed, lapses, embedding) => ({
    kind: "memory", id, content: id, ownerUserId: user, chatId: chat, embedding,
    record: `{"id":"${id}"}`, marks: { keys, lapses: lapses === undefined ? undefined : BigInt(lapses), observed: BigInt(observed), made: 0n },
  });
  const alone = { kind: "memory", userId: "alice" };
  const inChat = { kind: "memory", userId: "alice", chatId: "c1" };
  const newest = (keys, scope, now, limit) => index.newest(keys, scope, BigInt(now), limit).map((found) => found.map((h) => {
    assert.equal(h.record, `{"id":"${h.id}"}`);
    return h.id;
  }));
  index.upsert([
    entry("c", "alice", undefined, [key], 200, undefined, [1, 0]),
    entry("a", "alice", undefined, [key, "entity:x"], 300, undefined, [1, 0]),
    entry("b", "alice", undefined, [key], 200, undefined, [0, 1]),
    // Before "b" by byte, after it by localeCompare.
    entry("B", "alice", undefined, [key], 200, undefined, [1, 0]),
    entry("C", "alice", "c1", [key], 200, undefined, [1, 0]),
    entry("d", "alice", "c1", [key], 250, undefined, [1, 1]),
    entry("e", "bob", undefined, [key], 400, undefined, [1, 0]),
    entry("f", "alice", undefined, [key], 500, 100, [1, 0]),
    entry("g", "alice", undefined, ["reflection"], 350, undefined, [1, 0]),
    entry("h", "alice", undefined, [key], 100, undefined, undefined),
  ]);
  const keys = [key, "reflection", "entity:nowhere"];
  assert.deepEqual(newest(keys, alone, 150, 10), [["a", "B", "b", "c", "h"], ["g"], []]);
  assert.deepEqual(newest(keys, inChat, 150, 10), [["a", "d", "B", "C", "b", "c", "h"], ["g"], []]);
  assert.deepEqual(newest(keys, inChat, 150, 2), [["a", "d"], ["g"], []]);
  assert.deepEqual(newest(keys, alone, 50, 2), [["f", "a"], ["g"], []], "live before it lapses");
  assert.deepEqual(newest(keys, alone, 150, 0), [[], [], []]);
  const held = index.newest([key], alone, 150n, 10)[0];
  assert.deepEqual(held[0].embedding, [1, 0]);
  assert.equal(held[4].embedding, undefined, "h waits for its vector");

  // A new moment, through setRecords and through upsert, with the same keys.
  index.setRecords([{ id: "c", record: '{"id":"c"}', marks: { keys: [key], lapses: undefined, observed: 600n, made: 0n } }]);
  assert.deepEqual(newest([key], alone, 150, 2), [["c", "a"]]);
  index.upsert([entry("b", "alice", undefined, [key], 700, undefined, [0, 1])]);
  assert.deepEqual(newest([key], alone, 150, 2), [["b", "c"]]);
  index.upsert([entry("b", "bob", undefined, [key], 700, undefined, [0, 1])]);
  index.remove(["a"]);
  assert.deepEqual(newest([key], alone, 150, 10), [["c", "B", "h"]]);
  assert.deepEqual(newest([key], { kind: "memory", userId: "bob" }, 150, 10), [["b", "e"]]);
  index.close();
});

test("recent lists the most recently made, equal moments latest indexed first", () => {
  // The Rust host's case (host/src/index/tests), on this host's index.
  const file = path.join(scratchDir("ash-index-"), "memory.db");
  const index = new SqliteIndex(file);
  index.clear({ model: "m", dimension: 2 });
  const entry = (id, user, chat, made, lapses, kept = true) => ({
    kind: "memory", id, content: id, ownerUserId: user, chatId: chat, embedding: id === "d" ? [0, 1] : [1, 0],
    record: kept ? `{"id":"${id}"}` : undefined,
    marks: { keys: [], lapses: lapses === undefined ? undefined : BigInt(lapses), observed: BigInt(made), made: BigInt(made) },
  });
  const alone = { kind: "memory", userId: "alice" };
  const inChat = { kind: "memory", userId: "alice", chatId: "c1" };
  const recent = (scope, now, limit) => index.recent(scope, now, limit).map((h) => {
    assert.equal(h.record, `{"id":"${h.id}"}`);
    return h.id;
  });
  index.upsert([
    entry("b", "alice", undefined, 200),
    entry("a", "alice", undefined, 100),
    entry("c", "alice", undefined, 200),
    entry("e", "alice", undefined, 200),
    entry("d", "alice", undefined, 300, 150),
    entry("f", undefined, "c1", 250),
    entry("g", undefined, "c1", 200),
    entry("h", "alice", undefined, 400, undefined, false),
    entry("i", "bob", undefined, 500),
  ]);
  // Upserted again, b keeps its place; removed and upserted again, c is indexed anew.
  index.upsert([entry("b", "alice", undefined, 200)]);
  index.remove(["c"]);
  index.upsert([entry("c", "alice", undefined, 200)]);

  assert.deepEqual(recent(alone, undefined, 10), ["d", "c", "e", "b", "a"], "h has no record");
  assert.deepEqual(recent(alone, 200n, 10), ["c", "e", "b", "a"], "d lapsed at 150");
  assert.deepEqual(recent(inChat, undefined, 10), ["d", "f", "c", "g", "e", "b", "a"]);
  assert.deepEqual(recent(inChat, undefined, 2), ["d", "f"]);
  assert.deepEqual(recent(inChat, undefined, 0), []);
  assert.deepEqual(recent({ kind: "memory", userId: "bob" }, undefined, 10), ["i"]);
  const held = index.recent(alone, undefined, 10);
  assert.deepEqual(held[0], { id: "d", record: '{"id":"d"}', embedding: [0, 1] });
  index.close();
});

test("coarse codes: over the largest component, halves away from zero, one per stored vector through every write", () => {
  // The Rust host's case (host/src/index/coarse.rs): over 128 and times 127 every step is
  // exact, and 64 is 63.5, a half either way.
  const [scale, code] = coarseCode([128, -64, 64, 32, 0.5, 0]);
  assert.deepEqual([...new Int8Array(code.buffer, code.byteOffset, code.length)], [127, -64, 64, 32, 0, 0]);
  assert.equal(scale, 128 / (127 * Math.sqrt(128 * 128 + 2 * 64 * 64 + 32 * 32 + 0.25)));

  const file = path.join(scratchDir("ash-index-"), "memory.db");
  const index = new SqliteIndex(file);
  index.clear({ model: "m", dimension: 2 });
  const entry = (id, user, embedding) => ({ kind: "memory", id, content: id, ownerUserId: user, embedding });
  index.upsert([entry("a", "alice", [1, 0.5]), entry("b", "alice", [0, 2]), entry("c", "bob", [3, 1]), entry("d", "alice", [0, 0])]);
  index.upsert([entry("a", "bob", [0.5, 1]), entry("b", "alice", undefined)]);
  index.remove(["c"]);
  index.close();
  const db = new Database(file, { readonly: true });
  const codes = db
    .prepare("SELECT items.id, codes.scope, codes.scale, codes.code FROM codes JOIN items ON items.rowid = codes.item ORDER BY 1")
    .raw()
    .all();
  db.close();
  // d has no direction and b no vector any more: neither has a code; a moved to bob.
  assert.deepEqual(codes, [["a", "u:bob", ...coarseCode([0.5, 1])]]);
  assert.deepEqual([...codes[0][3]], [64, 127]);
});
