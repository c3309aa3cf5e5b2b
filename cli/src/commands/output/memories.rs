//! Printing memories: what `add`, `correct`, `confirm` and `delete` did, and what `search`,
//! `list`, `show` and `history` found.

use serde_json::{Value, json};

use ash_memory::{Added, Memory, SearchResults};

use super::{Output, emit, emit_rendered, print_json};
use crate::wire;
use ash_memory_render::one_line;

impl Output {
    /// One added memory: the memory's own fields, plus what it superseded and evicted.
    pub fn added(&self, a: &Added) {
        let Some(m) = a.memories.first() else { return };
        if self.json {
            let mut v = wire::memory(m);
            v["superseded"] = Value::Array(a.superseded.iter().map(|(old, _)| wire::memory(old)).collect());
            v["evicted"] = wire::memories(&a.evicted);
            v["restated"] = Value::Bool(a.restated.contains(&m.id));
            return print_json(&v);
        }
        emit_rendered(ash_memory_render::added(&wire::added(a)));
    }

    pub fn history(&self, chain: &[Memory]) {
        if self.json {
            return print_json(&wire::memories(chain));
        }
        for (i, m) in chain.iter().enumerate() {
            let state = match (m.archive_reason, &m.superseded_at) {
                (Some(reason), _) => reason.as_str(),
                (None, Some(_)) => "replaced",
                (None, None) => "current",
            };
            let created: String = m.created_at.chars().take(19).collect();
            say!("{}. {created}  {state:<15}  {}  {}", i + 1, m.id, one_line(&m.content));
        }
    }

    pub fn search(&self, r: &SearchResults) {
        if self.json {
            return print_json(&wire::search(r));
        }
        emit_rendered(ash_memory_render::search(&wire::search(r)));
    }

    pub fn list(&self, memories: &[Memory]) {
        if self.json {
            return print_json(&wire::memories(memories));
        }
        emit_rendered(ash_memory_render::list(
            &json!({ "memories": wire::memories(memories) }),
        ));
    }

    pub fn show(&self, m: &Memory) {
        if self.json {
            return print_json(&wire::memory(m));
        }
        let none = || "-".to_owned();
        let rows = [
            ("id", m.id.clone()),
            ("content", one_line(&m.content)),
            ("type", m.memory_type.as_str().to_owned()),
            ("scope", scope(m)),
            ("source", m.source.clone()),
            ("created", m.created_at.clone()),
            ("observed", m.observed_at.clone().unwrap_or_else(none)),
            (
                "context",
                m.context.as_deref().map_or_else(none, |c| c.replace('\n', " / ")),
            ),
            ("expires", m.expires_at.clone().unwrap_or_else(none)),
            ("superseded", m.superseded_at.clone().unwrap_or_else(none)),
            ("superseded by", m.superseded_by_id.clone().unwrap_or_else(none)),
            ("embedded", if m.embedded { "yes" } else { "pending" }.to_owned()),
        ];
        for (k, v) in rows {
            say!("{k:>13}: {v}");
        }
    }

    pub fn deleted(&self, id: &str) {
        let result = json!({ "deleted": id });
        if self.json {
            return print_json(&result);
        }
        emit_rendered(ash_memory_render::deleted(&result));
    }

    /// A correction: the new memory and the one it replaces.
    pub fn corrected(&self, a: &Added) {
        if a.memories.is_empty() {
            return;
        }
        if self.json {
            return print_json(&wire::added(a));
        }
        emit_rendered(ash_memory_render::corrected(&wire::added(a)));
    }

    pub fn confirmed(&self, m: &Memory) {
        if self.json {
            return print_json(&wire::memory(m));
        }
        say!("Confirmed {}: {}", m.id, one_line(&m.content));
    }
}

/// Scope as people read it.
fn scope(m: &Memory) -> String {
    match (&m.chat_id, &m.owner_user_id) {
        (Some(chat), _) => format!("chat {chat}"),
        (None, Some(user)) => format!("personal ({user})"),
        (None, None) => "none".into(),
    }
}
