// The SQLite index's error variants: SQLite's "corrupt" family, extended codes included,
// is `unavailable` as in the Rust host (rusqlite compares primary codes), so that the
// guest's message and its rebuild decision are the same on both hosts.

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
  const scope = { userId: "alice", chatId: undefined };
  index.upsert(Array.from({ length: 30 }, (_, i) => ({
    id: `id-${i}`, content: `peanut allergy note ${i} word${i}`, ownerUserId: "alice", embedding: new Float32Array([1, i]),
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
