//! `ash-memory mcp` fed raw lines, as a client that makes mistakes would send them: each
//! gets an answer, and the server keeps serving.

use std::io::Write as _;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::support::ctx::Ctx;

/// `ash-memory mcp` speaking raw lines, as a client that makes mistakes would: each line
/// sent is read back, one answer line at a time.
struct RawMcp {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    answers: std::sync::mpsc::Receiver<String>,
}

impl RawMcp {
    fn start(ctx: &Ctx) -> RawMcp {
        let mut child = ctx
            .command()
            .args(["--user", "alice", "mcp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ash-memory mcp starts");
        let stdout = child.stdout.take().unwrap();
        let (send, answers) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
                let Ok(line) = line else { return };
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        RawMcp {
            stdin: child.stdin.take(),
            child,
            answers,
        }
    }

    fn send(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next answer line. (The wait only keeps a broken server from hanging the suite.)
    fn next(&self) -> Value {
        let line = self
            .answers
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("an answer line");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }
}

#[test]
fn ash_memory_mcp_answers_every_line_it_cannot_take_and_keeps_serving() {
    let ctx = Ctx::new();
    let mut mcp = RawMcp::start(&ctx);
    mcp.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}})
        .to_string()
        .as_bytes(),
    );
    let init = mcp.next();
    assert_eq!(init["result"]["serverInfo"]["name"], "ash-memory");
    // An older client is answered in its own version.
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
    mcp.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let long = format!("\"{}\"", "x".repeat(17 << 20));
    let bad: [(&str, &[u8], i64, Value); 6] = [
        ("not JSON", b"{not json", -32700, Value::Null),
        ("invalid UTF-8", b"\"\xff\xfe\"", -32700, Value::Null),
        ("a NUL line", b"\0", -32700, Value::Null),
        ("nesting deeper than 128", deep.as_bytes(), -32700, Value::Null),
        ("a line over 16 MiB", long.as_bytes(), -32600, Value::Null),
        (
            "JSON that is no request",
            br#"{"jsonrpc":"2.0","id":7}"#,
            -32600,
            json!(7),
        ),
    ];
    for (i, (what, line, code, id)) in bad.into_iter().enumerate() {
        mcp.send(line);
        // A ping after each: its answer must come after the bad line's, not instead of it.
        let ping = 100 + i as i64;
        mcp.send(
            json!({"jsonrpc": "2.0", "id": ping, "method": "ping"})
                .to_string()
                .as_bytes(),
        );
        let answer = mcp.next();
        assert_eq!(
            (&answer["error"]["code"], &answer["id"]),
            (&json!(code), &id),
            "{what}: {answer}"
        );
        let pong = mcp.next();
        assert_eq!(pong["id"], ping, "{what}: the server stopped serving: {pong}");
        assert!(pong.get("result").is_some(), "{what}: {pong}");
    }

    // And a real call still works after all of them.
    mcp.send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "remember", "arguments": {"content": "I drink green tea"}}})
        .to_string()
        .as_bytes(),
    );
    let remembered = mcp.next();
    assert_eq!(remembered["result"]["isError"], false, "{remembered}");
    // Arguments the schemas do not name are refused, not dropped; a limit of 0 too.
    for (i, (tool, arguments, says)) in [
        (
            "remember",
            json!({"content": "I drink coffee", "user_id": "bob"}),
            "comes from the connection",
        ),
        (
            "remember",
            json!({"content": "I drink coffee", "source": "chat"}),
            "unknown argument source",
        ),
        (
            "remember",
            json!({"content": "I drink coffee", "context": "at work"}),
            "unknown argument context",
        ),
        ("list_memories", json!({"limit": 0}), "the limit is 0"),
    ]
    .into_iter()
    .enumerate()
    {
        let id = 10 + i as i64;
        mcp.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                   "params": {"name": tool, "arguments": arguments}})
            .to_string()
            .as_bytes(),
        );
        let answer = mcp.next();
        assert_eq!(
            (answer["id"].clone(), answer["result"]["isError"].clone()),
            (json!(id), json!(true)),
            "{answer}"
        );
        assert!(
            answer["result"]["content"][0]["text"].as_str().unwrap().contains(says),
            "{answer}"
        );
    }
    drop(mcp.stdin.take());
    assert!(
        mcp.child.wait().unwrap().success(),
        "closing stdin ends the server cleanly"
    );
    assert_eq!(ctx.search("alice", "green tea"), ["I drink green tea"]);
}
