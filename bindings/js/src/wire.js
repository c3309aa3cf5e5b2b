// The component's results in the JSON-RPC server's shapes (the Rust host's wire.rs): the
// JSONL field names in snake_case, absent options as null, so that a result of this
// package and an answer of `ash-memory serve` compare equal.

const orNull = (v) => (v === undefined ? null : v);
/** WIT enum cases are kebab-case in jco; the JSONL names are snake_case. */
const snake = (v) => (v === undefined || v === null ? null : v.replaceAll("-", "_"));

/** A memory, with the JSONL field names (the embedding left out). */
export function memory(m) {
  return {
    id: m.id,
    content: m.content,
    memory_type: snake(m.memoryType),
    created_at: m.createdAt,
    observed_at: orNull(m.observedAt),
    context: orNull(m.context),
    owner_user_id: orNull(m.ownerUserId),
    chat_id: orNull(m.chatId),
    subject_person_ids: m.subjectPersonIds,
    source: m.source,
    expires_at: orNull(m.expiresAt),
    superseded_at: orNull(m.supersededAt),
    superseded_by_id: orNull(m.supersededById),
    embedded: m.embedded,
    archived_at: orNull(m.archivedAt),
    archive_reason: snake(m.archiveReason),
  };
}

/** Several memories. */
export function memories(ms) {
  return ms.map(memory);
}

/** A search hit: the memory's fields plus `score`, `similarity`, `subjects` (names) and
 * `reasons` (how it was found: "meaning", "words", "person", "entity", "time", "reply"). */
export function hit(h) {
  return {
    ...memory(h.memory), score: h.score, similarity: orNull(h.similarity), subjects: h.subjects, reasons: h.reasons,
  };
}

/** Search results: `hits` and `notices`. */
export function search(r) {
  return { hits: r.hits.map(hit), notices: r.notices };
}

/**
 * What an add stored, replaced (each with the id that replaced it), evicted, and found
 * already stored (`restated`, ids).
 */
export function added(a) {
  return {
    memories: memories(a.memories),
    superseded: a.superseded.map(([old, by]) => ({ memory: memory(old), superseded_by_id: by })),
    evicted: memories(a.evicted),
    restated: a.restated,
  };
}

/** A person, with the people.jsonl field names. */
export function person(p) {
  return {
    id: p.id,
    name: p.name,
    relation: orNull(p.relation),
    aliases: p.aliases,
    created_at: p.createdAt,
    updated_at: orNull(p.updatedAt),
    relationships: p.relationships.map(([id, relation]) => ({ person_id: id, relation })),
  };
}

/** What forgetting a person did. */
export function forgotten(f) {
  return { person: person(f.person), archived: f.archived, unlinked: f.unlinked, purged: f.purged };
}

/** Several people. */
export function people(ps) {
  return ps.map(person);
}

/** A past message of another session, as the context shows it. */
export function pastMessage(m) {
  return {
    id: m.id,
    session: m.session,
    role: snake(m.role),
    content: m.content,
    created_at: m.createdAt,
    score: m.score,
  };
}

/** The context block: its sections' items, the markdown, and what the budget dropped. */
export function context(c) {
  return {
    people: people(c.people),
    memories: c.memories.map(hit),
    past_messages: c.pastMessages.map(pastMessage),
    profile: c.profile,
    markdown: c.markdown,
    estimated_tokens: c.estimatedTokens,
    dropped: c.dropped,
  };
}

/** What storing a turn wrote: the session's id, the messages' ids, how many secrets were redacted. */
export function storedTurn(t) {
  return { session_id: t.sessionId, message_ids: t.messageIds, redacted: t.redacted };
}

/** What an extraction read, called and stored (with the facts it skipped, and why). */
export function extraction(e) {
  return {
    turns: e.turns,
    llm_calls: e.llmCalls,
    offline: e.offline,
    stored: memories(e.stored),
    skipped: e.skipped,
  };
}

/** The user's profile: notes, most important first, and the memories behind them. */
export function profile(p) {
  return { notes: p.notes, memory_ids: p.memoryIds };
}

/** What gc archived (or would archive), with a count per reason. */
export function gc(r) {
  const archived = r.archived.map((a) => ({ id: a.id, content: a.content, archive_reason: snake(a.reason) }));
  const counts = {};
  for (const a of archived) counts[a.archive_reason] = (counts[a.archive_reason] ?? 0) + 1;
  return { dry_run: r.dryRun, archived, counts };
}
