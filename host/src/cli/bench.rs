//! `ash-memory bench`: add and search latency at a given number of memories, in a
//! temporary home, through the real component, index and embedder. Prints figures;
//! asserts nothing.

use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use serde_json::json;

use ash_memory::{Caller, MemoryStore, MemoryType, NewMemory, NewPerson, POLICY_COMPONENT, SearchQuery};

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// How many memories to hold while measuring
    #[arg(long, default_value_t = 1000)]
    memories: usize,
    /// How many timed adds and searches
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
}

const PEOPLE: &[&str] = &[
    "Sarah",
    "Mike",
    "my boss",
    "my sister",
    "Tom",
    "the landlord",
    "Priya",
    "my dentist",
];
const VERBS: &[&str] = &[
    "likes",
    "recommended",
    "mentioned",
    "asked about",
    "is planning",
    "prefers",
    "talked about",
    "booked",
];
const THINGS: &[&str] = &[
    "Italian food",
    "the hiking trip",
    "a new laptop",
    "the quarterly report",
    "jazz concerts",
    "the kitchen remodel",
    "vegan recipes",
    "the Lisbon conference",
    "chess openings",
    "a blue bicycle",
    "the insurance renewal",
    "sourdough",
    "the marathon",
    "gardening tools",
    "the tax return",
    "a camping stove",
];
const WHEN: &[&str] = &[
    "on weekends",
    "every Monday",
    "this spring",
    "after work",
    "in the morning",
    "last year",
    "for the holidays",
    "at the office",
];

/// A varied, deterministic fact.
pub(super) fn fact(i: usize) -> String {
    let pick = |list: &[&'static str], salt: usize| {
        list[(i.wrapping_mul(2654435761).wrapping_add(salt * 40503) >> 7) % list.len()]
    };
    format!(
        "{} {} {} {} (note {i})",
        pick(PEOPLE, 1),
        pick(VERBS, 2),
        pick(THINGS, 3),
        pick(WHEN, 4)
    )
}

/// The searches timed, in turn.
pub(super) const QUERIES: [&str; 6] = [
    "What does Sarah like to eat?",
    "travel plans",
    "paperwork deadlines",
    "sports",
    "music",
    "my sister's hobbies",
];

/// People created before the fill.
const PEOPLE_IN_BENCH: usize = 200;

/// Adds `memories` facts in batches of 250; every other one is about one of the
/// bench's people. One memory in ten is an observation seen 30 days ago, already
/// decayed, so that GC has real work: archive, rewrite, unindex.
pub(super) fn fill(store: &mut MemoryStore, me: &Caller, memories: usize) -> Result<()> {
    let batch = 250;
    let mut i = 0;
    while i < memories {
        let items: Vec<NewMemory> = (i..(i + batch).min(memories))
            .map(|j| {
                let mut item = NewMemory::text(fact(j));
                if j % 2 == 0 {
                    item.subjects = vec![format!("Person{}", j % PEOPLE_IN_BENCH)];
                }
                if j % 10 == 9 {
                    item.memory_type = Some(MemoryType::Observation);
                    item.observed_at = Some((chrono::Utc::now() - chrono::TimeDelta::days(30)).to_rfc3339());
                }
                item
            })
            .collect();
        store.add_batch(me, &items)?;
        i += batch;
    }
    Ok(())
}

