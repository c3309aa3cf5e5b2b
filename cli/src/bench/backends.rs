//! `ash-memory bench --backend postgres`: the same workload on the files backend and on
//! Postgres (the URL in `$ASH_PG_URL`), side by side at each size, then throughput with
//! two servers on one Postgres namespace and eight clients, beside one server on a files
//! home. Each size gets fresh homes and a fresh namespace, dropped at the end. Prints
//! figures; asserts nothing.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use serde_json::{Value, json};

use ash_memory::MemoryStore;

use super::serve::{Rpc, Server, add_params, search_params};
use super::timing::{self, Latency, Online};

/// Clients in the throughput run, spread evenly over the servers.
const CLIENTS: usize = 8;

/// The workload on both backends at one size, and the throughput of each.
struct Pair {
    memories: usize,
    files: Online,
    postgres: Online,
    files_rate: f64,
    postgres_rate: f64,
}

pub fn run(sizes: &[usize], samples: usize, json_out: bool) -> Result<()> {
    let url = std::env::var("ASH_PG_URL").context("bench --backend postgres: set ASH_PG_URL to a Postgres URL")?;
    let mut pairs = Vec::new();
    let mut namespaces = Vec::new();
    for &memories in sizes {
        if !json_out {
            eprintln!("bench: {memories} memories, files then postgres...");
        }
        let dir = tempfile::tempdir()?;
        let cache = dir.path().join("cache");
        let files_home = dir.path().join("files");
        let mut store = MemoryStore::builder(&files_home)
            .cache_dir(Some(cache.clone()))
            .open()?;
        let files = timing::online(&mut store, memories, samples, Some(&timing::index_of(&files_home)))?;
        drop(store);

        let namespace = format!("bench_{}_{memories}", std::process::id());
        namespaces.push(namespace.clone());
        let pg_homes = [dir.path().join("pg-a"), dir.path().join("pg-b")];
        for home in &pg_homes {
            std::fs::create_dir_all(home)?;
            let config = format!("[storage]\nbackend = \"postgres\"\nnamespace = \"{namespace}\"\n");
            std::fs::write(home.join("config.toml"), config)?;
        }
        let mut store = MemoryStore::builder(&pg_homes[0])
            .cache_dir(Some(cache.clone()))
            .open()?;
        // Postgres writes in its own processes: this one's count does not see them.
        let postgres = timing::online(&mut store, memories, samples, None)?;
        drop(store);

        let files_rate = throughput(&[files_home.as_path()], &cache, samples)?;
        let postgres_rate = throughput(&[pg_homes[0].as_path(), pg_homes[1].as_path()], &cache, samples)?;
        pairs.push(Pair {
            memories,
            files,
            postgres,
            files_rate,
            postgres_rate,
        });
    }
    drop_namespaces(&url, &namespaces)?;
    if json_out {
        let all: Vec<Value> = pairs
            .iter()
            .map(|p| {
                json!({
                    "memories": p.memories,
                    "files": p.files,
                    "postgres": p.postgres,
                    "files_one_server_calls_per_s": p.files_rate,
                    "postgres_two_servers_calls_per_s": p.postgres_rate,
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&all)?);
    } else {
        print_table(&pairs, samples);
    }
    Ok(())
}

fn print_table(pairs: &[Pair], samples: usize) {
    println!("ash-memory bench --backend postgres: {samples} samples per figure, in-process (p50 / p95, ms)");
    let header: String = pairs
        .iter()
        .map(|p| {
            format!(
                "{:>22}{:>22}",
                format!("files {}", p.memories),
                format!("postgres {}", p.memories)
            )
        })
        .collect();
    println!("  {:<30}{header}", "memories");
    let row = |label: &str, cell: &dyn Fn(&Online) -> String| {
        let cells: String = pairs
            .iter()
            .map(|p| format!("{:>22}{:>22}", cell(&p.files), cell(&p.postgres)))
            .collect();
        println!("  {label:<30}{cells}");
    };
    let lat = |l: &Latency| format!("{:.2} / {:.2}", l.median, l.p95);
    row("fill by import (s)", &|o| format!("{:.1}", o.fill_ms / 1000.0));
    row("add", &|o| lat(&o.add_ms));
    row("search", &|o| lat(&o.search_ms));
    row("context", &|o| lat(&o.context_ms));
    row("delete", &|o| lat(&o.delete_ms));
    let cells: String = pairs
        .iter()
        .map(|p| {
            format!(
                "{:>22}{:>22}",
                format!("{:.0}", p.files_rate),
                format!("{:.0}", p.postgres_rate)
            )
        })
        .collect();
    println!("  {:<30}{cells}", format!("{CLIENTS} clients, calls/s"));
    println!(
        "  (files: one server, the only kind a files home allows; postgres: two servers on one namespace, \
         {} clients each; 90% search, 10% add)",
        CLIENTS / 2
    );
}

/// Calls per second from `CLIENTS` clients spread over one server per home, 90% searches
/// and 10% adds, each client on its own connection.
fn throughput(homes: &[&Path], cache: &Path, samples: usize) -> Result<f64> {
    let servers = homes
        .iter()
        .map(|home| Server::start(home, cache, &[]))
        .collect::<Result<Vec<_>>>()?;
    let per_client = samples * 4;
    let t = Instant::now();
    let mut workers = Vec::new();
    for c in 0..CLIENTS {
        let socket = servers[c % servers.len()].socket.clone();
        workers.push(std::thread::spawn(move || -> Result<usize> {
            let mut rpc = Rpc::connect(&socket)?;
            for k in 0..per_client {
                let (method, params) = if k % 10 == 9 {
                    ("memory.add", add_params(20_000_000 + c * per_client + k))
                } else {
                    ("memory.search", search_params(c + k))
                };
                rpc.call(method, params)?;
            }
            Ok(per_client)
        }));
    }
    let mut calls = 0;
    for worker in workers {
        calls += worker.join().map_err(|_| anyhow::anyhow!("a client panicked"))??;
    }
    let elapsed = t.elapsed();
    for server in servers {
        server.stop()?;
    }
    if calls == 0 {
        bail!("no calls were made");
    }
    Ok(calls as f64 / elapsed.as_secs_f64())
}

/// Drops the bench's namespaces (the schemas `ash_<namespace>`).
fn drop_namespaces(url: &str, namespaces: &[String]) -> Result<()> {
    let mut client =
        postgres::Client::connect(url, postgres::NoTls).context("connecting to drop the bench's namespaces")?;
    for namespace in namespaces {
        client
            .batch_execute(&format!("DROP SCHEMA IF EXISTS ash_{namespace} CASCADE"))
            .with_context(|| format!("dropping namespace {namespace}"))?;
    }
    Ok(())
}
