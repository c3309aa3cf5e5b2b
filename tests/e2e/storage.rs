//! The files are the source of truth: the JSONL line, rebuilds, corrupt lines, concurrency.

use base64::Engine as _;

use ash_memory::{Embedder, TransformerEmbedder};

use crate::support::ctx::{Ctx, contents};

/// Seed 000's memory fields, all present on every line.
const SEED_FIELDS: &[&str] = &[
    "id",
    "version",
    "content",
    "memory_type",
    "embedding",
    "created_at",
    "observed_at",
    "owner_user_id",
    "chat_id",
    "subject_person_ids",
    "source",
    "source_session_id",
    "source_message_id",
    "extraction_confidence",
    "expires_at",
    "superseded_at",
    "superseded_by_id",
    "archived_at",
    "archive_reason",
    "metadata",
];

#[test]
fn the_jsonl_line_has_the_seed_fields_and_the_right_embedding() {
    let ctx = Ctx::new().env("ASH_NOW", "2026-02-09T10:00:00Z");
    let id = ctx.add("user-1", "User prefers dark mode");
    let lines = ctx.memory_lines();
    assert_eq!(lines.len(), 1);
    let line = &lines[0];
    for field in SEED_FIELDS {
        assert!(line.get(*field).is_some(), "missing {field}: {line}");
    }
    assert_eq!(line["id"], id.as_str());
    assert_eq!(line["version"], 1);
    assert_eq!(line["memory_type"], "preference");
    assert_eq!(line["created_at"], "2026-02-09T10:00:00+00:00");
    assert_eq!(line["owner_user_id"], "user-1");
    assert_eq!(line["chat_id"], serde_json::Value::Null);
    assert_eq!(line["subject_person_ids"], serde_json::json!([]));
    assert_eq!(line["source"], "cli");

    let bytes = base64::engine::general_purpose::STANDARD
        .decode(line["embedding"].as_str().unwrap())
        .unwrap();
    let stored: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    let expected = TransformerEmbedder::new()
        .embed(&["User prefers dark mode".into()])
        .unwrap()
        .remove(0);
    assert_eq!(stored, expected, "little-endian f32s of the content's embedding");
    let norm: f32 = stored.iter().map(|x| x * x).sum::<f32>().sqrt();
    assert!((norm - 1.0).abs() < 1e-3);
}

#[test]
fn search_is_the_same_after_the_index_is_deleted_or_overwritten() {
    if crate::support::ctx::files_only("tests the files backend itself: its lines, quarantine files and index file") {
        return;
    }
    let ctx = Ctx::new();
    for fact in [
        "I'm allergic to peanuts",
        "My favorite color is blue",
        "I like hiking in the Alps",
        "I drink oat milk",
    ] {
        ctx.add("u", fact);
    }
    let query = ["--user", "u", "search", "food I cannot eat"];
    let before = ctx.json(&query);
    assert!(!before["hits"].as_array().unwrap().is_empty());
    let ids = |v: &serde_json::Value| -> Vec<String> {
        v["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["id"].as_str().unwrap().to_owned())
            .collect()
    };

    std::fs::remove_file(ctx.index_path()).unwrap();
    let out = ctx.run(&["--json", "--user", "u", "search", "food I cannot eat"]);
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("rebuilding"),
        "says why it rebuilt"
    );
    let after_delete: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(ids(&after_delete), ids(&before));

    std::fs::write(ctx.index_path(), vec![0x5a; 64 * 1024]).unwrap();
    let after_junk = ctx.json(&query);
    assert_eq!(ids(&after_junk), ids(&before));
    assert_eq!(contents(&after_junk["hits"]), contents(&before["hits"]));

    let report = ctx.json(&["rebuild-index"]);
    assert_eq!(report["indexed"], 4);
    assert_eq!(report["embedded"], 0, "vectors come from the JSONL, not the embedder");
    assert_eq!(ids(&ctx.json(&query)), ids(&before));
}

