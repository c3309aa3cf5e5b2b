#![warn(missing_docs)]
//! # ash-memory
//!
//! Long-term memory for AI agents. The memory *policy* (typing, expiry, scoping, people,
//! supersession, secret refusal, search fusion, context) is a sandboxed WebAssembly
//! component defined by the WIT files in `wit/`; this crate is its native host, a library
//! first and the `ash-memory` command line second.
//!
//! [`MemoryStore`] is the front door: open a home with [`MemoryStore::builder`], then call
//! it. Each call takes the home's lock, runs in the component as one transaction over the
//! files, and returns the contract's own types ([`Memory`], [`SearchResults`], ...).
//!
//! ```no_run
//! use ash_memory::{Caller, MemoryStore, NewMemory, SearchQuery};
//!
//! let mut store = MemoryStore::builder("/tmp/ash-home").open()?;
//! let me = Caller::user("alice");
//! store.add(&me, &NewMemory::text("I'm allergic to peanuts"))?;
//! let found = store.search(&me, &SearchQuery::new("What should I avoid eating?").limit(3))?;
//! println!("{}", found.hits[0].memory.content);
//! # Ok::<(), ash_memory::Error>(())
//! ```
//!
//! The component's capabilities are the host's modules, one per WIT import: `files`
//! (JSONL collections with a journal, so that each call is one transaction), `index`
//! (sqlite-vec and FTS5 in one SQLite file) or both on Postgres with pgvector
//! (`[storage] backend = "postgres"`, shared by several hosts), `embedder` (all-MiniLM-L6-v2 or its static
//! distillation, in the binary, or an OpenAI-compatible service), `llm` (OpenAI-compatible, or none), `clock`, `ids`,
//! `log` and `settings` (`config.toml`). Bring your own model by implementing [`Embedder`]
//! or [`Llm`] and handing it to the builder.
//!
//! Errors are [`Error`]; [`Error::kind`] says what kind of failure it is. No error loses
//! data: a failed call leaves the home as it was.

/// Generated from `wit/`. The types are used as they are: [`contract`] re-exports the
/// ones callers see, and the capability modules take and return the import types.
mod bindings {
    wasmtime::component::bindgen!({
        world: "policy",
        path: "../wit",
        additional_derives: [PartialEq],
    });
}

mod clock;
mod config;
mod contract;
mod doctor;
mod embedder;
mod error;
mod eval;
mod export;
mod fault;
mod files;
mod home;
mod http;
mod ids;
mod import;
mod imports;
mod index;
mod journal;
mod llm;
mod migrate;
#[cfg(feature = "native-policy")]
pub mod native;
mod sandbox;
mod storage;
mod store;

pub use clock::Clock;
pub use contract::{
    Added, Ages, ArchiveReason, Archived, Caller, CompactReport, ContextBlock, Correction, Extraction, Finding,
    Forgotten, GcReport, HomeStats, ImportedRecords, IndexState, ListOptions, Memory, MemoryType, NewMemory, NewPerson,
    PastMessage, Person, Profile, RebuildReport, Reflection, RefusedLine, Role, SearchHit, SearchQuery, SearchResults,
    Stats, StoredTurn, Turn,
};
pub use embedder::{
    EMBEDDED_MODELS, ENCODER_MODULE, EmbedError, Embedder, OpenAiEmbedder, StaticEmbedder, TransformerEmbedder,
    embedded,
};
pub use error::{Error, ErrorKind};
pub use eval::{EvalReport, EvalSet, KS, Scores};
pub use export::{EXPORT_FORMAT, is_export};
pub use ids::Ids;
pub use import::{FactFile, IMPORT_CHUNK, Imported, RefusedFact, read_import_text};
pub use index::{FirstSearchRecall, first_search_recall};
pub use llm::{Llm, LlmError, LlmRequest};
pub use migrate::{Migrated, is_legacy_store};
pub use sandbox::{Limits, POLICY_COMPONENT, POLICY_COMPONENT_SHA256};
pub use store::{MemoryStore, MemoryStoreBuilder};

/// The home used when none is given: `$ASH_HOME`, else `~/.ash`.
pub fn default_home() -> std::path::PathBuf {
    home::Home::default_root()
}

/// Creates a home's folder (and missing parents) owner-only, as opening a store does,
/// for callers that need only the folder; a file in the way is [`Error::NotAFolder`].
pub fn create_home_folder(root: &std::path::Path) -> Result<(), Error> {
    home::create_folder(root)
}
