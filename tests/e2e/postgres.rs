//! The Postgres backend (`[storage] backend = "postgres"`) against a real Postgres 18 with
//! pgvector 0.8, started by the test support crate from a registry package: the
//! conformance suite, conversations, servers on several homes sharing one memory, a
//! server killed in the middle of writes, a failed call rolled back in a long-lived
//! server, moving between backends, and bad settings refused.
//!
//! Without a Postgres (no registry to fetch it from) these tests say so and pass, unless
//! `ASH_TEST_REQUIRE_PG=1` (CI) makes that a failure.

use std::collections::BTreeSet;
use std::io::{BufRead as _, BufReader, Write as _};
use std::os::unix::net::UnixStream;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ash_memory_test_support::postgres::{self, PgServer};
use serde_json::{Value, json};

use crate::portability::{as_alice, export};
use crate::support::ctx::Ctx;
use crate::support::server::{Server, contents};

fn pg() -> Option<&'static PgServer> {
    postgres::server()
}

/// How many rows a collection (0 memories, 1 people, 2 archive, 3 sessions, 4 messages)
/// has in a namespace.
fn rows(pg: &PgServer, namespace: &str, collection: u8) -> usize {
    pg.psql(&format!(
        "SELECT count(*) FROM ash_{namespace}.lines WHERE collection = {collection}"
    ))
    .trim()
    .parse()
    .expect("a count")
}

#[test]
fn the_conformance_suite_passes_on_postgres() {
    let Some(pg) = pg() else { return };
    let prefix = pg.namespace("conf");
    let ctx = Ctx::new().env("ASH_PG_URL", &pg.url());
    let files: Vec<String> = crate::conformance::scenarios()
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut args = vec!["conformance", "--postgres", &prefix];
    args.extend(files.iter().map(String::as_str));
    let out = ctx.ok(&args);
    assert!(out.contains(&format!("{} passed, 0 failed", files.len())), "{out}");
    // The memories are in Postgres, not in the home.
    let scoping = format!("{prefix}_scoping");
    assert!(rows(pg, &scoping, 0) >= 3);
    let bob: String = pg.psql(&format!(
        "SELECT line FROM ash_{scoping}.lines WHERE collection = 0 AND line LIKE '%vegetarian%'"
    ));
    assert!(bob.contains("\"owner_user_id\":\"bob\""), "{bob}");
}

#[test]
fn a_home_on_postgres_keeps_nothing_of_its_memory_on_disk() {
    let Some(pg) = pg() else { return };
    let ns = pg.namespace("disk");
    let ctx = Ctx::on_postgres(pg, &ns);
    ctx.add("alice", "I live in Lisbon");
    let porto = ctx.json(&["--user", "alice", "add", "I live in Porto"]);
    assert_eq!(porto["superseded"].as_array().map(Vec::len), Some(1), "{porto}");
    assert_eq!(ctx.search("alice", "Where do I live?")[0], "I live in Porto");
    assert!(
        ctx.search("bob", "Where do I live?").is_empty(),
        "bob sees nothing of alice's"
    );
    // A conversation: the turn, its redaction, its facts and the context.
    ctx.ok(&[
        "--user",
        "alice",
        "turn",
        "--session",
        "s1",
        "I work as a nurse at the county hospital. My password is hunter2",
        "Noted.",
    ]);
    let extraction = ctx.json(&["--user", "alice", "extract", "--session", "s1"]);
    assert!(
        !extraction["stored"].as_array().expect("a list").is_empty(),
        "{extraction}"
    );
    let job = ctx.search("alice", "nurse");
    assert!(job.iter().any(|c| c.contains("nurse")), "{job:?}");
    let context = ctx.json(&[
        "--user",
        "alice",
        "context",
        "--session",
        "s2",
        "What do I do for work?",
    ]);
    assert!(context.to_string().contains("nurse"), "{context}");
    let doctor = ctx.json(&["doctor"]);
    assert_eq!(doctor["ok"], true, "{doctor}");

    // Nothing of it is in the home folder, and the secret is nowhere in Postgres.
    assert!(!ctx.memories_path().exists() && !ctx.index_path().exists());
    assert!(!ctx.home().join("memory/messages.jsonl").exists());
    assert_eq!(rows(pg, &ns, 3), 2, "the session, then its line marked read by extract");
    assert_eq!(rows(pg, &ns, 4), 2, "two messages");
    let leaked = pg.psql(&format!(
        "SELECT (SELECT count(*) FROM ash_{ns}.lines WHERE line LIKE '%hunter2%')
              + (SELECT count(*) FROM ash_{ns}.entries WHERE content LIKE '%hunter2%')"
    ));
    assert_eq!(leaked.trim(), "0");
}