#[test]
fn corrupt_lines_are_quarantined_and_the_rest_still_loads() {
    if crate::support::ctx::files_only("tests the files backend itself: its lines, quarantine files and index file") {
        return;
    }
    let ctx = Ctx::new();
    let keep = ctx.add("u", "I'm allergic to peanuts");
    ctx.add("u", "My favorite color is blue");
    let mut text = std::fs::read_to_string(ctx.memories_path()).unwrap();
    text.push_str("this is not json\n{\"id\": \"half\", \"version\": 1, \"con");
    std::fs::write(ctx.memories_path(), &text).unwrap();

    let out = ctx.run(&["--json", "--user", "u", "list"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("quarantined"), "reported: {stderr}");
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 2);

    let quarantine = std::fs::read_to_string(ctx.home().join("memory/memories.quarantine.jsonl")).unwrap();
    let kept: Vec<serde_json::Value> = quarantine.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let raw: Vec<&str> = kept.iter().map(|q| q["line"].as_str().unwrap()).collect();
    assert_eq!(raw, ["this is not json", "{\"id\": \"half\", \"version\": 1, \"con"]);
    assert_eq!(ctx.memory_lines().len(), 2, "the collection was rewritten without them");
    assert_eq!(ctx.search("u", "peanut allergy")[0], "I'm allergic to peanuts");
    assert_eq!(ctx.json(&["--user", "u", "show", &keep])["id"], keep.as_str());
}

#[test]
fn two_processes_adding_at_once_lose_nothing() {
    let ctx = Ctx::new();
    ctx.add("warmup", "compile and cache the component once");
    std::thread::scope(|s| {
        for writer in ["w1", "w2"] {
            let ctx = &ctx;
            s.spawn(move || {
                for i in 0..200 {
                    let out = ctx.run(&["--user", writer, "add", &format!("{writer} fact number {i}")]);
                    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
                }
            });
        }
    });
    let lines = ctx.memory_lines();
    assert_eq!(lines.len(), 401);
    let mut ids: Vec<&str> = lines.iter().map(|l| l["id"].as_str().unwrap()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 401, "every line a distinct memory");
    for writer in ["w1", "w2"] {
        let mine: Vec<&serde_json::Value> = lines.iter().filter(|l| l["owner_user_id"] == writer).collect();
        assert_eq!(mine.len(), 200);
        for i in 0..200 {
            let text = format!("{writer} fact number {i}");
            assert!(mine.iter().any(|l| l["content"] == text.as_str()), "lost {text}");
        }
    }
    assert_eq!(ctx.json(&["--user", "w1", "list"]).as_array().unwrap().len(), 200);
}

#[test]
fn a_delete_appends_one_removal_line_and_gc_folds_it_away() {
    if crate::support::ctx::files_only("tests the files backend itself: its lines, quarantine files and index file") {
        return;
    }
    let ctx = Ctx::new().env("ASH_NOW", "2026-03-01T12:00:00Z");
    let keep = ctx.add("u", "I play the cello");
    let gone = ctx.add("u", "My cat is called Tom");
    let before = std::fs::read(ctx.memories_path()).unwrap();
    assert_eq!(ctx.json(&["--user", "u", "delete", &gone])["deleted"], gone.as_str());

    // Nothing written before was touched: the file grew by exactly one line.
    let after = std::fs::read(ctx.memories_path()).unwrap();
    assert_eq!(&after[..before.len()], &before[..]);
    let added = String::from_utf8(after[before.len()..].to_vec()).unwrap();
    assert_eq!(
        added,
        format!("{{\"id\":\"{gone}\",\"version\":1,\"removed_at\":\"2026-03-01T12:00:00+00:00\"}}\n")
    );
    // Every later process sees it gone, by id, in lists and in searches; the archive has it.
    assert!(ctx.fails(&["--user", "u", "show", &gone]).contains("no memory"));
    let listed = ctx.json(&["--user", "u", "list"]);
    assert_eq!(contents(&listed), ["I play the cello"]);
    assert!(
        ctx.search("u", "cat called Tom")
            .iter()
            .all(|c| c != "My cat is called Tom")
    );
    assert_eq!(ctx.archive_lines().last().unwrap()["archive_reason"], "deleted");
    // A rebuilt index agrees, and doctor finds nothing to say.
    ctx.ok(&["rebuild-index"]);
    assert!(
        ctx.search("u", "cat called Tom")
            .iter()
            .all(|c| c != "My cat is called Tom")
    );
    ctx.ok(&["doctor"]);

    // GC with nothing to archive folds the stale lines away (two against one live memory).
    ctx.ok(&["gc"]);
    let lines = ctx.memory_lines();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["id"], keep.as_str());
    assert_eq!(contents(&ctx.json(&["--user", "u", "list"])), ["I play the cello"]);
}
