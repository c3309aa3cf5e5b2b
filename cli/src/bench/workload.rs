//! `ash-memory bench --workload FILE`: the Rust host's side of the cross-host bench
//! (`scripts/bench_hosts.py`). The JavaScript and Python hosts run the same file through
//! their own bench, so the three figures compare one workload on one component.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use serde::Deserialize;
use serde_json::json;

use ash_memory::{Caller, MemoryStore, NewMemory, SearchQuery};

use super::timing::{ms, stats};

/// Facts to hold, facts to add one at a time (timed), queries to search (timed).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Workload {
    facts: Vec<String>,
    adds: Vec<String>,
    queries: Vec<String>,
}

/// Runs the workload in a temporary home and prints one JSON line of figures.
pub fn run(file: &Path) -> Result<()> {
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let work: Workload = serde_json::from_str(&text).with_context(|| format!("parsing {}", file.display()))?;
    let dir = tempfile::tempdir()?;
    let me = Caller::user("bench");

    // Load the component from its bytes, compile and instantiate it: no compile cache,
    // as the other hosts' figure is taken in a process that has compiled nothing yet.
    let home = dir.path().join("home");
    let t = Instant::now();
    drop(MemoryStore::builder(&home).cache_dir(None).open()?);
    let instantiate = t.elapsed();
    // What a CLI call pays after its first: the compiled component from the disk cache.
    let cache = dir.path().join("cache");
    drop(MemoryStore::builder(&home).cache_dir(Some(cache.clone())).open()?);
    let t = Instant::now();
    let mut store = MemoryStore::builder(&home).cache_dir(Some(cache)).open()?;
    let instantiate_cached = t.elapsed();

    let t = Instant::now();
    for batch in work.facts.chunks(250) {
        let items: Vec<NewMemory> = batch.iter().map(|f| NewMemory::text(f.as_str())).collect();
        store.add_batch(&me, &items)?;
    }
    let fill = t.elapsed();
    let mut adds = Vec::new();
    for fact in &work.adds {
        let t = Instant::now();
        store.add(&me, &NewMemory::text(fact.as_str()))?;
        adds.push(t.elapsed());
    }
    let mut searches = Vec::new();
    for query in &work.queries {
        let t = Instant::now();
        let found = store.search(&me, &SearchQuery::new(query.as_str()).limit(10))?;
        searches.push(t.elapsed());
        anyhow::ensure!(!found.hits.is_empty(), "search for {query:?} found nothing");
    }
    let t = Instant::now();
    store.rebuild_index()?;
    let rebuild = t.elapsed();
    println!(
        "{}",
        json!({
            "host": "rust",
            "component_sha256": ash_memory::POLICY_COMPONENT_SHA256,
            // What the other hosts run: this policy with the index plugged in.
            "composed_sha256": crate::commands::component::hex_sha256(ash_memory::COMPOSED_COMPONENT),
            "memories": work.facts.len() + work.adds.len(),
            "instantiate_ms": ms(instantiate),
            "instantiate_cached_ms": ms(instantiate_cached),
            "fill_ms": ms(fill),
            "add_p50_ms": ms(stats(adds).median),
            "search_p50_ms": ms(stats(searches).median),
            "rebuild_ms": ms(rebuild),
        })
    );
    Ok(())
}
