//! `bench --turns N`: conversations at size. A home with the bench's memories and N
//! stored messages (N/2 exchanges over sessions of 20), then the calls an agent makes on
//! every exchange: storing the turn and building the context for the next message (whose
//! past messages come from the other sessions), and extracting facts from new exchanges
//! by rules. The time to fill is printed too.

use std::time::Instant;

use anyhow::Result;
use serde::Serialize;

use ash_memory::{Caller, MemoryStore, Turn};

use super::data::{QUERIES, fact, fill};
use super::policy::BENCH_USER;
use super::timing::{Latency, ms, stats};

/// Exchanges per session in the fill.
const TURNS_PER_SESSION: usize = 20;

/// What was measured.
#[derive(Debug, Serialize)]
struct Figures {
    memories: usize,
    messages: usize,
    fill_memories_ms: f64,
    fill_messages_ms: f64,
    turn_ms: Latency,
    context_ms: Latency,
    context_past_messages: usize,
    context_tokens: u32,
    extract_per_exchange_ms: f64,
    messages_jsonl_bytes_per_message: f64,
}

/// A varied user message: a fact of the bench's, said in the first person now and then.
fn said(i: usize) -> String {
    match i % 4 {
        0 => format!("I love {}", fact(i).split(' ').nth(3).unwrap_or("jazz")),
        _ => format!("Tell me about {}", fact(i)),
    }
}

pub fn run(memories: usize, messages: usize, samples: usize, json_out: bool) -> Result<()> {
    let dir = tempfile::tempdir()?;
    let home = dir.path().join("home");
    let mut store = MemoryStore::builder(&home)
        .cache_dir(Some(dir.path().join("cache")))
        .open()?;
    let me = Caller::user(BENCH_USER);

    let t = Instant::now();
    fill(&mut store, memories)?;
    let fill_memories = t.elapsed();

    let exchanges = messages / 2;
    if !json_out {
        eprintln!("bench: {memories} memories, storing {exchanges} exchanges...");
    }
    let t = Instant::now();
    for i in 0..exchanges {
        let turn = Turn::new(format!("session-{}", i / TURNS_PER_SESSION), said(i)).answer(format!("Noted ({i})."));
        store.persist_turn(&me, &turn)?;
    }
    let fill_messages = t.elapsed();
    // Everything stored so far counts as read: the extraction timed below reads only the
    // exchanges stored while timing.
    while store.extract(&me, None)?.turns > 0 {}

    let mut turns = Vec::with_capacity(samples);
    let mut contexts = Vec::with_capacity(samples);
    let (mut past, mut tokens) = (0, 0);
    for k in 0..samples {
        let session = format!("timed-{}", k / TURNS_PER_SESSION);
        let turn = Turn::new(&session, said(exchanges + k)).answer("Noted.");
        let t = Instant::now();
        store.persist_turn(&me, &turn)?;
        turns.push(t.elapsed());
        let t = Instant::now();
        let block = store.context_in(&me, QUERIES[k % QUERIES.len()], None, Some(&session))?;
        contexts.push(t.elapsed());
        past += block.past_messages.len();
        tokens += block.estimated_tokens;
    }
    let t = Instant::now();
    let mut read = 0;
    loop {
        let n = store.extract(&me, None)?.turns;
        if n == 0 {
            break;
        }
        read += n;
    }
    let extract = t.elapsed();
    let jsonl = std::fs::metadata(home.join("memory/messages.jsonl"))?.len();
    let stored = (exchanges + samples) * 2;

    let figures = Figures {
        memories,
        messages,
        fill_memories_ms: ms(fill_memories),
        fill_messages_ms: ms(fill_messages),
        turn_ms: stats(turns).into(),
        context_ms: stats(contexts).into(),
        context_past_messages: past / samples.max(1),
        context_tokens: tokens / samples.max(1) as u32,
        extract_per_exchange_ms: ms(extract) / f64::from(read.max(1)),
        messages_jsonl_bytes_per_message: jsonl as f64 / stored.max(1) as f64,
    };
    if json_out {
        println!("{}", serde_json::to_string_pretty(&figures)?);
        return Ok(());
    }
    let f = &figures;
    println!(
        "conversations: {} memories, {} messages, {samples} timed exchanges",
        f.memories, f.messages
    );
    println!("  fill memories            {:>10.0} ms", f.fill_memories_ms);
    println!(
        "  fill messages            {:>10.0} ms ({} exchanges)",
        f.fill_messages_ms, exchanges
    );
    println!(
        "  persist a turn           {:>10.2} ms median, {:.2} ms p95",
        f.turn_ms.median, f.turn_ms.p95
    );
    println!(
        "  context with past talk   {:>10.2} ms median, {:.2} ms p95 ({} past messages, {} tokens on average)",
        f.context_ms.median, f.context_ms.p95, f.context_past_messages, f.context_tokens
    );
    println!(
        "  extract, by rules        {:>10.2} ms per exchange",
        f.extract_per_exchange_ms
    );
    println!(
        "  messages.jsonl           {:>10.0} bytes per message",
        f.messages_jsonl_bytes_per_message
    );
    Ok(())
}
