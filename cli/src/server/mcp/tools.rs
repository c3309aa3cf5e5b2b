//! The MCP tools: their definitions (names, descriptions written for a model, JSON
//! schemas), their arguments, and their answers as short text a model reads well.
//! `remember`, `recall` and `correct` are the policy component's own tools (seed 002's shapes),
//! run through `tools.call`, so every surface answers them alike.

use std::sync::Arc;

use anyhow::{Result, bail};
use rmcp::ErrorData;
use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use ash_memory::{Caller, Error, ListOptions, Memory, Person, Turn};

use super::structured::{self, Answer};
use crate::server::worker::Worker;
use crate::wire;

/// Default and largest number of memories `list_memories` returns.
const DEFAULT_LIST: u32 = 20;
const MAX_LIST: u32 = 200;

/// Every tool: the component's `remember`, `recall` and `correct`, then the host's own.
pub fn definitions(component_schemas: &Value) -> Result<Vec<Tool>> {
    let mut tools = Vec::new();
    for schema in component_schemas.as_array().into_iter().flatten() {
        let (Some(name), Some(description), Some(Value::Object(input))) = (
            schema["name"].as_str(),
            schema["description"].as_str(),
            schema.get("input_schema"),
        ) else {
            bail!("the component's tool schema is not {{name, description, input_schema}}: {schema}");
        };
        let mut tool = Tool::new(name.to_owned(), description.to_owned(), Arc::new(input.clone()));
        if let Some(Value::Object(output)) = schema.get("output_schema") {
            tool = tool.with_raw_output_schema(Arc::new(output.clone()));
        }
        tools.push(tool);
    }
    let own = [
        (
            "forget",
            "Forget one memory, by the id that list_memories showed. Use it when the user asks you \
             to forget something or says a remembered fact is wrong. The memory stops being recalled; a copy stays \
             in the archive.",
            json!({"type": "object", "properties": {
                "memory_id": {"type": "string", "description": "The memory's id (or its first 8 or more characters)."}
            }, "required": ["memory_id"], "additionalProperties": false}),
        ),
        (
            "list_memories",
            "List what you remember about the user, newest first, with ids. Use recall to search by meaning instead.",
            json!({"type": "object", "properties": {
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIST, "description": "How many (default 20)."},
                "include_expired": {"type": "boolean", "description": "Also show memories past their lifetime."}
            }, "additionalProperties": false}),
        ),
        (
            "memory_history",
            "Show how a memory changed over time: the chain of older memories a newer one replaced, oldest first \
             (\"lived in Lisbon\" then \"lives in Porto\").",
            json!({"type": "object", "properties": {
                "memory_id": {"type": "string", "description": "The id of any memory in the chain."}
            }, "required": ["memory_id"], "additionalProperties": false}),
        ),
        (
            "people",
            "The people in the user's life that memory knows: names, how they relate to the user, other names.",
            json!({"type": "object", "properties": {}, "additionalProperties": false}),
        ),
        (
            "get_context",
            "What you know that bears on a message: the user's people and the most relevant memories, as \
             markdown within a token budget. Call it with the user's message before you answer.",
            json!({"type": "object", "properties": {
                "message": {"type": "string", "description": "The user's message."},
                "max_tokens": {"type": "integer", "minimum": 1, "description": "Budget (default 2000)."},
                "session": {"type": "string", "description": "This conversation's id, so that past messages come from other conversations."}
            }, "required": ["message"], "additionalProperties": false}),
        ),
        (
            "log_turn",
            "Keep one exchange of this conversation: the user's message and your answer. Call it after you \
             answer. Later conversations see relevant past messages in get_context, and facts the user states \
             about themselves are remembered when the conversation pauses. Secrets are redacted.",
            json!({"type": "object", "properties": {
                "session": {"type": "string", "description": "This conversation's id; the same for every turn of it."},
                "user_message": {"type": "string", "description": "What the user said."},
                "assistant_message": {"type": "string", "description": "What you answered."}
            }, "required": ["session", "user_message"], "additionalProperties": false}),
        ),
    ];
    for (name, description, schema) in own {
        let Value::Object(schema) = schema else {
            unreachable!("schemas are objects")
        };
        let mut tool = Tool::new(name, description, Arc::new(schema));
        if let Some(Value::Object(output)) = structured::schema(name) {
            tool = tool.with_raw_output_schema(Arc::new(output));
        }
        tools.push(tool);
    }
    Ok(tools.into_iter().map(annotated).collect())
}

