//! Printing tokens: `token issue`, `revoke` and `list`.

use std::io::Write as _;

use serde_json::{Value, json};

use super::{Output, emit, print_json};
use crate::server::tokens::{Issued, TokenInfo};

impl Output {
    /// A new token: printed once, never stored.
    pub fn token_issued(&self, token: &str, t: &Issued) {
        if self.json {
            return print_json(&json!({ "token": token, "token_info": token_json(t, None) }));
        }
        // The token alone on stdout, so that `export ASH_RPC_TOKEN=$(ash-memory token issue
        // ...)` holds just the token; what it is goes to the person, on stderr.
        say!("{token}");
        let chat = t
            .chat_id
            .as_deref()
            .map(|c| format!(" in chat {c}"))
            .unwrap_or_default();
        let until = t
            .expires_at
            .as_deref()
            .map_or("until revoked".to_owned(), |e| format!("until {e}"));
        let _ = writeln!(
            std::io::stderr(),
            "note: token {} for user {}{chat}, {until}; shown only once",
            t.id,
            t.user_id
        );
    }

    pub fn token_revoked(&self, t: &Issued) {
        if self.json {
            return print_json(&json!({ "revoked": t.id }));
        }
        say!("Revoked token {} (user {})", t.id, t.user_id);
    }

    pub fn tokens(&self, tokens: &[TokenInfo]) {
        if self.json {
            let all: Vec<Value> = tokens
                .iter()
                .map(|t| token_json(&t.issued, t.revoked_at.as_deref()))
                .collect();
            return print_json(&Value::Array(all));
        }
        if tokens.is_empty() {
            say!("No tokens.");
            return;
        }
        say!("{:<12}  {:<16}  {:<16}  {:<20}  STATE", "ID", "USER", "CHAT", "CREATED");
        for t in tokens {
            let i = &t.issued;
            let state = match (&t.revoked_at, &i.expires_at) {
                (Some(at), _) => format!("revoked {at}"),
                (None, Some(e)) => format!("expires {e}"),
                (None, None) => "until revoked".to_owned(),
            };
            let chat = i.chat_id.as_deref().unwrap_or("-");
            say!(
                "{:<12}  {:<16}  {chat:<16}  {:<20}  {state}",
                i.id,
                i.user_id,
                i.created_at
            );
        }
    }
}

fn token_json(t: &Issued, revoked_at: Option<&str>) -> Value {
    json!({
        "id": t.id, "user_id": t.user_id, "chat_id": t.chat_id, "created_at": t.created_at,
        "expires_at": t.expires_at, "revoked_at": revoked_at,
    })
}
