//! The language-model path of the judgment against a real HTTP server on loopback: the
//! model settles what the rules cannot, only one clear word counts, failures keep both,
//! nothing is lost.

use std::time::Duration;

use crate::support::ctx::Ctx;
use crate::support::fixtures::free_port;
use crate::support::http_server::{Reply, Server, chat};

const KEY: &str = "sk-test-0123456789abcdefKEY";

fn with_llm(server: &Server) -> Ctx {
    let ctx = Ctx::new().env("ASH_TEST_LLM_KEY", KEY);
    ctx.config(&format!(
        "[llm]\nbase_url = \"{}\"\nmodel = \"judge-1\"\napi_key_env = \"ASH_TEST_LLM_KEY\"\ntimeout_secs = 1\n",
        server.base_url()
    ));
    ctx
}

/// Adds dogs then cats (which the rule keeps apart) and returns how many memories cats
/// superseded, checking that neither memory was lost.
fn dogs_then_cats(ctx: &Ctx) -> usize {
    ctx.add("u", "I like dogs");
    let out = ctx.run(&["--json", "--user", "u", "add", "I like cats"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains(KEY),
        "the API key leaked"
    );
    let added: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let all = ctx.json(&["--user", "u", "list", "--include-superseded"]);
    assert_eq!(all.as_array().unwrap().len(), 2, "nothing is lost");
    added["superseded"].as_array().unwrap().len()
}

#[test]
fn a_clear_change_supersedes_and_the_request_is_well_formed() {
    let server = Server::start(|_| chat("Change."));
    let ctx = with_llm(&server);
    assert_eq!(
        dogs_then_cats(&ctx),
        1,
        "the model's answer decides what the rules cannot"
    );
    let requests = server.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.authorization.as_deref(), Some(format!("Bearer {KEY}").as_str()));
    assert_eq!(r.body["model"], "judge-1");
    let prompt = r.body["messages"][1]["content"].as_str().unwrap();
    assert!(
        prompt.contains("OLD: I like dogs") && prompt.contains("NEW: I like cats"),
        "{prompt}"
    );
}

#[test]
fn different_or_garbage_keeps_both() {
    for answer in ["different", "yes", "Well, it depends on the context.", ""] {
        let server = Server::start(move |_| chat(answer));
        let ctx = with_llm(&server);
        assert_eq!(dogs_then_cats(&ctx), 0, "answer {answer:?}");
        assert_eq!(
            server.count(),
            1,
            "asked once, about the pair the rules could not settle"
        );
        // A pair the rules settle is not put to the model, whatever it would say.
        ctx.add("u", "My favorite color is red");
        let blue = ctx.json(&["--user", "u", "add", "My favorite color is blue"]);
        assert_eq!(blue["superseded"].as_array().unwrap().len(), 1, "answer {answer:?}");
        assert_eq!(server.count(), 1, "answer {answer:?}");
    }
}

#[test]
fn a_restatement_the_model_recognises_is_kept_once() {
    let server = Server::start(|_| chat("same"));
    let ctx = with_llm(&server);
    let id = ctx.add("u", "I like dogs");
    let again = ctx.json(&["--user", "u", "add", "I like cats"]);
    assert_eq!(again["id"], id.as_str(), "the model said they are the same fact");
    assert_eq!(again["restated"], true);
    assert_eq!(ctx.json(&["--user", "u", "list"]).as_array().unwrap().len(), 1);
}

#[test]
fn a_failing_service_is_retried_then_the_rule_decides() {
    let server = Server::start(|_| Reply::Json(500, serde_json::json!({ "error": "overloaded" })));
    let ctx = with_llm(&server);
    assert_eq!(dogs_then_cats(&ctx), 0, "without an answer, both stay");
    assert_eq!(server.count(), 3, "one request and two retries on a 500");
    ctx.add("u", "My favorite color is red");
    let blue = ctx.json(&["--user", "u", "add", "My favorite color is blue"]);
    assert_eq!(
        blue["superseded"].as_array().unwrap().len(),
        1,
        "the rule replaces a changed value"
    );
}

/// The service answers "Change." only after 4 s: had the 1 s timeout not fired, that answer
/// would supersede dogs with cats.
#[test]
fn a_silent_service_times_out_and_the_rule_decides() {
    let server = Server::start(|_| Reply::Late(Duration::from_secs(4), Box::new(chat("Change."))));
    let ctx = with_llm(&server).env("ASH_LOG", "debug");
    ctx.add("u", "I like dogs");
    let out = ctx.run(&["--json", "--user", "u", "add", "I like cats"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let added: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        added["superseded"].as_array().unwrap().len(),
        0,
        "the late answer was not used: {added:#}"
    );
    assert!(
        stderr.contains("no answer within 1 s; both memories are kept"),
        "the timeout fired and the rule decided: {stderr}"
    );
    assert!(!stderr.contains(KEY), "the API key leaked");
    let all = ctx.json(&["--user", "u", "list", "--include-superseded"]);
    assert_eq!(all.as_array().unwrap().len(), 2, "nothing is lost");
    assert_eq!(server.count(), 1, "a timeout is not retried");
}

#[test]
fn an_unreachable_service_falls_back_to_the_rule() {
    let port = free_port();
    let ctx = Ctx::new();
    ctx.config(&format!(
        "[llm]\nbase_url = \"http://127.0.0.1:{port}/v1\"\nmodel = \"m\"\n"
    ));
    ctx.add("u", "I live in Lisbon");
    let porto = ctx.json(&["--user", "u", "add", "I live in Porto"]);
    assert_eq!(porto["superseded"][0]["content"], "I live in Lisbon");
}
