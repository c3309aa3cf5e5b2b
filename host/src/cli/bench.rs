//! `ash-memory bench`: add and search latency at a given number of memories, in a
//! temporary home, through the real component, index and embedder. Prints figures;
//! asserts nothing.

use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use serde_json::json;

use ash_memory::{Caller, MemoryStore, NewMemory, SearchQuery, sandbox};

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// How many memories to hold while measuring
    #[arg(long, default_value_t = 1000)]
    memories: usize,
    /// How many timed adds and searches
    #[arg(long, default_value_t = 50)]
    samples: usize,
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
fn fact(i: usize) -> String {
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

struct Stats {
    median: Duration,
    p95: Duration,
    mean: Duration,
}

fn stats(mut samples: Vec<Duration>) -> Stats {
    samples.sort();
    let n = samples.len().max(1);
    Stats {
        median: samples[n / 2],
        p95: samples[(n * 95 / 100).min(n - 1)],
        mean: samples.iter().sum::<Duration>() / n as u32,
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

pub fn run(args: &BenchArgs, json_out: bool) -> Result<()> {
    let dir = tempfile::tempdir()?;
    let home = dir.path().join("home");
    let cache = dir.path().join("cache");
    let me = Caller::user("bench", None);

    let t = Instant::now();
    drop(MemoryStore::builder(&home).cache_dir(None).open()?);
    let compile = t.elapsed();
    drop(MemoryStore::builder(&home).cache_dir(Some(cache.clone())).open()?);
    let t = Instant::now();
    let mut store = MemoryStore::builder(&home).cache_dir(Some(cache)).open()?;
    let open_cached = t.elapsed();

    let t = Instant::now();
    let batch = 250;
    let mut i = 0;
    while i < args.memories {
        let items: Vec<NewMemory> = (i..(i + batch).min(args.memories))
            .map(|j| NewMemory::text(&fact(j)))
            .collect();
        store.add_batch(&me, &items)?;
        i += batch;
    }
    let fill = t.elapsed();

    let mut adds = Vec::with_capacity(args.samples);
    for k in 0..args.samples {
        let item = NewMemory::text(&fact(args.memories + k));
        let t = Instant::now();
        store.add(&me, &item)?;
        adds.push(t.elapsed());
    }
    let mut searches = Vec::with_capacity(args.samples);
    let queries = [
        "What does Sarah like to eat?",
        "travel plans",
        "paperwork deadlines",
        "sports",
        "music",
        "my sister's hobbies",
    ];
    for k in 0..args.samples {
        let query = SearchQuery {
            text: queries[k % queries.len()].to_owned(),
            limit: Some(10),
        };
        let t = Instant::now();
        let found = store.search(&me, &query)?;
        searches.push(t.elapsed());
        anyhow::ensure!(!found.hits.is_empty(), "search found nothing");
    }
    let t = Instant::now();
    let rebuilt = store.rebuild_index()?;
    let rebuild = t.elapsed();

    let total = args.memories + args.samples;
    let jsonl = std::fs::metadata(store.home().memories())?.len();
    let add = stats(adds);
    let search = stats(searches);
    if json_out {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "memories": total,
                "component_bytes": sandbox::POLICY_COMPONENT.len(),
                "compile_ms": ms(compile),
                "open_cached_ms": ms(open_cached),
                "fill_ms": ms(fill),
                "add_ms": { "median": ms(add.median), "p95": ms(add.p95), "mean": ms(add.mean) },
                "search_ms": { "median": ms(search.median), "p95": ms(search.p95), "mean": ms(search.mean) },
                "rebuild_ms": ms(rebuild),
                "rebuild_embedded": rebuilt.embedded,
                "jsonl_bytes_per_memory": jsonl as f64 / total as f64,
            }))?
        );
        return Ok(());
    }
    println!(
        "ash-memory bench: {total} memories, {} samples, in {}",
        args.samples,
        dir.path().display()
    );
    println!(
        "  component size          {:>10} bytes",
        sandbox::POLICY_COMPONENT.len()
    );
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
        "  rebuild-index           {:>10.2} ms ({} embedding calls needed)",
        ms(rebuild),
        rebuilt.embedded
    );
    println!(
        "  memories.jsonl          {:>10.0} bytes per memory",
        jsonl as f64 / total as f64
    );
    Ok(())
}
