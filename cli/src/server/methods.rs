//! The JSON-RPC methods: each parses its named parameters (unknown ones are refused, so
//! a misspelt `limt` is an error rather than ignored), runs one store call on the store
//! thread, and shapes the answer with [`crate::wire`]. Seed 000's `memory.search`,
//! `memory.add`, `memory.list` and `memory.delete` keep its parameter names.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use ash_memory::{
    Caller, Correction, Error, ListOptions, MemoryStore, MemoryType, NewMemory, NewPerson, SearchQuery, Turn,
};

use super::rpc::RpcError;
use super::session::Session;
use crate::wire;

/// `health`: answers without touching the store, so that a client can tell a live
/// server from a busy one.
pub fn health() -> Value {
    json!({ "status": "ok", "version": env!("CARGO_PKG_VERSION"), "pid": std::process::id() })
}

/// One method's store call, its parameters parsed: what the store thread runs.
pub type StoreCall = Box<dyn FnOnce(&mut MemoryStore) -> Result<Value, Error> + Send>;

/// Runs `method` for `caller` on the session's store thread.
pub async fn call(
    session: &Session,
    method: &str,
    caller: Caller,
    params: Map<String, Value>,
) -> Result<Value, RpcError> {
    if method == "maintenance.gc" && !session.is_owner() {
        return Err(RpcError::forbidden(
            "maintenance is for the owner's socket, not a token",
        ));
    }
    // The session a turn belongs to, for extraction once the conversation pauses.
    let turned = (method == "conversations.turn")
        .then(|| params.get("session").and_then(Value::as_str).map(str::to_owned))
        .flatten();
    let reads = only_reads(method, &params);
    let job = prepare(method, caller.clone(), params)?;
    let answer = if reads {
        session.worker().read(job).await?
    } else {
        session.worker().run_for(&caller, job).await?
    };
    session.worker().served(&caller);
    if let Some(name) = turned {
        session.worker().turned(&caller, name);
    }
    Ok(answer)
}

/// Whether `method` only reads, so that a reader may answer it beside other reads.
fn only_reads(method: &str, params: &Map<String, Value>) -> bool {
    match method {
        "memory.search"
        | "memory.list"
        | "memory.get"
        | "memory.history"
        | "memory.context"
        | "conversations.profile"
        | "people.list"
        | "people.show"
        | "memory.standings"
        | "conversations.sessions"
        | "conversations.messages"
        | "tools.schemas" => true,
        "tools.call" => params
            .get("name")
            .and_then(Value::as_str)
            .is_some_and(ash_memory::tool_only_reads),
        _ => false,
    }
}

