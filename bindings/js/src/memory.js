// `openMemory` and `Memory`: the package's front door. Each call takes the home's lock,
// rolls back a transaction a dead process left, runs one export of the policy component,
// then commits its writes, or rolls them back when it fails or traps (the Rust host's
// store.rs and sandbox.rs). Results are the JSON-RPC server's shapes (wire.js).

import { randomUUID } from "node:crypto";
import { Clock } from "./clock.js";
import { HTTP_RETRIES, loadConfig } from "./config.js";
import { StaticEmbedder } from "./embedder.js";
import { TransformerEmbedder } from "./transformer.js";
import {
  BusyError, ConfigError, InvalidInputError, MemoryError, PersonNotFoundError, SandboxError,
  StorageError, fromGuest,
} from "./errors.js";
import { HomeFs } from "./fs.js";
import { Home } from "./home.js";
import { HttpClient } from "./http.js";
import { makeImports } from "./imports.js";
import { loadComponent } from "./component.js";
import { NoLlm, OpenAiEmbedder, OpenAiLlm } from "./openai.js";
import { SqlConnection } from "./sql.js";
import * as wire from "./wire.js";
import * as input from "./input.js";

/** Sequential ids for tests: `00000000-0000-4000-8000-000000000001`, `...0002`, ... */
export function sequentialIds() {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
}

/** A logger to stderr, or a no-op. */
function makeLog(option) {
  if (typeof option === "function") return option;
  if (!option) return () => {};
  const order = ["debug", "info", "warn", "error"];
  const min = order.indexOf(typeof option === "string" ? option : "info");
  return (level, message) => {
    if (order.indexOf(level) >= min) process.stderr.write(`ash-memory ${level}: ${message}\n`);
  };
}

/** Builds the embedder `config.toml` asks for. */
function buildEmbedder(config, where) {
  const e = config.embedder;
  const provider = e.provider ?? "transformer";
  if (provider === "static") return new StaticEmbedder();
  if (provider === "transformer") return new TransformerEmbedder();
  if (provider !== "openai") {
    throw new ConfigError(`${where}: [embedder] provider ${JSON.stringify(provider)} is not one of "static", "transformer", "openai"`);
  }
  for (const key of ["base_url", "model", "dimensions"]) {
    if (e[key] === undefined) throw new ConfigError(`${where}: [embedder] ${key} is required for openai`);
  }
  const http = new HttpClient({ timeoutSecs: e.timeout_secs ?? 30, retries: HTTP_RETRIES, apiKeyEnv: e.api_key_env });
  return new OpenAiEmbedder(http, e.base_url, e.model, e.dimensions);
}

/** Builds the language model `config.toml` asks for, or none. */
function buildLlm(config) {
  const l = config.llm;
  if (!l) return new NoLlm();
  const http = new HttpClient({ timeoutSecs: l.timeout_secs ?? 30, retries: HTTP_RETRIES, apiKeyEnv: l.api_key_env });
  return new OpenAiLlm(http, l.base_url, l.model);
}

/**
 * Opens a memory home (creating its folders) and loads the policy component.
 *
 * @param {object} [options]
 * @param {string} [options.home] the home folder; default `$ASH_HOME`, else `~/.ash`
 * @param {string | Date} [options.now] fixes the clock (RFC 3339); default the system clock
 * @param {"random" | "sequential" | (() => string)} [options.ids] where new ids come from
 * @param {boolean | "debug" | "info" | "warn" | "error" | ((level: string, message: string) => void)} [options.log]
 *   the guest's and host's log: to stderr from this level (true: info), or a function; quiet by default
 * @param {object} [options.embedder] replaces the configured embedder
 * @param {object} [options.llm] replaces the configured language model
 * @param {boolean} [options.skipAutoGc] skips `[memory] auto_gc` for this open
 * @returns {Promise<Memory>}
 */
