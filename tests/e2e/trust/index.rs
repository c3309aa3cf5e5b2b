//! The index never poisons or diverges: vectors without direction, a hostile embedder,
//! lines it never saw, a kill between file and index, rewrites by another store.

use serde_json::Value;

use crate::support::ctx::{Ctx, contents};
use crate::support::http_server::{Reply, Server};

/// Defect 2: content without any usable direction (emoji only) is stored without a vector
/// and never breaks the scope; content that shows nothing is refused as empty. Only the
/// static model gives such vectors (the transformer's [CLS] and [SEP] always give one).
#[test]
fn a_vector_without_direction_never_poisons_a_scope() {
    let ctx = Ctx::new();
    ctx.config("[embedder]\nprovider = \"static\"\n");
    let smiley = ctx.json(&["--user", "u", "add", "🙂"]);
    assert_eq!(smiley["embedded"], false, "{smiley}");
    ctx.add("u", "I'm allergic to peanuts");
    assert_eq!(ctx.search("u", "peanuts")[0], "I'm allergic to peanuts");
    assert!(contents(&ctx.json(&["--user", "u", "list"])).contains(&"🙂".to_owned()));
    ctx.ok(&["--user", "u", "context", "what should I eat?"]);
    ctx.json(&["rebuild-index"]);
    assert_eq!(ctx.search("u", "allergic")[0], "I'm allergic to peanuts");
    ctx.add("u", "My favorite color is blue");

    let before = ctx.snapshot();
    for invisible in ["\u{200b}\u{200b}", "\u{feff}", "\u{7}\u{1b}", " \u{2060} "] {
        let err = ctx.fails(&["--user", "u", "add", invisible]);
        assert!(err.contains("empty"), "{invisible:?}: {err}");
    }
    assert_eq!(ctx.snapshot(), before);

    // The default model gives the same content a vector.
    let default = Ctx::new();
    let smiley = default.json(&["--user", "u", "add", "🙂"]);
    assert_eq!(smiley["embedded"], true, "{smiley}");
}

/// Defect 2, from a hostile embedding service: zeros and absurd values are never indexed.
#[test]
fn a_hostile_embedder_cannot_poison_the_index() {
    let server = Server::start(|r| {
        let n = r.body["input"].as_array().map_or(1, Vec::len);
        let text = r.body["input"][0].as_str().unwrap_or("");
        let vector: Vec<Value> = if text.contains("zero") {
            vec![serde_json::json!(0.0); 4]
        } else if text.contains("huge") {
            vec![serde_json::json!(1e39); 4]
        } else {
            vec![
                serde_json::json!(1.0),
                serde_json::json!(0.5),
                serde_json::json!(0.25),
                serde_json::json!(text.len() as f64 / 100.0),
            ]
        };
        let data: Vec<Value> = (0..n)
            .map(|i| serde_json::json!({ "index": i, "embedding": vector }))
            .collect();
        Reply::Json(200, serde_json::json!({ "data": data }))
    });
    let ctx = Ctx::new();
    ctx.config(&format!(
        "[embedder]\nprovider = \"openai\"\nbase_url = \"{}\"\nmodel = \"hostile\"\ndimensions = 4\ntimeout_secs = 2\n",
        server.base_url()
    ));
    let embedded = |text: &str| ctx.json(&["--user", "u", "add", text])["embedded"].clone();
    assert_eq!(embedded("zero zero"), false, "a zero vector is not stored");
    assert_eq!(embedded("huge values"), false, "an overflowing vector is not stored");
    assert_eq!(embedded("an ordinary fact about tea"), true);

    // A search finds the overflowing memory by its words only (no similarity), and the
    // ordinary fact by its vector too: "values fact" is embedded like an ordinary text,
    // close to every usable vector. A query embedded as zeros finds by words only.
    let hits = ctx.json(&["--user", "u", "search", "values fact"])["hits"].clone();
    let similarity = |content: &str| {
        let hit = hits.as_array().unwrap().iter().find(|h| h["content"] == content);
        hit.unwrap_or_else(|| panic!("{content:?} is found: {hits:#}"))["similarity"].clone()
    };
    assert!(similarity("an ordinary fact about tea").as_f64().is_some(), "{hits:#}");
    assert_eq!(similarity("huge values"), Value::Null, "found by words only: {hits:#}");
    let hits = ctx.json(&["--user", "u", "search", "zero"])["hits"].clone();
    assert_eq!(hits.as_array().unwrap().len(), 1, "{hits:#}");
    assert_eq!(hits[0]["content"], "zero zero");
    assert_eq!(hits[0]["similarity"], Value::Null, "{hits:#}");

    // doctor counts two memories without a usable vector, and finds the index in step.
    // (Its verdict as a whole also weighs config.toml's mode, which is not the point here.)
    let out = ctx.run(&["--json", "doctor"]);
    let doctor: Value = serde_json::from_slice(&out.stdout).expect("doctor's report");
    let finding = |check: &str| {
        let findings = doctor["findings"].as_array().unwrap();
        let found = findings.iter().find(|f| f["check"] == check);
        found
            .unwrap_or_else(|| panic!("no {check} finding: {doctor:#}"))
            .clone()
    };
    assert_eq!(finding("index")["ok"], true, "{doctor:#}");
    let embeddings = finding("embeddings")["detail"].as_str().unwrap().to_owned();
    assert!(
        embeddings.starts_with("2 live memories have no usable embedding"),
        "{doctor:#}"
    );

    // A rebuild asks the embedder again and still puts neither vector in the index: both
    // entries stay without one.
    let rebuilt = ctx.json(&["rebuild-index"]);
    assert_eq!(
        (&rebuilt["indexed"], &rebuilt["embedded"], &rebuilt["pending"]),
        (&Value::from(3), &Value::from(0), &Value::from(2)),
        "{rebuilt:#}"
    );
    let found = ctx.search("u", "ordinary tea");
    assert_eq!(found[0], "an ordinary fact about tea", "{found:?}");
}

