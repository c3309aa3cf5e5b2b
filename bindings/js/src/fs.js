// The `ash:memory/fs` import (wit/fs.wit): the file primitives of one home, on which the
// files component (the Rust host's collections and journal, compiled in) builds the JSONL
// collections. This host keeps no collection logic of its own.

import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { FILE_MODE } from "./home.js";

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, O_DIRECTORY } = fs.constants;

/** The flags of each `open-mode`, as the Rust host's `NativeFs` opens them. */
const MODES = {
  read: O_RDONLY,
  write: O_WRONLY,
  append: O_RDWR | O_APPEND | O_CREAT,
  update: O_RDWR | O_CREAT,
  create: O_WRONLY | O_CREAT | O_TRUNC,
};

/** Bytes as they cross: text when they are UTF-8, base64 when not. */
const utf8 = new TextDecoder("utf-8", { fatal: true });
function toGuest(buffer) {
  try {
    return { tag: "text", val: utf8.decode(buffer) };
  } catch {
    return { tag: "base64", val: buffer.toString("base64") };
  }
}
function fromGuest(bytes) {
  return bytes.tag === "text" ? Buffer.from(bytes.val, "utf8") : Buffer.from(bytes.val, "base64");
}

/** An `fs` error for a failed operation on `p`: `not-found` or `io`, naming the path. */
function failure(p, e) {
  return { tag: e && e.code === "ENOENT" ? "not-found" : "io", val: `${p}: ${e && e.message ? e.message : e}` };
}

function metadata(st) {
  return { len: st.size, ino: st.ino, dev: st.dev };
}

/**
 * The `fs` interface over the folder of one home, and the home's lock as the files
 * component asks for it around remote calls.
 */
export class HomeFs {
  /**
   * @param {string} root the home's folder
   * @param {{ unlocksFor: (service: string) => boolean, unlock: () => void, lock: () => void }} lock
   *   the call wrapper's lock: whether it lets the lock go for a service, and how
   */
  constructor(root, lock) {
    this.root = root;
    this.lock = lock;
    /** Every descriptor the component holds open, so that none outlives its instance. */
    this.open = new Set();
  }

  /** The full path of a home path; an absolute one or one that climbs out is refused. */
  full(p) {
    if (typeof p !== "string" || p.startsWith("/") || p.includes("\\") || p.split("/").includes("..")) {
      throw { tag: "io", val: `${p}: not a path inside the home` };
    }
    return p === "" ? this.root : path.join(this.root, ...p.split("/"));
  }

  /** Closes every file the component left open (its instance is gone). */
  closeAll() {
    for (const file of this.open) file.close();
    this.open.clear();
  }

