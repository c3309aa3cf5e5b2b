// The `index` import on SQLite (better-sqlite3) with the sqlite-vec extension and FTS5, with
// the Rust host's schema, table names, scope keys and meta rows (host/src/index/mod.rs), so
// that a data/memory.db written by one host is used by the other without a rebuild.
// Memories and conversation messages share the tables, kept apart by their scope keys.

import fs from "node:fs";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { FILE_MODE } from "./home.js";

/** The most neighbours one knn returns (sqlite-vec refuses k above 4096). */
export const MAX_K = 4096;

/**
 * Vectors per sqlite-vec chunk: the Rust host's `VECTOR_CHUNK_SLOTS` (host/src/index/mod.rs;
 * docs/performance.md has the figures), so that an index is laid out the same whichever host made it.
 */
export const VECTOR_CHUNK_SLOTS = 128;

/**
 * The tables, made on every open. `items.keys` (a JSON list) and `items.lapses` with `marks`
 * are the entries' marks (see `tally` and `holding`), `items.made` their made moment (see
 * `recent`); `codes` holds each vector's coarse code (`coarseCode`), which this host writes
 * and the Rust host's one-shot searches read.
 */
const SCHEMA = `
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS items (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, scope TEXT NOT NULL, pending INTEGER NOT NULL DEFAULT 0, record TEXT, lapses INTEGER, keys TEXT, observed INTEGER, made INTEGER);
    CREATE TABLE IF NOT EXISTS marks (key TEXT NOT NULL, scope TEXT NOT NULL, item INTEGER NOT NULL, lapses INTEGER, observed INTEGER, id TEXT, PRIMARY KEY (key, scope, item)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS codes (scope TEXT NOT NULL, item INTEGER NOT NULL, scale REAL NOT NULL, code BLOB NOT NULL, PRIMARY KEY (scope, item)) WITHOUT ROWID;
    CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5 (content, tokenize = 'porter unicode61');
`;

/**
 * The items table's indexes: a scope's live entries counted from `items_scope` (scope,
 * lapses) alone, the entries without a vector, which `pending` counts, and a scope's entries
 * by made moment, which `recent` walks backwards (an index entry ends with its rowid, so
 * `items_made` is in (made, rowid) order within a scope). Not in `SCHEMA`,
 * which runs on every open: they name columns an older version's items table lacks, and
 * would fail there before `info` can say why the index is rebuilt. Made once the table has
 * them.
 */
const ITEM_INDEXES = `
    CREATE INDEX IF NOT EXISTS items_scope ON items (scope, lapses);
    CREATE INDEX IF NOT EXISTS items_pending ON items (scope) WHERE pending = 1;
    CREATE INDEX IF NOT EXISTS marks_newest ON marks (key, scope, observed DESC, id, lapses);
    CREATE INDEX IF NOT EXISTS items_made ON items (scope, made);
`;

/** Why an index whose items table lacks the record and marks columns is not used. */
const OLDER_VERSION = "the index was built by an older version, which kept no records, marks or moments: it is rebuilt";

const unavailable = (m) => ({ tag: "unavailable", val: String(m) });
const sqlErr = (m) => ({ tag: "sql", val: String(m) });

/**
 * SQLite's "not a database" and "corrupt" mean the file must be rebuilt. better-sqlite3
 * gives extended codes (FTS5 says SQLITE_CORRUPT_VTAB); rusqlite compares primary ones.
 */
function sql(e) {
  if (e && e.tag) return e;
  const code = e && typeof e.code === "string" ? e.code : "";
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT" || code.startsWith("SQLITE_CORRUPT_")) {
    return unavailable(e.message);
  }
  return sqlErr(e && e.message ? e.message : e);
}

/**
 * What an entry kind's scope keys start with: nothing for memories (so that indexes built
 * before messages existed stay valid), `m` for messages.
 * @param {"memory" | "message" | undefined} kind
 */
