//! The `remember` and `recall` tools for agent frameworks (seed 002's schemas), and the
//! handler that turns a tool call's JSON arguments into the text the model reads back.

use serde_json::{Value, json};

use crate::api::{Error, NewMemory, SearchQuery};
use crate::ports::Ports;
use crate::scope::Caller;
use crate::service::MemoryService;

/// The tools' JSON schemas, as a JSON array of `{name, description, input_schema}`.
pub fn schemas() -> Value {
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
        }
    ])
}

fn bad(message: impl Into<String>) -> Error {
    Error::InvalidInput(message.into())
}

/// Reads one fact object (or the top level of a `content` call).
fn fact(v: &Value, at: &str) -> Result<NewMemory, Error> {
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

impl<P: Ports> MemoryService<P> {
    /// Runs a tool call; see `tool-call` in `wit/memory.wit`.
    pub fn tool_call(&mut self, caller: &Caller, name: &str, arguments: &str) -> Result<String, Error> {
        let args: Value =
            serde_json::from_str(arguments).map_err(|e| bad(format!("the arguments are not JSON: {e}")))?;
        if !args.is_object() {
            return Err(bad("the arguments must be a JSON object"));
        }
        match name {
            "remember" => self.remember(caller, &args),
            "recall" => self.recall(caller, &args),
            other => Err(bad(format!(
                "no tool named {other:?}; the tools are remember and recall"
            ))),
        }
    }

    fn remember(&mut self, caller: &Caller, args: &Value) -> Result<String, Error> {
        let mut items = Vec::new();
        if !args["content"].is_null() {
            items.push(fact(args, "")?);
        }
        match &args["facts"] {
            Value::Null => {}
            Value::Array(facts) => {
                for (i, f) in facts.iter().enumerate() {
                    items.push(fact(f, &format!("facts[{i}]."))?);
                }
            }
            _ => return Err(bad("facts must be a list of objects")),
        }
        if items.is_empty() {
            return Err(bad("remember needs `content` or a non-empty `facts` list"));
        }
        let added = self.add_batch(caller, items)?;
        let n = added.memories.len();
        let mut text = format!("Remembered {n} fact{}.", if n == 1 { "" } else { "s" });
        for (old, _) in &added.superseded {
            text.push_str(&format!(" It replaces: \"{}\".", old.content));
        }
        Ok(text)
    }

    fn recall(&mut self, caller: &Caller, args: &Value) -> Result<String, Error> {
        let query = args["query"]
            .as_str()
            .ok_or_else(|| bad("recall needs a `query` string"))?;
        let about = match &args["about"] {
            Value::Null => None,
            v => Some(v.as_str().ok_or_else(|| bad("about must be a string"))?.to_owned()),
        };
        let results = self.search(
            caller,
            &SearchQuery {
                text: query.to_owned(),
                limit: Some(10),
                about,
            },
        )?;
        let mut lines: Vec<String> = results.notices.iter().map(|n| format!("(note: {n})")).collect();
        if results.hits.is_empty() {
            lines.push("No matching memories.".to_owned());
        }
        for h in &results.hits {
            match h.subjects.as_slice() {
                [] => lines.push(format!("- {}", h.memory.content)),
                names => lines.push(format!("- {} (about {})", h.memory.content, names.join(", "))),
            }
        }
        Ok(lines.join("\n"))
    }
}
