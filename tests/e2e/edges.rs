//! Inputs at the edges, through the CLI and the server: every limit has one meaning, every
//! input a bound, and every refusal says what is wrong and what to do.

use serde_json::json;

use crate::support::ctx::Ctx;
use crate::support::server::Server;

#[test]
fn a_limit_of_zero_is_refused_by_search_list_and_the_server_alike() {
    let ctx = Ctx::new();
    ctx.add("u", "I prefer dark mode");
    for args in [
        &["--user", "u", "search", "dark mode", "--limit", "0"][..],
        &["--user", "u", "list", "--limit", "0"],
    ] {
        let err = ctx.fails(args);
        assert!(err.contains("the limit is 0; give 1 or more"), "{args:?}: {err}");
    }
    // No limit still means each command's own: search's default, and every memory.
    assert_eq!(ctx.search("u", "dark mode"), ["I prefer dark mode"]);
    assert_eq!(ctx.json(&["--user", "u", "list"]).as_array().unwrap().len(), 1);
    assert_eq!(
        ctx.json(&["--user", "u", "list", "--limit", "1"])
            .as_array()
            .unwrap()
            .len(),
        1
    );

    let server = Server::start(&ctx, &[]);
    let mut rpc = server.client();
    for (method, params) in [
        (
            "memory.search",
            json!({"user_id": "u", "query": "dark mode", "limit": 0}),
        ),
        ("memory.list", json!({"user_id": "u", "limit": 0})),
    ] {
        let answer = rpc.call(method, params);
        assert_eq!(answer["error"]["data"]["kind"], "invalid_input", "{method}: {answer}");
    }
}

#[test]
fn a_nul_in_content_is_refused_on_every_path() {
    let ctx = Ctx::new();
    let err = ctx.fails(&[
        "--user",
        "u",
        "tools",
        "call",
        "remember",
        r#"{"content": "I like\u0000 tea"}"#,
    ]);
    assert!(err.contains("NUL character"), "{err}");
    let file = ctx.home().join("facts.txt");
    std::fs::write(&file, "I like tea\nI like\0 coffee\n").unwrap();
    let err = ctx.fails(&["--user", "u", "import", file.to_str().unwrap()]);
    assert!(err.contains("NUL character"), "{err}");

    let server = Server::start(&ctx, &[]);
    let mut rpc = server.client();
    for params in [
        json!({"content": "I like\u{0} tea"}),
        json!({"content": "I like tea", "context": "said\u{0} at lunch"}),
        json!({"content": "I like tea", "source": "rpc\u{0}"}),
    ] {
        let answer = rpc.call("memory.add", params.clone());
        assert_eq!(answer["error"]["data"]["kind"], "invalid_input", "{params}: {answer}");
        assert!(
            answer["error"]["message"].as_str().unwrap().contains("NUL character"),
            "{answer}"
        );
    }
    assert!(
        ctx.memory_lines().iter().all(|m| !m.to_string().contains("\\u0000")),
        "a NUL reached the memories"
    );
}

#[test]
fn a_person_name_has_a_bound() {
    let ctx = Ctx::new();
    let long = "Zanzibarina ".repeat(420);
    let long = long.trim();
    for args in [
        &["--user", "u", "people", "add", long][..],
        &["--user", "u", "people", "add", "Sarah", "--alias", long],
        &["--user", "u", "add", "She likes tulips", "--subject", long],
    ] {
        let err = ctx.fails(args);
        assert!(
            err.contains("characters is too long") && err.contains("at most 200"),
            "{err}"
        );
    }
    assert!(
        ctx.json(&["--user", "u", "people", "list"])
            .as_array()
            .unwrap()
            .is_empty()
    );
    let name = "Maria ".repeat(33);
    ctx.ok(&["--user", "u", "people", "add", name.trim()]);
}

