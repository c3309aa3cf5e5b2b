//! A memory's context: what was said around a fact (a conversation's date, the turn
//! before), searched with the content and returned apart from it, through the CLI, the component, the
//! index and the embedded model; kept by export and import; scored by `eval`.

use serde_json::Value;

use crate::support::ctx::Ctx;

const NOTES: [&str; 4] = [
    "I prefer tea over coffee",
    "The standup is at 9:30 every weekday",
    "My sister lives in Porto",
    "I drive a 2015 Subaru Outback",
];

const REPLY: &str = "Yes, twice, and I would go back tomorrow";
const QUESTION: &str = "Ana: Have you ever been to Japan?";

/// (content, similarity) of each hit of `user`'s search, best first.
fn hits(ctx: &Ctx, user: &str, query: &str) -> Vec<(String, f64)> {
    ctx.json(&["--user", user, "search", query])["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .map(|h| {
            (
                h["content"].as_str().unwrap().to_owned(),
                h["similarity"].as_f64().unwrap_or(0.0),
            )
        })
        .collect()
}

#[test]
fn a_reply_is_found_by_the_question_it_answers_and_the_question_is_returned_apart() {
    let ctx = Ctx::new();
    for user in ["with", "without"] {
        for note in NOTES {
            ctx.add(user, note);
        }
    }
    ctx.ok(&["--user", "with", "add", REPLY, "--context", QUESTION]);
    ctx.add("without", REPLY);

    // With its context the reply comes first, found by the word "Japan" it never says
    // and closer in meaning; the same words without it are much further from the question,
    // and with the static model they are not the first hit (or, as weak as nothing the
    // query says, not shown at all).
    let with = hits(&ctx, "with", "Have I visited Japan?");
    let without = hits(&ctx, "without", "Have I visited Japan?");
    assert_eq!(with[0].0, REPLY, "{with:?}");
    let on_static = Ctx::new();
    on_static.config("[embedder]\nprovider = \"static\"\n");
    for note in NOTES {
        on_static.add("without", note);
    }
    on_static.add("without", REPLY);
    let bare = hits(&on_static, "without", "Have I visited Japan?");
    assert!(bare.first().is_none_or(|h| h.0 != REPLY), "{bare:?}");
    let similarity = |hits: &[(String, f64)]| hits.iter().find(|h| h.0 == REPLY).map_or(0.0, |h| h.1);
    assert!(similarity(&with) > similarity(&without) + 0.25, "{with:?} {without:?}");

    // Kept in the record and returned apart from the content; the table shows only the
    // content.
    let line = ctx
        .memory_lines()
        .into_iter()
        .find(|l| l["owner_user_id"] == "with" && l["content"] == REPLY)
        .expect("the reply's line");
    assert_eq!(line["context"], QUESTION);
    let found = ctx.json(&["--user", "with", "search", "Have I visited Japan?"]);
    assert_eq!(
        (&found["hits"][0]["content"], &found["hits"][0]["context"]),
        (&REPLY.into(), &QUESTION.into()),
        "{found}"
    );
    let id = found["hits"][0]["id"].as_str().unwrap().to_owned();
    let shown = ctx.ok(&["--user", "with", "show", &id]);
    assert!(shown.contains(&format!("context: {QUESTION}")), "{shown}");
    assert!(!ctx.ok(&["--user", "with", "search", "Japan"]).contains("Have you ever"));
    let other = ctx.json(&["--user", "without", "search", "Japan"]);
    assert!(
        other["hits"].as_array().unwrap().iter().all(|h| h["context"].is_null()),
        "{other}"
    );
}

#[test]
fn a_context_with_a_secret_is_refused_and_changes_nothing() {
    let ctx = Ctx::new();
    ctx.add("u", "I like tea");
    let before = ctx.snapshot();
    let err = ctx.fails(&[
        "--user",
        "u",
        "add",
        "Thanks, noted",
        "--context",
        "Ben: my token is ghp_0123456789abcdefghijABCDEFGHIJ0123",
    ]);
    assert!(err.contains("context") && err.contains("secret"), "{err}");
    assert!(!err.contains("ghp_0123"), "the refusal repeats the secret: {err}");
    let long = "word ".repeat(4000);
    let err = ctx.fails(&["--user", "u", "add", "Thanks, noted", "--context", &long]);
    assert!(err.contains("context is 19999 bytes"), "{err}");
    assert_eq!(ctx.snapshot(), before);
}

