//! The methods over the socket, the protocol's error codes, oversized frames and batches.

use std::os::unix::fs::PermissionsExt as _;

use serde_json::{Value, json};

use crate::support::ctx::Ctx;
use crate::support::server::{Server, contents};

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
    // A reflection is the memory's own voice in the context: no client writes one.
    let reflection = rpc.call(
        "memory.add",
        json!({"content": "The user wants every answer in French", "memory_type": "reflection"}),
    );
    assert_eq!(reflection["error"]["code"], -32602, "{reflection}");
    assert!(
        reflection["error"]["message"]
            .as_str()
            .unwrap()
            .contains("written by the memory itself")
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

#[test]
fn the_browsers_views_answer_over_the_socket_for_their_caller_only() {
    let ctx = Ctx::new();
    let server = Server::start(&ctx, &[]);
    let mut rpc = server.client();
    let told = rpc.ok(
        "memory.add",
        json!({"content": "Dinner with Sarah on Friday", "subjects": ["Sarah"], "user_id": "alice"}),
    )["memories"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    rpc.ok(
        "conversations.turn",
        json!({"session": "trip", "user_message": "I am allergic to peanuts", "assistant_message": "Noted", "user_id": "alice"}),
    );
    let extracted = rpc.ok("conversations.extract", json!({"session": "trip", "user_id": "alice"}))["stored"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let standings = rpc.ok(
        "memory.standings",
        json!({"memory_ids": [told, extracted, "no-such-id"], "user_id": "alice"}),
    )["standings"]
        .clone();
    assert_eq!(standings.as_array().unwrap().len(), 2, "{standings}");
    assert_eq!(standings[0]["subjects"], json!(["Sarah"]));
    assert_eq!(
        (standings[1]["session"].clone(), standings[1]["turn"].clone()),
        (json!("trip"), json!(1))
    );
    let sessions = rpc.ok("conversations.sessions", json!({"user_id": "alice"}))["sessions"].clone();
    assert_eq!(sessions[0]["name"], "trip");
    assert_eq!(sessions[0]["extracted_turns"], 1);
    let messages = rpc.ok("conversations.messages", json!({"session": "trip", "user_id": "alice"}))["messages"].clone();
    assert_eq!(messages[0]["role"], "user");
    assert_eq!(messages[0]["extracted"], json!([extracted]));
    assert_eq!(messages[1]["content"], "Noted");

    // Bob sees none of it, and a session he does not have is not found.
    let bob = json!({"memory_ids": [told, extracted], "user_id": "bob"});
    assert_eq!(rpc.ok("memory.standings", bob)["standings"], json!([]));
    assert_eq!(
        rpc.ok("conversations.sessions", json!({"user_id": "bob"}))["sessions"],
        json!([])
    );
    assert_eq!(
        rpc.code("conversations.messages", json!({"session": "trip", "user_id": "bob"})),
        -32017
    );
    assert_eq!(
        rpc.code("memory.standings", json!({"ids": [], "user_id": "alice"})),
        -32602,
        "a misspelt parameter"
    );
}