  /** The interface's functions and its `file` resource, for the component's imports. */
  imports() {
    const home = this;
    class File {
      constructor(fd, full, appends) {
        this.fd = fd;
        this.full = full;
        this.appends = appends;
      }
      do(f) {
        if (this.fd === null) throw { tag: "io", val: `${this.full}: closed` };
        try {
          return f(this.fd);
        } catch (e) {
          throw failure(this.full, e);
        }
      }
      stat() {
        return this.do((fd) => metadata(fs.fstatSync(fd, { bigint: true })));
      }
      readAt(offset, len) {
        return this.do((fd) => {
          const from = Number(offset);
          const want = len === undefined ? Math.max(0, fs.fstatSync(fd).size - from) : Number(len);
          const buffer = Buffer.allocUnsafe(want);
          let read = 0;
          while (read < want) {
            const n = fs.readSync(fd, buffer, read, want - read, from + read);
            if (n === 0) break;
            read += n;
          }
          // A file that grew since its length was read: what was appended too.
          if (len === undefined) {
            const more = [];
            const chunk = Buffer.allocUnsafe(64 * 1024);
            for (let at = from + read, n; (n = fs.readSync(fd, chunk, 0, chunk.length, at)) > 0; at += n) {
              more.push(Buffer.from(chunk.subarray(0, n)));
            }
            if (more.length) return toGuest(Buffer.concat([buffer.subarray(0, read), ...more]));
          }
          return toGuest(buffer.subarray(0, read));
        });
      }
      writeAt(offset, data) {
        this.do((fd) => {
          const bytes = fromGuest(data);
          // A file opened to append writes at its end whatever the position (O_APPEND).
          const at = this.appends ? null : Number(offset);
          for (let done = 0; done < bytes.length; ) {
            done += fs.writeSync(fd, bytes, done, bytes.length - done, at === null ? null : at + done);
          }
        });
      }
      setLen(len) {
        this.do((fd) => fs.ftruncateSync(fd, Number(len)));
      }
      syncData() {
        this.do((fd) => fs.fdatasyncSync(fd));
      }
      syncAll() {
        this.do((fd) => fs.fsyncSync(fd));
      }
      close() {
        if (this.fd !== null) {
          fs.closeSync(this.fd);
          this.fd = null;
        }
        home.open.delete(this);
      }
      /** Called when the component drops its handle. */
      [Symbol.dispose]() {
        this.close();
      }
    }
    return {
      File,
      open(p, how) {
        const full = home.full(p);
        let fd;
        try {
          fd = fs.openSync(full, MODES[how], FILE_MODE);
        } catch (e) {
          throw failure(full, e);
        }
        const file = new File(fd, full, how === "append");
        home.open.add(file);
        return file;
      },
      stat(p) {
        const full = home.full(p);
        try {
          return metadata(fs.statSync(full, { bigint: true }));
        } catch (e) {
          throw failure(full, e);
        }
      },
      readFrom(p, offset) {
        const full = home.full(p);
        let fd;
        try {
          fd = fs.openSync(full, O_RDONLY);
        } catch (e) {
          throw failure(full, e);
        }
        const file = new File(fd, full, false);
        try {
          const meta = file.stat();
          const bytes = offset <= meta.len ? file.readAt(offset, undefined) : { tag: "text", val: "" };
          return [meta, bytes];
        } finally {
          file.close();
        }
      },
      overwrite(p, data) {
        const full = home.full(p);
        const bytes = fromGuest(data);
        let fd;
        let made = true;
        try {
          try {
            fd = fs.openSync(full, O_RDWR | O_CREAT | fs.constants.O_EXCL, FILE_MODE);
          } catch (e) {
            if (e.code !== "EEXIST") throw e;
            made = false;
            fd = fs.openSync(full, O_RDWR);
          }
          try {
            // Bytes of the file's own length go over it uncut: the flush then has no new
            // length to record (the journal keeps one length).
            if (fs.fstatSync(fd).size !== bytes.length) fs.ftruncateSync(fd, 0);
            for (let done = 0; done < bytes.length; ) done += fs.writeSync(fd, bytes, done, bytes.length - done, done);
            fs.fdatasyncSync(fd);
          } finally {
            fs.closeSync(fd);
          }
        } catch (e) {
          throw failure(full, e);
        }
        return made;
      },
      readWhole(p) {
        const full = home.full(p);
        try {
          return toGuest(fs.readFileSync(full));
        } catch (e) {
          throw failure(full, e);
        }
      },
      rename(from, to) {
        const target = home.full(to);
        try {
          fs.renameSync(home.full(from), target);
        } catch (e) {
          throw failure(target, e);
        }
      },
      remove(p) {
        const full = home.full(p);
        try {
          fs.unlinkSync(full);
        } catch (e) {
          throw failure(full, e);
        }
      },
      list(dir) {
        const full = home.full(dir);
        try {
          return fs.readdirSync(full);
        } catch (e) {
          throw failure(full, e);
        }
      },
      syncDir(dir) {
        const full = home.full(dir);
        try {
          const fd = fs.openSync(full, O_RDONLY | O_DIRECTORY);
          try {
            fs.fsyncSync(fd);
          } finally {
            fs.closeSync(fd);
          }
        } catch (e) {
          throw failure(full, e);
        }
      },
      random: () => randomBytes(8).readBigUInt64LE(),
      processId: () => process.pid,
      unlocksFor: (service) => home.lock.unlocksFor(service),
      unlock: () => home.lock.unlock(),
      lock: () => {
        try {
          home.lock.lock();
        } catch (e) {
          throw { tag: "io", val: e && e.message ? e.message : String(e) };
        }
      },
    };
  }
}
