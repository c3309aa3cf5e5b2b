//! The Postgres backend (`[storage] backend = "postgres"`): several hosts share one
//! memory per namespace.
//!
//! A namespace is a schema, `ash_<namespace>` (see `schema`). Each exported call is one
//! transaction. A write takes transaction-scoped advisory locks (see `begin`): those of
//! the caller's scopes, so that writers of one user or chat are serialized across every
//! host and writers of others are not, or the whole namespace's; and before its first
//! write, the log's tail lock, so that appends follow one another. A host that dies in the
//! middle of a call loses its connection and with it the transaction: Postgres rolls it
//! back, locks and all. The collections are logs of rows (`log`) and the index is pgvector with
//! Postgres full-text search (`index`), in the same transaction as the writes they
//! follow.
//!
//! The connection URL comes from the environment variable `[storage] url_env` names and
//! is never logged or put in an error.

use postgres::{Client, NoTls};

use super::Storage;
use crate::bindings::ash::memory::files;
use crate::error::Error;
use crate::files::Collection;
use crate::home::Access;
use crate::index as search_index;

mod conn;
mod index;
mod knn;
mod log;
mod records;
mod schema;
#[cfg(test)]
mod tests;
mod text_search;

use conn::Conn;

/// One namespace on one connection.
pub(crate) struct PgStorage {
    /// Kept to reconnect after the connection drops; never shown.
    url: String,
    namespace: String,
    schema: String,
    client: Conn,
    /// Whether a call's transaction is open.
    in_transaction: bool,
    /// Collections written by the open transaction, and after a rollback those still to
    /// get a new generation: the guest may hold lines read from them that are gone now.
    written: Vec<Collection>,
    /// The index's `meta` as the open transaction read it; dropped when it ends and when
    /// the transaction writes `meta`.
    meta: Option<index::Meta>,
    /// Whether the open transaction is a write confined to the caller's scopes: it holds
    /// their locks and the namespace's lock shared, and takes the log's tail lock at its
    /// first write (see `begin`).
    confined: bool,
    /// Whether the open transaction holds the log's tail lock.
    tail_held: bool,
    /// Where each collection stood (generation, end) when the open transaction last read
    /// it.
    read_ends: Vec<(Collection, u64, u64)>,
    /// Whether another writer appended to a collection between the open transaction's
    /// read of it and its own append (see `Storage::overtaken`).
    overtaken: bool,
    /// Whether a collection had another generation when the open transaction appended to
    /// it than when it read it (see `Storage::regenerated`).
    regenerated: bool,
}

/// The seeds of `hashtextextended` that make the advisory lock keys: the namespace's lock
/// (exclusive for a write of the whole namespace, shared for a write confined to scopes),
/// each scope's lock (of `'<schema>:<scope>'`, seed 2; seed 1 is the layout's, `schema`)
/// and the log's tail lock.
const NAMESPACE_KEY: i64 = 0;
const TAIL_KEY: i64 = 3;

/// The text whose hash is a scope's lock key: the schema, a colon and the scope
/// (`u:<user id>` or `c:<chat id>`).
fn scope_lock_text(schema: &str, scope: &str) -> String {
    format!("{schema}:{scope}")
}

/// A connection. Nothing is set on its session: every call's transaction sets what it
/// needs with `SET LOCAL`, so that a pooler in transaction mode may lend the connection
/// to another client between calls.
fn connect(url: &str) -> Result<Client, Error> {
    Client::connect(url, NoTls).map_err(|e| Error::Storage(format!("cannot connect to Postgres: {e}")))
}

impl PgStorage {
    /// Connects, and creates or checks the namespace's schema.
    pub(crate) fn connect(url: &str, namespace: &str) -> Result<Self, Error> {
        let schema = schema::schema_name(namespace);
        let mut client = connect(url)?;
        schema::ensure(&mut client, &schema)
            .map_err(|e| Error::Storage(format!("postgres namespace {namespace}: {e}")))?;
        Ok(PgStorage {
            url: url.to_owned(),
            namespace: namespace.to_owned(),
            schema,
            client: Conn::new(client),
            in_transaction: false,
            written: Vec::new(),
            meta: None,
            confined: false,
            tail_held: false,
            read_ends: Vec::new(),
            overtaken: false,
            regenerated: false,
        })
    }

    fn wrote(&mut self, c: Collection) {
        if !self.written.contains(&c) {
            self.written.push(c);
        }
    }

