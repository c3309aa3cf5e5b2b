//! Reads side by side: `serve` answers searches, context and lists on readers of their
//! own, so that one caller's wait on a remote embedder is not another's; a read sees
//! every write acknowledged before it; a search records that memories were recalled
//! without writing on its way, and the server writes it soon after, once.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::ctx::Ctx;
use crate::support::http_server::{Server as Http, embeddings};
use crate::support::server::{Server, contents};

fn embedder_config(base_url: &str) -> String {
    format!(
        "[embedder]\nprovider = \"openai\"\nbase_url = \"{base_url}\"\nmodel = \"embed-1\"\ndimensions = 16\ntimeout_secs = 30\n"
    )
}

/// An embedder that holds each search's request until `callers` of them are waiting at
/// once (or 10 s pass), and counts the most that ever waited together.
struct Gathering {
    http: Http,
    peak: Arc<AtomicUsize>,
}

fn gathering(callers: usize) -> Gathering {
    let waiting = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let (w, p) = (waiting.clone(), peak.clone());
    let http = Http::start(move |r| {
        // The adds before the server starts embed facts; searches embed one query each.
        let query = r.body["input"].as_array().is_some_and(|a| a.len() == 1)
            && r.body["input"][0].as_str().is_some_and(|t| t.starts_with("what "));
        if query {
            let now = w.fetch_add(1, Ordering::SeqCst) + 1;
            p.fetch_max(now, Ordering::SeqCst);
            let start = Instant::now();
            while w.load(Ordering::SeqCst) < callers && start.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(5));
            }
            // Leave the count up a moment so that the others see it too.
            std::thread::sleep(Duration::from_millis(50));
            w.fetch_sub(1, Ordering::SeqCst);
        }
        embeddings(r, 16)
    });
    Gathering { http, peak }
}

#[test]
fn callers_waiting_on_a_remote_embedder_wait_side_by_side() {
    const CALLERS: usize = 4;
    let embedder = gathering(CALLERS);
    let ctx = Ctx::new();
    ctx.config(&embedder_config(&embedder.http.base_url()));
    for n in 0..CALLERS {
        ctx.add(&format!("user{n}"), &format!("User {n} keeps bees on the roof"));
    }
    let server = Server::start(&ctx, &[]);
    let start = Arc::new(Barrier::new(CALLERS));
    let threads: Vec<_> = (0..CALLERS)
        .map(|n| {
            let (mut rpc, start) = (server.client(), start.clone());
            std::thread::spawn(move || {
                start.wait();
                rpc.ok(
                    "memory.search",
                    json!({"query": "what about bees", "user_id": format!("user{n}")}),
                )
            })
        })
        .collect();
    for (n, thread) in threads.into_iter().enumerate() {
        let hits = thread.join().unwrap();
        assert_eq!(
            contents(&hits["hits"]),
            [format!("User {n} keeps bees on the roof")],
            "each caller sees their own memory only"
        );
    }
    assert_eq!(
        embedder.peak.load(Ordering::SeqCst),
        CALLERS,
        "all {CALLERS} searches waited on the embedder at once; the server log:\n{}",
        server.log()
    );
}

#[test]
fn a_read_sees_every_write_acknowledged_before_it() {
    let ctx = Ctx::new();
    let server = Server::start(&ctx, &["--readers", "3"]);
    let mut writer = server.client();
    let mut readers: Vec<_> = (0..3).map(|_| server.client()).collect();
    let things = [
        "violin",
        "kayak",
        "lantern",
        "teapot",
        "compass",
        "hammock",
        "easel",
        "telescope",
        "accordion",
        "snorkel",
        "typewriter",
        "bonsai",
    ];
    for (n, thing) in things.iter().enumerate() {
        let fact = format!("The {thing} I ordered arrived at the depot");
        writer.ok("memory.add", json!({"content": fact, "user_id": "alice"}));
        let reader = &mut readers[n % 3];
        let listed = reader.ok("memory.list", json!({"user_id": "alice", "limit": 1}));
        assert_eq!(
            contents(&listed["memories"]),
            std::slice::from_ref(&fact),
            "list after add {n}"
        );
        let found = reader.ok(
            "memory.search",
            json!({"query": format!("where is my {thing}"), "user_id": "alice", "limit": 1}),
        );
        assert_eq!(contents(&found["hits"]), [fact], "search after add {n}");
    }
}

