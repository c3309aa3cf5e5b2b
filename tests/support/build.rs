//! Builds `tests/hostile-guest` into a component, as the host's build script builds the
//! policy, and tells the library where it is.

use std::path::PathBuf;

use anyhow::{Context, Result};

#[path = "../../host/wasm_component.rs"]
mod wasm_component;

fn main() -> Result<()> {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let root = manifest_dir
        .parent()
        .and_then(|p| p.parent())
        .context("tests/support/ has a workspace root")?
        .to_path_buf();
    let out = PathBuf::from(std::env::var("OUT_DIR")?).join("ash_memory_hostile.wasm");
    for path in ["wit", "tests/hostile-guest", "host/wasm_component.rs"] {
        println!("cargo:rerun-if-changed={}", root.join(path).display());
    }
    wasm_component::build(&root, "ash-memory-hostile-guest", "ash_memory_hostile_guest", &out)?;
    println!("cargo:rustc-env=ASH_HOSTILE_COMPONENT={}", out.display());
    Ok(())
}
