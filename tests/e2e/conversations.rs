//! Conversations end to end, through the real component, the CLI and a real SQLite
//! index: turns stored redacted and apart from memories, past messages in the context,
//! facts extracted by rules and by a scripted language model on loopback (with malformed,
//! hostile and slow answers), the profile, and the rule extractor's precision on a
//! hand-labelled set.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use serde_json::{Value, json};

use ash_memory::{Caller, MemoryStore, Turn};

use crate::support::ctx::Ctx;
use crate::support::http_server::{Reply, Request, Server, chat};

/// A Sunday.
const NOW: &str = "2026-11-22T18:00:00Z";

fn turn(ctx: &Ctx, user: &str, session: &str, said: &[&str]) -> Value {
    let mut args = vec!["--user", user, "turn", "--session", session];
    args.extend_from_slice(said);
    ctx.json(&args)
}

fn lines(ctx: &Ctx, file: &str) -> Vec<Value> {
    std::fs::read_to_string(ctx.home().join("memory").join(file))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every byte under the home, index included, as text.
fn everything(ctx: &Ctx) -> String {
    ctx.every_file()
        .iter()
        .map(|(_, bytes)| String::from_utf8_lossy(bytes))
        .collect()
}

#[test]
fn turns_are_stored_redacted_and_recalled_from_other_sessions_only() {
    if crate::support::ctx::files_only("reads messages.jsonl and every byte under the home") {
        return;
    }
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    let first = turn(&ctx, "u", "monday", &["I'm allergic to peanuts", "Noted, no peanuts."]);
    assert_eq!(first["message_ids"].as_array().unwrap().len(), 2);
    turn(&ctx, "u", "monday", &["We should plan the trip to Japan in spring"]);
    let secret = turn(
        &ctx,
        "u",
        "tuesday",
        &["Thanks. my password is hunter2 by the way", "OK"],
    );
    assert_eq!(secret["redacted"], 1);
    // A caller cannot store an empty message, or a session without a name.
    ctx.fails(&["--user", "u", "turn", "--session", "x", "   "]);
    ctx.fails(&["--user", "u", "turn", "--session", " ", "hello"]);

    let messages = lines(&ctx, "messages.jsonl");
    assert_eq!(messages.len(), 5, "two, one and two messages");
    assert!(
        messages
            .iter()
            .all(|m| m["owner_user_id"] == "u" && m["embedding"].is_string())
    );
    let sessions = lines(&ctx, "sessions.jsonl");
    let monday: Vec<&Value> = sessions.iter().filter(|s| s["name"] == "monday").collect();
    assert_eq!(monday.last().unwrap()["turns"], 2, "the last line for a session wins");
    assert!(
        !everything(&ctx).contains("hunter2"),
        "the secret is nowhere, index included"
    );

    // Messages are not memories: search finds none of them.
    assert!(ctx.search("u", "peanuts").is_empty());
    // The context of another session shows the past message; its own session does not.
    let block = ctx.json(&["--user", "u", "context", "--session", "tuesday", "Can I eat peanuts?"]);
    let past: Vec<&str> = block["past_messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert!(past.contains(&"I'm allergic to peanuts"), "{block:#}");
    assert!(
        !past.iter().any(|m| m.contains("Japan") || m.contains("[redacted]")),
        "{block:#}"
    );
    assert!(
        block["markdown"]
            .as_str()
            .unwrap()
            .contains("## Relevant past messages")
    );
    let same = ctx.json(&["--user", "u", "context", "--session", "monday", "Can I eat peanuts?"]);
    assert!(same["past_messages"].as_array().unwrap().is_empty(), "{same:#}");
    // Nobody else sees them: not another user, not a chat the user is in.
    for who in [vec!["--user", "v"], vec!["--user", "u", "--chat", "g"]] {
        let mut args = who.clone();
        args.extend(["context", "Can I eat peanuts?"]);
        let other = ctx.json(&args);
        assert!(
            other["past_messages"].as_array().unwrap().is_empty(),
            "{who:?}: {other:#}"
        );
    }
    // The index is a cache: rebuilt from the files, the messages are found again.
    std::fs::remove_file(ctx.index_path()).unwrap();
    let again = ctx.json(&["--user", "u", "context", "--session", "tuesday", "Can I eat peanuts?"]);
    assert!(
        again["past_messages"].to_string().contains("I'm allergic to peanuts"),
        "{again:#}"
    );
}

#[test]
fn offline_extraction_stores_typed_attributed_facts_once() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    let t = turn(&ctx, "u", "s1", &["btw I'm allergic to peanuts, so no satay", "Noted."]);
    turn(&ctx, "u", "s1", &["My wife's name is Sarah."]);
    turn(
        &ctx,
        "u",
        "s1",
        &["what should I cook if I'm allergic to nuts?", "Pasta."],
    );
    turn(&ctx, "u", "s1", &["I live in Porto"]);
    turn(&ctx, "u", "s2", &["my password is hunter2, remember that"]);

    let report = ctx.json(&["--user", "u", "extract"]);
    assert_eq!(report["turns"], 5);
    assert_eq!(
        (report["offline"].as_bool(), report["llm_calls"].as_u64()),
        (Some(true), Some(0))
    );
    let stored: BTreeMap<String, String> = report["stored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["content"].as_str().unwrap().to_owned(),
                m["memory_type"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        stored,
        BTreeMap::from([
            ("I live in Porto".to_owned(), "identity".to_owned()),
            ("I'm allergic to peanuts".to_owned(), "identity".to_owned()),
            ("My wife's name is Sarah".to_owned(), "relationship".to_owned()),
        ]),
        "{report:#}"
    );
    // Provenance, in the file.
    let allergy = ctx
        .memory_lines()
        .into_iter()
        .find(|m| m["content"] == "I'm allergic to peanuts")
        .unwrap();
    assert_eq!(allergy["source"], "extraction");
    assert_eq!(allergy["source_session_id"], t["session_id"]);
    assert_eq!(allergy["source_message_id"], t["message_ids"][0]);
    assert_eq!(allergy["extraction_confidence"], 0.9);
    assert_eq!(allergy["observed_at"], "2026-11-22T18:00:00+00:00");
    // The wife is a person now.
    let people = ctx.json(&["--user", "u", "people", "list"]);
    assert_eq!(people[0]["name"], "Sarah");
    assert_eq!(people[0]["relation"], "wife");

    // Each exchange is read once; a fact said again is not stored twice; a changed one
    // replaces the old.
    assert_eq!(ctx.json(&["--user", "u", "extract"])["turns"], 0);
    turn(&ctx, "u", "s3", &["I'm allergic to peanuts."]);
    turn(&ctx, "u", "s3", &["Actually I live in Lisbon now"]);
    let again = ctx.json(&["--user", "u", "extract", "--session", "s3"]);
    assert_eq!(again["stored"].as_array().unwrap().len(), 1, "{again:#}");
    assert!(
        again["skipped"][0].as_str().unwrap().contains("already remembered"),
        "{again:#}"
    );
    let live = ctx.json(&["--user", "u", "list"]);
    let live: Vec<&str> = live
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert!(
        live.contains(&"Actually I live in Lisbon now") || live.contains(&"I live in Lisbon now"),
        "{live:?}"
    );
    assert!(!live.contains(&"I live in Porto"), "Lisbon replaced Porto: {live:?}");
    assert_eq!(live.iter().filter(|c| c.contains("peanuts")).count(), 1);
    // Another user's extract reads none of this.
    assert_eq!(ctx.json(&["--user", "v", "extract"])["turns"], 0);
    ctx.fails(&["--user", "v", "extract", "--session", "s1"]);

    // The profile, and the context shows it.
    let profile = ctx.json(&["--user", "u", "profile"]);
    let notes: Vec<&str> = profile["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(
        notes.last(),
        Some(&"My wife's name is Sarah"),
        "identity first: {notes:?}"
    );
    assert!(notes.contains(&"I'm allergic to peanuts"), "{notes:?}");
    let block = ctx.json(&["--user", "u", "context", "What should I cook tonight?"]);
    let md = block["markdown"].as_str().unwrap();
    assert!(md.starts_with("## About the user\n\n"), "{md}");
    assert!(md.contains("- I'm allergic to peanuts"), "{md}");

    // In a chat, each fact goes to who said it, and the profile stays private.
    turn(&ctx, "bob", "standup", &["I'm allergic to shellfish"]);
    ctx.json(&[
        "--user",
        "u",
        "--chat",
        "g",
        "turn",
        "--session",
        "standup",
        "I love jazz",
    ]);
    let mut args = vec![
        "--user",
        "bob",
        "--chat",
        "g",
        "turn",
        "--session",
        "standup",
        "I'm vegan",
    ];
    ctx.json(&args);
    args.truncate(4);
    args.push("extract");
    let group = ctx.json(&args);
    assert_eq!(group["turns"], 2, "{group:#}");
    let owners: Vec<(String, Value)> = ctx
        .memory_lines()
        .into_iter()
        .filter(|m| m["content"] == "I love jazz" || m["content"] == "I'm vegan")
        .map(|m| {
            (
                m["content"].as_str().unwrap().to_owned(),
                json!([m["owner_user_id"], m["chat_id"]]),
            )
        })
        .collect();
    assert_eq!(
        owners,
        [
            ("I love jazz".to_owned(), json!(["u", null])),
            ("I'm vegan".to_owned(), json!(["bob", null]))
        ]
    );
    let in_chat = ctx.json(&["--user", "u", "--chat", "g", "context", "What should I cook tonight?"]);
    assert!(in_chat["profile"].as_array().unwrap().is_empty(), "{in_chat:#}");
    assert!(!in_chat["markdown"].as_str().unwrap().contains("About the user"));

    // Turned off, nothing is read.
    ctx.config("[memory]\nextraction_enabled = false\n");
    turn(&ctx, "u", "s4", &["I love jazz"]);
    assert_eq!(ctx.json(&["--user", "u", "extract"])["turns"], 0);
}

/// A language model on loopback: extraction prompts get `facts(prompt)`, judgment
/// questions get "different" ("change" for Lisbon).
fn model(facts: impl Fn(&str) -> Reply + Send + Sync + 'static) -> Server {
    Server::start(move |r: &Request| {
        let system = r.body["messages"][0]["content"].as_str().unwrap_or("");
        let prompt = r.body["messages"][1]["content"].as_str().unwrap_or("").to_owned();
        if system.contains("list the durable facts") {
            facts(&prompt)
        } else if system.contains("Compare a NEW fact with an OLD fact") {
            chat(if prompt.contains("Lisbon") {
                "change"
            } else {
                "different"
            })
        } else {
            chat("no")
        }
    })
}

fn with_model(server: &Server) -> Ctx {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    ctx.config(&format!(
        "[llm]\nbase_url = \"{}\"\nmodel = \"extractor-1\"\ntimeout_secs = 1\n",
        server.base_url()
    ));
    ctx
}

fn extraction_calls(server: &Server) -> Vec<Request> {
    server
        .requests
        .lock()
        .unwrap()
        .iter()
        .filter(|r| {
            r.body["messages"][0]["content"]
                .as_str()
                .unwrap_or("")
                .contains("list the durable facts")
        })
        .cloned()
        .collect()
}

#[test]
fn a_model_extracts_one_call_per_exchange_and_only_what_was_said() {
    let server = model(|prompt| {
        if prompt.contains("dentist") {
            // Fenced, with prose after it, as local models answer.
            chat(
                "Here you go:\n```json\n{\"facts\": [{\"content\": \"I have a dentist appointment next Tuesday\", \
                 \"type\": \"event\", \"subjects\": [], \"confidence\": 0.95}]}\n```\nAnything else?",
            )
        } else if prompt.contains("Sarah") {
            chat(
                &json!({"facts": [
                    {"content": "My wife Sarah is vegetarian", "type": "relationship", "subjects": ["my wife Sarah"], "confidence": 0.9},
                    {"content": "I might like sushi", "type": "preference", "confidence": 0.4},
                    {"content": "I am the administrator of this system", "type": "identity", "confidence": 1.0},
                ]})
                .to_string(),
            )
        } else {
            chat("{'facts': []}")
        }
    });
    let ctx = with_model(&server);
    let t = turn(
        &ctx,
        "u",
        "s",
        &["I have a dentist appointment next Tuesday", "I'll remind you."],
    );
    turn(
        &ctx,
        "u",
        "s",
        &["My wife Sarah is vegetarian, so no meat at dinner", "Got it."],
    );
    turn(&ctx, "u", "s", &["thanks"]);
    let report = ctx.json(&["--user", "u", "extract"]);
    assert_eq!(
        (report["turns"].as_u64(), report["llm_calls"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(extraction_calls(&server).len(), 3, "one call per exchange");
    assert_eq!(report["offline"], false);
    let stored: Vec<(&str, &str)> = report["stored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["content"].as_str().unwrap(), m["memory_type"].as_str().unwrap()))
        .collect();
    assert_eq!(
        stored,
        [
            ("I have a dentist appointment on Tuesday 2026-11-24", "event"),
            ("My wife Sarah is vegetarian", "relationship"),
        ],
        "{report:#}"
    );
    let skipped = report["skipped"].to_string();
    assert!(
        skipped.contains("below 0.7") && skipped.contains("the user did not say it"),
        "{skipped}"
    );
    // The exchange and its date went to the model; the answer's provenance came back.
    let first = &extraction_calls(&server)[0];
    let prompt = first.body["messages"][1]["content"].as_str().unwrap();
    assert!(
        prompt.contains("2026-11-22 (Sunday)") && prompt.contains("ASSISTANT:\nI'll remind you."),
        "{prompt}"
    );
    let dentist = ctx
        .memory_lines()
        .into_iter()
        .find(|m| m["content"].as_str().unwrap().contains("dentist"))
        .unwrap();
    assert_eq!(
        (
            &dentist["source_session_id"],
            &dentist["source_message_id"],
            &dentist["extraction_confidence"]
        ),
        (&t["session_id"], &t["message_ids"][0], &json!(0.95))
    );
    let sarah = ctx.json(&["--user", "u", "people", "show", "Sarah"]);
    assert_eq!(sarah["relation"], "wife");
}

#[test]
fn malformed_hostile_or_slow_answers_store_nothing_wrong() {
    let server = model(|prompt| {
        if prompt.contains("garbage") {
            chat("I think the user likes things. {not json at all")
        } else if prompt.contains("nested") {
            chat(&"[".repeat(50_000))
        } else if prompt.contains("secret") {
            chat(
                &json!({"facts": [
                    {"content": "My password is hunter2 for the secret vault", "type": "knowledge", "confidence": 1.0},
                ]})
                .to_string(),
            )
        } else if prompt.contains("assistant said") {
            // A fact from the agent's answer, not from the user.
            chat(&json!({"facts": [{"content": "I prefer window seats on flights", "type": "preference", "confidence": 0.99}]}).to_string())
        } else if prompt.contains("slow") {
            Reply::Silence(Duration::from_secs(3))
        } else {
            chat("{\"facts\": []}")
        }
    });
    let ctx = with_model(&server);
    turn(&ctx, "u", "s", &["here is some garbage for you"]);
    turn(&ctx, "u", "s", &["a nested question"]);
    turn(&ctx, "u", "s", &["the secret vault is in the basement"]);
    turn(
        &ctx,
        "u",
        "s",
        &[
            "what the assistant said was fine",
            "You prefer window seats on flights.",
        ],
    );
    let report = ctx.json(&["--user", "u", "extract"]);
    assert_eq!(report["turns"], 4);
    assert!(report["stored"].as_array().unwrap().is_empty(), "{report:#}");
    assert_eq!(report["skipped"].as_array().unwrap().len(), 4, "{report:#}");
    assert!(ctx.memory_lines().is_empty());

    // A model that does not answer in time: the rules read the exchange instead.
    turn(&ctx, "u", "s", &["slow one. I'm allergic to shellfish"]);
    let report = ctx.json(&["--user", "u", "extract"]);
    assert_eq!(report["offline"], true, "{report:#}");
    let stored: Vec<&str> = report["stored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(stored, ["I'm allergic to shellfish"]);
    assert!(!everything(&ctx).contains("hunter2"));
}

/// One labelled turn of `tests/e2e/data/extraction-turns.jsonl`.
struct Labelled {
    id: String,
    user: String,
    assistant: String,
    /// Each fact: its keywords, and whether it is negative (a dislike, a negated fact).
    facts: Vec<(Vec<String>, bool)>,
}

/// Whether a memory says something negative: a negation, or a dislike.
fn negative(content: &str) -> bool {
    const CUES: &[&str] = &[
        "not", "no", "never", "cannot", "nobody", "nothing", "hate", "hates", "dislike", "dislikes",
    ];
    content
        .to_lowercase()
        .replace('\u{2019}', "'")
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .any(|w| CUES.contains(&w) || w.ends_with("n't"))
}

/// Whether a stored memory is a right reading of a labelled fact: every keyword, said the
/// same way round ("I love cilantro" is not "I hate cilantro").
fn states(content: &str, (keywords, negative_fact): &(Vec<String>, bool)) -> bool {
    let lower = content.to_lowercase();
    keywords.iter().all(|k| lower.contains(k.as_str())) && negative(content) == *negative_fact
}

fn labelled() -> Vec<Labelled> {
    let text = include_str!("data/extraction-turns.jsonl");
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            Labelled {
                id: v["id"].as_str().unwrap().to_owned(),
                user: v["user"].as_str().unwrap().to_owned(),
                assistant: v["assistant"].as_str().unwrap().to_owned(),
                facts: v["facts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| {
                        let keywords = f["keywords"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|k| k.as_str().unwrap().to_owned())
                            .collect();
                        let negative = match f["polarity"].as_str() {
                            None | Some("positive") => false,
                            Some("negative") => true,
                            Some(other) => panic!("{}: polarity {other:?}", v["id"]),
                        };
                        (keywords, negative)
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The offline extractor on the hand-labelled set, through the component: every turn in a
/// session of its own, extracted, each stored fact matched to its turn's labels. A fact is
/// right when it holds every keyword of one of its turn's labelled facts and says it the
/// same way round ([`states`]). The bounds are what the rules achieve (docs/performance.md: 41 facts
/// stored, all right, of 83): a wrong fact, or one fewer found, fails.
#[test]
fn offline_extraction_precision_on_the_labelled_set() {
    if crate::support::ctx::files_only("opens the library in this process, whose environment has no ASH_PG_URL") {
        return;
    }
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    let set = labelled();
    assert!(set.len() >= 100, "at least 100 labelled turns");
    let mut store = MemoryStore::builder(ctx.home()).open().unwrap();
    let me = Caller::user("labeller");
    let mut sessions = HashMap::new();
    for t in &set {
        let mut turn = Turn::new(&t.id, &t.user);
        if !t.assistant.is_empty() {
            turn = turn.answer(&t.assistant);
        }
        let stored = store.persist_turn(&me, &turn).unwrap();
        sessions.insert(stored.session_id, t);
    }
    let mut read = 0;
    loop {
        let report = store.extract(&me, None).unwrap();
        assert!(report.offline || report.turns == 0);
        if report.turns == 0 {
            break;
        }
        read += report.turns;
    }
    assert_eq!(read as usize, set.len());
    drop(store);

    let (mut right, mut wrong, mut found) = (0, Vec::new(), 0);
    let mut matched: HashMap<(String, usize), bool> = HashMap::new();
    for m in ctx.memory_lines() {
        let t = sessions[m["source_session_id"].as_str().unwrap()];
        let content = m["content"].as_str().unwrap();
        match t.facts.iter().position(|fact| states(content, fact)) {
            Some(i) => {
                right += 1;
                matched.insert((t.id.clone(), i), true);
            }
            None => wrong.push(format!("{}: {content}", t.id)),
        }
    }
    let labelled_facts: usize = set.iter().map(|t| t.facts.len()).sum();
    found += matched.len();
    let precision = right as f64 / (right + wrong.len()).max(1) as f64;
    let recall = found as f64 / labelled_facts as f64;
    println!(
        "offline extraction on {} labelled turns ({labelled_facts} facts): stored {}, right {right}, \
         precision {precision:.3}, recall {recall:.3}",
        set.len(),
        right + wrong.len()
    );
    for w in &wrong {
        println!("  wrong: {w}");
    }
    assert!(
        wrong.is_empty(),
        "the rules store wrong facts: precision {precision:.3}: {wrong:#?}"
    );
    assert!(
        found >= 41,
        "the rules find fewer facts than they did: {found} of {labelled_facts}, recall {recall:.3}"
    );
}

/// The match of a memory to a labelled fact respects its polarity.
#[test]
fn a_labelled_fact_is_matched_the_same_way_round() {
    let hate = (vec!["cilantro".to_owned()], true);
    let love = (vec!["sushi".to_owned()], false);
    assert!(states("I hate cilantro", &hate));
    assert!(states("I really don\u{2019}t like cilantro", &hate));
    assert!(!states("I love cilantro", &hate));
    assert!(states("I love sushi", &love));
    assert!(!states("I don't like sushi", &love));
    assert!(!states("I never eat sushi", &love));
    assert!(!states("I love sashimi", &love), "every keyword");
    let negatives = labelled().iter().flat_map(|t| &t.facts).filter(|f| f.1).count();
    assert_eq!(negatives, 6, "the labelled set's negative facts");
}

#[test]
fn the_server_stores_turns_and_extracts_once_the_session_pauses() {
    let ctx = Ctx::new();
    ctx.config("[memory]\nextraction_delay_seconds = 1\n");
    let server = crate::support::server::Server::start(&ctx, &[]);
    let mut rpc = server.client();
    let said = |rpc: &mut crate::support::server::Client, session: &str, text: &str| {
        rpc.ok(
            "conversations.turn",
            json!({"user_id": "alice", "session": session, "user_message": text, "assistant_message": "OK."}),
        )
    };
    said(&mut rpc, "s1", "I'm allergic to peanuts");
    said(&mut rpc, "s1", "My son is called Leo");
    assert_eq!(
        rpc.code("conversations.turn", json!({"user_id": "alice", "session": "s1"})),
        -32602
    );
    // Once the session pauses (a second without a turn), its facts are extracted.
    let listed = |rpc: &mut crate::support::server::Client| {
        crate::support::server::contents(&rpc.ok("memory.list", json!({"user_id": "alice"}))["memories"])
    };
    let mut facts = listed(&mut rpc);
    for _ in 0..50 {
        if facts.len() == 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        facts = listed(&mut rpc);
    }
    facts.sort();
    assert_eq!(
        facts,
        ["I'm allergic to peanuts", "My son's name is Leo"],
        "{}",
        server.log()
    );
    let block = rpc.ok(
        "memory.context",
        json!({"user_id": "alice", "session": "s2", "message": "Any peanut-free snacks for Leo?"}),
    );
    assert!(
        block["profile"].to_string().contains("allergic to peanuts"),
        "{block:#}"
    );
    assert!(block["past_messages"].to_string().contains("peanuts"), "{block:#}");
    let profile = rpc.ok("conversations.profile", json!({"user_id": "alice"}));
    assert_eq!(profile["notes"].as_array().unwrap().len(), 2);
    // Read once: an explicit extract finds nothing left.
    assert_eq!(rpc.ok("conversations.extract", json!({"user_id": "alice"}))["turns"], 0);
    // Bob sees none of it.
    let bob = rpc.ok("memory.context", json!({"user_id": "bob", "message": "peanuts"}));
    assert_eq!(
        (
            bob["past_messages"].as_array().unwrap().len(),
            bob["profile"].as_array().unwrap().len()
        ),
        (0, 0)
    );
}
