// The SQLite index: memories and messages kept apart by kind, as the Rust host keeps them
// (the same scope keys and meta rows); and its error variants: SQLite's "corrupt" family,
// extended codes included, is `unavailable` as in the Rust host (rusqlite compares primary
// codes), so that the guest's message and its rebuild decision are the same on both hosts.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { SqliteIndex } from "../src/sqlite-index.js";
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
  db.close();

  assert.equal(index.reflects("memory"), undefined);
  index.setReflects("memory", { generation: 7n, end: 10n });
  index.setReflects("message", { generation: 8n, end: 20n });
  assert.deepEqual(index.reflects("memory"), { generation: 7n, end: 10n });
  assert.deepEqual(index.reflects("message"), { generation: 8n, end: 20n });
  const meta = new Database(file, { readonly: true });
  assert.equal(meta.prepare("SELECT value FROM meta WHERE key = 'reflects_messages'").pluck().get(), "8 20");
  meta.close();
  index.clear({ model: "m", dimension: 2 });
  assert.equal(index.reflects("memory"), undefined);
  assert.equal(index.reflects("message"), undefined);
  assert.equal(index.count("memory"), 0n);
  assert.equal(index.count("message"), 0n);
  index.close();
});
