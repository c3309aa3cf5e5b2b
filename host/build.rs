//! Builds the policy component from `guest/` (see `wasm_component.rs`) and embeds it; for
//! the JavaScript and Python hosts, builds the index and files components (`index/wasm`,
//! `files/wasm`) and composes them with the policy into `ash_memory.wasm`, and builds the
//! transformer's encoder as a core module (`encoder/wasm`); and turns the embedded models'
//! vocabularies into tables compiled in (see `wordpiece_vocab.rs`).
//! The test-only hostile component is built by `tests/support`, a dev-dependency, so
//! `cargo build`, `cargo run` and `cargo install` never build it.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use sha2::Digest;

// `build` serves tests/support's script; this one builds several crates in one go.
#[allow(dead_code)]
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
        "index/src",
        "index/Cargo.toml",
        "index/wasm",
        "files/src",
        "files/Cargo.toml",
        "files/wasm",
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
    let modules = wasm_component::build_modules(
        &root,
        &[
            "ash-memory-guest",
            "ash-memory-index-wasm",
            "ash-memory-files-wasm",
            "ash-memory-encoder-wasm",
        ],
    )?;
    let component = out_dir.join(COMPONENT);
    wasm_component::encode(&modules.join("ash_memory_guest.wasm"), &component)?;
    // The component's digest keys the compiled-component cache: computed here, a CLI call
    // does not hash 1.4 MB to find its cached artifact.
    let digest = sha2::Sha256::digest(std::fs::read(&component)?);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    std::fs::write(out_dir.join("ash_memory_policy.wasm.sha256"), hex)?;
    let index = out_dir.join("ash_memory_index.wasm");
    wasm_component::encode(&modules.join("ash_memory_index_wasm.wasm"), &index)?;
    let files = out_dir.join("ash_memory_files.wasm");
    wasm_component::encode(&modules.join("ash_memory_files_wasm.wasm"), &files)?;
    let composed = out_dir.join(COMPOSED);
    compose(&component, &index, &files, &composed)?;
    let encoder = out_dir.join(ENCODER);
    std::fs::copy(modules.join("ash_memory_encoder_wasm.wasm"), &encoder)?;
    let target = wasm_component::target_dir(&root);
    publish(&component, &target.join(COMPONENT))?;
    publish(&composed, &target.join(COMPOSED))?;
    publish(&encoder, &target.join(ENCODER))
}

/// Composes the policy with the index and files components: each export of theirs that
/// another of the three imports is plugged in (the index's `index` and the files
/// component's `files`, `embedder` and `llm` into the policy; `files`, for its types, into
/// the index too). The composition exports what the policy exports and the files
/// component's `journal`, and imports the rest: `sql` and `fs` in place of `index` and
/// `files`.
fn compose(policy: &Path, index: &Path, files: &Path, out: &Path) -> Result<()> {
    use wac_graph::types::Package;
    let mut graph = wac_graph::CompositionGraph::new();
    let mut load = |name: &str, path: &Path| -> Result<(wac_graph::PackageId, wac_graph::NodeId)> {
        let package = Package::from_bytes(name, None, std::fs::read(path)?, graph.types_mut())?;
        let package = graph.register_package(package)?;
        Ok((package, graph.instantiate(package)))
    };
    let policy = load("ash:policy", policy)?;
    let index = load("ash:sqlite-index", index)?;
    let files = load("ash:files-on-fs", files)?;
    plug(&mut graph, files, index)?;
    plug(&mut graph, files, policy)?;
    plug(&mut graph, index, policy)?;
    let exports: Vec<String> = graph.types()[graph[policy.0].ty()].exports.keys().cloned().collect();
    for name in exports {
        let export = graph.alias_instance_export(policy.1, &name)?;
        graph.export(export, &name)?;
    }
    let journal = format!("ash:memory/journal@{}", env!("CARGO_PKG_VERSION"));
    let export = graph.alias_instance_export(files.1, &journal)?;
    graph.export(export, &journal)?;
    let bytes = graph
        .encode(wac_graph::EncodeOptions::default())
        .context("encoding the policy with the index and files components")?;
    std::fs::write(out, bytes)?;
    Ok(())
}

/// Passes each export of `from` that `into` imports (by its exact name) to `into`'s
/// instantiation.
fn plug(
    graph: &mut wac_graph::CompositionGraph,
    from: (wac_graph::PackageId, wac_graph::NodeId),
    into: (wac_graph::PackageId, wac_graph::NodeId),
) -> Result<()> {
    let exports: Vec<String> = graph.types()[graph[from.0].ty()].exports.keys().cloned().collect();
    for name in exports {
        if graph.types()[graph[into.0].ty()].imports.contains_key(&name) {
            let export = graph.alias_instance_export(from.1, &name)?;
            graph
                .set_instantiation_argument(into.1, &name, export)
                .with_context(|| format!("plugging {name} in"))?;
        }
    }
    Ok(())
}

/// The policy component, which the Rust host embeds.
const COMPONENT: &str = "ash_memory_policy.wasm";
/// The policy with the index and files components plugged in: what the JavaScript and
/// Python hosts (`bindings/`) load, from here or from `ash-memory component`.
const COMPOSED: &str = "ash_memory.wasm";
/// The transformer's encoder module, which they run.
const ENCODER: &str = "ash_memory_encoder.wasm";

/// Copies `from` to `to`, through a temporary file and a rename, so that a debug and a
/// release build running at once never leave a reader half a file.
fn publish(from: &Path, to: &Path) -> Result<()> {
    let tmp = to.with_extension(format!("wasm.{}.tmp", std::process::id()));
    std::fs::copy(from, &tmp).with_context(|| format!("copying {} to {}", from.display(), tmp.display()))?;
    std::fs::rename(&tmp, to).with_context(|| format!("renaming {} to {}", tmp.display(), to.display()))
}
