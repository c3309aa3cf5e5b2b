//! Every tool answers twice: text a model reads well, and `structuredContent` a program
//! can use, declared by the tool's `outputSchema`. The host's tools answer in the JSON
//! shapes the server answers elsewhere (`wire`), declared here; the component's tools
//! (`remember`, `recall`, `correct`) declare and answer theirs themselves (`tools.run`).

use serde_json::{Value, json};

/// A tool's answer: the text for the model, and the same as JSON.
pub struct Answer {
    pub text: String,
    pub structured: Value,
}

impl Answer {
    pub fn both(text: String, structured: Value) -> Self {
        Answer { text, structured }
    }
}

/// The fields of a memory a program may rely on (the JSONL field names; more may come).
fn memory() -> Value {
    json!({
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "content": {"type": "string"},
            "memory_type": {"type": "string"},
            "created_at": {"type": "string"},
            "observed_at": {"type": ["string", "null"]},
            "expires_at": {"type": ["string", "null"]},
            "superseded_at": {"type": ["string", "null"]},
            "superseded_by_id": {"type": ["string", "null"]},
        },
        "required": ["id", "content", "memory_type", "created_at"],
    })
}

fn person() -> Value {
    json!({
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "name": {"type": "string"},
            "relation": {"type": ["string", "null"]},
            "aliases": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["id", "name", "aliases"],
    })
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

/// The `outputSchema` of a host tool; `None` for the component's tools.
pub fn schema(tool: &str) -> Option<Value> {
    Some(match tool {
        "forget" => object(json!({"deleted": {"type": "string"}}), &["deleted"]),
        "list_memories" | "memory_history" => {
            object(json!({"memories": {"type": "array", "items": memory()}}), &["memories"])
        }
        "people" => object(json!({"people": {"type": "array", "items": person()}}), &["people"]),
        "get_context" => object(
            json!({
                "markdown": {"type": "string"},
                "estimated_tokens": {"type": "integer"},
                "dropped": {"type": "integer"},
                "memories": {"type": "array", "items": memory()},
                "people": {"type": "array", "items": person()},
            }),
            &["markdown", "estimated_tokens", "memories", "people"],
        ),
        "log_turn" => object(
            json!({
                "session_id": {"type": "string"},
                "message_ids": {"type": "array", "items": {"type": "string"}},
                "redacted": {"type": "integer"},
            }),
            &["session_id", "message_ids", "redacted"],
        ),
        _ => return None,
    })
}
