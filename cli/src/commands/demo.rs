//! `ash-memory demo`: a short tour in a temporary home, through the same library calls
//! the other commands make.

use anyhow::Result;

use ash_memory::{Caller, Error, ListOptions, MemoryStore, NewMemory, SearchQuery};

fn ask(store: &mut MemoryStore, who: &Caller, name: &str, question: &str) -> Result<()> {
    let found = store.search(who, &SearchQuery::new(question).limit(3))?;
    println!("\n{name} asks: {question:?}");
    if found.hits.is_empty() {
        println!("  (nothing)");
    }
    for hit in found.hits {
        let sim = hit.similarity.map_or("-".to_owned(), |s| format!("{s:.2}"));
        println!("  score {:.4}  similarity {sim:>4}  {}", hit.score, hit.memory.content);
    }
    Ok(())
}

pub fn run() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let mut store = MemoryStore::builder(dir.path()).open()?;
    let alice = Caller::user("alice").in_chat("team-chat");
    let bob = Caller::user("bob").in_chat("team-chat");
    let carol = Caller::user("carol").in_chat("another-chat");

    println!("A temporary memory home: {}", dir.path().display());
    println!("\nalice remembers:");
    for fact in [
        "I'm allergic to peanuts",
        "My favorite color is blue",
        "I prefer dark mode",
        "I live in Lisbon",
    ] {
        let m = store.add(&alice, &NewMemory::text(fact))?.memories.remove(0);
        println!("  [{:<10}] {}", m.memory_type.as_str(), m.content);
    }
    let m = store
        .add(&bob, &NewMemory::text("I love spicy Thai food"))?
        .memories
        .remove(0);
    println!("bob remembers:\n  [{:<10}] {}", m.memory_type.as_str(), m.content);
    let shared = NewMemory::text("Our standup is at 9am").shared();
    let m = store.add(&alice, &shared)?.memories.remove(0);
    println!(
        "alice shares with team-chat:\n  [{:<10}] {}",
        m.memory_type.as_str(),
        m.content
    );

    ask(&mut store, &alice, "alice", "What should I avoid eating?")?;
    ask(
        &mut store,
        &bob,
        "bob (same chat, other user)",
        "What should I avoid eating?",
    )?;
    ask(&mut store, &bob, "bob", "When is standup?")?;
    ask(&mut store, &carol, "carol (another chat)", "When is standup?")?;

    println!("\nalice moves:");
    let added = store.add(&alice, &NewMemory::text("I live in Porto"))?;
    for (old, _) in &added.superseded {
        println!("  \"{}\" replaces \"{}\"", added.memories[0].content, old.content);
    }
    ask(&mut store, &alice, "alice", "Where do I live?")?;

    println!("\nalice talks about her wife:");
    store.add(&alice, &NewMemory::text("My wife's name is Sarah"))?;
    let likes = NewMemory::text("She likes Italian food").subject("my wife");
    store.add(&alice, &likes)?;
    let block = store.context(&alice, "What does my wife like?", Some(400))?;
    println!(
        "  context for \"What does my wife like?\" ({} tokens):",
        block.estimated_tokens
    );
    for line in block.markdown.lines() {
        println!("    {line}");
    }

    println!("\nalice tries to store a secret:");
    match store.add(
        &alice,
        &NewMemory::text("my github token is ghp_0123456789abcdefghijABCDEFGHIJ"),
    ) {
        Err(e @ Error::SecretRefused(_)) => println!("  {e}"),
        other => anyhow::bail!("the secret was not refused: {other:?}"),
    }

    std::fs::remove_file(store.home().join("data/memory.db"))?;
    println!("\nThe index file is deleted; the JSONL files are the truth, so it is rebuilt:");
    drop(store);
    let mut store = MemoryStore::builder(dir.path()).open()?;
    ask(&mut store, &alice, "alice", "What should I avoid eating?")?;
    let all = store.list(&alice, &ListOptions::new())?;
    println!(
        "\nalice can see {} memories; memories.jsonl has one line per memory:",
        all.len()
    );
    let first = std::fs::read_to_string(store.home().join("memory/memories.jsonl"))?;
    let line = first.lines().next().unwrap_or_default();
    println!("  {}...", line.chars().take(160).collect::<String>());
    Ok(())
}
