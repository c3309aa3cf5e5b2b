//! Turns: stored redacted and apart from memories, recalled from the caller's other
//! sessions only, and extracted by the server once a session pauses.

use std::time::Duration;

use serde_json::{Value, json};

use super::{NOW, everything, turn};
use crate::support::ctx::Ctx;
use crate::support::fixtures::CHATTER;

fn lines(ctx: &Ctx, file: &str) -> Vec<Value> {
    std::fs::read_to_string(ctx.home().join("memory").join(file))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn turns_are_stored_redacted_and_recalled_from_other_sessions_only() {
    if crate::support::ctx::files_only("reads messages.jsonl and every byte under the home") {
        return;
    }
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    let first = turn(&ctx, "u", "monday", &["I'm allergic to peanuts", "Noted, no peanuts."]);
    assert_eq!(first["message_ids"].as_array().unwrap().len(), 2);
    turn(&ctx, "u", "monday", &["We should plan the trip to Japan in spring"]);
    let secret = turn(
        &ctx,
        "u",
        "tuesday",
        &["Thanks. my password is hunter2 by the way", "OK"],
    );
    assert_eq!(secret["redacted"], 1);
    // A caller cannot store an empty message, or a session without a name.
    ctx.fails(&["--user", "u", "turn", "--session", "x", "   "]);
    ctx.fails(&["--user", "u", "turn", "--session", " ", "hello"]);
    // Nor a session or provider named with a secret: names are stored as they are.
    let err = ctx.fails(&["--user", "u", "turn", "--session", "password=hunter2hunter2", "hello"]);
    assert!(err.contains("session name looks like a password"), "{err}");
    let err = ctx.fails(&[
        "--user",
        "u",
        "turn",
        "--session",
        "x",
        "--provider",
        "sk-live-51HGs8d7f6g5h4j3k2l1",
        "hello",
    ]);
    assert!(err.contains("provider name") && !err.contains("51HGs8"), "{err}");

    let messages = lines(&ctx, "messages.jsonl");
    assert_eq!(messages.len(), 5, "two, one and two messages");
    assert!(
        messages
            .iter()
            .all(|m| m["owner_user_id"] == "u" && m["embedding"].is_string())
    );
    let sessions = lines(&ctx, "sessions.jsonl");
    let monday: Vec<&Value> = sessions.iter().filter(|s| s["name"] == "monday").collect();
    assert_eq!(monday.last().unwrap()["turns"], 2, "the last line for a session wins");
    assert!(
        !everything(&ctx).contains("hunter2"),
        "the secret is nowhere, index included"
    );

    // Messages are not memories: search finds none of them.
    assert!(ctx.search("u", "peanuts").is_empty());
    // The context of another session shows the past message; its own session does not.
    let block = ctx.json(&["--user", "u", "context", "--session", "tuesday", "Can I eat peanuts?"]);
    let past: Vec<&str> = block["past_messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert!(past.contains(&"I'm allergic to peanuts"), "{block:#}");
    assert!(
        !past.iter().any(|m| m.contains("Japan") || m.contains("[redacted]")),
        "{block:#}"
    );
    assert!(
        block["markdown"]
            .as_str()
            .unwrap()
            .contains("## Relevant past messages")
    );
    let same = ctx.json(&["--user", "u", "context", "--session", "monday", "Can I eat peanuts?"]);
    assert!(same["past_messages"].as_array().unwrap().is_empty(), "{same:#}");
    // Nobody else sees them: not another user, not a chat the user is in.
    for who in [vec!["--user", "v"], vec!["--user", "u", "--chat", "g"]] {
        let mut args = who.clone();
        args.extend(["context", "Can I eat peanuts?"]);
        let other = ctx.json(&args);
        assert!(
            other["past_messages"].as_array().unwrap().is_empty(),
            "{who:?}: {other:#}"
        );
    }
    // The index is a cache: rebuilt from the files, the messages are found again.
    std::fs::remove_file(ctx.index_path()).unwrap();
    let again = ctx.json(&["--user", "u", "context", "--session", "tuesday", "Can I eat peanuts?"]);
    assert!(
        again["past_messages"].to_string().contains("I'm allergic to peanuts"),
        "{again:#}"
    );
}

#[test]
fn the_server_stores_turns_and_extracts_once_the_session_pauses() {
    let ctx = Ctx::new();
    ctx.config("[memory]\nextraction_delay_seconds = 1\n");
    let server = crate::support::server::Server::start(&ctx, &[]);
    let mut rpc = server.client();
    let said = |rpc: &mut crate::support::server::Client, session: &str, text: &str| {
        rpc.ok(
            "conversations.turn",
            json!({"user_id": "alice", "session": session, "user_message": text, "assistant_message": "OK."}),
        )
    };
    said(&mut rpc, "s1", "I'm allergic to peanuts");
    said(&mut rpc, "s1", "My son is called Leo");
    assert_eq!(
        rpc.code("conversations.turn", json!({"user_id": "alice", "session": "s1"})),
        -32602
    );
    // Once the session pauses (a second without a turn), its facts are extracted.
    let listed = |rpc: &mut crate::support::server::Client| {
        crate::support::server::contents(&rpc.ok("memory.list", json!({"user_id": "alice"}))["memories"])
    };
    let mut facts = listed(&mut rpc);
    for _ in 0..50 {
        if facts.len() == 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        facts = listed(&mut rpc);
    }
    facts.sort();
    assert_eq!(
        facts,
        ["I'm allergic to peanuts", "My son's name is Leo"],
        "{}",
        server.log()
    );
    let block = rpc.ok(
        "memory.context",
        json!({"user_id": "alice", "session": "s2", "message": "Any peanut-free snacks for Leo?"}),
    );
    assert!(
        block["profile"].to_string().contains("allergic to peanuts"),
        "{block:#}"
    );
    assert!(block["past_messages"].to_string().contains("peanuts"), "{block:#}");
    let profile = rpc.ok("conversations.profile", json!({"user_id": "alice"}));
    assert_eq!(profile["notes"].as_array().unwrap().len(), 2);
    // Read once: an explicit extract finds nothing left.
    assert_eq!(rpc.ok("conversations.extract", json!({"user_id": "alice"}))["turns"], 0);
    // Bob sees none of it.
    let bob = rpc.ok("memory.context", json!({"user_id": "bob", "message": "peanuts"}));
    assert_eq!(
        (
            bob["past_messages"].as_array().unwrap().len(),
            bob["profile"].as_array().unwrap().len()
        ),
        (0, 0)
    );
}

#[test]
fn past_messages_are_found_as_memories_are_past_a_common_name_and_with_their_question() {
    let ctx = Ctx::new();
    // A conversation stored turn by turn, each speaker named in every line: both names
    // are held by more than 20 messages and 5% of them.
    // The small talk that does not ask: a question would bring its reply along.
    for said in CHATTER.iter().filter(|said| !said.ends_with('?')) {
        turn(&ctx, "mel", "saturday", &[&format!("Caroline: {said}")]);
        turn(&ctx, "mel", "saturday", &[&format!("Melanie: {said}")]);
    }
    let asked = "Melanie: What do you get up to on weekends these days?";
    turn(&ctx, "mel", "saturday", &[asked]);
    let painting = "Caroline: On Saturdays I usually paint landscapes down by the lake";
    turn(&ctx, "mel", "saturday", &[painting]);
    let lease = "Caroline: I finally signed the lease for the flat on Juniper Street";
    turn(&ctx, "mel", "saturday", &[lease]);

    let past = |question: &str| -> Vec<String> {
        let block = ctx.json(&["--user", "mel", "context", "--session", "sunday", question]);
        block["past_messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["content"].as_str().unwrap().to_owned())
            .collect()
    };
    // By meaning alone, with her name in the query, five lines of chatter that are
    // little but her name were shown for each, and the answer to the first was not.
    for (question, answer) in [
        ("What hobby does Caroline have?", painting),
        ("What does Caroline do on weekends?", painting),
        ("Where is Caroline's new flat?", lease),
    ] {
        let shown = past(question);
        assert!(shown.iter().any(|m| m == answer), "{question}: {shown:#?}");
        // Her small talk is not shown for her name (Melanie's "Happy Friday!" may be, for
        // its meaning).
        assert!(
            !shown
                .iter()
                .any(|m| CHATTER.iter().any(|c| *m == format!("Caroline: {c}"))),
            "{question}: shown for her name: {shown:#?}"
        );
    }
    // Messages are still not memories, and another user sees none of them.
    assert!(ctx.search("mel", "paint landscapes").is_empty());
    let theirs = ctx.json(&[
        "--user",
        "ana",
        "context",
        "--session",
        "sunday",
        "What hobby does Caroline have?",
    ]);
    assert!(theirs["past_messages"].as_array().unwrap().is_empty(), "{theirs:#}");
}
