//! The embedder's own cost, apart from the store: loading the model, embedding one query,
//! and embedding facts in a batch (as an import or a rebuild does).

use std::time::Instant;

use anyhow::{Context as _, Result, ensure};
use ash_memory::{Embedder, TransformerEmbedder};
use serde::Serialize;

use super::data::{QUERIES, fact};
use super::timing::{Latency, ms, stats};

/// Facts per batch: the batch a rebuild embeds at a time.
const BATCH: usize = 256;

/// What one embedded model costs.
#[derive(Debug, Serialize)]
pub(super) struct EmbedderFigures {
    pub name: String,
    pub dimension: u32,
    /// The first call's time beyond a warm call's: loading the model (for the static one,
    /// compiled into the binary, only the first pages of its table).
    pub load_ms: f64,
    pub query_ms: Latency,
    pub batch_ms_per_text: f64,
    /// The same batch on one thread, for a model that shares a batch among the cores.
    pub one_thread_batch_ms_per_text: Option<f64>,
}

pub(super) fn measure(name: &str, samples: usize) -> Result<EmbedderFigures> {
    let model = ash_memory::embedded(name).with_context(|| format!("no embedded model {name:?}"))?;
    let embed = |texts: &[String]| embed_with(model.as_ref(), texts);
    let query = |k: usize| vec![QUERIES[k % QUERIES.len()].to_string()];
    let t = Instant::now();
    embed(&query(0))?;
    let first = t.elapsed();
    let mut times = Vec::with_capacity(samples);
    for k in 0..samples.max(1) {
        let t = Instant::now();
        embed(&query(k))?;
        times.push(t.elapsed());
    }
    let queries = stats(times);
    let facts: Vec<String> = (0..BATCH).map(fact).collect();
    let t = Instant::now();
    embed(&facts)?;
    let batch = t.elapsed();
    let one_thread_batch_ms_per_text = if model.model_id() == TransformerEmbedder::MODEL_ID {
        let one = TransformerEmbedder::with_threads(1);
        embed_with(&one, &query(0))?;
        let t = Instant::now();
        embed_with(&one, &facts)?;
        Some(ms(t.elapsed()) / BATCH as f64)
    } else {
        None
    };
    Ok(EmbedderFigures {
        name: name.to_owned(),
        dimension: model.dimension(),
        load_ms: ms(first.saturating_sub(queries.median)),
        query_ms: queries.into(),
        batch_ms_per_text: ms(batch) / BATCH as f64,
        one_thread_batch_ms_per_text,
    })
}

fn embed_with(model: &dyn Embedder, texts: &[String]) -> Result<()> {
    let vectors = model.embed(texts).map_err(|e| anyhow::anyhow!("{e:?}"))?;
    ensure!(
        vectors.len() == texts.len(),
        "{} vectors for {} texts",
        vectors.len(),
        texts.len()
    );
    Ok(())
}

/// Recall at `k` of a first search (what a CLI call runs: candidates by coarse code) against
/// an exact scan of every vector, over the bench's queries and 94 facts it never stored
/// (from `unstored` on), embedded with the model `name`.
pub(super) fn first_search_recall(
    home: &std::path::Path,
    name: &str,
    unstored: usize,
    k: u32,
) -> Result<ash_memory::FirstSearchRecall> {
    let model = ash_memory::embedded(name).with_context(|| format!("no embedded model {name:?}"))?;
    let texts: Vec<String> = QUERIES
        .iter()
        .map(|q| q.to_string())
        .chain((0..94).map(|j| fact(unstored + j)))
        .collect();
    let vectors = model.embed(&texts).map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let index = home.join("data").join("memory.db");
    Ok(ash_memory::first_search_recall(
        &index,
        super::policy::BENCH_USER,
        &vectors,
        k,
    )?)
}
