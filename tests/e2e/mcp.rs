//! MCP with a real client nobody here wrote: the official Python SDK (`mcp` from PyPI,
//! installed once per target directory into a virtual environment) drives initialize,
//! tools/list and tools/call against `ash-memory mcp` on stdio and `serve --mcp` over
//! streamable HTTP.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::support::ctx::{Ctx, cache_dir};
use crate::support::fixtures::free_port;
use crate::support::server::{Server, issue_token};

/// A Python with `tests/mcp/requirements.txt` installed, made on first use.
fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-venv");
        let requirements = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/mcp/requirements.txt");
        let wanted = std::fs::read_to_string(&requirements).expect("tests/mcp/requirements.txt");
        let python = venv.join("bin/python3");
        let stamp = venv.join("installed.txt");
        if std::fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
            let _ = std::fs::remove_dir_all(&venv);
            let made = Command::new("python3")
                .args(["-m", "venv"])
                .arg(&venv)
                .status()
                .expect("python3 runs");
            assert!(made.success(), "python3 -m venv failed: install Python 3.10 or newer");
            let installed = Command::new(&python)
                .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r"])
                .arg(&requirements)
                .status()
                .expect("pip runs");
            assert!(installed.success(), "pip install -r {} failed", requirements.display());
            std::fs::write(&stamp, &wanted).unwrap();
        }
        python
    })
}

/// Runs the client script with `calls` ([name, arguments] pairs); returns its report.
pub(crate) fn client(args: &[&str], calls: Value) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/mcp/client.py");
    let mut child = Command::new(python())
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the MCP client runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(calls.to_string().as_bytes())
        .unwrap();
    let mut stdout = String::new();
    child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the MCP client failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("the report is not JSON ({e}): {stdout}"))
}

pub(crate) fn texts(report: &Value) -> Vec<(String, bool)> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["text"].as_str().unwrap().to_owned(), r["is_error"].as_bool().unwrap()))
        .collect()
}

