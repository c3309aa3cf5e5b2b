// Compiled (not run) by `npm test`: the public types in index.d.ts describe the API as it is
// used, and they are the WIT's types (generated/interfaces/*.d.ts) in the JSONL's spelling.
// The key lists below are exhaustive both ways (a Record over the keys), so a field the WIT
// gains or loses fails this check until the lists, and src/wire.js, follow; api.test.mjs
// holds the same lists against what the component really returns.
import {
  openMemory, Memory, MemoryRecord, SearchHit, Person, ContextBlock, GcReport, MemoryType,
  ArchiveReason, StaticEmbedder, OpenAiLlm, HttpClient, MemoryNotFoundError, PastMessage,
  StoredTurn, Extraction, Profile, Added, Correction,
} from "../index.js";

const memoryKeys: Record<keyof MemoryRecord, true> = {
  id: true, content: true, memory_type: true, created_at: true, observed_at: true, context: true,
  owner_user_id: true, chat_id: true, subject_person_ids: true, source: true, expires_at: true,
  superseded_at: true, superseded_by_id: true, embedded: true, archived_at: true, archive_reason: true,
};
const addedKeys: Record<keyof Added, true> = { memories: true, superseded: true, evicted: true, restated: true };
const hitKeys: Record<keyof SearchHit, true> = {
  ...memoryKeys, score: true, similarity: true, subjects: true, reasons: true,
};
const personKeys: Record<keyof Person, true> = {
  id: true, name: true, relation: true, aliases: true, created_at: true, updated_at: true, relationships: true,
};
const contextKeys: Record<keyof ContextBlock, true> = {
  people: true, memories: true, past_messages: true, profile: true, markdown: true, estimated_tokens: true,
  dropped: true,
};
const pastMessageKeys: Record<keyof PastMessage, true> = {
  id: true, session: true, role: true, content: true, created_at: true, score: true,
};
const storedTurnKeys: Record<keyof StoredTurn, true> = { session_id: true, message_ids: true, redacted: true };
const extractionKeys: Record<keyof Extraction, true> = {
  turns: true, llm_calls: true, offline: true, stored: true, skipped: true,
};
const profileKeys: Record<keyof Profile, true> = { notes: true, memory_ids: true };
const reasons: Record<ArchiveReason, true> = {
  superseded: true, expired: true, ephemeral_decay: true, evicted: true, deleted: true, forgotten: true, decayed: true,
};
const types: Record<MemoryType, true> = {
  preference: true, identity: true, relationship: true, knowledge: true,
  context: true, event: true, task: true, observation: true, reflection: true,
};

async function main() {
  const m: Memory = await openMemory({ home: "/tmp/x", ids: "sequential" });
  const a = await m.add({ user: "alice" }, { content: "x" });
  const r: MemoryRecord = a.memories[0];
  const restated: string[] = a.restated;
  const fix: Correction = { content: "y", memoryType: "identity", expiresInDays: 30, subjects: ["Sarah"] };
  const corrected: Added = await m.correct({ user: "alice" }, r.id, fix);
  const replaced: string = corrected.superseded[0].superseded_by_id;
  await m.correct("alice", r.id, "z");
  // @ts-expect-error: a correction needs its text
  await m.correct("alice", r.id, { memoryType: "identity" });
  // Absent options are null, and enum cases are spelled as in the JSONL.
  const expires: string | null = r.expires_at;
  // @ts-expect-error: an absent option is null, never undefined
  const never: string | undefined = r.superseded_by_id;
  // @ts-expect-error: the JSONL spells this reason with an underscore
  if (r.archive_reason === "ephemeral-decay") console.log("unreachable");
  // @ts-expect-error: not a memory type
  const mood: MemoryType = "mood";
  const hits = (await m.search("alice", { query: "x", about: "Sarah" })).hits;
  const similarity: number | null = hits[0].similarity;
  // @ts-expect-error: the search text is `query`, as the CLI and the server name it
  await m.search("alice", { text: "x" });
  const person: Person = await m.people.add("alice", { name: "Sarah" });
  const related: string = person.relationships[0].person_id;
  const block: ContextBlock = await m.context("alice", { message: "x", maxTokens: 100 });
  const turned: StoredTurn = await m.turn("alice", { session: "a", userMessage: "hi" });
  // @ts-expect-error: a turn needs the user's message
  await m.turn("alice", { session: "a" });
  const extracted: Extraction = await m.extract({ user: "alice" }, { session: "a" });
  const stored: MemoryRecord | undefined = extracted.stored[0];
  const notes: string[] = (await m.profile("alice")).notes;
  const past = (await m.context("alice", { message: "x", session: "b" })).past_messages[0];
  // @ts-expect-error: the role is "user" or "assistant"
  if (past.role === "system") console.log("unreachable");
  console.log(turned.session_id, stored?.source, notes, past.created_at, extracted.llm_calls);
  const report: GcReport = await m.gc({ dryRun: true });
  const reason: ArchiveReason | undefined = report.archived[0]?.archive_reason;
  const findings = await m.doctor();
  console.log(expires, never, mood, similarity, related, block.estimated_tokens, reason, findings[0].ok);
  console.log(r.id, hits[0].score, new StaticEmbedder().dimension(), new OpenAiLlm(new HttpClient(), "u", "m").isRemote());
  console.log(hitKeys, personKeys, contextKeys, reasons, types);
  console.log(pastMessageKeys, storedTurnKeys, extractionKeys, profileKeys, addedKeys, restated, replaced);
  try { await m.get("alice", "no-such-memory"); } catch (e) { if (e instanceof MemoryNotFoundError) console.log(e.kind); }
}
main();
