//! MCP resources and prompts, read by the official Python SDK client: the caller's profile,
//! people and memories, never another caller's.

use serde_json::{Value, json};

use crate::mcp::{client, texts};
use crate::support::ctx::{Ctx, cache_dir};

#[test]
fn a_client_reads_the_callers_own_memory_as_resources_and_offers_the_prompt() {
    if crate::support::ctx::files_only("the MCP client starts the server with an environment of its own") {
        return;
    }
    let ctx = Ctx::new();
    let mine = ctx.json(&[
        "--user",
        "alice",
        "add",
        "Ana lives in Lisbon",
        "--subject",
        "my sister Ana",
    ])["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let theirs = ctx.add("bob", "I am training for a marathon");
    let env = json!({"ASH_HOME": ctx.home(), "ASH_CACHE_DIR": cache_dir(), "ASH_USER_ID": "alice"});
    let calls = json!([
        ["@read", {"uri": format!("memory://memories/{mine}")}],
        ["@read", {"uri": format!("memory://memories/{}", &mine[..8])}],
        ["@read", {"uri": format!("memory://memories/{theirs}")}],
        ["@read", {"uri": "memory://people"}],
        ["@read", {"uri": "memory://profile"}],
        ["@read", {"uri": "memory://elsewhere"}],
        ["@prompt", {"name": "what_you_remember"}],
        ["@prompt", {"name": "no_such_prompt"}],
    ]);
    let bin = env!("CARGO_BIN_EXE_ash-memory");
    let report = client(&["stdio", &env.to_string(), bin, "mcp"], calls);

    let listed: Vec<&str> = report["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["memory://profile", "memory://people"]);
    assert!(
        report["resources"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["mime_type"] == "application/json")
    );
    assert_eq!(report["templates"], json!(["memory://memories/{id}"]));
    assert_eq!(report["prompts"], json!(["what_you_remember"]));

    let results = texts(&report);
    let json_of = |i: usize| -> Value {
        assert!(!results[i].1, "read {i} failed: {}", results[i].0);
        serde_json::from_str(&results[i].0).unwrap_or_else(|e| panic!("{e}: {}", results[i].0))
    };
    // The memory, by its id and by a prefix, as `show --json` gives it.
    let shown = ctx.json(&["--user", "alice", "show", &mine]);
    assert_eq!(json_of(0), shown);
    assert_eq!(json_of(1), shown);
    // Bob's memory is not alice's to read: not found, and nothing of it in the answer.
    assert!(results[2].1, "{:?}", results[2]);
    assert!(!results[2].0.contains("marathon"), "{}", results[2].0);
    // Ana is a person of alice's; the people resource is the CLI's list.
    let people = json_of(3);
    assert_eq!(people, ctx.json(&["--user", "alice", "people", "list"]));
    assert!(people.to_string().contains("Ana"), "{people}");
    assert!(json_of(4).is_object());
    assert!(results[5].1, "{:?}", results[5]);
    assert!(
        !results[6].1 && results[6].0.contains("What do you remember about me?"),
        "{:?}",
        results[6]
    );
    assert!(results[7].1, "{:?}", results[7]);
}

#[test]
fn a_subscribed_resource_is_announced_after_a_write_and_not_after_a_read() {
    if crate::support::ctx::files_only("the MCP client starts the server with an environment of its own") {
        return;
    }
    let ctx = Ctx::new();
    let env = json!({"ASH_HOME": ctx.home(), "ASH_CACHE_DIR": cache_dir(), "ASH_USER_ID": "alice"});
    let calls = json!([
        ["@subscribe", {"uri": "memory://people"}],
        ["@subscribe", {"uri": "memory://nowhere"}],
        ["recall", {"query": "sister"}],
        ["list_memories", {}],
        ["remember", {"content": "Ana lives in Lisbon", "subjects": ["my sister Ana"]}],
        ["@read", {"uri": "memory://people"}],
    ]);
    let bin = env!("CARGO_BIN_EXE_ash-memory");
    let report = client(&["stdio", &env.to_string(), bin, "mcp"], calls);
    let results = texts(&report);
    assert!(!results[0].1, "{:?}", results[0]);
    assert!(
        results[1].1,
        "an unknown resource cannot be subscribed to: {:?}",
        results[1]
    );
    // Two reads announced nothing; the write announced the subscribed resource once.
    assert_eq!(report["updated"], json!(["memory://people"]));
    assert!(results[5].0.contains("Ana"), "{:?}", results[5]);
}