#[test]
fn a_desktop_app_drives_ash_memory_mcp_on_stdio() {
    if crate::support::ctx::files_only("the MCP client starts the server with an environment of its own") {
        return;
    }
    let ctx = Ctx::new();
    ctx.add("bob", "I am training for a marathon");
    let env = json!({
        "ASH_HOME": ctx.home(), "ASH_CACHE_DIR": cache_dir(), "ASH_USER_ID": "alice",
    });
    let calls = json!([
        ["remember", {"facts": [{"content": "I live in Lisbon"}, {"content": "My wife Sarah loves tulips", "subjects": ["my wife Sarah"]}]}],
        ["remember", {"content": "I live in Porto"}],
        ["recall", {"query": "where do I live?"}],
        ["recall", {"query": "marathon training"}],
        ["list_memories", {"limit": 10}],
        ["people", {}],
        ["get_context", {"message": "Which flowers should I buy for my wife?"}],
        ["remember", {"content": "my api key is sk-live-51HGs8d7f6g5h4j3k2l1"}],
        ["forget", {"memory_id": "not-a-memory-id"}],
        ["log_turn", {"session": "monday", "user_message": "I'm allergic to shellfish. My password is hunter2", "assistant_message": "Noted."}],
        ["get_context", {"message": "Can I eat shellfish tonight?", "session": "tuesday"}],
    ]);
    let bin = env!("CARGO_BIN_EXE_ash-memory");
    let report = client(&["stdio", &env.to_string(), bin, "mcp"], calls);

    assert_eq!(report["server"]["name"], "ash-memory");
    // The newest version that still begins with `initialize` (rmcp 3.9 and the SDK client).
    assert_eq!(report["server"]["protocol"], "2025-11-25");
    let names: Vec<&str> = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "remember",
            "recall",
            "correct",
            "forget",
            "list_memories",
            "memory_history",
            "people",
            "get_context",
            "log_turn"
        ]
    );
    assert!(
        report["tools"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["input_schema"]["type"] == "object")
    );
    // What a client may show and assume: every tool has a title; the ones that only read
    // say so, only `forget` destroys, and no tool reaches beyond the home.
    let hints: Vec<(&str, &str, bool, bool)> = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let a = &t["annotations"];
            assert_eq!(a["title"], t["title"], "{t}");
            assert_eq!(a["openWorldHint"], false, "{t}");
            (
                t["name"].as_str().unwrap(),
                t["title"].as_str().unwrap_or_else(|| panic!("no title: {t}")),
                a["readOnlyHint"].as_bool().unwrap(),
                a["destructiveHint"].as_bool().unwrap(),
            )
        })
        .collect();
    let read_only: Vec<&str> = hints.iter().filter(|h| h.2).map(|h| h.0).collect();
    assert_eq!(
        read_only,
        ["recall", "list_memories", "memory_history", "people", "get_context"]
    );
    let destructive: Vec<&str> = hints.iter().filter(|h| h.3).map(|h| h.0).collect();
    assert_eq!(destructive, ["forget"]);
    assert_eq!(hints[3].1, "Forget a memory");

    // Every tool declares the JSON it answers beside its text (the SDK client checks each
    // answer against it): the host's tools and the component's alike.
    let structured: Vec<&str> = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["output_schema"].is_object())
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(structured, names);
    // Each memory list_memories gave is the one `list --json` gives (later calls may add more).
    let listed = report["results"][4]["structured"]["memories"].as_array().unwrap();
    let cli = ctx.json(&["--user", "alice", "list", "--limit", "50"]);
    assert!(listed.iter().any(|m| m["content"] == "I live in Porto"), "{listed:?}");
    for m in listed {
        assert!(
            cli.as_array().unwrap().contains(m),
            "{m} is not as `list --json` shows it"
        );
    }
    let context = &report["results"][6]["structured"];
    assert_eq!(context["markdown"], report["results"][6]["text"]);
    assert!(
        context["people"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "Sarah"),
        "{context}"
    );
    let contents = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap_or_else(|| panic!("not a list: {list}"))
            .iter()
            .map(|m| m["content"].as_str().unwrap().to_owned())
            .collect()
    };
    let told = &report["results"][0]["structured"];
    assert_eq!(
        contents(&told["remembered"]),
        ["I live in Lisbon", "My wife Sarah loves tulips"],
        "{told}"
    );
    let moved = &report["results"][1]["structured"];
    assert_eq!(contents(&moved["remembered"]), ["I live in Porto"], "{moved}");
    assert_eq!(contents(&moved["replaced"]), ["I live in Lisbon"], "{moved}");
    let found = &report["results"][2]["structured"]["memories"];
    assert_eq!(contents(found)[0], "I live in Porto", "{found}");
    let cli = ctx.json(&["--user", "alice", "search", "where do I live?"]);
    assert_eq!(found[0]["id"], cli["hits"][0]["id"], "the same memory the CLI finds");
    assert!(found[0]["score"].as_f64().is_some_and(|s| s > 0.0), "{found}");
    assert!(
        !contents(&report["results"][3]["structured"]["memories"])
            .iter()
            .any(|c| c.contains("marathon")),
        "bob's memory reached alice as data"
    );

    let results = texts(&report);
    assert!(!results[0].1 && !results[1].1, "{results:?}");
    assert!(
        results[2].0.contains("I live in Porto") && !results[2].0.contains("Lisbon"),
        "{results:?}"
    );
    assert!(
        !results[3].0.contains("marathon"),
        "bob's memory reached alice: {results:?}"
    );
    // Lisbon was replaced by Porto: two live memories.
    assert!(results[4].0.starts_with("2 memories"), "{results:?}");
    assert!(results[1].0.contains("replaces: \"I live in Lisbon\""), "{results:?}");
    assert!(results[5].0.contains("Sarah (the user's wife)"), "{results:?}");
    assert!(results[6].0.contains("Sarah loves tulips"), "{results:?}");
    assert!(
        results[7].1 && results[7].0.contains("refused") && !results[7].0.contains("sk-live"),
        "{results:?}"
    );
    assert!(results[8].1 && results[8].0.contains("no memory"), "{results:?}");
    assert!(
        !results[9].1 && results[9].0.contains("secrets redacted"),
        "{results:?}"
    );
    assert!(
        results[10].0.contains("## Relevant past messages") && results[10].0.contains("allergic to shellfish"),
        "{results:?}"
    );
    assert!(!results[10].0.contains("hunter2"), "{results:?}");

    // Stored for alice, as the CLI sees it; the superseded Lisbon is in the history.
    let porto = ctx.json(&["--user", "alice", "search", "where do I live"])["hits"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let calls = json!([
        ["correct", {"id": porto, "content": "I live in Braga"}],
        // `id`, as `correct` names it, is understood by the host's tools too.
        ["memory_history", {"id": porto}],
        ["forget", {"memory_id": porto}],
        // Arguments that do not fit are an answer the model reads, as for `remember`.
        ["list_memories", {"limit": "ten"}],
        ["get_context", {"message": "where do I live?", "max_tokens": 0}],
        ["forget", {}]
    ]);
    let report = client(&["stdio", &env.to_string(), bin, "mcp"], calls);
    let results = texts(&report);
    assert!(
        !results[0].1
            && results[0]
                .0
                .starts_with("Corrected: \"I live in Braga\" replaces \"I live in Porto\""),
        "{results:?}"
    );
    let corrected = &report["results"][0]["structured"];
    assert_eq!(
        (
            &corrected["memory"]["content"],
            &corrected["replaced"]["content"],
            &corrected["replaced"]["id"]
        ),
        (&json!("I live in Braga"), &json!("I live in Porto"), &json!(porto)),
        "{corrected}"
    );
    assert!(
        results[1].0.contains("I live in Lisbon (id") && results[1].0.contains("(replaced)"),
        "{results:?}"
    );
    assert!(results[1].0.contains("I live in Braga"), "{results:?}");
    assert!(results[2].0.contains(&porto), "{results:?}");
    assert!(
        results[3].1 && results[3].0.contains("list_memories: invalid arguments"),
        "{results:?}"
    );
    assert!(results[4].1 && results[4].0.contains("max_tokens is 0"), "{results:?}");
    assert!(results[5].1 && results[5].0.contains("memory_id"), "{results:?}");
    assert_eq!(ctx.search("alice", "where do I live")[0], "I live in Braga");
    assert!(
        ctx.search("alice", "where do I live")
            .iter()
            .all(|c| c != "I live in Porto")
    );
}