/// Adds a memory through a server for `user`, returning its id.
fn add(client: &mut crate::support::server::Client, user: &str, content: &str) -> String {
    let added = client.ok("memory.add", json!({"user_id": user, "content": content}));
    added["memories"][0]["id"].as_str().expect("an id").to_owned()
}

/// Every id `user` has, superseded ones included, as one server sees them.
fn ids(client: &mut crate::support::server::Client, user: &str) -> BTreeSet<String> {
    let listed = client.ok(
        "memory.list",
        json!({"user_id": user, "limit": 10000, "include_superseded": true}),
    );
    listed["memories"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|m| m["id"].as_str().expect("an id").to_owned())
        .collect()
}

/// What one writer said about a place it visited: distinct enough that nothing
/// supersedes anything else.
fn note(writer: usize, n: usize) -> String {
    const PLACES: [&str; 5] = ["harbour", "library", "market", "stadium", "orchard"];
    format!(
        "Visit {n} of writer {writer}: the {} had {} boats, {} books and {} apples",
        PLACES[n % PLACES.len()],
        n * 7 + writer,
        n * 13 + writer,
        n * 17 + writer
    )
}

#[test]
fn servers_on_two_homes_share_one_memory_and_lose_no_concurrent_write() {
    let Some(pg) = pg() else { return };
    let ns = pg.namespace("two");
    let (a, b) = (Ctx::on_postgres(pg, &ns), Ctx::on_postgres(pg, &ns));
    let (sa, sb) = (Server::start(&a, &[]), Server::start(&b, &[]));

    // What one server acknowledged, the other's next answer has.
    let lisbon = add(&mut sa.client(), "alice", "I live in Lisbon");
    let hits = sb.client().ok(
        "memory.search",
        json!({"user_id": "alice", "query": "Where do I live?"}),
    );
    assert_eq!(contents(&hits["hits"]), ["I live in Lisbon"]);
    let porto = sb
        .client()
        .ok("memory.add", json!({"user_id": "alice", "content": "I live in Porto"}));
    assert_eq!(porto["superseded"][0]["memory"]["id"], lisbon.as_str(), "{porto}");
    let old = sa
        .client()
        .ok("memory.get", json!({"user_id": "alice", "memory_id": lisbon}));
    assert_eq!(old["superseded_by_id"], porto["memories"][0]["id"], "{old}");

    // Eight writers, four on each server, all at once.
    let acknowledged: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
    std::thread::scope(|scope| {
        for writer in 0..8 {
            let server = if writer % 2 == 0 { &sa } else { &sb };
            let acknowledged = Arc::clone(&acknowledged);
            scope.spawn(move || {
                let mut client = server.client();
                let user = format!("writer{}", writer % 4);
                for n in 0..15 {
                    let id = add(&mut client, &user, &note(writer, n));
                    acknowledged.lock().unwrap().push((user.clone(), id));
                }
            });
        }
    });
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert_eq!(acknowledged.len(), 120);
    for user in (0..4).map(|w| format!("writer{w}")) {
        let want: BTreeSet<String> = acknowledged
            .iter()
            .filter(|(u, _)| *u == user)
            .map(|(_, id)| id.clone())
            .collect();
        assert_eq!(want.len(), 30);
        assert_eq!(ids(&mut sa.client(), &user), want, "{user} through the first server");
        assert_eq!(ids(&mut sb.client(), &user), want, "{user} through the second server");
    }
    // The index followed every write, whichever server made it.
    let doctor = b.json(&["doctor"]);
    assert_eq!(doctor["ok"], true, "{doctor}");
    let entries = pg.psql(&format!("SELECT count(*) FROM ash_{ns}.entries WHERE kind = 0"));
    assert_eq!(
        entries.trim(),
        "121",
        "every live memory indexed once (Lisbon left it when replaced)"
    );
}

