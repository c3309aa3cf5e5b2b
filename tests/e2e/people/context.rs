//! The context block: scoped, within its budget, and keeping what answers the message.

use crate::support::ctx::{Ctx, contents};

#[test]
fn the_context_block_is_scoped_and_fits_its_budget() {
    let ctx = Ctx::new();
    ctx.ok(&[
        "--user",
        "u",
        "add",
        "Sarah likes Italian food",
        "--subject",
        "my wife Sarah",
    ]);
    ctx.ok(&["--user", "u", "people", "add", "Michael", "--relation", "boss"]);
    for fact in [
        "I prefer concise answers",
        "I'm allergic to peanuts",
        "I live in Lisbon",
        "My favorite color is blue",
        "I work as a software engineer",
    ] {
        ctx.add("u", fact);
    }
    ctx.ok(&[
        "--user",
        "u",
        "--chat",
        "team",
        "add",
        "Our standup is at 9am",
        "--shared",
    ]);
    ctx.ok(&["--user", "other", "add", "Other's secret plan is a surprise party"]);

    let full = ctx.json(&[
        "--user",
        "u",
        "--chat",
        "team",
        "context",
        "What should I cook for dinner?",
    ]);
    let md = full["markdown"].as_str().unwrap();
    let memories = contents(&full["memories"]);
    assert_eq!(memories.len(), 7, "top memories regardless of similarity: {memories:?}");
    // The profile holds private facts: not in a chat.
    assert_eq!(full["profile"], serde_json::json!([]));
    assert!(
        memories.contains(&"Our standup is at 9am".to_owned()),
        "the chat's group memory is in scope"
    );
    assert!(!md.contains("surprise party"), "another user's memory never is");
    assert!(md.contains("- **Michael** (boss)") && md.contains("- **Sarah** (wife)"));
    assert_eq!(full["dropped"], 0);
    let estimate = full["estimated_tokens"].as_u64().unwrap();
    assert_eq!(estimate, (md.chars().count() as u64).div_ceil(4));

    let budget = estimate - 20;
    let tight = ctx.json(&[
        "--user",
        "u",
        "--chat",
        "team",
        "context",
        "What should I cook for dinner?",
        "--max-tokens",
        &budget.to_string(),
    ]);
    assert!(tight["estimated_tokens"].as_u64().unwrap() <= budget);
    assert!(tight["dropped"].as_u64().unwrap() >= 1);
    let kept = contents(&tight["memories"]);
    assert_eq!(kept[..], memories[..kept.len()], "the least relevant memories go first");
    // The message names no one; Sarah stays as the one the best memory is about, and
    // Michael, who nothing here concerns, goes before any memory.
    let people: Vec<&str> = tight["people"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(people, ["Sarah"], "{tight:#}");
    assert_eq!(memories[0], "Sarah likes Italian food");
    let nothing = ctx.json(&["--user", "u", "context", "hello", "--max-tokens", "5"]);
    assert_eq!(nothing["markdown"], "");
    // A budget of nothing is refused rather than answered as an empty memory.
    let err = ctx.fails(&["--user", "u", "context", "hello", "--max-tokens", "0"]);
    assert!(err.contains("max_tokens is 0"), "{err}");
}

#[test]
fn a_tight_budget_keeps_what_answers_the_message_and_whom_it_names() {
    let ctx = Ctx::new();
    ctx.ok(&["--user", "u", "people", "add", "Sarah", "--relation", "wife"]);
    ctx.ok(&["--user", "u", "people", "add", "Michael", "--relation", "boss"]);
    ctx.ok(&["--user", "u", "add", "Sarah likes Italian food", "--subject", "Sarah"]);
    ctx.add("u", "I prefer concise responses");
    ctx.add("u", "I'm allergic to peanuts");
    let ask = |message: &str, budget: &str| ctx.json(&["--user", "u", "context", message, "--max-tokens", budget]);

    let tight = ask("What should I cook for my wife?", "80");
    let md = tight["markdown"].as_str().unwrap();
    assert!(tight["estimated_tokens"].as_u64().unwrap() <= 80, "{tight:#}");
    assert!(
        md.contains("Sarah likes Italian food"),
        "the memory that answers stays: {md}"
    );
    assert!(
        md.contains("- **Sarah** (wife)"),
        "the person the message names stays: {md}"
    );
    assert!(!md.contains("Michael"), "an unrelated person goes first: {md}");
    assert!(tight["dropped"].as_u64().unwrap() >= 1);

    // Asked about the boss, the boss stays and the wife goes.
    let tight = ask("When does my boss want the report?", "40");
    let md = tight["markdown"].as_str().unwrap();
    assert!(md.contains("- **Michael** (boss)") && !md.contains("**Sarah**"), "{md}");
}
