//! The agent tools `remember` and `recall`: batches, and bad input refused.

use serde_json::Value;

use crate::support::ctx::Ctx;

#[test]
fn the_remember_and_recall_tools_handle_batches_and_refuse_bad_input() {
    let ctx = Ctx::new();
    let schemas = ctx.json(&["tools"]);
    let names: Vec<&str> = schemas
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["remember", "recall", "correct"]);
    assert_eq!(
        schemas[0]["input_schema"]["properties"]["facts"]["items"]["required"],
        serde_json::json!(["content"])
    );
    assert_eq!(schemas[1]["input_schema"]["required"], serde_json::json!(["query"]));

    let batch = r#"{"facts": [
        {"content": "Sarah likes Italian food", "subjects": ["my wife Sarah"]},
        {"content": "Parking pass expires soon", "expires_in_days": 14},
        {"content": "Team lunch is on Fridays", "shared": true}
    ]}"#;
    let out = ctx.ok(&["--user", "u", "--chat", "team", "tools", "call", "remember", batch]);
    assert_eq!(out.trim(), "Remembered 3 facts.");
    let listed = ctx.json(&["--user", "u", "--chat", "team", "list"]);
    let group: Vec<&Value> = listed
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["chat_id"] == "team")
        .collect();
    assert_eq!(group.len(), 1);
    assert!(listed.as_array().unwrap().iter().any(|m| m["expires_at"].is_string()));
    assert_eq!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["source"] == "tool")
            .count(),
        3
    );

    let recalled = ctx.ok(&[
        "--user",
        "u",
        "--chat",
        "team",
        "tools",
        "call",
        "recall",
        r#"{"query": "food", "about": "my wife"}"#,
    ]);
    let sarah = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["content"] == "Sarah likes Italian food")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        recalled.trim(),
        format!("- Sarah likes Italian food (about Sarah; id {sarah})")
    );
    let single = ctx.ok(&[
        "--user",
        "u",
        "tools",
        "call",
        "remember",
        r#"{"content": "I prefer tea", "subjects": []}"#,
    ]);
    assert_eq!(single.trim(), "Remembered 1 fact.");
    // A fact replaced by a later fact of the same call is reported like an older one.
    let moved = ctx.ok(&[
        "--user",
        "v",
        "tools",
        "call",
        "remember",
        r#"{"facts": [{"content": "I live in Lisbon"}, {"content": "I live in Porto"}]}"#,
    ]);
    assert_eq!(moved.trim(), r#"Remembered 2 facts. It replaces: "I live in Lisbon"."#);

    let before = ctx.snapshot();
    for (name, args, expect) in [
        ("remember", "not json", "not JSON"),
        ("remember", "[1, 2]", "JSON object"),
        ("remember", "{}", "`content` or a non-empty `facts`"),
        (
            "remember",
            r#"{"facts": [{"content": "ok"}, {"content": "x", "expires_in_days": "soon"}]}"#,
            "facts[1].expires_in_days",
        ),
        (
            "remember",
            r#"{"facts": [{"subjects": ["Sarah"]}]}"#,
            "facts[0].content",
        ),
        ("remember", r#"{"content": "my password is hunter2"}"#, "refused"),
        ("recall", r#"{"about": "Sarah"}"#, "`query`"),
        ("forget", "{}", "unknown tool \"forget\""),
    ] {
        let err = ctx.fails(&["--user", "u", "tools", "call", name, args]);
        assert!(err.contains(expect), "{name} {args}: {err}");
    }
    assert_eq!(ctx.snapshot(), before, "bad tool calls change nothing");
}
