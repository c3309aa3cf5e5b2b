//! A running `ash-memory serve` for the tests, and clients that speak its JSON-RPC over
//! the Unix socket or TCP. The server's log is kept and printed if a test fails while
//! it runs; the process is killed when the handle drops.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::ctx::Ctx;

pub struct Server {
    child: Option<Child>,
    log: PathBuf,
    _log_dir: tempfile::TempDir,
    pub socket: PathBuf,
}

impl Server {
    /// Starts `serve` on `ctx`'s home with these extra arguments and waits until it answers.
    pub fn start(ctx: &Ctx, args: &[&str]) -> Server {
        Server::start_with(ctx, args, &[])
    }

    /// [`Server::start`] with these environment variables set for the server alone.
    pub fn start_with(ctx: &Ctx, args: &[&str], env: &[(&str, &str)]) -> Server {
        let log_dir = tempfile::tempdir().expect("a temp dir");
        let log = log_dir.path().join("serve.log");
        let child = ctx
            .command()
            .envs(env.iter().copied())
            .arg("serve")
            .args(args)
            .env("ASH_LOG", "info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("a log file"))
            .spawn()
            .expect("serve starts");
        let mut server = Server {
            child: Some(child),
            log,
            _log_dir: log_dir,
            socket: ctx.home().join("run/ash.sock"),
        };
        server.wait_ready();
        server
    }

    fn wait_ready(&mut self) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(120) {
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().expect("the server's state"))
            {
                panic!(
                    "the server exited ({status}) before answering; its log:\n{}",
                    self.log()
                );
            }
            if let Ok(mut client) = Client::unix(&self.socket)
                && client.call("health", json!({})).get("result").is_some()
            {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the server did not answer within 120 s; its log:\n{}", self.log());
    }

    /// What the server logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// A new connection to the Unix socket.
    pub fn client(&self) -> Client {
        Client::unix(&self.socket).unwrap_or_else(|e| panic!("connect: {e}; log:\n{}", self.log()))
    }

    /// Waits until the log shows `text`.
    pub fn wait_for_log(&self, text: &str) {
        let start = Instant::now();
        while !self.log().contains(text) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the log never showed {text:?}:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Sends a signal (without waiting).
    pub fn send_signal(&self, signal: &str) {
        let sent = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &self.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
    }

    /// Sends a signal and waits for the exit.
    pub fn signal(self, signal: &str) -> ExitStatus {
        self.send_signal(signal);
        self.wait()
    }

    /// Waits for the server to exit.
    pub fn wait(mut self) -> ExitStatus {
        let status = self.child.take().expect("running").wait().expect("the server exits");
        eprintln!("server log:\n{}", self.log());
        status
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
            if std::thread::panicking() {
                eprintln!("server log:\n{}", self.log());
            }
        }
    }
}

/// One JSON-RPC connection.
pub struct Client {
    reader: BufReader<Box<dyn std::io::Read + Send>>,
    writer: Box<dyn std::io::Write + Send>,
    next_id: u64,
}

impl Client {
    pub fn unix(path: &Path) -> std::io::Result<Client> {
        let stream = UnixStream::connect(path)?;
        stream.set_read_timeout(Some(Duration::from_secs(120)))?;
        let reader: Box<dyn std::io::Read + Send> = Box::new(stream.try_clone()?);
        Ok(Client {
            reader: BufReader::new(reader),
            writer: Box::new(stream),
            next_id: 1,
        })
    }

    pub fn tcp(port: u16) -> Client {
        let stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect over TCP");
        stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        let reader: Box<dyn std::io::Read + Send> = Box::new(stream.try_clone().unwrap());
        Client {
            reader: BufReader::new(reader),
            writer: Box::new(stream),
            next_id: 1,
        }
    }

    /// Sends one request and returns the whole response object.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send_raw(
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
                .to_string()
                .as_bytes(),
        );
        let answer = self.read().expect("an answer");
        assert_eq!(answer["id"], json!(id), "answers come in order: {answer}");
        answer
    }

    /// The result of a call that must succeed.
    pub fn ok(&mut self, method: &str, params: Value) -> Value {
        let answer = self.call(method, params.clone());
        match answer.get("result") {
            Some(result) => result.clone(),
            None => panic!("{method} {params} failed: {answer}"),
        }
    }

    /// The error code of a call that must fail.
    pub fn code(&mut self, method: &str, params: Value) -> i64 {
        let answer = self.call(method, params.clone());
        answer["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("{method} {params} should fail: {answer}"))
    }

    /// Writes bytes and a newline.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("send");
        self.writer.write_all(b"\n").expect("send");
        self.writer.flush().expect("send");
    }

    /// Writes bytes and a newline, ignoring a peer that stopped reading.
    pub fn send_lossy(&mut self, bytes: &[u8]) {
        let _ = self
            .writer
            .write_all(bytes)
            .and_then(|()| self.writer.write_all(b"\n"))
            .and_then(|()| self.writer.flush());
    }

    /// The next answer line, or `None` at end of stream.
    pub fn read(&mut self) -> Option<Value> {
        let mut line = String::new();
        if self.reader.read_line(&mut line).expect("read an answer") == 0 {
            return None;
        }
        Some(serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
    }

    /// Whether the server closed the connection (reading hits the end).
    pub fn closed(&mut self) -> bool {
        let mut rest = Vec::new();
        self.reader.read_to_end(&mut rest).is_ok() && rest.is_empty()
    }
}

/// Mints a token for `user` (and `chat`) with the CLI; returns (token, id).
pub fn issue_token(ctx: &Ctx, user: &str, chat: Option<&str>, extra: &[&str]) -> (String, String) {
    let mut args = vec!["--user", user];
    if let Some(chat) = chat {
        args.extend(["--chat", chat]);
    }
    args.extend(["token", "issue"]);
    args.extend_from_slice(extra);
    let issued = ctx.json(&args);
    (
        issued["token"].as_str().expect("a token").to_owned(),
        issued["token_info"]["id"].as_str().expect("an id").to_owned(),
    )
}

/// The contents of memories in a result's `hits` or `memories`.
pub fn contents(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("not a list: {list}"))
        .iter()
        .map(|m| m["content"].as_str().expect("content").to_owned())
        .collect()
}