export async function openMemory(options = {}) {
  // The options are checked before the home's folders are made: a bad one changes nothing.
  let ids;
  if (typeof options.ids === "function") ids = options.ids;
  else if (options.ids === "sequential") ids = sequentialIds();
  else if (options.ids === undefined || options.ids === "random") ids = () => randomUUID();
  else throw new InvalidInputError(`ids must be "random", "sequential" or a function`);
  let clock;
  try {
    clock = new Clock(options.now);
  } catch (e) {
    throw new InvalidInputError(e.message);
  }
  const root = options.home ?? Home.defaultRoot();
  if (typeof root !== "string" || root === "") throw new InvalidInputError("home must be a folder's path");
  const component = await loadComponent();
  // The configuration too: a config.toml this host cannot follow leaves no folders behind.
  const configPath = Home.configPath(root);
  const config = loadConfig(configPath);
  const embedder = options.embedder ?? buildEmbedder(config, configPath);
  const llm = options.llm ?? buildLlm(config);
  const home = new Home(root);
  const threshold = config.memory.supersession_threshold ?? embedder.supersessionThreshold?.() ?? 0.75;
  const settings = {
    supersessionThreshold: Math.fround(threshold),
    maxEntries: config.memory.max_entries === undefined ? undefined : BigInt(config.memory.max_entries),
    extractionEnabled: config.memory.extraction_enabled ?? true,
    extractionConfidenceThreshold: Math.fround(config.memory.extraction_confidence_threshold ?? 0.7),
    localEmbedder: !embedder.isRemote(),
    decayToldFacts: config.memory.decay_told_facts ?? false,
    weakSimilarity: Math.fround(embedder.weakSimilarity?.() ?? 0),
  };
  const memory = new Memory({ home, embedder, llm, clock, ids, log: makeLog(options.log), settings, component });
  if (config.memory.auto_gc === true && !options.skipAutoGc) {
    try {
      const report = await memory.gc();
      if (report.archived.length) memory.log("info", `auto_gc archived ${report.archived.length} memories`);
    } catch (e) {
      // The caller never gets the memory, so nobody else can release its handles.
      memory.close();
      throw e;
    }
  }
  return memory;
}

/** A memory home opened through the policy component. Open one with {@link openMemory}. */
export class Memory {
  /** @hideconstructor */
  constructor({ home, embedder, llm, clock, ids, log, settings, component }) {
    this.home = home;
    this.log = log;
    this.fs = new HomeFs(home.root, {
      unlocksFor: (service) => this.lock !== null && (service === "llm" ? llm : embedder).isRemote(),
      unlock: () => this.unlock(),
      lock: () => this.relock(),
    });
    this.sql = new SqlConnection(home.index);
    this.embedder = embedder;
    this.llm = llm;
    this.clock = clock;
    this.component = component;
    this.instance = null;
    this.lock = null;
    this.lockLost = null;
    this.closed = false;
    const state = {
      fs: this.fs,
      sql: this.sql,
      embedder,
      llm,
      clock,
      ids,
      log,
      settings,
      writable: () => this.lockLost,
    };
    this.imports = makeImports(state);
    /** The people in the caller's life. */
    this.people = {
      /** The caller's people. */
      list: async (caller) => wire.people(this.call("people", (p) => p.people.list(input.caller(caller)))),
      /** One person, by reference ("my wife", "Sarah") or id. */
      show: async (caller, reference) =>
        wire.person(this.call("people", (p) => p.people.show(input.caller(caller), input.text(reference, "reference")))),
      /** Adds a person, or completes the one who already answers to the name. */
      add: async (caller, person) =>
        wire.person(this.call("people", (p) => p.people.add(input.caller(caller), input.newPerson(person)))),
      /** Adds an alias to a person. */
      alias: async (caller, reference, alias) =>
        wire.person(this.call("people", (p) =>
          p.people.alias(input.caller(caller), input.text(reference, "reference"), input.text(alias, "alias")))),
      /** Folds `merge` into `keep`, re-linking memories. */
      merge: async (caller, keep, merge) =>
        wire.person(this.call("people", (p) =>
          p.people.merge(input.caller(caller), input.text(keep, "keep"), input.text(merge, "merge")))),
      /** Forgets a person: memories about them alone are archived (or, with `purge`, removed). */
      forget: async (caller, reference, options = {}) =>
        wire.forgotten(this.call("people", (p) =>
          p.people.forget(input.caller(caller), input.text(reference, "reference"), Boolean(options.purge)))),
    };
    /** The `remember` and `recall` tools for agent frameworks. */
    this.tools = {
      /** The tool schemas, parsed from the component's JSON. */
      schemas: async () => {
        const text = this.call("tools", (p) => p.tools.schemas());
        try {
          return JSON.parse(text);
        } catch (e) {
          throw new SandboxError(`the policy component failed: the component's tool schemas are not JSON: ${e.message}`);
        }
      },
      /**
       * Runs a tool call with its arguments (an object, or JSON text); returns the text
       * for the model.
       */
      call: async (caller, name, args) => {
        let text = args;
        if (typeof args !== "string") {
          try {
            text = JSON.stringify(args ?? {});
          } catch (e) {
            throw new InvalidInputError(`the tool arguments cannot be JSON: ${e.message}`);
          }
        }
        return this.call("tools", (p) => p.tools.call(input.caller(caller), input.text(name, "name"), text));
      },
    };
  }

  /** The home folder. */
  get homePath() {
    return this.home.root;
  }

  /**
   * Fixes the clock for later calls (RFC 3339 or a Date), or returns it to the system
   * clock with nothing.
   * @param {string | Date | undefined} [now]
   */
  setNow(now) {
    try {
      this.clock.set(now);
    } catch (e) {
      throw new InvalidInputError(e.message);
    }
  }