/// Parses `method`'s parameters into the one store call it makes. Parameter errors are
/// found here, before the call waits its turn for the store.
pub fn prepare(method: &str, caller: Caller, params: Map<String, Value>) -> Result<StoreCall, RpcError> {
    Ok(match method {
        "memory.search" => {
            let p: SearchParams = parse(params)?;
            let mut query = SearchQuery::new(p.query);
            query.limit = p.limit;
            query.about = p.about;
            Box::new(move |s| Ok(wire::search(&s.search(&caller, &query)?)))
        }
        "memory.add" => {
            let p: AddParams = parse(params)?;
            let item = NewMemory {
                content: p.content,
                memory_type: p.memory_type.map(|t| written_type(&t)).transpose()?,
                expires_in_days: p.expires_days,
                subjects: p.subjects,
                shared: p.shared,
                source: Some(p.source.unwrap_or_else(|| "rpc".into())),
                observed_at: p.observed_at,
                context: p.context,
            };
            Box::new(move |s| Ok(wire::added(&s.add(&caller, &item)?)))
        }
        "memory.list" => {
            let p: ListParams = parse(params)?;
            let options = ListOptions {
                limit: p.limit,
                memory_type: p.memory_type.map(|t| memory_type(&t)).transpose()?,
                include_expired: p.include_expired,
                include_superseded: p.include_superseded,
            };
            Box::new(move |s| Ok(json!({ "memories": wire::memories(&s.list(&caller, &options)?) })))
        }
        "memory.delete" => {
            let p: IdParams = parse(params)?;
            Box::new(move |s| Ok(json!({ "deleted": s.delete(&caller, &p.memory_id)? })))
        }
        "memory.correct" => {
            let p: CorrectParams = parse(params)?;
            let correction = Correction {
                content: p.content,
                memory_type: p.memory_type.map(|t| written_type(&t)).transpose()?,
                expires_in_days: p.expires_days,
                subjects: p.subjects,
            };
            Box::new(move |s| Ok(wire::added(&s.correct(&caller, &p.memory_id, &correction)?)))
        }
        "memory.get" => {
            let p: IdParams = parse(params)?;
            Box::new(move |s| Ok(wire::memory(&s.get(&caller, &p.memory_id)?)))
        }
        "memory.history" => {
            let p: IdParams = parse(params)?;
            Box::new(move |s| Ok(json!({ "memories": wire::memories(&s.history(&caller, &p.memory_id)?) })))
        }
        "memory.context" => {
            let p: ContextParams = parse(params)?;
            Box::new(move |s| {
                Ok(wire::context(&s.context_in(
                    &caller,
                    &p.message,
                    p.max_tokens,
                    p.session.as_deref(),
                )?))
            })
        }
        "conversations.turn" => {
            let p: TurnParams = parse(params)?;
            let turn = Turn {
                session: p.session,
                provider: p.provider,
                user_message: p.user_message,
                assistant_message: p.assistant_message,
            };
            Box::new(move |s| Ok(wire::stored_turn(&s.persist_turn(&caller, &turn)?)))
        }
        "conversations.extract" => {
            let p: ExtractParams = parse(params)?;
            Box::new(move |s| Ok(wire::extraction(&s.extract(&caller, p.session.as_deref())?)))
        }
        "conversations.profile" => {
            let _: NoParams = parse(params)?;
            Box::new(move |s| Ok(wire::profile(&s.profile(&caller)?)))
        }
        "people.list" => {
            let _: NoParams = parse(params)?;
            Box::new(move |s| Ok(json!({ "people": wire::people(&s.people_list(&caller)?) })))
        }
        "people.show" => {
            let p: ReferenceParams = parse(params)?;
            Box::new(move |s| Ok(wire::person(&s.people_show(&caller, &p.reference)?)))
        }
        "people.add" => {
            let p: PersonParams = parse(params)?;
            let person = NewPerson {
                name: p.name,
                relation: p.relation,
                aliases: p.aliases,
            };
            Box::new(move |s| Ok(wire::person(&s.people_add(&caller, &person)?)))
        }
        "people.alias" => {
            let p: AliasParams = parse(params)?;
            Box::new(move |s| Ok(wire::person(&s.people_alias(&caller, &p.reference, &p.alias)?)))
        }
        "people.merge" => {
            let p: MergeParams = parse(params)?;
            Box::new(move |s| Ok(wire::person(&s.people_merge(&caller, &p.keep, &p.merge)?)))
        }
        "people.forget" => {
            let p: ForgetParams = parse(params)?;
            Box::new(move |s| Ok(wire::forgotten(&s.people_forget(&caller, &p.reference, p.purge)?)))
        }
        "tools.schemas" => {
            let _: NoParams = parse(params)?;
            Box::new(|s| s.tool_schemas())
        }
        "tools.call" => {
            let p: ToolParams = parse(params)?;
            let arguments = match p.arguments {
                Value::String(text) => text,
                other => other.to_string(),
            };
            Box::new(move |s| Ok(json!({ "result": s.tool_call(&caller, &p.name, &arguments)? })))
        }
        "memory.standings" => {
            let p: IdsParams = parse(params)?;
            Box::new(move |s| Ok(json!({ "standings": wire::standings(&s.standings(&caller, &p.memory_ids)?) })))
        }
        "conversations.sessions" => {
            let _: NoParams = parse(params)?;
            Box::new(move |s| Ok(json!({ "sessions": wire::sessions(&s.sessions(&caller)?) })))
        }
        "conversations.messages" => {
            let p: SessionParams = parse(params)?;
            Box::new(move |s| {
                Ok(json!({ "messages": wire::session_messages(&s.session_messages(&caller, &p.session)?) }))
            })
        }
        "maintenance.gc" => {
            let p: GcParams = parse(params)?;
            Box::new(move |s| Ok(wire::gc(&s.gc(p.dry_run)?)))
        }
        other => return Err(RpcError::method_not_found(other)),
    })
}

fn parse<T: DeserializeOwned>(params: Map<String, Value>) -> Result<T, RpcError> {
    serde_json::from_value(Value::Object(params)).map_err(|e| RpcError::invalid_params(e.to_string()))
}

/// A type a caller may write. A reflection is the memory's own note on a user, which the
/// context presents as written by it: a client that wrote one would speak in its voice.
fn written_type(name: &str) -> Result<MemoryType, RpcError> {
    match memory_type(name)? {
        MemoryType::Reflection => Err(RpcError::invalid_params(
            "memory_type \"reflection\" is written by the memory itself (its weekly reflection); give another type",
        )),
        t => Ok(t),
    }
}

fn memory_type(name: &str) -> Result<MemoryType, RpcError> {
    MemoryType::parse(name).ok_or_else(|| {
        let names: Vec<&str> = MemoryType::ALL.iter().map(|t| t.as_str()).collect();
        RpcError::invalid_params(format!("unknown memory_type {name:?}; one of {}", names.join(", ")))
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoParams {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchParams {
    query: String,
    limit: Option<u32>,
    about: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AddParams {
    content: String,
    source: Option<String>,
    expires_days: Option<u32>,
    #[serde(default)]
    subjects: Vec<String>,
    memory_type: Option<String>,
    #[serde(default)]
    shared: bool,
    observed_at: Option<String>,
    context: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CorrectParams {
    memory_id: String,
    content: String,
    memory_type: Option<String>,
    expires_days: Option<u32>,
    subjects: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListParams {
    limit: Option<u32>,
    memory_type: Option<String>,
    #[serde(default)]
    include_expired: bool,
    #[serde(default)]
    include_superseded: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IdParams {
    memory_id: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ContextParams {
    message: String,
    max_tokens: Option<u32>,
    session: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnParams {
    session: String,
    user_message: String,
    assistant_message: Option<String>,
    provider: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IdsParams {
    memory_ids: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SessionParams {
    session: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExtractParams {
    session: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReferenceParams {
    reference: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PersonParams {
    name: String,
    relation: Option<String>,
    #[serde(default)]
    aliases: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AliasParams {
    reference: String,
    alias: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MergeParams {
    keep: String,
    merge: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ForgetParams {
    reference: String,
    #[serde(default)]
    purge: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolParams {
    name: String,
    arguments: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GcParams {
    #[serde(default)]
    dry_run: bool,
}
