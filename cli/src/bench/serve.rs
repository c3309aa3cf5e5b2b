//! `ash-memory bench --serve`: what the server costs beside the library, at a given
//! size, in a temporary home. A real `ash-memory serve` (this binary) is started on the
//! home and measured over its Unix socket: search round trips (in turn with the same
//! search in-process), add round trips, `ash-sb memory search` as a whole process, and
//! eight concurrent clients mixing 90% searches with 10% adds, and how searches scale with
//! clients (`scaling`). Prints figures; asserts nothing.

use std::io::{BufRead as _, BufReader, Write as _};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use serde_json::{Value, json};

use ash_memory::{Caller, MemoryStore, SearchQuery};

use super::data::{QUERIES, add_people, fact, fill};
use super::timing::{Stats, ms, stats};

/// Concurrent clients in the mixed run (each makes four times `--samples` calls).
const CLIENTS: usize = 8;

pub fn run(memories: usize, samples: usize, json_out: bool) -> Result<()> {
    let dir = tempfile::tempdir()?;
    let home = dir.path().join("home");
    let cache = dir.path().join("cache");
    let me = Caller::user("bench");

    // The baseline is the same search in-process, on a store open on the same home at the
    // same time, taken in turn with the RPC one so that both see the same machine.
    let mut store = MemoryStore::builder(&home).cache_dir(Some(cache.clone())).open()?;
    add_people(&mut store)?;
    fill(&mut store, memories)?;
    let server = Server::start(&home, &cache, &[])?;
    let mut rpc = Rpc::connect(&server.socket)?;
    let (mut local, mut searches) = (Vec::new(), Vec::new());
    for k in 0..samples {
        let query = SearchQuery::new(QUERIES[k % QUERIES.len()]).limit(10);
        let t = Instant::now();
        store.search(&me, &query)?;
        local.push(t.elapsed());
        let t = Instant::now();
        rpc.call("memory.search", search_params(k))?;
        searches.push(t.elapsed());
    }
    drop(store);
    // The transport's floor: a call that does not reach the store.
    let mut healths = Vec::new();
    for _ in 0..samples {
        let t = Instant::now();
        rpc.call("health", json!({}))?;
        healths.push(t.elapsed());
    }
    let mut adds = Vec::new();
    for k in 0..samples {
        let t = Instant::now();
        rpc.call("memory.add", add_params(memories + k))?;
        adds.push(t.elapsed());
    }

    // `ash-sb` as a sandboxed tool runs it: a whole process per call.
    let ash_sb = std::env::current_exe()?.with_file_name("ash-sb");
    let (mut processes, mut floor) = (Vec::new(), Vec::new());
    if ash_sb.exists() {
        for _ in 0..samples {
            let t = Instant::now();
            Command::new(&ash_sb).arg("--version").stdout(Stdio::null()).status()?;
            floor.push(t.elapsed());
        }
        for k in 0..samples {
            let t = Instant::now();
            let out = Command::new(&ash_sb)
                .args(["memory", "search", QUERIES[k % QUERIES.len()]])
                .env("ASH_RPC_SOCKET", &server.socket)
                .env("ASH_USER_ID", "bench")
                .stdout(Stdio::null())
                .status()?;
            processes.push(t.elapsed());
            if !out.success() {
                bail!("ash-sb memory search failed");
            }
        }
    }

    // Eight clients at once, each on its own connection, 90% searches and 10% adds.
    let per_client = samples * 4;
    let t = Instant::now();
    let mut workers = Vec::new();
    for c in 0..CLIENTS {
        let socket = server.socket.clone();
        workers.push(std::thread::spawn(move || -> Result<Vec<Duration>> {
            let mut rpc = Rpc::connect(&socket)?;
            let mut times = Vec::new();
            for k in 0..per_client {
                let (method, params) = if k % 10 == 9 {
                    ("memory.add", add_params(10_000_000 + c * per_client + k))
                } else {
                    ("memory.search", search_params(c + k))
                };
                let t = Instant::now();
                rpc.call(method, params)?;
                times.push(t.elapsed());
            }
            Ok(times)
        }));
    }
    let mut per_client_stats = Vec::new();
    for worker in workers {
        let times = worker.join().map_err(|_| anyhow::anyhow!("a client panicked"))??;
        per_client_stats.push(stats(times));
    }
    let mixed = t.elapsed();
    let ops = (CLIENTS * per_client) as f64;
    server.stop()?;
    let scaling = super::scaling::run(memories, samples)?;

    let local = stats(local);
    let search = stats(searches);
    let health = stats(healths);
    let add = stats(adds);
    let process = (!processes.is_empty()).then(|| stats(processes));
    let floor = (!floor.is_empty()).then(|| stats(floor));
    let worst_p95 = per_client_stats.iter().map(|s| s.p95).max().unwrap_or_default();
    let best_p95 = per_client_stats.iter().map(|s| s.p95).min().unwrap_or_default();
    let triple = |s: &Stats| json!({ "median": ms(s.median), "p95": ms(s.p95), "mean": ms(s.mean) });
    if json_out {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "memories": memories,
                "in_process_search_ms": triple(&local),
                "rpc_search_ms": triple(&search),
                "rpc_health_ms": triple(&health),
                "rpc_add_ms": triple(&add),
                "ash_sb_search_process_ms": process.as_ref().map(triple),
                "ash_sb_version_process_ms": floor.as_ref().map(triple),
                "mixed": {
                    "clients": CLIENTS, "operations": ops, "seconds": mixed.as_secs_f64(),
                    "per_second": ops / mixed.as_secs_f64(),
                    "per_client_p95_ms": per_client_stats.iter().map(|s| ms(s.p95)).collect::<Vec<_>>(),
                },
                "scaling": scaling.iter().map(|c| c.to_json()).collect::<Vec<_>>(),
            }))?
        );
        return Ok(());
    }
    println!("ash-memory bench --serve: {memories} memories, {samples} samples, Unix socket");
    let row = |name: &str, s: &Stats| {
        println!(
            "  {name:<32} median/p95/mean {:>8.3} / {:.3} / {:.3} ms",
            ms(s.median),
            ms(s.p95),
            ms(s.mean)
        )
    };
    row("search, in-process", &local);
    row("search, JSON-RPC round trip", &search);
    println!(
        "  {:<32} {:>+8.3} ms at the median",
        "  (RPC minus in-process)",
        ms(search.median) - ms(local.median)
    );
    row("health, JSON-RPC round trip", &health);
    row("add, JSON-RPC round trip", &add);
    match (&process, &floor) {
        (Some(p), Some(f)) => {
            row("ash-sb memory search (process)", p);
            row("ash-sb --version (process)", f);
        }
        _ => println!("  ash-sb not found beside this binary: cargo build --release -p ash-sb"),
    }
    println!(
        "  {CLIENTS} clients, 90% search / 10% add: {:.0} calls/s ({ops:.0} calls in {:.2} s); \
         per-client p95 from {:.2} to {:.2} ms",
        ops / mixed.as_secs_f64(),
        mixed.as_secs_f64(),
        ms(best_p95),
        ms(worst_p95)
    );
    println!("  calls/s by clients at once (each a different user), and against one client:");
    for curve in &scaling {
        let cells: Vec<String> = curve
            .rates
            .iter()
            .map(|&(clients, rate)| format!("{clients}: {rate:>6.0} ({:.2}x)", curve.ratio(clients)))
            .collect();
        let setting = format!("{}, {}", curve.setting, curve.unit);
        println!("    {setting:<54} {}", cells.join("  "));
    }
    Ok(())
}