/// Creates the bench's people: half friends, half colleagues.
pub(super) fn add_people(store: &mut MemoryStore, me: &Caller) -> Result<()> {
    for n in 0..PEOPLE_IN_BENCH {
        let relation = if n % 2 == 0 { "friend" } else { "colleague" };
        store.people_add(me, &NewPerson::named(format!("Person{n}")).relation(relation))?;
    }
    Ok(())
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

pub(super) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

pub fn run(args: &BenchArgs, json_out: bool) -> Result<()> {
    if args.serve {
        return super::bench_serve::run(args.memories, args.samples, json_out);
    }
    if let Some(file) = &args.workload {
        return super::bench_workload::run(file);
    }
    let dir = tempfile::tempdir()?;
    let home = dir.path().join("home");
    let cache = dir.path().join("cache");
    let me = Caller::user("bench");

    let t = Instant::now();
    drop(MemoryStore::builder(&home).cache_dir(None).open()?);
    let compile = t.elapsed();
    drop(MemoryStore::builder(&home).cache_dir(Some(cache.clone())).open()?);
    let t = Instant::now();
    let mut store = MemoryStore::builder(&home).cache_dir(Some(cache)).open()?;
    let open_cached = t.elapsed();

    // 200 people; every other memory is about one of them, for the person graph and the
    // "Known People" block.
    add_people(&mut store, &me)?;
    let t = Instant::now();
    fill(&mut store, &me, args.memories)?;
    let fill = t.elapsed();

    // Every add runs the full path: secret check, embedding, supersession candidates from
    // the index and their verification, append, index upsert, fsync.
    let mut adds = Vec::with_capacity(args.samples);
    let mut superseded = 0;
    let written = bytes_written();
    for k in 0..args.samples {
        let item = NewMemory::text(fact(args.memories + k));
        let t = Instant::now();
        superseded += store.add(&me, &item)?.superseded.len();
        adds.push(t.elapsed());
    }
    let bytes_per_add = (bytes_written() - written) as f64 / args.samples.max(1) as f64;
    let mut searches = Vec::with_capacity(args.samples);
    let queries = QUERIES;
    for k in 0..args.samples {
        let query = SearchQuery::new(queries[k % queries.len()]).limit(10);
        let t = Instant::now();
        let found = store.search(&me, &query)?;
        searches.push(t.elapsed());
        anyhow::ensure!(!found.hits.is_empty(), "search found nothing");
    }
    let mut contexts = Vec::with_capacity(args.samples);
    let mut context_tokens = 0;
    for k in 0..args.samples {
        let message = format!("{} Person{}?", queries[k % queries.len()], k % PEOPLE_IN_BENCH);
        let t = Instant::now();
        let block = store.context(&me, &message, None)?;
        contexts.push(t.elapsed());
        anyhow::ensure!(
            block.people.len() == 50 && !block.memories.is_empty(),
            "context came back short"
        );
        context_tokens = block.estimated_tokens;
    }
    let t = Instant::now();
    let rebuilt = store.rebuild_index()?;
    let rebuild = t.elapsed();
    let total = args.memories + args.samples;
    let jsonl = std::fs::metadata(store.home().join("memory/memories.jsonl"))?.len();

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
    let add = stats(adds);
    let search = stats(searches);
    let context = stats(contexts);
    if json_out {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "memories": total,
                "component_bytes": POLICY_COMPONENT.len(),
                "compile_ms": ms(compile),
                "open_cached_ms": ms(open_cached),
                "fill_ms": ms(fill),
                "add_ms": { "median": ms(add.median), "p95": ms(add.p95), "mean": ms(add.mean) },
                "search_ms": { "median": ms(search.median), "p95": ms(search.p95), "mean": ms(search.mean) },
                "context_ms": { "median": ms(context.median), "p95": ms(context.p95), "mean": ms(context.mean) },
                "people": PEOPLE_IN_BENCH,
                "context_tokens": context_tokens,
                "rebuild_ms": ms(rebuild),
                "rebuild_embedded": rebuilt.embedded,
                "jsonl_bytes_per_memory": jsonl as f64 / total as f64,
                "bytes_written_per_add": bytes_per_add,
                "superseded_during_adds": superseded,
                "gc_dry_run_ms": ms(gc_dry),
                "gc_ms": ms(gc),
                "gc_archived": collected.archived.len(),
                "gc_idle_ms": ms(gc_idle),
            }))?
        );
        return Ok(());
    }
    println!(
        "ash-memory bench: {total} memories, {} samples, in {}",
        args.samples,
        dir.path().display()
    );
    println!("  component size          {:>10} bytes", POLICY_COMPONENT.len());
    println!("  compile component       {:>10.2} ms (no cache)", ms(compile));
    println!("  open store, cached      {:>10.2} ms", ms(open_cached));
    println!(
        "  fill {:>6} (batches)   {:>10.2} ms ({:.3} ms per memory)",
        args.memories,
        ms(fill),
        ms(fill) / args.memories.max(1) as f64
    );
    println!(
        "  add     median/p95/mean {:>8.3} / {:.3} / {:.3} ms",
        ms(add.median),
        ms(add.p95),
        ms(add.mean)
    );
    println!(
        "  search  median/p95/mean {:>8.3} / {:.3} / {:.3} ms",
        ms(search.median),
        ms(search.p95),
        ms(search.mean)
    );
    println!(
        "  context median/p95/mean {:>8.3} / {:.3} / {:.3} ms ({PEOPLE_IN_BENCH} people, ~{context_tokens} tokens)",
        ms(context.median),
        ms(context.p95),
        ms(context.mean)
    );
    println!(
        "  rebuild-index           {:>10.2} ms ({} embedding calls needed)",
        ms(rebuild),
        rebuilt.embedded
    );
    println!(
        "  memories.jsonl          {:>10.0} bytes per memory",
        jsonl as f64 / total as f64
    );
    println!("  written per add         {bytes_per_add:>10.0} bytes (all writes: JSONL, index, journal)");
    println!("  gc --dry-run            {:>10.2} ms", ms(gc_dry));
    println!(
        "  gc                      {:>10.2} ms ({} archived, file rewritten)",
        ms(gc),
        collected.archived.len()
    );
    println!("  gc, nothing to do       {:>10.2} ms", ms(gc_idle));
    if superseded > 0 {
        println!("  ({superseded} of the timed adds superseded an older memory)");
    }
    Ok(())
}
