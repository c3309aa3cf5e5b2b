//! A read in another process holds no lock while it works (the files backend): it pins the
//! files and the index as they stood between two writes and lets the lock go, so that a
//! write beside it, of the CLI or of a server, never waits for it, and it answers from the
//! moment it began. A write lets the lock go while it embeds what it has not yet written.

use serde_json::json;

use crate::support::ctx::{Ctx, contents, files_only};
use crate::support::held::Held;
use crate::support::server::Server;

/// A home holding one fact, whose writers give up after a second: a write that waited for
/// a held read would fail.
fn home() -> Ctx {
    let ctx = Ctx::on_files().env("ASH_LOCK_TIMEOUT_SECS", "1");
    ctx.add("u", "I live in Lisbon");
    ctx
}

/// A CLI search of user u held just after it pinned the home, until [`finish`].
fn held_search(ctx: &Ctx) -> Held {
    Held::at(ctx, "read-pinned", &["--user", "u", "search", "where do I live"])
}

/// Lets the held search go on; its hits.
fn finish(search: Held) -> Vec<String> {
    contents(&search.resume()["hits"])
}

#[test]
fn a_cli_write_does_not_wait_for_a_cli_read() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    let search = held_search(&ctx);
    let moved = ctx.json(&["--user", "u", "add", "I moved to Porto last month"]);
    assert_eq!(moved["superseded"][0]["content"], "I live in Lisbon");
    // A read begun after the write sees it.
    assert_eq!(ctx.search("u", "where do I live"), ["I moved to Porto last month"]);
    // The held read answers as the home stood when it began: neither half of the write
    // (the new fact, or the old one replaced) reaches it.
    assert_eq!(finish(search), ["I live in Lisbon"]);
}

#[test]
fn a_server_write_does_not_wait_for_a_cli_read() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    let server = Server::start(&ctx, &[]);
    let mut rpc = server.client();
    let search = held_search(&ctx);
    for (i, fact) in ["I moved to Porto last month", "I work at a bakery", "I have a cat"]
        .into_iter()
        .enumerate()
    {
        let added = rpc.ok("memory.add", json!({"content": fact, "user_id": "u"}));
        assert!(added["memories"][0]["id"].is_string(), "write {i}: {added}");
    }
    assert_eq!(finish(search), ["I live in Lisbon"]);
    let listed = rpc.ok("memory.list", json!({"user_id": "u"}));
    assert_eq!(listed["memories"].as_array().unwrap().len(), 3, "{listed}");
}

#[test]
fn a_write_lets_the_lock_go_while_it_embeds() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    // Held after its fact is embedded, before it has read or written anything.
    let add = Held::at(&ctx, "unlocked", &["--user", "u", "add", "I moved to Porto last month"]);
    // Meanwhile another process changes the same fact, and adds another.
    let madrid = ctx.json(&["--user", "u", "add", "I moved to Madrid in January"]);
    assert_eq!(madrid["superseded"][0]["content"], "I live in Lisbon", "{madrid}");
    ctx.add("u", "I work at a bakery");
    // It reads the home again before it decides: what it replaces is the fact as it stands
    // now (Madrid), not as it stood when it began (Lisbon), and the other fact stays.
    let moved = add.resume();
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
    let correct = Held::at(
        &ctx,
        "unlocked",
        &["--user", "u", "correct", &id, "My dentist is Dr Shah"],
    );
    // Its owner vouches for the memory while the correction's text is embedded.
    ctx.ok(&["--user", "u", "confirm", &id]);
    let corrected = correct.resume();
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
    // The correction is stamped when it is written, after the confirmation.
    let by = lines.iter().find(|l| l["id"] == last["superseded_by_id"]).unwrap();
    let confirmed = chrono::DateTime::parse_from_rfc3339(last["confirmed_at"].as_str().unwrap()).unwrap();
    assert!(made(by) >= confirmed, "{by}\n{last}");
}

/// When a call's line was made, from its JSON.
fn made(line: &serde_json::Value) -> chrono::DateTime<chrono::Utc> {
    let at = line["created_at"]
        .as_str()
        .unwrap_or_else(|| panic!("no created_at: {line}"));
    chrono::DateTime::parse_from_rfc3339(at).unwrap().to_utc()
}

#[test]
fn a_write_held_while_it_embeds_is_stamped_when_it_writes() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    let add = Held::at(&ctx, "unlocked", &["--user", "u", "add", "I moved to Porto last month"]);
    ctx.add("u", "I moved to Madrid in January");
    add.resume();
    let lines = ctx.memory_lines();
    let last = |text: &str| {
        lines
            .iter()
            .rev()
            .find(|l| l["content"] == text)
            .unwrap_or_else(|| panic!("no line of {text:?}"))
            .clone()
    };
    let (madrid, porto) = (
        last("I moved to Madrid in January"),
        last("I moved to Porto last month"),
    );
    // Written after Madrid, Porto is newer than Madrid, and replaces it no sooner than it
    // was made: `history` never shows a fact replaced before it existed.
    assert!(made(&porto) >= made(&madrid), "{porto}\n{madrid}");
    assert_eq!(madrid["superseded_by_id"], porto["id"], "{madrid}");
    let replaced = chrono::DateTime::parse_from_rfc3339(madrid["superseded_at"].as_str().unwrap()).unwrap();
    assert!(replaced >= made(&madrid), "{madrid}");
}

#[test]
fn a_turn_held_while_it_embeds_is_stamped_when_it_writes() {
    if files_only("the files backend's lock") {
        return;
    }
    let ctx = home();
    let held_turn = Held::at(
        &ctx,
        "unlocked",
        &["--user", "u", "turn", "--session", "s", "I held this one"],
    );
    ctx.ok(&["--user", "u", "turn", "--session", "s", "I went first"]);
    held_turn.resume();
    let text = std::fs::read_to_string(ctx.home().join("memory/messages.jsonl")).unwrap();
    let messages: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let said: Vec<(&str, u64)> = messages
        .iter()
        .map(|m| (m["content"].as_str().unwrap(), m["turn"].as_u64().unwrap()))
        .collect();
    assert_eq!(said, [("I went first", 1), ("I held this one", 2)]);
    // The second turn is no older than the first.
    assert!(made(&messages[1]) >= made(&messages[0]), "{text}");
}
