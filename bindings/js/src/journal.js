// The transaction journal, `memory/.journal`, in the Rust host's exact format
// (host/src/files/journal.rs): before a call's first write it records where every collection
// stands, with its token; a failed call, or the next call after a process died, cuts
// appends back to it (files.js, rollBack). A replace is a commit point: the journal then
// names its flushed temporary file (by name: it lives beside its collection), so that
// recovery finishes an interrupted rename instead of undoing it. A rollback records the
// collections it cuts before its first cut. Every rewrite of an entry after a call's first
// write is atomic (temporary file, flush, rename, flush of the folder).

import fs from "node:fs";
import path from "node:path";
import { FILE_MODE } from "./home.js";

/** The collections, in the Rust host's fixed order. */
export const COLLECTIONS = ["memories", "people", "archive", "sessions", "messages"];

/** An `io` error of the files interface, naming the path. */
export function fileIo(p, e) {
  return { tag: "io", val: `${p}: ${e.message}` };
}

/**
 * Reads JSON whose integers may exceed 2^53: every number outside a string becomes a
 * string first, so generations (u64) survive exactly. Used for the journal only.
 * @param {string} text
 */
export function parseJsonBigInts(text) {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === "\\") out += text[++i] ?? "";
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (/[-0-9]/.test(ch)) {
      let j = i;
      while (j < text.length && /[-+0-9.eE]/.test(text[j])) j++;
      out += `"\\u0000${text.slice(i, j)}"`; // a marker no path holds
      i = j - 1;
    } else out += ch;
  }
  return JSON.parse(out, (_k, v) => (typeof v === "string" && v.startsWith("\0") ? parseNumber(v.slice(1)) : v));
}

/** Numbers as BigInt when integral (only u64 fields are read), else a marker of failure. */
function parseNumber(s) {
  if (/^\d+$/.test(s)) return BigInt(s);
  return Number.NaN;
}

const U64_MAX = (1n << 64n) - 1n;
const isU64 = (v) => typeof v === "bigint" && v >= 0n && v <= U64_MAX;

/** @typedef {{ generation: bigint, end: bigint }} FileState */

/**
 * Where a collection stood when a transaction began (or reached a commit point), with its
 * token then (null in a journal of an older version).
 * @typedef {{ collection: string, state: FileState, token: bigint | null }} Before
 */

/**
 * What an unfinished transaction left to do: the states to cut back to, a rename to
 * finish (collection, the temporary file as the journal names it, not yet checked), and
 * the collections a rollback killed midway was cutting back.
 * @typedef {{ states: Before[], replace: [string, string] | null, rollingBack: string[] }} Pending
 */

const NOTHING = () => ({ states: [], replace: null, rollingBack: [] });

/**
 * The last component of a path, as Rust's `Path::file_name` has it: trailing slashes and
 * `.` components do not count; none for `..`, `/` or an empty path.
 * @param {string} p
 */
export function fileName(p) {
  const parts = p.split("/").filter((s) => s !== "" && s !== ".");
  const last = parts.at(-1);
  return last === undefined || last === ".." ? null : last;
}

/**
 * The journal entry, one line, as serde writes the Rust host's `Entry`: `tokens` and
 * `rolling_back` only when not empty, `replace` only when there is one.
 * @param {Before[]} states
 * @param {[string, string] | null} replace (collection, temporary file)
 * @param {string[]} rollingBack
 */
function entryText(states, replace, rollingBack) {
  const before = states.map((b) => `[${JSON.stringify(b.collection)},${b.state.end},${b.state.generation}]`);
  const tokens = states.filter((b) => b.token !== null).map((b) => `[${JSON.stringify(b.collection)},${b.token}]`);
  let text = `{"pid":${process.pid},"before":[${before.join(",")}]`;
  if (tokens.length) text += `,"tokens":[${tokens.join(",")}]`;
  // The name alone: the file lives beside its collection, wherever the home is.
  if (replace) text += `,"replace":[${JSON.stringify(replace[0])},${JSON.stringify(fileName(replace[1]) ?? "")}]`;
  if (rollingBack.length) text += `,"rolling_back":${JSON.stringify(rollingBack)}`;
  return text + "}\n";
}

const isPair = (v, second) => Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && second(v[1]);
const isString = (v) => typeof v === "string";

/** The journal file of one home. */
export class Journal {
  /** @param {string} p the journal's path */
  constructor(p) {
    this.path = p;
    this.fd = null;
    this.active = false;
  }

  /** Whether this process has a transaction open. */
  isActive() {
    return this.active;
  }

