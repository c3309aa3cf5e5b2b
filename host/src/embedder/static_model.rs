//! The static default: a token -> vector table distilled from all-MiniLM-L6-v2.

use std::sync::OnceLock;

use model2vec_rs::model::StaticModel;

use super::{EmbedError, Embedder};

/// The embedded default model.
pub struct StaticEmbedder {
    model: OnceLock<Result<StaticModel, String>>,
}

const TOKENIZER: &[u8] = include_bytes!("../../model/tokenizer.json");
const WEIGHTS: &[u8] = include_bytes!("../../model/model.safetensors");
const CONFIG: &[u8] = include_bytes!("../../model/config.json");

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
    /// Restatements measured with this model: "I live in Lisbon" / "I live in Porto" 0.74, "My favorite food is sushi"
    /// / "... pizza" 0.62, "I like dogs" / "I like cats" 0.69, unrelated pairs below 0.25.
    /// Candidates are only candidates: verification still decides, and fails closed.
    fn supersession_threshold(&self) -> f32 {
        0.6
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embedder::cosine;

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
