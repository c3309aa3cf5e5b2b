//! Builds the policy component from `guest/` (see `wasm_component.rs`) and embeds it, builds
//! the transformer's encoder as a core module for the JavaScript and Python hosts
//! (`encoder/wasm`), and turns the embedded models' vocabularies into tables compiled in
//! (see `wordpiece_vocab.rs`).
//! The test-only hostile component is built by `tests/support`, a dev-dependency, so
//! `cargo build`, `cargo run` and `cargo install` never build it.

use std::path::PathBuf;

use anyhow::{Context, Result};
use sha2::Digest;

#[path = "wasm_component.rs"]
mod wasm_component;
#[path = "wordpiece_vocab.rs"]
mod wordpiece_vocab;

fn main() -> Result<()> {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let root = manifest_dir.parent().context("host/ has a parent")?.to_path_buf();
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    for path in [
        "wit",
        "guest/src",
        "guest/Cargo.toml",
        "encoder/src",
        "encoder/Cargo.toml",
        "encoder/wasm",
        "host/wasm_component.rs",
        "host/wordpiece_vocab.rs",
        "host/model/tokenizer.json",
        "host/model/model.safetensors",
        "host/model/config.json",
        "host/model/transformer/tokenizer.json",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(path).display());
    }
    let models = manifest_dir.join("model");
    wordpiece_vocab::generate_static(&models, &out_dir.join("static_vocab.rs"))?;
    wordpiece_vocab::generate_transformer(&models.join("transformer"), &out_dir.join("transformer_vocab.rs"))?;
    let component = out_dir.join("ash_memory_policy.wasm");
    wasm_component::build(&root, "ash-memory-guest", "ash_memory_guest", &component)?;
    // The component's digest keys the compiled-component cache: computed here, a CLI call
    // does not hash 1.4 MB to find its cached artifact.
    let digest = sha2::Sha256::digest(std::fs::read(&component)?);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    std::fs::write(out_dir.join("ash_memory_policy.wasm.sha256"), hex)?;
    let modules = wasm_component::build_modules(&root, &["ash-memory-encoder-wasm"])?;
    let encoder = out_dir.join(ENCODER);
    std::fs::copy(modules.join("ash_memory_encoder_wasm.wasm"), &encoder)?;
    let target = wasm_component::target_dir(&root);
    publish(&component, &target.join(COMPONENT))?;
    publish(&encoder, &target.join(ENCODER))
}

/// Where the JavaScript and Python hosts (`bindings/`) find the very component and encoder
/// module this build embeds.
const COMPONENT: &str = "ash_memory_policy.wasm";
const ENCODER: &str = "ash_memory_encoder.wasm";

/// Copies `from` to `to`, through a temporary file and a rename, so that a debug and a
/// release build running at once never leave a reader half a file.
fn publish(from: &std::path::Path, to: &std::path::Path) -> Result<()> {
    let tmp = to.with_extension(format!("wasm.{}.tmp", std::process::id()));
    std::fs::copy(from, &tmp).with_context(|| format!("copying {} to {}", from.display(), tmp.display()))?;
    std::fs::rename(&tmp, to).with_context(|| format!("renaming {} to {}", tmp.display(), to.display()))
}
