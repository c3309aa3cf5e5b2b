// The component's imports, as objects for jco's instantiation mode: each interface is a
// thin adapter over a capability (fs, sql, embedder, llm, clock, ids, log, settings),
// as the Rust host's host_state.rs. Errors are thrown as the interface's `{ tag, val }`
// variant; anything else thrown is a host bug and aborts the call.

/**
 * The host state the imports reach, and nothing more.
 * @typedef {{
 *   fs: import("./fs.js").HomeFs,
 *   sql: import("./sql.js").SqlConnection,
 *   embedder: { embed(t: string[]): Float32Array[], modelId(): string, dimension(): number, isRemote(): boolean },
 *   llm: { complete(r: object): string, isRemote(): boolean },
 *   clock: import("./clock.js").Clock,
 *   ids: () => string,
 *   log: (level: string, message: string) => void,
 *   settings: {
 *     supersessionThreshold: number, maxEntries?: bigint,
 *     extractionEnabled: boolean, extractionConfidenceThreshold: number, localEmbedder: boolean,
 *     decayToldFacts: boolean, weakSimilarity: number,
 *   },
 *   writable: () => string | null,
 * }} HostState
 */

/**
 * Builds the import object for one home.
 * @param {HostState} s
 */
export function makeImports(s) {
  const byInterface = interfaces(s);
  // jco 1.35's types name the imports with their version and its JS without: give both.
  const out = {};
  for (const [name, impl] of Object.entries(byInterface)) {
    out[name] = impl;
    out[name.replace(/@[^@]+$/, "")] = impl;
  }
  return out;
}

/** The imports, one object per interface. */
function interfaces(s) {
  // Once the lock could not be taken back after a remote call, nothing more is written.
  const refuseWrite = (tag) => {
    const why = s.writable();
    if (why) throw { tag, val: `not written: ${why}` };
  };
  return {
    // The collections and their journal are the component's own (files/wasm): the host
    // supplies the home's files and lock.
    "ash:memory/fs@0.2.0": s.fs.imports(),
    // The index is the component's own (index/wasm): the host runs its statements.
    "ash:memory/sql@0.2.0": {
      open: () => s.sql.open(),
      close: () => s.sql.close(),
      reset: () => (refuseWrite("failed"), s.sql.reset()),
      query: (statement, params) => s.sql.query(statement, params),
      execute: (statement, params) => (refuseWrite("failed"), s.sql.execute(statement, params)),
      executeEach: (statement, width, params) => (refuseWrite("failed"), s.sql.executeEach(statement, width, params)),
      batch: (statements) => s.sql.batch(statements),
    },
    "ash:memory/embedder@0.2.0": {
      // The files component lets the lock go around these calls when they are remote.
      embed: (texts) => s.embedder.embed(texts),
      modelId: () => s.embedder.modelId(),
      dimension: () => s.embedder.dimension(),
    },
    "ash:memory/llm@0.2.0": {
      complete: (request) => s.llm.complete(request),
    },
    "ash:memory/clock@0.2.0": {
      now: () => s.clock.nowRfc3339(),
    },
    "ash:memory/ids@0.2.0": {
      newId: () => s.ids(),
    },
    "ash:memory/log@0.2.0": {
      log: (level, message) => s.log(level, message),
      // No progress bar: a rebuild reports through the log at debug level.
      progress: (task, done, total) => {
        if (total > 0n && done >= total) s.log("debug", `${task}: ${done}/${total}`);
      },
    },
    "ash:memory/settings@0.2.0": {
      get: () => s.settings,
    },
    "ash:memory/types@0.2.0": {},
  };
}