/// Defect 4: lines the index never saw (a writer that died after its append, an edit of
/// a record by id) are replayed before the next answer.
#[test]
fn the_index_catches_up_with_lines_it_never_saw() {
    if crate::support::ctx::files_only("tests the files backend itself: its journal, locks, modes and index file") {
        return;
    }
    let ctx = Ctx::new();
    let red = ctx.add("u", "My favorite color is red");
    ctx.add("u", "I drink oat milk");
    let lines = ctx.memory_lines();
    let mut old = lines.iter().find(|l| l["id"] == red.as_str()).unwrap().clone();
    // A superseding pair written straight to the file, as a process that died before its
    // index write would leave it: the new memory, then the old one marked replaced.
    let mut new = old.clone();
    new["id"] = Value::from("0f0f0f0f-0000-4000-8000-000000000001");
    new["content"] = Value::from("My favorite color is green");
    new["embedding"] = Value::Null;
    old["superseded_at"] = Value::from("2026-01-01T00:00:00+00:00");
    old["superseded_by_id"] = new["id"].clone();
    let mut text = std::fs::read_to_string(ctx.memories_path()).unwrap();
    text.push_str(&format!("{new}\n{old}\n"));
    std::fs::write(ctx.memories_path(), text).unwrap();

    let found = ctx.search("u", "favorite color");
    assert_eq!(
        found.first().map(String::as_str),
        Some("My favorite color is green"),
        "{found:?}"
    );
    assert!(!found.contains(&"My favorite color is red".to_owned()), "{found:?}");

    // A line that rewrites an existing id with new content.
    let mut milk = ctx
        .memory_lines()
        .into_iter()
        .find(|l| l["content"] == "I drink oat milk")
        .unwrap();
    milk["content"] = Value::from("I drink almond milk");
    let mut text = std::fs::read_to_string(ctx.memories_path()).unwrap();
    text.push_str(&format!("{milk}\n"));
    std::fs::write(ctx.memories_path(), text).unwrap();
    assert_eq!(ctx.search("u", "almond")[0], "I drink almond milk");
    assert!(ctx.search("u", "oat").iter().all(|c| c != "I drink oat milk"));
}

/// Defect 4 with a crash: a process killed between its JSONL append and its index update
/// leaves files and index in agreement after the next command.
#[test]
fn a_kill_between_file_and_index_leaves_them_in_agreement() {
    if crate::support::ctx::files_only("tests the files backend itself: its journal, locks, modes and index file") {
        return;
    }
    let ctx = Ctx::new();
    ctx.add("u", "My favorite color is red");
    let killed = ctx
        .command()
        .env("ASH_FAULT", "index:upsert")
        .args(["--user", "u", "add", "My favorite color is blue"])
        .output()
        .unwrap();
    assert!(!killed.status.success());
    let listed = contents(&ctx.json(&["--user", "u", "list", "--include-superseded"]));
    let found = ctx.search("u", "favorite color");
    let live: Vec<String> = contents(&ctx.json(&["--user", "u", "list"]));
    assert_eq!(
        found.first(),
        live.first(),
        "search agrees with the files: {found:?} / {listed:?}"
    );
    assert!(found.iter().all(|c| live.contains(c)));
}

/// Defect 5: a long-lived store notices every rewrite made by another, however many.
#[test]
fn a_long_lived_store_never_misses_a_rewrite() {
    let dir = tempfile::tempdir().unwrap();
    let me = ash_memory::Caller::user("u");
    let mut server = ash_memory::MemoryStore::builder(dir.path()).open().unwrap();
    let mut cli = ash_memory::MemoryStore::builder(dir.path()).open().unwrap();
    let options = ash_memory::ListOptions::new();
    let mut expected: Vec<String> = Vec::new();
    for i in 0..6 {
        let a = cli
            .add(
                &me,
                &ash_memory::NewMemory::text(format!("fact number {i} about rivers")),
            )
            .unwrap();
        let b = cli
            .add(&me, &ash_memory::NewMemory::text(format!("note {i} on mountains")))
            .unwrap();
        expected.push(a.memories[0].id.clone());
        // A delete appends a removal line, and an idle GC then rewrites the file once
        // such lines are a quarter of it: the server must see every one of both.
        cli.delete(&me, &b.memories[0].id).unwrap();
        cli.gc(false).unwrap();
        let mut seen: Vec<String> = server.list(&me, &options).unwrap().into_iter().map(|m| m.id).collect();
        seen.sort();
        let mut want = expected.clone();
        want.sort();
        assert_eq!(seen, want, "after rewrite {i}");
    }
}
