//! `ash-memory bench`: add, search and context latency at one or more sizes, each in a
//! fresh temporary home, through the real component, index and embedder; then the same
//! home through whole CLI processes, as a sandboxed tool would call it. With `--native`,
//! the same workload again on a second fresh home through the policy linked natively, and
//! the component/native ratios. Prints one column per size (or `--json`); asserts nothing.

use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use ash_memory::{MemoryStore, POLICY_COMPONENT};

mod backends;
mod conversations;
mod data;
mod embedder;
mod policy;
pub(crate) mod process;
mod scaling;
mod serve;
mod timing;
mod workload;

use self::data::{QUERIES, fact};
use self::embedder::EmbedderFigures;
use self::process::CliRuns;
use self::timing::ms;
use self::timing::{Latency, Maintenance, Online};

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
    /// Run the same workload a second time through the policy linked natively (no
    /// sandbox) on its own fresh home, and print the component/native ratios
    #[arg(long, conflicts_with_all = ["serve", "workload"])]
    native: bool,
    /// Measure conversations instead: hold this many stored messages beside the first
    /// size's memories, and time storing a turn, the context with past messages, and
    /// extraction by rules
    #[arg(long, value_name = "MESSAGES", conflicts_with_all = ["serve", "workload", "native"])]
    turns: Option<usize>,
    /// Measure the same workload on the files backend and on this one ("postgres", the
    /// URL in $ASH_PG_URL), side by side, with throughput from two servers sharing one
    /// namespace
    #[arg(long, value_name = "BACKEND", value_parser = ["postgres"], conflicts_with_all = ["serve", "workload", "native", "turns", "keep"])]
    backend: Option<String>,
    /// The embedded model the homes use (written to their config.toml): static (the
    /// default) or transformer
    #[arg(long, default_value = "static", value_parser = clap::builder::PossibleValuesParser::new(ash_memory::EMBEDDED_MODELS), conflicts_with_all = ["serve", "workload", "turns", "backend"])]
    embedder: String,
    /// Keep the homes in this folder (one `home-N` per size), to profile or inspect them
    #[arg(long, value_name = "DIR")]
    keep: Option<std::path::PathBuf>,
}

/// Everything measured at one size.
#[derive(Debug, Serialize)]
struct Figures {
    memories: usize,
    embedder: EmbedderFigures,
    component_bytes: usize,
    compile_ms: f64,
    open_cached_ms: f64,
    #[serde(flatten)]
    online: Online,
    jsonl_bytes_per_memory: f64,
    cli_version_ms: f64,
    cli_add_ms: f64,
    cli_search_ms: f64,
    cli_context_ms: f64,
    /// `list --limit 10`, which reads the index's most recent entries.
    cli_list_ms: f64,
    /// Recall at 10 of a first search against an exact scan (`ash_memory::first_search_recall`).
    first_search_recall_at_10: f64,
    /// The same at 80, the depth a search asks its vector list for (the guest's
    /// `LIST_DEPTH`), whose ranks past 40 come from fewer candidates a rank.
    first_search_recall_at_80: f64,
    /// The median time of that exact scan over the bench scope's vectors held in memory:
    /// the brute-force bound beside the search figures.
    exact_scan_ms: f64,
    cli_peak_rss_mb: f64,
    #[serde(flatten)]
    maintenance: Maintenance,
    /// The same workload through the policy linked natively (`--native`).
    #[serde(skip_serializing_if = "Option::is_none")]
    native: Option<Native>,
}

/// The workload through the native policy, on its own fresh home.
#[derive(Debug, Serialize)]
struct Native {
    #[serde(flatten)]
    online: Online,
    #[serde(flatten)]
    maintenance: Maintenance,
}