function kindPrefix(kind) {
  switch (kind) {
    case undefined:
    case "memory":
      return "";
    case "message":
      return "m";
    default:
      throw sqlErr(`unknown entry kind ${JSON.stringify(kind)}`);
  }
}

/**
 * A vector's coarse code, as the Rust host's `index::coarse` makes it: each component over
 * the largest, times 127, rounded half away from zero (in doubles, as there), and the
 * scale that turns the code's dot product with a unit query back into a cosine. The vector
 * has a direction (`usable`).
 * @param {ArrayLike<number>} v
 * @returns {[number, Buffer]}
 */
export function coarseCode(v) {
  let largest = 0;
  let squares = 0;
  for (const x of v) {
    largest = Math.max(largest, Math.abs(x));
    squares += x * x;
  }
  const code = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const t = (v[i] / largest) * 127;
    const a = Math.abs(t);
    let r = Math.floor(a);
    if (a - r >= 0.5) r += 1;
    code[i] = t < 0 ? -r : r;
  }
  return [largest / (127 * Math.sqrt(squares)), Buffer.from(code.buffer)];
}

/** The most holders of a key `newest` hands out (the WIT's cap). */
const MAX_NEWEST = 4096;

/** The most entries `recent` hands out (the WIT's cap, as `newest`'s). */
const MAX_RECENT = 4096;

/** The meta key of the collection state an entry kind reflects. */
function reflectsKey(kind) {
  // Not the keys that versions keeping no records, marks, coarse codes, observed or made
  // moments move (`reflects_observed` is the last of them; see the Rust host's index).
  // Messages have no marks, so their key did not move with the moments.
  return kindPrefix(kind) === "" ? "reflects_made" : "reflects_message_codes";
}

/**
 * The scope keys a filter admits: `u:<user>` personal, `c:<chat>` group, after the kind's
 * prefix (`mu:`, `mc:` for messages).
 */
function scopeKeys(scope) {
  const kind = kindPrefix(scope.kind);
  const keys = [];
  if (scope.userId !== undefined && scope.userId !== null) keys.push(`${kind}u:${scope.userId}`);
  if (scope.chatId !== undefined && scope.chatId !== null) keys.push(`${kind}c:${scope.chatId}`);
  return keys;
}

/** An entry's scope key: a chat makes it a group entry, else the owner's; kinds never share one. */
function entryScope(e) {
  const kind = kindPrefix(e.kind);
  if (e.chatId !== undefined && e.chatId !== null) return `${kind}c:${e.chatId}`;
  if (e.ownerUserId !== undefined && e.ownerUserId !== null) return `${kind}u:${e.ownerUserId}`;
  return `${kind}none`;
}

/** Whether a vector has a direction: finite components, a norm that is not zero. */
export function usable(v) {
  let norm = 0;
  for (const x of v) {
    if (!Number.isFinite(x)) return false;
    norm += x * x;
  }
  return Number.isFinite(norm) && norm > 1e-12;
}

