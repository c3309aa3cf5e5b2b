//! A BERT encoder's forward pass, as all-MiniLM-L6-v2 needs it: embeddings, six layers of
//! self-attention and feed-forward with post-layer-norm, then mean pooling and unit length.
//!
//! Several texts run as one batch without padding: their tokens are laid end to end, every
//! per-token step (the linear layers, layer norms, GELU) runs once over all of them, and only
//! attention looks at each text's own span.

use std::ops::Range;

use crate::elementwise;
use crate::linear::Linear;
use crate::weights::{Int8Matrix, Weights};

/// The shape of all-MiniLM-L6-v2 (its `config.json`).
const HIDDEN: usize = 384;
const HEADS: usize = 12;
const HEAD: usize = HIDDEN / HEADS;
const INTERMEDIATE: usize = 1536;
const LAYERS: usize = 6;
const POSITIONS: usize = 512;
const VOCABULARY: usize = 30522;
const LAYER_NORM_EPS: f32 = 1e-12;

/// The length of every vector [`Encoder::encode`] returns.
pub const DIMENSION: usize = HIDDEN;
/// The longest text the position table allows, in tokens.
pub const MAX_TOKENS: usize = POSITIONS;
/// Tokens per forward pass in [`Encoder::encode_many`]: bounds the pass's buffers (about
/// 60 MB at this size: six 384-wide rows and one 1536-wide row of float32 per token) while
/// letting many short texts share each pass over the weights.
pub const TOKENS_PER_PASS: usize = 4096;

struct LayerNorm {
    gain: Vec<f32>,
    bias: Vec<f32>,
}

struct Layer<'a> {
    query: Linear<'a>,
    key: Linear<'a>,
    value: Linear<'a>,
    attention_out: Linear<'a>,
    attention_norm: LayerNorm,
    intermediate: Linear<'a>,
    output: Linear<'a>,
    output_norm: LayerNorm,
}

/// The encoder, borrowing its matrices from the weights' bytes.
pub struct Encoder<'a> {
    words: Int8Matrix<'a>,
    positions: Vec<f32>,
    token_type: Vec<f32>,
    embedding_norm: LayerNorm,
    layers: Vec<Layer<'a>>,
}

impl<'a> Encoder<'a> {
    /// Reads the weights from a packed safetensors file: the matrices stay where they are;
    /// vectors are copied out. The error says which tensor is missing or malformed.
    pub fn load(bytes: &'a [u8]) -> Result<Self, String> {
        let w = &Weights::parse(bytes)?;
        let linear = |name: &str, outputs: usize, inputs: usize| -> Result<Linear<'a>, String> {
            Linear::new(
                w.int8(&format!("{name}.weight"), outputs, inputs)?,
                w.vector(&format!("{name}.bias"), outputs)?,
            )
        };
        let norm = |name: &str| -> Result<LayerNorm, String> {
            Ok(LayerNorm {
                gain: w.vector(&format!("{name}.weight"), HIDDEN)?,
                bias: w.vector(&format!("{name}.bias"), HIDDEN)?,
            })
        };
        let mut layers = Vec::with_capacity(LAYERS);
        for l in 0..LAYERS {
            let p = format!("encoder.layer.{l}");
            let attention = |m: &str| linear(&format!("{p}.attention.self.{m}"), HIDDEN, HIDDEN);
            layers.push(Layer {
                query: attention("query")?,
                key: attention("key")?,
                value: attention("value")?,
                attention_out: linear(&format!("{p}.attention.output.dense"), HIDDEN, HIDDEN)?,
                attention_norm: norm(&format!("{p}.attention.output.LayerNorm"))?,
                intermediate: linear(&format!("{p}.intermediate.dense"), INTERMEDIATE, HIDDEN)?,
                output: linear(&format!("{p}.output.dense"), HIDDEN, INTERMEDIATE)?,
                output_norm: norm(&format!("{p}.output.LayerNorm"))?,
            });
        }
        let words = w.int8("embeddings.word_embeddings.weight", VOCABULARY, HIDDEN)?;
        Ok(Encoder {
            words,
            positions: w.vector("embeddings.position_embeddings.weight", POSITIONS * HIDDEN)?,
            token_type: w.vector("embeddings.token_type_embeddings.weight", 2 * HIDDEN)?,
            embedding_norm: norm("embeddings.LayerNorm")?,
            layers,
        })
    }

    /// [`Self::encode`] over any number of texts, in passes of at most
    /// [`TOKENS_PER_PASS`] tokens (a longer text has a pass of its own).
    ///
    /// # Panics
    ///
    /// As [`Self::encode`].
    pub fn encode_many(&self, texts: &[Vec<u32>]) -> Vec<Vec<f32>> {
        let mut vectors = Vec::with_capacity(texts.len());
        let mut start = 0;
        while start < texts.len() {
            let mut end = start;
            let mut tokens = 0;
            while end < texts.len() && (end == start || tokens + texts[end].len() <= TOKENS_PER_PASS) {
                tokens += texts[end].len();
                end += 1;
            }
            vectors.extend(self.encode(&texts[start..end]));
            start = end;
        }
        vectors
    }

    /// One unit vector per text, each given as its token ids ([CLS] ... [SEP]).
    ///
    /// # Panics
    ///
    /// If a text is empty or longer than [`MAX_TOKENS`].
    pub fn encode(&self, texts: &[Vec<u32>]) -> Vec<Vec<f32>> {
        let mut spans: Vec<Range<usize>> = Vec::with_capacity(texts.len());
        let total: usize = texts.iter().map(Vec::len).sum();
        let mut x = vec![0.0f32; total * HIDDEN];
        let mut at = 0;
        for ids in texts {
            assert!(
                !ids.is_empty() && ids.len() <= POSITIONS,
                "a text of {} tokens",
                ids.len()
            );
            for (pos, &id) in ids.iter().enumerate() {
                let row = &mut x[(at + pos) * HIDDEN..(at + pos + 1) * HIDDEN];
                let id = (id as usize).min(self.words.rows - 1);
                self.words.widen(id, row);
                let position = &self.positions[pos * HIDDEN..(pos + 1) * HIDDEN];
                for ((v, p), t) in row.iter_mut().zip(position).zip(&self.token_type[..HIDDEN]) {
                    *v += p + t;
                }
            }
            spans.push(at..at + ids.len());
            at += ids.len();
        }
        self.embedding_norm.apply(&mut x);

        let [mut q, mut k, mut v] = [(); 3].map(|_| vec![0.0; total * HIDDEN]);
        let mut context = vec![0.0; total * HIDDEN];
        let mut projected = vec![0.0; total * HIDDEN];
        let mut wide = vec![0.0; total * INTERMEDIATE];
        for layer in &self.layers {
            layer.query.apply(&x, total, &mut q);
            layer.key.apply(&x, total, &mut k);
            layer.value.apply(&x, total, &mut v);
            for span in &spans {
                attend([&q, &k, &v], span.clone(), &mut context);
            }
            layer.attention_out.apply(&context, total, &mut projected);
            add_in_place(&mut x, &projected);
            layer.attention_norm.apply(&mut x);
            layer.intermediate.apply(&x, total, &mut wide);
            elementwise::gelu_in_place(&mut wide);
            layer.output.apply(&wide, total, &mut projected);
            add_in_place(&mut x, &projected);
            layer.output_norm.apply(&mut x);
        }

        spans
            .iter()
            .map(|span| mean_unit(&x[span.start * HIDDEN..span.end * HIDDEN]))
            .collect()
    }
}

