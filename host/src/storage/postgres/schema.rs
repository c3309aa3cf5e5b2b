//! The tables of one namespace, in the Postgres schema `ash_<namespace>`, created and
//! migrated by the host under an advisory lock so that hosts starting together do not
//! race. `schema_version` says which layout a schema has; a newer one is refused.

use postgres::Client;

use crate::files::Collection;

/// The layout this build writes.
pub(super) const VERSION: i32 = 1;

/// The layout, version 1. `lines` holds every collection as an append-only log: a line
/// per row, keyed by `pos`, the byte offset just past the line (and its newline) as if
/// the collection were a file, because the guest counts in bytes; `collections` holds each one's generation (see
/// `file-state` in `wit/files.wit`); `scopes` counts the index's entries per scope, which
/// decides how a knn is run; `entries` (the index proper) is made by `clear`, once the
/// dimension is known.
const V1: &str = "
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

/// The index table for vectors of `dimension`, with its indexes. pgvector's HNSW takes
/// at most 2,000 dimensions: above that, knn is an exact scan only.
pub(super) fn entries_ddl(dimension: u32) -> String {
    let hnsw = if dimension <= 2000 {
        // ef_construction 128, not the default 64: with 64 the graph capped recall@10 near
        // 0.99 at 1M rows however wide the search (`docs/scale-out.md`, section 4).
        "CREATE INDEX entries_hnsw ON entries USING hnsw (embedding vector_cosine_ops) WITH (ef_construction = 128);"
    } else {
        ""
    };
    format!(
        "DROP TABLE IF EXISTS entries;
         CREATE TABLE entries (
             id text PRIMARY KEY,
             ord bigserial,
             kind smallint NOT NULL,
             scope text NOT NULL,
             content text NOT NULL,
             tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
             embedding vector({dimension})
         );
         CREATE INDEX entries_scope ON entries (scope, ord);
         CREATE INDEX entries_tsv ON entries USING gin (tsv);
         {hnsw}"
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
            tx.batch_execute(V1).map_err(|e| e.to_string())?;
            tx.execute("INSERT INTO schema_version (version) VALUES ($1)", &[&VERSION])
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