  /** The open journal, created (0600, its folder flushed) on first use. */
  file() {
    if (this.fd === null) {
      const existed = fs.existsSync(this.path);
      try {
        this.fd = fs.openSync(this.path, fs.constants.O_RDWR | fs.constants.O_CREAT, FILE_MODE);
        if (!existed) syncDir(path.dirname(this.path));
      } catch (e) {
        throw fileIo(this.path, e);
      }
    }
    return this.fd;
  }

  /**
   * Records, at a call's first write, the states its writes would roll back to, flushed.
   * Written in place: a torn entry does not parse, and nothing has been written yet that
   * would need undoing.
   * @param {Before[]} states
   */
  begin(states) {
    const text = entryText(states, null, []);
    const fd = this.file();
    try {
      fs.ftruncateSync(fd, 0);
      fs.writeSync(fd, text, 0, "utf8");
      fs.fdatasyncSync(fd);
    } catch (e) {
      throw fileIo(this.path, e);
    }
    this.active = true;
  }

  /**
   * Replaces the entry of an open transaction (a commit point, a replace to finish, a
   * rollback's plan) atomically: a new file, flushed, renamed over the journal. A crash
   * leaves the old entry or the new one, never a torn one that would undo nothing.
   * @param {Before[]} states
   * @param {[string, string] | null} replace (collection, temporary file)
   * @param {string[]} rollingBack
   */
  record(states, replace, rollingBack) {
    const text = entryText(states, replace, rollingBack);
    // Path::with_extension: ".journal" becomes ".journal.tmp-PID".
    const tmp = `${this.path}.tmp-${process.pid}`;
    try {
      const fd = fs.openSync(tmp, "w", FILE_MODE);
      try {
        fs.writeSync(fd, text, 0, "utf8");
        fs.fdatasyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, this.path);
      syncDir(path.dirname(this.path));
    } catch (e) {
      try { fs.unlinkSync(tmp); } catch { /* never made, or renamed */ }
      throw fileIo(this.path, e);
    } finally {
      // The descriptor held may be of the file just replaced.
      this.close();
    }
    this.active = true;
  }

  /** The call succeeded: empty the journal. */
  commit() {
    if (this.active) this.clear();
  }

  /** Empties the journal, flushed. */
  clear() {
    const fd = this.file();
    try {
      fs.ftruncateSync(fd, 0);
      fs.fdatasyncSync(fd);
    } catch (e) {
      throw fileIo(this.path, e);
    }
    this.active = false;
  }

  /**
   * The states to roll back to, if a transaction was left open. A journal that does not
   * parse was torn while being written, before any collection was touched: nothing to undo.
   * @returns {Pending | null}
   */
  pending() {
    if (!this.active && !fs.existsSync(this.path)) return null;
    let text = "";
    try {
      text = fs.readFileSync(this.path, "utf8");
    } catch {
      // Unreadable reads as empty, as in the Rust host.
    }
    if (!text.trim()) return null;
    let entry;
    try {
      entry = parseJsonBigInts(text.trim());
    } catch {
      return NOTHING();
    }
    const valid =
      entry && typeof entry === "object" && !Array.isArray(entry) &&
      isU64(entry.pid) && entry.pid <= 0xffffffffn &&
      Array.isArray(entry.before) &&
      entry.before.every((b) => Array.isArray(b) && b.length === 3 && typeof b[0] === "string" && isU64(b[1]) && isU64(b[2])) &&
      (entry.tokens === undefined || (Array.isArray(entry.tokens) && entry.tokens.every((t) => isPair(t, isU64)))) &&
      (entry.replace === undefined || entry.replace === null || isPair(entry.replace, isString)) &&
      (entry.rolling_back === undefined || (Array.isArray(entry.rolling_back) && entry.rolling_back.every(isString)));
    if (!valid) return NOTHING();
    const token = (name) => (entry.tokens ?? []).find(([n]) => n === name)?.[1] ?? null;
    const states = entry.before
      .filter(([name]) => COLLECTIONS.includes(name))
      .map(([name, end, generation]) => ({ collection: name, state: { generation, end }, token: token(name) }));
    const replace = entry.replace && COLLECTIONS.includes(entry.replace[0]) ? [entry.replace[0], entry.replace[1]] : null;
    const rollingBack = (entry.rolling_back ?? []).filter((name) => COLLECTIONS.includes(name));
    return { states, replace, rollingBack };
  }

  /** Closes the journal's descriptor. */
  close() {
    if (this.fd !== null) {
      fs.closeSync(this.fd);
      this.fd = null;
    }
  }
}

/** Flushes a folder, so that a rename or a new file in it is durable. */
export function syncDir(dir) {
  const fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
