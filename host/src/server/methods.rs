//! The JSON-RPC methods: each parses its named parameters (unknown ones are refused, so
//! a misspelt `limt` is an error rather than ignored), runs one store call on the store
//! thread, and shapes the answer with [`crate::wire`]. Seed 000's `memory.search`,
//! `memory.add`, `memory.list` and `memory.delete` keep its parameter names.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use ash_memory::{Caller, ListOptions, MemoryType, NewMemory, NewPerson, SearchQuery};

use super::rpc::RpcError;
use super::session::Session;
use crate::wire;

/// `health`: answers without touching the store, so that a client can tell a live
/// server from a busy one.
pub fn health() -> Value {
    json!({ "status": "ok", "version": env!("CARGO_PKG_VERSION"), "pid": std::process::id() })
}

/// Runs `method` for `caller`.
pub async fn call(
    session: &Session,
    method: &str,
    caller: Caller,
    params: Map<String, Value>,
) -> Result<Value, RpcError> {
    let worker = session.worker();
    match method {
        "memory.search" => {
            let p: SearchParams = parse(params)?;
            let mut query = SearchQuery::new(p.query);
            query.limit = p.limit;
            query.about = p.about;
            let results = worker.run(move |s| s.search(&caller, &query)).await?;
            Ok(wire::search(&results))
        }
        "memory.add" => {
            let p: AddParams = parse(params)?;
            let item = NewMemory {
                content: p.content,
                memory_type: p.memory_type.map(|t| memory_type(&t)).transpose()?,
                expires_in_days: p.expires_days,
                subjects: p.subjects,
                shared: p.shared,
                source: Some(p.source.unwrap_or_else(|| "rpc".into())),
                observed_at: p.observed_at,
            };
            let added = worker.run(move |s| s.add(&caller, &item)).await?;
            Ok(wire::added(&added))
        }
        "memory.list" => {
            let p: ListParams = parse(params)?;
            let options = ListOptions {
                limit: p.limit,
                memory_type: p.memory_type.map(|t| memory_type(&t)).transpose()?,
                include_expired: p.include_expired,
                include_superseded: p.include_superseded,
            };
            let found = worker.run(move |s| s.list(&caller, &options)).await?;
            Ok(json!({ "memories": wire::memories(&found) }))
        }
        "memory.delete" => {
            let p: IdParams = parse(params)?;
            let id = worker.run(move |s| s.delete(&caller, &p.memory_id)).await?;
            Ok(json!({ "deleted": id }))
        }
        "memory.get" => {
            let p: IdParams = parse(params)?;
            let found = worker.run(move |s| s.get(&caller, &p.memory_id)).await?;
            Ok(wire::memory(&found))
        }
        "memory.history" => {
            let p: IdParams = parse(params)?;
            let chain = worker.run(move |s| s.history(&caller, &p.memory_id)).await?;
            Ok(json!({ "memories": wire::memories(&chain) }))
        }
        "memory.context" => {
            let p: ContextParams = parse(params)?;
            let block = worker
                .run(move |s| s.context(&caller, &p.message, p.max_tokens))
                .await?;
            Ok(wire::context(&block))
        }
        "people.list" => {
            let _: NoParams = parse(params)?;
            Ok(json!({ "people": wire::people(&worker.run(move |s| s.people_list(&caller)).await?) }))
        }
        "people.show" => {
            let p: ReferenceParams = parse(params)?;
            Ok(wire::person(
                &worker.run(move |s| s.people_show(&caller, &p.reference)).await?,
            ))
        }
        "people.add" => {
            let p: PersonParams = parse(params)?;
            let person = NewPerson {
                name: p.name,
                relation: p.relation,
                aliases: p.aliases,
            };
            Ok(wire::person(
                &worker.run(move |s| s.people_add(&caller, &person)).await?,
            ))
        }
        "people.alias" => {
            let p: AliasParams = parse(params)?;
            let person = worker
                .run(move |s| s.people_alias(&caller, &p.reference, &p.alias))
                .await?;
            Ok(wire::person(&person))
        }
        "people.merge" => {
            let p: MergeParams = parse(params)?;
            let person = worker.run(move |s| s.people_merge(&caller, &p.keep, &p.merge)).await?;
            Ok(wire::person(&person))
        }
        "tools.schemas" => {
            let _: NoParams = parse(params)?;
            Ok(worker.run(|s| s.tool_schemas()).await?)
        }
        "tools.call" => {
            let p: ToolParams = parse(params)?;
            let arguments = match p.arguments {
                Value::String(text) => text,
                other => other.to_string(),
            };
            let text = worker.run(move |s| s.tool_call(&caller, &p.name, &arguments)).await?;
            Ok(json!({ "result": text }))
        }
        "maintenance.gc" => {
            if !session.is_owner() {
                return Err(RpcError::forbidden(
                    "maintenance is for the owner's socket, not a token",
                ));
            }
            let p: GcParams = parse(params)?;
            Ok(wire::gc(&worker.run(move |s| s.gc(p.dry_run)).await?))
        }
        other => Err(RpcError::method_not_found(other)),
    }
}

fn parse<T: DeserializeOwned>(params: Map<String, Value>) -> Result<T, RpcError> {
    serde_json::from_value(Value::Object(params)).map_err(|e| RpcError::invalid_params(e.to_string()))
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
