//! Builds the policy component from `guest/`: `cargo build` for wasm32-unknown-unknown,
//! then `wit-component` wraps the core module into a component. Building for
//! wasm32-unknown-unknown rather than wasip2 is what keeps WASI out: the component imports
//! only `ash:memory/*`. The test-only hostile component (`tests/hostile-guest`) is not
//! built here: the e2e tests build it the same way on first use (`tests/e2e/fixtures.rs`),
//! so `cargo build`, `cargo run` and `cargo install` never do.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

fn main() -> Result<()> {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let root = manifest_dir.parent().context("host/ has a parent")?.to_path_buf();
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    // A target dir of its own: the outer cargo holds the lock on the workspace's.
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("wasm-guest");

    for path in ["wit", "guest/src", "guest/Cargo.toml"] {
        println!("cargo:rerun-if-changed={}", root.join(path).display());
    }

    ensure_wasm_target()?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(&root)
        .args(["build", "--profile", "guest", "--target", "wasm32-unknown-unknown"])
        .args(["-p", "ash-memory-guest"])
        .arg("--target-dir")
        .arg(&target_dir);
    // Flags meant for the host build must not leak into the wasm build.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        cmd.env_remove(var);
    }
    let status = cmd.status().context("running cargo to build the guest")?;
    if !status.success() {
        bail!("building the guest component failed");
    }

    encode(
        &target_dir.join("wasm32-unknown-unknown/guest/ash_memory_guest.wasm"),
        &out_dir.join("ash_memory_policy.wasm"),
    )?;
    Ok(())
}

/// A fresh rustup toolchain has only the host target. Rather than fail with "can't find
/// crate for `core`", add the wasm target once, as the README's first command promises.
fn ensure_wasm_target() -> Result<()> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .context("running rustc --print sysroot")?;
    let sysroot = PathBuf::from(String::from_utf8(sysroot.stdout)?.trim());
    if sysroot.join("lib/rustlib/wasm32-unknown-unknown/lib").is_dir() {
        return Ok(());
    }
    println!("cargo:warning=installing the wasm32-unknown-unknown target with rustup (once)");
    let status = Command::new("rustup")
        .args(["target", "add", "wasm32-unknown-unknown"])
        .status()
        .context("the wasm32-unknown-unknown target is missing and rustup could not be run to add it")?;
    if !status.success() {
        bail!("the wasm32-unknown-unknown target is missing; run `rustup target add wasm32-unknown-unknown`");
    }
    Ok(())
}

/// Wraps a core module that carries wit-bindgen's component-type section into a component.
fn encode(module: &Path, component: &Path) -> Result<()> {
    let bytes = std::fs::read(module).with_context(|| format!("reading {}", module.display()))?;
    let encoded = wit_component::ComponentEncoder::default()
        .module(&bytes)?
        .validate(true)
        .encode()
        .with_context(|| format!("encoding {} as a component", module.display()))?;
    std::fs::write(component, encoded)?;
    Ok(())
}