#[test]
fn a_server_killed_in_the_middle_of_writes_loses_nothing_it_acknowledged() {
    let Some(pg) = pg() else { return };
    let ns = pg.namespace("kill");
    let (a, b) = (Ctx::on_postgres(pg, &ns), Ctx::on_postgres(pg, &ns));
    let victim = Server::start(&a, &[]);
    let survivor = Server::start(&b, &[]);
    let acknowledged: Arc<Mutex<Vec<String>>> = Arc::default();
    std::thread::scope(|scope| {
        for writer in 0..4 {
            let acknowledged = Arc::clone(&acknowledged);
            let socket = victim.socket.clone();
            scope.spawn(move || {
                // A raw connection: when the server dies, its answers simply stop.
                let stream = UnixStream::connect(&socket).expect("connect");
                let mut reader = BufReader::new(stream.try_clone().expect("a second handle"));
                let mut out = stream;
                for n in 0.. {
                    let request = json!({"jsonrpc": "2.0", "id": n, "method": "memory.add",
                        "params": {"user_id": "alice", "content": note(writer, n)}});
                    if writeln!(out, "{request}").is_err() {
                        break;
                    }
                    let mut line = String::new();
                    if !matches!(reader.read_line(&mut line), Ok(1..)) {
                        break;
                    }
                    let answer: Value = serde_json::from_str(&line).expect("a JSON answer");
                    let id = answer["result"]["memories"][0]["id"].as_str().expect("an id");
                    acknowledged.lock().unwrap().push(id.to_owned());
                }
            });
        }
        // Let the writers get going, then kill the server in the middle of their writes.
        while acknowledged.lock().unwrap().len() < 20 {
            std::thread::sleep(Duration::from_millis(5));
        }
        victim.send_signal("KILL");
    });
    let acknowledged: BTreeSet<String> = acknowledged.lock().unwrap().iter().cloned().collect();
    assert!(acknowledged.len() >= 20);
    let mut client = survivor.client();
    let seen = ids(&mut client, "alice");
    let lost: Vec<&String> = acknowledged.difference(&seen).collect();
    assert!(lost.is_empty(), "acknowledged but lost: {lost:?}");
    // At most the one call in flight when it died is missing from the acknowledged set,
    // and the lock died with the connection: the survivor writes at once.
    assert!(seen.len() <= acknowledged.len() + 4, "{} seen", seen.len());
    add(&mut client, "alice", "I keep bees on the roof");
    let doctor = b.json(&["doctor"]);
    assert_eq!(doctor["ok"], true, "{doctor}");
}

#[test]
fn a_failed_call_in_a_long_lived_server_leaves_nothing_behind() {
    let Some(pg) = pg() else { return };
    let ns = pg.namespace("fail");
    // The first commit of a write fails: the call read its own line before it did.
    let a = Ctx::on_postgres(pg, &ns)
        .env("ASH_FAULT", "pg:commit")
        .env("ASH_FAULT_MODE", "error");
    let server = Server::start(&a, &[]);
    let mut client = server.client();
    let failed = client.call("memory.add", json!({"user_id": "alice", "content": "I live in Lisbon"}));
    assert!(failed.get("error").is_some(), "{failed}");
    assert_eq!(rows(pg, &ns, 0), 0, "the line was rolled back");
    // Another host writes past where the rolled-back line ended. The server, which read
    // its own line before the rollback, must not take that line for real, nor resume
    // reading in the middle of the new one.
    let b = Ctx::on_postgres(pg, &ns);
    let bees = b.add(
        "alice",
        "I keep bees on the roof and sell their honey at the market on Saturdays",
    );
    assert_eq!(ids(&mut client, "alice"), BTreeSet::from([bees.clone()]));
    let porto = add(&mut client, "alice", "I live in Porto");
    assert_eq!(ids(&mut client, "alice"), BTreeSet::from([bees, porto]));
    assert_eq!(b.search("alice", "Where do I live?")[0], "I live in Porto");
}

#[test]
fn an_export_moves_from_files_to_postgres_and_back_without_loss() {
    let Some(pg) = pg() else { return };
    let files_home = crate::portability::home();
    let dir = tempfile::tempdir().unwrap();
    let (file, lines) = export(&files_home, &dir, "from-files.jsonl");

    let on_pg = Ctx::on_postgres(pg, &pg.namespace("move"));
    let report = on_pg.json(&as_alice(&["import", file.to_str().unwrap()]));
    assert_eq!(
        (&report["memories"], &report["archived"], &report["people"]),
        (&json!(5), &json!(1), &json!(1))
    );
    let (back, from_pg) = export(&on_pg, &dir, "from-postgres.jsonl");
    assert_eq!(from_pg[1..], lines[1..], "the same records, field by field");
    // It answers as the files home did.
    let hits = on_pg.json(&as_alice(&["search", "Where do I live?"]));
    assert_eq!(hits["hits"][0]["content"], "I live in Porto");
    let porto = hits["hits"][0]["id"].as_str().unwrap();
    assert_eq!(
        on_pg.json(&as_alice(&["history", porto]))[0]["content"],
        "I live in Lisbon"
    );

    // And back to files.
    let again = Ctx::new();
    again.json(&as_alice(&["import", back.to_str().unwrap()]));
    let (_, round_trip) = export(&again, &dir, "round-trip.jsonl");
    assert_eq!(round_trip[1..], lines[1..]);
}