  // ---- memories ----

  /** Stores one memory, superseding what it replaces. */
  async add(caller, item) {
    return wire.added(this.call("memories", (p) => p.memories.add(input.caller(caller), input.newMemory(item))));
  }

  /** Stores several memories in one write, all or none. */
  async addBatch(caller, items) {
    if (!Array.isArray(items)) throw new InvalidInputError("items must be an array");
    const list = items.map((i) => input.newMemory(i));
    return wire.added(this.call("memories", (p) => p.memories.addBatch(input.caller(caller), list)));
  }

  /** One memory the caller may see, by id or a unique prefix of 8 or more characters. */
  async get(caller, id) {
    return wire.memory(this.call("memories", (p) => p.memories.get(input.caller(caller), input.text(id, "id"))));
  }

  /** The caller's memories, newest first. */
  async list(caller, options = {}) {
    return wire.memories(this.call("memories", (p) => p.memories.list(input.caller(caller), input.listOptions(options))));
  }

  /** The supersession chain through a memory, oldest first, archived links included. */
  async history(caller, id) {
    return wire.memories(this.call("memories", (p) => p.memories.history(input.caller(caller), input.text(id, "id"))));
  }

  /** Deletes a memory the caller may change (it is archived first); returns the full id. */
  async delete(caller, id) {
    return this.call("memories", (p) => p.memories.delete(input.caller(caller), input.text(id, "id")));
  }

  /**
   * Corrects a memory the caller may change: the new text (`{ content, memoryType,
   * expiresInDays, subjects }` or the text alone) is stored as a new memory that replaces
   * it, so that `history` shows both. An absent `memoryType` or `subjects` keeps the
   * memory's. A correction that says what the memory already says answers with it, in
   * `restated`.
   */
  async correct(caller, id, correction) {
    const c = input.caller(caller);
    const wit = input.correction(correction);
    return wire.added(this.call("memories", (p) => p.memories.correct(c, input.text(id, "id"), wit)));
  }

  // ---- recall ----

  /** Hybrid search within the caller's scope: `{ hits, notices }`. */
  async search(caller, query) {
    return wire.search(this.call("recall", (p) => p.recall.search(input.caller(caller), input.searchQuery(query))));
  }

  /**
   * The context block for a message (`{ message, maxTokens, session }` or the message
   * alone); past messages come from the caller's sessions other than `session`.
   */
  async context(caller, request) {
    const r = typeof request === "string" ? { message: request } : request ?? {};
    const message = input.text(r.message, "message");
    const maxTokens = input.optionalU32(r.maxTokens ?? r.max_tokens, "maxTokens");
    const session = input.optionalText(r.session, "session");
    return wire.context(this.call("recall", (p) => p.recall.context(input.caller(caller), message, maxTokens, session)));
  }

  // ---- conversations ----

  /**
   * Stores one exchange of a session (`{ session, userMessage, assistantMessage, provider }`);
   * secrets are replaced by `[redacted]` first. Facts are read later, by `extract`.
   */
  async turn(caller, t) {
    const c = input.caller(caller);
    const wit = input.turn(t);
    return wire.storedTurn(this.call("conversations", (p) => p.conversations.persistTurn(c, wit)));
  }

  /**
   * Reads the caller's exchanges not read before (of one session, or of all) for facts and
   * stores them as memories (`source` "extraction").
   */
  async extract(caller, options = {}) {
    const c = input.caller(caller);
    const o = typeof options === "string" ? { session: options } : options ?? {};
    if (typeof o !== "object") throw new InvalidInputError("extract options must be { session }");
    const session = input.optionalText(o.session, "session");
    return wire.extraction(this.call("conversations", (p) => p.conversations.extract(c, session)));
  }

  /** The caller's user profile: short notes, most important first, and their memories. */
  async profile(caller) {
    const c = input.caller(caller);
    return wire.profile(this.call("conversations", (p) => p.conversations.profile(c)));
  }

  // ---- maintenance ----

  /** Archives superseded, expired and decayed memories (or reports them, on a dry run). */
  async gc(options = {}) {
    const dryRun = input.bool(options.dryRun ?? options.dry_run, "dryRun");
    return wire.gc(this.call("maintenance", (p) => p.maintenance.gc(dryRun)));
  }

  /** Removes archive entries older than `olderThanDays` (or reports them, without `force`). */
  async compact(options = {}) {
    const days = input.optionalU32(options.olderThanDays, "olderThanDays") ?? 90;
    const force = input.bool(options.force, "force");
    const r = this.call("maintenance", (p) => p.maintenance.compact(days, force));
    return { removed: r.removed, kept: Number(r.kept), forced: r.forced };
  }

