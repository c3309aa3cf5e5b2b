//! Purging a person: their names leave every file and the index, only the owner's words
//! change, and a purge cut short is finished by the next call, whoever makes it.

use super::{alice_alone, bob_alone, service, with_subjects};
use crate::api::*;
use crate::ports::Collection;
use crate::record::MemoryRecord;
use crate::scope::Caller;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

/// Her name, the alias Alice gave her, and the name of an entry merged into her.
const NAMES: [&str; 3] = ["zanzibarina", "zanzi", "zee"];

const COLLECTIONS: [Collection; 5] = [
    Collection::Memories,
    Collection::People,
    Collection::Archive,
    Collection::Sessions,
    Collection::Messages,
];

fn add(s: &mut MemoryService<FakePorts>, caller: &Caller, memory: NewMemory) -> String {
    s.add(caller, memory).unwrap().memories.remove(0).id
}

fn turn(s: &mut MemoryService<FakePorts>, caller: &Caller, session: &str, said: &str, answer: Option<&str>) -> String {
    s.persist_turn(
        caller,
        Turn {
            session: session.into(),
            provider: None,
            user_message: said.into(),
            assistant_message: answer.map(Into::into),
        },
    )
    .unwrap()
    .message_ids
    .remove(0)
}

/// Alice's sister Zanzibarina, named everywhere Alice's words go: memories linked to her
/// or not, a memory's context, the archive, a session's name, her messages alone and in a
/// chat. Bob says the same word in the chat and in a memory of his. Returns the service
/// and the ids of Bob's records.
fn home() -> (MemoryService<FakePorts>, Vec<String>) {
    let mut s = service();
    let alice = alice_alone();
    // Stored before she is anyone on file, so not linked to her.
    add(
        &mut s,
        &alice,
        NewMemory::text("Lunch with zanzibarina's kids on Sunday"),
    );
    let trip = add(&mut s, &alice, NewMemory::text("Quxville trip planned with Zanzi"));
    s.delete(&alice, &trip).unwrap();
    turn(
        &mut s,
        &alice,
        "Calls with Zanzi",
        "My sister Zanzibarina called about Quxville",
        Some("Say hi to ZANZIBARINA from me"),
    );
    add(
        &mut s,
        &alice,
        with_subjects("Zanzibarina lives in Quxville", &["my sister Zanzibarina"]),
    );
    s.people_alias(&alice, "Zanzibarina", "Zanzi").unwrap();
    add(
        &mut s,
        &alice,
        with_subjects("Zanzi and Tom met in Rome", &["Zanzibarina", "Tom"]),
    );
    add(
        &mut s,
        &alice,
        NewMemory {
            context: Some("Did Zanzi get the tickets?".into()),
            ..NewMemory::text("Yes, for the Friday train")
        },
    );
    add(&mut s, &alice, with_subjects("Zee plays the oboe", &["Zee"]));
    s.people_merge(&alice, "Zanzibarina", "Zee").unwrap();
    let in_chat = Caller::new(Some("alice"), Some("chat-1"));
    turn(&mut s, &in_chat, "family", "Zanzibarina is joining us", Some("Lovely!"));
    let bob_in_chat = Caller::new(Some("bob"), Some("chat-1"));
    let bobs_message = turn(&mut s, &bob_in_chat, "family", "Zanzibarina is a town near me", None);
    let bobs_memory = add(
        &mut s,
        &bob_alone(),
        NewMemory::text("Zanzibarina is the village I grew up in"),
    );
    (s, vec![bobs_message, bobs_memory])
}

/// Whether a text names her in any case. Vectors are left out: base64 can spell anything.
fn names_her(line: &str) -> bool {
    let text = match serde_json::from_str::<serde_json::Value>(line) {
        Ok(serde_json::Value::Object(mut fields)) => {
            fields.remove("embedding");
            serde_json::Value::Object(fields).to_string()
        }
        _ => line.to_owned(),
    };
    let text = text.to_lowercase();
    NAMES.iter().any(|n| text.contains(n))
}

/// Every line of every file and every index entry that still names her, but Bob's.
fn traces(s: &MemoryService<FakePorts>, bobs: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for c in COLLECTIONS {
        for line in s.ports().file(c).lines() {
            if names_her(line) && !bobs.iter().any(|id| line.contains(id.as_str())) {
                found.push(format!("{c:?}: {line}"));
            }
        }
    }
    for entry in s.ports().index.borrow().values() {
        let record = entry.record.as_deref().unwrap_or_default();
        if (names_her(&entry.content) || names_her(record)) && !bobs.contains(&entry.id) {
            found.push(format!("index: {} {record}", entry.content));
        }
    }
    found
}

/// The memory of this caller's that starts so, as the file has it last.
fn memory(s: &MemoryService<FakePorts>, caller: &Caller, starts: &str) -> MemoryRecord {
    s.ports()
        .file(Collection::Memories)
        .lines()
        .rev()
        .filter_map(|l| MemoryRecord::parse(l).ok())
        .find(|r| caller.can_see(r) && r.content.starts_with(starts))
        .unwrap_or_else(|| panic!("no memory {starts:?}"))
}

