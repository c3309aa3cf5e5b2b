//! The tables of one namespace, in the Postgres schema `ash_<namespace>`, created and
//! migrated by the host under an advisory lock so that hosts starting together do not
//! race. `schema_version` says which layout a schema has: an older one is migrated in
//! the same transaction, a newer one is refused.

use postgres::{Client, Transaction};

use crate::files::Collection;

/// The layout this build writes.
pub(super) const VERSION: i32 = 2;

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

/// Added by version 2: the order entries were indexed in, kept across `clear` and
/// across the index's tables.
const V2_SEQUENCE: &str = "CREATE SEQUENCE entry_ord;";

/// The index's tables for vectors of `dimension`, without the HNSW index (see
/// `hnsw_ddl`), dropping any there.
///
/// - `entries`: what full-text search reads, narrow so that a search touching thousands
///   of rows reads few pages. Version 1 kept the vector here too, and a text search read
///   1.5 KB per matching row. Its GIN index takes each write at once (`fastupdate = off`):
///   with Postgres's default, writes queue in a pending list that every search then reads
///   through, and after an import a search for a word no entry holds took 9 ms, not 0.1.
/// - `vectors`: the entries that have a vector, with their scope for the knn's filter.
/// - `lexemes`: how many entries hold each stemmed word, across the namespace, kept in
///   the same transaction as `entries`. Full-text search looks a word up here to decide
///   whether to read every match or only recent ones (`text_search`).
/// - `records`: each memory's record line without its embedding, apart from `entries` so
///   that full-text search reads none of it; what `fetch` answers from. `entries.pending`
///   marks entries without a vector, and its partial index counts them at once.
/// - `newest_entries(key, n)`: a scope key's newest `n` entries, read backwards through
///   the `(scope, ord)` btree and nothing else, whatever the statistics say. A plain
///   query let the planner, with no statistics yet after an import, read the whole scope
///   and sort it (4.5 ms at 10k entries, growing with the scope); a function's own
///   settings leave it that one plan.
pub(super) fn index_ddl(dimension: u32) -> String {
    format!(
        "DROP TABLE IF EXISTS entries, vectors, lexemes, records;
         CREATE TABLE entries (
             id text PRIMARY KEY,
             ord bigint NOT NULL DEFAULT nextval('entry_ord'),
             kind smallint NOT NULL,
             scope text NOT NULL,
             content text NOT NULL,
             pending boolean NOT NULL DEFAULT false,
             tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED
         );
         CREATE INDEX entries_scope ON entries (scope, ord);
         CREATE INDEX entries_pending ON entries (kind) WHERE pending;
         CREATE TABLE records (id text PRIMARY KEY, record text NOT NULL);
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
        // ef_construction 128, not the default 64: with 64 the graph capped recall@10 near
        // 0.99 at 1M rows however wide the search (`docs/scale-out.md`, section 4).
        "CREATE INDEX vectors_hnsw ON vectors USING hnsw (embedding vector_cosine_ops) WITH (ef_construction = 128);"
    } else {
        ""
    }
}

/// Version 1 to 2: the vectors move out of `entries` into `vectors`, and `lexemes` is
/// counted, keeping every entry's id, order and vector (the index is not rebuilt). A
/// version 1 namespace without an index yet has nothing to move.
fn migrate_v1(tx: &mut Transaction<'_>) -> Result<(), postgres::Error> {
    tx.batch_execute(V2_SEQUENCE)?;
    let dimension: Option<String> = tx
        .query_opt(
            "SELECT value FROM meta WHERE key = 'dimension' AND to_regclass('entries') IS NOT NULL",
            &[],
        )?
        .map(|r| r.get(0));
    let Some(dimension) = dimension.and_then(|d| d.parse::<u32>().ok()) else {
        return tx.batch_execute("DROP TABLE IF EXISTS entries");
    };
    tx.batch_execute(&format!(
        "ALTER TABLE entries RENAME TO entries_v1;
         ALTER INDEX entries_pkey RENAME TO entries_v1_pkey;
         DROP INDEX IF EXISTS entries_scope, entries_tsv, entries_hnsw;
         SELECT setval('entry_ord', coalesce((SELECT max(ord) FROM entries_v1), 0) + 1, false);
         {}
         INSERT INTO entries (id, ord, kind, scope, content)
             SELECT id, ord, kind, scope, content FROM entries_v1;
         INSERT INTO vectors (id, ord, scope, embedding)
             SELECT id, ord, scope, embedding FROM entries_v1 WHERE embedding IS NOT NULL;
         INSERT INTO lexemes (lexeme, n)
             SELECT lexeme, count(*) FROM entries, unnest(tsvector_to_array(tsv)) lexeme GROUP BY lexeme;
         DROP TABLE entries_v1;
         {}",
        index_ddl(dimension),
        hnsw_ddl(dimension)
    ))
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
        Some(1) => {
            migrate_v1(&mut tx).map_err(|e| format!("migrating layout version 1 to {VERSION}: {e}"))?;
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
    for c in Collection::ALL {
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