  /** Rebuilds the index from memories.jsonl. */
  async rebuildIndex() {
    const r = this.call("maintenance", (p) => p.maintenance.rebuildIndex());
    return { indexed: Number(r.indexed), embedded: Number(r.embedded), pending: Number(r.pending), quarantined: Number(r.quarantined) };
  }

  /** The policy's checks of the home (index against files, embeddings, people). */
  async doctor(options = {}) {
    const fix = input.bool(options.fix, "fix");
    return this.call("maintenance", (p) => p.maintenance.doctor(fix));
  }

  /** Releases the index connection, the journal and any HTTP worker. */
  close() {
    if (this.closed) return;
    this.closed = true;
    this.instance = null;
    this.sql.close();
    this.fs.closeAll();
    this.embedder.close?.();
    this.llm.close?.();
  }

  // ---- the call wrapper ----

  /**
   * Runs one export under the home's lock, as one transaction.
   * @param {string} iface which exported interface, to name its errors
   * @param {(exports: any) => any} f
   */
  call(iface, f) {
    if (this.closed) throw new InvalidInputError("this memory is closed");
    this.lock = this.home.lock();
    this.lockLost = null;
    try {
      try {
        this.journal("rollBack");
      } catch (e) {
        throw new StorageError(`storage error: cannot roll back an unfinished write: ${messageOf(e)}`);
      }
      let value;
      try {
        value = this.invoke(iface, f);
      } catch (e) {
        // Its writes were refused once the lock was lost: busy, not a storage fault, so that
        // the caller tries again (as in the Rust host). Without the lock the files are not
        // this call's to touch.
        if (this.lockLost !== null && e instanceof MemoryError) throw new BusyError(this.lockLost);
        if (this.lockLost === null && this.instance) {
          try {
            this.journal("rollBack");
          } catch (r) {
            this.log("error", `cannot roll back the failed call's writes: ${messageOf(r)}`);
          }
        }
        throw e;
      }
      if (this.lockLost !== null) throw new BusyError(this.lockLost);
      try {
        this.journal("commit");
      } catch (e) {
        if (e && e.tag === "busy") throw new BusyError(e.val);
        throw new StorageError(`storage error: ${messageOf(e)}`);
      }
      return value;
    } finally {
      this.lock?.release();
      this.lock = null;
    }
  }

  /** Calls the files component's `journal` export: `commit` or `rollBack`. */
  journal(name) {
    try {
      return this.instantiated().journal[name]();
    } catch (e) {
      if (e && Object.prototype.hasOwnProperty.call(e, "payload")) throw e.payload;
      this.dropInstance();
      throw e;
    }
  }

  /** The component's instance, instantiated first if needed. */
  instantiated() {
    if (!this.instance) {
      try {
        this.instance = this.component.instantiate(this.component.getCoreModule, this.imports);
      } catch (e) {
        throw new SandboxError(`cannot load the policy component: ${e.message}`);
      }
    }
    return this.instance;
  }

  /**
   * Forgets a trapped instance, which may not be entered again: the next call gets a fresh
   * one. Its index may have stopped inside a transaction: closing the connection rolls that
   * back; the files it left open are closed.
   */
  dropInstance() {
    this.instance = null;
    this.sql.close();
    this.fs.closeAll();
  }

  /** Calls into the component; a trap drops the instance. */
  invoke(iface, f) {
    const instance = this.instantiated();
    try {
      return f(instance);
    } catch (e) {
      if (e instanceof MemoryError) throw e;
      const payload = e && Object.prototype.hasOwnProperty.call(e, "payload") ? e.payload : undefined;
      if (payload && typeof payload.tag === "string") {
        if (iface === "people" && payload.tag === "not-found") {
          throw new PersonNotFoundError(`no person ${JSON.stringify(payload.val)} is known to you`);
        }
        throw fromGuest(payload);
      }
      this.dropInstance();
      throw new SandboxError(`the policy component failed: ${e && e.message ? e.message : String(e)}`);
    }
  }

  /**
   * Lets the home's lock go while the files component waits on a remote service (it has
   * committed what the call wrote so far), so that a slow service never stalls other
   * processes.
   */
  unlock() {
    this.lock?.release();
    this.lock = null;
  }

  /**
   * Takes the lock back after a remote call; when it cannot, the call may write nothing
   * more and fails as busy (the files component refuses its writes, the index's are
   * refused here).
   */
  relock() {
    try {
      this.lock = this.home.lock();
    } catch (e) {
      this.lockLost = e.message;
      throw e;
    }
  }
}

/** The text of a thrown error or interface variant. */
function messageOf(e) {
  if (e && typeof e.tag === "string") return e.tag === "invalid-line" ? `invalid line: ${e.val}` : String(e.val);
  return e && e.message ? e.message : String(e);
}
