//! Printing what the conversation commands did: `turn`, `extract` and `profile`.

use ash_memory::{Extraction, Profile, StoredTurn};

use super::{Output, emit, print_json};
use crate::wire;

impl Output {
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
                m.content
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
}
