//! The ash-memory policy.
//!
//! Everything that decides what memory does lives here as plain Rust over the [`Ports`]
//! trait: typing, expiry, scoping, secret refusal, the JSONL record, search fusion. The
//! same code runs inside the WebAssembly component (where `component` adapts the WIT
//! imports and exports) and natively in unit tests with in-memory fakes.

pub mod api;
pub mod asked_time;
pub mod collection;
pub mod context;
pub mod conversation;
pub mod decay;
pub mod entities;
pub mod follow_ups;
pub mod gc;
pub mod index_time;
pub mod judgment;
pub mod lifecycle;
pub mod lifetime;
pub mod marks;
pub mod memory_type;
pub mod nearby;
pub mod people;
pub mod period;
pub mod ports;
pub mod record;
pub mod relative_time;
pub mod replies;
pub mod scope;
pub mod search;
pub mod secrets;
pub mod service;
pub mod speaker;
pub mod supersession;
pub mod tools;
pub mod vectors;

#[cfg(test)]
mod tests;

#[cfg(target_arch = "wasm32")]
mod component;

pub use api::{
    Added, Archived, CompactReport, Correction, Error, Finding, GcReport, Imported, ListOptions, Memory, NewMemory,
    RebuildReport, SearchHit, SearchQuery, SearchResults,
};
pub use memory_type::MemoryType;
pub use ports::Ports;
pub use scope::Caller;
pub use service::MemoryService;
