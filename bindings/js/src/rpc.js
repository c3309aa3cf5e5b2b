// The JSON-RPC methods of `ash-memory serve` (cli/src/server/methods.rs) over a Memory:
// the same names, the same parameters (unknown ones refused, so a misspelt `limt` is an
// error), the caller taken out of `user_id`/`chat_id` (default user "local"), and the same
// result shapes. The conformance runner drives the memory through it.

import { MemoryError } from "./errors.js";
import { MEMORY_TYPES } from "./input.js";

/** A JSON-RPC error that is not a policy error: bad params, unknown method. */
export class RpcError extends Error {
  /**
   * @param {number} code
   * @param {string} kind what the conformance suite names it
   * @param {string} message
   */
  constructor(code, kind, message) {
    super(message);
    this.code = code;
    this.kind = kind;
  }
}

const invalidParams = (m) => new RpcError(-32602, "invalid_params", m);

/** serde's deny_unknown_fields: every member must be one the method knows. */
function checkFields(params, fields) {
  for (const key of Object.keys(params)) {
    if (!(key in fields)) {
      const expected = Object.keys(fields).map((f) => `\`${f}\``).join(", ");
      throw invalidParams(`unknown field \`${key}\`, expected ${expected ? `one of ${expected}` : "no fields"}`);
    }
  }
  const out = {};
  for (const [key, type] of Object.entries(fields)) out[key] = field(params, key, type);
  return out;
}

/** One member, typed: "string", "string?", "u32?", "bool=", "strings=", "strings?", "any". */
function field(params, key, type) {
  const v = params[key];
  const optional = type.endsWith("?");
  const defaulted = type.endsWith("=");
  const base = type.replace(/[?=]$/, "");
  if (v === undefined) {
    if (optional) return undefined;
    if (defaulted) return base === "bool" ? false : [];
    throw invalidParams(`missing field \`${key}\``);
  }
  if (v === null && optional) return undefined;
  const wrong = (what) => invalidParams(`invalid type for \`${key}\`: expected ${what}`);
  switch (base) {
    case "string":
      if (typeof v !== "string") throw wrong("a string");
      return v;
    case "u32":
      if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw wrong("u32");
      return v;
    case "bool":
      if (typeof v !== "boolean") throw wrong("a boolean");
      return v;
    case "strings":
      if (!Array.isArray(v) || !v.every((s) => typeof s === "string")) throw wrong("a sequence of strings");
      return v;
    default:
      return v;
  }
}

/** A memory type name, as `MemoryType::parse`; an unknown one is a params error. */
function memoryType(name) {
  if (name === undefined) return undefined;
  const t = name.trim().toLowerCase();
  if (!MEMORY_TYPES.includes(t)) {
    throw invalidParams(`unknown memory_type ${JSON.stringify(name)}; one of ${MEMORY_TYPES.join(", ")}`);
  }
  return t;
}

