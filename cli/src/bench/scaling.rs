//! `bench --serve`'s scaling: search throughput of 1, 2, 4 and 8 clients at once, each a
//! different user on a connection of its own, each against one client in the same run.
//! Three settings: the embedded model (CPU-bound); a loopback embedder that answers after
//! 40 ms, as a remote model would; and, with `$ASH_PG_URL`, that embedder with two
//! servers sharing one Postgres namespace; and the adds of the embedded model (writes of
//! different users) through one server with one writer and with four, and through two
//! servers of one writer each. Prints figures; asserts nothing.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use serde_json::{Value, json};

use ash_memory::{Caller, MemoryStore, NewMemory};

use super::data::{QUERIES, fact};
use super::serve::{Rpc, Server};

/// The numbers of clients measured.
const CLIENTS: [usize; 4] = [1, 2, 4, 8];
/// How long the loopback embedder takes to answer.
const REMOTE_DELAY: Duration = Duration::from_millis(40);
/// The loopback embedder's dimension.
const REMOTE_DIMENSION: usize = 64;

/// What the clients of a setting call.
#[derive(Clone, Copy)]
enum Op {
    Search,
    Add,
}

impl Op {
    fn unit(self) -> &'static str {
        match self {
            Op::Search => "searches",
            Op::Add => "adds",
        }
    }
}

/// Throughput by number of clients in one setting.
pub(super) struct Curve {
    pub(super) setting: &'static str,
    /// What a call is: "searches" or "adds".
    pub(super) unit: &'static str,
    /// Clients, and calls a second all told.
    pub(super) rates: Vec<(usize, f64)>,
}

impl Curve {
    /// The throughput of `clients` against one client's.
    pub(super) fn ratio(&self, clients: usize) -> f64 {
        let rate = |n| self.rates.iter().find(|(c, _)| *c == n).map_or(0.0, |(_, r)| *r);
        rate(clients) / rate(1).max(f64::MIN_POSITIVE)
    }

    pub(super) fn to_json(&self) -> Value {
        json!({
            "setting": self.setting,
            "unit": self.unit,
            "per_second": self.rates.iter().map(|(c, r)| json!({ "clients": c, "rate": r, "ratio": self.ratio(*c) })).collect::<Vec<_>>(),
        })
    }
}

/// Measures every setting with `memories` memories spread over eight users, each client
/// making `searches` searches.
pub(super) fn run(memories: usize, searches: usize) -> Result<Vec<Curve>> {
    let embedder = LoopbackEmbedder::start(REMOTE_DELAY)?;
    let mut curves = vec![
        curve(
            "files, embedded model (CPU-bound)",
            Op::Search,
            memories,
            searches,
            None,
            None,
            &[],
        )?,
        curve(
            "files, embedder answering after 40 ms",
            Op::Search,
            memories,
            searches,
            Some(&embedder.url),
            None,
            &[],
        )?,
    ];
    if let Ok(url) = std::env::var("ASH_PG_URL") {
        curves.push(curve(
            "postgres, two servers, embedder after 40 ms",
            Op::Search,
            memories,
            searches,
            Some(&embedder.url),
            Some((&url, 2)),
            &[],
        )?);
        for (setting, servers, writers) in [
            ("postgres, one server, --writers 1, embedded model", 1, "1"),
            ("postgres, one server, --writers 4, embedded model", 1, "4"),
            ("postgres, two servers, --writers 1, embedded model", 2, "1"),
        ] {
            curves.push(curve(
                setting,
                Op::Add,
                memories,
                searches,
                None,
                Some((&url, servers)),
                &["--writers", writers],
            )?);
        }
    }
    Ok(curves)
}

