//! Moving in from the legacy SQLite store: a database built here from seed 002's schema is
//! migrated on first open (and by `migrate --from`), through the CLI, the real component,
//! files and index.

use std::path::Path;

use ash_memory::{Embedder, TransformerEmbedder};
use serde_json::{Value, json};

use crate::support::ctx::Ctx;

/// Seed 002's tables as its models define them (after its migrations 002 to 004: chats,
/// supersession, a JSON list of subjects), and the sqlite-vec table beside them.
const LEGACY_SCHEMA: &str = "
    CREATE TABLE people (
        id VARCHAR PRIMARY KEY, owner_user_id VARCHAR NOT NULL, name VARCHAR NOT NULL,
        relation VARCHAR, aliases JSON, metadata JSON,
        created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL
    );
    CREATE TABLE memories (
        id VARCHAR PRIMARY KEY, content TEXT NOT NULL, source VARCHAR,
        created_at DATETIME NOT NULL, expires_at DATETIME, metadata JSON,
        owner_user_id VARCHAR, chat_id VARCHAR, subject_person_ids JSON,
        superseded_at DATETIME, superseded_by_id VARCHAR REFERENCES memories(id)
    );
";

const SARAH: &str = "5d0c7a7e-0000-4000-8000-000000000001";

/// One legacy memory row: (id, content, owner, chat, subjects, created, superseded by).
type Row<'a> = (
    &'a str,
    &'a str,
    Option<&'a str>,
    Option<&'a str>,
    &'a str,
    &'a str,
    Option<&'a str>,
);

const ROWS: [Row<'static>; 9] = [
    (
        "m-1",
        "I am allergic to peanuts",
        Some("alice"),
        None,
        "[]",
        "2024-01-15 10:30:00.123456",
        None,
    ),
    (
        "m-2",
        "Sarah loves tulips",
        Some("alice"),
        None,
        "[\"5d0c7a7e-0000-4000-8000-000000000001\"]",
        "2024-02-01 09:00:00",
        None,
    ),
    (
        "m-3",
        "I live in Lisbon",
        Some("alice"),
        None,
        "[]",
        "2024-03-01 09:00:00",
        Some("m-4"),
    ),
    (
        "m-4",
        "I live in Porto",
        Some("alice"),
        None,
        "[]",
        "2024-06-01 09:00:00",
        None,
    ),
    (
        "m-5",
        "The family reunion is in August",
        Some("alice"),
        Some("family"),
        "[]",
        "2024-06-02 09:00:00",
        None,
    ),
    // Rows that cannot be read in: a secret, no scope, a date nobody can read.
    (
        "m-6",
        "my password is hunter2hunter2",
        Some("alice"),
        None,
        "[]",
        "2024-06-03 09:00:00",
        None,
    ),
    ("m-7", "Nobody's memory", None, None, "[]", "2024-06-03 09:00:00", None),
    (
        "m-8",
        "A memory from never",
        Some("alice"),
        None,
        "[]",
        "last tuesday",
        None,
    ),
    (
        "m-9",
        "An owner that is blank",
        Some(""),
        None,
        "[]",
        "2024-06-03 09:00:00",
        None,
    ),
];

/// Builds a legacy store at `path`; vectors (for the first four memories) are made by
/// `vector`, stored in a sqlite-vec table of their dimension.
fn build_legacy_store(path: &Path, dimension: usize, vector: impl Fn(&str) -> Vec<f32>) {
    let conn = rusqlite::Connection::open(path).unwrap();
    type Init = unsafe extern "C" fn(
        *mut rusqlite::ffi::sqlite3,
        *mut *mut std::os::raw::c_char,
        *const rusqlite::ffi::sqlite3_api_routines,
    ) -> std::os::raw::c_int;
    // SAFETY: sqlite3_vec_init is an SQLite extension entry point (the crate declares it
    // without its arguments); called once on this connection, as SQLite would.
    let rc = unsafe {
        let init = std::mem::transmute::<*const (), Init>(sqlite_vec::sqlite3_vec_init as *const ());
        init(conn.handle(), std::ptr::null_mut(), std::ptr::null())
    };
    assert_eq!(rc, 0, "sqlite-vec loads");
    // SQLite does not check foreign keys unless told to, and SQLAlchemy does not tell it.
    conn.execute_batch("PRAGMA foreign_keys = OFF").unwrap();
    conn.execute_batch(LEGACY_SCHEMA).unwrap();
    conn.execute_batch(&format!(
        "CREATE VIRTUAL TABLE memory_embeddings USING vec0 (memory_id TEXT PRIMARY KEY, embedding FLOAT[{dimension}])"
    ))
    .unwrap();
    conn.execute(
        "INSERT INTO people VALUES (?1, 'alice', 'Sarah', 'wife', '[\"my wife\"]', '{\"met\": 2010}',
                '2024-01-01 08:00:00', '2024-01-02 08:00:00')",
        [SARAH],
    )
    .unwrap();
    for (id, content, owner, chat, subjects, created, by) in ROWS {
        let superseded_at = by.map(|_| "2024-06-01 09:00:00");
        conn.execute(
            "INSERT INTO memories VALUES (?1, ?2, 'user', ?3, NULL, NULL, ?4, ?5, ?6, ?7, ?8)",
            rusqlite::params![id, content, created, owner, chat, subjects, superseded_at, by],
        )
        .unwrap();
    }
    for (id, content, ..) in &ROWS[..4] {
        let bytes: Vec<u8> = vector(content).iter().flat_map(|x| x.to_le_bytes()).collect();
        conn.execute(
            "INSERT INTO memory_embeddings (memory_id, embedding) VALUES (?1, ?2)",
            rusqlite::params![id, bytes],
        )
        .unwrap();
    }
}

