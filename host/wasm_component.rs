//! Building a guest crate into a component, shared by `host/build.rs` (the policy) and
//! `tests/support/build.rs` (the test-only hostile guest): `cargo build` for
//! wasm32-unknown-unknown in `<target>/wasm-guest`, then `wit-component` wraps the core
//! module, which carries wit-bindgen's component-type section, into a component. The host's
//! script also builds the transformer's encoder, a plain core module (`build_modules`). Building
//! for wasm32-unknown-unknown rather than wasip2 is what keeps WASI out: the component
//! imports only `ash:memory/*`.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// Builds the workspace package `package` (at `root`) for wasm32 with the `guest` profile
/// and writes its component to `out`. `crate_name` is the package's library name.
pub fn build(root: &Path, package: &str, crate_name: &str, out: &Path) -> Result<()> {
    let modules = build_modules(root, &[package])?;
    encode(&modules.join(format!("{crate_name}.wasm")), out)
}

/// Builds the workspace packages `packages` for wasm32 with the `guest` profile and returns the folder their core modules (`<crate_name>.wasm`) are in.
pub fn build_modules(root: &Path, packages: &[&str]) -> Result<PathBuf> {
    // A target dir of its own: the outer cargo holds the lock on the workspace's.
    let target_dir = target_dir(root).join("wasm-guest");
    ensure_wasm_target()?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .args(["build", "--profile", "guest", "--target", "wasm32-unknown-unknown"])
        .arg("--target-dir")
        .arg(&target_dir);
    for package in packages {
        cmd.args(["-p", package]);
    }
    // Flags meant for the host build must not leak into the wasm build.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        cmd.env_remove(var);
    }
    let names = packages.join(", ");
    let status = cmd
        .status()
        .with_context(|| format!("running cargo to build {names}"))?;
    if !status.success() {
        bail!("building {names} for wasm32 failed");
    }
    Ok(target_dir.join("wasm32-unknown-unknown/guest"))
}

/// The workspace's target folder: `$CARGO_TARGET_DIR`, else `<root>/target`.
pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
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
pub fn encode(module: &Path, component: &Path) -> Result<()> {
    let bytes = std::fs::read(module).with_context(|| format!("reading {}", module.display()))?;
    let encoded = wit_component::ComponentEncoder::default()
        .module(&bytes)?
        .validate(true)
        .encode()
        .with_context(|| format!("encoding {} as a component", module.display()))?;
    std::fs::write(component, encoded)?;
    Ok(())
}
