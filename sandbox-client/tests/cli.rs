//! The built `ash-sb` binary against a tiny in-test server: what it sends (method, params,
//! `auth` first with a token), what it prints, and how it fails. No real server is needed:
//! the protocol spec is the contract, and these fakes answer as it says.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;

use serde_json::{Value, json};

const ID: &str = "0b8f3c2e-6d1a-4f7e-9a51-3c2d1e0f9a8b";

/// A fresh folder under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("ash-sb-cli-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// How the fake server answers a request: the whole answer line, or nothing (hang up).
type Answer = Box<dyn Fn(&Value) -> Option<Vec<u8>> + Send>;

/// An answer with `result`, for the request's id.
fn ok(result: Value) -> Answer {
    Box::new(move |req| Some(line(&json!({"jsonrpc": "2.0", "id": req["id"], "result": result}))))
}

/// A JSON-RPC error answer.
fn fail(code: i64, message: &str, kind: &str) -> Answer {
    let error = json!({"code": code, "message": message, "data": {"kind": kind}});
    Box::new(move |req| Some(line(&json!({"jsonrpc": "2.0", "id": req["id"], "error": error}))))
}

fn line(v: &Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(v).unwrap();
    bytes.push(b'\n');
    bytes
}

/// Serves one connection: for each answer in turn, reads one request line and answers it.
/// Returns the requests it read.
fn serve<S: std::io::Read + Write + Send + 'static>(
    accept: impl FnOnce() -> S + Send + 'static,
    answers: Vec<Answer>,
) -> JoinHandle<Vec<Value>> {
    std::thread::spawn(move || {
        let stream = accept();
        let mut reader = BufReader::new(stream);
        let mut requests = Vec::new();
        for answer in answers {
            let mut text = String::new();
            if reader.read_line(&mut text).unwrap() == 0 {
                break;
            }
            let request: Value = serde_json::from_str(&text).expect("each request is one JSON line");
            let reply = answer(&request);
            requests.push(request);
            match reply {
                Some(bytes) => {
                    // The client may hang up first (an oversized answer): not the test's concern.
                    let _ = reader.get_mut().write_all(&bytes);
                }
                None => break,
            }
        }
        requests
    })
}

fn serve_unix(path: &Path, answers: Vec<Answer>) -> JoinHandle<Vec<Value>> {
    let listener = UnixListener::bind(path).unwrap();
    serve(move || listener.accept().unwrap().0, answers)
}

