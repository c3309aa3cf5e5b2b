//! The `embedder` capability. The default is a static model embedded in the binary:
//! all-MiniLM-L6-v2 distilled by model2vec (see `host/model/NOTICE`), 256 dimensions,
//! about a microsecond per sentence, no network and no key.

use std::sync::OnceLock;

use model2vec_rs::model::StaticModel;

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
    /// Whether a call may wait on a network service; the host then releases the home's
    /// lock while it waits, so that a slow service never stalls other callers.
    fn is_remote(&self) -> bool {
        false
    }
}

/// The embedded default model.
pub struct StaticEmbedder {
    model: OnceLock<Result<StaticModel, String>>,
}

const TOKENIZER: &[u8] = include_bytes!("../model/tokenizer.json");
const WEIGHTS: &[u8] = include_bytes!("../model/model.safetensors");
const CONFIG: &[u8] = include_bytes!("../model/config.json");

impl StaticEmbedder {
    /// The model id recorded in the index and in each memory line.
    pub const MODEL_ID: &'static str = "minilm-l6-v2-m2v-256-int8";
    /// Its dimension.
    pub const DIMENSION: u32 = 256;

    /// Parsing the model takes a few tens of milliseconds, so it happens on first use:
    /// commands that embed nothing (list, show, delete) never pay for it.
    pub fn new() -> Self {
        StaticEmbedder { model: OnceLock::new() }
    }

    fn model(&self) -> Result<&StaticModel, EmbedError> {
        self.model
            .get_or_init(|| StaticModel::from_bytes(TOKENIZER, WEIGHTS, CONFIG, None).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| EmbedError::Unavailable(format!("the embedded model failed to load: {e}")))
    }
}

impl Default for StaticEmbedder {
    fn default() -> Self {
        Self::new()
    }
}

impl Embedder for StaticEmbedder {
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let model = self.model()?;
        let vectors = model.encode(texts);
        if let Some(bad) = vectors.iter().find(|v| v.len() != Self::DIMENSION as usize) {
            return Err(EmbedError::DimensionMismatch((Self::DIMENSION, bad.len() as u32)));
        }
        Ok(vectors)
    }
    fn model_id(&self) -> &str {
        Self::MODEL_ID
    }
    fn dimension(&self) -> u32 {
        Self::DIMENSION
    }
    /// Static embeddings score restatements lower than transformer ones. Measured with
    /// this model: "I live in Lisbon" / "I live in Porto" 0.74, "My favorite food is sushi"
    /// / "... pizza" 0.62, "I like dogs" / "I like cats" 0.69, unrelated pairs below 0.25.
    /// Candidates are only candidates: verification still decides, and fails closed.
    fn supersession_threshold(&self) -> f32 {
        0.6
    }
}

/// An OpenAI-compatible `/embeddings` service (OpenAI, Ollama, vLLM, llama.cpp).
pub struct OpenAiEmbedder {
    http: crate::http::HttpClient,
    url: String,
    model: String,
    model_id: String,
    dimension: u32,
}

impl OpenAiEmbedder {
    /// `base_url` is the API root, such as `https://api.openai.com/v1`.
    pub fn new(http: crate::http::HttpClient, base_url: &str, model: &str, dimension: u32) -> Self {
        OpenAiEmbedder {
            http,
            url: crate::http::join(base_url, "embeddings"),
            model: model.to_owned(),
            model_id: format!("openai:{model}"),
            dimension,
        }
    }
}

impl Embedder for OpenAiEmbedder {
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let body = serde_json::json!({ "model": self.model, "input": texts, "dimensions": self.dimension });
        let answer = self
            .http
            .post_json(&self.url, body)
            .map_err(|e| EmbedError::Unavailable(e.to_string()))?;
        let bad = |why: &str| EmbedError::Unavailable(format!("{}: {why}", self.url));
        let data = answer["data"]
            .as_array()
            .ok_or_else(|| bad("the answer has no `data` list"))?;
        if data.len() != texts.len() {
            return Err(bad(&format!("{} embeddings for {} texts", data.len(), texts.len())));
        }
        let mut vectors: Vec<(u64, Vec<f32>)> = Vec::with_capacity(data.len());
        for (i, item) in data.iter().enumerate() {
            let values = item["embedding"]
                .as_array()
                .ok_or_else(|| bad("an item has no `embedding`"))?;
            let mut v: Vec<f32> = values
                .iter()
                .map(|x| x.as_f64().map(|f| f as f32))
                .collect::<Option<_>>()
                .ok_or_else(|| bad("an embedding holds a non-number"))?;
            if v.len() != self.dimension as usize {
                return Err(EmbedError::DimensionMismatch((self.dimension, v.len() as u32)));
            }
            // Search and supersession compare by cosine; unit vectors make that a dot product.
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            if norm > 0.0 {
                v.iter_mut().for_each(|x| *x /= norm);
            }
            vectors.push((item["index"].as_u64().unwrap_or(i as u64), v));
        }
        vectors.sort_by_key(|(i, _)| *i);
        Ok(vectors.into_iter().map(|(_, v)| v).collect())
    }
    fn model_id(&self) -> &str {
        &self.model_id
    }
    fn dimension(&self) -> u32 {
        self.dimension
    }
    fn is_remote(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(a: &[f32], b: &[f32]) -> f32 {
        let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
        let na: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
        let nb: f32 = b.iter().map(|x| x * x).sum::<f32>().sqrt();
        dot / (na * nb)
    }

    #[test]
    fn the_default_model_understands_meaning() {
        let e = StaticEmbedder::new();
        let v = e
            .embed(&[
                "What should I avoid eating?".into(),
                "I'm allergic to peanuts".into(),
                "My favorite color is blue".into(),
            ])
            .unwrap();
        assert!(v.iter().all(|x| x.len() == 256));
        let related = cosine(&v[0], &v[1]);
        let unrelated = cosine(&v[0], &v[2]);
        assert!(
            related > 0.25 && unrelated < 0.15 && related > 2.0 * unrelated,
            "{related} vs {unrelated}"
        );
    }
}
