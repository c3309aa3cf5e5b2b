//! The workload `bench` times on one policy, component or native: fill, then single
//! adds, searches, context blocks and deletes (`online`); then rebuild and GC
//! (`maintenance`). Each returns what it measured.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Result, ensure};
use serde::Serialize;

use super::data::{PEOPLE_IN_BENCH, QUERIES, add_people, fact, fill};
use super::policy::BenchPolicy;

pub(super) struct Stats {
    pub median: Duration,
    pub p95: Duration,
    pub mean: Duration,
}

pub(super) fn stats(mut samples: Vec<Duration>) -> Stats {
    samples.sort();
    let n = samples.len().max(1);
    Stats {
        median: samples[n / 2],
        p95: samples[(n * 95 / 100).min(n - 1)],
        mean: samples.iter().sum::<Duration>() / n as u32,
    }
}

pub(super) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A latency in milliseconds, as printed.
#[derive(Debug, Serialize)]
pub(super) struct Latency {
    pub median: f64,
    pub p95: f64,
    pub mean: f64,
}

impl From<Stats> for Latency {
    fn from(s: Stats) -> Self {
        Latency {
            median: ms(s.median),
            p95: ms(s.p95),
            mean: ms(s.mean),
        }
    }
}

/// The calls an agent makes while it talks, at one size.
#[derive(Debug, Serialize)]
pub(super) struct Online {
    /// Importing the memories into the fresh home.
    pub fill_ms: f64,
    pub add_ms: Latency,
    pub search_ms: Latency,
    pub context_ms: Latency,
    pub people: usize,
    pub context_tokens: u32,
    pub delete_ms: Latency,
    pub superseded_during_adds: usize,
    pub bytes_written_per_add: f64,
}

/// Maintenance at one size.
#[derive(Debug, Serialize)]
pub(super) struct Maintenance {
    pub rebuild_ms: f64,
    pub rebuild_embedded: u64,
    pub gc_dry_run_ms: f64,
    pub gc_ms: f64,
    pub gc_archived: usize,
    pub gc_idle_ms: f64,
}

/// Fills the fresh home behind `policy` with `memories` and times `samples` of each call.
/// `index` is the home's SQLite index, if it has one: what the adds write is counted with
/// their pages written back to it (see `checkpoint`).
pub(super) fn online(
    policy: &mut impl BenchPolicy,
    memories: usize,
    samples: usize,
    index: Option<&Path>,
) -> Result<Online> {
    // 200 people; every other memory is about one of them, for the person graph and the
    // "Known People" block.
    add_people(policy)?;
    let t = Instant::now();
    fill(policy, memories)?;
    let fill_ms = ms(t.elapsed());

    // Every add runs the full path: secret check, embedding, supersession candidates from
    // the index and their verification, append, index upsert, fsync.
    let mut adds = Vec::with_capacity(samples);
    let mut superseded = 0;
    let mut added = Vec::with_capacity(samples);
    let mut gone = std::collections::HashSet::new();
    // The write-ahead log is emptied before the adds and after them, so that every add
    // counts its pages twice (logged, then written back) however many the 1,000-page
    // automatic checkpoint happened to write back among twenty adds, which would make
    // the figure swing between runs.
    checkpoint(index)?;
    let written = bytes_written();
    for k in 0..samples {
        let t = Instant::now();
        let (id, replaced) = policy.add(&fact(memories + k))?;
        adds.push(t.elapsed());
        superseded += replaced.len();
        gone.extend(replaced);
        // A fact told again keeps the memory already stored: its id comes back.
        if !added.contains(&id) {
            added.push(id);
        }
    }
    checkpoint(index)?;
    let bytes_per_add = (bytes_written() - written) as f64 / samples.max(1) as f64;
    // SQLite counts that checkpoint, from a connection of the bench's own, as another
    // writer's change (`PRAGMA data_version`), so the store reads the scope's vectors into
    // memory again at its next search: half a second at 100,000, which no user's call
    // causes and which made the search p95. One untimed search takes it.
    policy.search(QUERIES[0], 10)?;
    let mut searches = Vec::with_capacity(samples);
    let mut found = 0;
    for k in 0..samples {
        let t = Instant::now();
        found += policy.search(QUERIES[k % QUERIES.len()], 10)?;
        searches.push(t.elapsed());
    }
    // Some queries rightly find nothing: "sports" is no nearer than 0.25 to any fact the
    // fill writes, and search shows no weak match found by meaning alone. All of them
    // finding nothing would mean search is broken.
    ensure!(samples == 0 || found > 0, "no search found anything");
    let mut contexts = Vec::with_capacity(samples);
    let mut context_tokens = 0;
    for k in 0..samples {
        let message = format!("{} Person{}?", QUERIES[k % QUERIES.len()], k % PEOPLE_IN_BENCH);
        let t = Instant::now();
        let block = policy.context(&message)?;
        contexts.push(t.elapsed());
        ensure!(block.people == 50 && block.memories > 0, "context came back short");
        context_tokens = block.tokens;
    }
    // Half of the timed adds deleted again, one at a time; not those a later add
    // superseded, which are no longer there to delete.
    let mut deletes = Vec::new();
    for id in added.iter().filter(|id| !gone.contains(*id)).step_by(2) {
        let t = Instant::now();
        policy.delete(id)?;
        deletes.push(t.elapsed());
    }
    Ok(Online {
        fill_ms,
        add_ms: stats(adds).into(),
        search_ms: stats(searches).into(),
        context_ms: stats(contexts).into(),
        people: PEOPLE_IN_BENCH,
        context_tokens,
        delete_ms: stats(deletes).into(),
        superseded_during_adds: superseded,
        bytes_written_per_add: bytes_per_add,
    })
}

