//! Writes of different scopes on Postgres: a write waits only for the writes of its own
//! scopes (the caller's user and chat) until it appends, and a write of the whole
//! namespace waits for every write; a server's writes for different callers run side by
//! side (`--writers`). Another host in the middle of a write is played by
//! a connection of the test that takes the locks such a host holds (`docs/scale-out.md`
//! names them).

use std::sync::mpsc;
use std::time::{Duration, Instant};

use ash_memory_test_support::postgres::{self, PgServer};
use serde_json::{Value, json};

use crate::support::ctx::Ctx;
use crate::support::server::Server;

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
    for args in [
        &["--user", "bob", "people", "add", "Sarah"][..],
        &["--user", "bob", "people", "add", "Sally"],
    ] {
        succeeds(&ctx, args);
    }

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
    // Calls that write beyond their caller's scopes lock the whole namespace too: in a
    // chat, extraction stores each fact as its author's; a person's memories may be in any
    // of the user's chats.
    is_busy(&ctx, &["--user", "bob", "extract"]);
    is_busy(&ctx, &["--user", "bob", "people", "merge", "Sarah", "Sally"]);
    is_busy(&ctx, &["--user", "bob", "people", "forget", "Sally"]);

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
    succeeds(&ctx, &["--user", "bob", "people", "merge", "Sarah", "Sally"]);
    succeeds(&ctx, &["gc"]);
    let doctor = ctx.json(&["doctor"]);
    assert_eq!(doctor["ok"], true, "{doctor}");
}

#[test]
fn a_server_on_postgres_writes_for_other_users_while_one_users_write_waits() {
    let Some(pg) = pg() else { return };
    let ns = pg.namespace("lanes");
    let ctx = Ctx::on_postgres(pg, &ns);
    ctx.add("alice", "I keep bees on the roof");
    let server = Server::start(&ctx, &["--writers", "4"]);

    // Another host in the middle of a write for alice.
    let mut other = ::postgres::Client::connect(&pg.url(), ::postgres::NoTls).unwrap();
    let mut write = other.transaction().unwrap();
    write
        .batch_execute(&format!(
            "SELECT pg_advisory_xact_lock_shared(hashtextextended('ash_{ns}', 0));
             SELECT pg_advisory_xact_lock(hashtextextended('ash_{ns}:u:alice', 2));"
        ))
        .unwrap();

    let (done, answers) = mpsc::channel::<(String, Value)>();
    std::thread::scope(|scope| {
        for user in std::iter::once("alice".to_owned()).chain((0..8).map(|n| format!("user{n}"))) {
            let (done, server) = (done.clone(), &server);
            scope.spawn(move || {
                let added = server.client().call(
                    "memory.add",
                    json!({"user_id": user, "content": format!("{user} waters the plants on Fridays")}),
                );
                let _ = done.send((user, added));
            });
        }
        // While alice's write waits for the other host, the users whose writes are in
        // other lanes than hers are answered; those in hers wait behind her.
        let mut answered = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(20);
        while let Ok((user, added)) = answers.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            assert!(added.get("result").is_some(), "{user}: {added}");
            answered.push(user);
            if answered.len() >= 2 {
                break;
            }
        }
        assert!(!answered.contains(&"alice".to_owned()), "alice's write went ahead");
        assert!(
            !answered.is_empty(),
            "no other user's write was answered while alice's waited: {}",
            server.log()
        );
        write.rollback().unwrap();
    });
    drop(done);
    let rest: Vec<(String, Value)> = answers.iter().collect();
    for (user, added) in &rest {
        assert!(added.get("result").is_some(), "{user}: {added}");
    }
    let mut client = server.client();
    for user in std::iter::once("alice".to_owned()).chain((0..8).map(|n| format!("user{n}"))) {
        let listed = client.ok("memory.list", json!({"user_id": user}));
        assert!(
            listed
                .to_string()
                .contains(&format!("{user} waters the plants on Fridays")),
            "{user}: {listed}"
        );
    }
}

#[test]
fn two_servers_moving_one_user_at_once_leave_one_home_live() {
    let Some(pg) = pg() else { return };
    let ns = pg.namespace("moves");
    let (a, b) = (Ctx::on_postgres(pg, &ns), Ctx::on_postgres(pg, &ns));
    let (sa, sb) = (Server::start(&a, &[]), Server::start(&b, &[]));
    const CITIES: [&str; 16] = [
        "Lisbon",
        "Porto",
        "Madrid",
        "Paris",
        "Berlin",
        "Rome",
        "Vienna",
        "Prague",
        "Oslo",
        "Dublin",
        "Athens",
        "Warsaw",
        "Budapest",
        "Helsinki",
        "Copenhagen",
        "Brussels",
    ];
    // One user moving through both servers at once, and another user writing beside.
    std::thread::scope(|scope| {
        for (n, server) in [&sa, &sb].into_iter().enumerate() {
            scope.spawn(move || {
                let mut client = server.client();
                for city in CITIES.iter().skip(n).step_by(2) {
                    let added = client.ok(
                        "memory.add",
                        json!({"user_id": "mover", "content": format!("I live in {city}")}),
                    );
                    assert_eq!(added["memories"].as_array().map(Vec::len), Some(1), "{added}");
                    client.ok(
                        "memory.add",
                        json!({"user_id": format!("neighbour{n}"), "content": format!("I visited {city} once")}),
                    );
                }
            });
        }
    });
    let mut client = sa.client();
    let live = client.ok("memory.list", json!({"user_id": "mover"}));
    let live: Vec<&str> = live["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(live.len(), 1, "one home is live, the last written: {live:?}");
    let all = client.ok(
        "memory.list",
        json!({"user_id": "mover", "include_superseded": true, "limit": 100}),
    );
    let all = all["memories"].as_array().unwrap();
    assert_eq!(all.len(), CITIES.len(), "every move is kept in the history");
    let superseded = all.iter().filter(|m| !m["superseded_by_id"].is_null()).count();
    assert_eq!(superseded, CITIES.len() - 1, "each move replaced the one before it");
    for n in 0..2 {
        let theirs = client.ok(
            "memory.list",
            json!({"user_id": format!("neighbour{n}"), "include_superseded": true, "limit": 100}),
        );
        assert_eq!(
            theirs["memories"].as_array().map(Vec::len),
            Some(CITIES.len() / 2),
            "{theirs}"
        );
    }
}