/// `ash-sb` with none of the caller's ASH_* settings, and a home with no server in it.
fn ash_sb(home: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ash-sb"));
    for var in [
        "ASH_RPC_SOCKET",
        "ASH_RPC_URL",
        "ASH_RPC_TOKEN",
        "ASH_USER_ID",
        "ASH_CHAT_ID",
        "ASH_RPC_TIMEOUT_SECS",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("ASH_HOME", home.join("no-home"));
    cmd
}

fn run(cmd: &mut Command) -> (Output, String, String) {
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    (out, stdout, stderr)
}

fn memory(content: &str) -> Value {
    json!({
        "id": ID, "content": content, "memory_type": "preference",
        "created_at": "2026-03-01T10:20:30.123456Z", "observed_at": null, "expires_at": null,
        "owner_user_id": "alice", "chat_id": null, "source": "sandbox", "subject_person_ids": [],
        "superseded_at": null, "superseded_by_id": null, "archived_at": null, "archive_reason": null,
    })
}

#[test]
fn search_sends_the_caller_and_prints_the_hits() {
    let dir = TempDir::new();
    let sock = dir.0.join("ash.sock");
    let mut hit = memory("Sarah likes green tea");
    hit["score"] = json!(0.81234);
    hit["similarity"] = json!(0.7);
    hit["subjects"] = json!(["Sarah"]);
    let server = serve_unix(
        &sock,
        vec![ok(
            json!({"hits": [hit], "notices": ["words only: the embedder is down"]}),
        )],
    );
    let (out, stdout, stderr) = run(ash_sb(&dir.0)
        .args(["memory", "search", "what does Sarah drink", "--limit", "3"])
        .env("ASH_RPC_SOCKET", &sock)
        .env("ASH_USER_ID", "alice")
        .env("ASH_CHAT_ID", "team"));
    assert!(out.status.success(), "{stderr}");
    let requests = server.join().unwrap();
    assert_eq!(requests.len(), 1);
    let req = &requests[0];
    assert_eq!(req["jsonrpc"], "2.0");
    assert!(req["id"].is_u64());
    assert_eq!(req["method"], "memory.search");
    assert_eq!(
        req["params"],
        json!({"query": "what does Sarah drink", "limit": 3, "user_id": "alice", "chat_id": "team"})
    );
    assert_eq!(
        stdout,
        format!(
            "SCORE   ID                                    TYPE          CONTENT\n\
             0.8123  {ID}  preference    Sarah likes green tea  (about Sarah)\n"
        )
    );
    assert_eq!(stderr, "note: words only: the embedder is down\n");
}

#[test]
fn a_token_is_sent_first_and_the_caller_still_goes_with_the_call() {
    let dir = TempDir::new();
    let sock = dir.0.join("ash.sock");
    let added = json!({"memories": [memory("likes tea")], "superseded": [], "evicted": []});
    let server = serve_unix(&sock, vec![ok(json!({"user_id": "alice", "chat_id": null})), ok(added)]);
    let (out, stdout, stderr) = run(ash_sb(&dir.0)
        .args([
            "memory",
            "add",
            "likes tea",
            "--subject",
            "Sarah",
            "--type",
            "preference",
            "--shared",
        ])
        .args(["--source", "agent", "--expires-days", "30"])
        .env("ASH_RPC_SOCKET", &sock)
        .env("ASH_RPC_TOKEN", "ash_secret")
        .env("ASH_USER_ID", "alice"));
    assert!(out.status.success(), "{stderr}");
    let requests = server.join().unwrap();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0]["method"], "auth");
    assert_eq!(requests[0]["params"], json!({"token": "ash_secret"}));
    assert_eq!(requests[1]["method"], "memory.add");
    assert_eq!(
        requests[1]["params"],
        json!({
            "content": "likes tea", "subjects": ["Sarah"], "memory_type": "preference", "shared": true,
            "source": "agent", "expires_days": 30, "user_id": "alice",
        })
    );
    assert_ne!(requests[0]["id"], requests[1]["id"]);
    assert_eq!(stdout, format!("Remembered {ID} [preference] likes tea\n"));
}

#[test]
fn json_prints_the_result_as_one_document() {
    let dir = TempDir::new();
    let sock = dir.0.join("ash.sock");
    let result = json!({"memories": [memory("likes tea")]});
    let server = serve_unix(&sock, vec![ok(result.clone())]);
    let (out, stdout, stderr) = run(ash_sb(&dir.0)
        .args(["--json", "memory", "list", "--limit", "5", "--include-expired"])
        .env("ASH_RPC_SOCKET", &sock));
    assert!(out.status.success(), "{stderr}");
    let requests = server.join().unwrap();
    assert_eq!(requests[0]["method"], "memory.list");
    assert_eq!(requests[0]["params"], json!({"limit": 5, "include_expired": true}));
    let printed: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(printed, result);
}

