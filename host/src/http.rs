//! The HTTP client behind the OpenAI-compatible embedder and language model: reqwest on
//! a small tokio runtime, with a timeout per request, bounded retries with backoff on 429
//! and 5xx, and TCP_NODELAY (without it, Nagle's algorithm and delayed ACKs stall each
//! small request by about 40 ms). API keys go in a header and never into a message.
//!
//! The runtime lives on a worker thread of the client's own, which serves requests sent
//! over a channel. The caller only waits on a plain channel, so [`HttpClient::post_json`]
//! works from any thread, including one that is driving an async runtime of the agent
//! host's (where blocking on a runtime of our own would panic).

use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::Value;

/// Why a request failed. Messages name the URL and the status, never a key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpError {
    #[error("{url}: no answer within {secs} s")]
    Timeout { url: String, secs: u64 },
    #[error("{url}: cannot connect ({reason})")]
    Connect { url: String, reason: String },
    #[error("{url}: HTTP {status}: {body}")]
    Status { url: String, status: u16, body: String },
    #[error("{url}: {reason}")]
    Invalid { url: String, reason: String },
}

/// The largest answer read from a service. An embedding answer for a batch of 256 texts
/// at 3072 dimensions is about 16 MB of JSON; anything larger is refused unread rather
/// than held in memory whole.
pub const MAX_BODY_BYTES: usize = 32 << 20;

/// A JSON-over-HTTP client for one service. Dropping it stops its worker thread.
pub struct HttpClient {
    /// Requests for the worker; `None` only while dropping.
    jobs: Option<mpsc::Sender<Job>>,
    worker: Option<JoinHandle<()>>,
}

/// One request for the worker, and where to send its answer.
struct Job {
    url: String,
    body: Value,
    reply: mpsc::SyncSender<Result<Value, HttpError>>,
}

impl HttpClient {
    /// A client whose requests time out after `timeout`, retried up to `retries` times
    /// on 429 and 5xx. The key, if any, is read once from the environment variable named.
    pub fn new(timeout: Duration, retries: u32, api_key_env: Option<&str>) -> Result<Self, String> {
        let api_key = api_key_env
            .and_then(|var| std::env::var(var).ok())
            .filter(|k| !k.is_empty());
        let (jobs, queue) = mpsc::channel::<Job>();
        let (ready, started) = mpsc::sync_channel::<Result<(), String>>(1);
        // The runtime is built, used and dropped on the worker thread only: dropping a
        // runtime on a thread that drives another one would panic as well.
        let worker = std::thread::Builder::new()
            .name("ash-memory-http".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        let _ = ready.send(Err(format!("cannot start the HTTP runtime: {e}")));
                        return;
                    }
                };
                let client = match reqwest::Client::builder()
                    .tcp_nodelay(true)
                    .timeout(timeout)
                    .connect_timeout(timeout.min(Duration::from_secs(10)))
                    .build()
                {
                    Ok(client) => client,
                    Err(e) => {
                        let _ = ready.send(Err(format!("cannot build the HTTP client: {e}")));
                        return;
                    }
                };
                let worker = Worker {
                    client,
                    timeout,
                    retries,
                    backoff: Duration::from_millis(250),
                    api_key,
                };
                if ready.send(Ok(())).is_err() {
                    return;
                }
                // Ends when the client is dropped, which closes the channel.
                while let Ok(job) = queue.recv() {
                    let answer = runtime.block_on(worker.post_json(&job.url, &job.body));
                    // The caller may be gone (it panicked while waiting); nobody to tell.
                    let _ = job.reply.send(answer);
                }
            })
            .map_err(|e| format!("cannot start the HTTP worker thread: {e}"))?;
        match started.recv() {
            Ok(Ok(())) => Ok(HttpClient {
                jobs: Some(jobs),
                worker: Some(worker),
            }),
            Ok(Err(message)) => {
                let _ = worker.join();
                Err(message)
            }
            Err(_) => {
                let _ = worker.join();
                Err("the HTTP worker thread stopped while starting".into())
            }
        }
    }

    /// POSTs `body` as JSON and returns the JSON answer. The body moves to the worker (an
    /// embedding batch can be megabytes: it is not copied); the calling thread blocks, on a
    /// channel only, until the worker has the answer.
    pub fn post_json(&self, url: &str, body: Value) -> Result<Value, HttpError> {
        let stopped = || HttpError::Invalid {
            url: url.to_owned(),
            reason: "the HTTP worker thread has stopped".into(),
        };
        let (reply, answer) = mpsc::sync_channel(1);
        let job = Job {
            url: url.to_owned(),
            body,
            reply,
        };
        self.jobs
            .as_ref()
            .ok_or_else(stopped)?
            .send(job)
            .map_err(|_| stopped())?;
        answer.recv().map_err(|_| stopped())?
    }
}

impl Drop for HttpClient {
    fn drop(&mut self) {
        // Closing the channel ends the worker's loop; no request is in flight, since
        // `post_json` waits for its answer.
        self.jobs = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// The worker thread's half: the reqwest client and everything a request needs. The key
/// lives here, on the worker, and goes only into the Authorization header.
struct Worker {
    client: reqwest::Client,
    timeout: Duration,
    retries: u32,
    backoff: Duration,
    api_key: Option<String>,
}

impl Worker {
    async fn post_json(&self, url: &str, body: &Value) -> Result<Value, HttpError> {
        let mut attempt = 0;
        loop {
            match self.once(url, body).await {
                Err(HttpError::Status { status, .. }) if (status == 429 || status >= 500) && attempt < self.retries => {
                    // Exponential backoff: 250 ms, 500 ms, 1 s, ...
                    tokio::time::sleep(self.backoff * 2u32.pow(attempt)).await;
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    async fn once(&self, url: &str, body: &Value) -> Result<Value, HttpError> {
        let mut request = self.client.post(url).json(body);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let mut response = request.send().await.map_err(|e| self.describe(url, e))?;
        let status = response.status();
        let too_big = || HttpError::Invalid {
            url: url.to_owned(),
            reason: format!("the answer is larger than {} MiB", MAX_BODY_BYTES >> 20),
        };
        if response.content_length().is_some_and(|n| n > MAX_BODY_BYTES as u64) {
            return Err(too_big());
        }
        let mut bytes: Vec<u8> = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| self.describe(url, e))? {
            if bytes.len() + chunk.len() > MAX_BODY_BYTES {
                return Err(too_big());
            }
            bytes.extend_from_slice(&chunk);
        }
        let text = String::from_utf8_lossy(&bytes);
        if !status.is_success() {
            let body: String = text.chars().take(200).collect();
            return Err(HttpError::Status {
                url: url.to_owned(),
                status: status.as_u16(),
                body,
            });
        }
        serde_json::from_str(&text).map_err(|e| HttpError::Invalid {
            url: url.to_owned(),
            reason: format!("the answer is not JSON: {e}"),
        })
    }

    fn describe(&self, url: &str, e: reqwest::Error) -> HttpError {
        if e.is_timeout() {
            HttpError::Timeout {
                url: url.to_owned(),
                secs: self.timeout.as_secs().max(1),
            }
        } else {
            // Strip the URL reqwest adds, so that no query string (which could hold a key)
            // is repeated; the URL we print is the configured one.
            let reason = e.without_url().to_string();
            HttpError::Connect {
                url: url.to_owned(),
                reason,
            }
        }
    }
}

/// Joins a base URL and a path with exactly one slash.
pub fn join(base: &str, path: &str) -> String {
    format!("{}/{}", base.trim_end_matches('/'), path.trim_start_matches('/'))
}