    /// Gives the collections a rolled-back transaction wrote a new generation, in a
    /// transaction of its own. Retried at the next `begin` if it fails now.
    fn renew_generations(&mut self) -> Result<(), String> {
        if self.written.is_empty() {
            return Ok(());
        }
        let codes: Vec<String> = self.written.iter().map(|&c| schema::code(c).to_string()).collect();
        self.client
            .batch_execute(&format!(
                "BEGIN; SET LOCAL search_path TO {}, public;
                 UPDATE collections SET generation = nextval('generation_seq') WHERE collection IN ({});
                 COMMIT;",
                self.schema,
                codes.join(", ")
            ))
            .map_err(|e| {
                let _ = self.client.batch_execute("ROLLBACK");
                format!("postgres: {e}")
            })?;
        self.written.clear();
        Ok(())
    }

    /// `meta`, read at most once a transaction.
    fn meta(&mut self) -> Result<&index::Meta, search_index::IndexError> {
        if self.meta.is_none() {
            self.meta = Some(index::meta(&mut self.client)?);
        }
        Ok(self.meta.as_ref().expect("just read"))
    }

    /// Busy when a lock was not had within the timeout; a storage error otherwise.
    fn lock_error(&self, e: postgres::Error, timeout: std::time::Duration) -> Error {
        if e.code() == Some(&postgres::error::SqlState::LOCK_NOT_AVAILABLE) {
            Error::Busy(format!(
                "postgres namespace {} is busy: another host has held its lock for over {:.1} s; try again",
                self.namespace,
                timeout.as_secs_f64()
            ))
        } else {
            self.storage_error(e)
        }
    }

    /// Before a write of a confined transaction: the log's tail lock, held until the
    /// transaction ends, so that the namespace's writers append one after another and
    /// each commits before the next appends (a reader that resumes at a collection's end
    /// misses nothing). What the transaction read of `meta` may be older than what the
    /// writer before it committed: it is read again.
    fn before_write(&mut self) -> Result<(), String> {
        if !(self.in_transaction && self.confined) || self.tail_held {
            return Ok(());
        }
        let timeout = crate::home::lock_timeout();
        self.client
            .batch_execute(&format!(
                "SELECT pg_advisory_xact_lock(hashtextextended('{}', {TAIL_KEY}));",
                self.schema
            ))
            .map_err(|e| self.lock_error(e, timeout).to_string())?;
        self.tail_held = true;
        self.meta = None;
        Ok(())
    }

    fn storage_error(&self, e: postgres::Error) -> Error {
        Error::Storage(format!("postgres namespace {}: {e}", self.namespace))
    }
}

impl Storage for PgStorage {
    fn begin(&mut self, access: Access, scopes: Option<&[String]>) -> Result<Access, Error> {
        if self.client.is_closed() {
            self.client = Conn::new(connect(&self.url)?);
            self.in_transaction = false;
        }
        if self.in_transaction {
            self.roll_back().map_err(Error::Storage)?;
        }
        self.renew_generations().map_err(Error::Storage)?;
        self.meta = None;
        self.tail_held = false;
        self.read_ends.clear();
        self.overtaken = false;
        self.regenerated = false;
        let confined = access == Access::Write && scopes.is_some_and(|s| !s.is_empty());
        let timeout = crate::home::lock_timeout();
        // SET LOCAL, not SET: nothing outlives the transaction, so that a pooler in
        // transaction mode may hand the connection to anyone between calls. Every query
        // here is written for an index, and the work it bounds (`text_search`) relies on
        // it; with the statistics of freshly loaded tables, or none yet, the planner can
        // prefer to read a whole table. The lock comes last, in the same round trip: the
        // schema's name is `[a-z0-9_]` (checked with the settings), safe in the text.
        // A read takes no lock: one snapshot of everything committed when it began (every
        // write another host acknowledged), side by side with any write. A write confined
        // to scopes shares the namespace's lock with the others, so that only a write of
        // the whole namespace (a rewrite, a rebuild) waits for them all.
        let (begin, lock) = match (access, confined) {
            (Access::Read, _) => ("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY;", ""),
            (Access::Write, true) => ("BEGIN;", "pg_advisory_xact_lock_shared"),
            (Access::Write, false) => ("BEGIN;", "pg_advisory_xact_lock"),
        };
        let lock = if lock.is_empty() {
            String::new()
        } else {
            format!("SELECT {lock}(hashtextextended('{}', {NAMESPACE_KEY}));", self.schema)
        };
        let mut started = self.client.batch_execute(&format!(
            "{begin} SET LOCAL search_path TO {schema}, public; SET LOCAL lock_timeout = '{}ms';
             SET LOCAL enable_seqscan = off; {} {lock}",
            timeout.as_millis().max(1),
            knn::HNSW_SETTINGS,
            schema = self.schema,
        ));
        if started.is_ok()
            && confined
            && let Some(scopes) = scopes
        {
            // Each scope's own lock, in one order for every host so that two writes of
            // the same two scopes cannot wait for each other.
            let mut keys: Vec<String> = scopes.iter().map(|s| scope_lock_text(&self.schema, s)).collect();
            keys.sort();
            keys.dedup();
            started = keys.iter().try_for_each(|key| {
                self.client
                    .query("SELECT pg_advisory_xact_lock(hashtextextended($1, 2))", &[key])
                    .map(drop)
            });
        }
        if let Err(e) = started {
            // Whatever part ran, nothing of it stays: the transaction, if it began, has failed.
            let _ = self.client.batch_execute("ROLLBACK");
            return Err(self.lock_error(e, timeout));
        }
        self.in_transaction = true;
        self.confined = confined;
        Ok(access)
    }