pub fn run(args: &BenchArgs, json_out: bool) -> Result<()> {
    if args.serve {
        let memories = args.memories.first().copied().unwrap_or(1000);
        return self::serve::run(memories, args.samples, json_out);
    }
    if let Some(messages) = args.turns {
        let memories = args.memories.first().copied().unwrap_or(1000);
        return self::conversations::run(memories, messages, args.samples, json_out);
    }
    if args.backend.is_some() {
        return self::backends::run(&args.memories, args.samples, json_out);
    }
    if let Some(file) = &args.workload {
        return self::workload::run(file);
    }
    #[cfg(not(feature = "native-policy"))]
    if args.native {
        anyhow::bail!(NO_NATIVE);
    }
    let mut all = Vec::new();
    for &memories in &args.memories {
        if !json_out {
            eprintln!("bench: {memories} memories...");
        }
        all.push(measure(memories, args)?);
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

/// Fills a fresh home with `memories` and measures everything at that size; with
/// `--native`, the same workload once more on another fresh home without the sandbox.
fn measure(memories: usize, args: &BenchArgs) -> Result<Figures> {
    let (samples, keep, native, embedder) = (args.samples, args.keep.as_deref(), args.native, args.embedder.as_str());
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
    use_embedder(&home, embedder)?;

    let t = Instant::now();
    drop(MemoryStore::builder(&home).cache_dir(None).open()?);
    let compile = t.elapsed();
    drop(MemoryStore::builder(&home).cache_dir(Some(cache.clone())).open()?);
    let t = Instant::now();
    let mut store = MemoryStore::builder(&home).cache_dir(Some(cache.clone())).open()?;
    let open_cached = t.elapsed();

    let online = timing::online(&mut store, memories, samples, Some(&timing::index_of(&home)))?;
    let jsonl = std::fs::metadata(store.home().join("memory/memories.jsonl"))?.len();
    let jsonl_per_memory = jsonl as f64 / (memories + samples).max(1) as f64;

    let cli = CliRuns {
        home: &home,
        cache: &cache,
    };
    let version = cli.median(samples / 5, |_| vec!["--version".into()])?;
    let cli_adds = cli.median(samples / 5, |k| vec!["add".into(), fact(memories + samples + k)])?;
    let cli_searches = cli.median(samples / 5, |k| {
        vec!["search".into(), QUERIES[k % QUERIES.len()].into()]
    })?;
    let cli_contexts = cli.median(samples / 5, |k| {
        vec!["context".into(), QUERIES[k % QUERIES.len()].into()]
    })?;

    let cli_lists = cli.median(samples / 5, |_| vec!["list".into(), "--limit".into(), "10".into()])?;

    let recall = self::embedder::first_search_recall(&home, embedder, memories + samples * 3, 10)?;
    let deep = self::embedder::first_search_recall(&home, embedder, memories + samples * 3, 80)?;

    let maintenance = timing::maintenance(&mut store)?;
    drop(store);
    let native = match native {
        true => {
            let home = dir.path().join("native-home");
            use_embedder(&home, embedder)?;
            Some(measure_native(&home, memories, samples)?)
        }
        false => None,
    };
    Ok(Figures {
        memories,
        embedder: self::embedder::measure(embedder, samples)?,
        component_bytes: POLICY_COMPONENT.len(),
        compile_ms: ms(compile),
        open_cached_ms: ms(open_cached),
        online,
        jsonl_bytes_per_memory: jsonl_per_memory,
        cli_version_ms: ms(version.0),
        cli_add_ms: ms(cli_adds.0),
        cli_search_ms: ms(cli_searches.0),
        cli_context_ms: ms(cli_contexts.0),
        cli_list_ms: ms(cli_lists.0),
        first_search_recall_at_10: recall.recall,
        first_search_recall_at_80: deep.recall,
        exact_scan_ms: recall.exact_scan_ms,
        cli_peak_rss_mb: cli_adds.1.max(cli_searches.1).max(cli_contexts.1).max(cli_lists.1) as f64 / 1024.0,
        maintenance,
        native,
    })
}

/// The SQLite index of a home on the files backend.
/// Creates `home` with a config.toml that selects the embedded model `name`.
fn use_embedder(home: &Path, name: &str) -> Result<()> {
    std::fs::create_dir_all(home)?;
    std::fs::write(home.join("config.toml"), format!("[embedder]\nprovider = {name:?}\n"))?;
    Ok(())
}

/// The online calls and maintenance through the native policy on a fresh home.
#[cfg(feature = "native-policy")]
fn measure_native(home: &Path, memories: usize, samples: usize) -> Result<Native> {
    let mut store = MemoryStore::builder(home).open_native()?;
    Ok(Native {
        online: timing::online(&mut store, memories, samples, Some(&timing::index_of(home)))?,
        maintenance: timing::maintenance(&mut store)?,
    })
}

#[cfg(not(feature = "native-policy"))]
fn measure_native(_: &Path, _: usize, _: usize) -> Result<Native> {
    anyhow::bail!(NO_NATIVE)
}

/// Why `--native` cannot run.
#[cfg(not(feature = "native-policy"))]
const NO_NATIVE: &str = "bench --native needs the policy linked natively: build with the native-policy feature";

/// One row: a label, then one cell per size.
fn row(label: &str, all: &[Figures], cell: impl Fn(&Figures) -> String) {
    // The space keeps a cell wider than its column apart from the one before it.
    let cells: String = all.iter().map(|f| format!(" {:>21}", cell(f))).collect();
    println!("  {label:<28}{cells}");
}

fn print_table(all: &[Figures], samples: usize) {
    let lat = |l: &Latency| format!("{:.3} / {:.3}", l.median, l.p95);
    let rate = |f: &Figures, o: &Online| f.memories as f64 / (o.fill_ms / 1000.0).max(1e-9);
    println!("ash-memory bench: {samples} samples per figure, a fresh home per size");
    row("memories", all, |f| f.memories.to_string());
    row("embedder (dimension)", all, |f| {
        format!("{} ({})", f.embedder.name, f.embedder.dimension)
    });
    row("model load (ms)", all, |f| format!("{:.1}", f.embedder.load_ms));
    row("embed a query p50 / p95 (ms)", all, |f| lat(&f.embedder.query_ms));
    row("embed in a batch (ms a text)", all, |f| {
        format!("{:.3}", f.embedder.batch_ms_per_text)
    });
    if all.iter().any(|f| f.embedder.one_thread_batch_ms_per_text.is_some()) {
        row("  one thread / every core", all, |f| {
            match f.embedder.one_thread_batch_ms_per_text {
                Some(one) => format!(
                    "{one:.3} / {:.3} ({:.2}x)",
                    f.embedder.batch_ms_per_text,
                    one / f.embedder.batch_ms_per_text
                ),
                None => "-".into(),
            }
        });
    }
    row("component bytes", all, |f| f.component_bytes.to_string());
    row("compile, no cache (ms)", all, |f| format!("{:.1}", f.compile_ms));
    row("open, cached (ms)", all, |f| format!("{:.2}", f.open_cached_ms));
    row("import (memories per s)", all, |f| format!("{:.0}", rate(f, &f.online)));
    row("add p50 / p95 (ms)", all, |f| lat(&f.online.add_ms));
    row("search p50 / p95 (ms)", all, |f| lat(&f.online.search_ms));
    row("exact scan, in memory (ms)", all, |f| format!("{:.3}", f.exact_scan_ms));
    row("context p50 / p95 (ms)", all, |f| lat(&f.online.context_ms));
    row("delete p50 / p95 (ms)", all, |f| lat(&f.online.delete_ms));
    row("written per add (bytes)", all, |f| {
        format!("{:.0}", f.online.bytes_written_per_add)
    });
    row("memories.jsonl per memory", all, |f| {
        format!("{:.0}", f.jsonl_bytes_per_memory)
    });
    row("CLI --version (ms)", all, |f| format!("{:.1}", f.cli_version_ms));
    row("CLI add, whole process (ms)", all, |f| format!("{:.1}", f.cli_add_ms));
    row("CLI search, whole proc. (ms)", all, |f| {
        format!("{:.1}", f.cli_search_ms)
    });
    row("CLI context, whole proc. (ms)", all, |f| {
        format!("{:.1}", f.cli_context_ms)
    });
    row("CLI list --limit 10 (ms)", all, |f| format!("{:.1}", f.cli_list_ms));
    row("first search recall@10", all, |f| {
        format!("{:.4}", f.first_search_recall_at_10)
    });
    row("first search recall@80", all, |f| {
        format!("{:.4}", f.first_search_recall_at_80)
    });
    row("CLI peak RSS (MB)", all, |f| format!("{:.0}", f.cli_peak_rss_mb));
    row("rebuild-index (ms)", all, |f| {
        format!("{:.1}", f.maintenance.rebuild_ms)
    });
    row("gc --dry-run (ms)", all, |f| {
        format!("{:.1}", f.maintenance.gc_dry_run_ms)
    });
    row("gc (ms)", all, |f| {
        format!("{:.1} ({})", f.maintenance.gc_ms, f.maintenance.gc_archived)
    });
    row("gc, nothing to do (ms)", all, |f| {
        format!("{:.2}", f.maintenance.gc_idle_ms)
    });
    for f in all {
        if f.online.superseded_during_adds > 0 {
            println!(
                "  ({} of the timed adds at {} superseded an older memory)",
                f.online.superseded_during_adds, f.memories
            );
        }
    }
    if all.iter().all(|f| f.native.is_some()) && !all.is_empty() {
        print_ratios(all, rate);
    }
}

/// The sandbox's cost: each figure through the component and through the native policy
/// (the same workload on a second fresh home), and their ratio.
fn print_ratios(all: &[Figures], rate: impl Fn(&Figures, &Online) -> f64) {
    println!("the sandbox's cost: component / native (p50 for latencies), same workload, same run");
    fn native(f: &Figures) -> &Native {
        f.native.as_ref().expect("checked by the caller")
    }
    let cell = |component: f64, native: f64| format!("{component:.2}/{native:.2} {:.2}x", component / native);
    row("import (memories per s)", all, |f| {
        // A rate: native over component, so that above 1 means the sandbox is slower.
        let (c, n) = (rate(f, &f.online), rate(f, &native(f).online));
        format!("{c:.0}/{n:.0} {:.2}x", n / c)
    });
    row("add (ms)", all, |f| {
        cell(f.online.add_ms.median, native(f).online.add_ms.median)
    });
    row("search (ms)", all, |f| {
        cell(f.online.search_ms.median, native(f).online.search_ms.median)
    });
    row("context (ms)", all, |f| {
        cell(f.online.context_ms.median, native(f).online.context_ms.median)
    });
    row("delete (ms)", all, |f| {
        cell(f.online.delete_ms.median, native(f).online.delete_ms.median)
    });
    row("rebuild-index (ms)", all, |f| {
        cell(f.maintenance.rebuild_ms, native(f).maintenance.rebuild_ms)
    });
    row("gc (ms)", all, |f| {
        cell(f.maintenance.gc_ms, native(f).maintenance.gc_ms)
    });
    row("gc, nothing to do (ms)", all, |f| {
        cell(f.maintenance.gc_idle_ms, native(f).maintenance.gc_idle_ms)
    });
}
