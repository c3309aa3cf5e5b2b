//! Nothing of one scope reaches another: eviction and short ids stay within the caller's.

use super::ids;
use crate::support::ctx::Ctx;

/// Defect 1: `max_entries` is enforced per scope; another user's memories are never
/// evicted by, or shown to, a caller.
#[test]
fn eviction_stays_within_the_callers_scope() {
    let ctx = Ctx::new();
    ctx.config("[memory]\nmax_entries = 2\n");
    let bob1 = ctx.add("bob", "Bob's first note about gardening");
    let bob2 = ctx.add("bob", "Bob's second note about chess");
    let added = ctx.json(&["--user", "alice", "add", "Alice keeps bees"]);
    assert_eq!(added["evicted"], serde_json::json!([]), "{added}");
    let bobs = ids(&ctx.json(&["--user", "bob", "list"]));
    assert_eq!(bobs.len(), 2);
    assert!(bobs.contains(&bob1) && bobs.contains(&bob2));
    assert!(ctx.archive_lines().is_empty(), "nothing of bob's was archived");

    ctx.add("alice", "Alice grows tomatoes");
    let third = ctx.json(&["--user", "alice", "add", "Alice rides a red bicycle"]);
    let evicted = third["evicted"].as_array().unwrap();
    assert_eq!(evicted.len(), 1);
    assert_eq!(evicted[0]["owner_user_id"], "alice", "only alice's own memory goes");
    assert_eq!(ids(&ctx.json(&["--user", "bob", "list"])).len(), 2);

    // Group memories are a scope of their own.
    ctx.json(&["--user", "alice", "--chat", "c1", "add", "Standup at 9", "--shared"]);
    ctx.json(&["--user", "alice", "--chat", "c1", "add", "Retro on Fridays", "--shared"]);
    let g = ctx.json(&[
        "--user",
        "alice",
        "--chat",
        "c1",
        "add",
        "Demo day in March",
        "--shared",
    ]);
    for gone in g["evicted"].as_array().unwrap() {
        assert_eq!(gone["chat_id"], "c1", "{g}");
    }
    assert_eq!(
        ids(&ctx.json(&["--user", "alice", "--chat", "c1", "list"])).len(),
        4,
        "2 personal + 2 group in c1"
    );
}

/// Issue 16 item 4: short ids, scoped.
#[test]
fn short_ids_are_unique_prefixes_within_the_callers_scope() {
    let ctx = Ctx::new();
    let id = ctx.add("u", "I like tea");
    let other = ctx.add("v", "Victor's secret garden");
    assert_eq!(ctx.json(&["--user", "u", "show", &id[..8]])["id"], id.as_str());
    assert_eq!(ctx.json(&["--user", "u", "history", &id[..10]])[0]["id"], id.as_str());
    let err = ctx.fails(&["--user", "u", "show", &id[..7]]);
    assert!(err.contains(&id[..7]), "too short is not a prefix: {err}");
    let err = ctx.fails(&["--user", "u", "show", &other[..8]]);
    assert!(!err.contains(&other), "a foreign prefix reveals nothing: {err}");
    assert_eq!(ctx.json(&["--user", "u", "delete", &id[..8]])["deleted"], id.as_str());
}
