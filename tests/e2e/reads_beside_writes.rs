//! A read in another process holds no lock while it works (the files backend): it pins the
//! files and the index as they stood between two writes and lets the lock go, so that a
//! write beside it, of the CLI or of a server, never waits for it, and it answers from the
//! moment it began. A write lets the lock go while it embeds what it has not yet written.

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::ctx::{Ctx, contents, files_only};
use crate::support::server::Server;

/// A home holding one fact, whose writers give up after a second: a write that waited for
/// a held read would fail.
fn home() -> Ctx {
    let ctx = Ctx::on_files().env("ASH_LOCK_TIMEOUT_SECS", "1");
    ctx.add("u", "I live in Lisbon");
    ctx
}

/// A CLI search held just after it pinned the home (`ASH_FAULT_MODE=pause`), until
/// [`finish`] lets it go on through the folder `pause`.
fn held_search(ctx: &Ctx, pause: &Path) -> Child {
    held(ctx, pause, "read-pinned", &["search", "where do I live"])
}

/// A CLI call of user u held at the fault point `at`.
fn held(ctx: &Ctx, pause: &Path, at: &str, args: &[&str]) -> Child {
    let child = ctx
        .command()
        .env("ASH_FAULT", at)
        .env("ASH_FAULT_MODE", "pause")
        .env("ASH_FAULT_PAUSE", pause)
        .args(["--json", "--user", "u"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let until = Instant::now() + Duration::from_secs(60);
    while !pause.join("paused").exists() {
        assert!(Instant::now() < until, "the call never reached {at}");
        std::thread::sleep(Duration::from_millis(10));
    }
    child
}

/// Lets the held search go on; its hits.
fn finish(pause: &Path, search: Child) -> Vec<String> {
    contents(&resume(pause, search)["hits"])
}

/// Lets the held call go on; what it printed.
fn resume(pause: &Path, call: Child) -> serde_json::Value {
    std::fs::write(pause.join("resume"), "").unwrap();
    let out = call.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

#[test]
fn a_cli_write_does_not_wait_for_a_cli_read() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    let pause = tempfile::tempdir().unwrap();
    let search = held_search(&ctx, pause.path());
    let moved = ctx.json(&["--user", "u", "add", "I moved to Porto last month"]);
    assert_eq!(moved["superseded"][0]["content"], "I live in Lisbon");
    // A read begun after the write sees it.
    assert_eq!(ctx.search("u", "where do I live"), ["I moved to Porto last month"]);
    // The held read answers as the home stood when it began: neither half of the write
    // (the new fact, or the old one replaced) reaches it.
    assert_eq!(finish(pause.path(), search), ["I live in Lisbon"]);
}

#[test]
fn a_server_write_does_not_wait_for_a_cli_read() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    let server = Server::start(&ctx, &[]);
    let mut rpc = server.client();
    let pause = tempfile::tempdir().unwrap();
    let search = held_search(&ctx, pause.path());
    for (i, fact) in ["I moved to Porto last month", "I work at a bakery", "I have a cat"]
        .into_iter()
        .enumerate()
    {
        let added = rpc.ok("memory.add", json!({"content": fact, "user_id": "u"}));
        assert!(added["memories"][0]["id"].is_string(), "write {i}: {added}");
    }
    assert_eq!(finish(pause.path(), search), ["I live in Lisbon"]);
    let listed = rpc.ok("memory.list", json!({"user_id": "u"}));
    assert_eq!(listed["memories"].as_array().unwrap().len(), 3, "{listed}");
}

#[test]
fn a_write_lets_the_lock_go_while_it_embeds() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    let pause = tempfile::tempdir().unwrap();
    // Held after its fact is embedded, before it has read or written anything.
    let add = held(&ctx, pause.path(), "unlocked", &["add", "I moved to Porto last month"]);
    // Meanwhile another process changes the same fact, and adds another.
    let madrid = ctx.json(&["--user", "u", "add", "I moved to Madrid in January"]);
    assert_eq!(madrid["superseded"][0]["content"], "I live in Lisbon", "{madrid}");
    ctx.add("u", "I work at a bakery");
    // It reads the home again before it decides: what it replaces is the fact as it stands
    // now (Madrid), not as it stood when it began (Lisbon), and the other fact stays.
    let moved = resume(pause.path(), add);
    let replaced = contents(&moved["superseded"]);
    assert_eq!(replaced, ["I moved to Madrid in January"], "{moved}");
    let mut live = contents(&ctx.json(&["--user", "u", "list"]));
    live.sort();
    assert_eq!(live, ["I moved to Porto last month", "I work at a bakery"]);
}

#[test]
fn a_correction_keeps_what_another_process_recorded_while_it_embedded() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    let id = ctx.add("u", "My dentist is Dr Okafor");
    let pause = tempfile::tempdir().unwrap();
    let correct = held(
        &ctx,
        pause.path(),
        "unlocked",
        &["correct", &id, "My dentist is Dr Shah"],
    );
    // Its owner vouches for the memory while the correction's text is embedded.
    ctx.ok(&["--user", "u", "confirm", &id]);
    let corrected = resume(pause.path(), correct);
    assert_eq!(corrected["superseded"][0]["memory"]["id"], id.as_str(), "{corrected}");
    // The line that records the replacement keeps the confirmation.
    let lines = ctx.memory_lines();
    let last = lines
        .iter()
        .rev()
        .find(|l| l["id"] == id.as_str())
        .expect("the old memory's lines");
    assert!(last["superseded_by_id"].is_string(), "{last}");
    assert!(last["confirmed_at"].is_string(), "the confirmation is kept: {last}");
}
