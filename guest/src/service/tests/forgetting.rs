//! Forgetting a person: what leaves, what stays, and that nothing of another user moves.

use super::{alice, alice_alone, bob_alone, service, with_subjects};
use crate::api::*;
use crate::ports::Collection;
use crate::scope::Caller;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

/// Alice's memories about Sarah (alone, with Tom, shared in her chat, and through Sally,
/// an entry merged into Sarah), one about nobody, and Bob's own Sarah.
struct Home {
    s: MemoryService<FakePorts>,
    tea: String,
    hiking: String,
    party: String,
    bakery: String,
    jazz: String,
    sister: String,
    bobs: String,
}

fn add(s: &mut MemoryService<FakePorts>, caller: &Caller, content: &str, subjects: &[&str]) -> String {
    s.add(caller, with_subjects(content, subjects))
        .unwrap()
        .memories
        .remove(0)
        .id
}

fn home() -> Home {
    let mut s = service();
    let tea = add(&mut s, &alice_alone(), "Sarah likes green tea", &["my wife Sarah"]);
    let hiking = add(&mut s, &alice_alone(), "We went hiking in the Alps", &["Sarah", "Tom"]);
    s.people_alias(&alice_alone(), "Tom", "Sarah's brother").unwrap();
    let party = s
        .add(
            &alice(),
            NewMemory {
                shared: true,
                ..with_subjects("Sarah is coming to the party on Friday", &["Sarah"])
            },
        )
        .unwrap()
        .memories
        .remove(0)
        .id;
    let sister = add(&mut s, &alice_alone(), "Her sister visits in June", &["Sarah's sister"]);
    let bakery = add(&mut s, &alice_alone(), "Sally works at the bakery", &["Sally"]);
    s.people_merge(&alice_alone(), "Sarah", "Sally").unwrap();
    let jazz = add(&mut s, &alice_alone(), "I like jazz", &[]);
    let bobs = add(&mut s, &bob_alone(), "Sarah is my boss", &["Sarah"]);
    Home {
        s,
        tea,
        hiking,
        party,
        bakery,
        jazz,
        sister,
        bobs,
    }
}

fn ids(s: &mut MemoryService<FakePorts>, caller: &Caller) -> Vec<String> {
    let mut ids: Vec<String> = s
        .list(caller, &ListOptions::default())
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    ids.sort();
    ids
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn forgetting_archives_memories_about_them_alone_and_unlinks_shared_ones() {
    let Home {
        mut s,
        tea,
        hiking,
        party,
        bakery,
        jazz,
        sister,
        bobs,
    } = home();
    let tom = s.people_show(&alice_alone(), "Tom").unwrap();
    let bobs_people = s.people_list(&bob_alone()).unwrap();

    let f = s.people_forget(&alice_alone(), "my wife", false).unwrap();
    assert_eq!(f.person.name, "Sarah");
    assert_eq!(
        sorted(f.archived),
        sorted(vec![tea.clone(), party.clone(), bakery.clone()])
    );
    assert_eq!(f.unlinked, std::slice::from_ref(&hiking));
    assert_eq!(f.purged, 0);

    // Alice still has what was not about Sarah alone; the hiking trip is Tom's alone now.
    assert_eq!(ids(&mut s, &alice()), sorted(vec![hiking.clone(), jazz, sister]));
    assert_eq!(s.get(&alice(), &hiking).unwrap().subject_person_ids, [tom.id]);
    for reference in ["Sarah", "Sally", "my wife", &f.person.id] {
        assert!(
            matches!(s.people_show(&alice_alone(), reference), Err(Error::UnknownPerson(_))),
            "{reference}"
        );
    }
    // Nobody is named after her any more: her unnamed sister is "someone's sister".
    let names: Vec<String> = s
        .people_list(&alice_alone())
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert!(names.contains(&"someone's sister".to_owned()), "{names:?}");
    // Tom no longer answers to a name that holds hers.
    let tom_now = s.people_show(&alice_alone(), "Tom").unwrap();
    assert!(!tom_now.aliases.iter().any(|a| a.contains("Sarah")), "{tom_now:?}");
    assert!(tom_now.relationships.iter().all(|(id, _)| *id != f.person.id));
    let people = s.ports().file(Collection::People);
    assert!(
        people
            .lines()
            .filter(|l| l.contains("\"alice\""))
            .all(|l| !l.contains("Sarah") && !l.contains("Sally")),
        "the people file no longer names her: {people}"
    );

    // What left is in the archive, with the reason.
    let archive = s.ports().file(Collection::Archive);
    for id in [&tea, &party, &bakery] {
        let line = archive.lines().find(|l| l.contains(id.as_str())).expect("archived");
        assert!(line.contains(r#""archive_reason":"forgotten""#), "{line}");
    }
    // Search no longer finds it.
    let found = super::search(&mut s, &alice(), "green tea");
    assert!(found.iter().all(|c| !c.contains("tea")), "{found:?}");

    // Bob's Sarah and his memory are untouched.
    assert_eq!(s.people_list(&bob_alone()).unwrap(), bobs_people);
    assert_eq!(ids(&mut s, &bob_alone()), [bobs]);
}

#[test]
fn a_purge_leaves_no_line_about_them_alone_anywhere() {
    let Home { mut s, hiking, .. } = home();
    let sarah = s.people_show(&alice_alone(), "Sarah").unwrap().id;
    // An older fact about her, archived before the forget.
    let lisbon = add(&mut s, &alice_alone(), "Sarah lives in Lisbon", &["Sarah"]);
    s.delete(&alice_alone(), &lisbon).unwrap();
    assert!(s.ports().file(Collection::Archive).contains("Lisbon"));

    let f = s.people_forget(&alice_alone(), "Sarah", true).unwrap();
    assert_eq!(f.purged, 1, "the Lisbon entry");
    assert_eq!(f.unlinked, [hiking]);
    for c in [Collection::Memories, Collection::Archive, Collection::People] {
        let file = s.ports().file(c);
        for gone in ["green tea", "Lisbon", "bakery", "party", sarah.as_str()] {
            assert!(!file.contains(gone), "{c:?} still holds {gone:?}:\n{file}");
        }
    }
    // Bob's Sarah is his own and stays.
    assert!(s.ports().file(Collection::Memories).contains("Sarah is my boss"));
    assert!(s.ports().file(Collection::Memories).contains("We went hiking"));
}

#[test]
fn only_the_owner_can_forget_and_a_refusal_changes_nothing() {
    let Home { mut s, .. } = home();
    let sarah = s.people_show(&alice_alone(), "Sarah").unwrap().id;
    let files = |s: &MemoryService<FakePorts>| {
        [Collection::Memories, Collection::Archive, Collection::People].map(|c| s.ports().file(c))
    };
    let before = files(&s);
    // Bob can name her id but it is not his; his own Sarah is another person.
    assert!(matches!(
        s.people_forget(&bob_alone(), &sarah, true),
        Err(Error::UnknownPerson(_))
    ));
    assert!(matches!(
        s.people_forget(&alice_alone(), "Nobody", false),
        Err(Error::UnknownPerson(_))
    ));
    assert!(matches!(
        s.people_forget(&Caller::new(None, Some("chat-1")), "Sarah", false),
        Err(Error::InvalidInput(_))
    ));
    assert_eq!(files(&s), before);
}
