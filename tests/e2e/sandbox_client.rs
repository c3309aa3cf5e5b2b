//! `ash-sb`, the sandbox client, against a real `ash-memory serve`: the environment names
//! the caller and the server, a token pins it, and a missing server is a clear error.

use std::io::Read as _;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::support::ctx::Ctx;
use crate::support::fixtures::free_port;
use crate::support::server::{Client, Server, contents, issue_token};

/// `ash-sb`, built beside `ash-memory` by `cargo test --workspace` (it is its own crate,
/// so that sandboxes can install it without wasmtime).
fn ash_sb() -> Command {
    let path: PathBuf = PathBuf::from(env!("CARGO_BIN_EXE_ash-memory")).with_file_name("ash-sb");
    assert!(
        path.exists(),
        "{} is missing: run `cargo test --workspace` (or `cargo build -p ash-sb`)",
        path.display()
    );
    let mut cmd = Command::new(path);
    for var in [
        "ASH_USER_ID",
        "ASH_CHAT_ID",
        "ASH_RPC_SOCKET",
        "ASH_RPC_URL",
        "ASH_RPC_TOKEN",
        "ASH_HOME",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "ash-sb failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn ash_sb_adds_searches_lists_and_deletes_as_the_environment_says() {
    let ctx = Ctx::new();
    let server = Server::start(&ctx, &[]);
    let sb = |args: &[&str]| {
        ash_sb()
            .env("ASH_RPC_SOCKET", &server.socket)
            .env("ASH_USER_ID", "alice")
            .args(args)
            .output()
            .unwrap()
    };
    let added = ok(sb(&["memory", "add", "I am vegetarian", "--source", "sandbox"]));
    assert!(added.contains("I am vegetarian"), "{added}");
    let found = ok(sb(&["memory", "search", "what do I eat?"]));
    assert!(found.contains("I am vegetarian"), "{found}");
    let json: Value = serde_json::from_str(&ok(sb(&["--json", "memory", "list"]))).unwrap();
    assert_eq!(contents(&json["memories"]), ["I am vegetarian"]);
    assert_eq!(json["memories"][0]["owner_user_id"], "alice");
    let context = ok(sb(&["memory", "context", "Dinner plans tonight?"]));
    assert!(context.contains("## About the user\n\n- I am vegetarian"), "{context}");
    // What ash-sb stored is alice's, as the CLI sees it.
    assert_eq!(ctx.search("alice", "what do I eat")[0], "I am vegetarian");
    assert!(ctx.search("bob", "what do I eat").is_empty());
    let id = json["memories"][0]["id"].as_str().unwrap();
    ok(sb(&["memory", "delete", id]));
    assert!(ctx.search("alice", "vegetarian").is_empty());
    let bad = sb(&["memory", "delete", id]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no memory"), "{bad:?}");
    let empty = sb(&["memory", "delete", ""]);
    assert_eq!(empty.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&empty.stderr).contains("no memory id given"),
        "{empty:?}"
    );
}

#[test]
fn ash_sb_with_a_token_over_tcp_cannot_claim_another_user() {
    let ctx = Ctx::new();
    ctx.add("bob", "I keep my bike in the garage");
    let (token, _) = issue_token(&ctx, "alice", None, &[]);
    let port = free_port();
    let server = Server::start(&ctx, &["--listen", &format!("127.0.0.1:{port}")]);
    let sb = |user: &str, args: &[&str]| {
        ash_sb()
            .env("ASH_RPC_URL", format!("tcp://127.0.0.1:{port}"))
            .env("ASH_RPC_TOKEN", &token)
            .env("ASH_USER_ID", user)
            .args(args)
            .output()
            .unwrap()
    };
    ok(sb("alice", &["memory", "add", "I cycle to work"]));
    let forged = sb("bob", &["memory", "list"]);
    assert_eq!(forged.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&forged.stderr).contains("acts for user \"alice\" only"),
        "{forged:?}"
    );
    let mine = ok(sb("alice", &["--json", "memory", "search", "bike garage"]));
    let hits: Value = serde_json::from_str(&mine).unwrap();
    assert!(contents(&hits["hits"]).iter().all(|c| c == "I cycle to work"), "{hits}");
    // A correction through the token reaches alice's memory and no one else's.
    let bobs = ctx.json(&["--user", "bob", "list"])[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // (The home holds the server's socket, which a snapshot cannot read: compare the lines.)
    let before = ctx.memory_lines();
    let stolen = sb("alice", &["memory", "correct", &bobs, "I sold my bike"]);
    assert_eq!(stolen.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&stolen.stderr).contains("no memory"),
        "{stolen:?}"
    );
    assert_eq!(ctx.memory_lines(), before, "a refused correction changed the memories");
    let cycle = ctx.json(&["--user", "alice", "list"])[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let fixed = ok(sb("alice", &["memory", "correct", &cycle, "I take the train to work"]));
    assert!(
        fixed.starts_with("Corrected") && fixed.contains("replaces") && fixed.contains("I cycle to work"),
        "{fixed}"
    );
    assert_eq!(
        ctx.search("alice", "how do I get to work")[0],
        "I take the train to work"
    );
    assert_eq!(ctx.search("bob", "bike")[0], "I keep my bike in the garage");
    // Without the token, TCP answers nothing.
    let anonymous = ash_sb()
        .env("ASH_RPC_URL", format!("127.0.0.1:{port}"))
        .args(["memory", "list"])
        .output()
        .unwrap();
    assert_eq!(anonymous.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&anonymous.stderr).contains("ASH_RPC_TOKEN"),
        "{anonymous:?}"
    );
    drop(server);
}

