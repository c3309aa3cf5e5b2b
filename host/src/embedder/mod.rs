//! The `embedder` capability, and the models the host ships:
//! - [`StaticEmbedder`]: all-MiniLM-L6-v2 distilled by model2vec into a token table (see
//!   `host/model/NOTICE`), 256 dimensions, about a microsecond per sentence;
//! - [`TransformerEmbedder`]: all-MiniLM-L6-v2 itself, its six encoder layers run on the CPU
//!   from int8 weights embedded in the binary, 384 dimensions, milliseconds per sentence;
//! - [`OpenAiEmbedder`]: any OpenAI-compatible `/embeddings` service.
//!
//! The embedded ones need no network and no key.

mod openai;
mod static_model;
mod transformer;
mod wordpiece;

pub use openai::OpenAiEmbedder;
pub use static_model::StaticEmbedder;
pub use transformer::{ENCODER_MODULE, TransformerEmbedder};

pub use crate::bindings::ash::memory::embedder::Error as EmbedError;

/// Turns texts into unit vectors of a fixed dimension: the `embedder` import. Implement
/// it to give the policy an embedding model of your own; see `wit/embedder.wit`.
pub trait Embedder: Send {
    /// One vector per text, in order.
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError>;
    /// Identifies the model; the index records it.
    fn model_id(&self) -> &str;
    /// The length of every vector.
    fn dimension(&self) -> u32;
    /// The cosine similarity at which an older memory becomes a supersession candidate,
    /// unless `[memory] supersession_threshold` says otherwise. It belongs to the
    /// embedding space: 0.75 is seed 000's figure for OpenAI's models.
    fn supersession_threshold(&self) -> f32 {
        0.75
    }
    /// The cosine similarity below which the best hit that meaning alone found is noise,
    /// and search shows only what words found. 0 (never) unless measured for the model.
    fn weak_similarity(&self) -> f32 {
        0.0
    }
    /// Whether a call may wait on a network service; the host then releases the home's
    /// lock while it waits, so that a slow service never stalls other callers.
    fn is_remote(&self) -> bool {
        false
    }
    /// About how long one text takes to embed, for a local model slow enough that a write
    /// lets the home's lock go while it embeds (about 1 ms a call or more). Zero (the
    /// default) for a model so quick that letting the lock go and taking it back would cost
    /// more: a slow model of your own holds the lock while it embeds unless it says so.
    fn time_per_text(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}

/// The names `[embedder] provider` accepts for the models embedded in the binary.
pub const EMBEDDED_MODELS: [&str; 2] = ["static", "transformer"];

/// The embedded model of that name (one of [`EMBEDDED_MODELS`]).
pub fn embedded(name: &str) -> Option<Box<dyn Embedder>> {
    match name {
        "static" => Some(Box::new(StaticEmbedder::new())),
        "transformer" => Some(Box::new(TransformerEmbedder::new())),
        _ => None,
    }
}

/// Cosine similarity, for the models' tests.
#[cfg(test)]
pub(crate) fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb: f32 = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    dot / (na * nb)
}
