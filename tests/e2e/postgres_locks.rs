//! Writes of different scopes on Postgres: a write waits only for the writes of its own
//! scopes (the caller's user and chat) until it appends, and a write of the whole
//! namespace waits for every write. Another host in the middle of a write is played by
//! a connection of the test that takes the locks such a host holds (`docs/scale-out.md`
//! names them).

use ash_memory_test_support::postgres::{self, PgServer};

use crate::support::ctx::Ctx;

fn pg() -> Option<&'static PgServer> {
    postgres::server()
}

/// The CLI with a short lock timeout: a call that would wait fails as busy instead.
fn run(ctx: &Ctx, args: &[&str]) -> std::process::Output {
    ctx.command()
        .args(args)
        .env("ASH_LOCK_TIMEOUT_SECS", "0.5")
        .output()
        .unwrap()
}

fn succeeds(ctx: &Ctx, args: &[&str]) {
    let out = run(ctx, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn is_busy(ctx: &Ctx, args: &[&str]) {
    let out = run(ctx, args);
    assert!(!out.status.success(), "{args:?} went ahead");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("busy"), "{args:?}: {err}");
}

/// How many memories a namespace's log holds lines of.
fn lines(pg: &PgServer, ns: &str) -> usize {
    pg.psql(&format!("SELECT count(*) FROM ash_{ns}.lines WHERE collection = 0"))
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn a_write_waits_only_for_writes_of_its_own_scopes_and_a_whole_write_for_all() {
    let Some(pg) = pg() else { return };
    let ns = pg.namespace("scopes");
    let ctx = Ctx::on_postgres(pg, &ns);
    ctx.add("alice", "I keep bees on the roof");
    ctx.add("bob", "I live in Lisbon");

    // Another host in the middle of a write for alice in the chat "garden", before it
    // appends: the namespace's lock shared, and the two scopes' locks.
    let mut other = ::postgres::Client::connect(&pg.url(), ::postgres::NoTls).unwrap();
    let mut write = other.transaction().unwrap();
    write
        .batch_execute(&format!(
            "SELECT pg_advisory_xact_lock_shared(hashtextextended('ash_{ns}', 0));
             SELECT pg_advisory_xact_lock(hashtextextended('ash_{ns}:u:alice', 2));
             SELECT pg_advisory_xact_lock(hashtextextended('ash_{ns}:c:garden', 2));"
        ))
        .unwrap();

    // Other users' writes go ahead, in other chats too, and supersession works as ever.
    succeeds(&ctx, &["--user", "bob", "add", "I live in Porto"]);
    succeeds(
        &ctx,
        &[
            "--user",
            "carol",
            "--chat",
            "choir",
            "add",
            "Rehearsal is on Tuesdays",
            "--shared",
        ],
    );
    succeeds(
        &ctx,
        &[
            "--user",
            "dan",
            "turn",
            "--session",
            "s",
            "My dog is called Biscuit",
            "Noted.",
        ],
    );
    let bob = ctx.json(&["--user", "bob", "list"]);
    let bob: Vec<&str> = bob
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(bob, ["I live in Porto"], "Lisbon was replaced");
    // Reads of the busy scopes go ahead too.
    let bees = ctx.json(&["--user", "alice", "search", "bees"]);
    assert!(bees.to_string().contains("I keep bees on the roof"), "{bees}");

    // A write of alice's, or of anyone in the garden chat, waits; so does a write of the
    // whole namespace.
    is_busy(&ctx, &["--user", "alice", "add", "I keep wasps too"]);
    is_busy(
        &ctx,
        &[
            "--user",
            "erin",
            "--chat",
            "garden",
            "add",
            "Tomatoes need staking",
            "--shared",
        ],
    );
    is_busy(&ctx, &["gc"]);

    // Once the other host appends (it takes the log's tail lock until it commits), every
    // write's append waits for that commit.
    write
        .batch_execute(&format!(
            "SELECT pg_advisory_xact_lock(hashtextextended('ash_{ns}', 3));"
        ))
        .unwrap();
    is_busy(&ctx, &["--user", "bob", "add", "I teach on Saturdays"]);
    let held = lines(pg, &ns);
    write.rollback().unwrap();

    succeeds(&ctx, &["--user", "alice", "add", "I keep wasps too"]);
    succeeds(&ctx, &["--user", "bob", "add", "I teach on Saturdays"]);
    assert_eq!(lines(pg, &ns), held + 2, "the calls that were busy wrote nothing");
    succeeds(&ctx, &["gc"]);
    let doctor = ctx.json(&["doctor"]);
    assert_eq!(doctor["ok"], true, "{doctor}");
}
