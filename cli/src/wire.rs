//! The contract's results as JSON, with the JSONL field names: one definition for what
//! `--json` prints and what the JSON-RPC and MCP servers answer, so that every surface
//! shows the same memory the same way.

use serde_json::{Value, json};

use ash_memory::{
    Added, ContextBlock, Extraction, Forgotten, GcReport, Memory, PastMessage, Person, Profile, Role, SearchHit,
    SearchResults, SessionMessage, SessionSummary, Standing, Stats, StoredTurn,
};

/// A memory, with the JSONL field names (the embedding left out).
pub fn memory(m: &Memory) -> Value {
    json!({
        "id": m.id,
        "content": m.content,
        "memory_type": m.memory_type.as_str(),
        "created_at": m.created_at,
        "observed_at": m.observed_at,
        "context": m.context,
        "owner_user_id": m.owner_user_id,
        "chat_id": m.chat_id,
        "subject_person_ids": m.subject_person_ids,
        "source": m.source,
        "expires_at": m.expires_at,
        "superseded_at": m.superseded_at,
        "superseded_by_id": m.superseded_by_id,
        "embedded": m.embedded,
        "archived_at": m.archived_at,
        "archive_reason": m.archive_reason.map(|r| r.as_str()),
    })
}

/// Several memories.
pub fn memories(ms: &[Memory]) -> Value {
    Value::Array(ms.iter().map(memory).collect())
}

/// A search hit: the memory's fields plus `score`, `similarity` and `subjects` (names).
pub fn hit(h: &SearchHit) -> Value {
    let mut v = memory(&h.memory);
    v["score"] = json!(h.score);
    v["similarity"] = json!(h.similarity);
    v["subjects"] = json!(h.subjects);
    v["reasons"] = json!(h.reasons.iter().map(|r| r.as_str()).collect::<Vec<_>>());
    v
}

/// Search results: `hits` and `notices`.
pub fn search(r: &SearchResults) -> Value {
    json!({ "hits": r.hits.iter().map(hit).collect::<Vec<_>>(), "notices": r.notices })
}

/// What an add stored (`memories`), replaced (`superseded`, each with the id that
/// replaced it), evicted, and found already stored (`restated`).
pub fn added(a: &Added) -> Value {
    let superseded: Vec<Value> = a
        .superseded
        .iter()
        .map(|(old, by)| json!({ "memory": memory(old), "superseded_by_id": by }))
        .collect();
    json!({
        "memories": memories(&a.memories),
        "superseded": superseded,
        "evicted": memories(&a.evicted),
        "restated": a.restated,
    })
}

/// A person, with the people.jsonl field names.
pub fn person(p: &Person) -> Value {
    let relationships: Vec<Value> = p
        .relationships
        .iter()
        .map(|(id, relation)| json!({ "person_id": id, "relation": relation }))
        .collect();
    json!({
        "id": p.id,
        "name": p.name,
        "relation": p.relation,
        "aliases": p.aliases,
        "created_at": p.created_at,
        "updated_at": p.updated_at,
        "relationships": relationships,
    })
}

/// What forgetting a person did.
pub fn forgotten(f: &Forgotten) -> Value {
    json!({
        "person": person(&f.person),
        "archived": f.archived,
        "unlinked": f.unlinked,
        "purged": f.purged,
    })
}

/// What a home holds: counts keyed by the JSONL spellings of types, sources and reasons.
pub fn stats(s: &Stats) -> Value {
    let h = &s.home;
    let by_type: serde_json::Map<String, Value> = h
        .by_type
        .iter()
        .map(|(t, n)| (t.as_str().to_owned(), json!(n)))
        .collect();
    let by_source: serde_json::Map<String, Value> = h.by_source.iter().map(|(k, n)| (k.clone(), json!(n))).collect();
    let archived: serde_json::Map<String, Value> = h
        .archived
        .iter()
        .map(|(r, n)| (r.as_str().to_owned(), json!(n)))
        .collect();
    json!({
        "memories": h.memories,
        "by_type": by_type,
        "personal": h.personal,
        "group": h.group,
        "users": h.users,
        "chats": h.chats,
        "by_source": by_source,
        "by_age": {
            "day": h.by_age.day, "week": h.by_age.week, "month": h.by_age.month,
            "year": h.by_age.year, "older": h.by_age.older,
        },
        "superseded": h.superseded,
        "expired": h.expired,
        "decayed": h.decayed,
        "fading": h.fading,
        "pending": h.pending,
        "archived": archived,
        "people": h.people,
        "newer_format": h.newer_format,
        "quarantined": s.quarantined,
        "index": {
            "model": h.index.model,
            "dimension": h.index.dimension,
            "entries": h.index.entries,
            "in_step": h.index.in_step,
        },
    })
}