fn curve(
    setting: &'static str,
    op: Op,
    memories: usize,
    calls: usize,
    embedder: Option<&str>,
    // The URL, and how many servers share the namespace.
    postgres: Option<(&str, usize)>,
    serve_args: &[&str],
) -> Result<Curve> {
    let dir = tempfile::tempdir()?;
    let cache = dir.path().join("cache");
    let namespace = format!("bench_scaling_{}", std::process::id());
    let servers = postgres.map_or(1, |(_, n)| n);
    let homes: Vec<PathBuf> = (0..servers).map(|n| dir.path().join(format!("home-{n}"))).collect();
    for home in &homes {
        std::fs::create_dir_all(home)?;
        let mut config = String::new();
        if let Some(url) = embedder {
            config.push_str(&format!(
                "[embedder]\nprovider = \"openai\"\nbase_url = \"{url}\"\nmodel = \"loopback\"\ndimensions = {REMOTE_DIMENSION}\n"
            ));
        }
        if postgres.is_some() {
            config.push_str(&format!(
                "[storage]\nbackend = \"postgres\"\nnamespace = \"{namespace}\"\n"
            ));
        }
        std::fs::write(home.join("config.toml"), config)?;
    }
    fill(&homes[0], &cache, memories)?;
    let servers = homes
        .iter()
        .map(|home| Server::start(home, &cache, serve_args))
        .collect::<Result<Vec<_>>>()?;
    let mut rates = Vec::new();
    for clients in CLIENTS {
        let start = Instant::now();
        let threads: Vec<_> = (0..clients)
            .map(|c| {
                let socket = servers[c % servers.len()].socket.clone();
                std::thread::spawn(move || -> Result<()> {
                    let mut rpc = Rpc::connect(&socket)?;
                    for k in 0..calls {
                        match op {
                            Op::Search => {
                                let query = QUERIES[(c + k) % QUERIES.len()];
                                rpc.call(
                                    "memory.search",
                                    json!({ "query": query, "limit": 10, "user_id": user(c) }),
                                )?
                            }
                            // Facts no earlier call made, so that each add is a new memory.
                            Op::Add => rpc.call(
                                "memory.add",
                                json!({ "content": fact(20_000_000 + (clients * 1000 + c) * calls + k), "user_id": user(c) }),
                            )?,
                        };
                    }
                    Ok(())
                })
            })
            .collect();
        for thread in threads {
            thread.join().map_err(|_| anyhow::anyhow!("a client panicked"))??;
        }
        rates.push((clients, (clients * calls) as f64 / start.elapsed().as_secs_f64()));
    }
    for server in servers {
        server.stop()?;
    }
    if let Some((url, _)) = postgres {
        let mut client = postgres::Client::connect(url, postgres::NoTls).context("connecting to drop the namespace")?;
        client.batch_execute(&format!("DROP SCHEMA IF EXISTS ash_{namespace} CASCADE"))?;
    }
    Ok(Curve {
        setting,
        unit: op.unit(),
        rates,
    })
}

fn user(client: usize) -> String {
    format!("user{client}")
}

/// Stores `memories` facts, an eighth for each of the eight users.
fn fill(home: &Path, cache: &Path, memories: usize) -> Result<()> {
    let mut store = MemoryStore::builder(home).cache_dir(Some(cache.to_owned())).open()?;
    let per_user = memories.div_ceil(8);
    for c in 0..8 {
        let items: Vec<NewMemory> = (0..per_user).map(|j| NewMemory::text(fact(c * per_user + j))).collect();
        let report = store.import(&Caller::user(user(c)), &items, |_| {})?;
        anyhow::ensure!(report.refused.is_empty(), "the fill was refused: {:?}", report.refused);
    }
    Ok(())
}

/// An OpenAI-compatible `/v1/embeddings` on loopback that answers after a delay, with
/// vectors from the words' hashes: a stand-in for a remote model's latency, not for a
/// model. One thread per connection, so that waits overlap as a real service's do.
struct LoopbackEmbedder {
    url: String,
}

impl LoopbackEmbedder {
    fn start(delay: Duration) -> Result<LoopbackEmbedder> {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        let url = format!("http://{}/v1", listener.local_addr()?);
        // Lives as long as the bench process.
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                std::thread::spawn(move || {
                    let _ = answer(stream, delay);
                });
            }
        });
        Ok(LoopbackEmbedder { url })
    }
}

/// Answers the requests of one connection (keep-alive) until the client closes it.
fn answer(stream: TcpStream, delay: Duration) -> Result<()> {
    stream.set_nodelay(true)?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let mut length = 0usize;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header)? == 0 || header == "\r\n" {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0u8; length];
        reader.read_exact(&mut body)?;
        let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let inputs: Vec<String> = match &request["input"] {
            Value::Array(items) => items.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect(),
            Value::String(s) => vec![s.clone()],
            _ => Vec::new(),
        };
        std::thread::sleep(delay);
        let data: Vec<Value> = inputs
            .iter()
            .enumerate()
            .map(|(i, text)| json!({ "object": "embedding", "index": i, "embedding": hashed(text) }))
            .collect();
        let body = json!({ "object": "list", "data": data }).to_string();
        // One write: a reply in pieces meets the client's delayed acknowledgement (Nagle),
        // which would add its own 40 ms.
        let reply = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        writer.write_all(reply.as_bytes())?;
    }
}

/// A unit vector from the text's lowercase words, each adding one to a hashed slot.
fn hashed(text: &str) -> Vec<f32> {
    let mut v = vec![0f32; REMOTE_DIMENSION];
    for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        let h = word.to_lowercase().bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        v[(h % REMOTE_DIMENSION as u64) as usize] += 1.0;
    }
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    } else {
        v[0] = 1.0;
    }
    v
}
