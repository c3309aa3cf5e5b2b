//! `ash-memory bench`: add, search and context latency at one or more sizes, each in a
//! fresh temporary home, through the real component, index and embedder; then the same
//! home through whole CLI processes, as a sandboxed tool would call it. Prints one column
//! per size (or `--json`); asserts nothing.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use clap::Args;
use serde::Serialize;

use ash_memory::{Caller, MemoryStore, NewMemory, POLICY_COMPONENT, SearchQuery};

use super::bench_data::PEOPLE_IN_BENCH;
pub(super) use super::bench_data::{QUERIES, add_people, fact, fill};

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// How many memories to hold while measuring; several sizes, comma-separated
    /// (1000,10000,100000), give one column each
    #[arg(long, value_delimiter = ',', default_value = "1000")]
    memories: Vec<usize>,
    /// How many timed adds and searches (and a fifth as many CLI processes)
    #[arg(long, default_value_t = 50)]
    samples: usize,
    /// Measure the server instead: JSON-RPC round trips over the Unix socket, `ash-sb`
    /// as a whole process, and eight concurrent clients, beside the in-process search
    #[arg(long)]
    serve: bool,
    /// Run this workload file instead (facts, adds, queries: the cross-host bench,
    /// `scripts/bench_hosts.py`) and print one JSON line
    #[arg(long, value_name = "FILE", conflicts_with = "serve")]
    workload: Option<std::path::PathBuf>,
    /// Keep the homes in this folder (one `home-N` per size), to profile or inspect them
    #[arg(long, value_name = "DIR")]
    keep: Option<std::path::PathBuf>,
}

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
struct Latency {
    median: f64,
    p95: f64,
    mean: f64,
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

/// Everything measured at one size.
#[derive(Debug, Serialize)]
struct Figures {
    memories: usize,
    component_bytes: usize,
    compile_ms: f64,
    open_cached_ms: f64,
    /// Importing the memories into the fresh home (`MemoryStore::import`).
    fill_ms: f64,
    add_ms: Latency,
    search_ms: Latency,
    context_ms: Latency,
    people: usize,
    context_tokens: u32,
    delete_ms: Latency,
    superseded_during_adds: usize,
    bytes_written_per_add: f64,
    jsonl_bytes_per_memory: f64,
    cli_version_ms: f64,
    cli_add_ms: f64,
    cli_search_ms: f64,
    cli_peak_rss_mb: f64,
    rebuild_ms: f64,
    rebuild_embedded: u64,
    gc_dry_run_ms: f64,
    gc_ms: f64,
    gc_archived: usize,
    gc_idle_ms: f64,
}

pub fn run(args: &BenchArgs, json_out: bool) -> Result<()> {
    if args.serve {
        let memories = args.memories.first().copied().unwrap_or(1000);
        return super::bench_serve::run(memories, args.samples, json_out);
    }
    if let Some(file) = &args.workload {
        return super::bench_workload::run(file);
    }
    let mut all = Vec::new();
    for &memories in &args.memories {
        if !json_out {
            eprintln!("bench: {memories} memories...");
        }
        all.push(measure(memories, args.samples, args.keep.as_deref())?);
    }
    if json_out {
        let out = if all.len() == 1 {
            serde_json::to_string_pretty(&all[0])?
        } else {
            serde_json::to_string_pretty(&all)?
        };
        println!("{out}");
    } else {
        print_table(&all, args.samples);
    }
    Ok(())
}

/// Fills a fresh home with `memories` and measures everything at that size.
fn measure(memories: usize, samples: usize, keep: Option<&Path>) -> Result<Figures> {
    let dir = tempfile::tempdir()?;
    let home = match keep {
        Some(keep) => {
            let home = keep.join(format!("home-{memories}"));
            anyhow::ensure!(!home.exists(), "{} exists already", home.display());
            std::fs::create_dir_all(keep)?;
            home
        }
        None => dir.path().join("home"),
    };
    let cache = dir.path().join("cache");
    let me = Caller::user("bench");

    let t = Instant::now();
    drop(MemoryStore::builder(&home).cache_dir(None).open()?);
    let compile = t.elapsed();
    drop(MemoryStore::builder(&home).cache_dir(Some(cache.clone())).open()?);
    let t = Instant::now();
    let mut store = MemoryStore::builder(&home).cache_dir(Some(cache.clone())).open()?;
    let open_cached = t.elapsed();

    // 200 people; every other memory is about one of them, for the person graph and the
    // "Known People" block.
    add_people(&mut store, &me)?;
    let t = Instant::now();
    fill(&mut store, &me, memories)?;
    let fill = t.elapsed();

    // Every add runs the full path: secret check, embedding, supersession candidates from
    // the index and their verification, append, index upsert, fsync.
    let mut adds = Vec::with_capacity(samples);
    let mut superseded = 0;
    let mut added = Vec::with_capacity(samples);
    let written = bytes_written();
    for k in 0..samples {
        let item = NewMemory::text(fact(memories + k));
        let t = Instant::now();
        let report = store.add(&me, &item)?;
        adds.push(t.elapsed());
        superseded += report.superseded.len();
        added.extend(report.memories.into_iter().map(|m| m.id));
    }
    let bytes_per_add = (bytes_written() - written) as f64 / samples.max(1) as f64;
    let jsonl = std::fs::metadata(store.home().join("memory/memories.jsonl"))?.len();
    let jsonl_per_memory = jsonl as f64 / (memories + samples).max(1) as f64;
    let mut searches = Vec::with_capacity(samples);
    for k in 0..samples {
        let query = SearchQuery::new(QUERIES[k % QUERIES.len()]).limit(10);
        let t = Instant::now();
        let found = store.search(&me, &query)?;
        searches.push(t.elapsed());
        anyhow::ensure!(!found.hits.is_empty(), "search found nothing");
    }
    let mut contexts = Vec::with_capacity(samples);
    let mut context_tokens = 0;
    for k in 0..samples {
        let message = format!("{} Person{}?", QUERIES[k % QUERIES.len()], k % PEOPLE_IN_BENCH);
        let t = Instant::now();
        let block = store.context(&me, &message, None)?;
        contexts.push(t.elapsed());
        anyhow::ensure!(
            block.people.len() == 50 && !block.memories.is_empty(),
            "context came back short"
        );
        context_tokens = block.estimated_tokens;
    }
    // Half of the timed adds deleted again, one at a time.
    let mut deletes = Vec::new();
    for id in added.iter().step_by(2) {
        let t = Instant::now();
        store.delete(&me, id)?;
        deletes.push(t.elapsed());
    }

    let cli = CliRuns {
        home: &home,
        cache: &cache,
    };
    let version = cli.median(samples / 5, |_| vec!["--version".into()])?;
    let cli_adds = cli.median(samples / 5, |k| vec!["add".into(), fact(memories + samples + k)])?;
    let cli_searches = cli.median(samples / 5, |k| {
        vec!["search".into(), QUERIES[k % QUERIES.len()].into()]
    })?;

    let t = Instant::now();
    let rebuilt = store.rebuild_index()?;
    let rebuild = t.elapsed();

    let t = Instant::now();
    let dry = store.gc(true)?;
    let gc_dry = t.elapsed();
    let t = Instant::now();
    let collected = store.gc(false)?;
    let gc = t.elapsed();
    anyhow::ensure!(
        collected.archived.len() == dry.archived.len(),
        "dry run and GC disagree"
    );
    // A real GC with nothing to do: the steady-state cost of auto_gc at start.
    let t = Instant::now();
    store.gc(false)?;
    let gc_idle = t.elapsed();
    Ok(Figures {
        memories,
        component_bytes: POLICY_COMPONENT.len(),
        compile_ms: ms(compile),
        open_cached_ms: ms(open_cached),
        fill_ms: ms(fill),
        add_ms: stats(adds).into(),
        search_ms: stats(searches).into(),
        context_ms: stats(contexts).into(),
        people: PEOPLE_IN_BENCH,
        context_tokens,
        delete_ms: stats(deletes).into(),
        superseded_during_adds: superseded,
        bytes_written_per_add: bytes_per_add,
        jsonl_bytes_per_memory: jsonl_per_memory,
        cli_version_ms: ms(version.0),
        cli_add_ms: ms(cli_adds.0),
        cli_search_ms: ms(cli_searches.0),
        cli_peak_rss_mb: cli_adds.1.max(cli_searches.1) as f64 / 1024.0,
        rebuild_ms: ms(rebuild),
        rebuild_embedded: rebuilt.embedded,
        gc_dry_run_ms: ms(gc_dry),
        gc_ms: ms(gc),
        gc_archived: collected.archived.len(),
        gc_idle_ms: ms(gc_idle),
    })
}

/// One row: a label, then one cell per size.
fn row(label: &str, all: &[Figures], cell: impl Fn(&Figures) -> String) {
    let cells: String = all.iter().map(|f| format!("{:>22}", cell(f))).collect();
    println!("  {label:<28}{cells}");
}

fn print_table(all: &[Figures], samples: usize) {
    let lat = |l: &Latency| format!("{:.3} / {:.3}", l.median, l.p95);
    println!("ash-memory bench: {samples} samples per figure, a fresh home per size");
    row("memories", all, |f| f.memories.to_string());
    row("component bytes", all, |f| f.component_bytes.to_string());
    row("compile, no cache (ms)", all, |f| format!("{:.1}", f.compile_ms));
    row("open, cached (ms)", all, |f| format!("{:.2}", f.open_cached_ms));
    row("import (memories per s)", all, |f| {
        format!("{:.0}", f.memories as f64 / (f.fill_ms / 1000.0).max(1e-9))
    });
    row("add p50 / p95 (ms)", all, |f| lat(&f.add_ms));
    row("search p50 / p95 (ms)", all, |f| lat(&f.search_ms));
    row("context p50 / p95 (ms)", all, |f| lat(&f.context_ms));
    row("delete p50 / p95 (ms)", all, |f| lat(&f.delete_ms));
    row("written per add (bytes)", all, |f| {
        format!("{:.0}", f.bytes_written_per_add)
    });
    row("memories.jsonl per memory", all, |f| {
        format!("{:.0}", f.jsonl_bytes_per_memory)
    });
    row("CLI --version (ms)", all, |f| format!("{:.1}", f.cli_version_ms));
    row("CLI add, whole process (ms)", all, |f| format!("{:.1}", f.cli_add_ms));
    row("CLI search, whole proc. (ms)", all, |f| {
        format!("{:.1}", f.cli_search_ms)
    });
    row("CLI peak RSS (MB)", all, |f| format!("{:.0}", f.cli_peak_rss_mb));
    row("rebuild-index (ms)", all, |f| format!("{:.1}", f.rebuild_ms));
    row("gc --dry-run (ms)", all, |f| format!("{:.1}", f.gc_dry_run_ms));
    row("gc (ms)", all, |f| format!("{:.1} ({})", f.gc_ms, f.gc_archived));
    row("gc, nothing to do (ms)", all, |f| format!("{:.2}", f.gc_idle_ms));
    for f in all {
        if f.superseded_during_adds > 0 {
            println!(
                "  ({} of the timed adds at {} superseded an older memory)",
                f.superseded_during_adds, f.memories
            );
        }
    }
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

/// This binary run as a whole process against the bench's home, as `bench` user.
struct CliRuns<'a> {
    home: &'a Path,
    cache: &'a Path,
}

impl CliRuns<'_> {
    /// Runs `n` calls (after one untimed, which fills the compile cache) and returns the
    /// median wall time and the largest peak RSS (KiB) among them.
    fn median(&self, n: usize, args: impl Fn(usize) -> Vec<String>) -> Result<(Duration, u64)> {
        let n = n.max(1);
        self.run(&args(n))?;
        let mut times = Vec::with_capacity(n);
        let mut rss = 0;
        for k in 0..n {
            let (time, peak) = self.run(&args(k))?;
            times.push(time);
            rss = rss.max(peak);
        }
        Ok((stats(times).median, rss))
    }

    /// One call: its wall time and peak RSS in KiB (from wait4's rusage).
    fn run(&self, args: &[String]) -> Result<(Duration, u64)> {
        let exe = std::env::current_exe()?;
        let mut command = Command::new(&exe);
        command
            .arg("--home")
            .arg(self.home)
            .args(["--user", "bench"])
            .args(args)
            .env("ASH_CACHE_DIR", self.cache)
            .env_remove("ASH_COMPONENT")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let t = Instant::now();
        let child = command.spawn().context("starting ash-memory")?;
        let pid = child.id() as libc::pid_t;
        let mut status = 0;
        // SAFETY: all-zero is a valid rusage (plain integers).
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is our child and is reaped only here (`child.wait` is never
        // called, and dropping a Child does not wait).
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        let elapsed = t.elapsed();
        drop(child);
        if reaped != pid {
            bail!("waiting for ash-memory: {}", std::io::Error::last_os_error());
        }
        if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
            // Run it again for its message.
            let out = command.stderr(Stdio::piped()).output()?;
            bail!(
                "ash-memory {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok((elapsed, usage.ru_maxrss as u64))
    }
}