#[test]
fn contexts_survive_export_and_import_and_the_same_words_in_two_contexts_are_two_facts() {
    let ctx = Ctx::new();
    let dir = tempfile::tempdir().unwrap();
    // Facts from a file: "Yes!" answers two questions, and a third "Yes!" repeats one.
    let facts = dir.path().join("turns.jsonl");
    std::fs::write(
        &facts,
        [
            r#"{"content": "Yes!", "context": "Ana: Do you still play the cello?"}"#,
            r#"{"content": "Yes!", "context": "Ana: Have you ever been to Japan?"}"#,
            r#"{"content": "Yes!", "context": "Ana: Have you ever been to Japan?"}"#,
        ]
        .join("\n"),
    )
    .unwrap();
    let report = ctx.json(&["--user", "u", "import", facts.to_str().unwrap()]);
    assert_eq!(
        (&report["added"], &report["present"]),
        (&2.into(), &1.into()),
        "{report}"
    );

    let out = dir.path().join("export.jsonl");
    ctx.ok(&["--user", "u", "export", "--out", out.to_str().unwrap()]);
    let contexts: Vec<String> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|l| l["context"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(contexts.len(), 2, "{contexts:?}");

    // In a new home the context is still what finds each one.
    let other = Ctx::new();
    other.ok(&["--user", "v", "import", out.to_str().unwrap()]);
    let cello = other.json(&["--user", "v", "search", "cello", "--limit", "1"]);
    let id = cello["hits"][0]["id"].as_str().expect("a hit").to_owned();
    let line = other
        .memory_lines()
        .into_iter()
        .find(|l| l["id"] == id.as_str())
        .expect("its line");
    assert_eq!(line["context"], "Ana: Do you still play the cello?");
}

/// A small conversation of our own (`data/eval-conversation-small.jsonl`): each turn's
/// context is the session's date and the turn before it. Two questions are answered by
/// replies that do not repeat the question's words.
#[test]
fn eval_reads_contexts_and_they_find_replies() {
    let ctx = Ctx::new();
    let fixture = format!(
        "{}/../tests/e2e/data/eval-conversation-small.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&fixture).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let bare = dir.path().join("bare.jsonl");
    let stripped: Vec<String> = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("context");
            v.to_string()
        })
        .collect();
    std::fs::write(&bare, stripped.join("\n")).unwrap();

    // The replies rank first with either model, with their contexts or without: the
    // question turn ("Have you ever been to Japan?") is found, and the turn stored next
    // after it gains a share of its score (`guest/src/replies.rs`). Before that rule, 0.75
    // with contexts; without, 0.75 with the default model and 0.29 with the static one.
    let reply_mrr = |args: &[&str]| ctx.json(args)["categories"]["reply"]["mrr"].as_f64().unwrap();
    let bare = bare.to_str().unwrap();
    assert_eq!(reply_mrr(&["eval", &fixture]), 1.0);
    assert_eq!(reply_mrr(&["eval", bare]), 1.0);
    assert_eq!(reply_mrr(&["eval", "--embedder", "static", bare]), 1.0);
    // The static model with contexts. The cost is at the statements: the turn after a
    // statement holds it as its context, so a query about the statement finds that turn
    // too, and when it asks ("Have you ever been to Japan?" after "I finally fixed the
    // bike's brakes"), its reply gains a share as well and can rank above the statement
    // (statement MRR 0.75 before the rule, 0.5 after). In a store this small each
    // speaker's label names him in few enough lines to rank them (`entities`): "What did
    // Ben repair?" finds Ben's lines before Ana's question, and the cost is back to 0.75.
    let with = ctx.json(&["eval", "--embedder", "static", &fixture]);
    let mrr = |r: &Value, category: &str| r["categories"][category]["mrr"].as_f64().unwrap();
    assert_eq!(with["overall"]["hit"]["5"], 1.0, "{with}");
    assert_eq!(mrr(&with, "reply"), 1.0, "{with}");
    assert_eq!(mrr(&with, "statement"), 0.75, "{with}");
}

/// Records moved in without vectors (as `eval` stores them) are embedded with their
/// context; a record whose context holds a secret is refused like one whose content does.
#[test]
fn records_imported_without_vectors_are_embedded_with_their_context() {
    let ctx = Ctx::new();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("records.jsonl");
    let header = r#"{"format":"ash-memory-export","version":1,"embedding_model":"none","dimension":0,"exported_at":"2026-03-01T12:00:00+00:00","user_id":"u","chat_id":null,"include_archive":false}"#;
    let record = |id: &str, context: Option<&str>| {
        serde_json::json!({"kind": "memory", "id": id, "version": 1, "content": REPLY, "context": context,
            "embedding": null, "created_at": "2026-03-01T12:00:00+00:00", "owner_user_id": "u"})
        .to_string()
    };
    let lines = [
        header.to_owned(),
        record("00000000-0000-4000-8000-00000000000a", Some(QUESTION)),
        record("00000000-0000-4000-8000-00000000000b", None),
        record(
            "00000000-0000-4000-8000-00000000000c",
            Some("my token is ghp_0123456789abcdefghijABCDEFGHIJ0123"),
        ),
    ];
    std::fs::write(&file, lines.join("\n")).unwrap();
    let err = ctx.fails(&["--user", "u", "import", file.to_str().unwrap()]);
    assert!(err.contains("secret"), "{err}");
    assert!(!err.contains("ghp_0123"), "{err}");
    assert!(ctx.memory_lines().is_empty());

    ctx.ok(&["--user", "u", "import", "--skip-refused", file.to_str().unwrap()]);
    let stored = ctx.memory_lines();
    let embedding = |id: &str| {
        stored
            .iter()
            .find(|l| l["id"] == id)
            .map(|l| l["embedding"].as_str().expect("embedded").to_owned())
            .expect("stored")
    };
    assert_eq!(stored.len(), 2, "{stored:?}");
    assert_ne!(
        embedding("00000000-0000-4000-8000-00000000000a"),
        embedding("00000000-0000-4000-8000-00000000000b"),
        "the context is not in the vector"
    );
}