/// A home where alice told a fact on 1 March 2026; a search on 3 March recalls it.
fn told_on_the_first() -> Ctx {
    let ctx = Ctx::new();
    ctx.ok(&[
        "--user",
        "alice",
        "--now",
        "2026-03-01T09:00:00Z",
        "add",
        "I keep bees on the roof",
    ]);
    ctx
}

/// The access lines (when a memory was recalled) in the memories collection.
fn accesses(ctx: &Ctx) -> Vec<serde_json::Value> {
    ctx.memory_lines()
        .into_iter()
        .filter(|l| l.get("accessed_at").is_some())
        .collect()
}

#[test]
fn a_search_writes_nothing_on_its_way_and_the_server_records_the_recall_soon_after() {
    let ctx = told_on_the_first();
    // Two days on: recalling the memory is worth recording.
    let before = ctx.snapshot();
    let server = Server::start(&ctx, &["--now", "2026-03-03T09:00:00Z"]);
    let mut rpc = server.client();
    for _ in 0..5 {
        let hits = rpc.ok("memory.search", json!({"query": "bees", "user_id": "alice"}));
        assert_eq!(contents(&hits["hits"]), ["I keep bees on the roof"]);
    }
    let start = Instant::now();
    while accesses(&ctx).is_empty() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        accesses(&ctx).len(),
        1,
        "five searches, one access line, written by the server"
    );
    drop(server);
    let after = ctx.snapshot();
    // The memories collection: a file, or on Postgres its rows.
    let memories = [ctx.memories_path(), std::path::PathBuf::from("postgres:0")];
    for (path, bytes) in &before {
        if !memories.contains(path) {
            assert_eq!(after.get(path), Some(bytes), "{} changed", path.display());
        }
    }
}

#[test]
fn a_cli_search_records_the_recall_before_it_exits() {
    let ctx = told_on_the_first();
    let found = ctx.json(&["--user", "alice", "--now", "2026-03-03T09:00:00Z", "search", "bees"]);
    assert_eq!(found["hits"][0]["content"], "I keep bees on the roof");
    let accesses = accesses(&ctx);
    assert_eq!(accesses.len(), 1, "{accesses:?}");
    assert_eq!(accesses[0]["accessed_at"], "2026-03-03T09:00:00+00:00");
}

