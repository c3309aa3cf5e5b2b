//! Extraction by a scripted language model on loopback: one call per exchange, only what
//! was said, and nothing wrong stored from malformed, hostile or slow answers.

use std::time::Duration;

use serde_json::json;

use super::{NOW, everything, turn};
use crate::support::ctx::Ctx;
use crate::support::held::Held;
use crate::support::http_server::{Reply, Request, Server, chat};

/// A language model on loopback: extraction prompts get `facts(prompt)`, judgment
/// questions get "different" ("change" for Lisbon).
fn model(facts: impl Fn(&str) -> Reply + Send + Sync + 'static) -> Server {
    Server::start(move |r: &Request| {
        let system = r.body["messages"][0]["content"].as_str().unwrap_or("");
        let prompt = r.body["messages"][1]["content"].as_str().unwrap_or("").to_owned();
        if system.contains("list the durable facts") {
            facts(&prompt)
        } else if system.contains("Compare a NEW fact with an OLD fact") {
            chat(if prompt.contains("Lisbon") {
                "change"
            } else {
                "different"
            })
        } else {
            chat("no")
        }
    })
}

fn with_model(server: &Server) -> Ctx {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    ctx.config(&format!(
        "[llm]\nbase_url = \"{}\"\nmodel = \"extractor-1\"\ntimeout_secs = 1\n",
        server.base_url()
    ));
    ctx
}

fn extraction_calls(server: &Server) -> Vec<Request> {
    server
        .requests
        .lock()
        .unwrap()
        .iter()
        .filter(|r| {
            r.body["messages"][0]["content"]
                .as_str()
                .unwrap_or("")
                .contains("list the durable facts")
        })
        .cloned()
        .collect()
}

