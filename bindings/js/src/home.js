// The `$ASH_HOME` layout and the lock that serializes writers across processes, as the
// Rust host's home.rs: folders 0700, files 0600, an flock on `$HOME/.lock` holding the
// holder's pid, given up after ASH_LOCK_TIMEOUT_SECS (default 30) with a busy error.

import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import fsExt from "fs-ext";
import { BusyError, IoError } from "./errors.js";

/** Files of the home are personal: readable and writable by their owner only. */
export const FILE_MODE = 0o600;
/** Folders likewise. */
export const DIR_MODE = 0o700;
/** Seconds a call waits for another process's lock, unless ASH_LOCK_TIMEOUT_SECS says. */
export const DEFAULT_LOCK_TIMEOUT_SECS = 30;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread for `ms` (imports are synchronous, so the lock wait is too). */
export function sleepSync(ms) {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** An io error naming the path, as the Rust host's `Error::Io`. */
export function ioError(p, e) {
  return new IoError(`${p}: ${e.message}`);
}

/** The files of one home. */
export class Home {
  /**
   * The home at `root`, creating its folders (0700) if needed.
   * @param {string} root
   */
  constructor(root) {
    this.root = path.resolve(root);
    for (const dir of [this.root, path.join(this.root, "memory"), path.join(this.root, "data")]) {
      try {
        fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
      } catch (e) {
        throw ioError(dir, e);
      }
    }
  }

  /** `$ASH_HOME`, else `~/.ash`. */
  static defaultRoot() {
    return process.env.ASH_HOME || path.join(os.homedir() || ".", ".ash");
  }

  get config() { return Home.configPath(this.root); }
  /** The config.toml of the home at `root`, without making the home's folders. */
  static configPath(root) { return path.join(root, "config.toml"); }
  get memories() { return path.join(this.root, "memory", "memories.jsonl"); }
  get archive() { return path.join(this.root, "memory", "archive.jsonl"); }
  get sessions() { return path.join(this.root, "memory", "sessions.jsonl"); }
  get messages() { return path.join(this.root, "memory", "messages.jsonl"); }
  get people() { return path.join(this.root, "people.jsonl"); }
  get index() { return path.join(this.root, "data", "memory.db"); }
  get journal() { return path.join(this.root, "memory", ".journal"); }

  /**
   * Takes the home's exclusive lock, waiting at most ASH_LOCK_TIMEOUT_SECS.
   * @returns {HomeLock}
   */
  lock() {
    // A decimal number, as Rust's f64 parse reads it: "5s" or "0x10" fall back to the default.
    const text = (process.env.ASH_LOCK_TIMEOUT_SECS ?? "").trim();
    const raw = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
    const secs = Number.isFinite(raw) && raw >= 0 ? raw : DEFAULT_LOCK_TIMEOUT_SECS;
    return this.lockWithin(secs);
  }

  /**
   * Takes the lock, waiting at most `timeoutSecs`, with the Rust host's backoff
   * (1 ms doubling up to 50 ms).
   * @param {number} timeoutSecs
   */
  lockWithin(timeoutSecs) {
    const p = path.join(this.root, ".lock");
    let fd;
    try {
      fd = fs.openSync(p, fs.constants.O_RDWR | fs.constants.O_CREAT, FILE_MODE);
    } catch (e) {
      throw ioError(p, e);
    }
    const start = performance.now();
    let pause = 1;
    for (;;) {
      try {
        fsExt.flockSync(fd, "exnb");
        break;
      } catch (e) {
        if (e.code !== "EAGAIN" && e.code !== "EWOULDBLOCK") {
          fs.closeSync(fd);
          throw ioError(p, e);
        }
      }
      if ((performance.now() - start) / 1000 >= timeoutSecs) {
        fs.closeSync(fd);
        let holder = "";
        try {
          // The pid's line; the Rust host records where its last write left the home after it.
          holder = fs.readFileSync(p, "utf8").split("\n", 1)[0].trim();
        } catch {
          // Who holds it is only for the message.
        }
        throw new BusyError(
          `${this.root} is busy: another process${holder ? ` (pid ${holder})` : ""} has held its lock for over ${timeoutSecs.toFixed(1)} s; try again`,
        );
      }
      sleepSync(pause);
      pause = Math.min(pause * 2, 50);
    }
    // Who holds it, for the message another process prints while it waits.
    try {
      fs.ftruncateSync(fd, 0);
      fs.writeSync(fd, String(process.pid), 0);
    } catch {
      // Only diagnostics.
    }
    return new HomeLock(fd);
  }
}

/** Holds the home's exclusive lock until released. */
export class HomeLock {
  /** @param {number} fd */
  constructor(fd) {
    this.fd = fd;
  }
  /** Releases the lock (closing the descriptor releases the flock). */
  release() {
    if (this.fd !== null) {
      fs.closeSync(this.fd);
      this.fd = null;
    }
  }
}
