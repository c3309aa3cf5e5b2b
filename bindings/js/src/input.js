// Turns the public API's arguments into the component's record types, refusing a bad
// argument with an InvalidInputError before anything runs (so nothing changes on disk).
// Both camelCase and the wire's snake_case names are accepted.

import { InvalidInputError } from "./errors.js";

/** The memory types, as the WIT enum names them. */
export const MEMORY_TYPES = ["preference", "identity", "relationship", "knowledge", "context", "event", "task", "observation", "reflection"];

const bad = (m) => new InvalidInputError(m);
const pick = (o, camel, snake) => (o[camel] !== undefined ? o[camel] : o[snake]);

/** A required string. */
export function text(v, name) {
  if (typeof v !== "string") throw bad(`${name} must be a string`);
  return v;
}

/** An optional string (undefined or null mean none). */
export function optionalText(v, name) {
  return v === undefined || v === null ? undefined : text(v, name);
}

/** A boolean, false when absent. */
export function bool(v, name) {
  if (v === undefined || v === null) return false;
  if (typeof v !== "boolean") throw bad(`${name} must be true or false`);
  return v;
}

/** An optional u32. */
export function optionalU32(v, name) {
  if (v === undefined || v === null) return undefined;
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw bad(`${name} must be an integer from 0 to 4294967295`);
  return v;
}

/** A list of strings, empty when absent. */
export function texts(v, name) {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === "string")) throw bad(`${name} must be a list of strings`);
  return v;
}

/** A memory type name (any case, trimmed, as the Rust host parses it). */
export function memoryType(v, name = "memoryType") {
  if (v === undefined || v === null) return undefined;
  const t = typeof v === "string" ? v.trim().toLowerCase() : null;
  if (!MEMORY_TYPES.includes(t)) throw bad(`unknown ${name} ${JSON.stringify(v)}; one of ${MEMORY_TYPES.join(", ")}`);
  return t;
}

/**
 * Who is asking: `{ user, chat }` (or `userId`/`chatId`, `user_id`/`chat_id`), or a user
 * id alone.
 */
export function caller(c) {
  if (typeof c === "string") return { userId: c, chatId: undefined };
  if (!c || typeof c !== "object") throw bad("the caller must be { user, chat } or a user id");
  const userId = optionalText(c.user ?? c.userId ?? c.user_id, "caller.user");
  const chatId = optionalText(c.chat ?? c.chatId ?? c.chat_id, "caller.chat");
  return { userId, chatId };
}

/** A new memory: `{ content, memoryType, expiresInDays, subjects, shared, source, observedAt, context }`. */
export function newMemory(item) {
  if (typeof item === "string") item = { content: item };
  if (!item || typeof item !== "object") throw bad("a memory must be { content, ... } or its text");
  return {
    content: text(item.content, "content"),
    memoryType: memoryType(pick(item, "memoryType", "memory_type")),
    expiresInDays: optionalU32(pick(item, "expiresInDays", "expires_days"), "expiresInDays"),
    subjects: texts(item.subjects, "subjects"),
    shared: bool(item.shared, "shared"),
    source: optionalText(item.source, "source"),
    observedAt: optionalText(pick(item, "observedAt", "observed_at"), "observedAt"),
    context: optionalText(item.context, "context"),
  };
}

/**
 * A correction: `{ content, memoryType, expiresInDays, subjects }` or its text. An absent
 * `memoryType` or `subjects` keeps the memory's.
 */
export function correction(c) {
  if (typeof c === "string") c = { content: c };
  if (!c || typeof c !== "object") throw bad("a correction must be { content, ... } or its text");
  return {
    content: text(c.content, "content"),
    memoryType: memoryType(pick(c, "memoryType", "memory_type")),
    expiresInDays: optionalU32(pick(c, "expiresInDays", "expires_days"), "expiresInDays"),
    subjects: c.subjects === undefined || c.subjects === null ? undefined : texts(c.subjects, "subjects"),
  };
}

/** List options: `{ limit, memoryType, includeExpired, includeSuperseded }`. */
export function listOptions(o) {
  o = o ?? {};
  if (typeof o !== "object") throw bad("list options must be an object");
  return {
    limit: optionalU32(o.limit, "limit"),
    memoryType: memoryType(pick(o, "memoryType", "memory_type")),
    includeExpired: bool(pick(o, "includeExpired", "include_expired"), "includeExpired"),
    includeSuperseded: bool(pick(o, "includeSuperseded", "include_superseded"), "includeSuperseded"),
  };
}

/** A search: `{ query, limit, about }` or the query text alone. */
export function searchQuery(q) {
  if (typeof q === "string") q = { query: q };
  if (!q || typeof q !== "object") throw bad("a search must be { query, limit, about } or its text");
  return {
    text: text(q.query ?? q.text, "query"),
    limit: optionalU32(q.limit, "limit"),
    about: optionalText(q.about, "about"),
  };
}

/** A new person: `{ name, relation, aliases }`. */
export function newPerson(p) {
  if (typeof p === "string") p = { name: p };
  if (!p || typeof p !== "object") throw bad("a person must be { name, relation, aliases } or a name");
  return {
    name: text(p.name, "name"),
    relation: optionalText(p.relation, "relation"),
    aliases: texts(p.aliases, "aliases"),
  };
}

/**
 * One exchange of a conversation: `{ session, userMessage, assistantMessage, provider }`
 * (or the snake_case names).
 */
export function turn(t) {
  if (!t || typeof t !== "object") throw bad("a turn must be { session, userMessage, assistantMessage, provider }");
  return {
    session: text(t.session, "session"),
    provider: optionalText(t.provider, "provider"),
    userMessage: text(pick(t, "userMessage", "user_message"), "userMessage"),
    assistantMessage: optionalText(pick(t, "assistantMessage", "assistant_message"), "assistantMessage"),
  };
}