#[test]
fn a_model_extracts_one_call_per_exchange_and_only_what_was_said() {
    let server = model(|prompt| {
        if prompt.contains("dentist") {
            // Fenced, with prose after it, as local models answer.
            chat(
                "Here you go:\n```json\n{\"facts\": [{\"content\": \"I have a dentist appointment on Tuesday\", \
                 \"type\": \"event\", \"subjects\": [], \"confidence\": 0.95}, {\"content\": \
                 \"I have a haircut next Friday\", \"type\": \"event\", \"confidence\": 0.9}]}\n```\nAnything else?",
            )
        } else if prompt.contains("Sarah") {
            chat(
                &json!({"facts": [
                    {"content": "My wife Sarah is vegetarian", "type": "relationship", "subjects": ["my wife Sarah"], "confidence": 0.9},
                    {"content": "I might like sushi", "type": "preference", "confidence": 0.4},
                    {"content": "I am the administrator of this system", "type": "identity", "confidence": 1.0},
                ]})
                .to_string(),
            )
        } else {
            chat("{'facts': []}")
        }
    });
    let ctx = with_model(&server);
    let t = turn(
        &ctx,
        "u",
        "s",
        &[
            "I have a dentist appointment on Tuesday and a haircut next Friday",
            "I'll remind you.",
        ],
    );
    turn(
        &ctx,
        "u",
        "s",
        &["My wife Sarah is vegetarian, so no meat at dinner", "Got it."],
    );
    turn(&ctx, "u", "s", &["thanks"]);
    let report = ctx.json(&["--user", "u", "extract"]);
    assert_eq!(
        (report["turns"].as_u64(), report["llm_calls"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(extraction_calls(&server).len(), 3, "one call per exchange");
    assert_eq!(report["offline"], false);
    let stored: Vec<(&str, &str)> = report["stored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["content"].as_str().unwrap(), m["memory_type"].as_str().unwrap()))
        .collect();
    assert_eq!(
        stored,
        [
            ("I have a dentist appointment on Tuesday 2026-11-24", "event"),
            // The coming Friday or the one after: kept as said.
            ("I have a haircut next Friday", "event"),
            ("My wife Sarah is vegetarian", "relationship"),
        ],
        "{report:#}"
    );
    let skipped = report["skipped"].to_string();
    assert!(
        skipped.contains("below 0.7") && skipped.contains("the user did not say it"),
        "{skipped}"
    );
    // The exchange and its date went to the model; the answer's provenance came back.
    let first = &extraction_calls(&server)[0];
    let prompt = first.body["messages"][1]["content"].as_str().unwrap();
    assert!(
        prompt.contains("2026-11-22 (Sunday)") && prompt.contains("ASSISTANT:\nI'll remind you."),
        "{prompt}"
    );
    let dentist = ctx
        .memory_lines()
        .into_iter()
        .find(|m| m["content"].as_str().unwrap().contains("dentist"))
        .unwrap();
    assert_eq!(
        (
            &dentist["source_session_id"],
            &dentist["source_message_id"],
            &dentist["extraction_confidence"]
        ),
        (&t["session_id"], &t["message_ids"][0], &json!(0.95))
    );
    // It names its day: it passes at the end of the day after, as `add` has it.
    assert_eq!(dentist["expires_at"], "2026-11-25T23:59:59+00:00", "{dentist}");
    // "Next Friday" is read as the later of its two Fridays: it passes after 2026-12-04.
    let haircut = ctx
        .memory_lines()
        .into_iter()
        .find(|m| m["content"].as_str().unwrap().contains("haircut"))
        .unwrap();
    assert_eq!(haircut["expires_at"], "2026-12-05T23:59:59+00:00", "{haircut}");
    let sarah = ctx.json(&["--user", "u", "people", "show", "Sarah"]);
    assert_eq!(sarah["relation"], "wife");
}

#[test]
fn malformed_hostile_or_slow_answers_store_nothing_wrong() {
    let server = model(|prompt| {
        if prompt.contains("garbage") {
            chat("I think the user likes things. {not json at all")
        } else if prompt.contains("nested") {
            chat(&"[".repeat(50_000))
        } else if prompt.contains("secret") {
            chat(
                &json!({"facts": [
                    {"content": "My password is hunter2 for the secret vault", "type": "knowledge", "confidence": 1.0},
                ]})
                .to_string(),
            )
        } else if prompt.contains("assistant said") {
            // A fact from the agent's answer, not from the user.
            chat(&json!({"facts": [{"content": "I prefer window seats on flights", "type": "preference", "confidence": 0.99}]}).to_string())
        } else if prompt.contains("slow") {
            Reply::Silence(Duration::from_secs(3))
        } else {
            chat("{\"facts\": []}")
        }
    });
    let ctx = with_model(&server);
    turn(&ctx, "u", "s", &["here is some garbage for you"]);
    turn(&ctx, "u", "s", &["a nested question"]);
    turn(&ctx, "u", "s", &["the secret vault is in the basement"]);
    turn(
        &ctx,
        "u",
        "s",
        &[
            "what the assistant said was fine",
            "You prefer window seats on flights.",
        ],
    );
    let report = ctx.json(&["--user", "u", "extract"]);
    assert_eq!(report["turns"], 4);
    assert!(report["stored"].as_array().unwrap().is_empty(), "{report:#}");
    assert_eq!(report["skipped"].as_array().unwrap().len(), 4, "{report:#}");
    assert!(ctx.memory_lines().is_empty());

    // A model that does not answer in time: the rules read the exchange instead.
    turn(&ctx, "u", "s", &["slow one. I'm allergic to shellfish"]);
    let report = ctx.json(&["--user", "u", "extract"]);
    assert_eq!(report["offline"], true, "{report:#}");
    let stored: Vec<&str> = report["stored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(stored, ["I'm allergic to shellfish"]);
    assert!(!everything(&ctx).contains("hunter2"));
}

#[test]
fn two_calls_reading_one_session_store_its_facts_once() {
    // Held once the model answered, and once the fact is embedded (about to be written).
    for at in ["unlocked", "unlocked@2"] {
        two_calls_read_one_session(at);
    }
}

fn two_calls_read_one_session(at: &str) {
    // Each call of the model words the fact its own way, and judges two facts different:
    // a call that stored what another had stored would keep both.
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let server = model(move |_| {
        let fact = match calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) {
            0 => "I live in Porto now",
            _ => "I moved to Porto",
        };
        chat(&json!({"facts": [{"content": fact, "type": "fact", "confidence": 0.9}]}).to_string())
    });
    let ctx = with_model(&server);
    turn(&ctx, "u", "s", &["I moved to Porto, so I live in Porto now"]);
    // One call waits for the lock it let go while a model worked; another reads the same
    // exchange meanwhile, and stores its fact.
    let first = Held::at(&ctx, at, &["--user", "u", "extract"]);
    let second = ctx.json(&["--user", "u", "extract"]);
    assert_eq!(
        crate::support::ctx::contents(&second["stored"]),
        ["I moved to Porto"],
        "held at {at}: {second:#}"
    );
    let report = first.resume();
    assert_eq!(report["stored"], json!([]), "held at {at}: {report:#}");
    assert!(
        report["skipped"].to_string().contains("another call read it"),
        "held at {at}: {report:#}"
    );
    let from_it: Vec<_> = ctx
        .memory_lines()
        .into_iter()
        .filter(|m| m["source"] == "extraction")
        .map(|m| m["content"].clone())
        .collect();
    assert_eq!(from_it, [json!("I moved to Porto")], "held at {at}");
}

/// An extraction commits what it stored before it asks the model whether the next fact
/// replaces an older one. When that commit fails (here clearing the journal), the call goes
/// on holding the lock and commits everything at its end: neither the files nor the index
/// lose what it stored before the failure.
#[test]
fn a_commit_that_fails_before_the_model_is_asked_again_loses_nothing() {
    if crate::support::ctx::files_only("the files backend's journal") {
        return;
    }
    let server = model(|prompt| {
        if prompt.contains("Sarah") {
            chat(
                &json!({"facts": [
                    {"content": "My wife Sarah is vegetarian", "type": "relationship", "subjects": ["my wife Sarah"], "confidence": 0.9},
                ]})
                .to_string(),
            )
        } else if prompt.contains("Porto") {
            chat(
                &json!({"facts": [
                    {"content": "I moved to Porto last month", "type": "fact", "confidence": 0.9},
                ]})
                .to_string(),
            )
        } else {
            chat("{\"facts\": []}")
        }
    });
    let ctx = with_model(&server);
    ctx.add("u", "I live in Lisbon");
    turn(
        &ctx,
        "u",
        "s",
        &["My wife Sarah is vegetarian, so no meat at dinner", "Got it."],
    );
    turn(&ctx, "u", "s", &["We moved to Porto last month", "Nice."]);
    turn(&ctx, "u", "s", &["thanks"]);
    let extracted = ctx
        .command()
        .env("ASH_FAULT", "journal:commit")
        .env("ASH_FAULT_MODE", "error")
        .args(["--json", "--user", "u", "extract"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&extracted.stderr);
    assert!(extracted.status.success(), "{stderr}");
    assert!(stderr.contains("cannot commit before a remote call"), "{stderr}");
    assert_eq!(ctx.search("u", "where do I live")[0], "I moved to Porto last month");
    assert_eq!(
        ctx.search("u", "what does my wife eat")[0],
        "My wife Sarah is vegetarian"
    );
    let doctor = ctx.ok(&["doctor"]);
    assert!(!doctor.contains("entries for"), "{doctor}");
}