/** Little-endian f32 bytes, as sqlite-vec stores them. */
function f32Bytes(v) {
  const a = v instanceof Float32Array ? v : Float32Array.from(v);
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** A vector from sqlite-vec's little-endian f32 bytes; undefined if they are not that. */
function f32List(blob) {
  if (!Buffer.isBuffer(blob) || blob.length % 4 !== 0) return undefined;
  const v = new Array(blob.length / 4);
  for (let i = 0; i < v.length; i++) v[i] = blob.readFloatLE(i * 4);
  return v;
}

/** How many of the record, marks and moment columns the tables have (an older version's lack some). */
const RECORD_COLUMNS = `SELECT (SELECT count(*) FROM pragma_table_info('items') WHERE name IN ('record', 'pending', 'lapses', 'keys', 'observed', 'made'))
  + (SELECT count(*) FROM pragma_table_info('marks') WHERE name IN ('observed', 'id'))`;

/** Whether the tables have the record, marks and moment columns. */
function hasRecordColumns(db) {
  return db.prepare(RECORD_COLUMNS).pluck().get() === 8;
}

/** An item's rowid, scope and marks columns by id (see `remark`). */
const FIND = "SELECT rowid, scope, keys, lapses, observed FROM items WHERE id = ?";

/** The memory scope keys of a filter; a filter of messages has none (no message has marks). */
function memoryScopes(scope) {
  return kindPrefix(scope.kind) === "" ? scopeKeys(scope) : [];
}

/** An entry's marks, as the guest gives them (none for a message). */
function marksOf(m) {
  return { keys: m?.keys ?? [], lapses: m?.lapses ?? null, observed: m?.observed ?? 0n, made: m?.made ?? 0n };
}

/** The SQLite index file, opened on first use. */
export class SqliteIndex {
  /** @param {string} file */
  constructor(file) {
    this.path = file;
    this.db = null;
    this.stmts = new Map();
  }

  /** The connection, opened (and the schema made) on first use. */
  conn() {
    if (!this.db) {
      // Created owner-only; SQLite gives its -wal and -shm files the same mode.
      if (!fs.existsSync(this.path)) {
        try {
          fs.closeSync(fs.openSync(this.path, "a", FILE_MODE));
        } catch {
          // SQLite reports it below.
        }
      }
      let db;
      try {
        db = new Database(this.path);
        sqliteVec.load(db);
        // A junk file opens fine; the first real statement is what fails.
        db.exec(SCHEMA);
        // An older file's items table is kept as it is: `info` reports it.
        if (hasRecordColumns(db)) db.exec(ITEM_INDEXES);
      } catch (e) {
        try { db?.close(); } catch { /* half open */ }
        throw unavailable(e.message);
      }
      try {
        // WAL writes each changed page once; the Rust host measured half the bytes per add.
        db.pragma("journal_mode = WAL");
        db.pragma("synchronous = NORMAL");
        // Freed pages are zeroed: a forgotten memory's text does not stay in them.
        db.pragma("secure_delete = ON");
      } catch (e) {
        db.close();
        throw sql(e);
      }
      this.db = db;
      this.stmts.clear();
    }
    return this.db;
  }

  /** A cached prepared statement. */
  stmt(text) {
    const db = this.conn();
    let s = this.stmts.get(text);
    if (!s) {
      s = db.prepare(text);
      this.stmts.set(text, s);
    }
    return s;
  }

  /** Runs `f`, turning SQLite errors into the interface's. */
  guard(f) {
    try {
      return f();
    } catch (e) {
      throw sql(e);
    }
  }

  /** The model and dimension recorded by the last `clear`, if any. */
  info() {
    return this.guard(() => {
      const get = (key) => this.stmt("SELECT value FROM meta WHERE key = ?").pluck().get(key);
      const model = get("model");
      const dim = get("dimension");
      if (model === undefined || dim === undefined) return undefined;
      if (!/^\+?\d+$/.test(dim) || Number(dim) > 0xffffffff) throw unavailable(`bad dimension ${JSON.stringify(dim)}`);
      // The vector table must exist too, or the file is from a half-done clear.
      if (!this.hasVectors()) throw unavailable("the vector table is missing");
      // An older version's items table keeps no records: the guest rebuilds the index.
      if (!hasRecordColumns(this.conn())) throw unavailable(OLDER_VERSION);
      return { model, dimension: Number(dim) };
    });
  }

  hasVectors() {
    return this.stmt("SELECT count(*) FROM sqlite_master WHERE name = 'vecs'").pluck().get() > 0;
  }

  dimension() {
    const info = this.info();
    if (!info) throw unavailable("the index is not initialized");
    return info.dimension;
  }

  /**
   * Empties the index (both kinds, and both reflects rows) for `info`'s model; a file SQLite
   * cannot use is made anew.
   */
  clear(info) {
    let usableFile = true;
    try {
      this.conn();
      this.info();
    } catch {
      usableFile = false;
    }
    if (!usableFile) {
      try { this.db?.close(); } catch { /* broken */ }
      this.db = null;
      for (const suffix of ["", "-journal", "-wal", "-shm"]) {
        try { fs.unlinkSync(this.path + suffix); } catch { /* absent */ }
      }
    }
    const dim = info.dimension >>> 0;
    const db = this.conn();
    this.guard(() => {
      db.transaction(() => {
        // Dropped, not emptied: an older version's table lacks the record columns.
        db.exec(`DROP TABLE IF EXISTS items; DELETE FROM meta;
             DROP TABLE IF EXISTS fts; DROP TABLE IF EXISTS marks; DROP TABLE IF EXISTS codes;
             ${SCHEMA}
             ${ITEM_INDEXES}
             DROP TABLE IF EXISTS vecs;
             CREATE VIRTUAL TABLE vecs USING vec0 (
                 scope TEXT PARTITION KEY,
                 embedding FLOAT[${dim}] distance_metric=cosine,
                 chunk_size = ${VECTOR_CHUNK_SLOTS}
             );`);
        db.prepare("INSERT INTO meta (key, value) VALUES ('model', ?), ('dimension', ?)").run(info.model, String(dim));
      })();
    });
    // The vecs and items tables were dropped: statements prepared against them are stale.
    this.stmts.clear();
  }

  /**
   * Which state of the collection behind `kind` (memories.jsonl, messages.jsonl) the index
   * reflects; none after `clear`.
   * @param {"memory" | "message"} kind
   */
  reflects(kind) {
    return this.guard(() => {
      const v = this.stmt("SELECT value FROM meta WHERE key = ?").pluck().get(reflectsKey(kind));
      if (v === undefined) return undefined;
      const m = /^(\+?\d+) (\+?\d+)$/.exec(v);
      if (!m) return undefined;
      const generation = BigInt(m[1]);
      const end = BigInt(m[2]);
      if (generation >= 1n << 64n || end >= 1n << 64n) return undefined;
      return { generation, end };
    });
  }

  /**
   * Records the state of the collection behind `kind` the index now reflects.
   * @param {"memory" | "message"} kind
   */
  setReflects(kind, state) {
    const key = reflectsKey(kind);
    this.guard(() => {
      this.stmt("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(key, `${state.generation} ${state.end}`);
    });
  }

  /**
   * Inserts or replaces entries, with their records, in one transaction. A vector that is
   * not finite or has no direction is left out (full text only): sqlite-vec would answer
   * NULL distances. An entry without a stored vector is marked pending.
   */
  upsert(entries) {
    if (entries.length === 0) return;
    const dim = this.dimension();
    const bad = entries.find((e) => e.embedding && e.embedding.length !== dim);
    if (bad) throw { tag: "dimension-mismatch", val: [dim, bad.embedding.length] };
    const db = this.conn();
    this.guard(() => {
      const find = this.stmt(FIND).raw();
      const insertItem = this.stmt("INSERT INTO items (id, scope, pending, record, lapses, keys, observed, made) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
      // In place: an entry indexed again keeps its rowid, and so its place in `recent`.
      const setItem = this.stmt("UPDATE items SET scope = ?, pending = ?, record = ?, lapses = ?, keys = ?, observed = ?, made = ? WHERE rowid = ?");
      const delFts = this.stmt("DELETE FROM fts WHERE rowid = ?");
      const delVec = this.stmt("DELETE FROM vecs WHERE rowid = ?");
      const insFts = this.stmt("INSERT INTO fts (rowid, content) VALUES (?, ?)");
      const insVec = this.stmt("INSERT INTO vecs (rowid, scope, embedding) VALUES (?, ?, ?)");
      const delCode = this.stmt("DELETE FROM codes WHERE scope = ? AND item = ?");
      const insCode = this.stmt("INSERT OR REPLACE INTO codes (scope, item, scale, code) VALUES (?, ?, ?, ?)");
      db.transaction(() => {
        for (const e of entries) {
          const scope = entryScope(e);
          const vector = e.embedding && usable(e.embedding) ? e.embedding : undefined;
          const pending = vector === undefined ? 1 : 0;
          const record = e.record ?? null;
          const marks = marksOf(e.marks);
          const keys = JSON.stringify(marks.keys);
          const existing = find.get(e.id);
          let rowid;
          if (existing !== undefined) {
            rowid = existing[0];
            setItem.run(scope, pending, record, marks.lapses, keys, marks.observed, marks.made, rowid);
            delFts.run(rowid);
            delVec.run(rowid);
            delCode.run(existing[1], rowid);
          } else {
            rowid = insertItem.run(e.id, scope, pending, record, marks.lapses, keys, marks.observed, marks.made).lastInsertRowid;
          }
          this.remark(rowid, existing, scope, keys, marks);
          insFts.run(rowid, e.content);
          if (vector !== undefined) {
            // The code is of the vector as stored, in f32, as the Rust host codes it.
            const stored = Float32Array.from(vector);
            insVec.run(BigInt(rowid), scope, f32Bytes(stored));
            const [scale, code] = coarseCode(stored);
            insCode.run(scope, rowid, scale, code);
          }
        }
      })();
    });
  }

  /** Removes entries by id; unknown ids are ignored. */
  remove(ids) {
    if (ids.length === 0) return;
    const db = this.conn();
    this.guard(() => {
      const hasVecs = this.hasVectors();
      db.transaction(() => {
        for (const id of ids) {
          const row = db.prepare("SELECT rowid, scope, keys FROM items WHERE id = ?").raw().get(id);
          if (row === undefined) continue;
          const [rowid, scope, keys] = row;
          this.unmark(rowid, scope, keys);
          db.prepare("DELETE FROM codes WHERE scope = ? AND item = ?").run(scope, rowid);
          db.prepare("DELETE FROM fts WHERE rowid = ?").run(rowid);
          if (hasVecs) db.prepare("DELETE FROM vecs WHERE rowid = ?").run(rowid);
          db.prepare("DELETE FROM items WHERE rowid = ?").run(rowid);
        }
      })();
    });
  }

  /**
   * The `k` nearest vectors within the scopes by cosine similarity, best first; one KNN
   * per scope key (the partition key makes each a scan of that scope only).
   */
  knn(query, k, scope) {
    const dim = this.dimension();
    if (query.length !== dim) throw { tag: "dimension-mismatch", val: [dim, query.length] };
    k = Math.min(k, MAX_K);
    if (k === 0 || !usable(query)) return [];
    return this.guard(() => {
      const stmt = this.stmt(
        `SELECT items.id, v.distance FROM
                   (SELECT rowid, distance FROM vecs WHERE embedding MATCH ? AND k = ? AND scope = ?) v
                 JOIN items ON items.rowid = v.rowid`,
      ).raw();
      const q = f32Bytes(query);
      const hits = [];
      for (const key of scopeKeys(scope)) {
        for (const [id, distance] of stmt.all(q, k, key)) {
          if (typeof distance === "number" && Number.isFinite(distance)) {
            hits.push({ id, score: Math.fround(1 - Math.fround(distance)) });
          }
        }
      }
      // Stable, like Rust's sort_by on total_cmp.
      hits.sort((a, b) => b.score - a.score);
      return hits.slice(0, k);
    });
  }

  /** BM25 full-text search for any of the quoted terms within the scopes, best first. */
  textSearch(terms, k, scope) {
    const keys = scopeKeys(scope);
    const quoted = terms
      .map((t) => t.trim())
      .filter((t) => t !== "")
      .map((t) => `"${t.replaceAll('"', '""')}"`);
    if (quoted.length === 0 || keys.length === 0) return [];
    return this.guard(() => {
      const stmt = this.stmt(
        `SELECT items.id, bm25(fts) FROM fts JOIN items ON items.rowid = fts.rowid
                 WHERE fts MATCH ? AND items.scope IN (?, ?)
                 ORDER BY bm25(fts), fts.rowid LIMIT ?`,
      ).raw();
      const rows = stmt.all(quoted.join(" OR "), keys[0], keys[1] ?? keys[0], k);
      // bm25() is lower-is-better; negate so that higher is better.
      return rows.map(([id, rank]) => ({ id, score: -Math.fround(rank) }));
    });
  }

  /**
   * How many entries of this kind the index holds. Message scope keys start with `m`;
   * memory keys with `u`, `c` or `n`.
   * @param {"memory" | "message"} kind
   */
  count(kind) {
    const sql = kindPrefix(kind) === ""
      ? "SELECT count(*) FROM items WHERE scope NOT LIKE 'm%'"
      : "SELECT count(*) FROM items WHERE scope LIKE 'm%'";
    return this.guard(() => BigInt(this.stmt(sql).pluck().get()));
  }

  /**
   * The records of these ids with their vectors, in the order asked; an id not held, or held
   * without a record, is left out. The vector is undefined while it is pending.
   * @param {string[]} ids
   */
  fetch(ids) {
    if (ids.length === 0) return [];
    // Refuses an older version's index, as every other read does through `dimension`.
    const hasVecs = this.info() !== undefined;
    return this.guard(() => {
      const item = this.stmt("SELECT rowid, record FROM items WHERE id = ?").raw();
      const vector = hasVecs ? this.stmt("SELECT embedding FROM vecs WHERE rowid = ?").pluck() : null;
      const held = [];
      for (const id of ids) {
        const row = item.get(id);
        if (row === undefined || row[1] === null || row[1] === undefined) continue;
        const [rowid, record] = row;
        const blob = vector ? vector.get(BigInt(rowid)) : undefined;
        held.push({ id, record: String(record), embedding: blob === undefined ? undefined : f32List(blob) });
      }
      return held;
    });
  }

  /**
   * Replaces the record and marks of entries already held, in one transaction, leaving their
   * text, vector and scope as they are; unknown ids are ignored.
   * @param {{id: string, record: string, marks: {keys: string[], lapses?: bigint, observed: bigint, made: bigint}}[]} revisions
   */
  setRecords(revisions) {
    if (revisions.length === 0) return;
    const db = this.conn();
    this.guard(() => {
      const find = this.stmt(FIND).raw();
      const set = this.stmt("UPDATE items SET record = ?, lapses = ?, keys = ?, observed = ?, made = ? WHERE rowid = ?");
      db.transaction(() => {
        for (const r of revisions) {
          const row = find.get(r.id);
          if (row === undefined) continue;
          const marks = marksOf(r.marks);
          const keys = JSON.stringify(marks.keys);
          set.run(r.record, marks.lapses, keys, marks.observed, marks.made, row[0]);
          this.remark(row[0], row, row[1], keys, marks);
        }
      })();
    });
  }

  /**
   * Replaces an entry's marks rows with `marks` in `scope` (`keys` is their JSON list), leaving
   * them alone when they are the ones it had (`old`, the row `FIND` gave): an access or a
   * replay writes a record again with the same marks (see the Rust host's `marks::remark`).
   */
  remark(rowid, old, scope, keys, marks) {
    if (old !== undefined) {
      const [, oldScope, oldKeys, oldLapses, oldObserved] = old;
      const sameLapses = (oldLapses ?? null) === null ? marks.lapses === null : String(oldLapses) === String(marks.lapses);
      const sameObserved = (oldObserved ?? null) !== null && String(oldObserved) === String(marks.observed);
      if (oldScope === scope && oldKeys === keys && sameLapses && sameObserved) return;
      this.unmark(rowid, oldScope, oldKeys);
    }
    this.mark(rowid, scope, marks);
  }

  /** Drops an entry's marks rows, as its `items.keys` lists them. */
  unmark(rowid, scope, keys) {
    if (keys === null || keys === undefined) return;
    this.stmt("DELETE FROM marks WHERE item = ? AND scope = ? AND key IN (SELECT value FROM json_each(?))").run(rowid, scope, keys);
  }

  /** Writes an entry's marks rows. */
  mark(rowid, scope, marks) {
    const insert = this.stmt("INSERT OR IGNORE INTO marks (key, scope, item, lapses, observed, id) VALUES (?, ?, ?, ?, ?, (SELECT id FROM items WHERE rowid = ?))");
    for (const key of marks.keys) insert.run(key, scope, rowid, marks.lapses, marks.observed, rowid);
  }

  /**
   * Of the entries within the scopes live at `now` (microseconds), how many there are and how
   * many hold each key.
   * @param {string[]} keys
   */
  tally(keys, scope, now) {
    const scopes = memoryScopes(scope);
    return this.guard(() => {
      const live = this.stmt("SELECT count(*) FROM items WHERE scope = ? AND (lapses IS NULL OR lapses > ?)").pluck();
      const holders = this.stmt("SELECT count(*) FROM marks WHERE key = ? AND scope = ? AND (lapses IS NULL OR lapses > ?)").pluck();
      let total = 0n;
      const holding = keys.map(() => 0n);
      for (const s of scopes) {
        total += BigInt(live.get(s, BigInt(now)));
        keys.forEach((key, i) => {
          holding[i] += BigInt(holders.get(key, s, BigInt(now)));
        });
      }
      return { live: total, holding };
    });
  }

  /**
   * The records of the entries within the scopes, live at `now`, holding any of the keys, each
   * once, in the order they were indexed.
   * @param {string[]} keys
   */
  holding(keys, scope, now) {
    const scopes = memoryScopes(scope);
    if (keys.length === 0 || scopes.length === 0) return [];
    // Refuses an older version's index, as every other read does through `dimension`.
    const hasVecs = this.info() !== undefined;
    return this.guard(() => {
      const holders = this.stmt("SELECT item FROM marks WHERE key = ? AND scope = ? AND (lapses IS NULL OR lapses > ?)").pluck();
      const items = new Set();
      for (const s of scopes) {
        for (const key of keys) {
          for (const rowid of holders.all(key, s, BigInt(now))) items.add(Number(rowid));
        }
      }
      const item = this.stmt("SELECT id, record FROM items WHERE rowid = ?").raw();
      const vector = hasVecs ? this.stmt("SELECT embedding FROM vecs WHERE rowid = ?").pluck() : null;
      const held = [];
      for (const rowid of [...items].sort((a, b) => a - b)) {
        const row = item.get(rowid);
        if (row === undefined || row[1] === null || row[1] === undefined) continue;
        const blob = vector ? vector.get(BigInt(rowid)) : undefined;
        held.push({ id: row[0], record: String(row[1]), embedding: blob === undefined ? undefined : f32List(blob) });
      }
      return held;
    });
  }

  /**
   * For each key, the records of its newest `limit` live holders within the scopes (at most
   * 4096), newest first by their observed moment, equal moments by id in byte order. Each
   * scope is walked newest first by `marks_newest` and stops at `limit`; the scopes' lists
   * are then merged (see the Rust host's `SqliteIndex::newest`).
   * @param {string[]} keys
   */
  newest(keys, scope, now, limit) {
    const scopes = memoryScopes(scope);
    const most = Math.min(Number(limit), MAX_NEWEST);
    // Refuses an older version's index, as every other read does through `dimension`.
    const hasVecs = this.info() !== undefined;
    return this.guard(() => {
      const holders = this.stmt(
        `SELECT m.observed, m.id, m.item, i.record FROM marks m JOIN items i ON i.rowid = m.item
         WHERE m.key = ? AND m.scope = ? AND (m.lapses IS NULL OR m.lapses > ?) AND i.record IS NOT NULL
         ORDER BY m.observed DESC, m.id LIMIT ?`,
      ).raw().safeIntegers();
      const vector = hasVecs ? this.stmt("SELECT embedding FROM vecs WHERE rowid = ?").pluck() : null;
      return keys.map((key) => {
        const found = [];
        if (most > 0) {
          for (const s of scopes) found.push(...holders.all(key, s, BigInt(now), BigInt(most)));
        }
        found.sort((a, b) => {
          const by = (b[0] ?? 0n) - (a[0] ?? 0n);
          return by !== 0n ? (by > 0n ? 1 : -1) : Buffer.compare(Buffer.from(a[1]), Buffer.from(b[1]));
        });
        return found.slice(0, most).map(([, id, rowid, record]) => {
          const blob = vector ? vector.get(rowid) : undefined;
          return { id, record: String(record), embedding: blob === undefined ? undefined : f32List(blob) };
        });
      });
    });
  }

  /**
   * The records of the entries within the scopes, the `limit` most recently made first (at
   * most 4096), equal moments the one first indexed later first (by rowid: an upsert updates
   * an entry in place, so it keeps its place; one removed and upserted again is indexed
   * anew). With `now` (bigint; undefined for none), only the entries live at `now`. Each
   * scope is walked backwards by `items_made` and stops at `limit`; the scopes' lists are then
   * merged (see the Rust host's `SqliteIndex::recent`).
   * @param {bigint | undefined | null} now
   */
  recent(scope, now, limit) {
    const scopes = memoryScopes(scope);
    const most = Math.min(Number(limit), MAX_RECENT);
    // Refuses an older version's index, as every other read does through `dimension`.
    const hasVecs = this.info() !== undefined;
    if (most === 0 || scopes.length === 0) return [];
    return this.guard(() => {
      // Two statements rather than `? IS NULL OR ...`, so that each plan is plain.
      const live = now !== undefined && now !== null;
      const entries = this.stmt(live
        ? `SELECT made, rowid, id, record FROM items
           WHERE scope = ? AND record IS NOT NULL AND (lapses IS NULL OR lapses > ?)
           ORDER BY made DESC, rowid DESC LIMIT ?`
        : `SELECT made, rowid, id, record FROM items
           WHERE scope = ? AND record IS NOT NULL
           ORDER BY made DESC, rowid DESC LIMIT ?`,
      ).raw().safeIntegers();
      const vector = hasVecs ? this.stmt("SELECT embedding FROM vecs WHERE rowid = ?").pluck() : null;
      const found = [];
      for (const s of scopes) {
        found.push(...(live ? entries.all(s, BigInt(now), BigInt(most)) : entries.all(s, BigInt(most))));
      }
      // Bigints both (safeIntegers): a moment or a rowid past 2^53 still compares exactly.
      found.sort((a, b) => {
        const by = (b[0] ?? 0n) - (a[0] ?? 0n);
        if (by !== 0n) return by > 0n ? 1 : -1;
        return b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : 0;
      });
      return found.slice(0, most).map(([, rowid, id, record]) => {
        const blob = vector ? vector.get(rowid) : undefined;
        return { id, record: String(record), embedding: blob === undefined ? undefined : f32List(blob) };
      });
    });
  }

  /**
   * How many entries of this kind are held without a vector (embeddings still pending).
   * @param {"memory" | "message"} kind
   */
  pending(kind) {
    const sql = kindPrefix(kind) === ""
      ? "SELECT count(*) FROM items WHERE pending = 1 AND scope NOT LIKE 'm%'"
      : "SELECT count(*) FROM items WHERE pending = 1 AND scope LIKE 'm%'";
    return this.guard(() => BigInt(this.stmt(sql).pluck().get()));
  }

  /** Closes the connection. */
  close() {
    if (this.db) {
      this.db.close();
      this.db = null;
      this.stmts.clear();
    }
  }
}