/** Takes `user_id` or `chat_id` out of the params. */
function takeId(params, key) {
  const v = params[key];
  delete params[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw invalidParams(`${key} is a string`);
  return v;
}

/**
 * Runs one method for the owner's socket, as `ash-memory serve` does.
 * @param {import("./memory.js").Memory} mem
 * @param {string} method
 * @param {Record<string, unknown>} [rawParams]
 * @returns {Promise<unknown>} the JSON-RPC `result`
 */
export async function callMethod(mem, method, rawParams = {}) {
  if (rawParams === null || typeof rawParams !== "object" || Array.isArray(rawParams)) {
    if (Array.isArray(rawParams) && rawParams.length === 0) rawParams = {};
    else throw invalidParams("params are an object of named parameters");
  }
  const params = { ...rawParams };
  const user = takeId(params, "user_id");
  const chat = takeId(params, "chat_id");
  const caller = { user: user ?? "local", chat };
  switch (method) {
    case "memory.search": {
      const p = checkFields(params, { query: "string", limit: "u32?", about: "string?" });
      return mem.search(caller, { query: p.query, limit: p.limit, about: p.about });
    }
    case "memory.add": {
      const p = checkFields(params, {
        content: "string", source: "string?", expires_days: "u32?", subjects: "strings=",
        memory_type: "string?", shared: "bool=", observed_at: "string?", context: "string?",
      });
      return mem.add(caller, {
        content: p.content,
        memoryType: memoryType(p.memory_type),
        expiresInDays: p.expires_days,
        subjects: p.subjects,
        shared: p.shared,
        source: p.source ?? "rpc",
        observedAt: p.observed_at,
        context: p.context,
      });
    }
    case "memory.list": {
      const p = checkFields(params, {
        limit: "u32?", memory_type: "string?", include_expired: "bool=", include_superseded: "bool=",
      });
      const memories = await mem.list(caller, {
        limit: p.limit,
        memoryType: memoryType(p.memory_type),
        includeExpired: p.include_expired,
        includeSuperseded: p.include_superseded,
      });
      return { memories };
    }
    case "memory.delete": {
      const p = checkFields(params, { memory_id: "string" });
      return { deleted: await mem.delete(caller, p.memory_id) };
    }
    case "memory.correct": {
      const p = checkFields(params, {
        memory_id: "string", content: "string", memory_type: "string?", expires_days: "u32?", subjects: "strings?",
      });
      return mem.correct(caller, p.memory_id, {
        content: p.content,
        memoryType: memoryType(p.memory_type),
        expiresInDays: p.expires_days,
        subjects: p.subjects,
      });
    }
    case "memory.get": {
      const p = checkFields(params, { memory_id: "string" });
      return mem.get(caller, p.memory_id);
    }
    case "memory.history": {
      const p = checkFields(params, { memory_id: "string" });
      return { memories: await mem.history(caller, p.memory_id) };
    }
    case "memory.context": {
      const p = checkFields(params, { message: "string", max_tokens: "u32?", session: "string?" });
      return mem.context(caller, { message: p.message, maxTokens: p.max_tokens, session: p.session });
    }
    case "conversations.turn": {
      const p = checkFields(params, {
        session: "string", user_message: "string", assistant_message: "string?", provider: "string?",
      });
      return mem.turn(caller, {
        session: p.session,
        userMessage: p.user_message,
        assistantMessage: p.assistant_message,
        provider: p.provider,
      });
    }
    case "conversations.extract": {
      const p = checkFields(params, { session: "string?" });
      return mem.extract(caller, { session: p.session });
    }
    case "conversations.profile":
      checkFields(params, {});
      return mem.profile(caller);
    case "people.list":
      checkFields(params, {});
      return { people: await mem.people.list(caller) };
    case "people.show": {
      const p = checkFields(params, { reference: "string" });
      return mem.people.show(caller, p.reference);
    }
    case "people.add": {
      const p = checkFields(params, { name: "string", relation: "string?", aliases: "strings=" });
      return mem.people.add(caller, { name: p.name, relation: p.relation, aliases: p.aliases });
    }
    case "people.alias": {
      const p = checkFields(params, { reference: "string", alias: "string" });
      return mem.people.alias(caller, p.reference, p.alias);
    }
    case "people.merge": {
      const p = checkFields(params, { keep: "string", merge: "string" });
      return mem.people.merge(caller, p.keep, p.merge);
    }
    case "people.forget": {
      const p = checkFields(params, { reference: "string", purge: "bool=" });
      return mem.people.forget(caller, p.reference, { purge: p.purge });
    }
    case "tools.schemas":
      checkFields(params, {});
      return mem.tools.schemas();
    case "tools.call": {
      const p = checkFields(params, { name: "string", arguments: "any" });
      const args = typeof p.arguments === "string" ? p.arguments : JSON.stringify(p.arguments);
      return { result: await mem.tools.call(caller, p.name, args) };
    }
    case "maintenance.gc": {
      const p = checkFields(params, { dry_run: "bool=" });
      return mem.gc({ dryRun: p.dry_run });
    }
    default:
      throw new RpcError(-32601, "method_not_found", `no method ${JSON.stringify(method)}; see docs/serving.md`);
  }
}

/** The `error.data.kind` of a failure, as the server would answer it. */
export function errorKind(e) {
  if (e instanceof MemoryError || e instanceof RpcError) return e.kind;
  return "internal";
}
