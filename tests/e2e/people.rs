//! People, the person graph, the context block, and the agent tools.

use serde_json::Value;

use crate::support::ctx::{Ctx, contents};

fn people(ctx: &Ctx, user: &str) -> Vec<Value> {
    ctx.json(&["--user", user, "people", "list"])
        .as_array()
        .unwrap()
        .clone()
}

fn subjects_of(hit: &Value) -> Vec<String> {
    hit["subjects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn my_wife_sarah_is_one_person_and_her_likes_come_back_attributed() {
    let ctx = Ctx::new();
    ctx.add("u", "My wife's name is Sarah");
    let m = ctx.json(&["--user", "u", "add", "She likes Italian food", "--subject", "my wife"]);
    let everyone = people(&ctx, "u");
    assert_eq!(everyone.len(), 1, "{everyone:?}");
    assert_eq!(
        (everyone[0]["name"].as_str(), everyone[0]["relation"].as_str()),
        (Some("Sarah"), Some("wife"))
    );
    assert_eq!(m["subject_person_ids"], serde_json::json!([everyone[0]["id"]]));

    let about = ctx.json(&["--user", "u", "search", "food", "--about", "Sarah"]);
    let italian = about["hits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["content"] == "She likes Italian food")
        .unwrap();
    assert_eq!(subjects_of(italian), ["Sarah"]);

    let context = ctx.json(&["--user", "u", "context", "What does my wife like?"]);
    let md = context["markdown"].as_str().unwrap();
    assert!(
        md.contains("## Known People") && md.contains("- **Sarah** (wife)"),
        "{md}"
    );
    assert!(md.contains("## Relevant Context from Memory"), "{md}");
    assert!(md.contains("- [Memory (about Sarah)] She likes Italian food"), "{md}");
    let human = ctx.ok(&["--user", "u", "context", "What does my wife like?"]);
    assert_eq!(human.trim_end(), md.trim_end());
    // Further mentions find her rather than creating anyone.
    ctx.ok(&[
        "--user",
        "u",
        "add",
        "Sarah's birthday is in May",
        "--subject",
        "my wife Sarah",
    ]);
    ctx.ok(&["--user", "u", "add", "She runs marathons", "--subject", "sarah"]);
    assert_eq!(people(&ctx, "u").len(), 1);
}

#[test]
fn names_aliases_and_relations_converge_on_one_person() {
    let ctx = Ctx::new();
    let michael = ctx.json(&[
        "--user",
        "u",
        "people",
        "add",
        "Michael",
        "--relation",
        "boss",
        "--alias",
        "Mike",
    ]);
    let id = michael["id"].as_str().unwrap();
    ctx.ok(&["--user", "u", "people", "alias", "my boss", "The Chief"]);
    for reference in ["Michael", "mike", "my boss", "The Chief", id] {
        let m = ctx.json(&[
            "--user",
            "u",
            "add",
            &format!("Fact via {reference}"),
            "--subject",
            reference,
        ]);
        assert_eq!(m["subject_person_ids"], serde_json::json!([id]), "{reference}");
        assert_eq!(ctx.json(&["--user", "u", "people", "show", reference])["id"], id);
    }
    assert_eq!(people(&ctx, "u").len(), 1);
    // An alias cannot mean two people.
    ctx.json(&["--user", "u", "people", "add", "Sarah"]);
    let err = ctx.fails(&["--user", "u", "people", "alias", "Sarah", "Mike"]);
    assert!(err.contains("already means Michael"), "{err}");
}

#[test]
fn a_memory_about_two_people_names_both() {
    let ctx = Ctx::new();
    let m = ctx.json(&[
        "--user",
        "u",
        "add",
        "Sarah and John are getting married",
        "--subject",
        "Sarah",
        "--subject",
        "John",
    ]);
    assert_eq!(m["subject_person_ids"].as_array().unwrap().len(), 2);
    let found = ctx.json(&["--user", "u", "search", "wedding plans married"]);
    let mut names = subjects_of(&found["hits"][0]);
    names.sort();
    assert_eq!(names, ["John", "Sarah"]);
    let md = ctx.json(&["--user", "u", "context", "Who is getting married?"])["markdown"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        md.contains("(about Sarah and John)") || md.contains("(about John and Sarah)"),
        "{md}"
    );
    // Either person finds it.
    for who in ["Sarah", "John"] {
        let about = ctx.json(&["--user", "u", "search", "married", "--about", who]);
        assert_eq!(contents(&about["hits"]), ["Sarah and John are getting married"]);
    }
}

#[test]
fn the_graph_follows_one_hop_and_an_unknown_person_gives_a_notice() {
    let ctx = Ctx::new();
    ctx.ok(&[
        "--user",
        "u",
        "add",
        "Sarah loves gardening",
        "--subject",
        "my wife Sarah",
    ]);
    ctx.ok(&[
        "--user",
        "u",
        "add",
        "Tom plays the cello",
        "--subject",
        "Sarah's brother Tom",
    ]);
    ctx.ok(&["--user", "u", "add", "The car needs new tires"]);
    let tom = ctx.json(&["--user", "u", "people", "show", "Tom"]);
    assert!(
        tom["aliases"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "Sarah's brother")
    );
    let sarah = ctx.json(&["--user", "u", "people", "show", "Sarah"]);
    assert_eq!(sarah["relationships"][0]["person_id"], tom["id"]);
    assert_eq!(sarah["relationships"][0]["relation"], "brother");

    let about = contents(&ctx.json(&["--user", "u", "search", "hobbies", "--about", "my wife"])["hits"]);
    assert!(about.contains(&"Sarah loves gardening".to_owned()) && about.contains(&"Tom plays the cello".to_owned()));
    assert!(
        !about.contains(&"The car needs new tires".to_owned()),
        "filtered to the neighbourhood: {about:?}"
    );

    let unknown = ctx.json(&["--user", "u", "search", "tires", "--about", "Zelda"]);
    assert!(unknown["notices"][0].as_str().unwrap().contains("Zelda"));
    assert_eq!(contents(&unknown["hits"])[0], "The car needs new tires", "unfiltered");
    // Naming a person in the query brings their memories in without filtering.
    let named = contents(&ctx.json(&["--user", "u", "search", "What does Tom do?"])["hits"]);
    assert_eq!(named[0], "Tom plays the cello");
}

#[test]
fn people_merge_relinks_memories() {
    if crate::support::ctx::files_only("reads memories.jsonl itself") {
        return;
    }
    let ctx = Ctx::new();
    ctx.ok(&[
        "--user",
        "u",
        "add",
        "Sally takes her coffee black",
        "--subject",
        "Sally",
    ]);
    ctx.ok(&["--user", "u", "add", "Sarah is a nurse", "--subject", "Sarah"]);
    assert_eq!(people(&ctx, "u").len(), 2);
    let merged = ctx.json(&["--user", "u", "people", "merge", "Sarah", "Sally"]);
    assert!(merged["aliases"].as_array().unwrap().iter().any(|a| a == "Sally"));
    assert_eq!(people(&ctx, "u").len(), 1);
    let about = ctx.json(&["--user", "u", "search", "coffee", "--about", "Sally"]);
    assert_eq!(subjects_of(&about["hits"][0]), ["Sarah"]);
    let lines = std::fs::read_to_string(ctx.home().join("people.jsonl")).unwrap();
    assert!(
        lines.contains("\"merged_into\""),
        "the merged entry is kept, marked: {lines}"
    );
}

#[test]
fn a_merge_through_a_merged_person_is_refused_and_names_whom_they_became() {
    let ctx = Ctx::new();
    let add = |name: &str| {
        ctx.json(&["--user", "u", "people", "add", name])["id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (sarah, sks, charlie) = (add("Sarah"), add("Sksembhi"), add("Charlie"));
    ctx.ok(&["--user", "u", "people", "merge", "SARAH", "SKSEMBHI"]);
    // The merged id still shows the person kept.
    assert_eq!(ctx.json(&["--user", "u", "people", "show", &sks])["id"], sarah);
    let before = ctx.snapshot();
    for through in [sks.as_str(), "SKSEMBHI"] {
        let err = ctx.fails(&["--user", "u", "people", "merge", "CHARLIE", through]);
        assert!(
            err.contains("Sksembhi") && err.contains("merged into Sarah") && err.contains(&sarah),
            "{err}"
        );
        let err = ctx.fails(&["--user", "u", "people", "merge", through, &charlie]);
        assert!(err.contains("merged into Sarah"), "{err}");
    }
    assert_eq!(ctx.snapshot(), before, "the refused merges changed nothing");
    let names: Vec<String> = people(&ctx, "u")
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names.len(), 2, "Sarah and Charlie stay two people: {names:?}");
    // Merging by the names people have now still works.
    let merged = ctx.json(&["--user", "u", "people", "merge", "Charlie", "Sarah"]);
    assert_eq!(merged["id"], charlie);
}

#[test]
fn people_stay_private_between_users() {
    let ctx = Ctx::new();
    ctx.ok(&[
        "--user",
        "alice",
        "add",
        "Sarah likes Italian food",
        "--subject",
        "my wife Sarah",
    ]);
    let sarah = ctx.json(&["--user", "alice", "people", "show", "Sarah"])["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let before = ctx.snapshot();

    assert!(people(&ctx, "bob").is_empty());
    ctx.fails(&["--user", "bob", "people", "show", "Sarah"]);
    ctx.fails(&["--user", "bob", "people", "show", &sarah]);
    ctx.fails(&["--user", "bob", "people", "alias", "Sarah", "Sis"]);
    ctx.fails(&["--user", "bob", "people", "alias", &sarah, "Sis"]);
    ctx.fails(&["--user", "bob", "people", "merge", &sarah, "Sarah"]);
    let err = ctx.fails(&["--user", "bob", "add", "She is lovely", "--subject", &sarah]);
    // Another user's person id reads like an id that does not exist: nothing confirms it.
    assert!(err.contains("is known to you") && !err.contains("not allowed"), "{err}");
    assert_eq!(ctx.snapshot(), before, "bob's attempts changed nothing");

    let bob_search = ctx.json(&["--user", "bob", "search", "Italian food", "--about", "Sarah"]);
    assert!(bob_search["hits"].as_array().unwrap().is_empty());
    let md = ctx.json(&["--user", "bob", "context", "What does Sarah like?"])["markdown"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(!md.contains("Sarah") && !md.contains("Italian"), "{md}");
    // Bob's own Sarah is another person.
    ctx.ok(&["--user", "bob", "people", "add", "Sarah", "--relation", "sister"]);
    assert_eq!(
        ctx.json(&["--user", "alice", "people", "show", "Sarah"])["relation"],
        "wife"
    );
}

#[test]
fn the_context_block_is_scoped_and_fits_its_budget() {
    let ctx = Ctx::new();
    ctx.ok(&[
        "--user",
        "u",
        "add",
        "Sarah likes Italian food",
        "--subject",
        "my wife Sarah",
    ]);
    ctx.ok(&["--user", "u", "people", "add", "Michael", "--relation", "boss"]);
    for fact in [
        "I prefer concise answers",
        "I'm allergic to peanuts",
        "I live in Lisbon",
        "My favorite color is blue",
        "I work as a software engineer",
    ] {
        ctx.add("u", fact);
    }
    ctx.ok(&[
        "--user",
        "u",
        "--chat",
        "team",
        "add",
        "Our standup is at 9am",
        "--shared",
    ]);
    ctx.ok(&["--user", "other", "add", "Other's secret plan is a surprise party"]);

    let full = ctx.json(&[
        "--user",
        "u",
        "--chat",
        "team",
        "context",
        "What should I cook for dinner?",
    ]);
    let md = full["markdown"].as_str().unwrap();
    let memories = contents(&full["memories"]);
    assert_eq!(memories.len(), 7, "top memories regardless of similarity: {memories:?}");
    // The profile holds private facts: not in a chat.
    assert_eq!(full["profile"], serde_json::json!([]));
    assert!(
        memories.contains(&"Our standup is at 9am".to_owned()),
        "the chat's group memory is in scope"
    );
    assert!(!md.contains("surprise party"), "another user's memory never is");
    assert!(md.contains("- **Michael** (boss)") && md.contains("- **Sarah** (wife)"));
    assert_eq!(full["dropped"], 0);
    let estimate = full["estimated_tokens"].as_u64().unwrap();
    assert_eq!(estimate, (md.chars().count() as u64).div_ceil(4));

    let budget = estimate - 20;
    let tight = ctx.json(&[
        "--user",
        "u",
        "--chat",
        "team",
        "context",
        "What should I cook for dinner?",
        "--max-tokens",
        &budget.to_string(),
    ]);
    assert!(tight["estimated_tokens"].as_u64().unwrap() <= budget);
    assert!(tight["dropped"].as_u64().unwrap() >= 1);
    let kept = contents(&tight["memories"]);
    assert_eq!(kept[..], memories[..kept.len()], "the least relevant memories go first");
    // The message names no one; Sarah stays as the one the best memory is about, and
    // Michael, who nothing here concerns, goes before any memory.
    let people: Vec<&str> = tight["people"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(people, ["Sarah"], "{tight:#}");
    assert_eq!(memories[0], "Sarah likes Italian food");
    let nothing = ctx.json(&["--user", "u", "context", "hello", "--max-tokens", "5"]);
    assert_eq!(nothing["markdown"], "");
}

#[test]
fn a_tight_budget_keeps_what_answers_the_message_and_whom_it_names() {
    let ctx = Ctx::new();
    ctx.ok(&["--user", "u", "people", "add", "Sarah", "--relation", "wife"]);
    ctx.ok(&["--user", "u", "people", "add", "Michael", "--relation", "boss"]);
    ctx.ok(&["--user", "u", "add", "Sarah likes Italian food", "--subject", "Sarah"]);
    ctx.add("u", "I prefer concise responses");
    ctx.add("u", "I'm allergic to peanuts");
    let ask = |message: &str, budget: &str| ctx.json(&["--user", "u", "context", message, "--max-tokens", budget]);

    let tight = ask("What should I cook for my wife?", "80");
    let md = tight["markdown"].as_str().unwrap();
    assert!(tight["estimated_tokens"].as_u64().unwrap() <= 80, "{tight:#}");
    assert!(
        md.contains("Sarah likes Italian food"),
        "the memory that answers stays: {md}"
    );
    assert!(
        md.contains("- **Sarah** (wife)"),
        "the person the message names stays: {md}"
    );
    assert!(!md.contains("Michael"), "an unrelated person goes first: {md}");
    assert!(tight["dropped"].as_u64().unwrap() >= 1);

    // Asked about the boss, the boss stays and the wife goes.
    let tight = ask("When does my boss want the report?", "40");
    let md = tight["markdown"].as_str().unwrap();
    assert!(md.contains("- **Michael** (boss)") && !md.contains("**Sarah**"), "{md}");
}

#[test]
fn the_remember_and_recall_tools_handle_batches_and_refuse_bad_input() {
    let ctx = Ctx::new();
    let schemas = ctx.json(&["tools"]);
    let names: Vec<&str> = schemas
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["remember", "recall", "correct"]);
    assert_eq!(
        schemas[0]["input_schema"]["properties"]["facts"]["items"]["required"],
        serde_json::json!(["content"])
    );
    assert_eq!(schemas[1]["input_schema"]["required"], serde_json::json!(["query"]));

    let batch = r#"{"facts": [
        {"content": "Sarah likes Italian food", "subjects": ["my wife Sarah"]},
        {"content": "Parking pass expires soon", "expires_in_days": 14},
        {"content": "Team lunch is on Fridays", "shared": true}
    ]}"#;
    let out = ctx.ok(&["--user", "u", "--chat", "team", "tools", "call", "remember", batch]);
    assert_eq!(out.trim(), "Remembered 3 facts.");
    let listed = ctx.json(&["--user", "u", "--chat", "team", "list"]);
    let group: Vec<&Value> = listed
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["chat_id"] == "team")
        .collect();
    assert_eq!(group.len(), 1);
    assert!(listed.as_array().unwrap().iter().any(|m| m["expires_at"].is_string()));
    assert_eq!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["source"] == "tool")
            .count(),
        3
    );

    let recalled = ctx.ok(&[
        "--user",
        "u",
        "--chat",
        "team",
        "tools",
        "call",
        "recall",
        r#"{"query": "food", "about": "my wife"}"#,
    ]);
    let sarah = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["content"] == "Sarah likes Italian food")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        recalled.trim(),
        format!("- Sarah likes Italian food (about Sarah; id {sarah})")
    );
    let single = ctx.ok(&[
        "--user",
        "u",
        "tools",
        "call",
        "remember",
        r#"{"content": "I prefer tea", "subjects": []}"#,
    ]);
    assert_eq!(single.trim(), "Remembered 1 fact.");
    // A fact replaced by a later fact of the same call is reported like an older one.
    let moved = ctx.ok(&[
        "--user",
        "v",
        "tools",
        "call",
        "remember",
        r#"{"facts": [{"content": "I live in Lisbon"}, {"content": "I live in Porto"}]}"#,
    ]);
    assert_eq!(moved.trim(), r#"Remembered 2 facts. It replaces: "I live in Lisbon"."#);

    let before = ctx.snapshot();
    for (name, args, expect) in [
        ("remember", "not json", "not JSON"),
        ("remember", "[1, 2]", "JSON object"),
        ("remember", "{}", "`content` or a non-empty `facts`"),
        (
            "remember",
            r#"{"facts": [{"content": "ok"}, {"content": "x", "expires_in_days": "soon"}]}"#,
            "facts[1].expires_in_days",
        ),
        (
            "remember",
            r#"{"facts": [{"subjects": ["Sarah"]}]}"#,
            "facts[0].content",
        ),
        ("remember", r#"{"content": "my password is hunter2"}"#, "refused"),
        ("recall", r#"{"about": "Sarah"}"#, "`query`"),
        ("forget", "{}", "unknown tool \"forget\""),
    ] {
        let err = ctx.fails(&["--user", "u", "tools", "call", name, args]);
        assert!(err.contains(expect), "{name} {args}: {err}");
    }
    assert_eq!(ctx.snapshot(), before, "bad tool calls change nothing");
}