pub(super) fn search_params(k: usize) -> Value {
    json!({ "query": QUERIES[k % QUERIES.len()], "limit": 10, "user_id": "bench" })
}

pub(super) fn add_params(k: usize) -> Value {
    json!({ "content": fact(k), "user_id": "bench" })
}

/// This binary's `serve`, on the bench's home; killed if the bench fails half way.
pub(super) struct Server {
    child: Child,
    pub(super) socket: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts `serve` on `home` with these extra arguments.
    pub(super) fn start(home: &Path, cache: &Path, args: &[&str]) -> Result<Server> {
        let child = Command::new(std::env::current_exe()?)
            .args(["--home"])
            .arg(home)
            .arg("serve")
            .args(args)
            .env("ASH_CACHE_DIR", cache)
            .env("ASH_LOG", "warn")
            .stdout(Stdio::null())
            .spawn()
            .context("starting ash-memory serve")?;
        let socket = home.join("run/ash.sock");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            if let Ok(mut rpc) = Rpc::connect(&socket)
                && rpc.call("health", json!({})).is_ok()
            {
                return Ok(Server { child, socket });
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        bail!("the server did not answer within 60 s")
    }

    pub(super) fn stop(mut self) -> Result<()> {
        Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()?;
        let status = self.child.wait()?;
        anyhow::ensure!(status.success(), "the server exited with {status}");
        Ok(())
    }
}

/// A blocking JSON-RPC connection.
pub(super) struct Rpc {
    reader: BufReader<UnixStream>,
    writer: UnixStream,
    id: u64,
}

impl Rpc {
    pub(super) fn connect(socket: &Path) -> Result<Rpc> {
        let writer = UnixStream::connect(socket)?;
        Ok(Rpc {
            reader: BufReader::new(writer.try_clone()?),
            writer,
            id: 0,
        })
    }

    pub(super) fn call(&mut self, method: &str, params: Value) -> Result<Value> {
        self.id += 1;
        let mut line = json!({ "jsonrpc": "2.0", "id": self.id, "method": method, "params": params }).to_string();
        line.push('\n');
        self.writer.write_all(line.as_bytes())?;
        let mut answer = String::new();
        self.reader.read_line(&mut answer)?;
        let mut answer: Value = serde_json::from_str(&answer).context("the server's answer")?;
        match answer.get_mut("result") {
            Some(result) => Ok(result.take()),
            None => bail!("{method} failed: {}", answer["error"]),
        }
    }
}