    fn confined(&self) -> bool {
        self.in_transaction && self.confined
    }

    fn overtaken(&self) -> bool {
        self.overtaken
    }

    fn regenerated(&self) -> bool {
        self.regenerated
    }

    fn commit(&mut self) -> Result<(), String> {
        if !self.in_transaction {
            return Ok(());
        }
        if let Err(e) = crate::fault::point("pg:commit") {
            let _ = self.roll_back();
            return Err(e.to_string());
        }
        self.in_transaction = false;
        let committed = self.client.batch_execute("COMMIT");
        match committed {
            Ok(()) => {
                self.written.clear();
                Ok(())
            }
            Err(e) => {
                // Nothing was committed: what the guest read of its own writes is gone.
                let _ = self.renew_generations();
                Err(format!("postgres: {e}"))
            }
        }
    }

    fn roll_back(&mut self) -> Result<(), String> {
        if !self.in_transaction {
            return self.renew_generations();
        }
        self.in_transaction = false;
        // A dropped connection has rolled back already; Postgres did it.
        if !self.client.is_closed() {
            self.client
                .batch_execute("ROLLBACK")
                .map_err(|e| format!("postgres: {e}"))?;
            self.renew_generations()?;
        }
        Ok(())
    }

    fn release(&mut self) {
        // The advisory lock ends with the transaction.
        if self.in_transaction {
            let _ = self.roll_back();
        }
    }

    fn read(&mut self, c: files::Collection, from: u64, generation: Option<u64>) -> Result<files::Chunk, files::Error> {
        let chunk = log::read(&mut self.client, c, from, generation)?;
        self.read_ends.retain(|(read, ..)| *read != c);
        self.read_ends.push((c, chunk.generation, chunk.end));
        Ok(chunk)
    }
    fn append(&mut self, c: files::Collection, lines: &[String]) -> Result<files::FileState, files::Error> {
        self.before_write().map_err(files::Error::Io)?;
        self.wrote(c);
        let state = log::append(&mut self.client, c, lines)?;
        let written: u64 = lines.iter().map(|l| l.len() as u64 + 1).sum();
        if let Some(&(_, generation, end)) = self.read_ends.iter().find(|(read, ..)| *read == c) {
            self.overtaken |= state.end.saturating_sub(written) > end || generation != state.generation;
            self.regenerated |= generation != state.generation;
        }
        self.read_ends.retain(|(read, ..)| *read != c);
        self.read_ends.push((c, state.generation, state.end));
        // After the rows are in: a failure here must roll them back.
        crate::fault::point("pg:append").map_err(|e| files::Error::Io(e.to_string()))?;
        Ok(state)
    }
    fn replace(&mut self, c: files::Collection, lines: &[String]) -> Result<files::FileState, files::Error> {
        self.before_write().map_err(files::Error::Io)?;
        self.wrote(c);
        log::replace(&mut self.client, c, lines)
    }
    fn quarantine(&mut self, c: files::Collection, lines: &[String], reason: &str) -> Result<(), files::Error> {
        self.before_write().map_err(files::Error::Io)?;
        log::quarantine(&mut self.client, c, lines, reason)
    }

