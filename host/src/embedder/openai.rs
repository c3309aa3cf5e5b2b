//! An embedder over HTTP: any service that speaks OpenAI's `/embeddings`.

use super::{EmbedError, Embedder};

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
