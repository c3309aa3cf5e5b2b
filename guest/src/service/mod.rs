//! The memory API over the ports: it validates, decides and orchestrates; the ports do
//! the I/O. One `MemoryService` lives for the lifetime of a component instance and keeps
//! the collections cached between calls.
//!
//! This file holds the service itself, its constructor, the clock and [`MemoryService::load`],
//! which every call that needs fresh collections and a usable index goes through. The
//! operations are spread over one file per capability, each adding its own
//! `impl<P: Ports> MemoryService<P>` block:
//!
//! - `adding`: `add` and `add_batch`, and writing what an add decided; `importing`:
//!   `import`, many facts at once;
//!   `validation` builds the new records and holds every rule that can refuse one;
//!   `superseding` decides what a new memory replaces.
//! - `reading`: `get`, `list`, `history`, and ids by unique prefix; `confirming`:
//!   `confirm`, which stops a memory's decay (`crate::decay`).
//! - `searching`: `search`; `walking`: which cached memories a search, context or
//!   profile looks through; `browsing`: the memory browser's views (each memory's
//!   standing, the conversations and what extraction took from each turn).
//! - `retention`: `delete`, `gc`, `compact` and eviction beyond `max_entries`.
//! - `people`: the `people` commands and linking an add's subjects to people;
//!   `forgetting`: `people.forget`; `purging`: its `--purge`, resumed by the next call
//!   when one is cut short;
//! - `exporting` and `restoring`: `export-records` and `import-records`, moving a
//!   caller's records between homes;
//!   `person_lookup` finds the caller's people; `person_resolution` turns references
//!   into people, creating and completing them.
//! - `reflecting`: `reflect`, the weekly summary by the language model.
//! - `conversing`: `persist-turn` and the messages' index entries; `past_messages`: the
//!   context's past messages, found as search finds memories; `extracting`: `extract`, facts read from exchanges; `profiling`: `profile`.
//! - `context` and `tools`: the service side of the context block and the agent tools
//!   (rendering, schemas and argument parsing stay in `crate::context` and `crate::tools`).
//! - `index_sync`: keeping the index in step with `memories.jsonl`; `maintenance`:
//!   `rebuild-index`; `doctor`: checks and repairs; `stats`: what a home holds.
//! - `errors`: the one place port errors become [`Error`]s.

use chrono::{DateTime, Datelike, Utc};

use crate::api::Error;
use crate::collection::{Memories, People, Records};
use crate::conversation::{MessageRecord, SessionRecord};
use crate::ports::Ports;
use crate::record::{format_time, parse_time};

mod adding;
mod browsing;
mod confirming;
mod context;
mod conversing;
mod correcting;
mod doctor;
mod errors;
mod exporting;
mod extracting;
mod forgetting;
mod from_index;
mod importing;
mod marked;
mod named_days;
mod newest;
mod past_messages;
mod walking;

pub use importing::MAX_IMPORT_ITEMS;
pub use reflecting::Reflection;
mod index_sync;
mod maintenance;
mod people;
mod person_lookup;
mod person_resolution;
mod profiling;
mod purging;
mod reading;
mod recalled;
mod recent;
mod reflecting;
mod restoring;
mod retention;
mod searching;
mod stats;
mod stored_around;
mod superseding;
mod tools;
mod validation;

#[cfg(test)]
mod tests;

/// Default number of search hits.
pub const DEFAULT_SEARCH_LIMIT: u32 = 10;
/// Most search hits one query returns (the vector index answers at most 4096 neighbours,
/// and a search over-fetches four times its limit).
pub const MAX_SEARCH_LIMIT: u32 = 1000;
/// Longest memory accepted, in bytes: a memory is a fact, not a document.
pub const MAX_CONTENT_BYTES: usize = 16 * 1024;
/// Longest expiry accepted, in days: a hundred years.
pub const MAX_EXPIRES_DAYS: u32 = 36_500;
/// Shortest id prefix that `get`, `delete` and `history` accept, as git does.
pub const MIN_ID_PREFIX: usize = 8;

/// The memory API, generic over its host.
pub struct MemoryService<P: Ports> {
    pub(crate) ports: P,
    pub(crate) memories: Memories,
    pub(crate) people: People,
    /// Conversation sessions and messages, read only by the calls that use them.
    pub(crate) sessions: Records<SessionRecord>,
    pub(crate) messages: Records<MessageRecord>,
    /// Whether this instance has checked the index's model against the embedder yet.
    pub(crate) index_checked: bool,
    /// Whether this instance has tried to embed memories stored while the embedder was down.
    pub(crate) pending_checked: bool,
    /// Whether an index write of this instance failed since the index was last brought up
    /// to the file: until then the index is not told it reflects anything newer.
    pub(crate) index_behind: bool,
    /// The supersession rule's block of each memory an import has read, kept between
    /// calls so that a long import reads each stored fact once.
    pub(crate) block_memo: importing::BlockMemo,
    /// What the archive holds, for an import to tell the facts it stored before.
    pub(crate) archived: importing::ArchivedTexts,
    /// Entities of records from older writers, found once (by id; a record's content
    /// never changes under its id).
    pub(crate) entity_memo: std::cell::RefCell<std::collections::HashMap<String, Vec<String>>>,
    /// When memories were recalled in calls that could not write it (begun as reads), by
    /// id, until `flush_deferred` writes it.
    pub(crate) deferred_access: std::collections::BTreeMap<String, String>,
    /// With the whole collection cached and the index in step with it: the memories a
    /// search, context or profile looks through, named by the index's marks as a partial
    /// cache would fetch them (`walking`); none when they walk every cached memory.
    pub(crate) walk: Option<std::collections::BTreeSet<usize>>,
}

impl<P: Ports> MemoryService<P> {
    pub fn new(ports: P) -> Self {
        MemoryService {
            ports,
            memories: Memories::default(),
            people: People::default(),
            sessions: Records::default(),
            messages: Records::default(),
            index_checked: false,
            pending_checked: false,
            index_behind: false,
            block_memo: Default::default(),
            archived: Default::default(),
            entity_memo: Default::default(),
            deferred_access: Default::default(),
            walk: None,
        }
    }

    /// The ports, for tests that inspect what was written.
    pub fn ports(&self) -> &P {
        &self.ports
    }

    pub(crate) fn now(&self) -> Result<DateTime<Utc>, Error> {
        let now = parse_time(&self.ports.now()).map_err(errors::host_clock)?;
        // A hundred years of expiry must still be a readable timestamp.
        if !(1970..=9899).contains(&now.year()) {
            return Err(Error::InvalidInput(format!(
                "the clock reads {}, outside the years 1970 to 9899",
                format_time(now)
            )));
        }
        Ok(now)
    }

    /// Reads what changed on disk (finishing a purge cut short), then brings the index up
    /// to the files' state.
    pub(crate) fn load(&mut self) -> Result<u64, Error> {
        let quarantined = self.memories.refresh(&self.ports)?;
        self.refresh_people()?;
        if !self.index_checked {
            self.check_index_model()?;
            self.index_checked = true;
        }
        self.sync_index()?;
        if !self.pending_checked {
            self.pending_checked = true;
            // Only a storage failure (or a call that may not write) stops it: try again
            // at the next call.
            if let Err(e) = self.fill_pending() {
                self.pending_checked = false;
                return Err(e);
            }
        }
        Ok(quarantined)
    }
}
