//! The one module that owns wasmtime: it compiles the policy component once (and caches
//! the compiled artifact on disk), instantiates it through `InstancePre`, and runs every
//! call under a fuel budget and a linear-memory cap. A trap becomes an [`Error`], the
//! instance is thrown away, and the next call gets a fresh one.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

use wasmtime::component::{Component, HasSelf, Linker};
use wasmtime::{Config, Engine, Store, StoreLimitsBuilder, Trap};

use crate::bindings::{Policy, PolicyPre};
use crate::config::Limits;
use crate::error::Error;
use crate::host_state::HostState;

/// The policy component, built from `guest/` by the build script.
pub const POLICY_COMPONENT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/ash_memory_policy.wasm"));

/// The policy with the index component (`index/wasm`) plugged into its `index` import: what
/// the JavaScript and Python hosts load, which supply a SQLite connection (`ash:memory/sql`)
/// rather than an index. Its policy is [`POLICY_COMPONENT`], byte for byte.
pub const COMPOSED_COMPONENT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/ash_memory.wasm"));

/// The SHA-256 of [`POLICY_COMPONENT`] in hex, computed by the build script.
pub const POLICY_COMPONENT_SHA256: &str = include_str!(concat!(env!("OUT_DIR"), "/ash_memory_policy.wasm.sha256"));

/// The compiled component, ready to instantiate, and the instance in use.
pub(crate) struct Sandbox {
    engine: Engine,
    pre: PolicyPre<HostState>,
    limits: Limits,
    /// The live instance, if any; otherwise the host state waiting for the next one.
    live: Option<(Store<HostState>, Policy)>,
    idle: Option<HostState>,
}

/// Where compiled components are cached: `$ASH_CACHE_DIR`, else `$XDG_CACHE_HOME/ash-memory`,
/// else `~/.cache/ash-memory`.
pub fn default_cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("ASH_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return Some(PathBuf::from(dir).join("ash-memory"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache").join("ash-memory"))
}

impl Sandbox {
    /// Compiles (or loads from the cache) `component` and links the host imports.
    /// `digest` is the component's SHA-256 in hex ([`component_digest`]).
    pub(crate) fn new(
        component: &[u8],
        digest: &str,
        cache_dir: Option<&Path>,
        limits: Limits,
        state: HostState,
    ) -> Result<Self, Error> {
        let mut config = Config::new();
        config.consume_fuel(true);
        let engine = Engine::new(&config).map_err(|e| Error::Component(e.to_string()))?;
        let component = load(&engine, component, digest, cache_dir)?;
        let mut linker = Linker::<HostState>::new(&engine);
        Policy::add_to_linker::<_, HasSelf<HostState>>(&mut linker, |s| s)
            .map_err(|e| Error::Component(e.to_string()))?;
        let pre = linker
            .instantiate_pre(&component)
            .map_err(|e| Error::Component(format!("{e:#}")))?;
        let pre = PolicyPre::new(pre).map_err(|e| Error::Component(format!("{e:#}")))?;
        Ok(Sandbox {
            engine,
            pre,
            limits,
            live: None,
            idle: Some(state),
        })
    }

    /// Runs one export call under the limits.
    pub(crate) fn call<T>(
        &mut self,
        f: impl FnOnce(&Policy, &mut Store<HostState>) -> wasmtime::Result<T>,
    ) -> Result<T, Error> {
        if self.live.is_none() {
            let mut state = self.idle.take().expect("host state is idle when no instance is live");
            let bytes = usize::try_from(self.limits.memory_limit_mib.saturating_mul(1 << 20)).unwrap_or(usize::MAX);
            state.limits = StoreLimitsBuilder::new()
                .memory_size(bytes)
                .trap_on_grow_failure(true)
                .build();
            let mut store = Store::new(&self.engine, state);
            store.limiter(|s| &mut s.limits);
            // What one import call may hand the host (wasmtime's default is 128 MiB): the
            // guest can hand over no more than its memory holds, so its memory cap is the
            // bound, and GC must be able to rewrite a memories.jsonl bigger than 128 MiB
            // (about 65,000 memories with embeddings).
            store.set_hostcall_fuel(bytes);
            store
                .set_fuel(self.limits.fuel_per_call)
                .map_err(|e| Error::Component(e.to_string()))?;
            match self.pre.instantiate(&mut store) {
                Ok(policy) => self.live = Some((store, policy)),
                Err(e) => {
                    self.idle = Some(store.into_data());
                    // Limits too small to even start the component are still the limits.
                    return Err(match self.describe(e) {
                        Error::Trap(m) => Error::Component(m),
                        limit => limit,
                    });
                }
            }
        }
        let (store, policy) = self.live.as_mut().expect("instantiated above");
        store
            .set_fuel(self.limits.fuel_per_call)
            .map_err(|e| Error::Component(e.to_string()))?;
        match f(policy, store) {
            Ok(value) => {
                if let Ok(left) = store.get_fuel() {
                    tracing::debug!("sandbox: the call used {} fuel units", self.limits.fuel_per_call - left);
                }
                Ok(value)
            }
            Err(trap) => {
                // A trapped instance may not be entered again: keep the host state (open
                // files, index connection) and drop the rest.
                let (store, _) = self.live.take().expect("live during the call");
                self.idle = Some(store.into_data());
                Err(self.describe(trap))
            }
        }
    }

