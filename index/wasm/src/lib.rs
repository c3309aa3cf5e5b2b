//! The index as a component: `ash-memory-index` compiled to WebAssembly, exporting
//! `ash:memory/index` over the `ash:memory/sql` import (world `sqlite-index` in
//! `wit/world.wit`). The host's build composes it with the policy into
//! `target/ash_memory.wasm`, which the JavaScript and Python hosts load: they supply a
//! SQLite connection and no index of their own.
//!
//! A component instance holds one index, and with it what the index caches between calls
//! (a scope's vectors, the last search, live counts), as the Rust host's long-lived store
//! does.

#![cfg(target_arch = "wasm32")]

mod convert;
mod host_sql;

use std::cell::RefCell;

use ash_memory_index::SqliteIndex;

use crate::exports::ash::memory::index::{
    Counts, Entry, EntryKind, Error, Guest, Held, Hit, IndexInfo, Revision, ScopeFilter,
};
use crate::host_sql::HostSql;
use ash::memory::files::FileState;
use ash_memory_index::wit_types::{each, try_each};

wit_bindgen::generate!({
    world: "sqlite-index",
    path: "../../wit",
});

thread_local! {
    /// The instance's index (a component instance runs one call at a time).
    static INDEX: RefCell<SqliteIndex<HostSql>> = RefCell::new(SqliteIndex::over(HostSql::default()));
}

/// Runs `f` on the instance's index, its error mapped onto the interface's.
fn with<T>(f: impl FnOnce(&mut SqliteIndex<HostSql>) -> Result<T, ash_memory_index::IndexError>) -> Result<T, Error> {
    INDEX.with(|index| f(&mut index.borrow_mut())).map_err(Into::into)
}

struct Component;

impl Guest for Component {
    fn upsert(entries: Vec<Entry>) -> Result<(), Error> {
        with(|index| index.upsert(&try_each(entries)?))
    }
    fn remove(ids: Vec<String>) -> Result<(), Error> {
        with(|index| index.remove(&ids))
    }
    fn knn(query: Vec<f32>, k: u32, scope: ScopeFilter) -> Result<Vec<Hit>, Error> {
        with(|index| index.knn(&query, k, &scope.into())).map(each)
    }
    fn text_search(terms: Vec<String>, k: u32, scope: ScopeFilter) -> Result<Vec<Hit>, Error> {
        with(|index| index.text_search(&terms, k, &scope.into())).map(each)
    }
    fn fetch(ids: Vec<String>) -> Result<Vec<Held>, Error> {
        with(|index| index.fetch(&ids)).map(each)
    }
    fn set_records(revisions: Vec<Revision>) -> Result<(), Error> {
        with(|index| index.set_records(&each(revisions)))
    }
    fn tally(keys: Vec<String>, scope: ScopeFilter, now: i64) -> Result<Counts, Error> {
        with(|index| index.tally(&keys, &scope.into(), now)).map(Into::into)
    }
    fn holding(keys: Vec<String>, scope: ScopeFilter, now: i64) -> Result<Vec<Held>, Error> {
        with(|index| index.holding(&keys, &scope.into(), now)).map(each)
    }
    fn newest(keys: Vec<String>, scope: ScopeFilter, now: i64, limit: u32) -> Result<Vec<Vec<Held>>, Error> {
        let lists = with(|index| index.newest(&keys, &scope.into(), now, limit))?;
        Ok(lists.into_iter().map(each).collect())
    }
    fn holding_ids(keys: Vec<String>, scope: ScopeFilter, now: i64) -> Result<Vec<String>, Error> {
        with(|index| index.holding_ids(&keys, &scope.into(), now))
    }
    fn newest_ids(keys: Vec<String>, scope: ScopeFilter, now: i64, limit: u32) -> Result<Vec<Vec<String>>, Error> {
        with(|index| index.newest_ids(&keys, &scope.into(), now, limit))
    }
    fn newest_moments(keys: Vec<String>, scope: ScopeFilter, now: i64) -> Result<Vec<Option<i64>>, Error> {
        with(|index| index.newest_moments(&keys, &scope.into(), now))
    }
    fn recent(scope: ScopeFilter, now: Option<i64>, limit: u32) -> Result<Vec<Held>, Error> {
        with(|index| index.recent(&scope.into(), now, limit)).map(each)
    }
    fn made_after(ids: Vec<String>, now: i64, within: i64) -> Result<Vec<Option<String>>, Error> {
        with(|index| index.made_after(&ids, now, within))
    }
    fn made_around(ids: Vec<String>, places: u32, now: i64) -> Result<Vec<Vec<String>>, Error> {
        with(|index| index.made_around(&ids, places, now))
    }
    fn pending(kind: EntryKind) -> Result<u64, Error> {
        with(|index| index.pending(kind.into()))
    }
    fn count(kind: EntryKind) -> Result<u64, Error> {
        with(|index| index.count(kind.into()))
    }
    fn clear(info: IndexInfo) -> Result<(), Error> {
        with(|index| index.clear(&info.into()))
    }
    fn reflects(kind: EntryKind) -> Result<Option<FileState>, Error> {
        with(|index| index.reflects(kind.into())).map(|state| state.map(Into::into))
    }
    fn set_reflects(kind: EntryKind, state: FileState) -> Result<(), Error> {
        with(|index| index.set_reflects(kind.into(), state.into()))
    }
    fn info() -> Result<Option<IndexInfo>, Error> {
        with(|index| index.info()).map(|info| info.map(Into::into))
    }
}

export!(Component);
