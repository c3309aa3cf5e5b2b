//! The OpenAI-compatible embedder against a real `/v1/embeddings` server on loopback.

use crate::support::ctx::Ctx;
use crate::support::fixtures::free_port;
use crate::support::http_server::{Server, embeddings};

fn config(base_url: &str) -> String {
    format!(
        "[embedder]\nprovider = \"openai\"\nbase_url = \"{base_url}\"\nmodel = \"embed-1\"\ndimensions = 16\ntimeout_secs = 2\n"
    )
}

#[test]
fn a_service_embeds_adds_and_searches() {
    let server = Server::start(|r| embeddings(r, 16));
    let ctx = Ctx::new();
    ctx.config(&config(&server.base_url()));
    let m = ctx.json(&["--user", "u", "add", "Peanuts make me ill"]);
    assert_eq!(m["embedded"], true);
    ctx.add("u", "The office is on the third floor");
    let found = ctx.json(&["--user", "u", "search", "peanuts ill"]);
    assert_eq!(found["hits"][0]["content"], "Peanuts make me ill");
    assert!(found["hits"][0]["similarity"].as_f64().unwrap() > 0.5);
    let r = server.requests.lock().unwrap()[0].clone();
    assert_eq!(
        (r.path.as_str(), r.body["model"].as_str(), r.body["dimensions"].as_u64()),
        ("/v1/embeddings", Some("embed-1"), Some(16))
    );
}

