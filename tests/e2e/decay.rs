//! Decay over a fixed clock through the CLI and the real component: a fact nobody recalls
//! fades; `gc` archives it when the system inferred it (extracted from a conversation), or
//! when `[memory] decay_told_facts` opts told facts in; recall (an appended access line) or
//! `confirm` keeps one.

use serde_json::json;

use crate::support::ctx::Ctx;

#[test]
fn told_facts_fade_in_rank_but_stay_and_extracted_ones_decay_away() {
    let ctx = Ctx::new();
    let on = |now: &str, args: &[&str]| {
        let mut all = vec!["--now", now, "--user", "alice"];
        all.extend_from_slice(args);
        ctx.json(&all)
    };
    let year_ago = "2025-01-10T09:00:00Z";
    let now = "2026-01-10T09:00:00Z";
    let dark = on(year_ago, &["add", "Likes dark mode", "--type", "preference"]);
    let bakery = on(
        year_ago,
        &["add", "The village bakery closes on Mondays", "--type", "knowledge"],
    );
    on(
        year_ago,
        &["turn", "--session", "s1", "I prefer oat milk in my coffee", "Noted."],
    );
    let extracted = on(year_ago, &["extract"]);
    let oat = extracted["stored"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["content"].as_str().unwrap().contains("oat milk"))
        .unwrap_or_else(|| panic!("the rules extract the preference: {extracted:#}"))
        .clone();
    assert_eq!(oat["memory_type"], "preference");

    // A year on, all three have faded below the threshold; only the extracted one may go.
    let stats = ctx.json(&["--now", now, "stats"]);
    assert_eq!(
        (stats["decayed"].as_u64(), stats["fading"].as_u64()),
        (Some(1), Some(0)),
        "{stats:#}"
    );
    let report = ctx.json(&["--now", now, "gc"]);
    let archived: Vec<&str> = report["archived"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(archived, [oat["id"].as_str().unwrap()], "{report:#}");
    let left: Vec<String> = on(now, &["list"])
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_owned())
        .collect();
    for told in [&dark, &bakery] {
        assert!(left.iter().any(|id| id == told["id"].as_str().unwrap()), "{left:?}");
    }
    let hits = on(now, &["search", "dark mode"]);
    assert_eq!(
        hits["hits"][0]["id"], dark["id"],
        "a faded told fact is still found: {hits:#}"
    );
}

#[test]
fn unrecalled_facts_decay_and_gc_archives_them_unless_recalled_or_confirmed() {
    if crate::support::ctx::files_only("rewrites memories.jsonl by hand") {
        return;
    }
    let ctx = Ctx::new();
    // Told facts decay away only when the home opts them in.
    ctx.config("[memory]\ndecay_told_facts = true\n");
    let on = |now: &str, args: &[&str]| {
        let mut all = vec!["--now", now, "--user", "alice"];
        all.extend_from_slice(args);
        ctx.json(&all)
    };
    let day0 = "2025-01-01T09:00:00Z";
    let jazz = on(day0, &["add", "I collect old jazz records", "--type", "preference"]);
    let tea = on(day0, &["add", "Green tea keeps me awake", "--type", "preference"]);
    let bird = on(day0, &["add", "The kestrel is a small falcon", "--type", "knowledge"]);
    let me = on(day0, &["add", "I was born in Lisbon", "--type", "identity"]);
    let id = |v: &serde_json::Value| v["id"].as_str().unwrap().to_owned();
    on("2025-01-02T09:00:00Z", &["confirm", &id(&bird)]);

    // Day 200: the jazz records are recalled, and the access is one appended line.
    let day200 = "2025-07-20T09:00:00Z";
    let hits = on(day200, &["search", "jazz records", "--limit", "1"]);
    assert_eq!(hits["hits"][0]["id"], id(&jazz));
    let last = std::fs::read_to_string(ctx.memories_path())
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_owned();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&last).unwrap(),
        json!({"id": id(&jazz), "version": 1, "accessed_at": "2025-07-20T09:00:00+00:00"})
    );
    // Day 320: the tea, never recalled, has faded below the threshold (0.04); the jazz
    // records, recalled 120 days ago, have not (0.30); nor the confirmed fact, nor who
    // alice is.
    let day320 = "2025-11-17T09:00:00Z";
    assert_eq!(ctx.json(&["--now", day320, "stats"])["decayed"], 1);
    let report = ctx.json(&["--now", day320, "gc"]);
    let archived: Vec<(String, String)> = report["archived"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["id"].as_str().unwrap().to_owned(),
                a["archive_reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(archived, [(id(&tea), "decayed".to_owned())], "{report:#}");
    let left: Vec<String> = on(day320, &["list"]).as_array().unwrap().iter().map(id).collect();
    for kept in [&jazz, &bird, &me] {
        assert!(left.contains(&id(kept)), "{left:?}");
    }
    assert_eq!(ctx.json(&["--now", day320, "doctor"])["ok"], true);
}
