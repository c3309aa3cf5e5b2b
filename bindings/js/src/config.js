// `config.toml` in the home, with the Rust host's keys, defaults and errors (config.rs):
// a missing file means defaults; a malformed one, or an unknown key, is an error naming
// the file, never a silent default.

import fs from "node:fs";
import { parse } from "smol-toml";
import { ConfigError } from "./errors.js";
import { ioError } from "./home.js";

export { ConfigError };

/** Retries after a 429 or 5xx answer, with exponential backoff from 250 ms. */
export const HTTP_RETRIES = 2;

// Each table's keys and their types; anything else is refused as serde's
// deny_unknown_fields does.
const SCHEMA = {
  memory: {
    auto_gc: "boolean",
    max_entries: "u64",
    extraction_enabled: "boolean",
    extraction_confidence_threshold: "float",
    supersession_threshold: "float",
    decay_told_facts: "boolean",
    reflection_check_minutes: "u64",
  },
  sandbox: { fuel_per_call: "u64", memory_limit_mib: "u64" },
  llm: { base_url: "string", model: "string", api_key_env: "string", timeout_secs: "u64" },
  embedder: {
    provider: "string",
    base_url: "string",
    model: "string",
    dimensions: "u32",
    api_key_env: "string",
    timeout_secs: "u64",
  },
};

/** Checks one value against its type; returns a message when it does not fit. */
function typeProblem(value, type) {
  const integer = typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value));
  switch (type) {
    case "boolean":
      return typeof value === "boolean" ? null : "expected a boolean";
    case "string":
      return typeof value === "string" ? null : "expected a string";
    case "float":
      return typeof value === "number" || typeof value === "bigint" ? null : "expected a number";
    case "u64":
      return integer && BigInt(value) >= 0n && BigInt(value) < 1n << 64n ? null : "expected a non-negative integer";
    case "u32":
      return integer && BigInt(value) >= 0n && BigInt(value) <= 0xffffffffn ? null : "expected an integer from 0 to 4294967295";
    default:
      return null;
  }
}

/**
 * The parsed `config.toml`, checked.
 * @typedef {{
 *   memory: { auto_gc?: boolean, max_entries?: number, extraction_enabled?: boolean,
 *             extraction_confidence_threshold?: number, supersession_threshold?: number,
 *             decay_told_facts?: boolean, reflection_check_minutes?: number },
 *   sandbox: { fuel_per_call?: number, memory_limit_mib?: number },
 *   llm?: { base_url: string, model: string, api_key_env?: string, timeout_secs?: number },
 *   embedder: { provider?: string, base_url?: string, model?: string, dimensions?: number,
 *               api_key_env?: string, timeout_secs?: number },
 * }} Config
 */

/**
 * Parses config text; `where` names the file in errors.
 * @param {string} text
 * @param {string} where
 * @returns {Config}
 */
export function parseConfig(text, where) {
  let doc;
  try {
    doc = parse(text, { integersAsBigInt: "asNeeded" });
  } catch (e) {
    throw new ConfigError(`${where}: ${e.message}`);
  }
  const config = { memory: {}, sandbox: {}, embedder: {} };
  for (const [table, value] of Object.entries(doc)) {
    const keys = SCHEMA[table];
    if (!keys) {
      throw new ConfigError(`${where}: unknown field \`${table}\`, expected one of \`memory\`, \`sandbox\`, \`llm\`, \`embedder\``);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof Date) {
      throw new ConfigError(`${where}: [${table}] must be a table`);
    }
    const out = {};
    for (const [key, v] of Object.entries(value)) {
      if (!(key in keys)) {
        const known = Object.keys(keys).map((k) => `\`${k}\``).join(", ");
        throw new ConfigError(`${where}: unknown field \`${key}\` in [${table}], expected one of ${known}`);
      }
      const problem = typeProblem(v, keys[key]);
      if (problem) throw new ConfigError(`${where}: [${table}] ${key}: ${problem}`);
      out[key] = typeof v === "bigint" ? Number(v) : v;
    }
    config[table] = out;
  }
  const confidence = config.memory.extraction_confidence_threshold;
  if (confidence !== undefined && !(confidence >= 0 && confidence <= 1)) {
    throw new ConfigError(`${where}: [memory] extraction_confidence_threshold is ${confidence}; it must be from 0 to 1`);
  }
  if (config.llm) {
    for (const key of ["base_url", "model"]) {
      if (config.llm[key] === undefined) throw new ConfigError(`${where}: missing field \`${key}\` in [llm]`);
    }
  }
  return config;
}

/**
 * Reads the home's `config.toml`, or defaults if there is none.
 * @param {string} file
 * @returns {Config}
 */
export function loadConfig(file) {
  let text;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if (e.code === "ENOENT") return { memory: {}, sandbox: {}, embedder: {} };
    throw ioError(file, e);
  }
  return parseConfig(text, file);
}
