//! The collections as a component: `ash-memory-files` compiled to WebAssembly, exporting
//! `ash:memory/files` and `ash:memory/journal` over the `ash:memory/fs` import (world
//! `files-on-fs` in `wit/world.wit`). The host's build composes it with the policy and the
//! index into `target/ash_memory.wasm`, which the JavaScript and Python hosts load: they
//! supply file primitives and the home's lock, and no collections or journal of their own.
//!
//! It also exports `embedder` and `llm`, which pass the policy's calls on to the host's: a
//! call to a remote service is where the home's lock is let go (`fs.unlocks-for`), and what
//! the call wrote before must be committed first and what a dead process left rolled back
//! after. Only this component can do both without the host entering the composition again
//! from inside an import, which the component model forbids.

#![cfg(target_arch = "wasm32")]

mod host_fs;
mod host_log;

use std::cell::RefCell;

use ash_memory_files::{FileError, FileStore};

use crate::ash::memory::{embedder as host_embedder, fs, llm as host_llm};
use crate::exports::ash::memory::{embedder, files, journal, llm};
use crate::host_fs::HostFs;

wit_bindgen::generate!({
    world: "files-on-fs",
    path: "../../wit",
});

ash_memory_files::map_wit_types!(files);

/// The instance's collections, and why writes are refused, if they are.
struct State {
    store: FileStore<HostFs>,
    /// Set when the lock could not be taken back (or the home not recovered) after a remote
    /// call: the rest of the call may write nothing, and it fails.
    lock_lost: Option<String>,
}

thread_local! {
    /// One per instance (a component instance runs one call at a time).
    static STATE: RefCell<State> = RefCell::new(State { store: FileStore::new(HostFs), lock_lost: None });
}

fn with<T>(f: impl FnOnce(&mut State) -> T) -> T {
    host_log::install();
    STATE.with(|state| f(&mut state.borrow_mut()))
}

/// Runs a write, unless the lock was lost.
fn write<T>(f: impl FnOnce(&mut FileStore<HostFs>) -> Result<T, FileError>) -> Result<T, files::Error> {
    with(|state| match &state.lock_lost {
        Some(why) => Err(files::Error::Io(format!("not written: {why}"))),
        None => f(&mut state.store).map_err(Into::into),
    })
}

/// Runs `call` to a remote service without the home's lock when the host lets it go for
/// `service`: what the call wrote so far is committed first; after the lock is back, what
/// a process that died meanwhile left is rolled back (the guest reads again before it
/// writes, as `wit/files.wit` asks).
fn unlocked<T>(service: fs::Service, call: impl FnOnce() -> T) -> T {
    if !fs::unlocks_for(service) {
        return call();
    }
    if let Err(e) = with(|state| state.store.commit()) {
        tracing::warn!("cannot commit before a remote call: {e}");
        return call();
    }
    fs::unlock();
    let out = call();
    let lost = match fs::lock() {
        Ok(()) => with(|state| state.store.roll_back())
            .err()
            .map(|e| format!("cannot recover the home after a remote call: {e}")),
        Err(fs::Error::NotFound(why) | fs::Error::Io(why)) => Some(why),
    };
    if lost.is_some() {
        with(|state| state.lock_lost = lost);
    }
    out
}

struct Component;

impl files::Guest for Component {
    fn read(collection: files::Collection, from: u64, generation: Option<u64>) -> Result<files::Chunk, files::Error> {
        with(|state| state.store.read(collection.into(), from, generation))
            .map(Into::into)
            .map_err(Into::into)
    }
    fn append(collection: files::Collection, lines: Vec<String>) -> Result<files::FileState, files::Error> {
        write(|store| store.append(collection.into(), &lines)).map(Into::into)
    }
    fn replace(collection: files::Collection, lines: Vec<String>) -> Result<files::FileState, files::Error> {
        write(|store| store.replace(collection.into(), &lines)).map(Into::into)
    }
    fn quarantine(collection: files::Collection, lines: Vec<String>, reason: String) -> Result<(), files::Error> {
        write(|store| store.quarantine(collection.into(), &lines, &reason))
    }
}

impl journal::Guest for Component {
    fn commit() -> Result<(), journal::Error> {
        with(|state| match state.lock_lost.take() {
            Some(why) => Err(journal::Error::Busy(why)),
            None => state.store.commit().map_err(|e| journal::Error::Io(e.message())),
        })
    }
    fn roll_back() -> Result<(), journal::Error> {
        with(|state| {
            state.lock_lost = None;
            state.store.roll_back().map_err(|e| journal::Error::Io(e.message()))
        })
    }
}

impl embedder::Guest for Component {
    fn embed(texts: Vec<String>) -> Result<Vec<Vec<f32>>, embedder::Error> {
        unlocked(fs::Service::Embedder, || host_embedder::embed(&texts)).map_err(|e| match e {
            host_embedder::Error::Unavailable(m) => embedder::Error::Unavailable(m),
            host_embedder::Error::DimensionMismatch(d) => embedder::Error::DimensionMismatch(d),
        })
    }
    fn model_id() -> String {
        host_embedder::model_id()
    }
    fn dimension() -> u32 {
        host_embedder::dimension()
    }
}

impl llm::Guest for Component {
    fn complete(request: llm::Request) -> Result<String, llm::Error> {
        let request = host_llm::Request {
            system: request.system,
            prompt: request.prompt,
            max_tokens: request.max_tokens,
        };
        unlocked(fs::Service::Llm, || host_llm::complete(&request)).map_err(|e| match e {
            host_llm::Error::Unavailable(m) => llm::Error::Unavailable(m),
        })
    }
}

export!(Component);
