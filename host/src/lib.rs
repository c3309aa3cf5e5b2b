//! # ash-memory
//!
//! Long-term memory for AI agents. The memory *policy* (typing, expiry, scoping, secret
//! refusal, search fusion) is a sandboxed WebAssembly component; this crate is its native
//! host. It supplies the component's only capabilities, each a module here:
//!
//! | WIT import | module | what it does |
//! | --- | --- | --- |
//! | `files` | [`files`] | JSONL collections under `$ASH_HOME`: whole-line appends, atomic replace, quarantine |
//! | `index` | [`index`] | sqlite-vec vectors + FTS5 full text in `data/memory.db`, rebuildable |
//! | `embedder` | [`embedder`] | the embedded static model (no network) |
//! | `llm` | [`llm`] | OpenAI-compatible completions ([`http`]); none by default |
//! | `clock`, `ids`, `log` | [`clock`], `imports` | time (fixable), UUIDs, logging and progress |
//! | `settings` | [`config`] | the policy's knobs from `config.toml` |
//!
//! [`sandbox`] owns wasmtime: compile once, cache, instantiate, limit fuel and memory.
//! [`MemoryStore`] is the API an agent host calls:
//!
//! ```no_run
//! use ash_memory::{Caller, MemoryStore, NewMemory, SearchQuery};
//! let mut store = MemoryStore::builder("/tmp/ash-home").open()?;
//! let me = Caller::user("alice", None);
//! store.add(&me, &NewMemory::text("I'm allergic to peanuts"))?;
//! let query = SearchQuery { text: "What should I avoid eating?".into(), limit: None, about: None };
//! let found = store.search(&me, &query)?;
//! println!("{}", found.hits[0].memory.content);
//! # Ok::<(), ash_memory::Error>(())
//! ```

/// Generated from `wit/`; the public types are re-exported from [`store`].
mod bindings {
    wasmtime::component::bindgen!({
        world: "policy",
        path: "../wit",
    });
}

pub mod clock;
pub mod config;
mod doctor;
pub mod embedder;
pub mod error;
mod fault;
pub mod files;
pub mod home;
pub mod http;
mod imports;
pub mod index;
mod journal;
pub mod llm;
pub mod sandbox;
pub mod store;

pub use clock::Clock;
pub use error::Error;
pub use home::Home;
pub use sandbox::Limits;
pub use store::{
    Added, ArchiveReason, Archived, Caller, CompactReport, ContextBlock, Finding, GcReport, ListOptions, Memory,
    MemoryStore, MemoryStoreBuilder, MemoryType, NewMemory, Person, RebuildReport, SearchHit, SearchQuery,
    SearchResults,
};
