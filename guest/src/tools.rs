//! The `remember`, `recall` and `correct` tools for agent frameworks (seed 002's schemas
//! and a correction), and the reading of a tool call's JSON arguments. The service runs the call and words the
//! answer in `service::tools`.

use serde_json::{Value, json};

use crate::api::{Error, NewMemory};

/// The tools' JSON schemas, as a JSON array of `{name, description, input_schema,
/// output_schema}`; `output_schema` declares the data `service::tools` answers beside the text.
pub fn schemas() -> Value {
    let mut tools = input_schemas();
    for tool in tools.as_array_mut().into_iter().flatten() {
        let output = output_schema(tool["name"].as_str().unwrap_or_default());
        tool["output_schema"] = output;
    }
    tools
}

/// A memory in a tool's data: what a program needs to name it again.
fn memory_schema() -> Value {
    json!({
        "type": "object",
        "properties": { "id": { "type": "string" }, "content": { "type": "string" } },
        "required": ["id", "content"]
    })
}

/// The data each tool answers (see `service::tools`).
fn output_schema(tool: &str) -> Value {
    let memories = json!({ "type": "array", "items": memory_schema() });
    match tool {
        "remember" => json!({
            "type": "object",
            "properties": {
                "remembered": memories,
                "already_known": memories,
                "replaced": memories
            },
            "required": ["remembered", "already_known", "replaced"]
        }),
        "recall" => json!({
            "type": "object",
            "properties": {
                "memories": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": { "type": "string" },
                            "content": { "type": "string" },
                            "memory_type": { "type": "string" },
                            "subjects": { "type": "array", "items": { "type": "string" } },
                            "score": { "type": "number" }
                        },
                        "required": ["id", "content", "memory_type", "subjects", "score"]
                    }
                },
                "notices": { "type": "array", "items": { "type": "string" } }
            },
            "required": ["memories", "notices"]
        }),
        _ => json!({
            "type": "object",
            "properties": {
                "memory": memory_schema(),
                "replaced": { "anyOf": [memory_schema(), { "type": "null" }] }
            },
            "required": ["memory", "replaced"]
        }),
    }
}

fn input_schemas() -> Value {
    let subjects = json!({
        "type": "array", "items": { "type": "string" },
        "description": "Who this fact is about (e.g., ['Sarah'], ['my wife', 'John'])"
    });
    json!([
        {
            "name": "remember",
            "description": "Store a fact or preference in long-term memory",
            "input_schema": {
                "type": "object",
                "properties": {
                    "content": { "type": "string", "description": "A single fact to remember" },
                    "facts": {
                        "type": "array",
                        "description": "Batch multiple facts in one call (preferred)",
                        "items": {
                            "type": "object",
                            "properties": {
                                "content": { "type": "string" },
                                "subjects": { "type": "array", "items": { "type": "string" } },
                                "expires_in_days": { "type": "integer" },
                                "shared": { "type": "boolean" }
                            },
                            "required": ["content"]
                        }
                    },
                    "subjects": subjects,
                    "expires_in_days": { "type": "integer", "description": "Days until expiration" },
                    "shared": { "type": "boolean", "description": "True for group/team facts" }
                }
            }
        },
        {
            "name": "recall",
            "description": "Search memory for relevant information",
            "input_schema": {
                "type": "object",
                "properties": {
                    "query": { "type": "string", "description": "What to search for" },
                    "about": { "type": "string", "description": "Filter to person (e.g., 'my wife', 'Sarah')" }
                },
                "required": ["query"]
            }
        },
        {
            "name": "correct",
            "description": "Correct a remembered fact that is wrong: the new text replaces it, and the old one stays in its history",
            "input_schema": {
                "type": "object",
                "properties": {
                    "id": { "type": "string", "description": "The memory's id, as recall shows it" },
                    "content": { "type": "string", "description": "The corrected fact" }
                },
                "required": ["id", "content"]
            }
        }
    ])
}

pub(crate) fn bad(message: impl Into<String>) -> Error {
    Error::InvalidInput(message.into())
}

/// Refuses an argument the schema does not name: one the call would drop unread (a
/// `source`, a misspelt `subject`) leaves the model believing it was used.
pub(crate) fn only(v: &Value, named: &[&str], at: &str) -> Result<(), Error> {
    let Some(extra) = v
        .as_object()
        .and_then(|o| o.keys().find(|k| !named.contains(&k.as_str())))
    else {
        return Ok(());
    };
    let why = match extra.as_str() {
        "user_id" | "chat_id" => "; whom a call is for comes from the connection, never from its arguments",
        _ => "",
    };
    Err(bad(format!(
        "unknown argument {at}{extra}: the arguments are {}{why}",
        named.join(", ")
    )))
}

/// The arguments a fact in `facts` may have.
const FACT_ARGUMENTS: &[&str] = &["content", "subjects", "expires_in_days", "shared"];

/// Reads one fact object (or the top level of a `content` call).
pub(crate) fn fact(v: &Value, at: &str) -> Result<NewMemory, Error> {
    if !at.is_empty() {
        only(v, FACT_ARGUMENTS, at)?;
    }
    let content = v["content"]
        .as_str()
        .ok_or_else(|| bad(format!("{at}content must be a string")))?;
    let subjects = match &v["subjects"] {
        Value::Null => Vec::new(),
        Value::Array(items) => items
            .iter()
            .map(|s| {
                s.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| bad(format!("{at}subjects must be strings")))
            })
            .collect::<Result<_, _>>()?,
        _ => return Err(bad(format!("{at}subjects must be a list of strings"))),
    };
    let expires_in_days = match &v["expires_in_days"] {
        Value::Null => None,
        n => Some(
            n.as_u64()
                .and_then(|d| u32::try_from(d).ok())
                .filter(|d| *d >= 1)
                .ok_or_else(|| {
                    bad(format!(
                        "{at}expires_in_days must be a whole number of days, at least 1"
                    ))
                })?,
        ),
    };
    let shared = match &v["shared"] {
        Value::Null => false,
        b => b
            .as_bool()
            .ok_or_else(|| bad(format!("{at}shared must be true or false")))?,
    };
    Ok(NewMemory {
        content: content.to_owned(),
        subjects,
        expires_in_days,
        shared,
        source: Some("tool".to_owned()),
        ..Default::default()
    })
}
