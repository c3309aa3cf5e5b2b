//! `stats`: what a home holds, through the CLI, the real component, files and index.

use crate::support::ctx::Ctx;

#[test]
fn stats_count_what_the_home_holds_and_tell_the_index_state() {
    if crate::support::ctx::files_only("writes bad lines into the home's files") {
        return;
    }
    let ctx = Ctx::new();
    let on = |day: &str, args: &[&str]| {
        let mut all = vec!["--now", day];
        all.extend_from_slice(args);
        ctx.ok(&all);
    };
    on("2025-06-01T09:00:00Z", &["--user", "alice", "add", "I live in Lisbon"]);
    on("2026-03-01T08:00:00Z", &["--user", "alice", "add", "I live in Porto"]);
    on(
        "2026-03-01T08:00:00Z",
        &["--user", "alice", "add", "Standup is at nine", "--type", "context"],
    );
    on(
        "2026-03-01T08:00:00Z",
        &[
            "--user",
            "bob",
            "--chat",
            "team",
            "add",
            "Retro is on Fridays",
            "--shared",
            "--source",
            "rpc",
        ],
    );
    on(
        "2026-03-01T08:00:00Z",
        &["--user", "bob", "add", "My wife's name is Ana"],
    );
    let gone = ctx.json(&["--now", "2026-03-01T08:00:00Z", "--user", "bob", "add", "I like jazz"]);
    on(
        "2026-03-01T08:00:00Z",
        &["--user", "bob", "delete", gone["id"].as_str().unwrap()],
    );
    // A line that does not parse: set aside by the next call, and counted.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(ctx.memories_path())
        .unwrap();
    std::io::Write::write_all(&mut file, b"{\"not a record\n").unwrap();

    let st = ctx.json(&["--now", "2026-03-05T09:00:00Z", "stats"]);
    assert_eq!(st["memories"], 5, "{st:#}");
    assert_eq!(
        (&st["personal"], &st["group"], &st["users"], &st["chats"]),
        (&4.into(), &1.into(), &2.into(), &1.into())
    );
    assert_eq!(st["by_type"]["context"], 1);
    assert_eq!(st["by_type"]["task"], 0);
    assert_eq!(st["by_source"], serde_json::json!({"cli": 4, "rpc": 1}));
    assert_eq!(
        st["by_age"],
        serde_json::json!({"day": 0, "week": 4, "month": 0, "year": 1, "older": 0}),
        "Lisbon is 9 months old, the rest under a week"
    );
    // Lisbon was replaced by Porto; the standup (context, 7 days) has lived out its type.
    assert_eq!(
        (&st["superseded"], &st["expired"], &st["pending"]),
        (&1.into(), &0.into(), &0.into())
    );
    assert_eq!(st["archived"], serde_json::json!({"deleted": 1}));
    assert_eq!((&st["people"], &st["quarantined"]), (&1.into(), &1.into()));
    assert_eq!(st["index"]["dimension"], 384);

    // A week later the standup is past its lifetime; after gc the index is in step.
    let later = ctx.json(&["--now", "2026-03-09T09:00:00Z", "stats"]);
    assert_eq!(later["expired"], 1, "{later:#}");
    ctx.ok(&["--now", "2026-03-09T09:00:00Z", "gc"]);
    let after = ctx.json(&["--now", "2026-03-09T09:00:00Z", "stats"]);
    assert_eq!(
        (&after["memories"], &after["superseded"], &after["expired"]),
        (&3.into(), &0.into(), &0.into())
    );
    assert_eq!(
        after["archived"],
        serde_json::json!({"superseded": 1, "ephemeral_decay": 1, "deleted": 1})
    );
    assert_eq!(
        (&after["index"]["entries"], &after["index"]["in_step"]),
        (&3.into(), &true.into())
    );
    // The text form says the same in words.
    let text = ctx.ok(&["--now", "2026-03-09T09:00:00Z", "stats"]);
    assert!(
        text.contains("memories: 3") && text.contains("in step with memories.jsonl"),
        "{text}"
    );
}
