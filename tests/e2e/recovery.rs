//! Recovery that users can break by hand: a home copied while a call was writing, a
//! tampered journal, an unreadable removal line, and `doctor`'s check that every memory
//! taken out has its archive copy and no archive copy is of a live memory.

use std::os::unix::process::ExitStatusExt;

use serde_json::Value;

use crate::support::ctx::{Ctx, contents};

fn finding<'a>(doctor: &'a Value, check: &str) -> &'a Value {
    doctor["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["check"] == check)
        .unwrap_or_else(|| panic!("no {check} finding: {doctor:#}"))
}

#[test]
fn a_home_copied_while_a_call_was_writing_is_rolled_back_in_the_copy() {
    if crate::support::ctx::files_only("kills a call between two writes to the home's files") {
        return;
    }
    let ctx = Ctx::new();
    ctx.add("u", "I'm allergic to peanuts");
    // Killed once the new memory is flushed, before the call commits. It writes a person
    // too, so its writes are in the journal (a call's one line waits for its commit).
    let out = ctx
        .command()
        .env("ASH_FAULT", "append:memories:synced")
        .args(["--user", "u", "add", "Tom is my cat", "--subject", "Tom"])
        .output()
        .unwrap();
    assert_eq!(out.status.signal(), Some(6), "{}", String::from_utf8_lossy(&out.stderr));
    // `copy` makes every file anew (new inodes), as `cp -a` or a restore does.
    let copy = ctx.copy();
    assert_eq!(
        contents(&copy.json(&["--user", "u", "list"])),
        ["I'm allergic to peanuts"],
        "the copy rolls back the call that was never acknowledged"
    );
    assert_eq!(copy.json(&["--user", "u", "people", "list"]), serde_json::json!([]));
    // A search brings the index up to the files, as any ordinary call may.
    assert_eq!(
        contents(&copy.json(&["--user", "u", "search", "cat"])["hits"]),
        Vec::<String>::new()
    );
    assert_eq!(copy.json(&["doctor"])["ok"], true);
}

#[test]
fn a_tampered_journal_cannot_make_recovery_touch_other_files() {
    if crate::support::ctx::files_only("writes the files backend's journal by hand") {
        return;
    }
    let ctx = Ctx::new();
    ctx.add("u", "I'm allergic to peanuts");
    let elsewhere = tempfile::tempdir().unwrap();
    let bait = elsewhere.path().join(".memories.jsonl.tmp-1");
    std::fs::write(&bait, "{\"not\":\"a memory of this home\"}\n").unwrap();
    // Where memories.jsonl stands now, so that nothing is cut: only the rename is bait.
    let end = std::fs::metadata(ctx.memories_path()).unwrap().len();
    let journal = serde_json::json!({
        "pid": 1,
        "before": [["memories", end, 0]],
        "replace": ["memories", bait],
    });
    std::fs::write(ctx.home().join("memory/.journal"), format!("{journal}\n")).unwrap();
    assert_eq!(
        contents(&ctx.json(&["--user", "u", "list"])),
        ["I'm allergic to peanuts"]
    );
    assert!(bait.exists(), "a file outside the home is never renamed into it");
    assert_eq!(ctx.json(&["doctor"])["ok"], true);
}

#[test]
fn a_removal_line_with_a_stamp_that_is_no_time_is_quarantined_not_obeyed() {
    if crate::support::ctx::files_only("writes memories.jsonl by hand") {
        return;
    }
    let ctx = Ctx::new();
    let id = ctx.add("u", "I'm allergic to peanuts");
    let line = serde_json::json!({"id": id, "version": 1, "removed_at": "never"});
    let mut text = std::fs::read_to_string(ctx.memories_path()).unwrap();
    text.push_str(&format!("{line}\n"));
    std::fs::write(ctx.memories_path(), text).unwrap();
    assert_eq!(
        contents(&ctx.json(&["--user", "u", "list"])),
        ["I'm allergic to peanuts"]
    );
    let quarantine = std::fs::read_to_string(ctx.home().join("memory/memories.quarantine.jsonl")).unwrap();
    assert!(quarantine.contains("\\\"never\\\""), "{quarantine}");
}

#[test]
fn doctor_finds_a_memory_removed_without_its_copy_and_a_copy_of_a_live_memory() {
    if crate::support::ctx::files_only("writes memories.jsonl and archive.jsonl by hand") {
        return;
    }
    let ctx = Ctx::new();
    let gone = ctx.add("u", "I'm allergic to peanuts");
    let live = ctx.add("u", "I live in Porto");
    let deleted = ctx.add("u", "My favorite color is red");
    ctx.ok(&["--user", "u", "delete", &deleted]);
    assert_eq!(finding(&ctx.json(&["doctor"]), "archive")["ok"], true);

    // What a broken transaction leaves: a removal line whose archive copy was rolled back,
    // and an archive copy of a memory whose removal line was.
    let append = |path: std::path::PathBuf, line: Value| {
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str(&format!("{line}\n"));
        std::fs::write(path, text).unwrap();
    };
    append(
        ctx.memories_path(),
        serde_json::json!({"id": gone, "version": 1, "removed_at": "2026-01-01T00:00:00+00:00"}),
    );
    let record = ctx
        .memory_lines()
        .into_iter()
        .find(|l| l["id"] == live.as_str())
        .unwrap();
    let mut copy = record.clone();
    copy["archived_at"] = "2026-01-01T00:00:00+00:00".into();
    copy["archive_reason"] = "deleted".into();
    append(ctx.home().join("memory/archive.jsonl"), copy);

    let out = ctx.run(&["--json", "doctor"]);
    assert!(!out.status.success(), "problems make doctor fail");
    let doctor: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doctor["ok"], false, "{doctor:#}");
    let detail = finding(&doctor, "archive")["detail"].as_str().unwrap().to_owned();
    assert!(
        detail.contains("removed without an archive copy") && detail.contains(&gone),
        "{detail}"
    );
    assert!(detail.contains("still live") && detail.contains(&live), "{detail}");
    assert!(!detail.contains(&deleted), "{detail}");
}
