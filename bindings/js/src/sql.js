// The `sql` import (wit/sql.wit): the home's index file on better-sqlite3 with the sqlite-vec
// extension and FTS5. The index itself is the Rust host's, compiled into the component
// (`index/wasm`); this runs the statements it is given and nothing more.

import fs from "node:fs";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { FILE_MODE } from "./home.js";

/** The interface's `error` for a SQLite failure: "not a database" and "corrupt" make the file unusable. */
function sqlError(e) {
  if (e && e.tag) return e;
  const code = e && typeof e.code === "string" ? e.code : "";
  const message = e && e.message ? e.message : String(e);
  // better-sqlite3 gives extended codes (FTS5 says SQLITE_CORRUPT_VTAB).
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT" || code.startsWith("SQLITE_CORRUPT_")) {
    return { tag: "unusable", val: message };
  }
  return { tag: "failed", val: message };
}

/**
 * The parameters, from `encoded-values` (wit/sql.wit), bound to `?1`, `?2`, ... as the index
 * numbers them (better-sqlite3 takes numbered ones by key); integers as BigInt, so that 64
 * bits survive.
 * @param {string} encoded
 */
function numbered(encoded) {
  const values = decodeValues(encoded);
  if (!values.length) return [];
  const out = {};
  values.forEach((v, i) => { out[i + 1] = v; });
  return [out];
}

/**
 * `encoded-values` (wit/sql.wit) as the values better-sqlite3 binds: integers as BigInt, so
 * that 64 bits survive.
 * @param {string} encoded
 */
function decodeValues(encoded) {
  const bytes = Buffer.from(encoded, "base64");
  const out = [];
  let at = 0;
  const bad = () => ({ tag: "failed", val: "malformed parameters" });
  while (at < bytes.length) {
    const tag = bytes[at++];
    let v;
    if (tag === 0) v = null;
    else if (tag === 1 || tag === 2) {
      if (at + 8 > bytes.length) throw bad();
      v = tag === 1 ? bytes.readBigInt64LE(at) : bytes.readDoubleLE(at);
      at += 8;
    } else if (tag === 3 || tag === 4) {
      if (at + 4 > bytes.length) throw bad();
      const len = bytes.readUInt32LE(at);
      at += 4;
      if (at + len > bytes.length) throw bad();
      v = tag === 3 ? bytes.toString("utf8", at, at + len) : bytes.subarray(at, at + len);
      at += len;
    } else throw bad();
    out.push(v);
  }
  return out;
}

/**
 * Rows as `encoded-rows` (wit/sql.wit): each column a tag byte and its bytes, little-endian, in base64.
 * Statements read with safe integers, so an integer is a BigInt and a number is a real.
 * @param {unknown[][]} rows
 */
function encodeRows(rows) {
  let size = 0;
  for (const row of rows) {
    for (const c of row) {
      if (c === null || c === undefined) size += 1;
      else if (typeof c === "bigint" || typeof c === "number") size += 9;
      else if (typeof c === "string") size += 5 + Buffer.byteLength(c);
      else size += 5 + c.byteLength;
    }
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const row of rows) {
    for (const c of row) {
      if (c === null || c === undefined) {
        out[at++] = 0;
      } else if (typeof c === "bigint") {
        out[at++] = 1;
        out.writeBigInt64LE(c, at);
        at += 8;
      } else if (typeof c === "number") {
        out[at++] = 2;
        out.writeDoubleLE(c, at);
        at += 8;
      } else if (typeof c === "string") {
        out[at++] = 3;
        const len = out.write(c, at + 4, "utf8");
        out.writeUInt32LE(len, at);
        at += 4 + len;
      } else {
        out[at++] = 4;
        out.writeUInt32LE(c.byteLength, at);
        out.set(c, at + 4);
        at += 4 + c.byteLength;
      }
    }
  }
  return out.toString("base64", 0, at);
}

/** One connection to the home's index file, opened when the index asks. */
export class SqlConnection {
  /** @param {string} file the index file */
  constructor(file) {
    this.path = file;
    this.db = null;
    this.stmts = new Map();
  }

  /** Opens the file if it is not open; true when this call opened it. */
  open() {
    if (this.db) return false;
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
    } catch (e) {
      try { db?.close(); } catch { /* half open */ }
      throw { tag: "unusable", val: e && e.message ? e.message : String(e) };
    }
    this.db = db;
    this.stmts.clear();
    return true;
  }

  /** Closes the connection, if open. */
  close() {
    this.stmts.clear();
    try { this.db?.close(); } catch { /* already broken */ }
    this.db = null;
  }

  /** Closes the connection and deletes the file and its journals. */
  reset() {
    this.close();
    for (const suffix of ["", "-journal", "-wal", "-shm"]) {
      try { fs.unlinkSync(this.path + suffix); } catch { /* absent */ }
    }
  }

  /** Every row of a statement that reads: [columns, encoded rows]. */
  query(text, params) {
    const stmt = this.stmt(text);
    return this.guard(() => {
      const args = numbered(params);
      if (!stmt.reader) {
        stmt.run(...args);
        return [0, ""];
      }
      return [stmt.columns().length, encodeRows(stmt.all(...args))];
    });
  }

  /** Runs a statement that writes. */
  execute(text, params) {
    const stmt = this.stmt(text);
    return this.guard(() => {
      const info = stmt.run(...numbered(params));
      return { changes: BigInt(info.changes), lastRowid: BigInt(info.lastInsertRowid) };
    });
  }

  /** Runs a statement that writes once for every `width` parameters; the rows changed in all. */
  executeEach(text, width, params) {
    const stmt = this.stmt(text);
    return this.guard(() => {
      const values = decodeValues(params);
      if (width < 1 || values.length % width !== 0) {
        throw { tag: "failed", val: `${values.length} parameters do not make rows of ${width}` };
      }
      let changes = 0;
      const row = {};
      for (let at = 0; at < values.length; at += width) {
        for (let i = 0; i < width; i++) row[i + 1] = values[at + i];
        changes += stmt.run(row).changes;
      }
      return BigInt(changes);
    });
  }

  /** Runs statements without parameters or rows: the tables made on open, or a whole clear. */
  batch(text) {
    this.guard(() => this.connection().exec(text));
    // Tables may have been dropped and made again: prepare against the new ones.
    this.stmts.clear();
  }

  /** The open connection; the index opens it before any statement. */
  connection() {
    if (!this.db) throw { tag: "failed", val: "the index file is not open" };
    return this.db;
  }

  /** A cached prepared statement, reading rows as arrays with 64-bit integers. */
  stmt(text) {
    let s = this.stmts.get(text);
    if (!s) {
      s = this.guard(() => this.connection().prepare(text));
      // Safe integers everywhere: rows and `lastInsertRowid` keep all 64 bits.
      s.safeIntegers(true);
      if (s.reader) s.raw(true);
      this.stmts.set(text, s);
    }
    return s;
  }

  /** Runs `f`, turning SQLite errors into the interface's. */
  guard(f) {
    try {
      return f();
    } catch (e) {
      throw sqlError(e);
    }
  }
}