    fn upsert(&mut self, entries: &[search_index::Entry]) -> Result<(), search_index::IndexError> {
        self.before_write().map_err(search_index::IndexError::Sql)?;
        if entries.is_empty() {
            return Ok(());
        }
        crate::fault::point("pg:upsert").map_err(|e| search_index::IndexError::Sql(e.to_string()))?;
        let dim = self.meta()?.dimension()?;
        index::upsert(&mut self.client, dim, entries)
    }
    fn remove(&mut self, ids: &[String]) -> Result<(), search_index::IndexError> {
        self.before_write().map_err(search_index::IndexError::Sql)?;
        index::remove(&mut self.client, ids)
    }
    fn knn(
        &mut self,
        query: &[f32],
        k: u32,
        scope: &search_index::ScopeFilter,
    ) -> Result<Vec<search_index::Hit>, search_index::IndexError> {
        knn::knn(&mut self.client, query, k, scope)
    }
    fn text_search(
        &mut self,
        terms: &[String],
        k: u32,
        scope: &search_index::ScopeFilter,
    ) -> Result<Vec<search_index::Hit>, search_index::IndexError> {
        text_search::text_search(&mut self.client, terms, k, scope)
    }
    fn fetch(&mut self, ids: &[String]) -> Result<Vec<search_index::Held>, search_index::IndexError> {
        records::fetch(&mut self.client, ids)
    }
    fn set_records(&mut self, revisions: &[search_index::Revision]) -> Result<(), search_index::IndexError> {
        self.before_write().map_err(search_index::IndexError::Sql)?;
        index::set_records(&mut self.client, revisions)
    }
    fn tally(
        &mut self,
        keys: &[String],
        scope: &search_index::ScopeFilter,
        now: i64,
    ) -> Result<search_index::Counts, search_index::IndexError> {
        records::tally(&mut self.client, keys, scope, now)
    }
    fn holding(
        &mut self,
        keys: &[String],
        scope: &search_index::ScopeFilter,
        now: i64,
    ) -> Result<Vec<search_index::Held>, search_index::IndexError> {
        records::holding(&mut self.client, keys, scope, now)
    }
    fn newest(
        &mut self,
        keys: &[String],
        scope: &search_index::ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<search_index::Held>>, search_index::IndexError> {
        records::newest(&mut self.client, keys, scope, now, limit)
    }
    fn holding_ids(
        &mut self,
        keys: &[String],
        scope: &search_index::ScopeFilter,
        now: i64,
    ) -> Result<Vec<String>, search_index::IndexError> {
        records::holding_ids(&mut self.client, keys, scope, now)
    }
    fn newest_ids(
        &mut self,
        keys: &[String],
        scope: &search_index::ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<String>>, search_index::IndexError> {
        records::newest_ids(&mut self.client, keys, scope, now, limit)
    }
    fn newest_moments(
        &mut self,
        keys: &[String],
        scope: &search_index::ScopeFilter,
        now: i64,
    ) -> Result<Vec<Option<i64>>, search_index::IndexError> {
        records::newest_moments(&mut self.client, keys, scope, now)
    }
    fn recent(
        &mut self,
        scope: &search_index::ScopeFilter,
        now: Option<i64>,
        limit: u32,
    ) -> Result<Vec<search_index::Held>, search_index::IndexError> {
        records::recent(&mut self.client, scope, now, limit)
    }
    fn made_after(
        &mut self,
        ids: &[String],
        now: i64,
        within: i64,
    ) -> Result<Vec<Option<String>>, search_index::IndexError> {
        records::made_after(&mut self.client, ids, now, within)
    }
    fn made_around(
        &mut self,
        ids: &[String],
        places: u32,
        now: i64,
    ) -> Result<Vec<Vec<String>>, search_index::IndexError> {
        records::made_around(&mut self.client, ids, places, now)
    }
    fn pending(&mut self, kind: search_index::EntryKind) -> Result<u64, search_index::IndexError> {
        index::pending(&mut self.client, kind)
    }
    fn count(&mut self, kind: search_index::EntryKind) -> Result<u64, search_index::IndexError> {
        index::count(&mut self.client, kind)
    }
    fn clear(&mut self, info: &search_index::IndexInfo) -> Result<(), search_index::IndexError> {
        self.before_write().map_err(search_index::IndexError::Sql)?;
        self.meta = None;
        index::clear(&mut self.client, info)
    }
    fn reflects(
        &mut self,
        kind: search_index::EntryKind,
    ) -> Result<Option<search_index::FileState>, search_index::IndexError> {
        Ok(self.meta()?.reflects(kind))
    }
    fn set_reflects(
        &mut self,
        kind: search_index::EntryKind,
        state: search_index::FileState,
    ) -> Result<(), search_index::IndexError> {
        self.before_write().map_err(search_index::IndexError::Sql)?;
        self.meta = None;
        index::set_reflects(&mut self.client, kind, state)
    }
    fn info(&mut self) -> Result<Option<search_index::IndexInfo>, search_index::IndexError> {
        self.meta()?.info()
    }

    fn quarantined_lines(&mut self) -> u64 {
        // Outside a call: a transaction of its own, for the search path.
        if self.begin(Access::Read, None).is_err() {
            return 0;
        }
        let n = log::quarantined(&mut self.client).unwrap_or(0);
        let _ = self.commit();
        n
    }
    fn is_local(&self) -> bool {
        false
    }
}
