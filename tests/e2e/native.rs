//! The policy linked natively (`ash_memory::native`, what `bench --native` measures)
//! answers as the component does: the same calls on two homes, with a fixed clock and
//! counted ids, give the same answers and leave the same files byte for byte. Without
//! this, the bench's component/native ratio could compare two different workloads.

use std::path::PathBuf;

use ash_memory::native::policy;
use ash_memory::{Caller, Clock, Ids, MemoryStore, NewMemory, NewPerson, SearchQuery};
use chrono::{TimeDelta, TimeZone, Utc};

use crate::support::ctx::{Ctx, cache_dir};

/// The home's JSONL files by path within the home.
fn collections(ctx: &Ctx) -> Vec<(PathBuf, String)> {
    ctx.snapshot()
        .into_iter()
        .filter(|(path, _)| path.extension().is_some_and(|e| e == "jsonl"))
        .map(|(path, bytes)| {
            let relative = path.strip_prefix(ctx.home()).expect("under the home").to_path_buf();
            (relative, String::from_utf8(bytes).expect("UTF-8"))
        })
        .collect()
}

#[test]
fn the_native_policy_answers_and_writes_as_the_component_does() {
    if crate::support::ctx::files_only("opens the library in this process, whose environment has no ASH_PG_URL") {
        return;
    }
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    let later = start + TimeDelta::days(40);
    let (a, b) = (Ctx::new(), Ctx::new());
    let mut component = MemoryStore::builder(a.home())
        .clock(Clock::Fixed(start))
        .ids(Ids::Sequential)
        .cache_dir(Some(cache_dir().to_path_buf()))
        .open()
        .expect("open the component");
    let mut native = MemoryStore::builder(b.home())
        .clock(Clock::Fixed(start))
        .ids(Ids::Sequential)
        .open_native()
        .expect("open the native policy");
    let me = Caller::user("alice");
    let native_me = policy::Caller::new(Some("alice"), None);

    component
        .people_add(&me, &NewPerson::named("Sarah").relation("wife"))
        .unwrap();
    native
        .call(|p| p.people_add(&native_me, "Sarah", Some("wife"), &[]))
        .unwrap();

    let facts = [
        ("I live in Lisbon", None, None),
        ("My wife loves jazz concerts", Some("Sarah"), None),
        ("I live in Porto", None, None),
        ("The plumber comes on Thursday", None, Some(7)),
        ("I am allergic to peanuts", None, None),
    ];
    let (mut replaced_c, mut replaced_n, mut ids) = (0, 0, Vec::new());
    for (content, subject, days) in facts {
        let mut item = NewMemory::text(content);
        item.subjects = subject.iter().map(|s| s.to_string()).collect();
        item.expires_in_days = days;
        let added = component.add(&me, &item).unwrap();
        replaced_c += added.superseded.len();
        let item = policy::NewMemory {
            subjects: item.subjects.clone(),
            expires_in_days: days,
            ..policy::NewMemory::text(content)
        };
        let added_n = native.call(|p| p.add(&native_me, item)).unwrap();
        replaced_n += added_n.superseded.len();
        assert_eq!(added.memories[0].id, added_n.memories[0].id, "{content}");
        ids.push(added.memories[0].id.clone());
    }
    assert_eq!((replaced_c, replaced_n), (1, 1), "Porto replaces Lisbon in both");

    // A secret is refused by both, and neither writes anything for it.
    let secret = "my api key is sk-proj-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c";
    let refused = component.add(&me, &NewMemory::text(secret)).unwrap_err();
    let refused_n = native
        .call(|p| p.add(&native_me, policy::NewMemory::text(secret)))
        .unwrap_err();
    assert_eq!(refused.kind(), refused_n.kind());
    assert_eq!(refused.to_string(), refused_n.to_string());

    for question in ["where do I live", "what does my wife like", "food allergies"] {
        let found = component.search(&me, &SearchQuery::new(question).limit(5)).unwrap();
        let query = policy::SearchQuery {
            text: question.into(),
            limit: Some(5),
            about: None,
        };
        let found_n = native.call(|p| p.search(&native_me, &query)).unwrap();
        let hits: Vec<(String, f32)> = found.hits.iter().map(|h| (h.memory.id.clone(), h.score)).collect();
        let hits_n: Vec<(String, f32)> = found_n.hits.iter().map(|h| (h.memory.id.clone(), h.score)).collect();
        assert!(!hits.is_empty(), "{question}: found nothing");
        assert_eq!(hits, hits_n, "{question}");
    }
    let block = component.context(&me, "What should I cook for Sarah?", None).unwrap();
    let block_n = native
        .call(|p| p.context(&native_me, "What should I cook for Sarah?", None, None))
        .unwrap();
    assert!(block.markdown.contains("Sarah"), "{}", block.markdown);
    assert_eq!(block.markdown, block_n.markdown);

    // Forty days on, the plumber's visit has expired; GC archives it and the replaced
    // Lisbon line in both.
    component.set_clock(Clock::Fixed(later));
    native.set_clock(Clock::Fixed(later));
    let gc = component.gc(false).unwrap();
    let gc_n = native.call(|p| p.gc(false)).unwrap();
    let archived: Vec<&str> = gc.archived.iter().map(|m| m.content.as_str()).collect();
    let archived_n: Vec<&str> = gc_n.archived.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(archived.len(), 2, "{archived:?}");
    assert_eq!(archived, archived_n);

    let id = ids.last().expect("the peanuts").clone();
    assert_eq!(component.delete(&me, &id).unwrap(), id);
    assert_eq!(native.call(|p| p.delete(&native_me, &id)).unwrap(), id);

    let files = collections(&a);
    assert!(files.len() >= 3, "memories, archive and people: {files:?}");
    assert_eq!(files, collections(&b));
}
