//! A read does not wait for a write under way either (the files backend): it finds the
//! lock taken, and reads the home where the last write left it, as that write recorded
//! it (`host/src/boundary.rs`). Nothing of the write under way reaches it, at any step of
//! that write; where the last holder of the lock left no record, it waits as before.

use std::time::Duration;

use serde_json::json;

use crate::support::ctx::{Ctx, contents, files_only};
use crate::support::held::Held;
use crate::support::server::Server;

/// A home holding one fact, whose calls give up after a second: a read that waited for
/// the write held beside it would fail.
fn home() -> Ctx {
    let ctx = Ctx::on_files().env("ASH_LOCK_TIMEOUT_SECS", "1");
    ctx.add("u", "I live in Lisbon");
    ctx
}

/// What `user` has live, sorted.
fn live(ctx: &Ctx, user: &str) -> Vec<String> {
    let mut live = contents(&ctx.json(&["--user", user, "list"]));
    live.sort();
    live
}

const MOVE: &str = "I moved to Porto last month";

#[test]
fn a_cli_read_does_not_wait_for_a_write_under_way() {
    if files_only("the files backend's lock") {
        return;
    }
    // The move's line written and flushed inside the journal; its index half written
    // (the new fact in, the old one not yet out); the files committed and recorded, the
    // index not.
    for step in ["append:memories:synced", "index:upsert", "index:commit"] {
        let ctx = home();
        let moving = Held::at(&ctx, step, &["--user", "u", "add", MOVE]);
        assert_eq!(
            ctx.search("u", "where do I live"),
            ["I live in Lisbon"],
            "held at {step}"
        );
        assert_eq!(live(&ctx, "u"), ["I live in Lisbon"], "held at {step}");
        let moved = moving.resume();
        assert_eq!(moved["superseded"][0]["content"], "I live in Lisbon", "{moved}");
        assert_eq!(ctx.search("u", "where do I live"), [MOVE], "after {step}");
        assert_eq!(live(&ctx, "u"), [MOVE]);
    }
}

/// A write whose record is written and whose index is not committed yet: the record keeps
/// the boundary before it, which a read's snapshot holds, and the read answers from there.
#[test]
fn a_read_between_a_writes_record_and_its_index_commit_answers_from_before() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    let moving = Held::at(&ctx, "boundary:recorded", &["--user", "u", "add", MOVE]);
    assert_eq!(ctx.search("u", "where do I live"), ["I live in Lisbon"]);
    moving.resume();
    assert_eq!(ctx.search("u", "where do I live"), [MOVE]);
}

/// A write whose index failed to commit (the files stand, the call succeeds) leaves no
/// record: a read beside the next write must not answer from the one before it, which
/// lacks what was acknowledged.
#[test]
fn a_write_that_could_not_record_where_it_left_the_home_blanks_the_record() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    let cat = ctx
        .command()
        .env("ASH_FAULT", "index:commit")
        .env("ASH_FAULT_MODE", "error")
        .args(["--json", "--user", "u", "add", "I have a cat called Miso"])
        .output()
        .unwrap();
    assert!(cat.status.success(), "{}", String::from_utf8_lossy(&cat.stderr));
    // Held before it records (the Miso line replayed into its index), and after.
    for (step, fact) in [("index:upsert", MOVE), ("index:commit", "I moved to Braga last week")] {
        let moving = Held::at(&ctx, step, &["--user", "u", "add", fact]);
        let out = ctx.run(&["--json", "--user", "u", "search", "what pet do I have"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.success() {
            let hits: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert!(
                contents(&hits["hits"]).iter().any(|h| h.contains("Miso")),
                "{step}: {hits}"
            );
        } else {
            assert!(stderr.contains("busy"), "{step}: {stderr}");
        }
        moving.resume();
    }
    assert_eq!(
        live(&ctx, "u"),
        ["I have a cat called Miso", "I moved to Braga last week"]
    );
}

/// A call that fails before it writes anything (a correction of a memory that does not
/// exist) leaves the record as it found it: a read beside the next write still answers.
#[test]
fn a_call_that_failed_before_writing_keeps_the_record() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    let refused = ctx.fails(&["--user", "u", "correct", "no-such-memory", "I live in Braga"]);
    assert!(!refused.contains("busy"), "{refused}");
    let moving = Held::at(&ctx, "index:upsert", &["--user", "u", "add", MOVE]);
    assert_eq!(ctx.search("u", "where do I live"), ["I live in Lisbon"]);
    moving.resume();
}

/// A server's write held half way: a CLI search and a search of another client of the
/// server answer from before it, without waiting.
#[test]
fn reads_do_not_wait_for_a_server_write_under_way() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    let pause = tempfile::tempdir().unwrap();
    let server = Server::start_with(
        &ctx,
        &[],
        &[
            ("ASH_FAULT", "index:commit"),
            ("ASH_FAULT_MODE", "pause"),
            ("ASH_FAULT_PAUSE", pause.path().to_str().unwrap()),
        ],
    );
    let mut writer = server.client();
    let adding = std::thread::spawn(move || writer.ok("memory.add", json!({"content": MOVE, "user_id": "u"})));
    let until = std::time::Instant::now() + Duration::from_secs(60);
    while !pause.path().join("paused").exists() {
        assert!(
            std::time::Instant::now() < until,
            "the server's add never reached its commit"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(ctx.search("u", "where do I live"), ["I live in Lisbon"]);
    let found = server
        .client()
        .ok("memory.search", json!({"query": "where do I live", "user_id": "u"}));
    assert_eq!(contents(&found["hits"]), ["I live in Lisbon"], "{found}");
    std::fs::write(pause.path().join("resume"), "").unwrap();
    let added = adding.join().unwrap();
    assert!(added["memories"][0]["id"].is_string(), "{added}");
    assert_eq!(ctx.search("u", "where do I live"), [MOVE]);
}
