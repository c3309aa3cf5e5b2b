//! People, the person graph, the context block, and the agent tools.

use serde_json::Value;

use crate::support::ctx::Ctx;

mod context;
mod graph;
mod tools;

fn people(ctx: &Ctx, user: &str) -> Vec<Value> {
    ctx.json(&["--user", user, "people", "list"])
        .as_array()
        .unwrap()
        .clone()
}

fn subjects_of(hit: &Value) -> Vec<String> {
    hit["subjects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}
