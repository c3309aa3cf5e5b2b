//! A context block and a profile in a new process: besides the search's hits, they read
//! the index's newest holders of a key (the profile's memories, the last reflection) and
//! when each person was last talked about (`newest-moments`) instead of memories.jsonl,
//! and answer what reading the file answers. Through the CLI, the component and the index (SQLite, or Postgres in a
//! Postgres run).

use serde_json::{Value, json};

use crate::from_index::{memories_reads, run_logged};
use crate::support::ctx::{Ctx, files_only};

const CONTEXT_FROM_INDEX: &str = "context: answered from the index";
const PROFILE_FROM_INDEX: &str = "profile: read from the index";
const NOW: &str = "2026-06-01T12:00:00Z";

/// Alice's identities, 60 preferences (past the 40 a profile asks for first), of which the
/// newest 30 make one note in three spellings, relationships, a preference about Sarah,
/// two reflections, and a memory shared in a chat; Bob's newer memories of every kind.
fn home() -> Ctx {
    let ctx = Ctx::new();
    // Facts this alike would otherwise replace one another.
    ctx.config("[memory]\nsupersession_threshold = 0.999\n");
    let mut facts: Vec<Value> = Vec::new();
    for i in 0..3 {
        facts.push(
            json!({"content": format!("I was born in town number {i}"), "type": "identity",
            "observed_at": format!("2024-0{}-01T00:00:00Z", i + 1)}),
        );
    }
    for i in 0..30 {
        facts.push(
            json!({"content": format!("I enjoy hobby number {i} on weekends"), "type": "preference",
            "observed_at": format!("2025-01-01T00:{i:02}:00Z")}),
        );
    }
    for i in 0..30 {
        let note = ["I like green tea", "I LIKE GREEN TEA", "i like green tea"][i % 3];
        facts.push(json!({"content": note, "type": "preference",
            "observed_at": format!("2025-03-{:02}T00:00:00Z", i + 1)}));
    }
    facts.push(
        json!({"content": "Sarah is my sister", "type": "relationship", "subjects": ["Sarah"],
        "observed_at": "2025-04-01T00:00:00Z"}),
    );
    facts.push(
        json!({"content": "She likes Italian food", "type": "preference", "subjects": ["Sarah"],
        "observed_at": "2025-05-01T00:00:00Z"}),
    );
    facts.push(
        json!({"content": "Tom is my neighbour", "type": "relationship", "subjects": ["Tom"],
        "observed_at": "2025-02-01T00:00:00Z"}),
    );
    facts.push(
        json!({"content": "Alice plans her trips months ahead", "type": "reflection",
        "observed_at": "2026-05-01T00:00:00Z"}),
    );
    facts.push(
        json!({"content": "Alice is cutting down on sugar", "type": "reflection",
        "observed_at": "2026-05-20T00:00:00Z"}),
    );
    let file = ctx.home().join("alice.json");
    std::fs::write(&file, serde_json::to_string(&facts).unwrap()).unwrap();
    ctx.ok(&["--user", "alice", "--now", NOW, "import", file.to_str().unwrap()]);
    for args in [
        &[
            "--user",
            "alice",
            "--chat",
            "team",
            "add",
            "--shared",
            "--type",
            "preference",
            "We like the window table",
        ][..],
        &["--user", "bob", "add", "--type", "identity", "I am a baker"],
        &["--user", "bob", "add", "--type", "reflection", "Bob rises at four"],
    ] {
        ctx.ok(&[&["--now", NOW][..], args].concat());
    }
    // Later, a memory about Tom makes him Alice's most recently active person.
    ctx.ok(&[
        "--user",
        "alice",
        "--now",
        "2026-06-01T13:00:00Z",
        "add",
        "--subject",
        "Tom",
        "Tom lent me his ladder",
    ]);
    // Later still, one about Sarah shared in the chat: the most recent person there only.
    ctx.ok(&[
        "--user",
        "alice",
        "--chat",
        "team",
        "--now",
        "2026-06-01T14:00:00Z",
        "add",
        "--shared",
        "--subject",
        "Sarah",
        "Sarah booked us a table for Friday",
    ]);
    ctx
}

#[test]
fn a_context_and_a_profile_in_a_new_process_read_the_index_and_answer_as_the_file_does() {
    let ctx = home();
    let asks: [&[&str]; 4] = [
        &["--user", "alice", "context", "what hobbies do I enjoy"],
        &["--user", "alice", "--chat", "team", "context", "where do we sit"],
        &["--user", "bob", "context", "when do I get up"],
        &["--user", "alice", "profile"],
    ];
    let at = |args: &[&'static str]| -> Vec<&'static str> { [&["--now", NOW][..], args].concat() };
    let files = !files_only("the host's file reads are logged, and the index removed, on the files backend");
    let mut from_index = Vec::new();
    for args in asks {
        // The first call records the hits' accesses; the second answers from the index.
        run_logged(&ctx, &at(args));
        let (answer, log) = run_logged(&ctx, &at(args));
        let expected = if args.contains(&"profile") {
            PROFILE_FROM_INDEX
        } else {
            CONTEXT_FROM_INDEX
        };
        assert!(log.contains(expected), "{args:?}: {log}");
        if files {
            assert_eq!(memories_reads(&log), [0], "{args:?}: only the empty tail: {log}");
        }
        from_index.push(answer);
    }

    // What they say (not only the same on both paths).
    let block = &from_index[0];
    let profile: Vec<&str> = block["profile"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(profile.len(), 20, "{profile:?}");
    assert_eq!(
        profile[..5],
        [
            "I was born in town number 2",
            "I was born in town number 1",
            "I was born in town number 0",
            "I like green tea",
            "I enjoy hobby number 29 on weekends",
        ],
        "identities, then preferences, newest first; the note told thirty times imported once"
    );
    assert_eq!(
        profile[19], "I enjoy hobby number 14 on weekends",
        "the relationships come after"
    );
    assert!(
        !profile
            .iter()
            .any(|n| n.contains("Italian") || n.contains("window") || n.contains("baker"))
    );
    let markdown = block["markdown"].as_str().unwrap();
    assert!(
        markdown.contains("Alice is cutting down on sugar"),
        "the newer reflection: {markdown}"
    );
    assert!(
        !markdown.contains("months ahead") && !markdown.contains("rises at four"),
        "{markdown}"
    );
    let people: Vec<&str> = block["people"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(people, ["Tom", "Sarah"]);
    let in_chat: Vec<&str> = from_index[1]["people"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(in_chat, ["Sarah", "Tom"], "the chat's memory about Sarah is newer");
    assert_eq!(from_index[1]["profile"], json!([]), "no profile in a chat");
    assert!(
        from_index[2]["markdown"]
            .as_str()
            .unwrap()
            .contains("Bob rises at four")
    );
    assert_eq!(from_index[3]["notes"], block["profile"], "the profile is the context's");

    // Without the index, each reads the whole file to rebuild it, and answers the same.
    if !files {
        return;
    }
    for (args, expected) in asks.iter().zip(&from_index) {
        std::fs::remove_file(ctx.index_path()).ok();
        let (whole, log) = run_logged(&ctx, &at(args));
        assert!(
            !log.contains(CONTEXT_FROM_INDEX) && !log.contains(PROFILE_FROM_INDEX),
            "{args:?}: {log}"
        );
        assert_eq!(&whole, expected, "{args:?}");
    }
}