    fn describe(&self, e: wasmtime::Error) -> Error {
        if e.downcast_ref::<Trap>() == Some(&Trap::OutOfFuel) {
            return Error::CpuLimit(self.limits.fuel_per_call);
        }
        let text = format!("{e:?}");
        if text.contains("forcing trap when growing memory") {
            return Error::MemoryLimit(self.limits.memory_limit_mib);
        }
        Error::Trap(format!("{e:#}"))
    }

    /// Mutable access to the host state between calls (for tests and maintenance).
    pub(crate) fn state_mut(&mut self) -> &mut HostState {
        match (&mut self.live, &mut self.idle) {
            (Some((store, _)), _) => store.data_mut(),
            (None, Some(state)) => state,
            (None, None) => unreachable!("the host state is always somewhere"),
        }
    }
}

/// The length and CRC-32 of a file, read a block at a time.
fn file_check(path: &Path) -> std::io::Result<ArtifactCheck> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut crc = crc32fast::Hasher::new();
    let mut block = vec![0u8; 1 << 18];
    let mut len = 0u64;
    loop {
        match file.read(&mut block)? {
            0 => break,
            n => {
                crc.update(&block[..n]);
                len += n as u64;
            }
        }
    }
    Ok(ArtifactCheck {
        len,
        crc: crc.finalize(),
    })
}

/// What is written beside a cached artifact, and checked before it is loaded.
#[derive(Debug, PartialEq, Eq)]
struct ArtifactCheck {
    len: u64,
    crc: u32,
}

impl ArtifactCheck {
    fn of(bytes: &[u8]) -> Self {
        ArtifactCheck {
            len: bytes.len() as u64,
            crc: crc32fast::hash(bytes),
        }
    }

    fn parse(text: &str) -> Option<Self> {
        let (len, crc) = text.trim().split_once(' ')?;
        Some(ArtifactCheck {
            len: len.parse().ok()?,
            crc: u32::from_str_radix(crc, 16).ok()?,
        })
    }

    fn line(&self) -> String {
        format!("{} {:08x}", self.len, self.crc)
    }
}

/// The SHA-256 of a component in hex: what keys its compiled artifact in the cache. The
/// embedded component's was computed by the build script ([`POLICY_COMPONENT_SHA256`]).
pub(crate) fn component_digest(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Compiles the component, or loads it from the cache: compiling takes a second or two,
/// loading a cached artifact a millisecond. The key covers the wasmtime version, the
/// engine's settings and the component (`digest`, its SHA-256). Deserializing trusts the
/// bytes as machine code, so the artifact is written with its length and CRC-32 beside it
/// and loaded only when both match: a flipped bit or a truncated file means compile again.
/// (A CRC catches accidents as surely as a SHA-256 does, in a fraction of the time every
/// CLI call pays (docs/performance.md, "Starting a process"). Neither would stop someone
/// who can write the cache folder, who can rewrite the check beside the artifact as well.)
fn load(engine: &Engine, bytes: &[u8], digest: &str, cache_dir: Option<&Path>) -> Result<Component, Error> {
    let compile = || Component::new(engine, bytes).map_err(|e| Error::Component(format!("{e:#}")));
    let Some(dir) = cache_dir else { return compile() };
    let mut hasher = DefaultHasher::new();
    "wasmtime-48.0.8".hash(&mut hasher);
    engine.precompile_compatibility_hash().hash(&mut hasher);
    digest.hash(&mut hasher);
    let path = dir.join(format!("policy-{:016x}.cwasm", hasher.finish()));
    let check_path = path.with_extension("cwasm.crc");
    if let (Ok(actual), Some(expected)) = (
        file_check(&path),
        std::fs::read_to_string(&check_path)
            .ok()
            .and_then(|t| ArtifactCheck::parse(&t)),
    ) {
        if actual == expected {
            // SAFETY: the bytes are the ones this function serialized (their length and
            // CRC match the ones written with them), under a key that pins the wasmtime
            // version and engine settings they were compiled for. wasmtime maps the
            // file rather than reading it (a copy and 4 MB of fresh pages), so it must
            // not change while mapped: this function only ever renames a whole new file
            // into place. The path is opened twice, to check and to map; a file renamed
            // in between is another whole artifact this function serialized, under the
            // same key.
            match unsafe { Component::deserialize_file(engine, &path) } {
                Ok(component) => return Ok(component),
                Err(e) => tracing::debug!(
                    "compiled component cache {} unusable ({e}); recompiling",
                    path.display()
                ),
            }
        } else {
            tracing::warn!(
                "compiled component cache {} does not match its check; compiling again",
                path.display()
            );
        }
    }
    let component = compile()?;
    // The cache is an optimisation: failing to write it is not an error. The check is
    // renamed into place last, so a half-written artifact is never trusted.
    if let Ok(serialized) = component.serialize() {
        let check = ArtifactCheck::of(&serialized).line();
        let tmp = dir.join(format!(".policy-{}.tmp", std::process::id()));
        let tmp_check = dir.join(format!(".policy-{}.crc.tmp", std::process::id()));
        let written = std::fs::create_dir_all(dir)
            .and_then(|()| std::fs::write(&tmp, serialized))
            .and_then(|()| std::fs::rename(&tmp, &path))
            .and_then(|()| std::fs::write(&tmp_check, check))
            .and_then(|()| std::fs::rename(&tmp_check, &check_path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            let _ = std::fs::remove_file(&tmp_check);
            tracing::debug!("cannot cache the compiled component in {}: {e}", dir.display());
        }
    }
    Ok(component)
}