/// What a client may show and assume of each tool: a title, and whether it only reads,
/// whether it can destroy, and whether a repeat changes anything. Memory is a closed world:
/// no tool reaches beyond the home.
fn annotated(tool: Tool) -> Tool {
    // (title, read only, destructive, idempotent)
    let (title, read_only, destructive, idempotent) = match tool.name.as_ref() {
        // The same fact told twice is stored once; a replaced fact stays in its history.
        "remember" => ("Remember facts", false, false, true),
        "recall" => ("Recall memories", true, false, true),
        // A correction keeps the old text in the memory's history; the same one again is a no-op.
        "correct" => ("Correct a memory", false, false, true),
        "forget" => ("Forget a memory", false, true, true),
        "list_memories" => ("List memories", true, false, true),
        "memory_history" => ("Memory history", true, false, true),
        "people" => ("People", true, false, true),
        "get_context" => ("Context for a message", true, false, true),
        "log_turn" => ("Log a conversation turn", false, false, false),
        _ => return tool,
    };
    let annotations = ToolAnnotations::with_title(title)
        .read_only(read_only)
        .destructive(destructive)
        .idempotent(idempotent)
        .open_world(false);
    tool.with_title(title).annotate(annotations)
}

/// A tool call with its arguments checked.
pub enum Call {
    Component {
        name: String,
        arguments: JsonObject,
    },
    Forget {
        memory_id: String,
    },
    List {
        limit: u32,
        include_expired: bool,
    },
    History {
        memory_id: String,
    },
    People,
    Context {
        message: String,
        max_tokens: Option<u32>,
        session: Option<String>,
    },
    Turn(Turn),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IdArgs {
    /// `id` as `correct` names it is read as well: a model that uses one for the other is
    /// understood.
    #[serde(alias = "id")]
    memory_id: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListArgs {
    limit: Option<u32>,
    #[serde(default)]
    include_expired: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ContextArgs {
    message: String,
    max_tokens: Option<u32>,
    session: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnArgs {
    session: String,
    user_message: String,
    assistant_message: Option<String>,
}

/// Why a call was not made.
pub enum Unmade {
    /// No tool of that name: a protocol error.
    NoTool(ErrorData),
    /// Arguments that do not fit the tool's schema: an answer the model reads and acts on,
    /// as the component's own tools answer theirs.
    Arguments(String),
}

fn args<T: DeserializeOwned>(tool: &str, arguments: JsonObject) -> Result<T, Unmade> {
    serde_json::from_value(Value::Object(arguments))
        .map_err(|e| Unmade::Arguments(format!("{tool}: invalid arguments: {e}")))
}

impl Call {
    /// Checks a call's name and arguments (the component checks its own tools' arguments).
    pub fn parse(name: &str, arguments: JsonObject) -> Result<Call, Unmade> {
        Ok(match name {
            "remember" | "recall" | "correct" => Call::Component {
                name: name.to_owned(),
                arguments,
            },
            "forget" => Call::Forget {
                memory_id: args::<IdArgs>(name, arguments)?.memory_id,
            },
            "list_memories" => {
                let a: ListArgs = args(name, arguments)?;
                // (A limit of 0 goes on to the policy, which refuses it as `list` does.)
                Call::List {
                    limit: a.limit.unwrap_or(DEFAULT_LIST).min(MAX_LIST),
                    include_expired: a.include_expired,
                }
            }
            "memory_history" => Call::History {
                memory_id: args::<IdArgs>(name, arguments)?.memory_id,
            },
            "people" => {
                args::<NoArgs>(name, arguments)?;
                Call::People
            }
            "get_context" => {
                let a: ContextArgs = args(name, arguments)?;
                Call::Context {
                    message: a.message,
                    max_tokens: a.max_tokens,
                    session: a.session,
                }
            }
            "log_turn" => {
                let a: TurnArgs = args(name, arguments)?;
                Call::Turn(Turn {
                    session: a.session,
                    provider: Some("mcp".into()),
                    user_message: a.user_message,
                    assistant_message: a.assistant_message,
                })
            }
            other => {
                return Err(Unmade::NoTool(ErrorData::invalid_params(
                    format!("no tool {other:?}"),
                    None,
                )));
            }
        })
    }

    /// Whether the call may change what memory holds (and so what a resource reads).
    pub fn writes(&self) -> bool {
        match self {
            Call::Component { name, .. } => name != "recall",
            Call::Forget { .. } | Call::Turn(_) => true,
            Call::List { .. } | Call::History { .. } | Call::People | Call::Context { .. } => false,
        }
    }

    /// Runs the call for `caller` and renders the answer.
    pub async fn run(self, worker: &Worker, caller: Caller) -> Result<Answer, Error> {
        let turned = match &self {
            Call::Turn(t) => Some(t.session.clone()),
            _ => None,
        };
        let answer = self.answer(worker, caller.clone()).await;
        worker.served(&caller);
        if let (Some(session), Ok(_)) = (turned, &answer) {
            worker.turned(&caller, session);
        }
        answer
    }

    async fn answer(self, worker: &Worker, caller: Caller) -> Result<Answer, Error> {
        Ok(match self {
            Call::Component { name, arguments } => {
                let arguments = Value::Object(arguments).to_string();
                let answer = if ash_memory::tool_only_reads(&name) {
                    worker.read(move |s| s.tool_answer(&caller, &name, &arguments)).await?
                } else {
                    worker
                        .run_for(&caller.clone(), move |s| s.tool_answer(&caller, &name, &arguments))
                        .await?
                };
                Answer::both(answer.text, answer.data)
            }
            Call::Forget { memory_id } => {
                let id = worker
                    .run_for(&caller.clone(), move |s| s.delete(&caller, &memory_id))
                    .await?;
                Answer::both(format!("Forgot memory {id}."), json!({ "deleted": id }))
            }
            Call::List { limit, include_expired } => {
                let options = ListOptions::new().limit(limit).include_expired(include_expired);
                let found = worker.read(move |s| s.list(&caller, &options)).await?;
                Answer::both(render_list(&found), json!({ "memories": wire::memories(&found) }))
            }
            Call::History { memory_id } => {
                let chain = worker.read(move |s| s.history(&caller, &memory_id)).await?;
                Answer::both(render_history(&chain), json!({ "memories": wire::memories(&chain) }))
            }
            Call::People => {
                let people = worker.read(move |s| s.people_list(&caller)).await?;
                Answer::both(render_people(&people), json!({ "people": wire::people(&people) }))
            }
            Call::Turn(turn) => {
                let stored = worker
                    .run_for(&caller.clone(), move |s| s.persist_turn(&caller, &turn))
                    .await?;
                let text = format!(
                    "Kept {} message(s){}.",
                    stored.message_ids.len(),
                    if stored.redacted > 0 { ", secrets redacted" } else { "" }
                );
                Answer::both(text, wire::stored_turn(&stored))
            }
            Call::Context {
                message,
                max_tokens,
                session,
            } => {
                let block = worker
                    .read(move |s| s.context_in(&caller, &message, max_tokens, session.as_deref()))
                    .await?;
                let text = if block.markdown.trim().is_empty() {
                    "Nothing in memory bears on this message yet.".to_owned()
                } else {
                    block.markdown.clone()
                };
                Answer::both(text, wire::context(&block))
            }
        })
    }
}

fn line(m: &Memory) -> String {
    let day: String = m.created_at.chars().take(10).collect();
    format!("- [{}] {} (id {}, {day})", m.memory_type.as_str(), m.content, m.id)
}

fn render_list(memories: &[Memory]) -> String {
    if memories.is_empty() {
        return "No memories yet.".to_owned();
    }
    let n = memories.len();
    let mut text = format!("{n} {}, newest first:\n", if n == 1 { "memory" } else { "memories" });
    for m in memories {
        text.push_str(&line(m));
        text.push('\n');
    }
    text
}

fn render_history(chain: &[Memory]) -> String {
    let mut text = String::from("Oldest first:\n");
    for m in chain {
        let state = match (m.archive_reason, &m.superseded_at) {
            (Some(reason), _) => reason.as_str(),
            (None, Some(_)) => "replaced",
            (None, None) => "current",
        };
        text.push_str(&format!("{} ({state})\n", line(m)));
    }
    text
}

fn render_people(people: &[Person]) -> String {
    if people.is_empty() {
        return "No people known yet.".to_owned();
    }
    let mut text = String::new();
    for p in people {
        text.push_str(&format!("- {}", p.name));
        if let Some(relation) = &p.relation {
            text.push_str(&format!(" (the user's {relation})"));
        }
        if !p.aliases.is_empty() {
            text.push_str(&format!(", also called {}", p.aliases.join(", ")));
        }
        text.push('\n');
    }
    text
}
