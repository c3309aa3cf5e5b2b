//! `people forget`: a user's right to have a person in their life forgotten, through the
//! CLI, the real component, files and index.

use serde_json::Value;

use crate::support::ctx::Ctx;

/// Alice's memories about Sarah: her introduction, one fact, one shared in a chat, one
/// deleted (so in the archive), and one about Sarah and Tom; Bob's own Sarah.
fn home() -> (Ctx, String) {
    let ctx = Ctx::new();
    ctx.ok(&["--user", "alice", "add", "My wife's name is Sarah"]);
    ctx.ok(&[
        "--user",
        "alice",
        "add",
        "Sarah loves sailing on the lake",
        "--subject",
        "Sarah",
    ]);
    ctx.ok(&[
        "--user",
        "alice",
        "add",
        "Sarah and Tom run a bakery",
        "--subject",
        "Sarah",
        "--subject",
        "Tom",
    ]);
    ctx.ok(&[
        "--user",
        "alice",
        "--chat",
        "family",
        "add",
        "Sarah brings the cake on Friday",
        "--subject",
        "Sarah",
        "--shared",
    ]);
    let car = ctx.json(&[
        "--user",
        "alice",
        "add",
        "Sarah drives a red hatchback",
        "--subject",
        "Sarah",
    ]);
    ctx.ok(&["--user", "alice", "delete", car["id"].as_str().unwrap()]);
    ctx.ok(&["--user", "bob", "add", "Sarah is my dentist", "--subject", "Sarah"]);
    let sarah = ctx.json(&["--user", "alice", "people", "show", "my wife"])["id"]
        .as_str()
        .unwrap()
        .to_owned();
    (ctx, sarah)
}

fn file(ctx: &Ctx, name: &str) -> String {
    std::fs::read_to_string(ctx.home().join(name)).unwrap_or_default()
}

fn ids(v: &Value) -> usize {
    v.as_array().unwrap().len()
}

#[test]
fn forgetting_a_person_archives_what_was_about_them_alone_and_unlinks_the_rest() {
    let (ctx, sarah) = home();
    let tom = ctx.json(&["--user", "alice", "people", "show", "Tom"])["id"].clone();

    let f = ctx.json(&["--user", "alice", "people", "forget", "my wife"]);
    assert_eq!(f["person"]["name"], "Sarah");
    assert_eq!(
        (ids(&f["archived"]), ids(&f["unlinked"]), &f["purged"]),
        (3, 1, &Value::from(0))
    );

    // What is left of Alice's memories, in her chat: the bakery, about Tom alone now.
    let left = ctx.json(&["--user", "alice", "--chat", "family", "list"]);
    let contents: Vec<&str> = left
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(contents, ["Sarah and Tom run a bakery"]);
    assert_eq!(left[0]["subject_person_ids"], serde_json::json!([tom]));
    assert!(
        ctx.search("alice", "sailing on the lake")
            .iter()
            .all(|c| !c.contains("sailing"))
    );
    assert!(
        ctx.fails(&["--user", "alice", "people", "show", "Sarah"])
            .contains("Sarah")
    );
    assert!(!file(&ctx, "people.jsonl").contains(&sarah));

    // The archive holds the three with the reason, and the deleted one as it was.
    let archive = ctx.archive_lines();
    let forgotten: Vec<&str> = archive
        .iter()
        .filter(|a| a["archive_reason"] == "forgotten")
        .map(|a| a["content"].as_str().unwrap())
        .collect();
    assert_eq!(forgotten.len(), 3, "{archive:?}");
    for content in [
        "My wife's name is Sarah",
        "Sarah loves sailing on the lake",
        "Sarah brings the cake on Friday",
    ] {
        assert!(forgotten.contains(&content), "{forgotten:?}");
    }
    assert!(archive.iter().any(|a| a["archive_reason"] == "deleted"));

    // Bob's Sarah is another person, and his memory stays found and attributed.
    let bob = ctx.json(&["--user", "bob", "search", "dentist"]);
    assert_eq!(bob["hits"][0]["content"], "Sarah is my dentist");
    assert_eq!(bob["hits"][0]["subjects"], serde_json::json!(["Sarah"]));
}

