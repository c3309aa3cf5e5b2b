//! Stand-ins shared by the tests: a free loopback port, a word-hashing embedding, and the
//! hostile component.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// A loopback port that was free a moment ago, with nothing listening on it: a service
/// that is down, or one to start there later.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind loopback")
        .local_addr()
        .expect("a local address")
        .port()
}

/// Words (of three letters or more) hashed into `dim` buckets, so texts that share words
/// are similar. Stands in for a model, not for a good one; never the zero vector.
pub fn hash_embedding(text: &str, dim: usize) -> Vec<f32> {
    let mut v = vec![0.0f32; dim];
    for word in text
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
    {
        let h = word
            .bytes()
            .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
        v[h as usize % dim] += 1.0;
    }
    v[0] += 0.01;
    v
}

/// The test-only hostile component (`tests/hostile-guest`: it loops forever or allocates
/// without bound on request), built on first use as the build script builds the policy:
/// `cargo build` for wasm32-unknown-unknown in `<target>/wasm-guest`, then wrapped into a
/// component. Only the tests need it, so only the tests build it.
pub fn hostile_component() -> &'static Path {
    static COMPONENT: OnceLock<PathBuf> = OnceLock::new();
    COMPONENT.get_or_init(build_hostile_component)
}

fn build_hostile_component() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host/ has a parent");
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("wasm-guest");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .args(["build", "--profile", "guest", "--target", "wasm32-unknown-unknown"])
        .args(["-p", "ash-memory-hostile-guest"])
        .arg("--target-dir")
        .arg(&target_dir);
    // As in host/build.rs: flags meant for the host build stay out of the wasm build.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        cmd.env_remove(var);
    }
    let out = cmd.output().expect("cargo runs to build the hostile guest");
    assert!(
        out.status.success(),
        "building tests/hostile-guest failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let module = target_dir.join("wasm32-unknown-unknown/guest/ash_memory_hostile_guest.wasm");
    let bytes = std::fs::read(&module).unwrap_or_else(|e| panic!("reading {}: {e}", module.display()));
    let component = wit_component::ComponentEncoder::default()
        .module(&bytes)
        .and_then(|encoder| encoder.validate(true).encode())
        .unwrap_or_else(|e| panic!("encoding {} as a component: {e:#}", module.display()));
    // Written whole under a temporary name, then renamed: another test process may be
    // reading the last one.
    let path = target_dir.join("ash_memory_hostile.wasm");
    let mut file = tempfile::NamedTempFile::new_in(&target_dir).expect("a temporary file in the target dir");
    file.write_all(&component).expect("write the hostile component");
    file.persist(&path).expect("rename the hostile component into place");
    path
}
