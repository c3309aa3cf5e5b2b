//! Building a guest crate into a component, shared by `host/build.rs` (the policy) and
//! `tests/support/build.rs` (the test-only hostile guest): `cargo build` for
//! wasm32-unknown-unknown in `<target>/wasm-guest`, then `wit-component` wraps the core
//! module, which carries wit-bindgen's component-type section, into a component. Building
//! for wasm32-unknown-unknown rather than wasip2 is what keeps WASI out: the component
//! imports only `ash:memory/*`.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// Builds the workspace package `package` (at `root`) for wasm32 with the `guest` profile
/// and writes its component to `out`. `crate_name` is the package's library name.
pub fn build(root: &Path, package: &str, crate_name: &str, out: &Path) -> Result<()> {
    // A target dir of its own: the outer cargo holds the lock on the workspace's.
    let target_dir = target_dir(root).join("wasm-guest");
    ensure_wasm_target()?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .args(["build", "--profile", "guest", "--target", "wasm32-unknown-unknown"])
        .args(["-p", package])
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
    let status = cmd
        .status()
        .with_context(|| format!("running cargo to build {package}"))?;
    if !status.success() {
        bail!("building {package} for wasm32 failed");
    }
    let module = target_dir.join(format!("wasm32-unknown-unknown/guest/{crate_name}.wasm"));
    encode(&module, out)
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
