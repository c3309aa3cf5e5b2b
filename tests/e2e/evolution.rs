//! Knowledge evolution: supersession, history, GC, TTL decay, eviction, compaction.

use crate::support::ctx::{Ctx, contents};

#[test]
fn red_then_blue_recalls_blue_keeps_red_auditable_and_gc_archives_red() {
    if crate::support::ctx::files_only("reads memories.jsonl and archive.jsonl themselves") {
        return;
    }
    let ctx = Ctx::new();
    let red = ctx.add("u", "My favorite color is red");
    let added = ctx.json(&["--user", "u", "add", "My favorite color is blue"]);
    let blue = added["id"].as_str().unwrap().to_owned();
    assert_eq!(added["superseded"][0]["id"], red.as_str());

    assert_eq!(
        ctx.search("u", "What is my favorite color?"),
        ["My favorite color is blue"]
    );
    assert_eq!(
        contents(&ctx.json(&["--user", "u", "list"])),
        ["My favorite color is blue"]
    );
    assert_eq!(
        ctx.json(&["--user", "u", "list", "--include-superseded"])
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let old = ctx.json(&["--user", "u", "show", &red]);
    assert_eq!(old["superseded_by_id"], blue.as_str());
    assert!(old["superseded_at"].is_string());

    let chain = contents(&ctx.json(&["--user", "u", "history", &blue]));
    assert_eq!(chain, ["My favorite color is red", "My favorite color is blue"]);
    assert_eq!(
        contents(&ctx.json(&["--user", "u", "history", &red])),
        chain,
        "from either end"
    );
    ctx.fails(&["--user", "someone-else", "history", &blue]);

    let report = ctx.json(&["gc"]);
    assert_eq!(report["counts"]["superseded"], 1);
    assert_eq!(report["archived"][0]["id"], red.as_str());
    let text = std::fs::read_to_string(ctx.memories_path()).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.contains("favorite color")).count(),
        1,
        "{text}"
    );
    let archive = ctx.archive_lines();
    assert_eq!(archive.len(), 1);
    assert_eq!(archive[0]["content"], "My favorite color is red");
    assert_eq!(archive[0]["archive_reason"], "superseded");
    assert!(archive[0]["archived_at"].is_string());
    assert_eq!(
        contents(&ctx.json(&["--user", "u", "history", &blue])),
        chain,
        "history reads the archive"
    );
    assert_eq!(ctx.search("u", "favorite color"), ["My favorite color is blue"]);
    assert_eq!(
        contents(&ctx.json(&["--user", "u", "list", "--include-superseded"])),
        ["My favorite color is blue"],
        "list reads memories.jsonl only: once archived, red is in history, not in list"
    );
}

