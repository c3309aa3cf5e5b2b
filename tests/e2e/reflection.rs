//! The weekly reflection through the CLI, the real component and a scripted
//! OpenAI-compatible server on loopback.

use std::sync::{Arc, Mutex};

use serde_json::json;

use crate::support::ctx::Ctx;
use crate::support::held::Held;
use crate::support::http_server::{Reply, Server, chat};

const KEY: &str = "sk-test-0123456789abcdefKEY";

fn with_llm(server: &Server) -> Ctx {
    let ctx = Ctx::new().env("ASH_TEST_LLM_KEY", KEY);
    ctx.config(&format!(
        "[llm]\nbase_url = \"{}\"\nmodel = \"writer-1\"\napi_key_env = \"ASH_TEST_LLM_KEY\"\ntimeout_secs = 2\n",
        server.base_url()
    ));
    ctx
}

fn on(ctx: &Ctx, now: &str, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--now", now, "--user", "alice"];
    all.extend_from_slice(args);
    ctx.json(&all)
}

#[test]
fn reflect_asks_the_model_once_a_week_and_the_context_shows_it() {
    if crate::support::ctx::files_only("reads memories.jsonl itself") {
        return;
    }
    // The model answers what the test says: a summary, or a secret it must not keep.
    let answer = Arc::new(Mutex::new(
        "The user took up the cello, ran every day and planned a trip.".to_owned(),
    ));
    let said = answer.clone();
    let server = Server::start(move |_| chat(&said.lock().unwrap()));
    let ctx = with_llm(&server);
    let day1 = "2026-03-01T12:00:00Z";
    on(&ctx, day1, &["add", "I started learning the cello"]);
    on(&ctx, day1, &["add", "I run five kilometers every morning"]);
    ctx.ok(&["--now", day1, "--user", "bob", "add", "I collect stamps"]);
    let early = on(&ctx, day1, &["reflect"]);
    assert!(early["skipped"].as_str().unwrap().contains("2 new fact(s)"), "{early}");
    let asked_before = server.requests.lock().unwrap().len();

    on(&ctx, day1, &["add", "I booked a trip to Porto"]);
    let written = on(&ctx, day1, &["reflect"]);
    let memory = &written["written"];
    assert_eq!(memory["memory_type"], "reflection", "{written}");
    assert_eq!(memory["source"], "reflection");
    assert_eq!(
        memory["content"],
        "The user took up the cello, ran every day and planned a trip."
    );
    let requests = server.requests.lock().unwrap().clone();
    let prompt = requests[asked_before..]
        .iter()
        .map(|r| r.body["messages"][1]["content"].as_str().unwrap_or("").to_owned())
        .find(|p| p.contains("Facts from the past week"))
        .expect("the reflection was asked for");
    assert!(
        prompt.contains("(2026-03-01) I started learning the cello") && prompt.contains("Porto"),
        "{prompt}"
    );
    assert!(!prompt.contains("stamps"), "only alice's facts: {prompt}");

    let context = on(&ctx, day1, &["context", "How was my week?"]);
    let md = context["markdown"].as_str().unwrap();
    assert!(
        md.contains("## Recent Reflection") && md.contains("took up the cello"),
        "{md}"
    );

    // Not again within 6 days; then again with three new facts.
    let day4 = "2026-03-04T12:00:00Z";
    for f in ["I fixed my bike", "I read a novel", "I planted tomatoes"] {
        on(&ctx, day4, &["add", f]);
    }
    assert!(
        on(&ctx, day4, &["reflect"])["skipped"]
            .as_str()
            .unwrap()
            .contains("next is due from")
    );
    // A model that answers with a secret writes nothing.
    *answer.lock().unwrap() = "The user's password is hunter2hunter2".to_owned();
    let day8 = "2026-03-08T12:00:00Z";
    let refused = on(&ctx, day8, &["reflect"]);
    assert!(refused["skipped"].as_str().unwrap().contains("secret"), "{refused}");
    assert!(
        !std::fs::read_to_string(ctx.memories_path())
            .unwrap()
            .contains("hunter2")
    );
    *answer.lock().unwrap() = "The user kept busy at home.".to_owned();
    let again = on(&ctx, day8, &["reflect"]);
    assert_eq!(again["written"]["content"], "The user kept busy at home.");
    let reflections: Vec<_> = ctx
        .memory_lines()
        .into_iter()
        .filter(|l| l["memory_type"] == "reflection")
        .collect();
    assert_eq!(reflections.len(), 2);
}

