//! No acknowledged write is lost, and a failed one leaves nothing behind.

use super::ids;
use crate::support::ctx::Ctx;

/// Defect 3: an append after a last line without its newline does not glue onto it.
#[test]
fn an_add_after_an_unterminated_line_keeps_both() {
    if crate::support::ctx::files_only("tests the files backend itself: its journal, locks, modes and index file") {
        return;
    }
    let ctx = Ctx::new();
    let first = ctx.add("u", "I live in Lisbon");
    let path = ctx.memories_path();
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.trim_end_matches('\n')).unwrap();
    let second = ctx.add("u", "I have two cats");
    let listed = ids(&ctx.json(&["--user", "u", "list"]));
    assert!(listed.contains(&first) && listed.contains(&second), "{listed:?}");
    assert!(
        !ctx.home().join("memory/memories.quarantine.jsonl").exists(),
        "nothing was quarantined"
    );
}

/// Defect 7: an add that fails after writing its new person leaves no orphan; a closed
/// stdout is a clean error after the work, not a panic.
#[test]
fn a_failed_add_leaves_the_collections_as_they_were() {
    if crate::support::ctx::files_only("tests the files backend itself: its journal, locks, modes and index file") {
        return;
    }
    let ctx = Ctx::new();
    ctx.add("u", "I like tea");
    let before = ctx.snapshot();
    let out = ctx
        .command()
        .env("ASH_FAULT", "append:memories:before")
        .env("ASH_FAULT_MODE", "error")
        .args(["--user", "u", "add", "Likes tulips", "--subject", "my aunt Rosa"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("injected fault"), "{stderr}");
    assert_eq!(ctx.snapshot(), before, "the person written first was rolled back");
    assert!(
        ctx.json(&["--user", "u", "people", "list"])
            .as_array()
            .unwrap()
            .is_empty()
    );

    // A reader that goes away (`| head`): the work is done and kept, no panic, exit 0.
    let mut child = ctx
        .command()
        .args(["--user", "u", "add", "I like coffee too"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !stderr.contains("panicked"), "{stderr}");
    assert!(ctx.search("u", "coffee").contains(&"I like coffee too".to_owned()));

    // A stdout that cannot be written: one clean error after the work, exit 1.
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = ctx
        .command()
        .args(["--user", "u", "add", "I like cocoa"])
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && !stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains("the command completed, but its output could not be written"),
        "{stderr}"
    );
    assert!(ctx.search("u", "cocoa").contains(&"I like cocoa".to_owned()));
}
