// The transaction journal, `memory/.journal`, in the Rust host's exact format
// (host/src/journal.rs): before a call's first write it records where every collection
// stands; a failed call, or the next call after a process died, cuts appends back to it.
// A replace is a commit point: the journal then names its flushed temporary file, so that
// recovery finishes an interrupted rename instead of undoing it.

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

/**
 * @typedef {{ generation: bigint, end: bigint }} FileState
 * @typedef {{ states: Array<[string, FileState]>, replace: [string, string] | null }} Pending
 */

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
   * Records the states the call's writes would roll back to, and a replace to finish,
   * flushed to disk.
   * @param {Array<[string, FileState]>} states
   * @param {[string, string] | null} replace (collection, temporary file)
   */
  begin(states, replace) {
    const before = states.map(([c, s]) => `[${JSON.stringify(c)},${s.end},${s.generation}]`).join(",");
    let text = `{"pid":${process.pid},"before":[${before}]`;
    if (replace) text += `,"replace":[${JSON.stringify(replace[0])},${JSON.stringify(replace[1])}]`;
    text += "}\n";
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
      return { states: [], replace: null };
    }
    const valid =
      entry && typeof entry === "object" && !Array.isArray(entry) &&
      isU64(entry.pid) && entry.pid <= 0xffffffffn &&
      Array.isArray(entry.before) &&
      entry.before.every((b) => Array.isArray(b) && b.length === 3 && typeof b[0] === "string" && isU64(b[1]) && isU64(b[2])) &&
      (entry.replace === undefined || entry.replace === null ||
        (Array.isArray(entry.replace) && entry.replace.length === 2 && typeof entry.replace[0] === "string" && typeof entry.replace[1] === "string"));
    if (!valid) return { states: [], replace: null };
    const states = entry.before
      .filter(([name]) => COLLECTIONS.includes(name))
      .map(([name, end, generation]) => [name, { generation, end }]);
    const replace = entry.replace && COLLECTIONS.includes(entry.replace[0]) ? [entry.replace[0], entry.replace[1]] : null;
    return { states, replace };
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