#[test]
fn list_delete_and_context_print_like_the_main_cli() {
    let dir = TempDir::new();
    let sock = dir.0.join("ash.sock");
    let cases: [(&[&str], Value, &str, Value, String); 3] = [
        (
            &["memory", "list"],
            json!({"memories": [memory("likes tea")]}),
            "memory.list",
            json!({}),
            format!(
                "ID                                    TYPE          CREATED               CONTENT\n\
                 {ID}  preference    2026-03-01T10:20:30   likes tea\n"
            ),
        ),
        (
            &["memory", "delete", "0b8f"],
            json!({"deleted": ID}),
            "memory.delete",
            json!({"memory_id": "0b8f"}),
            format!("Deleted {ID} (a copy is kept in memory/archive.jsonl)\n"),
        ),
        (
            &["memory", "context", "what should I cook?", "--max-tokens", "300"],
            json!({"markdown": "## What you know\n- Sarah is vegetarian\n", "estimated_tokens": 9, "dropped": 0,
                   "people": [], "memories": []}),
            "memory.context",
            json!({"message": "what should I cook?", "max_tokens": 300}),
            "## What you know\n- Sarah is vegetarian\n".to_owned(),
        ),
    ];
    for (args, result, method, params, expected) in cases {
        let _ = std::fs::remove_file(&sock);
        let server = serve_unix(&sock, vec![ok(result)]);
        let (out, stdout, stderr) = run(ash_sb(&dir.0).args(args).env("ASH_RPC_SOCKET", &sock));
        assert!(out.status.success(), "{stderr}");
        let requests = server.join().unwrap();
        assert_eq!(requests[0]["method"], method);
        assert_eq!(requests[0]["params"], params);
        assert_eq!(stdout, expected);
        assert_eq!(stderr, "");
    }
}

#[test]
fn an_error_answer_exits_1_with_its_message() {
    for json_flag in [false, true] {
        let dir = TempDir::new();
        let sock = dir.0.join("ash.sock");
        let server = serve_unix(&sock, vec![fail(-32012, "no memory matches 0b8f", "memory_not_found")]);
        let mut cmd = ash_sb(&dir.0);
        if json_flag {
            cmd.arg("--json");
        }
        let (out, stdout, stderr) = run(cmd.args(["memory", "delete", "0b8f"]).env("ASH_RPC_SOCKET", &sock));
        server.join().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(stdout, "");
        assert_eq!(stderr, "error: no memory matches 0b8f\n");
    }
}

#[test]
fn a_failed_auth_stops_before_the_call() {
    let dir = TempDir::new();
    let sock = dir.0.join("ash.sock");
    let server = serve_unix(
        &sock,
        vec![
            fail(-32001, "authentication required or token invalid", "unauthorized"),
            ok(json!({"memories": []})),
        ],
    );
    let (out, _, stderr) = run(ash_sb(&dir.0)
        .args(["memory", "list"])
        .env("ASH_RPC_SOCKET", &sock)
        .env("ASH_RPC_TOKEN", "ash_wrong"));
    let requests = server.join().unwrap();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0]["method"], "auth");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr, "error: authentication required or token invalid\n");
}

#[test]
fn an_oversized_answer_is_refused() {
    let dir = TempDir::new();
    let sock = dir.0.join("ash.sock");
    let huge: Answer = Box::new(|_| {
        let mut bytes = vec![b'x'; 16 * 1024 * 1024 + 10];
        bytes.push(b'\n');
        Some(bytes)
    });
    let server = serve_unix(&sock, vec![huge]);
    let (out, stdout, stderr) = run(ash_sb(&dir.0).args(["memory", "list"]).env("ASH_RPC_SOCKET", &sock));
    server.join().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout, "");
    assert_eq!(stderr, "error: the server's answer is larger than 16 MiB; refused\n");
}

#[test]
fn a_missing_socket_says_how_to_start_a_server() {
    let dir = TempDir::new();
    let sock = dir.0.join("nothing-here.sock");
    let (out, stdout, stderr) = run(ash_sb(&dir.0).args(["memory", "list"]).env("ASH_RPC_SOCKET", &sock));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        format!(
            "error: no ash-memory server at {}; start one with `ash-memory serve`\n",
            sock.display()
        )
    );
}

