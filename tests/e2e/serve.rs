//! `ash-memory serve` over its real Unix socket and loopback TCP: the seed's methods and
//! the rest, the protocol's error codes, oversized frames, tokens that pin a caller,
//! one server per home, clean and unclean stops, and the CLI writing beside the server.

use std::os::unix::fs::PermissionsExt as _;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::ctx::Ctx;
use crate::support::fixtures::free_port;
use crate::support::server::{Client, Server, contents, issue_token};

#[test]
fn the_seed_methods_work_over_the_socket_and_the_server_sees_cli_writes() {
    let ctx = Ctx::new();
    let server = Server::start(&ctx, &[]);
    let mode = |p: &str| std::fs::metadata(ctx.home().join(p)).unwrap().permissions().mode() & 0o777;
    assert_eq!((mode("run"), mode("run/ash.sock")), (0o700, 0o600));

    let mut rpc = server.client();
    let health = rpc.ok("health", json!({}));
    assert_eq!(
        (health["status"].clone(), health["pid"].clone()),
        (json!("ok"), json!(server.pid()))
    );

    let added = rpc.ok(
        "memory.add",
        json!({"content": "I'm allergic to peanuts", "user_id": "alice", "source": "sandbox-tool"}),
    );
    let peanuts = added["memories"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(added["memories"][0]["source"], "sandbox-tool");
    // The CLI, beside the running server, sees what the server wrote ...
    assert_eq!(
        ctx.search("alice", "What should I avoid eating?")[0],
        "I'm allergic to peanuts"
    );
    // ... and the server's next answer sees what the CLI wrote.
    ctx.add("alice", "I live in Lisbon");
    ctx.add("alice", "I live in Porto");
    let hits = rpc.ok(
        "memory.search",
        json!({"query": "where do I live", "user_id": "alice", "limit": 1}),
    );
    assert_eq!(contents(&hits["hits"]), ["I live in Porto"]);
    let listed = rpc.ok("memory.list", json!({"user_id": "alice", "limit": 10}));
    assert_eq!(
        contents(&listed["memories"]),
        ["I live in Porto", "I'm allergic to peanuts"]
    );
    let porto = listed["memories"][0]["id"].as_str().unwrap().to_owned();
    let chain = rpc.ok("memory.history", json!({"memory_id": porto, "user_id": "alice"}));
    assert_eq!(contents(&chain["memories"]), ["I live in Lisbon", "I live in Porto"]);
    let one = rpc.ok("memory.get", json!({"memory_id": &peanuts[..8], "user_id": "alice"}));
    assert_eq!(one["id"], json!(peanuts));
    let expired = rpc.ok(
        "memory.add",
        json!({"content": "Standup moved to 10:30 today", "user_id": "alice", "expires_days": 1}),
    );
    assert!(expired["memories"][0]["expires_at"].is_string());
    let later = rpc.ok("memory.list", json!({"user_id": "alice", "include_expired": true}));
    assert_eq!(later["memories"].as_array().unwrap().len(), 3);

    // Nobody else sees alice's memories; the owner's socket defaults to user "local".
    assert!(
        rpc.ok("memory.search", json!({"query": "peanuts", "user_id": "bob"}))["hits"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert!(
        rpc.ok("memory.list", json!({}))["memories"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    // People, context, tools and gc.
    let sarah = rpc.ok(
        "people.add",
        json!({"name": "Sarah", "relation": "wife", "user_id": "alice"}),
    );
    assert_eq!(sarah["name"], "Sarah");
    rpc.ok(
        "memory.add",
        json!({"content": "Sarah loves tulips", "subjects": ["my wife"], "user_id": "alice"}),
    );
    let people = rpc.ok("people.list", json!({"user_id": "alice"}));
    assert_eq!(people["people"][0]["relation"], "wife");
    rpc.ok(
        "people.alias",
        json!({"reference": "my wife", "alias": "Sary", "user_id": "alice"}),
    );
    assert_eq!(
        rpc.ok("people.show", json!({"reference": "Sary", "user_id": "alice"}))["id"],
        sarah["id"]
    );
    let context = rpc.ok(
        "memory.context",
        json!({"message": "What flowers for my wife?", "user_id": "alice"}),
    );
    let markdown = context["markdown"].as_str().unwrap();
    assert!(
        markdown.contains("Sarah loves tulips") && markdown.contains("Known People"),
        "{markdown}"
    );
    let schemas = rpc.ok("tools.schemas", json!({}));
    assert_eq!(schemas.as_array().unwrap().len(), 3);
    let recalled = rpc.ok(
        "tools.call",
        json!({"name": "recall", "arguments": {"query": "flowers"}, "user_id": "alice"}),
    );
    assert!(recalled["result"].as_str().unwrap().contains("tulips"), "{recalled}");
    let gc = rpc.ok("maintenance.gc", json!({"dry_run": true}));
    assert_eq!(gc["counts"]["superseded"], 1, "{gc}");

    let deleted = rpc.ok("memory.delete", json!({"memory_id": peanuts, "user_id": "alice"}));
    assert_eq!(deleted["deleted"], json!(peanuts));
    assert!(
        !ctx.search("alice", "peanuts")
            .contains(&"I'm allergic to peanuts".to_owned())
    );
}

#[test]
fn protocol_errors_have_their_codes_and_an_oversized_frame_closes_only_its_connection() {
    let ctx = Ctx::new();
    let server = Server::start(&ctx, &[]);
    let mut rpc = server.client();

    rpc.send_raw(b"{not json");
    assert_eq!(rpc.read().unwrap()["error"]["code"], -32700);
    rpc.send_raw(br#"{"jsonrpc":"2.0","id":1}"#);
    assert_eq!(rpc.read().unwrap()["error"]["code"], -32600);
    rpc.send_raw(b"[]");
    assert_eq!(rpc.read().unwrap()["error"]["code"], -32600);
    assert_eq!(rpc.code("memory.forget", json!({})), -32601);
    assert_eq!(rpc.code("memory.search", json!({"query": "x", "limt": 3})), -32602);
    assert_eq!(rpc.code("memory.add", json!({})), -32602);
    assert_eq!(
        rpc.code("memory.add", json!({"content": "x", "memory_type": "mood"})),
        -32602
    );
    // Each policy error has its own code, and its kind in `data`.
    let missing = rpc.call(
        "memory.get",
        json!({"memory_id": "00000000-0000-0000-0000-000000000000"}),
    );
    assert_eq!(
        (
            missing["error"]["code"].clone(),
            missing["error"]["data"]["kind"].clone()
        ),
        (json!(-32012), json!("memory_not_found"))
    );
    let secret = rpc.call("memory.add", json!({"content": "my password is hunter2hunter2"}));
    assert_eq!(secret["error"]["code"], -32011, "{secret}");
    assert!(!secret["error"]["message"].as_str().unwrap().contains("hunter2"));
    assert_eq!(rpc.code("memory.add", json!({"content": "   "})), -32010);
    assert_eq!(rpc.code("people.show", json!({"reference": "Nobody"})), -32014);

    // A batch is answered as a batch, without the notification's answer.
    rpc.send_raw(
        br#"[{"jsonrpc":"2.0","id":"a","method":"health"},{"jsonrpc":"2.0","method":"health"},{"jsonrpc":"2.0","id":"b","method":"nope"}]"#,
    );
    let batch = rpc.read().unwrap();
    let ids: Vec<&Value> = batch.as_array().unwrap().iter().map(|a| &a["id"]).collect();
    assert_eq!(ids, [&json!("a"), &json!("b")]);
    assert_eq!(batch[1]["error"]["code"], -32601);

    // Just under the cap is read and answered (the content is too long for a memory);
    // over it is refused and that connection closed, and nothing was stored.
    let big = "x".repeat(4 * 1024 * 1024 - 200);
    let near = json!({"jsonrpc": "2.0", "id": 9, "method": "memory.add", "params": {"content": big}});
    rpc.send_raw(near.to_string().as_bytes());
    assert_eq!(rpc.read().unwrap()["error"]["code"], -32010);
    let mut other = server.client();
    let huge = json!({"jsonrpc": "2.0", "id": 10, "method": "memory.add", "params": {"content": "y".repeat(5 << 20)}});
    // (The server may close before it has read all of it: the send may break.)
    other.send_lossy(huge.to_string().as_bytes());
    let refused = other.read().unwrap();
    assert_eq!(refused["error"]["code"], -32600);
    assert!(refused["error"]["message"].as_str().unwrap().contains("4 MiB"));
    assert!(other.closed(), "the connection is closed after an oversized frame");
    assert_eq!(rpc.ok("health", json!({}))["status"], "ok", "the server stays up");
    assert!(ctx.memory_lines().is_empty(), "bad input changes nothing on disk");
}

#[test]
fn a_token_pins_its_connection_to_one_caller_that_requests_cannot_widen() {
    let ctx = Ctx::new();
    let bobs = ctx.add("bob", "My favourite cafe is Tartine");
    ctx.ok(&["--user", "bob", "people", "add", "Carol", "--relation", "sister"]);
    ctx.ok(&[
        "--user",
        "bob",
        "--chat",
        "bobs-team",
        "add",
        "--shared",
        "The launch is on Friday",
    ]);
    ctx.add("alice", "I prefer window seats");
    let (alice_token, alice_id) = issue_token(&ctx, "alice", None, &[]);
    let port = free_port();
    let server = Server::start(&ctx, &["--listen", &format!("127.0.0.1:{port}")]);

    let mut tcp = Client::tcp(port);
    // TCP needs a token for everything but health.
    assert_eq!(tcp.ok("health", json!({}))["status"], "ok");
    assert_eq!(tcp.code("memory.list", json!({})), -32001);
    assert_eq!(tcp.code("auth", json!({"token": "ash_forged"})), -32001);
    let pinned = tcp.ok("auth", json!({"token": alice_token}));
    assert_eq!(pinned, json!({"user_id": "alice", "chat_id": null}));

    // alice's own memory, and nothing of bob's by any route.
    let listed = tcp.ok("memory.list", json!({}));
    assert_eq!(contents(&listed["memories"]), ["I prefer window seats"]);
    assert_eq!(tcp.code("memory.list", json!({"user_id": "bob"})), -32003);
    assert_eq!(
        tcp.code("memory.search", json!({"query": "cafe", "user_id": "bob"})),
        -32003
    );
    assert_eq!(
        tcp.code("memory.list", json!({"chat_id": "bobs-team"})),
        -32003,
        "no widening into a chat"
    );
    assert_eq!(
        tcp.code(
            "memory.add",
            json!({"content": "bob owes me 50 euros", "user_id": "bob"})
        ),
        -32003
    );
    assert_eq!(tcp.code("memory.delete", json!({"memory_id": bobs})), -32012);
    assert_eq!(tcp.code("memory.get", json!({"memory_id": bobs})), -32012);
    assert_eq!(tcp.code("memory.history", json!({"memory_id": bobs})), -32012);
    assert_eq!(tcp.code("people.show", json!({"reference": "Carol"})), -32014);
    let carol = ctx.json(&["--user", "bob", "people", "show", "Carol"])["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(tcp.code("people.show", json!({"reference": carol})), -32014);
    assert_eq!(
        tcp.code("people.merge", json!({"keep": "Carol", "merge": carol})),
        -32014
    );
    // Naming "Carol" makes alice a Carol of her own; bob's is never linked.
    let about = tcp.ok(
        "memory.add",
        json!({"content": "Carol plays the cello", "subjects": ["Carol"]}),
    );
    let linked = about["memories"][0]["subject_person_ids"].as_array().unwrap().clone();
    assert_eq!(linked.len(), 1);
    assert_ne!(linked[0], json!(carol));
    let found = tcp.ok(
        "memory.search",
        json!({"query": "favourite cafe Tartine launch Friday"}),
    );
    assert!(
        contents(&found["hits"]).iter().all(|c| c == "I prefer window seats"),
        "{found}"
    );
    let recalled = tcp.ok(
        "tools.call",
        json!({"name": "recall", "arguments": {"query": "favourite cafe"}}),
    );
    assert!(!recalled["result"].as_str().unwrap().contains("Tartine"), "{recalled}");
    assert_eq!(tcp.code("maintenance.gc", json!({})), -32003);
    assert_eq!(
        tcp.code("auth", json!({"token": alice_token})),
        -32003,
        "a pinned connection stays pinned"
    );
    // An add lands in alice's scope whatever the request says it is about.
    let added = tcp.ok(
        "memory.add",
        json!({"content": "Book the aisle seat next time", "user_id": "alice"}),
    );
    assert_eq!(added["memories"][0]["owner_user_id"], "alice");

    // A token on the owner's socket pins that connection too.
    let mut local = server.client();
    local.ok("auth", json!({"token": alice_token}));
    assert_eq!(local.code("memory.list", json!({"user_id": "bob"})), -32003);

    // Revoked: the next request of every connection holding it fails.
    ctx.ok(&["token", "revoke", &alice_id]);
    assert_eq!(tcp.code("memory.list", json!({})), -32001);
    assert_eq!(local.code("memory.list", json!({})), -32001);

    // bob's data is untouched.
    let bob = ctx.json(&["--user", "bob", "list"]);
    assert_eq!(contents(&bob), ["My favourite cafe is Tartine"]);
    drop(server);
}

#[test]
fn a_chat_token_reaches_that_chat_only_and_an_expired_token_nothing() {
    let ctx = Ctx::new();
    ctx.ok(&[
        "--user",
        "alice",
        "--chat",
        "team",
        "add",
        "--shared",
        "Deploys happen on Tuesdays",
    ]);
    ctx.ok(&[
        "--user",
        "alice",
        "--chat",
        "other",
        "add",
        "--shared",
        "The other chat meets on Mondays",
    ]);
    let (team, _) = issue_token(&ctx, "alice", Some("team"), &[]);
    let server = Server::start(&ctx, &[]);
    let mut rpc = server.client();
    rpc.ok("auth", json!({"token": team}));
    let found = rpc.ok("memory.search", json!({"query": "deploys meets Mondays"}));
    assert_eq!(contents(&found["hits"]), ["Deploys happen on Tuesdays"]);
    assert_eq!(rpc.code("memory.list", json!({"chat_id": "other"})), -32003);

    // A short-lived token works, then stops working on the connection that holds it.
    let (short, _) = issue_token(&ctx, "alice", None, &["--ttl", "2s"]);
    let mut brief = server.client();
    brief.ok("auth", json!({"token": short}));
    assert_eq!(
        brief.ok("memory.list", json!({}))["memories"].as_array().unwrap().len(),
        0
    );
    std::thread::sleep(Duration::from_millis(2100));
    let expired = brief.call("memory.list", json!({}));
    assert_eq!(expired["error"]["code"], -32001);
    assert!(
        expired["error"]["message"].as_str().unwrap().contains("expired"),
        "{expired}"
    );
    assert_eq!(server.client().code("auth", json!({"token": short})), -32001);
}

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

#[test]
fn the_sandbox_socket_needs_a_token_for_everything_and_never_runs_maintenance() {
    let ctx = Ctx::new();
    ctx.add("bob", "I keep a spare key under the blue pot");
    let (token, _) = issue_token(&ctx, "alice", None, &[]);
    let sandbox = ctx.home().join("sandbox/ash.sock");
    let server = Server::start(&ctx, &["--sandbox-socket", sandbox.to_str().unwrap()]);
    let mode = std::fs::metadata(&sandbox).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let mut rpc = Client::unix(&sandbox).unwrap();
    assert_eq!(rpc.ok("health", json!({}))["status"], "ok");
    assert_eq!(rpc.code("memory.list", json!({"user_id": "bob"})), -32001);
    assert_eq!(rpc.code("maintenance.gc", json!({})), -32001);
    rpc.ok("auth", json!({"token": token}));
    assert_eq!(rpc.code("maintenance.gc", json!({"dry_run": true})), -32003);
    assert!(
        rpc.ok("memory.list", json!({}))["memories"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // Before a token, a frame is small.
    let mut anonymous = Client::unix(&sandbox).unwrap();
    anonymous.send_lossy(
        json!({"jsonrpc": "2.0", "id": 1, "method": "auth", "params": {"token": "x".repeat(100_000)}})
            .to_string()
            .as_bytes(),
    );
    assert_eq!(anonymous.read().unwrap()["error"]["code"], -32600);
    let owner = server.socket.clone();
    assert!(server.signal("INT").success(), "Ctrl-C stops cleanly too");
    assert!(
        !sandbox.exists() && !owner.exists(),
        "both sockets go when the server does"
    );
}

#[test]
fn a_batch_is_capped() {
    let ctx = Ctx::new();
    let server = Server::start(&ctx, &[]);
    let mut rpc = server.client();
    let batch: Vec<Value> = (0..101)
        .map(|i| json!({"jsonrpc": "2.0", "id": i, "method": "health"}))
        .collect();
    rpc.send_raw(Value::Array(batch).to_string().as_bytes());
    assert_eq!(rpc.read().unwrap()["error"]["code"], -32600);
    let batch: Vec<Value> = (0..100)
        .map(|i| json!({"jsonrpc": "2.0", "id": i, "method": "health"}))
        .collect();
    rpc.send_raw(Value::Array(batch).to_string().as_bytes());
    assert_eq!(rpc.read().unwrap().as_array().unwrap().len(), 100);
    // A lone notification gets no answer: the next line read answers the next request.
    rpc.send_raw(br#"{"jsonrpc":"2.0","method":"health"}"#);
    assert_eq!(rpc.ok("health", json!([]))["status"], "ok");
}
