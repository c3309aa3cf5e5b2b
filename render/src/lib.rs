//! How ash-memory's results read on a terminal, written once for the `ash-memory` CLI and
//! the `ash-sb` sandbox client, so that an agent or person sees the same thing whether it
//! runs on the host or in a sandbox. The input is a result in the JSON-RPC server's shape
//! (the CLI converts its own results to that shape first); only the fields shown are read,
//! so a server that adds fields needs no new client.
//!
//! Stored text is shown, never obeyed by a terminal: control characters (escape sequences)
//! and bidirectional overrides are printed as visible escapes, as the main CLI does.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A result that is not in the shape its method answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeError {
    /// The method whose result it was (`memory.search`, ...).
    pub method: &'static str,
    /// What did not fit, as serde said it.
    pub detail: String,
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} returned an unexpected result ({})", self.method, self.detail)
    }
}

impl std::error::Error for ShapeError {}

/// The fields of a MEMORY record that human output shows.
#[derive(Debug, Deserialize)]
struct Memory {
    id: String,
    content: String,
    #[serde(default)]
    memory_type: String,
    #[serde(default)]
    created_at: String,
    #[serde(default)]
    expires_at: Option<String>,
    #[serde(default)]
    superseded_at: Option<String>,
    /// Not in the protocol's MEMORY, but the main CLI's JSON has it; shown when present.
    #[serde(default)]
    embedded: Option<bool>,
}

