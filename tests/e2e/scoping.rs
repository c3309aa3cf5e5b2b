//! Personal and group scope, on every path, and secrets.

use crate::support::ctx::{Ctx, contents};

#[test]
fn personal_memories_stay_with_their_owner() {
    if crate::support::ctx::files_only("reads memories.jsonl itself") {
        return;
    }
    let ctx = Ctx::new();
    let alice_fact = ctx.add("alice", "I'm allergic to peanuts");
    ctx.add("bob", "I love peanut butter");

    assert_eq!(ctx.search("alice", "peanuts"), ["I'm allergic to peanuts"]);
    assert_eq!(ctx.search("bob", "peanuts"), ["I love peanut butter"]);
    assert_eq!(
        contents(&ctx.json(&["--user", "bob", "list"])),
        ["I love peanut butter"]
    );
    let err = ctx.fails(&["--user", "bob", "show", &alice_fact]);
    assert!(err.contains("no memory") && !err.contains("peanuts"), "{err}");

    // Bob cannot delete it, and trying changes no byte.
    let before = ctx.snapshot();
    ctx.fails(&["--user", "bob", "delete", &alice_fact]);
    assert_eq!(ctx.snapshot(), before);
    assert_eq!(ctx.search("alice", "peanuts"), ["I'm allergic to peanuts"]);

    // Alice can; the memory goes to the archive, not into the void.
    assert_eq!(
        ctx.json(&["--user", "alice", "delete", &alice_fact])["deleted"],
        alice_fact.as_str()
    );
    assert!(ctx.search("alice", "peanuts").is_empty());
    ctx.fails(&["--user", "alice", "show", &alice_fact]);
    let archive = std::fs::read_to_string(ctx.home().join("memory/archive.jsonl")).unwrap();
    let archived: serde_json::Value = serde_json::from_str(archive.trim()).unwrap();
    assert_eq!(
        (archived["id"].as_str(), archived["archive_reason"].as_str()),
        (Some(alice_fact.as_str()), Some("deleted"))
    );
}

#[test]
fn group_memories_are_shared_within_their_chat_only() {
    let ctx = Ctx::new();
    let standup = ctx.json(&[
        "--user",
        "alice",
        "--chat",
        "team",
        "add",
        "Our standup is at 9am",
        "--shared",
    ]);
    assert_eq!(standup["owner_user_id"], serde_json::Value::Null);
    assert_eq!(standup["chat_id"], "team");
    let id = standup["id"].as_str().unwrap();
    ctx.add("alice", "I prefer standing desks");

    let in_team = |user: &str, args: &[&str]| {
        let mut all = vec!["--user", user, "--chat", "team"];
        all.extend_from_slice(args);
        ctx.json(&all)
    };
    assert_eq!(
        contents(&in_team("bob", &["search", "when is standup"])["hits"]),
        ["Our standup is at 9am"]
    );
    assert_eq!(
        contents(&in_team("bob", &["list"])),
        ["Our standup is at 9am"],
        "not alice's personal memory"
    );
    assert_eq!(in_team("bob", &["show", id])["id"], id);

    // The same user outside the chat, and another chat, see nothing of it.
    for args in [
        ["--user", "alice", "--chat", "other"],
        ["--user", "bob", "--chat", "other"],
    ] {
        let mut search = args.to_vec();
        search.extend(["search", "when is standup"]);
        assert!(!contents(&ctx.json(&search)["hits"]).contains(&"Our standup is at 9am".to_owned()));
        let mut show = args.to_vec();
        show.extend(["show", id]);
        ctx.fails(&show);
        let before = ctx.snapshot();
        let mut delete = args.to_vec();
        delete.extend(["delete", id]);
        ctx.fails(&delete);
        assert_eq!(ctx.snapshot(), before);
    }
    // A shared memory needs a chat.
    let err = ctx.fails(&["--user", "alice", "add", "Lunch is at noon", "--shared"]);
    assert!(err.contains("chat"), "{err}");

    in_team("bob", &["delete", id]);
    assert!(
        contents(&in_team("alice", &["list"]))
            .iter()
            .all(|c| c != "Our standup is at 9am")
    );
}

#[test]
fn secrets_are_refused_and_nothing_changes() {
    let ctx = Ctx::new();
    ctx.add("u", "I'm allergic to peanuts");
    let before = ctx.snapshot();
    for secret in [
        "my password is hunter2",
        "OpenAI key sk-proj-4f9a8b7c6d5e4f3a2b1c0d9e",
        "card 4111 1111 1111 1111",
        "-----BEGIN RSA PRIVATE KEY-----",
    ] {
        let err = ctx.fails(&["--user", "u", "add", "--", secret]);
        assert!(err.contains("refused") && err.contains("never stored"), "{err}");
        assert!(
            !err.contains("hunter2") && !err.contains("4111"),
            "the refusal must not echo the secret: {err}"
        );
    }
    assert_eq!(ctx.snapshot(), before);
}
