//! all-MiniLM-L6-v2's encoder on the CPU: token ids in, unit sentence vectors out.
//!
//! The weights are a safetensors file as `scripts/pack-transformer.py` writes it: the weight
//! matrices and the word table int8 with a float32 scale per row, everything else float32.
//! They are read in place (the host embeds the file in its binary), so loading copies
//! nothing large. Tokenizing is the caller's: the ids are the model's WordPiece ids with
//! [CLS] first and [SEP] last.
//!
//! ```
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../host/model/transformer/model.safetensors");
//! let bytes = std::fs::read(path).unwrap();
//! let encoder = ash_memory_encoder::Encoder::load(&bytes).unwrap();
//! // [CLS] hello world [SEP] and [CLS] hello there [SEP], in one batch.
//! let vectors = encoder.encode(&[vec![101, 7592, 2088, 102], vec![101, 7592, 2045, 102]]);
//! assert_eq!(vectors[0].len(), ash_memory_encoder::DIMENSION);
//! let dot: f32 = vectors[0].iter().zip(&vectors[1]).map(|(a, b)| a * b).sum();
//! assert!(dot > 0.5 && dot < 1.0, "unit vectors, close but not equal: {dot}");
//! ```
//!
//! It is a crate of its own so that test builds compile it optimized (see the workspace's
//! `[profile.dev.package.ash-memory-encoder]`): unoptimized, a sentence takes a few hundred
//! milliseconds instead of a few.

mod bert;
mod elementwise;
mod linear;
mod weights;

pub use bert::{DIMENSION, Encoder, MAX_TOKENS, TOKENS_PER_PASS};
pub use linear::{cores, on_this_thread};
