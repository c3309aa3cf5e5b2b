//! The component's authority and the host's limits on it.

use ash_memory::{COMPOSED_COMPONENT, Caller, Error, Limits, ListOptions, MemoryStore, NewMemory, POLICY_COMPONENT};

use crate::support::ctx::Ctx;
use crate::support::fixtures::hostile_component;

/// A component's imports, sorted, and its exports in order.
fn interfaces(bytes: &[u8]) -> (Vec<String>, Vec<String>) {
    let engine = wasmtime::Engine::default();
    let component = wasmtime::component::Component::new(&engine, bytes).unwrap();
    let ty = component.component_type();
    let mut imports: Vec<String> = ty.imports(&engine).map(|(name, _)| name.to_owned()).collect();
    imports.sort();
    let exports = ty.exports(&engine).map(|(name, _)| name.to_owned()).collect();
    (imports, exports)
}

#[test]
fn the_components_import_only_ash_memory_interfaces_and_the_composed_one_sql_and_fs() {
    let (imports, exports) = interfaces(POLICY_COMPONENT);
    // `types` holds only the shared types of the exports; it carries no functions.
    let expected = [
        "clock", "embedder", "files", "ids", "index", "llm", "log", "settings", "types",
    ]
    .map(|i| format!("ash:memory/{i}@0.2.0"))
    .to_vec();
    assert_eq!(imports, expected);
    assert_eq!(
        exports,
        [
            "memories",
            "conversations",
            "recall",
            "people",
            "tools",
            "maintenance",
            "portability",
            "browse"
        ]
        .map(|i| format!("ash:memory/{i}@0.2.0"))
    );
    // What the other languages' hosts load: a SQLite connection (`sql`) and file
    // primitives (`fs`) imported where the policy imports the index and the collections,
    // which it now holds; the same exports, and the collections' `journal`, with which the
    // host ends each call.
    let (composed_imports, composed_exports) = interfaces(COMPOSED_COMPONENT);
    let expected = [
        "clock", "embedder", "fs", "ids", "llm", "log", "settings", "sql", "types",
    ]
    .map(|i| format!("ash:memory/{i}@0.2.0"))
    .to_vec();
    assert_eq!(composed_imports, expected);
    let mut with_journal = exports.clone();
    with_journal.push("ash:memory/journal@0.2.0".to_owned());
    assert_eq!(composed_exports, with_journal);
    // The policy inside is the one the Rust host runs, byte for byte (a nested component
    // carries its sections without the 8-byte preamble).
    assert!(
        COMPOSED_COMPONENT
            .windows(POLICY_COMPONENT.len() - 8)
            .any(|w| w == &POLICY_COMPONENT[8..]),
        "the composed component holds the policy's own bytes"
    );
}

fn hostile_store(home: &std::path::Path) -> MemoryStore {
    MemoryStore::builder(home)
        .component(std::fs::read(hostile_component()).unwrap())
        .limits(Limits {
            fuel_per_call: 200_000_000,
            memory_limit_mib: 64,
        })
        .cache_dir(None)
        .open()
        .unwrap()
}

#[test]
fn a_runaway_loop_and_a_memory_hog_are_stopped_and_the_next_call_works() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = hostile_store(dir.path());
    let me = Caller::user("u");

    let err = store.add(&me, &NewMemory::text("loop")).unwrap_err();
    assert!(matches!(err, Error::CpuLimit(200_000_000)), "{err:?}");
    // A fresh instance answers the next call.
    let none = ListOptions::new();
    assert!(store.list(&me, &none).unwrap().is_empty());

    let err = store.add(&me, &NewMemory::text("hog")).unwrap_err();
    assert!(matches!(err, Error::MemoryLimit(64)), "{err:?}");
    assert!(store.list(&me, &none).unwrap().is_empty());
    let err = store.add(&me, &NewMemory::text("loop")).unwrap_err();
    assert!(matches!(err, Error::CpuLimit(_)), "stopped again, every time: {err:?}");
}

#[test]
fn the_cli_reports_a_stopped_guest_cleanly_and_changes_nothing() {
    let ctx = Ctx::new().env("ASH_COMPONENT", hostile_component().to_str().unwrap());
    std::fs::write(
        ctx.home().join("config.toml"),
        "[sandbox]\nfuel_per_call = 200000000\nmemory_limit_mib = 64\n",
    )
    .unwrap();
    let before = ctx.snapshot();
    let err = ctx.fails(&["add", "loop"]);
    assert!(err.contains("budget of 200000000 fuel units"), "{err}");
    let err = ctx.fails(&["add", "hog"]);
    assert!(err.contains("memory limit of 64 MiB"), "{err}");
    assert_eq!(ctx.snapshot(), before);
}

#[test]
fn the_real_policy_runs_within_the_default_limits_after_a_trap_elsewhere() {
    // The same home, first opened with the hostile guest, then with the real one.
    let dir = tempfile::tempdir().unwrap();
    let mut hostile = hostile_store(dir.path());
    let me = Caller::user("u");
    assert!(hostile.add(&me, &NewMemory::text("loop")).is_err());
    drop(hostile);
    let mut store = MemoryStore::builder(dir.path()).cache_dir(None).open().unwrap();
    store.add(&me, &NewMemory::text("I'm allergic to peanuts")).unwrap();
    let found = store
        .search(&me, &ash_memory::SearchQuery::new("What should I avoid eating?"))
        .unwrap();
    assert_eq!(found.hits[0].memory.content, "I'm allergic to peanuts");
}
