//! The command-line contract: flags, environment, output formats, errors.

use crate::support::ctx::Ctx;

#[test]
fn every_command_speaks_json() {
    let ctx = Ctx::new();
    let added = ctx.json(&["--user", "u", "add", "I prefer dark mode", "--source", "test"]);
    let id = added["id"].as_str().unwrap();
    assert_eq!(added["source"], "test");
    assert!(ctx.json(&["--user", "u", "search", "dark mode"])["hits"].is_array());
    assert!(ctx.json(&["--user", "u", "list"]).is_array());
    assert_eq!(ctx.json(&["--user", "u", "show", id])["content"], "I prefer dark mode");
    assert_eq!(ctx.json(&["rebuild-index"])["indexed"], 1);
    assert_eq!(ctx.json(&["--user", "u", "delete", id])["deleted"], id);
}

#[test]
fn environment_variables_stand_in_for_flags() {
    let ctx = Ctx::new()
        .env("ASH_USER_ID", "env-user")
        .env("ASH_CHAT_ID", "env-chat")
        .env("ASH_NOW", "2026-01-02T03:04:05Z");
    let m = ctx.json(&["add", "Standup moved to 10am", "--shared"]);
    assert_eq!(m["chat_id"], "env-chat");
    assert_eq!(m["created_at"], "2026-01-02T03:04:05+00:00");
    let m = ctx.json(&["add", "I prefer tea"]);
    assert_eq!(m["owner_user_id"], "env-user");
}

#[test]
fn human_output_is_aligned_and_errors_are_clean() {
    let ctx = Ctx::new();
    ctx.ok(&["--user", "u", "add", "I prefer dark mode"]);
    ctx.ok(&["--user", "u", "add", "My sister lives in Berlin"]);
    let list = ctx.ok(&["--user", "u", "list"]);
    let lines: Vec<&str> = list.lines().collect();
    assert!(lines[0].starts_with("ID") && lines[0].contains("TYPE") && lines[0].contains("CONTENT"));
    let col = lines[0].find("CONTENT").unwrap();
    // Every row's content starts in the CONTENT column.
    for line in &lines[1..] {
        let chars: Vec<char> = line.chars().collect();
        assert!(chars[col - 1] == ' ' && chars[col] != ' ', "misaligned: {list}");
    }
    let search = ctx.ok(&["--user", "u", "search", "where does my sister live"]);
    assert!(search.contains("My sister lives in Berlin"), "{search}");

    let err = ctx.fails(&["--user", "u", "show", "no-such-id"]);
    assert!(err.contains("no-such-id"), "{err}");
    let err = ctx.fails(&["--now", "yesterday", "list"]);
    assert!(err.contains("RFC 3339"), "{err}");
    let err = ctx.fails(&["--user", "u", "add", "   "]);
    assert!(err.contains("empty"), "{err}");
    std::fs::write(ctx.home().join("config.toml"), "[memory\nbroken").unwrap();
    let err = ctx.fails(&["list"]);
    assert!(err.contains("config.toml"), "{err}");
}
