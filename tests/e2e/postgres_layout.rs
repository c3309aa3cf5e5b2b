//! The Postgres layout across versions: a namespace that version 1 of the layout wrote is
//! migrated by the first host that opens it. Its collections are kept as they are; its
//! index, which lacks the marks (version 3), their observed moments (version 4), made
//! moments (version 5) or contexts kept apart (version 6) only the policy can give, is
//! dropped and rebuilt from them, with the vectors the records hold.

use ash_memory_test_support::postgres;

use crate::support::ctx::Ctx;

/// Puts a namespace's index back the way layout 1 kept it: one `entries` table with the
/// vectors in it, a `bigserial` order, and the HNSW index on `entries`.
fn back_to_layout_1(pg: &postgres::PgServer, ns: &str) {
    let dimension = pg.psql(&format!("SELECT value FROM ash_{ns}.meta WHERE key = 'dimension'"));
    pg.psql(&format!(
        "SET search_path TO ash_{ns}, public;
         ALTER TABLE entries RENAME TO v2_entries;
         ALTER INDEX entries_pkey RENAME TO v2_entries_pkey;
         ALTER INDEX entries_scope RENAME TO v2_entries_scope;
         ALTER INDEX entries_tsv RENAME TO v2_entries_tsv;
         CREATE TABLE entries (
             id text PRIMARY KEY,
             ord bigserial,
             kind smallint NOT NULL,
             scope text NOT NULL,
             content text NOT NULL,
             tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
             embedding vector({})
         );
         INSERT INTO entries (id, ord, kind, scope, content, embedding)
             SELECT e.id, e.ord, e.kind, e.scope, e.content, v.embedding
             FROM v2_entries e LEFT JOIN vectors v USING (id);
         SELECT setval('entries_ord_seq', (SELECT max(ord) FROM entries));
         CREATE INDEX entries_scope ON entries (scope, ord);
         CREATE INDEX entries_tsv ON entries USING gin (tsv);
         CREATE INDEX entries_hnsw ON entries USING hnsw (embedding vector_cosine_ops) WITH (ef_construction = 128);
         DROP TABLE v2_entries, vectors, lexemes;
         DROP SEQUENCE entry_ord;
         UPDATE schema_version SET version = 1;",
        dimension.trim()
    ));
}

#[test]
fn a_namespace_of_layout_1_is_migrated_and_answers_the_same() {
    let Some(pg) = postgres::server() else { return };
    let ns = pg.namespace("layout1");
    let ctx = Ctx::on_postgres(pg, &ns);
    ctx.add("alice", "I live in Lisbon");
    ctx.add("alice", "I am allergic to peanuts");
    ctx.add("bob", "My sister is called Ana");
    let answers = || {
        [
            ctx.search("alice", "Where do I live?"),
            ctx.search("alice", "peanuts"),
            ctx.search("bob", "Who is my sister?"),
            ctx.search("bob", "peanuts"),
        ]
    };
    let before = answers();
    assert_eq!(before[1], ["I am allergic to peanuts"]);
    assert!(
        before[3].is_empty(),
        "Bob sees none of Alice's memories: {:?}",
        before[3]
    );
    back_to_layout_1(pg, &ns);
    let version = || pg.psql(&format!("SELECT version FROM ash_{ns}.schema_version"));
    assert_eq!(version().trim(), "1");

    assert_eq!(answers(), before, "the same answers after the migration");
    assert_eq!(version().trim(), "6");
    let rebuilt = pg.psql(&format!(
        "SELECT (SELECT count(*) FROM ash_{ns}.vectors),
                (SELECT count(*) FROM information_schema.columns
                 WHERE table_schema = 'ash_{ns}' AND table_name = 'entries' AND column_name = 'embedding'),
                (SELECT n FROM ash_{ns}.lexemes WHERE lexeme = 'peanut'),
                (SELECT count(*) FROM ash_{ns}.marks WHERE key = 'entity:name:ana'),
                (SELECT count(*) FROM pg_tables WHERE schemaname = 'ash_{ns}' AND tablename = 'entries_v1')"
    ));
    assert_eq!(
        rebuilt.trim(),
        "3|0|1|1|0",
        "vectors out of entries, words counted, Bob's memory marked by the name it holds"
    );

    // Writes go on in the new layout: a new entry orders after the old ones.
    ctx.add("alice", "I moved to Porto");
    assert_eq!(ctx.search("alice", "Where do I live?"), ["I moved to Porto"]);
    let newest = pg.psql(&format!(
        "SELECT content FROM ash_{ns}.entries ORDER BY ord DESC LIMIT 1"
    ));
    assert_eq!(newest.trim(), "I moved to Porto");
}