fn quarantined(ctx: &Ctx) -> Vec<Value> {
    std::fs::read_to_string(ctx.home().join("memory/migration.quarantine.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_legacy_store_is_migrated_on_first_open_and_kept_untouched() {
    if crate::support::ctx::files_only("migrates a legacy store into the home's files") {
        return;
    }
    let ctx = Ctx::new();
    use std::os::unix::fs::PermissionsExt as _;
    let private = |p: &Path, mode: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
    std::fs::create_dir_all(ctx.home().join("data")).unwrap();
    private(&ctx.home().join("data"), 0o700);
    let model = TransformerEmbedder::new();
    build_legacy_store(&ctx.index_path(), 384, |t| {
        model.embed(&[t.to_owned()]).unwrap().remove(0)
    });
    private(&ctx.index_path(), 0o600);
    let original = std::fs::read(ctx.index_path()).unwrap();

    let first = ctx.run(&["--user", "alice", "list"]);
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(first.status.success(), "{stderr}");
    assert!(
        stderr.contains("1 people and 5 memories read in (1 embedded again") && stderr.contains("4 rows set aside"),
        "{stderr}"
    );
    // The old file is kept, byte for byte, beside the new index.
    let backup = ctx.home().join("data/memory.db.legacy");
    assert_eq!(std::fs::read(&backup).unwrap(), original);

    // Ids, times, scopes, subjects, the chain and the vectors came across.
    let lines = ctx.memory_lines();
    let by_id = |id: &str| {
        lines
            .iter()
            .find(|l| l["id"] == id)
            .unwrap_or_else(|| panic!("{id} missing"))
    };
    assert_eq!(by_id("m-1")["created_at"], "2024-01-15T10:30:00.123456+00:00");
    assert_eq!(by_id("m-2")["subject_person_ids"], json!([SARAH]));
    assert_eq!(
        (&by_id("m-3")["superseded_by_id"], &by_id("m-4")["superseded_at"]),
        (&json!("m-4"), &Value::Null)
    );
    assert_eq!(
        (&by_id("m-5")["chat_id"], &by_id("m-5")["owner_user_id"]),
        (&json!("family"), &Value::Null)
    );
    assert_eq!(
        by_id("m-1")["memory_type"],
        "identity",
        "typed by its words, as an add is"
    );
    let kept = model.embed(&["I am allergic to peanuts".to_owned()]).unwrap().remove(0);
    let bytes: Vec<u8> = kept.iter().flat_map(|x| x.to_le_bytes()).collect();
    use base64::Engine as _;
    assert_eq!(
        by_id("m-1")["embedding"],
        base64::engine::general_purpose::STANDARD.encode(bytes)
    );
    let sarah = ctx.json(&["--user", "alice", "people", "show", "my wife"]);
    assert_eq!(
        (&sarah["id"], &sarah["name"], &sarah["updated_at"]),
        (&json!(SARAH), &json!("Sarah"), &json!("2024-01-02T08:00:00+00:00"))
    );

    // The index was built: search, the person graph and the chain work.
    assert_eq!(
        ctx.search("alice", "What should I avoid eating?")[0],
        "I am allergic to peanuts"
    );
    let tulips = ctx.json(&["--user", "alice", "search", "flowers", "--about", "Sarah"]);
    assert_eq!(tulips["hits"][0]["content"], "Sarah loves tulips");
    let chain = ctx.json(&["--user", "alice", "history", "m-4"]);
    assert_eq!(chain.as_array().unwrap().len(), 2);
    let doctor = ctx.run(&["--json", "doctor"]);
    let findings: Value = serde_json::from_slice(&doctor.stdout).unwrap();
    let quarantine = findings["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["check"] == "quarantine")
        .unwrap();
    assert!(
        quarantine["detail"]
            .as_str()
            .unwrap()
            .contains("migration.quarantine.jsonl (4)"),
        "{findings:#}"
    );
    let others_ok = findings["findings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["check"] == "quarantine" || f["ok"] == true);
    assert!(others_ok, "the index and records are in order: {findings:#}");

    // Nothing was dropped: what could not be read in is set aside with why.
    let aside = quarantined(&ctx);
    let reasons: Vec<(String, String)> = aside
        .iter()
        .map(|q| {
            (
                q["row"]["id"].as_str().unwrap().to_owned(),
                q["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(reasons.len(), 4, "{reasons:?}");
    assert!(
        reasons
            .iter()
            .any(|(id, why)| id == "m-9" && why.contains("neither an owner nor a chat"))
    );
    assert!(
        reasons.iter().any(|(id, why)| id == "m-6" && why.contains("secret")),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|(id, why)| id == "m-7" && why.contains("neither an owner nor a chat"))
    );
    assert!(
        reasons
            .iter()
            .any(|(id, why)| id == "m-8" && why.contains("not a timestamp"))
    );
    assert!(
        !std::fs::read_to_string(ctx.memories_path())
            .unwrap()
            .contains("hunter2")
    );
    assert_eq!(ctx.json(&["stats"])["quarantined"], 4);

    // A second open does nothing.
    let before = ctx.snapshot();
    let again = ctx.run(&["--user", "alice", "list"]);
    assert!(!String::from_utf8_lossy(&again.stderr).contains("migrated"));
    assert_eq!(ctx.snapshot(), before);
}

#[test]
fn migrate_from_reads_a_store_of_another_dimension_once() {
    let ctx = Ctx::new();
    let dir = tempfile::tempdir().unwrap();
    let legacy = dir.path().join("old.db");
    // 1536-dimensional vectors, as an OpenAI model made them: not this home's.
    build_legacy_store(&legacy, 1536, |t| {
        (0..1536).map(|i| ((i + t.len()) % 7) as f32 + 0.5).collect()
    });
    let original = std::fs::read(&legacy).unwrap();
    let report = ctx.json(&["migrate", "--from", legacy.to_str().unwrap()]);
    assert_eq!(
        (
            &report["rows"],
            &report["people"],
            &report["memories"],
            &report["reembedded"],
            &report["quarantined"]
        ),
        (&json!(10), &json!(1), &json!(5), &json!(5), &json!(4)),
        "{report:#}"
    );
    assert_eq!(
        std::fs::read(&legacy).unwrap(),
        original,
        "the legacy file is only read"
    );
    assert_eq!(
        ctx.search("alice", "What should I avoid eating?")[0],
        "I am allergic to peanuts"
    );
    assert_eq!(ctx.json(&["stats"])["pending"], 0);
    // Again: everything is present already, and nothing is set aside twice.
    let again = ctx.json(&["migrate", "--from", legacy.to_str().unwrap()]);
    assert_eq!(
        (&again["memories"], &again["people"], &again["present"]),
        (&json!(0), &json!(0), &json!(6))
    );
    assert_eq!(quarantined(&ctx).len(), 4);
    // Not a legacy store: a clear refusal.
    let err = ctx.fails(&["migrate", "--from", ctx.memories_path().to_str().unwrap()]);
    assert!(err.contains("not a legacy ash store"), "{err}");
}

#[test]
fn a_migration_killed_at_any_write_finishes_at_the_next_open() {
    if crate::support::ctx::files_only("migrates a legacy store into the home's files") {
        return;
    }
    let base = Ctx::new();
    std::fs::create_dir_all(base.home().join("data")).unwrap();
    build_legacy_store(&base.index_path(), 1536, |t| {
        (0..1536).map(|i| ((i + t.len()) % 5) as f32 + 0.5).collect()
    });
    let original = std::fs::read(base.index_path()).unwrap();
    let clean = base.copy();
    clean.ok(&["--user", "alice", "list"]);
    let folded = |ctx: &Ctx| {
        let mut by_id = std::collections::BTreeMap::new();
        for l in ctx.memory_lines() {
            let mut l = l.clone();
            l.as_object_mut().unwrap().remove("embedding");
            by_id.insert(l["id"].as_str().unwrap().to_owned(), l);
        }
        by_id
    };
    let want = folded(&clean);
    assert_eq!(want.len(), 5);

    let trace = base
        .copy()
        .command()
        .env("ASH_FAULT_TRACE", "1")
        .args(["--user", "alice", "list"])
        .output()
        .unwrap();
    let points = String::from_utf8_lossy(&trace.stderr)
        .matches("ash-fault-point")
        .count();
    assert!(points > 5, "{}", String::from_utf8_lossy(&trace.stderr));
    for k in 1..=points {
        let ctx = base.copy();
        let killed = ctx
            .command()
            .env("ASH_FAULT", k.to_string())
            .args(["--user", "alice", "list"])
            .output()
            .unwrap();
        assert!(!killed.status.success(), "point {k} was reached");
        let next = ctx.run(&["--user", "alice", "list"]);
        assert!(
            next.status.success(),
            "point {k}: {}",
            String::from_utf8_lossy(&next.stderr)
        );
        assert_eq!(folded(&ctx), want, "point {k}");
        assert_eq!(quarantined(&ctx).len(), 4, "point {k}");
        assert_eq!(
            std::fs::read(ctx.home().join("data/memory.db.legacy")).unwrap(),
            original,
            "point {k}"
        );
        assert_eq!(ctx.json(&["stats"])["index"]["in_step"], true, "point {k}");
    }
}