#[test]
fn bad_storage_settings_are_refused_and_the_url_is_never_shown() {
    let ctx = Ctx::on_files();
    let refused = |config: &str, env: &[(&str, &str)], expect: &str| {
        ctx.config(config);
        let mut cmd = ctx.command();
        cmd.env_remove("ASH_PG_URL")
            .args(["--user", "alice", "add", "I live in Lisbon"]);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!out.status.success() && stderr.contains(expect), "{config}: {stderr}");
        assert!(!stderr.contains("s3cret"), "the password leaked: {stderr}");
        assert!(!ctx.memories_path().exists(), "nothing written: {config}");
    };
    refused("[storage]\nbackend = \"mongo\"\n", &[], "backend \"mongo\"");
    refused(
        "[storage]\nbackend = \"postgres\"\nnamespace = \"a-b; drop\"\n",
        &[],
        "namespace",
    );
    refused("[storage]\nbackend = \"postgres\"\n", &[], "ASH_PG_URL");
    refused(
        "[storage]\nnamespace = \"x\"\n",
        &[],
        "apply to backend = \"postgres\" only",
    );
    // Nobody listens on port 1: the error says so without the URL or its password.
    refused(
        "[storage]\nbackend = \"postgres\"\nurl_env = \"MY_DB\"\n",
        &[("MY_DB", "postgres://app:s3cret@127.0.0.1:1/db")],
        "cannot connect to Postgres",
    );
}

#[test]
fn conversations_on_postgres_reach_a_later_session_through_another_server() {
    let Some(pg) = pg() else { return };
    let ns = pg.namespace("talk");
    let (a, b) = (Ctx::on_postgres(pg, &ns), Ctx::on_postgres(pg, &ns));
    let (sa, sb) = (Server::start(&a, &[]), Server::start(&b, &[]));
    sa.client().ok(
        "conversations.turn",
        json!({"user_id": "alice", "session": "monday", "user_message": "My sister Ana is visiting from Madrid next week", "assistant_message": "How nice!"}),
    );
    let context = sb.client().ok(
        "memory.context",
        json!({"user_id": "alice", "session": "tuesday", "message": "Who is visiting me?"}),
    );
    let text: Value = context;
    assert!(text.to_string().contains("Madrid"), "{text}");
    let other = sb.client().ok(
        "memory.context",
        json!({"user_id": "bob", "session": "tuesday", "message": "Who is visiting me?"}),
    );
    assert!(
        !other.to_string().contains("Madrid"),
        "bob sees none of alice's talk: {other}"
    );
}

#[test]
fn a_bad_row_written_into_postgres_by_hand_is_quarantined_not_lost() {
    let Some(pg) = pg() else { return };
    let ns = pg.namespace("junk");
    let ctx = Ctx::on_postgres(pg, &ns);
    ctx.add("alice", "I live in Lisbon");
    // A line that is not a record, placed where a file would have it (8 bytes with its newline).
    pg.psql(&format!(
        "INSERT INTO ash_{ns}.lines (collection, pos, line)
         SELECT 0, max(pos) + 8, 'garbage' FROM ash_{ns}.lines WHERE collection = 0"
    ));
    assert_eq!(ctx.search("alice", "Where do I live?"), ["I live in Lisbon"]);
    let stats = ctx.json(&["stats"]);
    assert_eq!(stats["quarantined"], 1, "{stats}");
    let kept = pg.psql(&format!("SELECT line FROM ash_{ns}.quarantine"));
    assert_eq!(kept.trim(), "garbage");
    assert_eq!(rows(pg, &ns, 0), 1, "the collection was rewritten without it");
}

#[test]
fn reads_do_not_wait_for_another_hosts_write_and_writes_do() {
    let Some(pg) = pg() else { return };
    let ns = pg.namespace("reads");
    let ctx = Ctx::on_postgres(pg, &ns);
    ctx.add("alice", "I keep bees on the roof");
    // Another host in the middle of a write: it holds the namespace's lock.
    let mut other = ::postgres::Client::connect(&pg.url(), ::postgres::NoTls).unwrap();
    let mut write = other.transaction().unwrap();
    write
        .batch_execute(&format!(
            "SELECT pg_advisory_xact_lock(hashtextextended('ash_{ns}', 0))"
        ))
        .unwrap();
    let run = |args: &[&str]| {
        ctx.command()
            .args(args)
            .env("ASH_LOCK_TIMEOUT_SECS", "0.5")
            .output()
            .unwrap()
    };
    for args in [
        &["--json", "--user", "alice", "search", "bees"][..],
        &["--json", "--user", "alice", "list"],
        &["--json", "--user", "alice", "context", "Tell me about my bees"],
    ] {
        let out = run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("I keep bees on the roof"),
            "{args:?}"
        );
    }
    let out = run(&["--user", "alice", "add", "I keep wasps too"]);
    assert!(!out.status.success(), "a write waits for the other host's");
    assert!(String::from_utf8_lossy(&out.stderr).contains("busy"));
    write.rollback().unwrap();
    ctx.add("alice", "I keep wasps too");
    assert_eq!(rows(pg, &ns, 0), 2);
}