#[derive(Debug, Deserialize)]
struct Hit {
    #[serde(flatten)]
    memory: Memory,
    score: f64,
    #[serde(default)]
    subjects: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct SearchResult {
    hits: Vec<Hit>,
    #[serde(default)]
    notices: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Superseded {
    memory: Memory,
}

#[derive(Debug, Deserialize)]
struct AddResult {
    memories: Vec<Memory>,
    #[serde(default)]
    superseded: Vec<Superseded>,
    #[serde(default)]
    evicted: Vec<Memory>,
    #[serde(default)]
    restated: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct ListResult {
    memories: Vec<Memory>,
}

#[derive(Debug, Deserialize)]
struct DeleteResult {
    deleted: String,
}

#[derive(Debug, Deserialize)]
struct ContextResult {
    markdown: String,
}

fn parse<T: DeserializeOwned>(method: &'static str, result: &Value) -> Result<T, ShapeError> {
    T::deserialize(result).map_err(|e| ShapeError {
        method,
        detail: e.to_string(),
    })
}

/// Text with control characters (except newlines) and bidirectional overrides made visible.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let hidden = (c.is_control() && c != '\n') || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        if hidden {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// Text on one line: [`visible`], and newlines escaped too (for error messages).
pub fn one_line(text: &str) -> String {
    visible(text).replace('\n', "\\u{a}")
}

/// Adds a line to `out`, made [`visible`].
fn say(out: &mut String, line: &str) {
    out.push_str(&visible(line));
    out.push('\n');
}

/// The notices a search returned (the embedder is down, and the like), for stderr.
pub fn search_notices(result: &Value) -> Vec<String> {
    parse::<SearchResult>("memory.search", result)
        .map(|r| r.notices)
        .unwrap_or_default()
}

/// `memory.search`: a table of hits, best first.
pub fn search(result: &Value) -> Result<String, ShapeError> {
    let r: SearchResult = parse("memory.search", result)?;
    let mut out = String::new();
    if r.hits.is_empty() {
        say(&mut out, "No memories match.");
        return Ok(out);
    }
    say(
        &mut out,
        &format!("{:<7} {:<36}  {:<12}  CONTENT", "SCORE", "ID", "TYPE"),
    );
    for h in &r.hits {
        let about = if h.subjects.is_empty() {
            String::new()
        } else {
            format!("  (about {})", h.subjects.join(", "))
        };
        let (id, ty) = (&h.memory.id, &h.memory.memory_type);
        say(
            &mut out,
            &format!(
                "{:<7.4} {id:<36}  {ty:<12}  {}{about}",
                h.score,
                one_line(&h.memory.content)
            ),
        );
    }
    Ok(out)
}

/// `memory.add`: what was remembered, and what it replaced or pushed out.
pub fn added(result: &Value) -> Result<String, ShapeError> {
    let r: AddResult = parse("memory.add", result)?;
    let mut out = String::new();
    for m in &r.memories {
        if r.restated.contains(&m.id) {
            say(
                &mut out,
                &format!("Already known {} [{}] {}", m.id, m.memory_type, one_line(&m.content)),
            );
            say(&mut out, "  (told again: nothing new stored; counted as observed now)");
            continue;
        }
        say(
            &mut out,
            &format!("Remembered {} [{}] {}", m.id, m.memory_type, one_line(&m.content)),
        );
        if let Some(at) = &m.expires_at {
            say(&mut out, &format!("  expires {at}"));
        }
        if m.embedded == Some(false) {
            say(
                &mut out,
                "  (no embedding yet: found by words only until the embedder is back)",
            );
        }
    }
    for s in &r.superseded {
        say(
            &mut out,
            &format!("  replaces {} {}", s.memory.id, one_line(&s.memory.content)),
        );
    }
    for gone in &r.evicted {
        say(
            &mut out,
            &format!("  evicted (max_entries) {} {}", gone.id, one_line(&gone.content)),
        );
    }
    Ok(out)
}

/// `memory.correct`: the new memory and the one it replaces.
pub fn corrected(result: &Value) -> Result<String, ShapeError> {
    let r: AddResult = parse("memory.correct", result)?;
    let mut out = String::new();
    let Some(m) = r.memories.first() else {
        return Ok(out);
    };
    match r.superseded.first() {
        Some(old) => {
            say(
                &mut out,
                &format!("Corrected {} [{}] {}", m.id, m.memory_type, one_line(&m.content)),
            );
            say(
                &mut out,
                &format!("  replaces {} {}", old.memory.id, one_line(&old.memory.content)),
            );
        }
        None => say(
            &mut out,
            &format!("Nothing to correct: {} already says {}", m.id, one_line(&m.content)),
        ),
    }
    Ok(out)
}

/// `memory.list`: a table, newest first (the server's order).
pub fn list(result: &Value) -> Result<String, ShapeError> {
    let r: ListResult = parse("memory.list", result)?;
    let mut out = String::new();
    if r.memories.is_empty() {
        say(&mut out, "No memories.");
        return Ok(out);
    }
    say(
        &mut out,
        &format!("{:<36}  {:<12}  {:<20}  CONTENT", "ID", "TYPE", "CREATED"),
    );
    for m in &r.memories {
        let created: String = m.created_at.chars().take(19).collect();
        let flags = if m.superseded_at.is_some() { " (superseded)" } else { "" };
        say(
            &mut out,
            &format!(
                "{:<36}  {:<12}  {:<20}  {}{flags}",
                m.id,
                m.memory_type,
                created,
                one_line(&m.content)
            ),
        );
    }
    Ok(out)
}

/// `memory.delete`: the full id of what was deleted.
pub fn deleted(result: &Value) -> Result<String, ShapeError> {
    let r: DeleteResult = parse("memory.delete", result)?;
    let mut out = String::new();
    say(
        &mut out,
        &format!("Deleted {} (a copy is kept in memory/archive.jsonl)", r.deleted),
    );
    Ok(out)
}

/// `memory.context`: the markdown block, as the agent would inject it.
pub fn context(result: &Value) -> Result<String, ShapeError> {
    let r: ContextResult = parse("memory.context", result)?;
    let mut out = visible(&r.markdown);
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ID: &str = "0b8f3c2e-6d1a-4f7e-9a51-3c2d1e0f9a8b";

    fn memory(content: &str) -> Value {
        json!({
            "id": ID, "content": content, "memory_type": "preference",
            "created_at": "2026-03-01T10:20:30.123456Z", "observed_at": null, "expires_at": null,
            "owner_user_id": "alice", "chat_id": null, "source": "cli", "subject_person_ids": [],
            "superseded_at": null, "superseded_by_id": null, "archived_at": null, "archive_reason": null,
        })
    }

    #[test]
    fn search_prints_a_table_like_the_main_cli() {
        let mut hit = memory("Sarah likes green tea");
        hit["score"] = json!(0.81234);
        hit["similarity"] = json!(0.7);
        hit["subjects"] = json!(["Sarah"]);
        let text = search(&json!({"hits": [hit], "notices": []})).unwrap();
        let expected = format!(
            "SCORE   ID                                    TYPE          CONTENT\n\
             0.8123  {ID}  preference    Sarah likes green tea  (about Sarah)\n"
        );
        assert_eq!(text, expected);
        assert_eq!(search(&json!({"hits": []})).unwrap(), "No memories match.\n");
    }

    /// A newline in stored text would print a row of its own, forged: each memory is one row.
    #[test]
    fn a_memory_is_one_row_whatever_its_text_holds() {
        let forged = memory("I like red\r\n0b8f3c2e-0000  preference  FAKE LINE");
        let text = list(&json!({"memories": [forged.clone()]})).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        let mut hit = forged;
        hit["score"] = json!(0.5);
        let text = search(&json!({"hits": [hit], "notices": []})).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(text.contains("I like red\\u{d}\\u{a}0b8f3c2e"), "{text}");
    }

    #[test]
    fn search_notices_are_kept_apart() {
        let r = json!({"hits": [], "notices": ["the embedder is unavailable"]});
        assert_eq!(search_notices(&r), vec!["the embedder is unavailable".to_owned()]);
    }

    #[test]
    fn list_prints_created_to_the_second_and_flags_superseded() {
        let mut old = memory("tea");
        old["superseded_at"] = json!("2026-03-02T00:00:00Z");
        let text = list(&json!({"memories": [memory("coffee"), old]})).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            format!("{:<36}  {:<12}  {:<20}  CONTENT", "ID", "TYPE", "CREATED")
        );
        assert_eq!(lines[1], format!("{ID}  preference    2026-03-01T10:20:30   coffee"));
        assert!(lines[2].ends_with("tea (superseded)"));
        assert_eq!(list(&json!({"memories": []})).unwrap(), "No memories.\n");
    }

    #[test]
    fn added_shows_expiry_replacements_and_evictions() {
        let mut m = memory("I prefer tea now");
        m["expires_at"] = json!("2026-04-01T00:00:00Z");
        let r = json!({
            "memories": [m],
            "superseded": [{"memory": memory("I prefer coffee"), "superseded_by_id": ID}],
            "evicted": [memory("old")],
        });
        let text = added(&r).unwrap();
        assert_eq!(
            text,
            format!(
                "Remembered {ID} [preference] I prefer tea now\n  expires 2026-04-01T00:00:00Z\n  \
                 replaces {ID} I prefer coffee\n  evicted (max_entries) {ID} old\n"
            )
        );
    }

    #[test]
    fn deleted_and_context() {
        assert_eq!(
            deleted(&json!({"deleted": ID})).unwrap(),
            format!("Deleted {ID} (a copy is kept in memory/archive.jsonl)\n")
        );
        let r = json!({"markdown": "## Memory\n- likes tea", "estimated_tokens": 6, "dropped": 0});
        assert_eq!(context(&r).unwrap(), "## Memory\n- likes tea\n");
        assert_eq!(context(&json!({"markdown": ""})).unwrap(), "");
    }

    #[test]
    fn stored_text_cannot_drive_the_terminal() {
        let text = list(&json!({"memories": [memory("evil\u{1b}[2J\u{202E}txt")]})).unwrap();
        assert!(text.contains("evil\\u{1b}[2J\\u{202e}txt"), "{text}");
        assert_eq!(one_line("a\nb\u{7}"), "a\\u{a}b\\u{7}");
    }

    #[test]
    fn an_unexpected_shape_is_an_error() {
        let err = list(&json!({"items": []})).unwrap_err();
        assert_eq!(err.method, "memory.list");
        assert!(
            err.to_string().starts_with("memory.list returned an unexpected result"),
            "{err}"
        );
    }
}