#[test]
fn without_a_socket_or_url_it_looks_in_ash_home_and_empty_variables_are_unset() {
    let dir = TempDir::new();
    let home = dir.0.join("home");
    std::fs::create_dir_all(home.join("run")).unwrap();
    let (out, _, stderr) = run(ash_sb(&dir.0).args(["memory", "list"]).env("ASH_HOME", &home));
    assert_eq!(out.status.code(), Some(1));
    let expected = home.join("run").join("ash.sock");
    assert!(
        stderr.contains(&format!("no ash-memory server at {}", expected.display())),
        "{stderr}"
    );

    // Exported but empty variables count as not set.
    let server = serve_unix(&expected, vec![ok(json!({"memories": []}))]);
    let (out, stdout, stderr) = run(ash_sb(&dir.0)
        .args(["memory", "list"])
        .env("ASH_HOME", &home)
        .env("ASH_RPC_SOCKET", "")
        .env("ASH_RPC_URL", "")
        .env("ASH_RPC_TOKEN", "")
        .env("ASH_USER_ID", "")
        .env("ASH_CHAT_ID", ""));
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stdout, "No memories.\n");
    let requests = server.join().unwrap();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0]["method"], "memory.list");
    assert_eq!(requests[0]["params"], json!({}));
}

#[test]
fn tcp_with_a_plain_host_and_port() {
    let dir = TempDir::new();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = serve(
        move || listener.accept().unwrap().0,
        vec![
            ok(json!({"user_id": "bob", "chat_id": "team"})),
            ok(json!({"hits": []})),
        ],
    );
    let (out, stdout, stderr) = run(ash_sb(&dir.0)
        .args(["memory", "search", "tea"])
        .env("ASH_RPC_URL", addr.to_string())
        .env("ASH_RPC_TOKEN", "ash_tok")
        .env("ASH_USER_ID", "bob")
        .env("ASH_CHAT_ID", "team"));
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stdout, "No memories match.\n");
    let requests = server.join().unwrap();
    assert_eq!(requests[0]["method"], "auth");
    assert_eq!(
        requests[1]["params"],
        json!({"query": "tea", "user_id": "bob", "chat_id": "team"})
    );
}

#[test]
fn a_socket_flag_beats_the_url_variable() {
    let dir = TempDir::new();
    let sock = dir.0.join("ash.sock");
    let server = serve_unix(&sock, vec![ok(json!({"memories": []}))]);
    let (out, _, stderr) = run(ash_sb(&dir.0)
        .args(["memory", "list", "--socket"])
        .arg(&sock)
        .env("ASH_RPC_URL", "tcp://127.0.0.1:1"));
    assert!(out.status.success(), "{stderr}");
    server.join().unwrap();

    let (out, _, stderr) = run(ash_sb(&dir.0)
        .args(["memory", "list"])
        .env("ASH_RPC_SOCKET", &sock)
        .env("ASH_RPC_URL", "tcp://127.0.0.1:1"));
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.starts_with("error: both a socket"), "{stderr}");
}

/// The server reads the request and answers it only after 5 s (or once the client has
/// finished): a client whose 1 s timeout did not fire would get that answer and succeed.
#[test]
fn a_hung_server_times_out() {
    let dir = TempDir::new();
    let sock = dir.0.join("ash.sock");
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let late = ok(json!({"memories": []}));
    let server = serve_unix(
        &sock,
        vec![Box::new(move |req| {
            let _ = rx.recv_timeout(std::time::Duration::from_secs(5));
            late(req)
        })],
    );
    let (out, _, stderr) = run(ash_sb(&dir.0)
        .args(["memory", "list"])
        .env("ASH_RPC_SOCKET", &sock)
        .env("ASH_RPC_TIMEOUT_SECS", "1"));
    tx.send(()).unwrap();
    assert_eq!(server.join().unwrap().len(), 1, "the request reached the server");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr,
        format!(
            "error: no answer from the server at {} within 1 s (see ASH_RPC_TIMEOUT_SECS)\n",
            sock.display()
        )
    );
}

#[test]
fn a_bad_url_is_reported() {
    let dir = TempDir::new();
    let (out, _, stderr) = run(ash_sb(&dir.0)
        .args(["memory", "list"])
        .env("ASH_RPC_URL", "http://127.0.0.1:80"));
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.starts_with("error: bad server URL"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1);
}
