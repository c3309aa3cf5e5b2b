// The `files` import, as the Rust host's files.rs: whole-line appends (ending a torn last
// line first), atomic replaces (temporary file, fsync, new generation token, rename, fsync
// of the folder), quarantine files, and the call's transaction through the journal.
// Generations mix a random token file, the inode and the device with splitmix64's
// finalizer, bit for bit as Rust does, so an index written by one host is accepted by
// the other.

import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { FILE_MODE } from "./home.js";
import { COLLECTIONS, Journal, fileIo, fileName, syncDir } from "./journal.js";
import { formatRfc3339, systemNow } from "./clock.js";

const M64 = (1n << 64n) - 1n;
const GOLDEN = 0x9e3779b97f4a7c15n;

/**
 * Mixes the parts of a generation into one number (splitmix64's finalizer).
 * @param {bigint[]} parts
 */
export function mix(parts) {
  let h = GOLDEN;
  for (const p of parts) {
    let z = ((h ^ p) + GOLDEN) & M64;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    h = z ^ (z >> 31n);
  }
  return h;
}

// Rust's `char::is_whitespace` (Unicode White_Space): unlike JS's \s, it has U+0085 and
// not U+FEFF.
const BLANK = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/** Refuses empty lines and lines that would span several. */
export function checkLines(lines) {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (BLANK.test(line) || line.includes("\n") || line.includes("\r")) {
      throw { tag: "invalid-line", val: `line ${i + 1} is empty or spans several lines` };
    }
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const u64 = (n) => BigInt(n);

/** The JSONL files of one home. */
export class FileStore {
  /**
   * @param {import("./home.js").Home} home
   * @param {(level: string, message: string) => void} log
   */
  constructor(home, log) {
    this.home = home;
    this.log = log;
    this.journal = new Journal(home.journal);
  }

  /** The file behind a collection. */
  path(c) {
    switch (c) {
      case "memories": return this.home.memories;
      case "people": return this.home.people;
      case "archive": return this.home.archive;
      case "sessions": return this.home.sessions;
      case "messages": return this.home.messages;
      default: throw new TypeError(`unknown collection ${c}`);
    }
  }

  /** Where a collection's unparseable lines are kept. */
  quarantinePath(c) {
    return this.sibling(c, ".quarantine.jsonl", false);
  }

  /** The file that holds the random part of a collection's generation. */
  tokenPath(c) {
    return this.sibling(c, ".generation", true);
  }

  sibling(c, suffix, hidden) {
    const p = this.path(c);
    const stem = path.basename(p, path.extname(p));
    return path.join(path.dirname(p), `${hidden ? "." : ""}${stem}${suffix}`);
  }

  /** The random token of the collection's current incarnation (0 before the first replace). */
  token(c) {
    try {
      const t = fs.readFileSync(this.tokenPath(c), "utf8").trim();
      if (/^\+?\d+$/.test(t)) {
        const v = BigInt(t);
        if (v <= M64) return v;
      }
    } catch {
      // A missing or unreadable token is 0, as in the Rust host.
    }
    return 0n;
  }

  /**
   * Gives the collection a new random token, written and flushed before the change it
   * announces: a crash in between only makes readers read again.
   */
  newToken(c) {
    const p = this.tokenPath(c);
    // The first 64 bits of a v4 UUID, as the Rust host takes them.
    const token = BigInt("0x" + randomUUID().replaceAll("-", "").slice(0, 16));
    // Path::with_extension: ".memories.generation" becomes ".memories.tmp-PID".
    const tmp = path.join(path.dirname(p), path.basename(p, path.extname(p)) + `.tmp-${process.pid}`);
    try {
      const fd = fs.openSync(tmp, "w", FILE_MODE);
      try {
        fs.writeSync(fd, String(token));
        fs.fdatasyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, p);
    } catch (e) {
      try { fs.unlinkSync(tmp); } catch { /* already gone */ }
      throw fileIo(p, e);
    }
  }

  /** The generation of a file whose stat is `st` (bigint stat). */
  generation(c, st) {
    return mix([this.token(c), st.ino, st.dev]);
  }

  /** Where the collection stands now; a missing file is empty with a generation of its own. */
  state(c) {
    const p = this.path(c);
    let st;
    try {
      st = fs.statSync(p, { bigint: true });
    } catch (e) {
      if (e.code === "ENOENT") return { generation: mix([this.token(c), 0n, 0n]), end: 0n };
      throw fileIo(p, e);
    }
    return { generation: this.generation(c, st), end: st.size };
  }

  /**
   * Reads from `from` to the end; from 0 when the generation changed or `from` is past it.
   * @param {string} c
   * @param {bigint} from
   * @param {bigint | undefined} generation
   */
  read(c, from, generation) {
    const p = this.path(c);
    let fd;
    try {
      fd = fs.openSync(p, "r");
    } catch (e) {
      if (e.code === "ENOENT") return { data: "", end: 0n, generation: this.state(c).generation };
      throw fileIo(p, e);
    }
    try {
      const st = fs.fstatSync(fd, { bigint: true });
      const len = st.size;
      const gen = this.generation(c, st);
      const start = generation !== undefined && generation === gen && from <= len ? from : 0n;
      const chunks = [];
      let pos = Number(start);
      const buf = Buffer.allocUnsafe(1 << 20);
      for (;;) {
        const n = fs.readSync(fd, buf, 0, buf.length, pos);
        if (n === 0) break;
        chunks.push(Buffer.from(buf.subarray(0, n)));
        pos += n;
      }
      const bytes = Buffer.concat(chunks);
      const end = start + u64(bytes.length);
      let data;
      try {
        data = strictUtf8.decode(bytes);
      } catch {
        data = this.setAsideInvalidUtf8(c, bytes);
      }
      return { data, end, generation: gen };
    } catch (e) {
      if (e && e.tag) throw e;
      throw fileIo(p, e);
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * A WIT string must be UTF-8: lines that are not go to the quarantine file as base64,
   * and the guest gets a line in their place that it quarantines and drops as usual.
   */
  setAsideInvalidUtf8(c, bytes) {
    const records = [];
    const parts = [];
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i < bytes.length && bytes[i] !== 0x0a) continue;
      const line = bytes.subarray(start, i);
      try {
        parts.push(strictUtf8.decode(line));
      } catch {
        // Keys in serde_json's order (sorted), as the Rust host writes them.
        records.push(JSON.stringify({
          line_base64: Buffer.from(line).toString("base64"),
          quarantined_at: formatRfc3339(systemNow()),
          reason: "not valid UTF-8",
        }));
        parts.push("\uFFFD a line that was not valid UTF-8; its bytes are in the quarantine file");
      }
      start = i + 1;
    }
    this.appendRaw(this.quarantinePath(c), records);
    this.log("warn", `${this.path(c)}: ${records.length} line(s) were not UTF-8 and were quarantined`);
    return parts.join("\n");
  }

  /** Appends whole lines in one write, flushed; ends an unterminated last line first. */
  append(c, lines) {
    checkLines(lines);
    if (lines.length > 0) {
      this.begin();
      const p = this.path(c);
      let fd;
      try {
        fd = fs.openSync(p, fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT, FILE_MODE);
        let buf = "";
        const len = fs.fstatSync(fd).size;
        if (len > 0) {
          const last = Buffer.alloc(1);
          fs.readSync(fd, last, 0, 1, len - 1);
          if (last[0] !== 0x0a) buf += "\n";
        }
        buf += lines.join("\n") + "\n";
        writeAll(fd, Buffer.from(buf, "utf8"));
        fs.fdatasyncSync(fd);
      } catch (e) {
        throw fileIo(p, e);
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
    }
    return this.state(c);
  }

  /** Appends lines to a file that is not a collection (quarantine), flushed. */
  appendRaw(p, lines) {
    if (lines.length === 0) return;
    try {
      const fd = fs.openSync(p, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT, FILE_MODE);
      try {
        writeAll(fd, Buffer.from(lines.join("\n") + "\n", "utf8"));
        fs.fdatasyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch (e) {
      throw fileIo(p, e);
    }
  }

  /** Replaces a collection atomically; a commit point of the call's transaction. */
  replace(c, lines) {
    checkLines(lines);
    this.begin();
    const p = this.path(c);
    const tmp = path.join(path.dirname(p), `.${path.basename(p)}.tmp-${process.pid}`);
    try {
      this.writeReplacement(c, lines, tmp);
    } catch (e) {
      try { fs.unlinkSync(tmp); } catch { /* never written */ }
      throw e;
    }
    // A new baseline, so that appends after the rewrite still roll back.
    this.journal.record(this.states(), null, []);
    return this.state(c);
  }

  writeReplacement(c, lines, tmp) {
    const p = this.path(c);
    try {
      const fd = fs.openSync(tmp, "w", FILE_MODE);
      try {
        const text = lines.length ? lines.join("\n") + "\n" : "";
        writeAll(fd, Buffer.from(text, "utf8"));
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch (e) {
      throw fileIo(tmp, e);
    }
    // The commit point, recorded before the rename: a crash from here on finishes it.
    this.journal.record(this.states(), [c, tmp], []);
    this.newToken(c);
    try {
      fs.renameSync(tmp, p);
    } catch (e) {
      throw fileIo(p, e);
    }
    try {
      syncDir(path.dirname(p));
    } catch (e) {
      throw fileIo(path.dirname(p), e);
    }
  }

  /** Keeps unparseable lines, with the reason and time; never rolled back. */
  quarantine(c, lines, reason) {
    const now = formatRfc3339(systemNow());
    const records = lines.map((line) => JSON.stringify({ line, quarantined_at: now, reason }));
    const p = this.quarantinePath(c);
    this.appendRaw(p, records);
    this.log("warn", `${lines.length} line(s) quarantined in ${p}`);
  }

  /**
   * Where every collection stands, with its token, in the fixed order.
   * @returns {import("./journal.js").Before[]}
   */
  states() {
    return COLLECTIONS.map((c) => ({ collection: c, state: this.state(c), token: this.token(c) }));
  }

  /** Starts the call's transaction at its first write. */
  begin() {
    if (!this.journal.isActive()) this.journal.begin(this.states());
  }

  /** Ends the call's transaction: its writes stand. */
  commit() {
    this.journal.commit();
  }

  /**
   * Undoes the call's writes since its last commit point: each collection appended to is
   * cut back to where it stood. Also run at the start of every call, for a call that died
   * with its transaction open. Recovery may itself be killed at any point, so every step
   * can be done again (as the Rust host's files/recovery.rs):
   *
   * 1. A committed replace whose rename did not happen is finished (a new token, then the
   *    rename: a kill between the two does both again).
   * 2. The collections to cut are recorded in the journal (atomically) before the first
   *    cut: a recovery killed after cutting one of them still knows the others.
   * 3. Each is cut back to its recorded end; a file the call created goes away. A cut only
   *    shortens, so doing it twice does nothing more.
   * 4. Each cut collection gets a new token, after its cut, so that readers that saw the
   *    undone bytes read again. A collection whose token already changed was cut.
   * 5. The journal is emptied.
   *
   * A file is recognised by its token, which a copied home (`cp -a`, a restore) keeps, and
   * recovery touches only the home's own files, whatever a journal names.
   */
  rollBack() {
    const pending = this.journal.pending();
    if (!pending) return;
    if (pending.replace) this.finishReplace(...pending.replace);
    this.sweepTemporaryFiles();
    const cut = [...pending.rollingBack];
    for (const b of pending.states) {
      if (this.appendedTo(b) && !cut.includes(b.collection)) cut.push(b.collection);
    }
    if (cut.length === 0) {
      this.journal.clear();
      return;
    }
    if (cut.length !== pending.rollingBack.length || cut.some((c, i) => c !== pending.rollingBack[i])) {
      this.journal.record(pending.states, null, cut);
    }
    const planned = pending.states.filter((b) => cut.includes(b.collection));
    for (const b of planned) this.cutBack(b);
    for (const b of planned) {
      if (this.unchanged(b)) this.newToken(b.collection);
    }
    this.journal.clear();
  }

  /**
   * Whether the collection is the file the journal saw: the same token (a journal of an
   * older version has none, and compares generations).
   * @param {import("./journal.js").Before} b
   */
  unchanged(b) {
    if (b.token !== null) return this.token(b.collection) === b.token;
    if (b.state.end === 0n) return true;
    try {
      return this.state(b.collection).generation === b.state.generation;
    } catch {
      return false;
    }
  }

  /** Whether the call appended to the collection, which is still the file it saw. */
  appendedTo(b) {
    return this.unchanged(b) && this.state(b.collection).end > b.state.end;
  }

  /** Cuts the collection back to where it stood, or removes it if the call made it. */
  cutBack(b) {
    if (!this.appendedTo(b)) return;
    const c = b.collection;
    const p = this.path(c);
    const now = this.state(c);
    const token = b.token ?? this.token(c);
    const existed = b.state.generation !== mix([token, 0n, 0n]);
    if (b.state.end === 0n && !existed) {
      try {
        fs.unlinkSync(p);
      } catch (e) {
        throw fileIo(p, e);
      }
      this.log("warn", `${p}: removed, made by an unfinished write`);
      return;
    }
    try {
      const fd = fs.openSync(p, "r+");
      try {
        fs.ftruncateSync(fd, Number(b.state.end));
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch (e) {
      throw fileIo(p, e);
    }
    this.log("warn", `${p}: rolled back ${now.end - b.state.end} bytes of an unfinished write`);
  }

  /**
   * Finishes a committed replace whose rename a crash interrupted. Only a file of this
   * home's own temporary name beside the collection is taken, whatever folder the journal
   * names.
   */
  finishReplace(c, named) {
    const p = this.path(c);
    const tmp = this.ownTemporaryFile(c, named);
    if (tmp === null) {
      this.log("warn", `${p}: the journal names ${named} as its rewrite, which is not this home's; ignored`);
      return;
    }
    if (!fs.existsSync(tmp)) return;
    this.newToken(c);
    try {
      fs.renameSync(tmp, p);
      syncDir(path.dirname(p));
    } catch (e) {
      throw fileIo(p, e);
    }
    this.log("warn", `${p}: finished a rewrite that was interrupted`);
  }

  /**
   * The temporary file a journal names for a collection's rewrite, if the name is one this
   * home gives them (`.memories.jsonl.tmp-PID`), looked for beside the collection, so that
   * a home moved or copied finishes its own rewrite.
   */
  ownTemporaryFile(c, named) {
    const name = fileName(named);
    const p = this.path(c);
    const prefix = `.${path.basename(p)}.tmp-`;
    if (name === null || !name.startsWith(prefix) || !/^[0-9]+$/.test(name.slice(prefix.length))) return null;
    return path.join(path.dirname(p), name);
  }

  /**
   * Removes temporary files a replace, a token or a journal rewrite left when its process
   * died. Only run while the lock is held and a transaction is being rolled back.
   */
  sweepTemporaryFiles() {
    const dirs = [...new Set(COLLECTIONS.map((c) => path.dirname(this.path(c))))];
    const prefixes = [".journal.tmp-", ...COLLECTIONS.flatMap((c) => {
      const full = path.basename(this.path(c));
      return [`.${full}.tmp-`, `.${path.basename(full, path.extname(full))}.tmp-`];
    })];
    for (const dir of dirs) {
      let names;
      try {
        names = fs.readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        if (!prefixes.some((pre) => name.startsWith(pre))) continue;
        try {
          fs.unlinkSync(path.join(dir, name));
          this.log("info", `removed ${name}, left by an interrupted rewrite`);
        } catch {
          // Gone already.
        }
      }
    }
  }

  /** Releases the journal's descriptor. */
  close() {
    this.journal.close();
  }
}

/** Writes a whole buffer (writeSync may write less than asked). */
function writeAll(fd, buf) {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}