impl LayerNorm {
    /// Normalizes every HIDDEN-long row of `x` in place.
    fn apply(&self, x: &mut [f32]) {
        for row in x.chunks_exact_mut(HIDDEN) {
            let mean = row.iter().sum::<f32>() / HIDDEN as f32;
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / HIDDEN as f32;
            let inv = 1.0 / (var + LAYER_NORM_EPS).sqrt();
            for ((v, g), b) in row.iter_mut().zip(&self.gain).zip(&self.bias) {
                *v = (*v - mean) * inv * g + b;
            }
        }
    }
}

/// Multi-head self-attention within one text's tokens: writes their rows of `context`.
fn attend(qkv: [&[f32]; 3], span: Range<usize>, context: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has the feature the copy is compiled for.
        return unsafe { attend_avx512(qkv, span, context) };
    }
    attend_here(qkv, span, context)
}

/// [`attend_here`] compiled for AVX-512, whose loops over a head's 32 values (each value on
/// its own, no sum across them) then take two instructions rather than eight.
///
/// SAFETY: needs AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn attend_avx512(qkv: [&[f32]; 3], span: Range<usize>, context: &mut [f32]) {
    attend_here(qkv, span, context)
}

#[inline(always)]
fn attend_here([q, k, v]: [&[f32]; 3], span: Range<usize>, context: &mut [f32]) {
    let n = span.len();
    let scale = 1.0 / (HEAD as f32).sqrt();
    let start = span.start;
    let mut scores = vec![0.0f32; n];
    // A head's keys transposed, a row of `n` per dimension: a query's scores are then summed
    // side by side, each over the dimensions in order from -0.0 (as `Iterator::sum` adds),
    // which vectorizes and gives the bits of one dot product at a time.
    let mut keys = vec![0.0f32; HEAD * n];
    for h in 0..HEADS {
        for j in 0..n {
            for (d, key) in head(k, start + j, h).iter().enumerate() {
                keys[d * n + j] = *key;
            }
        }
        for i in 0..n {
            scores.fill(-0.0);
            for (a, column) in head(q, start + i, h).iter().zip(keys.chunks_exact(n)) {
                for (s, key) in scores.iter_mut().zip(column) {
                    *s += a * key;
                }
            }
            scores.iter_mut().for_each(|s| *s *= scale);
            let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            scores.iter_mut().for_each(|s| *s -= max);
            // libm's rather than the platform's: the same bits in every build.
            elementwise::exp_in_place(&mut scores);
            let sum: f32 = scores.iter().fold(0.0, |sum, s| sum + s);
            let at = (span.start + i) * HIDDEN + h * HEAD;
            let out = &mut context[at..at + HEAD];
            out.fill(0.0);
            for (j, s) in scores.iter().enumerate() {
                let weight = s / sum;
                for (o, value) in out.iter_mut().zip(head(v, start + j, h)) {
                    *o += weight * value;
                }
            }
        }
    }
}

/// Head `h` of token `t`'s row in one of q, k, v.
fn head(m: &[f32], t: usize, h: usize) -> &[f32] {
    let at = t * HIDDEN + h * HEAD;
    &m[at..at + HEAD]
}

fn add_in_place(x: &mut [f32], y: &[f32]) {
    x.iter_mut().zip(y).for_each(|(a, b)| *a += b);
}

/// The mean of a text's token rows (sentence-transformers' mean pooling; every token counts,
/// [CLS] and [SEP] included), scaled to unit length.
fn mean_unit(rows: &[f32]) -> Vec<f32> {
    let mut mean = vec![0.0f32; HIDDEN];
    for row in rows.chunks_exact(HIDDEN) {
        add_in_place(&mut mean, row);
    }
    let norm = mean.iter().map(|v| v * v).sum::<f32>().sqrt();
    if norm > 0.0 {
        mean.iter_mut().for_each(|v| *v /= norm);
    }
    mean
}
