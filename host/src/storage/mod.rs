//! Where a home's collections and index live, behind the `files` and `index` imports:
//!
//! - [`local`]: JSONL files with a journal and a SQLite index beside them, under an OS
//!   file lock (the default, `[storage] backend = "files"`);
//! - [`postgres`]: an append-only log table per namespace and pgvector with Postgres
//!   full-text search, under transaction-scoped advisory locks by scope, so that several
//!   hosts share one memory (`backend = "postgres"`).
//!
//! The policy component cannot tell them apart: both keep the WIT contract of
//! `wit/files.wit` and `wit/index.wit`, and both make each exported call one transaction
//! under a writer lock (the home's, or on Postgres the caller's scopes').

use crate::bindings::ash::memory::files;
use crate::config::{Config, StorageBackend};
use crate::error::Error;
use crate::home::{Access, Home};
use crate::index;

pub(crate) mod local;
pub(crate) mod postgres;

/// A home's storage: the collections, the index, and the writer lock with the
/// transaction of each exported call.
///
/// A call runs `begin`, then any number of reads and writes, then `commit` or
/// `roll_back`, then `release`. Around a remote service the host commits and releases,
/// and begins again afterwards (see `HostState::unlocked`); a read of a snapshot
/// ([`Storage::reads_a_snapshot`]) holds no lock after `begin`.
pub(crate) trait Storage: Send {
    /// Takes the home's lock for `access` (waiting, but not for ever: [`Error::Busy`]) and
    /// opens the call's transaction; what a writer that died left half done is undone
    /// first, which makes the call a write. Returns what the call may do. The host
    /// refuses the writes of a read before they reach the storage.
    ///
    /// `scopes` are those a write is confined to (`u:<user id>`, `c:<chat id>`): a
    /// backend that can lock them alone does, and then answers [`Storage::confined`];
    /// the others lock as for any write.
    fn begin(&mut self, access: Access, scopes: Option<&[String]>) -> Result<Access, Error>;
    /// Whether the open read sees a snapshot taken at `begin` and holds no lock: it need
    /// not let anything go around a remote service, nor begin again after one.
    fn reads_a_snapshot(&self) -> bool {
        false
    }
    /// Whether the open transaction holds only its scopes' locks, so that a write of the
    /// whole namespace (`replace`, `clear`) must run again as a write of everything.
    fn confined(&self) -> bool {
        false
    }
    /// Whether another writer appended to a collection after the open transaction read
    /// it, before the transaction appended to it (a write of another scope, beside a
    /// confined one).
    fn overtaken(&self) -> bool {
        false
    }
    /// Whether a collection the open transaction appended to had another generation than
    /// when the transaction read it (another host's rollback renews it): the policy cannot
    /// tell what changed beside it, and the call must run again under the whole lock.
    fn regenerated(&self) -> bool {
        false
    }
    /// Makes the call's writes so far durable. The lock is kept until `release` on
    /// backends whose lock outlives a transaction.
    fn commit(&mut self) -> Result<(), String>;
    /// Undoes the call's writes since its last commit.
    fn roll_back(&mut self) -> Result<(), String>;
    /// Releases the writer lock (after `commit` or `roll_back`).
    fn release(&mut self);

    /// See `read` in `wit/files.wit`.
    fn read(&mut self, c: files::Collection, from: u64, generation: Option<u64>) -> Result<files::Chunk, files::Error>;
    /// See `append` in `wit/files.wit`.
    fn append(&mut self, c: files::Collection, lines: &[String]) -> Result<files::FileState, files::Error>;
    /// See `replace` in `wit/files.wit`.
    fn replace(&mut self, c: files::Collection, lines: &[String]) -> Result<files::FileState, files::Error>;
    /// See `quarantine` in `wit/files.wit`.
    fn quarantine(&mut self, c: files::Collection, lines: &[String], reason: &str) -> Result<(), files::Error>;