/// A namespace of layout 3, whose marks keep no observed moments (nor the profile and
/// reflection keys), is migrated too: its index is rebuilt, and a profile in a new process
/// is then read from it.
#[test]
fn a_namespace_of_layout_3_is_rebuilt_with_observed_moments() {
    let Some(pg) = postgres::server() else { return };
    let ns = pg.namespace("layout3");
    let ctx = Ctx::on_postgres(pg, &ns);
    ctx.ok(&["--user", "alice", "add", "--type", "identity", "I was born in Porto"]);
    ctx.ok(&["--user", "alice", "add", "--type", "preference", "I like green tea"]);
    pg.psql(&format!(
        "SET search_path TO ash_{ns}, public;
         DROP INDEX marks_newest;
         ALTER TABLE marks DROP COLUMN observed;
         DELETE FROM marks WHERE key LIKE 'profile:%';
         UPDATE schema_version SET version = 3;"
    ));
    let profile = ctx.json(&["--user", "alice", "profile"]);
    assert_eq!(
        profile["notes"],
        serde_json::json!(["I was born in Porto", "I like green tea"])
    );
    let migrated = pg.psql(&format!(
        "SELECT (SELECT version FROM ash_{ns}.schema_version),
                (SELECT count(*) FROM ash_{ns}.marks WHERE key LIKE 'profile:%' AND observed > 0)"
    ));
    assert_eq!(migrated.trim(), "6|2");
}

/// A namespace of layout 4, whose entries keep no made moments, is migrated too: its index
/// is rebuilt, and a list in a new process is then read from it, newest first.
#[test]
fn a_namespace_of_layout_4_is_rebuilt_with_made_moments() {
    let Some(pg) = postgres::server() else { return };
    let ns = pg.namespace("layout4");
    let ctx = Ctx::on_postgres(pg, &ns);
    for (now, fact) in [
        ("2026-05-01T12:00:00Z", "I was born in Porto"),
        ("2026-05-02T12:00:00Z", "I like green tea"),
    ] {
        ctx.ok(&["--user", "alice", "--now", now, "add", fact]);
    }
    pg.psql(&format!(
        "SET search_path TO ash_{ns}, public;
         DROP INDEX entries_made;
         ALTER TABLE entries DROP COLUMN made;
         UPDATE schema_version SET version = 4;"
    ));
    let (listed, log) = crate::from_index::run_logged(
        &ctx,
        &[
            "--user",
            "alice",
            "--now",
            "2026-05-03T12:00:00Z",
            "list",
            "--limit",
            "5",
        ],
    );
    assert_eq!(
        crate::support::ctx::contents(&listed),
        ["I like green tea", "I was born in Porto"]
    );
    assert!(!log.contains("list: read from the index"), "no index yet: {log}");
    // The next call that searches rebuilds the index; a list then reads it.
    let (_, log) = crate::from_index::run_logged(&ctx, &["--user", "alice", "search", "tea"]);
    assert!(log.contains("rebuilding it"), "{log}");
    let (again, log) = crate::from_index::run_logged(
        &ctx,
        &[
            "--user",
            "alice",
            "--now",
            "2026-05-03T12:00:00Z",
            "list",
            "--limit",
            "5",
        ],
    );
    assert!(log.contains("list: read from the index"), "{log}");
    assert_eq!(again, listed);
    let migrated = pg.psql(&format!(
        "SELECT (SELECT version FROM ash_{ns}.schema_version),
                (SELECT count(*) FROM ash_{ns}.entries WHERE made > 0)"
    ));
    assert_eq!(migrated.trim(), "6|2");
}

/// A namespace of layout 5, whose full text held a memory's context as words of its own, is
/// migrated too: its index is rebuilt with each context apart.
#[test]
fn a_namespace_of_layout_5_is_rebuilt_with_contexts_apart() {
    let Some(pg) = postgres::server() else { return };
    let ns = pg.namespace("layout5");
    let ctx = Ctx::on_postgres(pg, &ns);
    ctx.ok(&["--user", "alice", "add", crate::embedder_http::SAID]);
    ctx.ok(&[
        "--user",
        "alice",
        "add",
        crate::embedder_http::REPLY,
        "--context",
        crate::embedder_http::ANSWERED,
    ]);
    pg.psql(&format!(
        "SET search_path TO ash_{ns}, public;
         ALTER TABLE entries DROP COLUMN tsv;
         UPDATE entries SET content = content || E'\\n' || context WHERE context IS NOT NULL;
         ALTER TABLE entries DROP COLUMN context;
         ALTER TABLE entries ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED;
         CREATE INDEX entries_tsv ON entries USING gin (tsv) WITH (fastupdate = off);
         UPDATE schema_version SET version = 5;"
    ));
    let found = ctx.search("alice", "kitten shelter");
    assert_eq!(found.len(), 2, "{found:?}");
    let migrated = pg.psql(&format!(
        "SELECT (SELECT version FROM ash_{ns}.schema_version),
                (SELECT context FROM ash_{ns}.entries WHERE content = '{}')",
        crate::embedder_http::REPLY
    ));
    assert_eq!(migrated.trim(), format!("6|{}", crate::embedder_http::ANSWERED));
}
