//! Builds the policy component from `guest/` (see `wasm_component.rs`) and embeds it.
//! The test-only hostile component is built by `tests/support`, a dev-dependency, so
//! `cargo build`, `cargo run` and `cargo install` never build it.

use std::path::PathBuf;

use anyhow::{Context, Result};

#[path = "wasm_component.rs"]
mod wasm_component;

fn main() -> Result<()> {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let root = manifest_dir.parent().context("host/ has a parent")?.to_path_buf();
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    for path in ["wit", "guest/src", "guest/Cargo.toml", "host/wasm_component.rs"] {
        println!("cargo:rerun-if-changed={}", root.join(path).display());
    }
    wasm_component::build(
        &root,
        "ash-memory-guest",
        "ash_memory_guest",
        &out_dir.join("ash_memory_policy.wasm"),
    )
}