#[test]
fn a_wrong_dimension_is_reported_and_never_indexed() {
    let server = Server::start(|r| embeddings(r, 8));
    let ctx = Ctx::new();
    ctx.config(&config(&server.base_url()));
    let out = ctx.run(&["--json", "--user", "u", "add", "Peanuts make me ill"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("dimension 8") && stderr.contains("16"), "{stderr}");
    let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(m["embedded"], false);
    assert_eq!(
        ctx.memory_lines()[0]["embedding"],
        serde_json::Value::Null,
        "no garbage vector stored"
    );
    let found = ctx.json(&["--user", "u", "search", "peanuts"]);
    assert_eq!(
        found["hits"][0]["content"], "Peanuts make me ill",
        "full-text still finds it"
    );
    assert!(found["notices"][0].as_str().unwrap().contains("full-text"));
}

#[test]
fn an_add_while_the_service_is_down_is_kept_and_embedded_when_it_returns() {
    let port = free_port();
    let ctx = Ctx::new();
    ctx.config(&config(&format!("http://127.0.0.1:{port}/v1")));
    let out = ctx.run(&["--json", "--user", "u", "add", "Peanuts make me ill"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot connect"));
    let found = ctx.json(&["--user", "u", "search", "peanuts"]);
    assert_eq!(found["hits"][0]["content"], "Peanuts make me ill");
    assert_eq!(ctx.memory_lines()[0]["embedding"], serde_json::Value::Null);

    let server = Server::start_on(port, |r| embeddings(r, 16));
    let found = ctx.json(&["--user", "u", "search", "peanuts ill"]);
    assert!(
        found["hits"][0]["similarity"].as_f64().is_some(),
        "found by vector once embedded: {found}"
    );
    let lines = ctx.memory_lines();
    assert!(
        lines.last().unwrap()["embedding"].is_string(),
        "the pending embedding was written back"
    );
    assert!(server.count() >= 2);
}

#[test]
fn switching_embedders_asks_for_a_rebuild_instead_of_mixing_vectors() {
    let ctx = Ctx::new();
    ctx.add("u", "Peanuts make me ill");
    let server = Server::start(|r| embeddings(r, 16));
    ctx.config(&config(&server.base_url()));
    let err = ctx.fails(&["--user", "u", "search", "peanuts"]);
    assert!(
        err.contains("rebuild-index") && err.contains("384") && err.contains("16"),
        "{err}"
    );
    assert_eq!(
        ctx.json(&["--user", "u", "list"]).as_array().unwrap().len(),
        1,
        "the data is all there"
    );
    let report = ctx.json(&["rebuild-index"]);
    assert_eq!(
        (report["indexed"].as_u64(), report["embedded"].as_u64()),
        (Some(1), Some(1))
    );
    let found = ctx.json(&["--user", "u", "search", "peanuts ill"]);
    assert!(found["hits"][0]["similarity"].as_f64().is_some());
}

#[test]
fn a_call_whose_lock_is_taken_while_the_service_answers_fails_as_busy_and_writes_nothing() {
    use std::os::fd::AsRawFd as _;
    use std::sync::{Arc, Mutex};

    if crate::support::ctx::files_only("takes the files backend's lock, a flock on the home's .lock") {
        return;
    }
    let ctx = Ctx::new();
    let lock_file = ctx.home().join(".lock");
    let thief: Arc<Mutex<Option<std::fs::File>>> = Arc::new(Mutex::new(None));
    let stolen = thief.clone();
    // While the embedding request is out the CLI holds no lock: another process takes it,
    // and keeps it past the CLI's wait.
    let server = Server::start(move |r| {
        let mut held = stolen.lock().unwrap();
        if held.is_none() && lock_file.exists() {
            let file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(&lock_file)
                .unwrap();
            assert_eq!(unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) }, 0);
            *held = Some(file);
        }
        embeddings(r, 16)
    });
    ctx.config(&config(&server.base_url()));
    let before = ctx.snapshot();
    let out = ctx
        .command()
        .env("ASH_LOCK_TIMEOUT_SECS", "0.3")
        .args(["--user", "u", "add", "Peanuts make me ill"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the add succeeded without its lock");
    assert!(thief.lock().unwrap().is_some(), "the lock was free during the request");
    // Busy, as the lock's own error, not the refused write's (an index or storage error).
    assert!(
        stderr.contains("is busy") && !stderr.contains("not written"),
        "{stderr}"
    );
    drop(thief.lock().unwrap().take());
    let after = ctx.snapshot();
    let memories = ctx.memories_path();
    assert_eq!(after.get(&memories), before.get(&memories), "nothing was written");
    assert!(ctx.json(&["--user", "u", "list"]).as_array().unwrap().is_empty());
}

/// A turn that says two words, and a short reply that says one of them and whose context,
/// the turn it answered, says both (shared with `postgres_layout`).
pub(crate) const SAID: &str = "Melanie: We brought the tabby kitten home from the shelter on Sunday";
pub(crate) const REPLY: &str = "Caroline: So lovely, a kitten!";
pub(crate) const ANSWERED: &str = "Melanie: We adopted a kitten from the shelter";

/// While the service is down, search has words alone. A reply's context is searched with
/// it but weighs less than its own words: the reply, shorter and holding "kitten" twice and
/// "shelter" once as one text, ranked first; now the turn that says both words does.
#[test]
fn with_the_service_down_a_word_said_ranks_above_the_same_word_in_a_replys_context() {
    let ctx = Ctx::new();
    ctx.config(&config(&format!("http://127.0.0.1:{}/v1", free_port())));
    ctx.ok(&["--user", "u", "add", REPLY, "--context", ANSWERED]);
    ctx.ok(&["--user", "u", "add", SAID]);
    // Other talk, so that the two words are rare enough to weigh.
    for other in [
        "Caroline: The bakery on the corner closed last month",
        "Melanie: My brother starts his new job in Leeds",
        "Caroline: I repainted the hallway a pale green",
        "Melanie: The kids have swimming lessons on Thursdays",
    ] {
        ctx.ok(&["--user", "u", "add", other]);
    }
    // (The two lines stored after the turn, a transcript's next lines, follow it:
    // `follow_ups`.)
    let found = ctx.search("u", "kitten shelter");
    assert_eq!(found[..2], [SAID, REPLY], "{found:?}");
    assert_eq!(ctx.search("u", "adopted"), [REPLY], "a word only the context holds");
}
