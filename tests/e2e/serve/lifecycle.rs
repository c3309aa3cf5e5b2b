//! The server's life: one per home, clean and unclean stops, the CLI writing beside it,
//! and the GC it runs when it starts.

use std::time::Duration;

use serde_json::json;

use crate::support::ctx::Ctx;
use crate::support::server::Server;

#[test]
fn one_server_per_home_and_sigterm_answers_the_request_in_flight_then_cleans_up() {
    let ctx = Ctx::new().env("ASH_LOCK_TIMEOUT_SECS", "60");
    let server = Server::start(&ctx, &[]);
    let second = ctx.fails(&["serve"]);
    assert!(second.contains(&format!("pid {}", server.pid())), "{second}");

    // Hold the home's lock so the server's add waits inside its call; stop the server
    // while it waits; then let it go: the add is answered and kept, and the exit is clean.
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(ctx.home().join(".lock"))
        .unwrap();
    lock.lock().unwrap();
    let mut rpc = server.client();
    rpc.send_raw(
        json!({"jsonrpc": "2.0", "id": 1, "method": "memory.add", "params": {"content": "I speak Portuguese"}})
            .to_string()
            .as_bytes(),
    );
    // The add is queued behind the lock we hold; stop the server, and let go only once
    // it says it is stopping.
    std::thread::sleep(Duration::from_millis(200));
    server.send_signal("TERM");
    server.wait_for_log("stopping: finishing requests in flight");
    let socket = server.socket.clone();
    assert!(!socket.exists(), "a stopping server takes its socket away at once");
    lock.unlock().unwrap();
    let answer = rpc.read().expect("the request in flight is answered");
    assert!(answer["result"]["memories"][0]["id"].is_string(), "{answer}");
    let status = server.wait();
    assert!(status.success(), "exit status {status:?}");
    assert!(!socket.exists(), "the socket is removed");
    assert_eq!(
        ctx.search("local", "which languages do I speak")[0],
        "I speak Portuguese"
    );
}

#[test]
fn a_server_killed_with_sigkill_loses_nothing_and_a_new_one_replaces_its_stale_socket() {
    let ctx = Ctx::new();
    let server = Server::start(&ctx, &[]);
    let mut rpc = server.client();
    for i in 0..12 {
        rpc.ok(
            "memory.add",
            json!({"content": format!("Fact number {i} about the garden"), "user_id": "alice"}),
        );
    }
    let socket = server.socket.clone();
    let status = server.signal("KILL");
    assert!(!status.success());
    assert!(socket.exists(), "a killed server leaves its socket behind");
    let again = Server::start(&ctx, &[]);
    let listed = again
        .client()
        .ok("memory.list", json!({"user_id": "alice", "include_superseded": true}));
    assert_eq!(listed["memories"].as_array().unwrap().len(), 12);
}

#[test]
fn the_cli_and_the_server_writing_at_once_lose_nothing() {
    let ctx = Ctx::new();
    let server = Server::start(&ctx, &[]);
    let cli = ctx
        .shell("for i in 1 2 3 4 5 6 7 8 9 10; do $BIN --user alice add \"CLI note $i about birds\" >/dev/null; done")
        .spawn()
        .unwrap();
    // The server keeps writing for as long as the CLI does, so the two overlap.
    let mut rpc = server.client();
    let mut mine = 0;
    let mut cli = cli;
    while cli.try_wait().unwrap().is_none() || mine < 5 {
        mine += 1;
        rpc.ok(
            "memory.add",
            json!({"content": format!("Server note {mine} about fish"), "user_id": "alice"}),
        );
    }
    assert!(cli.wait().unwrap().success());
    let listed = rpc.ok("memory.list", json!({"user_id": "alice", "include_superseded": true}));
    assert_eq!(listed["memories"].as_array().unwrap().len(), 10 + mine, "{listed}");
    assert_eq!(ctx.memory_lines().len(), 10 + mine);
}

#[test]
fn serve_runs_auto_gc_when_it_starts() {
    let ctx = Ctx::new();
    let old = ctx.json(&[
        "--now",
        "2020-01-01T00:00:00Z",
        "add",
        "Saw a fox in the garden",
        "--expires-days",
        "1",
    ]);
    ctx.config("[memory]\nauto_gc = true\n");
    let _server = Server::start(&ctx, &[]);
    let archived = ctx.archive_lines();
    assert_eq!(archived.len(), 1, "{archived:?}");
    assert_eq!(
        (archived[0]["id"].clone(), archived[0]["archive_reason"].clone()),
        (old["id"].clone(), json!("expired"))
    );
}
