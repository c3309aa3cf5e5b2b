//! The contract as a library caller meets it: each interface's errors arrive as `Error`
//! variants carrying what failed, with a kind to branch on; the request constructors
//! build what the WIT records hold; archived links say when and why they were archived.

use ash_memory::{
    ArchiveReason, Caller, Clock, Error, ErrorKind, ListOptions, MemoryStore, MemoryType, NewMemory, NewPerson,
    SearchQuery,
};

use crate::support::ctx::Ctx;

fn open(ctx: &Ctx) -> MemoryStore {
    MemoryStore::builder(ctx.home()).open().expect("open the home")
}

#[test]
fn each_interface_reports_what_failed_with_its_payload_and_kind() {
    if crate::support::ctx::files_only("opens the library in this process, whose environment has no ASH_PG_URL") {
        return;
    }
    let ctx = Ctx::new();
    let mut store = open(&ctx);
    let alice = Caller::user("alice");
    let bob = Caller::user("bob");
    let before = ctx.snapshot();

    // memories: not-found carries the id asked for.
    let missing = "0123abcd-0000-4000-8000-000000000000";
    match store.get(&alice, missing) {
        Err(e @ Error::MemoryNotFound(_)) => {
            assert_eq!(e.kind(), ErrorKind::NotFound);
            assert!(matches!(&e, Error::MemoryNotFound(id) if id == missing), "{e:?}");
            assert_eq!(e.to_string(), format!("no memory {missing} is visible to you"));
        }
        other => panic!("{other:?}"),
    }
    // recall: an empty query is invalid input.
    let err = store.search(&alice, &SearchQuery::new("  ")).unwrap_err();
    assert!(
        matches!(err, Error::InvalidInput(_)) && err.kind() == ErrorKind::InvalidInput,
        "{err:?}"
    );
    // people: not-found carries the reference.
    match store.people_show(&alice, "my aunt") {
        Err(Error::PersonNotFound(reference)) => assert_eq!(reference, "my aunt"),
        other => panic!("{other:?}"),
    }
    // tools: an unknown tool is named, whatever its arguments.
    match store.tool_call(&alice, "forget", "not json") {
        Err(e @ Error::UnknownTool(_)) => {
            assert!(matches!(&e, Error::UnknownTool(name) if name == "forget"));
            assert_eq!(e.kind(), ErrorKind::InvalidInput);
        }
        other => panic!("{other:?}"),
    }
    // memories: a secret is refused, by kind.
    let err = store
        .add(
            &alice,
            &NewMemory::text("my github token is ghp_0123456789abcdefghijABCDEFGHIJ"),
        )
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SecretRefused, "{err:?}");
    assert_eq!(ctx.snapshot(), before, "refused calls write nothing");

    // people: a secret in an alias is refused as a secret, not as bad input.
    let err = store
        .people_add(&alice, &NewPerson::named("Sam").alias("password: hunter2"))
        .unwrap_err();
    assert!(
        matches!(err, Error::SecretRefused(_)) && err.kind() == ErrorKind::SecretRefused,
        "{err:?}"
    );
    assert_eq!(ctx.snapshot(), before, "refused people calls write nothing");

    // memories: a caller with a chat but no user sees the chat's memories but may not
    // delete them.
    let note = store
        .add(
            &alice.clone().in_chat("team"),
            &NewMemory::text("The team meets on Mondays").shared(),
        )
        .unwrap();
    let id = note.memories[0].id.clone();
    let chat_only = Caller {
        user_id: None,
        chat_id: Some("team".into()),
    };
    assert_eq!(store.get(&chat_only, &id).unwrap().content, "The team meets on Mondays");
    match store.delete(&chat_only, &id) {
        Err(e @ Error::Unauthorized(_)) => {
            assert!(matches!(&e, Error::Unauthorized(got) if *got == id));
            assert_eq!(e.kind(), ErrorKind::Unauthorized);
            assert_eq!(e.to_string(), format!("not allowed: deleting memory {id} needs a user"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        store.get(&alice.clone().in_chat("team"), &id).unwrap().id,
        id,
        "still there"
    );

    // memories: another user's person id reads as an unknown person.
    let sarah = store
        .people_add(&alice, &NewPerson::named("Sarah").relation("wife"))
        .unwrap();
    match store.add(&bob, &NewMemory::text("likes tea").subject(sarah.id.clone())) {
        Err(Error::PersonNotFound(reference)) => assert_eq!(reference, sarah.id),
        other => panic!("{other:?}"),
    }

    // memories: two memories whose ids share a prefix make that prefix ambiguous. The
    // ids are written by hand (the file is the source of truth; the index follows it).
    let one = store
        .add(&alice, &NewMemory::text("I water the garden on Sundays"))
        .unwrap();
    let two = store.add(&alice, &NewMemory::text("The garden gate sticks")).unwrap();
    drop(store);
    let text = std::fs::read_to_string(ctx.memories_path())
        .unwrap()
        .replace(&one.memories[0].id, "abcdef01-0000-4000-8000-000000000001")
        .replace(&two.memories[0].id, "abcdef01-0000-4000-8000-000000000002");
    std::fs::write(ctx.memories_path(), text).unwrap();
    let mut store = open(&ctx);
    match store.get(&alice, "abcdef01") {
        Err(e @ Error::AmbiguousId(_)) => {
            assert!(matches!(&e, Error::AmbiguousId(p) if p == "abcdef01"));
            assert_eq!(e.kind(), ErrorKind::InvalidInput);
        }
        other => panic!("{other:?}"),
    }
    let got = store.get(&alice, "abcdef01-0000-4000-8000-00000000000").unwrap_err();
    assert!(matches!(got, Error::AmbiguousId(_)), "{got:?}");
    let got = store.get(&alice, "abcdef01-0000-4000-8000-000000000002").unwrap();
    assert_eq!(got.content, "The garden gate sticks");
    // bob sees neither, so for him the prefix names nothing.
    assert!(matches!(store.get(&bob, "abcdef01"), Err(Error::MemoryNotFound(_))));
}

#[test]
fn history_shows_when_and_why_an_archived_link_left() {
    if crate::support::ctx::files_only("opens the library in this process, whose environment has no ASH_PG_URL") {
        return;
    }
    let ctx = Ctx::new();
    let mut store = MemoryStore::builder(ctx.home())
        .clock(Clock::fixed("2026-03-01T10:00:00+00:00").unwrap())
        .open()
        .unwrap();
    let me = Caller::user("alice").in_chat("family");
    store.add(&me, &NewMemory::text("My favorite color is red")).unwrap();
    let blue = store.add(&me, &NewMemory::text("My favorite color is blue")).unwrap();
    assert_eq!(blue.superseded.len(), 1, "{blue:?}");
    store.gc(false).unwrap();

    let chain = store.history(&me, &blue.memories[0].id).unwrap();
    assert_eq!(chain.len(), 2);
    assert_eq!(chain[0].content, "My favorite color is red");
    assert_eq!(chain[0].archive_reason, Some(ArchiveReason::Superseded));
    assert_eq!(chain[0].archived_at.as_deref(), Some("2026-03-01T10:00:00+00:00"));
    assert_eq!((chain[1].archive_reason, chain[1].archived_at.as_deref()), (None, None));

    // The request constructors fill the records the WIT defines.
    let plan = NewMemory::text("Standup moves to 10am")
        .memory_type(MemoryType::Task)
        .expires_in_days(3)
        .shared()
        .source("rpc");
    let added = store.add(&me, &plan).unwrap().memories.remove(0);
    assert_eq!(
        (
            added.memory_type,
            added.chat_id.as_deref(),
            added.owner_user_id.as_deref(),
            added.source.as_str()
        ),
        (MemoryType::Task, Some("family"), None, "rpc")
    );
    assert_eq!(added.expires_at.as_deref(), Some("2026-03-04T10:00:00+00:00"));
    let tasks = store
        .list(&me, &ListOptions::new().memory_type(MemoryType::Task).limit(5))
        .unwrap();
    assert_eq!(tasks, vec![added]);
    let found = store.search(&me, &SearchQuery::new("favorite color").limit(1)).unwrap();
    assert_eq!(found.hits.len(), 1);
    assert_eq!(found.hits[0].memory.content, "My favorite color is blue");
}
