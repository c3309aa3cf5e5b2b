//! The home itself: its lock against slow services, its modes, the compiled-component
//! cache, clean errors, and `doctor`.

use std::os::unix::fs::PermissionsExt;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use serde_json::Value;

use crate::support::ctx::Ctx;
use crate::support::http_server::{Reply, Server, chat};

/// Defect 10: a slow language model does not hold the home's lock; a lock held too long
/// by someone else is a clean, bounded error.
#[test]
fn a_slow_service_does_not_stall_other_callers() {
    if crate::support::ctx::files_only("tests the files backend itself: its journal, locks, modes and index file") {
        return;
    }
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let held = gate.clone();
    let server = Server::start(move |_| {
        let (open, cv) = &*held;
        let guard = open.lock().unwrap();
        let _ = cv
            .wait_timeout_while(guard, Duration::from_secs(20), |open| !*open)
            .unwrap();
        chat("change")
    });
    let ctx = Ctx::new();
    ctx.config(&format!(
        "[llm]\nbase_url = \"{}\"\nmodel = \"slow\"\ntimeout_secs = 30\n",
        server.base_url()
    ));
    ctx.add("u", "I like dogs");
    let adder = ctx
        .command()
        .args(["--json", "--user", "u", "add", "I like cats"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    while server.count() == 0 {
        std::thread::sleep(Duration::from_millis(20));
    }
    // The add is waiting on the model: another user's calls go through meanwhile.
    let other = ctx
        .command()
        .env("ASH_LOCK_TIMEOUT_SECS", "10")
        .args(["--json", "--user", "v", "add", "I keep bees"])
        .output()
        .unwrap();
    assert!(other.status.success(), "{}", String::from_utf8_lossy(&other.stderr));
    let listed = ctx.command().args(["--json", "--user", "u", "list"]).output().unwrap();
    assert!(listed.status.success());
    {
        let (open, cv) = &*gate;
        *open.lock().unwrap() = true;
        cv.notify_all();
    }
    let done = adder.wait_with_output().unwrap();
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let added: Value = serde_json::from_slice(&done.stdout).unwrap();
    assert_eq!(added["superseded"].as_array().unwrap().len(), 1, "{added}");
    assert_eq!(ctx.search("v", "bees")[0], "I keep bees");

    // Someone holding the lock for good: a write waits a bounded time, then fails
    // cleanly; a read goes on from where the last write left the home.
    let lock = std::fs::File::open(ctx.home().join(".lock")).unwrap();
    lock.lock().unwrap();
    let out = ctx
        .command()
        .env("ASH_LOCK_TIMEOUT_SECS", "0.3")
        .args(["--user", "u", "add", "I like owls"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("busy"), "{stderr}");
    let listed = ctx
        .command()
        .env("ASH_LOCK_TIMEOUT_SECS", "0.3")
        .args(["--json", "--user", "u", "list"])
        .output()
        .unwrap();
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(crate::support::ctx::contents(&listed), ["I like cats"], "{listed}");
    drop(lock);
}

/// Defect 11: the home is owner-only; a broken compiled-component cache is noticed; a
/// home that is a file says so once; an oversized HTTP answer is refused unread.
#[test]
fn modes_cache_integrity_and_clean_errors() {
    if crate::support::ctx::files_only("tests the files backend itself: its journal, locks, modes and index file") {
        return;
    }
    let ctx = Ctx::new();
    ctx.add("u", "I like tea");
    ctx.ok(&["--user", "u", "people", "add", "Sarah"]);
    for path in ["memory", "data"] {
        let mode = std::fs::metadata(ctx.home().join(path)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{path}");
    }
    for path in [
        "memory/memories.jsonl",
        "people.jsonl",
        "memory/.journal",
        "data/memory.db",
        ".lock",
    ] {
        let mode = std::fs::metadata(ctx.home().join(path)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{path}");
    }

    let cache = tempfile::tempdir().unwrap();
    let cached = ctx.copy().env("ASH_CACHE_DIR", cache.path().to_str().unwrap());
    cached.ok(&["--user", "u", "list"]);
    let artifact = std::fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "cwasm"))
        .expect("a cached artifact");
    let mut bytes = std::fs::read(&artifact).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&artifact, bytes).unwrap();
    let out = cached.run(&["--user", "u", "list"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not match its check"));
    // Compiled again and cached whole: the next call trusts it, then a cut one is refused.
    let out = cached.run(&["--user", "u", "list"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("does not match"));
    let bytes = std::fs::read(&artifact).unwrap();
    std::fs::write(&artifact, &bytes[..bytes.len() - 4096]).unwrap();
    let out = cached.run(&["--user", "u", "list"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not match its check"));

    let file = ctx.home().join("config.toml");
    std::fs::write(&file, "").unwrap();
    let out = Ctx::new().env("ASH_HOME", file.to_str().unwrap()).run(&["list"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(
        stderr.matches("is a file, not a folder").count(),
        1,
        "said once: {stderr}"
    );

    let server = Server::start(|_| Reply::Bytes(200, vec![b' '; 40 << 20]));
    let big = Ctx::new();
    big.config(&format!(
        "[embedder]\nprovider = \"openai\"\nbase_url = \"{}\"\nmodel = \"big\"\ndimensions = 4\ntimeout_secs = 10\n",
        server.base_url()
    ));
    let out = big.run(&["--json", "--user", "u", "add", "I like tea"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("larger than"));
}

/// `doctor` reports in words and JSON, and `--fix` mends what is safe.
#[test]
fn doctor_finds_and_fixes() {
    if crate::support::ctx::files_only("tests the files backend itself: its journal, locks, modes and index file") {
        return;
    }
    let ctx = Ctx::new();
    ctx.add("u", "I like tea");
    ctx.add("u", "My sister lives in Berlin");
    let report = ctx.json(&["doctor"]);
    assert_eq!(report["ok"], true, "{report}");

    // Divergence, a leftover temporary file, a loose mode, a dangling subject.
    let mut lines = ctx.memory_lines();
    lines[0]["subject_person_ids"] = serde_json::json!(["no-such-person"]);
    let mut text = std::fs::read_to_string(ctx.memories_path()).unwrap();
    text.push_str(&format!("{}\n", lines[0]));
    std::fs::write(ctx.memories_path(), text).unwrap();
    std::fs::write(ctx.home().join("memory/.memories.jsonl.tmp-999999"), "junk").unwrap();
    std::fs::set_permissions(ctx.memories_path(), std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = ctx.run(&["--json", "doctor"]);
    assert!(!out.status.success(), "problems make doctor fail");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let failed: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["ok"] == false)
        .map(|f| f["check"].as_str().unwrap())
        .collect();
    for check in ["index", "people", "temporary files", "file modes"] {
        assert!(failed.contains(&check), "{check} not reported: {report}");
    }
    let fixed = ctx.json(&["doctor", "--fix"]);
    assert_eq!(fixed["ok"], true, "{fixed}");
    let again = ctx.json(&["doctor"]);
    assert_eq!(again["ok"], true, "{again}");
    let human = ctx.ok(&["doctor"]);
    assert!(human.contains("index") && human.contains("ok"), "{human}");
}
