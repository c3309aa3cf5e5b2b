//! all-MiniLM-L6-v2 as a transformer, run on the CPU in the host: `[embedder] provider =
//! "transformer"`. Its weights (int8, 24 MB, see `host/model/NOTICE`) are embedded in the
//! binary, its WordPiece vocabulary is compiled in (`host/wordpiece_vocab.rs`), and the
//! `ash-memory-encoder` crate does the arithmetic.

use std::sync::OnceLock;

use ash_memory_encoder::{Encoder, MAX_TOKENS};

use super::{EmbedError, Embedder};

mod vocab {
    include!(concat!(env!("OUT_DIR"), "/transformer_vocab.rs"));
}
#[cfg(test)]
pub(super) use vocab::VOCAB;

const WEIGHTS: &[u8] = include_bytes!("../../model/transformer/model.safetensors");

/// The same encoder compiled to a WebAssembly core module (`encoder/wasm`), which the
/// JavaScript and Python hosts run: `ash-memory component --encoder` hands it out.
pub const ENCODER_MODULE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/ash_memory_encoder.wasm"));

/// The embedded transformer.
pub struct TransformerEmbedder {
    encoder: OnceLock<Result<Encoder<'static>, String>>,
}

impl TransformerEmbedder {
    /// The model id recorded in the index and in each memory line.
    pub const MODEL_ID: &'static str = "all-minilm-l6-v2-int8";
    /// Its dimension.
    pub const DIMENSION: u32 = ash_memory_encoder::DIMENSION as u32;

    /// Loading happens on first use, so commands that embed nothing never pay for it.
    pub fn new() -> Self {
        TransformerEmbedder {
            encoder: OnceLock::new(),
        }
    }

    fn encoder(&self) -> Result<&Encoder<'static>, EmbedError> {
        self.encoder
            .get_or_init(|| Encoder::load(WEIGHTS))
            .as_ref()
            .map_err(|e| EmbedError::Unavailable(format!("the embedded transformer failed to load: {e}")))
    }
}

impl Default for TransformerEmbedder {
    fn default() -> Self {
        Self::new()
    }
}

/// `text`'s token ids as the model was trained on them: [CLS], at most as many tokens as
/// fit, [SEP].
fn tokens(text: &str) -> Vec<u32> {
    let mut ids = vec![vocab::CLS];
    vocab::VOCAB.token_ids(text, &mut ids);
    // The tokenizer's limit, which the encoder's position table bounds in any case.
    ids.truncate(vocab::MAX_LENGTH.min(MAX_TOKENS) - 1);
    ids.push(vocab::SEP);
    ids
}

impl Embedder for TransformerEmbedder {
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let encoder = self.encoder()?;
        let ids: Vec<Vec<u32>> = texts.iter().map(|t| tokens(t)).collect();
        Ok(encoder.encode_many(&ids))
    }
    fn model_id(&self) -> &str {
        Self::MODEL_ID
    }
    fn dimension(&self) -> u32 {
        Self::DIMENSION
    }
    /// Below what restated facts score with this model and well above unrelated ones
    /// (docs/performance.md, "Figures behind the code"). Verification still decides, and
    /// fails closed.
    fn supersession_threshold(&self) -> f32 {
        0.5
    }
    /// Between what an answer and an unrelated sentence score against a question with this
    /// model; the development sets barely move at it (docs/judgment.md, "Weak best hit").
    fn weak_similarity(&self) -> f32 {
        0.25
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embedder::cosine;

    /// The similarity matrix that sentence-transformers' README prints for these three
    /// sentences with all-MiniLM-L6-v2 in PyTorch (float32): 0.6660, 0.1046, 0.1411. Int8
    /// weights move each figure by well under 0.02; a wrong layer norm, GELU, attention
    /// scale or pooling moves them far more.
    #[test]
    fn reproduces_the_reference_similarities() {
        let e = TransformerEmbedder::new();
        let v = e
            .embed(&[
                "The weather is lovely today.".into(),
                "It's so sunny outside!".into(),
                "He drove to the stadium.".into(),
            ])
            .unwrap();
        assert!(v.iter().all(|x| x.len() == 384));
        let got = [cosine(&v[0], &v[1]), cosine(&v[0], &v[2]), cosine(&v[1], &v[2])];
        for (got, want) in got.iter().zip([0.6660, 0.1046, 0.1411]) {
            assert!((got - want).abs() < 0.005, "{got:?} against the reference {want}");
        }
    }

    /// The model's own tokenizer, framing and truncation included, gives the same ids.
    #[test]
    fn tokens_are_the_tokenizers_crates() {
        let reference =
            tokenizers::Tokenizer::from_bytes(include_bytes!("../../model/transformer/tokenizer.json")).unwrap();
        let mut texts = crate::embedder::wordpiece::tests::corpus();
        texts.push("a long text of many words ".repeat(100));
        for text in texts {
            let expected = reference.encode(text.as_str(), true).unwrap();
            assert_eq!(tokens(&text), expected.get_ids(), "{text:?}");
        }
    }

    /// A batch gives each text the vector it gets alone: no text attends to another's tokens.
    #[test]
    fn batching_does_not_mix_texts() {
        let e = TransformerEmbedder::new();
        let texts: Vec<String> = vec![
            "I drive a 2015 Subaru Outback".into(),
            "".into(),
            "What vehicle do I own?".into(),
        ];
        let together = e.embed(&texts).unwrap();
        for (text, v) in texts.iter().zip(&together) {
            let alone = e.embed(std::slice::from_ref(text)).unwrap();
            assert!(cosine(&alone[0], v) > 0.9999, "{text:?}");
        }
        assert!(cosine(&together[0], &together[2]) > 0.4, "the paraphrase is close");
    }
}