#[test]
fn a_purge_leaves_nothing_about_them_alone_on_disk_and_others_cannot_forget_for_you() {
    if crate::support::ctx::files_only("reads every byte under the home") {
        return;
    }
    let (ctx, sarah) = home();
    // Bob can name her id, but she is not his: a clean refusal that changes nothing.
    let before = ctx.snapshot();
    let refused = ctx.fails(&["--user", "bob", "people", "forget", &sarah, "--purge"]);
    assert!(
        refused.contains("not found") || refused.contains("no person"),
        "{refused}"
    );
    ctx.fails(&["--chat", "family", "people", "forget", "Sarah"]);
    assert_eq!(ctx.snapshot(), before);

    let f = ctx.json(&["--user", "alice", "people", "forget", "Sarah", "--purge"]);
    assert_eq!(
        (ids(&f["archived"]), ids(&f["unlinked"]), &f["purged"]),
        (3, 1, &Value::from(1))
    );
    for name in ["memory/memories.jsonl", "memory/archive.jsonl", "people.jsonl"] {
        let text = file(&ctx, name);
        for gone in ["sailing", "cake", "hatchback", "wife's name", sarah.as_str()] {
            assert!(!text.contains(gone), "{name} still holds {gone:?}:\n{text}");
        }
    }
    // Nor does the index: its freed pages are zeroed and its full-text tables rebuilt.
    let index = std::fs::read(ctx.index_path()).unwrap();
    for gone in ["sailing", "hatchback", "wife's name"] {
        assert!(
            !index.windows(gone.len()).any(|w| w == gone.as_bytes()),
            "the index holds {gone:?}"
        );
    }
    assert!(
        index.windows(7).any(|w| w == b"dentist"),
        "the index still holds the rest"
    );
    assert!(file(&ctx, "memory/memories.jsonl").contains("Sarah is my dentist"));
    assert!(file(&ctx, "memory/memories.jsonl").contains("run a bakery"));
    // The index agrees with the files: doctor finds it in step.
    let doctor = ctx.json(&["doctor"]);
    assert_eq!(doctor["ok"], true, "{doctor:#}");
}

/// The files under the home, the index included, that hold `word` in any case.
fn holding(ctx: &Ctx, word: &str) -> Vec<std::path::PathBuf> {
    let word = word.to_lowercase();
    ctx.every_file()
        .into_iter()
        .filter(|(_, bytes)| String::from_utf8_lossy(bytes).to_lowercase().contains(&word))
        .map(|(path, _)| path)
        .collect()
}

#[test]
fn a_purge_leaves_their_name_in_no_file_of_the_home() {
    if crate::support::ctx::files_only("reads every byte under the home, the index included") {
        return;
    }
    let ctx = Ctx::new();
    ctx.json(&[
        "--user",
        "alice",
        "turn",
        "--session",
        "call-with-zanzibarina",
        "My sister Zanzibarina called about Quxville",
        "Say hi to ZANZIBARINA from me!",
    ]);
    ctx.ok(&[
        "--user",
        "alice",
        "add",
        "Zanzibarina lives in Quxville",
        "--subject",
        "my sister Zanzibarina",
    ]);
    ctx.ok(&[
        "--user",
        "alice",
        "add",
        "Zanzibarina is learning the oboe",
        "--subject",
        "Zanzibarina",
    ]);
    ctx.ok(&[
        "--user",
        "alice",
        "add",
        "Zanzibarina and Tom met in Rome",
        "--subject",
        "Zanzibarina",
        "--subject",
        "Tom",
    ]);
    let question = ["--user", "alice", "context", "who called about Quxville?"];
    let before = ctx.json(&question);
    assert!(before.to_string().to_lowercase().contains("zanzibarina"), "{before:#}");
    assert!(!holding(&ctx, "zanzibarina").is_empty());

    let f = ctx.json(&["--user", "alice", "people", "forget", "Zanzibarina", "--purge"]);
    assert_eq!((ids(&f["archived"]), ids(&f["unlinked"])), (2, 1), "{f:#}");
    let left = holding(&ctx, "zanzibarina");
    assert!(left.is_empty(), "still naming her: {left:?}");

    // What Alice keeps says what it said, with a gap for her name.
    assert!(file(&ctx, "memory/memories.jsonl").contains("[forgotten] and Tom met in Rome"));
    assert!(file(&ctx, "memory/messages.jsonl").contains("My sister [forgotten] called about Quxville"));
    assert!(file(&ctx, "memory/sessions.jsonl").contains("call-with-[forgotten]"));
    let after = ctx.json(&question);
    assert!(!after.to_string().to_lowercase().contains("zanzibarina"), "{after:#}");
    // The message is still found by meaning (not only by its word "Quxville"): it was
    // embedded again without her name.
    assert!(
        after["past_messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["content"] == "My sister [forgotten] called about Quxville"
                && m["score"].as_f64().unwrap() >= 0.3),
        "{after:#}"
    );
    // Nor did asking leave her anywhere.
    let left = holding(&ctx, "zanzibarina");
    assert!(left.is_empty(), "still naming her: {left:?}");
}
