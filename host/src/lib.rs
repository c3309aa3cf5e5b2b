#![warn(missing_docs)]
//! # ash-memory
//!
//! Long-term memory for AI agents. The memory *policy* (typing, expiry, scoping, people,
//! supersession, secret refusal, search fusion, context) is a sandboxed WebAssembly
//! component defined by the WIT files in `wit/`; this crate is its native host as a
//! library. The `ash-memory` command line and its servers are a crate of their own
//! (`ash-memory-cli`) over this one.
//!
//! [`MemoryStore`] is the front door: open a home with [`MemoryStore::builder`], then call
//! it. Each call takes the home's lock, runs in the component as one transaction over the
//! files, and returns the contract's own types ([`Memory`], [`SearchResults`], ...).
//!
//! ```
//! use ash_memory::{Caller, MemoryStore, NewMemory, SearchQuery};
//!
//! let home = tempfile::tempdir()?;
//! let mut store = MemoryStore::builder(home.path()).open()?;
//! let alice = Caller::user("alice");
//! store.add(&alice, &NewMemory::text("I'm allergic to peanuts"))?;
//! store.add(&alice, &NewMemory::text("My sister Ana lives in Lisbon"))?;
//!
//! let found = store.search(&alice, &SearchQuery::new("What should I avoid eating?").limit(1))?;
//! assert_eq!(found.hits[0].memory.content, "I'm allergic to peanuts");
//! // Another user's search never sees alice's memories.
//! let bob = store.search(&Caller::user("bob"), &SearchQuery::new("peanuts"))?;
//! assert!(bob.hits.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
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

mod boundary;
mod builder;
mod clock;
mod config;
mod contract;
mod doctor;
mod embedder;
mod error;
mod export;
mod fact_import;
mod fault;
mod files;
mod home;
mod home_lock;
mod host_state;
mod http;
mod ids;
mod index;
mod llm;
mod migrate;
#[cfg(feature = "native-policy")]
pub mod native;
mod progress;
mod sandbox;
mod storage;
mod store;

pub use builder::MemoryStoreBuilder;
pub use clock::Clock;
pub use config::Limits;
pub use contract::{
    Added, Ages, ArchiveReason, Archived, Caller, CompactReport, ContextBlock, Correction, Extraction, Finding,
    Forgotten, GcReport, HomeStats, ImportedRecords, IndexState, ListOptions, MatchReason, Memory, MemoryType,
    NewMemory, NewPerson, PastMessage, Person, Profile, RebuildReport, Reflection, RefusedLine, Role, SearchHit,
    SearchQuery, SearchResults, SessionMessage, SessionSummary, Standing, Stats, StoredTurn, ToolAnswer, Turn,
};
pub use embedder::{
    EMBEDDED_MODELS, ENCODER_MODULE, EmbedError, Embedder, OpenAiEmbedder, StaticEmbedder, TransformerEmbedder,
    embedded,
};
pub use error::{Error, ErrorKind};
pub use export::{EXPORT_FORMAT, is_export};
pub use fact_import::{FactFile, IMPORT_CHUNK, Imported, RefusedFact, read_import_text};
pub use ids::Ids;
#[cfg(feature = "bench")]
pub use index::{FirstSearchRecall, first_search_recall};
pub use llm::{Llm, LlmError, LlmRequest};
pub use migrate::{Migrated, is_legacy_store};
pub use progress::{Progress, ProgressFn};
pub use sandbox::{COMPOSED_COMPONENT, POLICY_COMPONENT, POLICY_COMPONENT_SHA256};
pub use store::{MemoryStore, tool_only_reads};

/// The home used when none is given: `$ASH_HOME`, else `~/.ash`.
pub fn default_home() -> std::path::PathBuf {
    home::Home::default_root()
}

/// Creates a home's folder (and missing parents) owner-only, as opening a store does,
/// for callers that need only the folder; a file in the way is [`Error::NotAFolder`].
pub fn create_home_folder(root: &std::path::Path) -> Result<(), Error> {
    home::create_folder(root)
}