    /// See `upsert` in `wit/index.wit`.
    fn upsert(&mut self, entries: &[index::Entry]) -> Result<(), index::IndexError>;
    /// See `remove` in `wit/index.wit`.
    fn remove(&mut self, ids: &[String]) -> Result<(), index::IndexError>;
    /// See `knn` in `wit/index.wit`.
    fn knn(&mut self, query: &[f32], k: u32, scope: &index::ScopeFilter) -> Result<Vec<index::Hit>, index::IndexError>;
    /// See `text-search` in `wit/index.wit`.
    fn text_search(
        &mut self,
        terms: &[String],
        k: u32,
        scope: &index::ScopeFilter,
    ) -> Result<Vec<index::Hit>, index::IndexError>;
    /// See `fetch` in `wit/index.wit`.
    fn fetch(&mut self, ids: &[String]) -> Result<Vec<index::Held>, index::IndexError>;
    /// See `set-records` in `wit/index.wit`.
    fn set_records(&mut self, revisions: &[index::Revision]) -> Result<(), index::IndexError>;
    /// See `tally` in `wit/index.wit`.
    fn tally(
        &mut self,
        keys: &[String],
        scope: &index::ScopeFilter,
        now: i64,
    ) -> Result<index::Counts, index::IndexError>;
    /// See `holding` in `wit/index.wit`.
    fn holding(
        &mut self,
        keys: &[String],
        scope: &index::ScopeFilter,
        now: i64,
    ) -> Result<Vec<index::Held>, index::IndexError>;
    /// See `newest` in `wit/index.wit`.
    fn newest(
        &mut self,
        keys: &[String],
        scope: &index::ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<index::Held>>, index::IndexError>;
    /// See `holding-ids` in `wit/index.wit`.
    fn holding_ids(
        &mut self,
        keys: &[String],
        scope: &index::ScopeFilter,
        now: i64,
    ) -> Result<Vec<String>, index::IndexError>;
    /// See `newest-ids` in `wit/index.wit`.
    fn newest_ids(
        &mut self,
        keys: &[String],
        scope: &index::ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<String>>, index::IndexError>;
    /// See `newest-moments` in `wit/index.wit`.
    fn newest_moments(
        &mut self,
        keys: &[String],
        scope: &index::ScopeFilter,
        now: i64,
    ) -> Result<Vec<Option<i64>>, index::IndexError>;
    /// See `recent` in `wit/index.wit`.
    fn recent(
        &mut self,
        scope: &index::ScopeFilter,
        now: Option<i64>,
        limit: u32,
    ) -> Result<Vec<index::Held>, index::IndexError>;
    /// See `made-after` in `wit/index.wit`.
    fn made_after(&mut self, ids: &[String], now: i64, within: i64) -> Result<Vec<Option<String>>, index::IndexError>;
    /// See `made-around` in `wit/index.wit`.
    fn made_around(&mut self, ids: &[String], places: u32, now: i64) -> Result<Vec<Vec<String>>, index::IndexError>;
    /// See `pending` in `wit/index.wit`.
    fn pending(&mut self, kind: index::EntryKind) -> Result<u64, index::IndexError>;
    /// See `count` in `wit/index.wit`.
    fn count(&mut self, kind: index::EntryKind) -> Result<u64, index::IndexError>;
    /// See `clear` in `wit/index.wit`.
    fn clear(&mut self, info: &index::IndexInfo) -> Result<(), index::IndexError>;
    /// See `reflects` in `wit/index.wit`.
    fn reflects(&mut self, kind: index::EntryKind) -> Result<Option<index::FileState>, index::IndexError>;
    /// See `set-reflects` in `wit/index.wit`.
    fn set_reflects(&mut self, kind: index::EntryKind, state: index::FileState) -> Result<(), index::IndexError>;
    /// See `info` in `wit/index.wit`.
    fn info(&mut self) -> Result<Option<index::IndexInfo>, index::IndexError>;

    /// Lines set aside in quarantine, all told (for `stats`); the caller holds the lock.
    fn quarantined_lines(&mut self) -> u64;
    /// Whether the collections live in the home's own files (the host's file checks in
    /// `doctor` apply only then).
    fn is_local(&self) -> bool;
}

/// Opens the storage `config.toml` names for this home.
pub(crate) fn open(home: &Home, config: &Config) -> Result<Box<dyn Storage>, Error> {
    let backend = config.storage.backend().map_err(|message| Error::Config {
        path: home.config(),
        message,
    })?;
    match backend {
        StorageBackend::Files => Ok(Box::new(local::LocalStorage::new(home.clone()))),
        StorageBackend::Postgres { url_env, namespace } => {
            let url = std::env::var(&url_env).map_err(|_| Error::Config {
                path: home.config(),
                message: format!(
                    "[storage] backend is \"postgres\", but the environment variable {url_env} \
                     (url_env) that holds its connection URL is not set"
                ),
            })?;
            Ok(Box::new(postgres::PgStorage::connect(&url, &namespace)?))
        }
    }
}