/// Rebuilds the index, then runs GC three ways: a dry run, a real one, and one with
/// nothing left to do (the steady-state cost of `auto_gc` at start).
pub(super) fn maintenance(policy: &mut impl BenchPolicy) -> Result<Maintenance> {
    let t = Instant::now();
    let rebuild_embedded = policy.rebuild_index()?;
    let rebuild = t.elapsed();
    let t = Instant::now();
    let dry = policy.gc(true)?;
    let gc_dry = t.elapsed();
    let t = Instant::now();
    let archived = policy.gc(false)?;
    let gc = t.elapsed();
    ensure!(archived == dry, "dry run and GC disagree");
    let t = Instant::now();
    policy.gc(false)?;
    let gc_idle = t.elapsed();
    Ok(Maintenance {
        rebuild_ms: ms(rebuild),
        rebuild_embedded,
        gc_dry_run_ms: ms(gc_dry),
        gc_ms: ms(gc),
        gc_archived: archived,
        gc_idle_ms: ms(gc_idle),
    })
}

/// Writes the index's write-ahead log back into it and empties it, through a connection
/// of its own (the store's stays open, between calls, holding no transaction).
fn checkpoint(index: Option<&Path>) -> Result<()> {
    let Some(path) = index else { return Ok(()) };
    let conn = rusqlite::Connection::open(path)?;
    let busy: i64 = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
    ensure!(busy == 0, "the index's checkpoint was blocked");
    Ok(())
}

/// Bytes this process has handed to write(2) so far (`wchar` in /proc/self/io): the
/// JSONL appends, the SQLite pages and journal, everything.
fn bytes_written() -> u64 {
    std::fs::read_to_string("/proc/self/io")
        .ok()
        .and_then(|io| {
            io.lines()
                .find_map(|l| l.strip_prefix("wchar: ").and_then(|n| n.trim().parse().ok()))
        })
        .unwrap_or(0)
}

/// The index file of the home at `home`, whose size the bench reports.
pub(super) fn index_of(home: &std::path::Path) -> std::path::PathBuf {
    home.join("data").join("memory.db")
}