#[test]
fn agent_apps_reach_serve_over_streamable_http_with_a_token_and_only_with_one() {
    let ctx = Ctx::new();
    ctx.add("bob", "I am training for a marathon");
    ctx.add("alice", "I prefer green tea");
    let (alice, alice_id) = issue_token(&ctx, "alice", None, &[]);
    let port = free_port();
    let _server = Server::start(&ctx, &["--mcp", &format!("127.0.0.1:{port}")]);
    let url = format!("http://127.0.0.1:{port}/mcp");

    let calls = json!([
        ["recall", {"query": "what do I drink? marathon"}],
        ["remember", {"content": "My standup is at 9:30"}],
        ["list_memories", {}],
    ]);
    let report = client(&["http", &url, &alice], calls);
    let results = texts(&report);
    assert!(
        results[0].0.contains("green tea") && !results[0].0.contains("marathon"),
        "{results:?}"
    );
    assert!(results[2].0.starts_with("2 memories"), "{results:?}");
    let stored = ctx.json(&["--user", "alice", "list"]);
    assert_eq!(stored[0]["content"], "My standup is at 9:30");
    assert_eq!(stored[0]["owner_user_id"], "alice");

    // No token, a wrong one, or a revoked one: 401 before MCP sees the request.
    let status = |token: Option<&str>| {
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        answer.split_whitespace().nth(1).unwrap_or_default().to_owned()
    };
    assert_eq!(status(None), "401");
    assert_eq!(status(Some("ash_not-a-real-token")), "401");
    ctx.ok(&["token", "revoke", &alice_id]);
    assert_eq!(status(Some(&alice)), "401");
}
