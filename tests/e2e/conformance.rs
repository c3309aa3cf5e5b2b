//! The conformance suite (`tests/conformance/*.json`) through the Rust host's runner, and
//! the component artifact the other hosts load.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::support::ctx::Ctx;

/// The scenario files, in name order.
pub(crate) fn scenarios() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/conformance exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_scenario_passes_and_leaves_a_home_the_cli_reads() {
    let ctx = Ctx::new();
    let keep = ctx.home().join("kept");
    let files = scenarios();
    assert!(files.len() >= 8, "the suite has lost scenarios: {files:?}");
    let mut args = vec![
        "conformance".to_owned(),
        "--keep".to_owned(),
        keep.display().to_string(),
    ];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = ctx.ok(&args);
    assert!(out.contains(&format!("{} passed, 0 failed", files.len())), "{out}");
    // Each kept home is a whole home: the CLI opens it and its doctor finds nothing wrong.
    for file in &files {
        let home = keep.join(file.file_stem().unwrap());
        let home = home.to_str().unwrap();
        ctx.ok(&["--home", home, "doctor"]);
    }
    let scoping = keep.join("scoping");
    let listed = ctx.json(&["--home", scoping.to_str().unwrap(), "--user", "bob", "list"]);
    assert_eq!(listed[0]["content"], "I am vegetarian", "{listed}");
}

#[test]
fn a_wrong_expectation_fails_and_says_where() {
    let ctx = Ctx::new();
    let scenario = ctx.home().join("wrong.json");
    std::fs::write(
        &scenario,
        r#"{"description": "expects the wrong type", "now": "2026-03-01T12:00:00Z", "steps": [
            {"method": "memory.add", "params": {"content": "I'm allergic to peanuts"},
             "expect": {"memories": [{"memory_type": "preference"}]}},
            {"method": "memory.get", "params": {"memory_id": "no-such-memory"}}]}"#,
    )
    .unwrap();
    let out = ctx.run(&["conformance", scenario.to_str().unwrap()]);
    assert!(!out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("FAIL  wrong: step 1 (memory.add)") && stdout.contains("/memories/0/memory_type"),
        "{stdout}"
    );
    // An error where success was expected fails too, with its kind.
    std::fs::write(
        &scenario,
        r#"{"description": "x", "now": "2026-03-01T12:00:00Z",
            "steps": [{"method": "memory.get", "params": {"memory_id": "no-such-memory"}}]}"#,
    )
    .unwrap();
    let out = ctx.run(&["conformance", scenario.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("failed with memory_not_found"));
}

#[test]
fn the_component_command_hands_out_the_bytes_the_build_published() {
    let ctx = Ctx::new();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let published = std::fs::read(target.join("ash_memory.wasm")).expect("the build publishes the component");
    let out = ctx.home().join("policy.wasm");
    ctx.ok(&["component", "--out", out.to_str().unwrap()]);
    assert_eq!(std::fs::read(&out).unwrap(), published);
    let piped = ctx.run(&["component"]);
    assert!(piped.status.success());
    assert_eq!(piped.stdout, published);
    let sha: String = Sha256::digest(&published).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(ctx.ok(&["component", "--sha256"]).trim(), sha);
    assert!(published.starts_with(b"\0asm"), "a WebAssembly file");
}
