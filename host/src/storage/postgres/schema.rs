//! The tables of one namespace, in the Postgres schema `ash_<namespace>`, created and
//! migrated by the host under an advisory lock so that hosts starting together do not
//! race. `schema_version` says which layout a schema has: an older one is migrated in
//! the same transaction, a newer one is refused.

use postgres::{Client, Transaction};

use crate::files::Collection;

/// The layout this build writes (`docs/scale-out.md`, "Layout versions", tells what the
/// first ones changed).
pub(super) const VERSION: i32 = 6;

/// The tables every layout has. `lines` holds every collection as an append-only log: a
/// line per row, keyed by `pos`, the byte offset just past the line (and its newline) as
/// if the collection were a file, because the guest counts in bytes; `collections` holds
/// each one's generation (see `file-state` in `wit/files.wit`); `scopes` counts the
/// index's entries per scope, which decides how a knn is run. The index proper
/// (`index_ddl`) is made by `clear`, once the dimension is known.
const BASE: &str = "
    CREATE SEQUENCE generation_seq;
    CREATE TABLE collections (collection smallint PRIMARY KEY, generation bigint NOT NULL);
    CREATE TABLE lines (
        collection smallint NOT NULL,
        pos bigint NOT NULL,
        line text NOT NULL,
        PRIMARY KEY (collection, pos)
    );
    CREATE TABLE quarantine (
        id bigserial PRIMARY KEY,
        collection smallint NOT NULL,
        line text NOT NULL,
        reason text NOT NULL,
        at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
    CREATE TABLE scopes (scope text PRIMARY KEY, kind smallint NOT NULL, n bigint NOT NULL);
";

/// The order entries were indexed in, kept across `clear` and across the index's tables.
/// Apart from `BASE` because layout 1 lacks it, and its upgrade adds it.
const V2_SEQUENCE: &str = "CREATE SEQUENCE entry_ord;";

/// The index's tables for vectors of `dimension`, without the HNSW index (see
/// `hnsw_ddl`), dropping any there. `docs/scale-out.md` (sections 1 and 4.1) has the
/// measurements behind the choices below.
///
/// - `entries`: what full-text search reads, narrow (no vector, no record) so that a
///   search touching thousands of rows reads few pages. Its GIN index takes each write at
///   once (`fastupdate = off`): with Postgres's default, writes queue in a pending list
///   that every search then reads through.
/// - `vectors`: the entries that have a vector, with their scope for the knn's filter.
/// - `lexemes`: how many entries hold each stemmed word, across the namespace, kept in
///   the same transaction as `entries`. Full-text search looks a word up here to decide
///   whether to read every match or only recent ones (`text_search`).
/// - `records`: each memory's record line without its embedding, apart from `entries` so
///   that full-text search reads none of it; what `fetch` answers from. `entries.pending`
///   marks entries without a vector, and its partial index counts them at once.
/// - `marks`: each memory's keys (its subjects, entities, profile type or reflection),
///   with its scope, expiry (`entries.lapses` again) and observed moment, for `tally`,
///   `holding` and `newest`, which `marks_newest` walks newest first, equal moments by id
///   in byte order (`COLLATE "C"`, as SQLite compares).
/// - `entries.made` and `entries_made`: when each memory was made, and a scope's entries
///   most recently made first, equal moments the later indexed first (`ord`, which an
///   upsert of a held id keeps), for `recent` and `made-after`.
/// - `newest_entries(key, n)`: a scope key's newest `n` entries, read backwards through
///   the `(scope, ord)` btree and nothing else, whatever the statistics say: with none yet
///   (after an import) a plain query could read the whole scope and sort it. A function's
///   own settings leave it that one plan.
pub(super) fn index_ddl(dimension: u32) -> String {
    format!(
        "DROP TABLE IF EXISTS entries, vectors, lexemes, records, marks;
         CREATE TABLE entries (
             id text PRIMARY KEY,
             ord bigint NOT NULL DEFAULT nextval('entry_ord'),
             kind smallint NOT NULL,
             scope text NOT NULL,
             content text NOT NULL,
             context text,
             pending boolean NOT NULL DEFAULT false,
             lapses bigint,
             made bigint NOT NULL DEFAULT 0,
             tsv tsvector GENERATED ALWAYS AS (
                 setweight(to_tsvector('english', content), 'A')
                 || setweight(to_tsvector('english', coalesce(context, '')), 'B')
             ) STORED
         );
         CREATE INDEX entries_scope ON entries (scope, ord);
         CREATE INDEX entries_made ON entries (scope, made DESC, ord DESC);
         CREATE INDEX entries_pending ON entries (kind) WHERE pending;
         CREATE TABLE records (id text PRIMARY KEY, record text NOT NULL);
         CREATE TABLE marks (
             key text NOT NULL,
             scope text NOT NULL,
             id text NOT NULL,
             lapses bigint,
             observed bigint NOT NULL DEFAULT 0,
             PRIMARY KEY (key, scope, id)
         );
         CREATE INDEX marks_id ON marks (id);
         CREATE INDEX marks_newest ON marks (key, scope, observed DESC, id COLLATE \"C\");
         CREATE INDEX entries_tsv ON entries USING gin (tsv) WITH (fastupdate = off);
         CREATE OR REPLACE FUNCTION newest_entries(key text, n bigint)
             RETURNS TABLE (id text, ord bigint, tsv tsvector)
             LANGUAGE sql STABLE
             SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off
             SET search_path FROM CURRENT
             AS 'SELECT id, ord, tsv FROM entries WHERE scope = key ORDER BY ord DESC LIMIT n';
         CREATE TABLE vectors (
             id text PRIMARY KEY,
             ord bigint NOT NULL,
             scope text NOT NULL,
             embedding vector({dimension}) NOT NULL
         );
         CREATE INDEX vectors_scope ON vectors (scope);
         CREATE TABLE lexemes (lexeme text PRIMARY KEY, n bigint NOT NULL);"
    )
}

/// The HNSW index over `vectors`. pgvector's HNSW takes at most 2,000 dimensions: above
/// that, knn is an exact scan only. Built after a bulk copy rather than before, which is
/// several times faster (pgvector's README, "Index Build Time").
pub(super) fn hnsw_ddl(dimension: u32) -> &'static str {
    if dimension <= 2000 {
        // ef_construction 128, not the default 64, whose graph caps recall however wide
        // the search (`docs/scale-out.md`, section 4).
        "CREATE INDEX vectors_hnsw ON vectors USING hnsw (embedding vector_cosine_ops) WITH (ef_construction = 128);"
    } else {
        ""
    }
}

/// Upgrades an older layout: the index's tables are dropped and the guest rebuilds
/// them from the collections at the next call, since what later layouts added (marks,
/// observed and made moments, contexts apart) only the guest can give. The vectors come from the
/// records, so nothing is embedded again, and the collections are untouched. Layout 1
/// also lacks `V2_SEQUENCE`.
fn migrate_index(tx: &mut Transaction<'_>, from: i32) -> Result<(), postgres::Error> {
    if from == 1 {
        tx.batch_execute(V2_SEQUENCE)?;
    }
    tx.batch_execute(
        "DROP TABLE IF EXISTS entries, vectors, lexemes, records, marks;
         DELETE FROM meta; DELETE FROM scopes;",
    )
}

/// The schema name of a namespace, which `config` has checked is `[a-z0-9_]+`.
pub(super) fn schema_name(namespace: &str) -> String {
    format!("ash_{namespace}")
}

/// Creates the namespace's schema, or checks and migrates the one there, in one
/// transaction under a lock of its own.
pub(super) fn ensure(client: &mut Client, schema: &str) -> Result<(), String> {
    let mut tx = client.transaction().map_err(|e| e.to_string())?;
    tx.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 1))", &[&schema])
        .map_err(|e| e.to_string())?;
    let has_vector = tx
        .query_opt("SELECT 1 FROM pg_extension WHERE extname = 'vector'", &[])
        .map_err(|e| e.to_string())?
        .is_some();
    if !has_vector {
        tx.batch_execute("CREATE EXTENSION IF NOT EXISTS vector").map_err(|e| {
            format!("the pgvector extension is not installed and cannot be created here ({e}); run CREATE EXTENSION vector as a superuser")
        })?;
    }
    tx.batch_execute(&format!(
        "CREATE SCHEMA IF NOT EXISTS {schema};
         SET LOCAL search_path TO {schema}, public;
         CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL);"
    ))
    .map_err(|e| e.to_string())?;
    let version: Option<i32> = tx
        .query_opt("SELECT version FROM schema_version", &[])
        .map_err(|e| e.to_string())?
        .map(|r| r.get(0));
    match version {
        None => {
            tx.batch_execute(BASE).map_err(|e| e.to_string())?;
            tx.batch_execute(V2_SEQUENCE).map_err(|e| e.to_string())?;
            tx.execute("INSERT INTO schema_version (version) VALUES ($1)", &[&VERSION])
                .map_err(|e| e.to_string())?;
        }
        Some(v) if (1..VERSION).contains(&v) => {
            migrate_index(&mut tx, v).map_err(|e| format!("migrating layout version {v} to {VERSION}: {e}"))?;
            tx.execute("UPDATE schema_version SET version = $1", &[&VERSION])
                .map_err(|e| e.to_string())?;
        }
        Some(VERSION) => {}
        Some(v) => {
            return Err(format!(
                "schema {schema} has layout version {v}, newer than this ash-memory's ({VERSION}); upgrade ash-memory"
            ));
        }
    }
    // Collections added by later versions of the contract get their row here.
    for c in ash_memory_files::Collection::ALL.map(Collection::from) {
        tx.execute(
            "INSERT INTO collections (collection, generation) VALUES ($1, nextval('generation_seq'))
             ON CONFLICT (collection) DO NOTHING",
            &[&code(c)],
        )
        .map_err(|e| e.to_string())?;
    }
    tx.commit().map_err(|e| e.to_string())
}

/// A collection's number in the tables.
pub(super) fn code(c: Collection) -> i16 {
    match c {
        Collection::Memories => 0,
        Collection::People => 1,
        Collection::Archive => 2,
        Collection::Sessions => 3,
        Collection::Messages => 4,
    }
}
