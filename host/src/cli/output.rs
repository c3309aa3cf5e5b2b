//! Printing results: aligned text for people, one JSON document for programs. JSON
//! field names are the JSONL field names.

use serde_json::{Value, json};

use ash_memory::{Memory, RebuildReport, SearchResults};

pub struct Output {
    pub json: bool,
}

/// A memory as JSON, with the JSONL field names.
pub fn memory_json(m: &Memory) -> Value {
    json!({
        "id": m.id,
        "content": m.content,
        "memory_type": m.memory_type.as_str(),
        "created_at": m.created_at,
        "observed_at": m.observed_at,
        "owner_user_id": m.owner_user_id,
        "chat_id": m.chat_id,
        "subject_person_ids": m.subject_person_ids,
        "source": m.source,
        "expires_at": m.expires_at,
        "superseded_at": m.superseded_at,
        "superseded_by_id": m.superseded_by_id,
        "embedded": m.embedded,
    })
}

fn print_json(v: &Value) {
    println!("{}", serde_json::to_string_pretty(v).expect("JSON values serialize"));
}

/// Scope as people read it.
fn scope(m: &Memory) -> String {
    match (&m.chat_id, &m.owner_user_id) {
        (Some(chat), _) => format!("chat {chat}"),
        (None, Some(user)) => format!("personal ({user})"),
        (None, None) => "none".into(),
    }
}

impl Output {
    pub fn added(&self, m: &Memory) {
        if self.json {
            return print_json(&memory_json(m));
        }
        println!("Remembered {} [{}] {}", m.id, m.memory_type.as_str(), m.content);
        if let Some(at) = &m.expires_at {
            println!("  expires {at}");
        }
        if !m.embedded {
            println!("  (no embedding yet: found by words only until `ash-memory rebuild-index`)");
        }
    }

    pub fn search(&self, r: &SearchResults) {
        if self.json {
            let hits: Vec<Value> = r
                .hits
                .iter()
                .map(|h| {
                    let mut v = memory_json(&h.memory);
                    v["score"] = json!(h.score);
                    v["similarity"] = json!(h.similarity);
                    v["subjects"] = json!(h.subjects);
                    v
                })
                .collect();
            return print_json(&json!({ "hits": hits, "notices": r.notices }));
        }
        if r.hits.is_empty() {
            println!("No memories match.");
            return;
        }
        println!("{:<7} {:<36}  {:<12}  CONTENT", "SCORE", "ID", "TYPE");
        for h in &r.hits {
            println!(
                "{:<7.4} {:<36}  {:<12}  {}",
                h.score,
                h.memory.id,
                h.memory.memory_type.as_str(),
                h.memory.content
            );
        }
    }

    pub fn list(&self, memories: &[Memory]) {
        if self.json {
            return print_json(&Value::Array(memories.iter().map(memory_json).collect()));
        }
        if memories.is_empty() {
            println!("No memories.");
            return;
        }
        println!("{:<36}  {:<12}  {:<20}  CONTENT", "ID", "TYPE", "CREATED");
        for m in memories {
            let created: String = m.created_at.chars().take(19).collect();
            let mut flags = String::new();
            if m.superseded_at.is_some() {
                flags.push_str(" (superseded)");
            }
            println!(
                "{:<36}  {:<12}  {:<20}  {}{flags}",
                m.id,
                m.memory_type.as_str(),
                created,
                m.content
            );
        }
    }

    pub fn show(&self, m: &Memory) {
        if self.json {
            return print_json(&memory_json(m));
        }
        let none = || "-".to_owned();
        let rows = [
            ("id", m.id.clone()),
            ("content", m.content.clone()),
            ("type", m.memory_type.as_str().to_owned()),
            ("scope", scope(m)),
            ("source", m.source.clone()),
            ("created", m.created_at.clone()),
            ("observed", m.observed_at.clone().unwrap_or_else(none)),
            ("expires", m.expires_at.clone().unwrap_or_else(none)),
            ("superseded", m.superseded_at.clone().unwrap_or_else(none)),
            ("superseded by", m.superseded_by_id.clone().unwrap_or_else(none)),
            ("embedded", if m.embedded { "yes" } else { "pending" }.to_owned()),
        ];
        for (k, v) in rows {
            println!("{k:>13}: {v}");
        }
    }

    pub fn deleted(&self, id: &str) {
        if self.json {
            return print_json(&json!({ "deleted": id }));
        }
        println!("Deleted {id} (a copy is kept in memory/archive.jsonl)");
    }

    pub fn rebuilt(&self, r: &RebuildReport) {
        if self.json {
            return print_json(&json!({
                "indexed": r.indexed, "embedded": r.embedded, "pending": r.pending, "quarantined": r.quarantined,
            }));
        }
        println!(
            "Indexed {} memories ({} newly embedded, {} without an embedding, {} lines quarantined)",
            r.indexed, r.embedded, r.pending, r.quarantined
        );
    }
}