#[test]
fn facts_that_do_not_conflict_are_kept_apart() {
    let ctx = Ctx::new();
    ctx.add("u", "I like dogs");
    let cats = ctx.json(&["--user", "u", "add", "I like cats"]);
    assert!(cats["superseded"].as_array().unwrap().is_empty());

    // Different scopes: a group fact does not replace a personal one, nor another user's.
    ctx.add("u", "My favorite color is red");
    let group = ctx.json(&[
        "--user",
        "u",
        "--chat",
        "c",
        "add",
        "My favorite color is blue",
        "--shared",
    ]);
    assert!(group["superseded"].as_array().unwrap().is_empty());
    let other = ctx.json(&["--user", "v", "add", "My favorite color is green"]);
    assert!(other["superseded"].as_array().unwrap().is_empty());
    // Different subjects: a fact about Sarah is not a fact about the user.
    let sarah = ctx.json(&["--user", "u", "add", "Sarah's favorite color is yellow"]);
    assert!(sarah["superseded"].as_array().unwrap().is_empty());

    let mine = contents(&ctx.json(&["--user", "u", "list"]));
    for kept in [
        "I like dogs",
        "I like cats",
        "My favorite color is red",
        "Sarah's favorite color is yellow",
    ] {
        assert!(mine.contains(&kept.to_owned()), "{kept} was lost: {mine:?}");
    }
    assert!(
        ctx.json(&["gc", "--dry-run"])["archived"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[test]
fn each_ephemeral_type_lives_exactly_its_ttl_from_observed_at_or_creation() {
    let ctx = Ctx::new();
    let t0 = "2026-01-01T00:00:00Z";
    let add = |text: &str, ty: &str, extra: &[&str]| {
        let mut args = vec!["--now", t0, "--user", "u", "add", text, "--type", ty];
        args.extend_from_slice(extra);
        ctx.json(&args)["id"].as_str().unwrap().to_owned()
    };
    let cases = [
        (add("Working on the budget spreadsheet", "context", &[]), 7),
        (add("Went to the harbour festival", "event", &[]), 30),
        (add("Need to renew the passport", "task", &[]), 14),
        (add("Seemed cheerful this morning", "observation", &[]), 3),
    ];
    let keeper = add("Project Falcon uses Rust", "knowledge", &[]);
    // Observed two days before it was stored: one day of its three is left.
    let late = add(
        "Sounded hoarse on the call",
        "observation",
        &["--observed-at", "2025-12-30T00:00:00Z"],
    );

    let day = |n: i64| (chrono::DateTime::parse_from_rfc3339(t0).unwrap() + chrono::TimeDelta::days(n)).to_rfc3339();
    let dry_run_at = |now: &str| -> Vec<(String, String)> {
        ctx.json(&["--now", now, "gc", "--dry-run"])["archived"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                (
                    a["id"].as_str().unwrap().to_owned(),
                    a["archive_reason"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    for (id, ttl) in &cases {
        let before = dry_run_at(&day(ttl - 1));
        assert!(
            !before.iter().any(|(i, _)| i == id),
            "archived a day before its {ttl}-day TTL"
        );
        let after = dry_run_at(&day(ttl + 1));
        assert!(
            after.contains(&(id.clone(), "ephemeral_decay".to_owned())),
            "kept a day after its {ttl}-day TTL"
        );
    }
    assert!(!dry_run_at(&day(0)).iter().any(|(i, _)| *i == late));
    assert!(
        dry_run_at(&day(1)).iter().any(|(i, _)| *i == late),
        "observed_at is the basis"
    );

    let report = ctx.json(&["--now", &day(31), "gc"]);
    assert_eq!(report["counts"]["ephemeral_decay"], 5);
    assert_eq!(
        contents(&ctx.json(&["--now", &day(31), "--user", "u", "list", "--include-expired"])),
        ["Project Falcon uses Rust"]
    );
    assert_eq!(ctx.memory_lines()[0]["id"], keeper.as_str());
    assert!(
        ctx.archive_lines()
            .iter()
            .all(|a| a["archive_reason"] == "ephemeral_decay")
    );
}

#[test]
fn explicit_expiry_is_archived_as_expired_and_a_dry_run_changes_no_byte() {
    let ctx = Ctx::new();
    ctx.ok(&[
        "--now",
        "2026-01-01T00:00:00Z",
        "--user",
        "u",
        "add",
        "The door code is 4417 this week",
        "--expires-days",
        "2",
    ]);
    ctx.add("u", "My favorite color is red");
    ctx.add("u", "My favorite color is blue");
    let before = ctx.snapshot();
    let report = ctx.json(&["--now", "2026-01-04T00:00:00Z", "gc", "--dry-run"]);
    assert_eq!(report["dry_run"], true);
    assert_eq!(
        (
            report["counts"]["expired"].as_u64(),
            report["counts"]["superseded"].as_u64()
        ),
        (Some(1), Some(1))
    );
    assert_eq!(ctx.snapshot(), before, "a dry run writes nothing");
    let report = ctx.json(&["--now", "2026-01-04T00:00:00Z", "gc"]);
    assert_eq!(report["archived"].as_array().unwrap().len(), 2);
    let reasons: Vec<String> = ctx
        .archive_lines()
        .iter()
        .map(|a| a["archive_reason"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        reasons.contains(&"expired".to_owned()) && reasons.contains(&"superseded".to_owned()),
        "{reasons:?}"
    );
    assert_eq!(ctx.memory_lines().len(), 1);
}

#[test]
fn max_entries_evicts_ephemeral_then_oldest_never_the_new_one() {
    let ctx = Ctx::new();
    ctx.config("[memory]\nmax_entries = 3\n");
    let add = |minute: u32, text: &str, ty: &str| {
        let now = format!("2026-01-01T00:{minute:02}:00Z");
        ctx.json(&["--now", &now, "--user", "u", "add", text, "--type", ty])
    };
    let evicted = |v: &serde_json::Value| contents(&v["evicted"]);
    assert!(evicted(&add(0, "Alpha is the first project", "knowledge")).is_empty());
    add(1, "Book the venue for the offsite", "task");
    add(2, "Charlie speaks Portuguese", "knowledge");
    assert_eq!(
        evicted(&add(3, "Seemed distracted in the meeting", "observation")),
        ["Book the venue for the offsite"]
    );
    assert_eq!(
        evicted(&add(4, "Delta is written in Go", "knowledge")),
        ["Seemed distracted in the meeting"]
    );
    assert_eq!(
        evicted(&add(5, "Quickly jot the plan down", "task")),
        ["Alpha is the first project"],
        "the new task stays"
    );
    let listed = ctx.json(&["--now", "2026-01-01T00:06:00Z", "--user", "u", "list"]);
    assert_eq!(listed.as_array().unwrap().len(), 3);
    let archived = ctx.archive_lines();
    assert_eq!(archived.len(), 3);
    assert!(archived.iter().all(|a| a["archive_reason"] == "evicted"));
    // Each eviction appended a removal line rather than rewriting the file.
    let removed: Vec<String> = ctx
        .memory_lines()
        .iter()
        .filter(|l| l.get("removed_at").is_some())
        .map(|l| l["id"].as_str().unwrap().to_owned())
        .collect();
    let evicted_ids: Vec<String> = archived.iter().map(|a| a["id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(removed, evicted_ids);
    assert_eq!(ctx.memory_lines().len(), 6 + 3);
}

#[test]
fn compaction_reports_without_force_and_removes_only_old_entries_with_it() {
    let ctx = Ctx::new();
    let old = ctx.json(&[
        "--now",
        "2026-01-01T00:00:00Z",
        "--user",
        "u",
        "add",
        "An old fact to delete",
    ])["id"]
        .as_str()
        .unwrap()
        .to_owned();
    ctx.ok(&["--now", "2026-01-01T00:00:00Z", "--user", "u", "delete", &old]);
    let recent = ctx.add("u", "A recent fact to delete");
    ctx.ok(&["--now", "2026-05-01T00:00:00Z", "--user", "u", "delete", &recent]);
    let before = ctx.snapshot();
    let report = ctx.json(&["--now", "2026-05-15T00:00:00Z", "compact", "--older-than", "90"]);
    assert_eq!(
        (report["forced"].as_bool(), report["kept"].as_u64()),
        (Some(false), Some(1))
    );
    assert_eq!(report["removed"], serde_json::json!([old]));
    assert_eq!(ctx.snapshot(), before, "without --force nothing changes");
    let report = ctx.json(&[
        "--now",
        "2026-05-15T00:00:00Z",
        "compact",
        "--older-than",
        "90",
        "--force",
    ]);
    assert_eq!(report["removed"], serde_json::json!([old]));
    let left: Vec<String> = ctx
        .archive_lines()
        .iter()
        .map(|a| a["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(left, [recent]);
    let human = ctx.ok(&["--now", "2026-05-15T00:00:00Z", "compact"]);
    assert!(human.contains("0 archive entries are older than 90 days"), "{human}");
}

#[test]
fn auto_gc_cleans_up_when_a_host_starts() {
    let ctx = Ctx::new();
    ctx.add("u", "My favorite color is red");
    ctx.add("u", "My favorite color is blue");
    assert_eq!(ctx.memory_lines().len(), 3, "blue, red, and red's superseded line");
    ctx.config("[memory]\nauto_gc = true\n");
    ctx.ok(&["--user", "u", "list"]);
    assert_eq!(ctx.memory_lines().len(), 1);
    assert_eq!(ctx.archive_lines()[0]["archive_reason"], "superseded");
}