#[test]
fn a_huge_hand_written_record_is_quarantined_not_loaded() {
    if crate::support::ctx::files_only("it writes memories.jsonl by hand") {
        return;
    }
    let ctx = Ctx::new();
    ctx.add("u", "I prefer dark mode");
    let mut huge = ctx.memory_lines()[0].clone();
    huge["id"] = json!("0badcafe-0000-4000-8000-000000000000");
    huge["content"] = json!("x".repeat(50 << 20));
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(ctx.memories_path())
        .unwrap();
    std::io::Write::write_all(&mut file, format!("{huge}\n").as_bytes()).unwrap();
    drop(file);

    let out = ctx.run(&["--json", "--user", "u", "list"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.len() < 10_000, "the huge record was printed");
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(crate::support::ctx::contents(&listed), ["I prefer dark mode"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("quarantined a line of 5243") && stderr.contains("at most 1 MiB"),
        "{stderr}"
    );
    // Set aside once, with its reason; the collection no longer holds it.
    let quarantine = std::fs::read_to_string(ctx.home().join("memory/memories.quarantine.jsonl")).unwrap();
    assert!(quarantine.contains("a record line over 1 MiB"));
    assert_eq!(ctx.memory_lines().len(), 1);
    let again = ctx.run(&["--user", "u", "list"]);
    assert!(!String::from_utf8_lossy(&again.stderr).contains("quarantined"));
}

#[test]
fn tool_arguments_the_schema_does_not_name_are_refused() {
    let ctx = Ctx::new();
    for (tool, arguments, says) in [
        (
            "remember",
            r#"{"content": "I like tea", "user_id": "bob"}"#,
            "comes from the connection",
        ),
        (
            "remember",
            r#"{"content": "I like tea", "source": "chat"}"#,
            "unknown argument source",
        ),
        (
            "remember",
            r#"{"facts": [{"content": "I like tea", "context": "at lunch"}]}"#,
            "unknown argument facts[0].context",
        ),
        ("recall", r#"{"query": "tea", "limit": 3}"#, "unknown argument limit"),
        (
            "correct",
            r#"{"id": "x", "content": "y", "chat_id": "c"}"#,
            "comes from the connection",
        ),
    ] {
        let err = ctx.fails(&["--user", "u", "tools", "call", tool, arguments]);
        assert!(err.contains(says), "{tool} {arguments}: {err}");
    }
    assert!(ctx.memory_lines().is_empty());
    // What the schemas name is still taken.
    ctx.ok(&[
        "--user",
        "u",
        "tools",
        "call",
        "remember",
        r#"{"content": "I like tea", "subjects": ["my wife"], "expires_in_days": 30, "shared": false}"#,
    ]);
}

#[test]
fn id_mistakes_say_what_is_wrong() {
    let ctx = Ctx::new();
    let id = ctx.add("u", "I prefer dark mode");
    let err = ctx.fails(&["--user", "u", "delete", ""]);
    assert!(err.contains("no memory id given"), "{err}");
    let err = ctx.fails(&["--user", "u", "show", &id[..7]]);
    assert!(err.contains("too short") && err.contains("8 or more"), "{err}");
    // Eight characters are enough; an exact id of any length is always found.
    assert_eq!(ctx.json(&["--user", "u", "show", &id[..8]])["id"], id.as_str());
    let err = ctx.fails(&["--user", "u", "history", "        "]);
    assert!(err.contains("no memory id given"), "{err}");
}

#[test]
fn a_time_out_of_range_names_the_format() {
    let ctx = Ctx::new();
    let err = ctx.fails(&["--user", "u", "add", "I moved", "--observed-at", "10000-01-01"]);
    assert!(
        err.contains("RFC 3339") && err.contains("10000-01-01") && !err.contains("invalid characters"),
        "{err}"
    );
}

#[test]
fn a_file_given_as_the_home_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-folder");
    std::fs::write(&file, "").unwrap();
    let ctx = Ctx::new().env("ASH_HOME", file.to_str().unwrap());
    for args in [&["list"][..], &["--user", "u", "token", "issue"]] {
        let err = ctx.fails(args);
        assert!(
            err.contains("is a file, not a folder") && !err.contains("os error"),
            "{err}"
        );
    }
}

#[test]
fn token_issue_prints_the_token_alone_on_stdout() {
    let ctx = Ctx::new();
    let out = ctx.run(&["--user", "alice", "token", "issue"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("ash_") && stdout.lines().count() == 1, "{stdout:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("shown only once"));
}

#[test]
fn settings_no_call_could_work_with_name_the_setting_to_change() {
    let ctx = Ctx::new();
    for (config, says) in [
        ("[sandbox]\nfuel_per_call = 0\n", "[sandbox] fuel_per_call is 0"),
        ("[sandbox]\nfuel_per_call = 1000\n", "raise [sandbox] fuel_per_call"),
        ("[sandbox]\nmemory_limit_mib = 1\n", "raise [sandbox] memory_limit_mib"),
        (
            "[embedder]\nprovider = \"openai\"\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\ndimensions = 0\n",
            "[embedder] dimensions is 0",
        ),
        (
            "[embedder]\nprovider = \"openai\"\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\ndimensions = 9000\n",
            "vectors of at most 8192",
        ),
    ] {
        ctx.config(config);
        let err = ctx.fails(&["--user", "u", "add", "I like tea"]);
        assert!(err.contains(says), "{config}: {err}");
        assert!(
            !err.contains("trap") && !err.contains("index error: index error") && !err.contains("vec0"),
            "{config}: {err}"
        );
    }
    assert!(ctx.memory_lines().is_empty(), "nothing was stored half-way");
}

/// A long fact of many short clauses naming a booking the home holds ("moved bins, it's
/// ..." after "Bin day is Tuesday") is judged against it within the sandbox's budget: the
/// booking rule once read such a fact in cubic time and the add failed, its fuel used up.
#[test]
fn a_long_fact_beside_a_booking_is_judged_within_budget() {
    let ctx = Ctx::new();
    ctx.add("u", "Bin day is Tuesday");
    let long = "moved bins, it's ".repeat(950);
    assert!(long.len() < 16 * 1024);
    let added = ctx.json(&["--user", "u", "add", &long]);
    assert!(
        added["content"].as_str() == Some(long.trim_end()),
        "the long fact was not stored as told"
    );
}
