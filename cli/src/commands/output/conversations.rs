//! Printing what the commands an agent runs around a conversation did: `context`, `turn`,
//! `extract`, `profile`, `reflect` and `tools`.

use serde_json::{Value, json};

use ash_memory::{ContextBlock, Extraction, Profile, Reflection, StoredTurn};

use super::{Output, emit, emit_rendered, print_json};
use crate::wire;

impl Output {
    pub fn context(&self, c: &ContextBlock) {
        if self.json {
            return print_json(&wire::context(c));
        }
        emit_rendered(ash_memory_render::context(&wire::context(c)));
    }

    /// What `turn` stored.
    pub fn stored_turn(&self, t: &StoredTurn) {
        if self.json {
            return print_json(&wire::stored_turn(t));
        }
        say!("Stored {} message(s) in session {}", t.message_ids.len(), t.session_id);
        if t.redacted > 0 {
            say!("Redacted {} secret(s) before storing", t.redacted);
        }
    }

    /// What `extract` did.
    pub fn extraction(&self, e: &Extraction) {
        if self.json {
            return print_json(&wire::extraction(e));
        }
        let how = if e.offline {
            "by rules (no language model answered)".to_owned()
        } else {
            format!("with {} language model call(s)", e.llm_calls)
        };
        say!("Read {} exchange(s) {how}; remembered {}", e.turns, e.stored.len());
        for m in &e.stored {
            say!(
                "  + {} [{}] {}",
                &m.id[..8.min(m.id.len())],
                m.memory_type.as_str(),
                ash_memory_render::one_line(&m.content)
            );
        }
        for why in &e.skipped {
            say!("  - {why}");
        }
    }

    /// The user profile.
    pub fn profile(&self, p: &Profile) {
        if self.json {
            return print_json(&wire::profile(p));
        }
        if p.notes.is_empty() {
            return say!("No profile yet: nothing long-lived is known about you.");
        }
        for note in &p.notes {
            say!("- {note}");
        }
    }

    pub fn reflection(&self, r: &Reflection) {
        match r {
            Reflection::Written(m) if self.json => print_json(&json!({ "written": wire::memory(m) })),
            Reflection::Skipped(why) if self.json => print_json(&json!({ "skipped": why })),
            Reflection::Written(m) => say!("Reflection {}:\n{}", m.id, m.content),
            Reflection::Skipped(why) => say!("No reflection: {why}"),
        }
    }

    pub fn tools(&self, schemas: &Value) {
        print_json(schemas);
    }

    pub fn tool_result(&self, text: &str) {
        if self.json {
            return print_json(&json!({ "result": text }));
        }
        say!("{text}");
    }
}