#[test]
fn reads_of_other_processes_share_the_home_and_writes_wait_for_them() {
    // The files backend's lock; Postgres reads are `postgres::reads_do_not_wait_...`.
    let ctx = Ctx::on_files();
    ctx.add("alice", "I keep bees on the roof");
    // Another process holds the home's lock shared, as a reader does, for a while.
    let mut holder = std::process::Command::new("flock")
        .args(["--shared", ctx.home().join(".lock").to_str().unwrap(), "sleep", "30"])
        .spawn()
        .expect("flock runs");
    let lock = ctx.home().join(".lock");
    let start = Instant::now();
    // Until the holder is in, an exclusive try succeeds.
    while std::process::Command::new("flock")
        .args(["--nonblock", "--exclusive", lock.to_str().unwrap(), "true"])
        .status()
        .unwrap()
        .success()
    {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "flock never took {}",
            lock.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = ctx
        .command()
        .args(["--user", "alice", "add", "I keep wasps too"])
        .env("ASH_LOCK_TIMEOUT_SECS", "0.3")
        .output()
        .unwrap();
    assert!(!out.status.success(), "a write waits for the reader");
    let busy = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(busy.contains("busy"), "{busy}");
    assert_eq!(ctx.memory_lines().len(), 1, "the refused write left nothing");
    let out = ctx
        .command()
        .args(["--json", "--user", "alice", "search", "bees"])
        .env("ASH_LOCK_TIMEOUT_SECS", "0.3")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "a read beside a reader: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(found["hits"][0]["content"], "I keep bees on the roof");
    holder.kill().unwrap();
    holder.wait().unwrap();
}

#[test]
fn a_library_search_puts_its_recall_off_until_a_flush_or_the_store_closes() {
    use ash_memory::{Caller, Clock, MemoryStore, NewMemory, SearchQuery};
    let dir = tempfile::tempdir().unwrap();
    let open = |at: &str| {
        MemoryStore::builder(dir.path())
            .cache_dir(Some(crate::support::ctx::cache_dir().to_owned()))
            .clock(Clock::fixed(at).unwrap())
            .open()
            .unwrap()
    };
    let me = Caller::user("alice");
    open("2026-03-01T09:00:00Z")
        .add(&me, &NewMemory::text("I keep bees on the roof"))
        .unwrap();
    let file = dir.path().join("memory/memories.jsonl");
    let told = std::fs::read(&file).unwrap();
    let mut store = open("2026-03-03T09:00:00Z");
    for _ in 0..3 {
        let found = store.search(&me, &SearchQuery::new("bees")).unwrap();
        assert_eq!(found.hits[0].memory.content, "I keep bees on the roof");
    }
    assert_eq!(std::fs::read(&file).unwrap(), told, "searches wrote nothing");
    assert!(store.has_deferred());
    assert_eq!(store.flush_deferred().unwrap(), 1);
    assert!(!store.has_deferred());
    let flushed = std::fs::read(&file).unwrap();
    assert!(flushed.len() > told.len());
    // Another recall the same day is already recorded: nothing more, even on close.
    store.search(&me, &SearchQuery::new("bees")).unwrap();
    drop(store);
    assert_eq!(std::fs::read(&file).unwrap(), flushed);
}

/// A local model that stops on one text until the test lets it go.
struct HeldModel {
    held: String,
    entered: std::sync::Mutex<std::sync::mpsc::Sender<()>>,
    release: std::sync::Mutex<std::sync::mpsc::Receiver<()>>,
}

impl ash_memory::Embedder for HeldModel {
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ash_memory::EmbedError> {
        if texts.contains(&self.held) {
            self.entered.lock().unwrap().send(()).unwrap();
            self.release.lock().unwrap().recv().unwrap();
        }
        Ok(texts
            .iter()
            .map(|t| crate::support::fixtures::hash_embedding(t, 16))
            .collect())
    }
    fn model_id(&self) -> &str {
        "held"
    }
    fn dimension(&self) -> u32 {
        16
    }
}

#[test]
fn a_read_embedding_its_query_on_a_local_model_holds_no_lock() {
    use ash_memory::{Caller, MemoryStore, NewMemory, SearchQuery};
    let dir = tempfile::tempdir().unwrap();
    let (entered_tx, entered) = std::sync::mpsc::channel();
    let (release, release_rx) = std::sync::mpsc::channel();
    let model = HeldModel {
        held: "what about bees".into(),
        entered: std::sync::Mutex::new(entered_tx),
        release: std::sync::Mutex::new(release_rx),
    };
    let mut store = MemoryStore::builder(dir.path())
        .cache_dir(Some(crate::support::ctx::cache_dir().to_owned()))
        .embedder(Box::new(model))
        .open()
        .unwrap();
    let me = Caller::user("alice");
    store.add(&me, &NewMemory::text("I keep bees on the roof")).unwrap();
    let search = std::thread::spawn(move || store.search(&me, &SearchQuery::new("what about bees")));
    entered.recv_timeout(Duration::from_secs(60)).unwrap();
    // While the model works, a writer could take the lock.
    let free = std::process::Command::new("flock")
        .args([
            "--nonblock",
            "--exclusive",
            dir.path().join(".lock").to_str().unwrap(),
            "true",
        ])
        .status()
        .unwrap()
        .success();
    release.send(()).unwrap();
    let found = search.join().unwrap().unwrap();
    assert!(free, "the read held the home's lock while its query was embedded");
    assert_eq!(found.hits[0].memory.content, "I keep bees on the roof");
}

#[test]
fn serve_refuses_more_readers_than_it_can_hold_and_starts_nothing() {
    let ctx = Ctx::on_files();
    let err = ctx.fails(&["serve", "--readers", "1000"]);
    assert!(err.contains("--readers") && err.contains("0..=64"), "{err}");
    assert!(!ctx.home().join("run").exists(), "nothing was started");
}

/// A long-lived store that holds every memory asks the index only for the ids of a
/// person's memories and for when each person was last talked about (`holding-ids`,
/// `newest-moments`): its answers are those of a CLI call, which reads the records from
/// the index.
#[test]
fn a_server_holding_every_memory_answers_about_people_as_a_cli_call_does() {
    let ctx = Ctx::new();
    ctx.ok(&["--user", "u", "people", "add", "Ana", "--relation", "sister"]);
    ctx.ok(&["--user", "u", "people", "add", "Marek", "--relation", "colleague"]);
    for (fact, who) in [
        ("Ana loves hiking in the Alps", "Ana"),
        ("Ana is learning to play the cello", "Ana"),
        ("Ana moved to Porto last spring", "Ana"),
        ("Marek reviews the quarterly budget", "Marek"),
        ("Marek prefers tea to coffee", "Marek"),
    ] {
        ctx.ok(&["--user", "u", "add", fact, "--subject", who]);
    }
    ctx.ok(&["--user", "u", "add", "The car needs new tires"]);
    // Another user's Ana, whose memory the index's marks hold too: never in u's answers.
    ctx.ok(&["--user", "v", "people", "add", "Ana", "--relation", "friend"]);
    ctx.ok(&[
        "--user",
        "v",
        "add",
        "Ana loves sailing in the Alps",
        "--subject",
        "Ana",
    ]);
    let server = Server::start(&ctx, &["--readers", "0"]);
    let mut client = server.client();
    // A write makes the store read the whole collection.
    client.ok("memory.add", json!({"user_id": "u", "content": "Bought a new kettle"}));
    let sorted = |mut list: Vec<String>| {
        list.sort();
        list
    };
    for query in ["What does Ana like to do?", "What does Marek drink?"] {
        let served = contents(&client.ok("memory.search", json!({"user_id": "u", "query": query}))["hits"]);
        let told = contents(&ctx.json(&["--user", "u", "search", query])["hits"]);
        let who = query.split_whitespace().nth(2).unwrap();
        assert!(served.iter().any(|c| c.starts_with(who)), "{query}: {served:?}");
        assert!(!served.iter().any(|c| c.contains("sailing")), "{query}: {served:?}");
        assert_eq!(sorted(served), sorted(told), "{query}");
    }
    let served = client.ok("memory.context", json!({"user_id": "u", "message": "How is Ana?"}));
    let told = ctx.json(&["--user", "u", "context", "How is Ana?"]);
    let names = |block: &serde_json::Value| -> Vec<String> {
        block["people"]
            .as_array()
            .expect("people")
            .iter()
            .map(|p| p["name"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    assert_eq!(names(&served), ["Marek", "Ana"], "the most recently active first");
    assert_eq!(names(&served), names(&told));
    assert!(!served["markdown"].to_string().contains("sailing"), "{served}");
    assert_eq!(
        sorted(contents(&served["memories"])),
        sorted(contents(&told["memories"]))
    );
}

#[test]
fn a_server_searching_a_large_scope_held_in_memory_finds_what_a_cli_call_finds() {
    // Over 1,024 memories of one scope: a server's reader holds the scope's vectors (from
    // its third search at the latest) and searches them by their codes first; under 1,280,
    // a CLI call streams every vector. Both are exact, so the hits are the same, in the
    // same order (a scan by codes that kept only three candidates fails here).
    let ctx = Ctx::new();
    let (colours, things) = (
        ["red", "blue", "green", "yellow", "black", "white", "orange", "purple"],
        [
            "kayak",
            "violin",
            "teapot",
            "bicycle",
            "lantern",
            "hammock",
            "telescope",
            "drum",
        ],
    );
    let facts: Vec<String> = (0..1_200)
        .map(|i| {
            format!(
                "Locker {i} keeps a {} {} beside a {} {}",
                colours[i % 8],
                things[(i / 8) % 8],
                colours[(i / 64) % 8],
                things[(i * 5 + 3) % 8]
            )
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lockers.txt");
    std::fs::write(&file, facts.join("\n")).unwrap();
    ctx.ok(&["--user", "u", "import", file.to_str().unwrap()]);
    let held = ctx.json(&["--user", "u", "list", "--limit", "2000"]);
    assert!(
        held.as_array().unwrap().len() > 1_100,
        "{} memories",
        held.as_array().unwrap().len()
    );
    let queries = [
        "a blue violin",
        "which locker has the teapot",
        "an orange hammock and a drum",
    ];
    let told: Vec<Vec<String>> = queries
        .iter()
        .map(|q| contents(&ctx.json(&["--user", "u", "search", q, "--limit", "20"])["hits"]))
        .collect();
    let server = Server::start(&ctx, &["--readers", "1"]);
    let mut rpc = server.client();
    for round in 0..4 {
        for (query, cli) in queries.iter().zip(&told) {
            let served = rpc.ok("memory.search", json!({"query": query, "limit": 20, "user_id": "u"}));
            assert_eq!(&contents(&served["hits"]), cli, "{query:?}, search {}", round + 1);
        }
    }
}