#[test]
fn without_a_model_reflect_says_so_and_writes_nothing() {
    let server = Server::start(|_| Reply::Json(500, serde_json::json!({"error": "down"})));
    let ctx = with_llm(&server);
    for f in ["I like tea", "I like jazz", "I like hiking"] {
        ctx.ok(&["--user", "alice", "add", f]);
    }
    let before = ctx.snapshot();
    let out = ctx.ok(&["--user", "alice", "reflect"]);
    assert!(out.starts_with("No reflection: no language model answered"), "{out}");
    assert_eq!(ctx.snapshot(), before);
}

#[test]
fn the_server_writes_a_users_reflection_when_one_is_due() {
    if crate::support::ctx::files_only("writes config.toml itself") {
        return;
    }
    let llm = Server::start(|_| chat("The user spent the week on music and travel plans."));
    let ctx = with_llm(&llm).env("ASH_NOW", "2026-03-01T12:00:00Z");
    let config = std::fs::read_to_string(ctx.home().join("config.toml")).unwrap();
    ctx.config(&format!("{config}\n[memory]\nreflection_check_minutes = 0\n"));
    let server = crate::support::server::Server::start(&ctx, &[]);
    let mut rpc = server.client();
    for fact in [
        "I started learning the cello",
        "I joined a choir",
        "I booked a trip to Porto",
    ] {
        rpc.ok("memory.add", json!({"content": fact, "user_id": "alice"}));
    }
    // The check runs after the answer; the next call waits behind it.
    rpc.ok("memory.add", json!({"content": "A fact of bob's", "user_id": "bob"}));
    let listed = rpc.ok("memory.list", json!({"user_id": "alice", "memory_type": "reflection"}));
    let reflections = listed["memories"].as_array().unwrap();
    assert_eq!(reflections.len(), 1, "{listed}");
    assert_eq!(
        reflections[0]["content"],
        "The user spent the week on music and travel plans."
    );
    // Bob has one fact: none for him; and none twice for alice.
    rpc.ok("memory.list", json!({"user_id": "alice"}));
    let bobs = rpc.ok("memory.list", json!({"user_id": "bob", "memory_type": "reflection"}));
    assert_eq!(bobs["memories"].as_array().unwrap().len(), 0);
    let again = rpc.ok("memory.list", json!({"user_id": "alice", "memory_type": "reflection"}));
    assert_eq!(again["memories"].as_array().unwrap().len(), 1);
}

#[test]
fn two_reflections_side_by_side_write_one() {
    // Held once the model answered, and once the reflection is embedded.
    for at in ["unlocked", "unlocked@2"] {
        two_reflections_side_by_side(at);
    }
}

fn two_reflections_side_by_side(at: &str) {
    let server = Server::start(|_| chat("The user took up the cello and planned a trip."));
    let ctx = with_llm(&server);
    let day = "2026-03-01T12:00:00Z";
    for fact in [
        "I started learning the cello",
        "I run every morning",
        "I booked a trip to Porto",
    ] {
        on(&ctx, day, &["add", fact]);
    }
    // One reflection waits for the lock it let go while a model worked; another is
    // written meanwhile.
    let first = Held::at(&ctx, at, &["--now", day, "--user", "alice", "reflect"]);
    let second = on(&ctx, day, &["reflect"]);
    assert_eq!(second["written"]["memory_type"], "reflection", "held at {at}: {second}");
    let late = first.resume();
    assert!(
        late["skipped"]
            .as_str()
            .unwrap_or("")
            .contains("a reflection was written on"),
        "held at {at}: {late}"
    );
    let listed = on(&ctx, day, &["list"]);
    let reflections = listed
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["memory_type"] == "reflection")
        .count();
    assert_eq!(reflections, 1, "held at {at}: {listed}");
}
