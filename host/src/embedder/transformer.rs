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
    /// Threads a batch is shared among; `None` is one per core (at most four).
    threads: Option<usize>,
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
            threads: None,
        }
    }

    /// Shares a batch among at most `threads` threads (at least one) instead of one per
    /// core: for a host that must leave cores to other work. The vectors are the same.
    pub fn with_threads(threads: usize) -> Self {
        TransformerEmbedder {
            encoder: OnceLock::new(),
            threads: Some(threads.max(1)),
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

/// `ids` encoded on every core: the texts are cut into contiguous runs of about equal
/// tokens, one run per thread, each encoded as one thread would encode it. A text's vector
/// does not depend on the texts beside it in a pass, so the bits are the same as on one core.
fn encode_on_all_cores(encoder: &Encoder<'_>, ids: &[Vec<u32>], cores: usize) -> Vec<Vec<f32>> {
    let runs = cores.min(ids.len());
    if runs < 2 {
        return encoder.encode_many(ids);
    }
    let total: usize = ids.iter().map(Vec::len).sum();
    let mut cuts = Vec::with_capacity(runs + 1);
    cuts.push(0);
    let mut tokens = 0;
    for (i, text) in ids.iter().enumerate() {
        tokens += text.len();
        // Cut after this text once the run holds its share; the last run takes the rest.
        if cuts.len() < runs && tokens * runs >= total * cuts.len() && i + 1 < ids.len() {
            cuts.push(i + 1);
        }
    }
    cuts.push(ids.len());
    std::thread::scope(|scope| {
        let threads: Vec<_> = cuts
            .windows(2)
            .map(|run| {
                let texts = &ids[run[0]..run[1]];
                // One thread per run already uses every core: the layers stay on it.
                scope.spawn(move || ash_memory_encoder::on_this_thread(|| encoder.encode_many(texts)))
            })
            .collect();
        let mut vectors = Vec::with_capacity(ids.len());
        for thread in threads {
            match thread.join() {
                Ok(run) => vectors.extend(run),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        vectors
    })
}

impl Embedder for TransformerEmbedder {
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let encoder = self.encoder()?;
        let ids: Vec<Vec<u32>> = texts.iter().map(|t| tokens(t)).collect();
        Ok(encode_on_all_cores(
            encoder,
            &ids,
            self.threads.unwrap_or_else(ash_memory_encoder::cores),
        ))
    }
    fn model_id(&self) -> &str {
        Self::MODEL_ID
    }
    /// 3.5 ms a text on one core of this project's 2-core machine (docs/performance.md).
    fn time_per_text(&self) -> std::time::Duration {
        std::time::Duration::from_micros(3500)
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

    /// However a batch is shared among threads, and however many there are, every text
    /// gets the bits it gets alone: runs of one text, uneven runs, more threads than texts,
    /// and a text long enough for a pass of its own.
    #[test]
    fn every_core_count_gives_the_vectors_one_text_gets_alone() {
        let encoder = TransformerEmbedder::new();
        let encoder = encoder.encoder().unwrap();
        let mut texts: Vec<String> = [
            "I'm allergic to peanuts",
            "My sister Ana lives in Lisbon and visits every other summer with her two kids",
            "ok",
            "The standup moved to 10am",
            "We adopted a dog called Biscuit",
        ]
        .iter()
        .map(|t| t.to_string())
        .collect();
        texts.push("a long story about the garden ".repeat(60));
        let ids: Vec<Vec<u32>> = texts.iter().map(|t| tokens(t)).collect();
        let alone: Vec<Vec<f32>> = ids
            .iter()
            .map(|one| encoder.encode(std::slice::from_ref(one)).remove(0))
            .collect();
        for cores in [1, 2, 3, 4, 8] {
            let shared = encode_on_all_cores(encoder, &ids, cores);
            assert_eq!(shared.len(), ids.len(), "{cores} cores");
            for (i, (got, want)) in shared.iter().zip(&alone).enumerate() {
                let same = got.iter().zip(want).all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "text {i} on {cores} cores differs from the text alone");
            }
        }
        assert!(encode_on_all_cores(encoder, &[], 4).is_empty());
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