#[test]
fn ash_sb_says_how_to_start_a_missing_server() {
    let ctx = Ctx::new();
    let socket = ctx.home().join("run/ash.sock");
    let out = ash_sb()
        .env("ASH_RPC_SOCKET", &socket)
        .args(["memory", "list"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains(&format!("no ash-memory server at {}", socket.display()))
            && stderr.contains("ash-memory serve"),
        "{stderr}"
    );
}

#[test]
fn one_process_holding_idle_connections_cannot_lock_other_sandboxes_out() {
    let ctx = Ctx::new();
    let (token, _) = issue_token(&ctx, "alice", None, &[]);
    let sandbox = ctx.home().join("sandbox/ash.sock");
    let server = Server::start(&ctx, &["--sandbox-socket", sandbox.to_str().unwrap()]);
    // More connections than the socket has slots (512), none of which ever authenticates.
    let idle: Vec<UnixStream> = (0..520)
        .map(|_| UnixStream::connect(&sandbox).expect("connect to the sandbox socket"))
        .collect();
    // Another sandbox (another process) is served at once.
    let added = ash_sb()
        .env("ASH_RPC_SOCKET", &sandbox)
        .env("ASH_RPC_TOKEN", &token)
        .env("ASH_USER_ID", "alice")
        .args(["memory", "add", "I water the plants on Sundays"])
        .output()
        .unwrap();
    assert!(added.status.success(), "{added:?}\n{}", server.log());
    assert_eq!(ctx.search("alice", "plants"), ["I water the plants on Sundays"]);
    // The flooding process kept its share; every connection past it was told why and
    // closed (the kernel hands connections over in the order they came).
    let share = 16;
    for mut extra in idle.into_iter().skip(share) {
        let mut answer = String::new();
        extra.read_to_string(&mut answer).unwrap();
        let answer: Value = serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{e}: {answer:?}"));
        assert_eq!(answer["error"]["code"], -32004, "{answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("not presented a token"),
            "{answer}"
        );
    }
    // The owner's socket never counts connections per process.
    let owners: Vec<Client> = (0..share + 4).map(|_| server.client()).collect();
    for mut owner in owners {
        assert_eq!(owner.ok("health", json!({}))["status"], "ok");
    }
}