/// Several people.
pub fn people(ps: &[Person]) -> Value {
    Value::Array(ps.iter().map(person).collect())
}

/// The context block: both sections' items, the markdown, and what the budget dropped.
pub fn context(c: &ContextBlock) -> Value {
    json!({
        "people": people(&c.people),
        "memories": c.memories.iter().map(hit).collect::<Vec<_>>(),
        "past_messages": c.past_messages.iter().map(past_message).collect::<Vec<_>>(),
        "profile": c.profile,
        "markdown": c.markdown,
        "estimated_tokens": c.estimated_tokens,
        "dropped": c.dropped,
    })
}

/// What gc archived (or would archive), with a count per reason.
pub fn gc(r: &GcReport) -> Value {
    let archived: Vec<Value> = r
        .archived
        .iter()
        .map(|a| json!({ "id": a.id, "content": a.content, "archive_reason": a.reason.as_str() }))
        .collect();
    let mut counts = serde_json::Map::new();
    for a in &r.archived {
        let n = counts.entry(a.reason.as_str()).or_insert(json!(0));
        *n = json!(n.as_u64().unwrap_or(0) + 1);
    }
    json!({ "dry_run": r.dry_run, "archived": archived, "counts": counts })
}

/// A past message, as the context shows it.
pub fn past_message(m: &PastMessage) -> Value {
    json!({
        "id": m.id,
        "session": m.session,
        "role": role(m.role),
        "content": m.content,
        "created_at": m.created_at,
        "score": m.score,
    })
}

fn role(r: Role) -> &'static str {
    match r {
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

/// What `turn` stored.
pub fn stored_turn(t: &StoredTurn) -> Value {
    json!({ "session_id": t.session_id, "message_ids": t.message_ids, "redacted": t.redacted })
}

/// What `extract` did.
pub fn extraction(e: &Extraction) -> Value {
    json!({
        "turns": e.turns,
        "llm_calls": e.llm_calls,
        "offline": e.offline,
        "stored": memories(&e.stored),
        "skipped": e.skipped,
    })
}

/// How each memory stands (`wit/browse.wit`).
pub fn standings(list: &[Standing]) -> Value {
    list.iter()
        .map(|s| {
            json!({
                "id": s.id,
                "subjects": s.subjects,
                "confidence": s.confidence,
                "confirmed_at": s.confirmed_at,
                "fading": s.fading,
                "session": s.session,
                "message_id": s.message,
                "turn": s.turn,
                "extraction_confidence": s.extraction_confidence,
            })
        })
        .collect()
}

/// The caller's sessions.
pub fn sessions(list: &[SessionSummary]) -> Value {
    list.iter()
        .map(|s| {
            json!({
                "name": s.name,
                "provider": s.provider,
                "turns": s.turns,
                "extracted_turns": s.extracted_turns,
                "created_at": s.created_at,
                "updated_at": s.updated_at,
            })
        })
        .collect()
}

/// A session's messages, each with the memories extraction took from it.
pub fn session_messages(list: &[SessionMessage]) -> Value {
    list.iter()
        .map(|m| {
            json!({
                "id": m.id,
                "turn": m.turn,
                "role": role(m.role),
                "content": m.content,
                "created_at": m.created_at,
                "extracted": m.extracted,
            })
        })
        .collect()
}

/// The user profile.
pub fn profile(p: &Profile) -> Value {
    json!({ "notes": p.notes, "memory_ids": p.memory_ids })
}