#[test]
fn a_purge_leaves_no_name_of_theirs_in_any_file_or_the_index() {
    let (mut s, bobs) = home();
    let lunch_before = memory(&s, &alice_alone(), "Lunch with");
    let bobs_memory = s.get(&bob_alone(), &bobs[1]).unwrap();
    assert!(!traces(&s, &bobs).is_empty(), "the home names her before");

    let f = s.people_forget(&alice_alone(), "Zanzi", true).unwrap();
    assert_eq!(f.person.name, "Zanzibarina");
    assert_eq!((f.archived.len(), f.unlinked.len()), (2, 1), "{f:?}");
    assert_eq!(traces(&s, &bobs), Vec::<String>::new());
    for c in COLLECTIONS {
        assert!(!s.ports().file(c).contains("purge_requested_at"), "{c:?}");
    }

    // What Alice keeps still says what it said, with a gap for her: the same memory, its
    // old vector (which encoded her name) replaced by one of the new words.
    let lunch = memory(&s, &alice_alone(), "Lunch with");
    assert_eq!(lunch.id, lunch_before.id);
    assert_eq!(lunch.content, "Lunch with [forgotten]'s kids on Sunday");
    assert!(lunch.embedding.is_some() && lunch.embedding != lunch_before.embedding);
    let held = s.ports().index.borrow()[&lunch.id].embedding.clone();
    assert_eq!(held, lunch.vector());
    let rome = memory(&s, &alice_alone(), "[forgotten] and Tom");
    assert_eq!(rome.subject_person_ids.len(), 1, "Tom's alone now");
    let train = memory(&s, &alice_alone(), "Yes, for the Friday train");
    assert_eq!(train.context.as_deref(), Some("Did [forgotten] get the tickets?"));
    let archive = s.ports().file(Collection::Archive);
    assert!(archive.contains("Quxville trip planned with [forgotten]"), "{archive}");
    let sessions = s.ports().file(Collection::Sessions);
    assert!(sessions.contains("Calls with [forgotten]"), "{sessions}");

    // Bob's words are his: the memory and his message in the chat stay as they were.
    assert_eq!(s.get(&bob_alone(), &bobs[1]).unwrap(), bobs_memory);
    assert!(
        s.ports()
            .file(Collection::Messages)
            .contains("Zanzibarina is a town near me")
    );
    assert_eq!(super::search(&mut s, &bob_alone(), "village"), [bobs_memory.content]);

    // The context shows the past message, found by meaning, without her.
    let block = s
        .context(&alice_alone(), "Who called about Quxville?", None, None)
        .unwrap();
    let past: Vec<(&str, f32)> = block
        .past_messages
        .iter()
        .map(|m| (m.content.as_str(), m.score))
        .collect();
    // By meaning, not only by the word: its vector was made again.
    assert!(
        past.iter()
            .any(|&(m, score)| m == "My sister [forgotten] called about Quxville"
                && score >= crate::service::past_messages::MIN_PAST_SIMILARITY),
        "{past:?}"
    );
    assert!(!names_her(&block.markdown), "{}", block.markdown);
}

#[test]
fn a_purge_cut_short_is_finished_by_the_next_call() {
    // Cut at each rewrite after the first (a commit point that keeps the mark), and at
    // the index.
    for cut in ["memories", "messages", "sessions", "people", "index"] {
        let (mut s, bobs) = home();
        match cut {
            "memories" => s.ports().fail_replace.set(Some(Collection::Memories)),
            "messages" => s.ports().fail_replace.set(Some(Collection::Messages)),
            "sessions" => s.ports().fail_replace.set(Some(Collection::Sessions)),
            "people" => s.ports().fail_replace.set(Some(Collection::People)),
            _ => s.ports().fail_upserts.set(true),
        }
        assert!(s.people_forget(&alice_alone(), "Zanzibarina", true).is_err(), "{cut}");
        ports_fixed(&s);
        if cut != "index" {
            // Still on file and marked; the archive already rewritten without her.
            let people = s.ports().file(Collection::People);
            assert!(people.contains("purge_requested_at"), "{cut}: {people}");
            let archive = s.ports().file(Collection::Archive);
            assert!(!archive.contains("Quxville trip planned with Zanzi"), "{cut}");
        }
        if !["memories", "index"].contains(&cut) {
            // "The person still in people.jsonl, their memories already gone."
            assert!(
                !s.ports().file(Collection::Memories).contains("lives in Quxville"),
                "{cut}"
            );
        }

        // The next call, in a new process and by someone else, finishes it first.
        let mut next = MemoryService::new(std::mem::take(&mut s.ports));
        assert_eq!(
            next.list(&bob_alone(), &ListOptions::default()).unwrap().len(),
            1,
            "{cut}"
        );
        assert_eq!(traces(&next, &bobs), Vec::<String>::new(), "{cut}");
        assert!(
            matches!(
                next.people_show(&alice_alone(), "Zanzibarina"),
                Err(Error::UnknownPerson(_))
            ),
            "{cut}"
        );
        let lunch = memory(&next, &alice_alone(), "Lunch with");
        assert_eq!(lunch.content, "Lunch with [forgotten]'s kids on Sunday", "{cut}");
        let rome = memory(&next, &alice_alone(), "[forgotten] and Tom");
        assert_eq!(rome.subject_person_ids.len(), 1, "{cut}");
    }
}

/// The disk has room again and the index takes writes.
fn ports_fixed(s: &MemoryService<FakePorts>) {
    s.ports().fail_replace.set(None);
    s.ports().fail_upserts.set(false);
}

#[test]
fn a_call_that_reads_only_people_finishes_a_purge_too() {
    let (mut s, bobs) = home();
    s.ports().fail_replace.set(Some(Collection::People));
    assert!(s.people_forget(&alice_alone(), "Zanzibarina", true).is_err());
    ports_fixed(&s);
    let mut next = MemoryService::new(std::mem::take(&mut s.ports));
    let names: Vec<String> = next
        .people_list(&alice_alone())
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names, ["Tom"]);
    assert_eq!(traces(&next, &bobs), Vec::<String>::new());
}
