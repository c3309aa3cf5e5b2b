//! A real HTTP/1.1 server on 127.0.0.1 for the HTTP clients' tests: it records every
//! request and answers through a handler the test chooses. Each response closes its
//! connection, so every request is a fresh one the server sees.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::Value;

use crate::support::fixtures::hash_embedding;

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Request {
    pub path: String,
    pub authorization: Option<String>,
    pub body: Value,
}

/// What to answer.
pub enum Reply {
    Json(u16, Value),
    /// Hold the connection open without answering, for this long.
    Silence(Duration),
    /// This answer, after holding the connection open for this long.
    Late(Duration, Box<Reply>),
    /// These bytes as the body, whatever they are.
    Bytes(u16, Vec<u8>),
}

type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

pub struct Server {
    pub port: u16,
    pub requests: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts on a free loopback port.
    pub fn start(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Self {
        Self::start_on(0, handler)
    }

    /// Starts on this loopback port (0 for any).
    pub fn start_on(port: u16, handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("bind loopback");
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let (reqs, stopping) = (requests.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let (handler, reqs) = (handler.clone(), reqs.clone());
                std::thread::spawn(move || serve(stream, &*handler, &reqs));
            }
        });
        Server {
            port,
            requests,
            stop,
            thread: Some(thread),
        }
    }

    /// The API root to configure, like `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    pub fn count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(stream: TcpStream, handler: &Handler, requests: &Mutex<Vec<Request>>) {
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_owned();
    let (mut length, mut authorization) = (0usize, None);
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 || header == "\r\n" {
            break;
        }
        let (name, value) = header.split_once(':').unwrap_or((&header, ""));
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().unwrap_or(0),
            "authorization" => authorization = Some(value.trim().to_owned()),
            _ => {}
        }
    }
    let mut body = vec![0u8; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let request = Request {
        path,
        authorization,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    };
    requests.lock().unwrap().push(request.clone());
    let mut stream = stream;
    let mut reply = handler(&request);
    while let Reply::Late(d, later) = reply {
        std::thread::sleep(d);
        reply = *later;
    }
    match reply {
        Reply::Silence(d) => std::thread::sleep(d),
        Reply::Late(..) => unreachable!("unwrapped above"),
        Reply::Bytes(status, body) => {
            let head = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(&body));
        }
        Reply::Json(status, value) => {
            let body = value.to_string();
            let head = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream
                .write_all(head.as_bytes())
                .and_then(|()| stream.write_all(body.as_bytes()));
        }
    }
}

/// A chat-completions answer with this content.
pub fn chat(content: &str) -> Reply {
    Reply::Json(
        200,
        serde_json::json!({ "choices": [{ "index": 0, "message": { "role": "assistant", "content": content } }] }),
    )
}

/// An embeddings answer for the request's inputs, each embedded by
/// [`hash_embedding`]. Stands in for a model server, not for a model.
pub fn embeddings(request: &Request, dim: usize) -> Reply {
    let inputs: Vec<String> = match &request.body["input"] {
        Value::Array(items) => items.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect(),
        Value::String(s) => vec![s.clone()],
        _ => Vec::new(),
    };
    let data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .map(|(i, text)| serde_json::json!({ "object": "embedding", "index": i, "embedding": hash_embedding(text, dim) }))
        .collect();
    Reply::Json(200, serde_json::json!({ "object": "list", "data": data }))
}
