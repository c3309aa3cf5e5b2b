//! Person resolution through `add` and the people commands: bare relations, names in the
//! content, handles, relations of other people, and nesting.

use super::{alice, alice_alone, names, one, resolve_in, service, subjects_of, with_subjects};
use crate::api::*;
use crate::ports::Collection;
use crate::scope::Caller;

#[test]
fn references_converge_and_people_stay_with_their_owner() {
    let mut s = service();
    s.add(&alice(), NewMemory::text("My wife's name is Sarah")).unwrap();
    let a = s
        .add(&alice(), with_subjects("She likes Italian food", &["my wife"]))
        .unwrap()
        .memories
        .remove(0);
    let b = s
        .add(&alice(), with_subjects("She runs", &["sarah"]))
        .unwrap()
        .memories
        .remove(0);
    let c = s
        .add(&alice(), with_subjects("She sings", &["my wife Sarah"]))
        .unwrap()
        .memories
        .remove(0);
    assert_eq!(s.people_list(&alice()).unwrap().len(), 1);
    assert_eq!(a.subject_person_ids, b.subject_person_ids);
    assert_eq!(b.subject_person_ids, c.subject_person_ids);

    let bob = Caller::new(Some("bob"), Some("chat-1"));
    assert!(s.people_list(&bob).unwrap().is_empty());
    let sarah = &a.subject_person_ids[0];
    assert!(matches!(
        s.add(&bob, with_subjects("x", &[sarah])),
        Err(Error::UnknownPerson(_))
    ));
    assert!(matches!(s.people_show(&bob, "Sarah"), Err(Error::UnknownPerson(_))));
}

#[test]
fn a_placeholder_gets_its_name_later() {
    let mut s = service();
    s.add(&alice(), with_subjects("My boss likes golf", &["my boss"]))
        .unwrap();
    assert_eq!(s.people_list(&alice()).unwrap()[0].name, "my boss");
    s.add(&alice(), with_subjects("He is from Oslo", &["my boss Mike"]))
        .unwrap();
    let people = s.people_list(&alice()).unwrap();
    assert_eq!(people.len(), 1);
    assert_eq!(
        (people[0].name.as_str(), people[0].relation.as_deref()),
        ("Mike", Some("boss"))
    );
}

#[test]
fn a_bare_relation_finds_the_person_with_that_relation() {
    let mut s = service();
    let sarah = s.people_add(&alice_alone(), "Sarah", Some("wife"), &[]).unwrap();
    for reference in ["wife", "my wife", "the wife", "My Wife", "Wife"] {
        assert_eq!(
            subjects_of(&mut s, &alice_alone(), &[reference]),
            one(&sarah.id),
            "{reference}"
        );
        assert_eq!(
            s.people_show(&alice_alone(), reference).unwrap().id,
            sarah.id,
            "{reference}"
        );
    }
    assert_eq!(names(&mut s, &alice_alone()), ["Sarah"], "no person named \"wife\"");
}

#[test]
fn a_name_wins_over_a_relation_and_plain_names_stay_names() {
    let mut s = service();
    let coach = s.people_add(&alice_alone(), "Coach", None, &[]).unwrap();
    let dan = s.people_add(&alice_alone(), "Dan", Some("coach"), &[]).unwrap();
    assert_eq!(subjects_of(&mut s, &alice_alone(), &["coach"]), one(&coach.id));
    assert_eq!(subjects_of(&mut s, &alice_alone(), &["my coach"]), one(&dan.id));
    // Nobody's relation: "Mike" is a new person named Mike.
    let mike = subjects_of(&mut s, &alice_alone(), &["Mike"]);
    assert_eq!(s.people_show(&alice_alone(), &mike[0]).unwrap().name, "Mike");
    // A common relation nobody has yet: a stand-in, not a person named "husband".
    let husband = subjects_of(&mut s, &alice_alone(), &["husband"]);
    let shown = s.people_show(&alice_alone(), &husband[0]).unwrap();
    assert_eq!(
        (shown.name.as_str(), shown.relation.as_deref()),
        ("my husband", Some("husband"))
    );
    assert_eq!(subjects_of(&mut s, &alice_alone(), &["the husband"]), husband);
    assert_eq!(subjects_of(&mut s, &alice_alone(), &["my husband Ben"]), husband);
    assert_eq!(s.people_show(&alice_alone(), "husband").unwrap().name, "Ben");
}

#[test]
fn the_content_names_the_relation_it_is_about() {
    let mut s = service();
    let id = resolve_in(&mut s, &alice_alone(), "my wife", Some("My wife Sarah loves hiking")).unwrap();
    let sarah = s.people_show(&alice_alone(), "Sarah").unwrap();
    assert_eq!(sarah.id, id);
    assert_eq!(sarah.relation.as_deref(), Some("wife"));
    assert!(sarah.aliases.iter().any(|a| a == "my wife"));
    // Later mentions converge on her.
    assert_eq!(resolve_in(&mut s, &alice_alone(), "wife", None).unwrap(), id);
    assert_eq!(
        resolve_in(&mut s, &alice_alone(), "my wife", Some("My wife Sarah runs")).unwrap(),
        id
    );
    assert_eq!(names(&mut s, &alice_alone()), ["Sarah"]);
}

#[test]
fn the_content_completes_a_stand_in() {
    let mut s = service();
    let boss = subjects_of(&mut s, &alice_alone(), &["my boss"]);
    assert_eq!(names(&mut s, &alice_alone()), ["my boss"]);
    let id = resolve_in(&mut s, &alice_alone(), "boss", Some("My boss Mike is from Oslo")).unwrap();
    assert_eq!(vec![id], boss);
    let people = s.people_list(&alice_alone()).unwrap();
    assert_eq!(people.len(), 1);
    assert_eq!(
        (people[0].name.as_str(), people[0].relation.as_deref()),
        ("Mike", Some("boss"))
    );
    assert!(people[0].aliases.iter().any(|a| a == "my boss"));
}

#[test]
fn the_content_does_not_rename_a_known_person() {
    let mut s = service();
    let anna = s.people_add(&alice_alone(), "Anna", Some("wife"), &[]).unwrap();
    let id = resolve_in(&mut s, &alice_alone(), "my wife", Some("My wife Sarah loves hiking")).unwrap();
    assert_eq!(id, anna.id, "a wife known by name stays who \"my wife\" is");
    assert_eq!(names(&mut s, &alice_alone()), ["Anna"]);
    // Without a hint, or with content that names no one, nothing changes either.
    let id = resolve_in(&mut s, &alice_alone(), "my wife", Some("She loves hiking")).unwrap();
    assert_eq!(id, anna.id);
}

#[test]
fn handles_resolve_to_the_named_person_and_are_kept_as_aliases() {
    let mut s = service();
    let bob_person = s.people_add(&alice_alone(), "Bob", None, &[]).unwrap();
    assert_eq!(subjects_of(&mut s, &alice_alone(), &["@bob"]), one(&bob_person.id));
    assert_eq!(s.people_show(&alice_alone(), "@BOB").unwrap().id, bob_person.id);
    let carol = subjects_of(&mut s, &alice_alone(), &["@carol"]);
    let shown = s.people_show(&alice_alone(), &carol[0]).unwrap();
    assert_eq!(shown.name, "carol");
    assert!(shown.aliases.iter().any(|a| a == "@carol"));
    assert_eq!(subjects_of(&mut s, &alice_alone(), &["@Carol"]), carol);
    assert_eq!(subjects_of(&mut s, &alice_alone(), &["Carol"]), carol);
    assert_eq!(s.people_list(&alice_alone()).unwrap().len(), 2);
}

#[test]
fn a_relation_of_someone_else_resolves_without_a_name() {
    let mut s = service();
    let brother = subjects_of(&mut s, &alice_alone(), &["Sarah's brother"]);
    let sarah = s.people_show(&alice_alone(), "Sarah").unwrap();
    assert_eq!(sarah.relationships, [(brother[0].clone(), "brother".to_owned())]);
    assert_eq!(
        s.people_show(&alice_alone(), &brother[0]).unwrap().name,
        "Sarah's brother"
    );
    // The same words find the same person, by edge or alias.
    assert_eq!(subjects_of(&mut s, &alice_alone(), &["Sarah's brother"]), brother);
    assert_eq!(s.people_show(&alice_alone(), "sarah's brother").unwrap().id, brother[0]);

    let wife = subjects_of(&mut s, &alice_alone(), &["Sarah's brother's wife"]);
    assert_ne!(wife, brother);
    let shown = s.people_show(&alice_alone(), &brother[0]).unwrap();
    assert_eq!(shown.relationships, [(wife[0].clone(), "wife".to_owned())]);
    assert_eq!(s.people_list(&alice_alone()).unwrap().len(), 3);
    assert_eq!(subjects_of(&mut s, &alice_alone(), &["Sarah's brother's wife"]), wife);

    // His name, once known, completes the stand-in rather than adding a second brother.
    assert_eq!(subjects_of(&mut s, &alice_alone(), &["Sarah's brother Tom"]), brother);
    assert_eq!(s.people_show(&alice_alone(), "Tom").unwrap().id, brother[0]);
    assert_eq!(s.people_list(&alice_alone()).unwrap().len(), 3);
    assert_eq!(subjects_of(&mut s, &alice_alone(), &["Tom's wife"]), wife);
}

#[test]
fn absurd_nesting_is_refused_cleanly() {
    let mut s = service();
    let deep: Vec<String> = (0..200).map(|i| format!("P{i}'s")).collect();
    let deep = format!("{} friend", deep.join(" "));
    // A small stack proves there is no deep recursion left to overflow.
    let outcome = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let mut s = service();
            let add = s.add(&alice_alone(), with_subjects("A fact", &[&deep])).map(|_| ());
            let show = s.people_show(&alice_alone(), &deep).map(|_| ());
            (
                add,
                show,
                s.ports().file(Collection::People),
                s.ports().file(Collection::Memories),
            )
        })
        .unwrap()
        .join()
        .expect("no panic, no stack overflow");
    assert!(
        matches!(&outcome.0, Err(Error::InvalidInput(m)) if m.contains("nests")),
        "{:?}",
        outcome.0
    );
    assert!(matches!(&outcome.1, Err(Error::InvalidInput(_))), "{:?}", outcome.1);
    assert_eq!((outcome.2.as_str(), outcome.3.as_str()), ("", ""), "nothing written");

    // A few levels are fine; one more than allowed is refused.
    subjects_of(&mut s, &alice_alone(), &["A's b's c's d's e"]);
    assert!(matches!(
        s.add(&alice_alone(), with_subjects("A fact", &["A's b's c's d's e's f"])),
        Err(Error::InvalidInput(_))
    ));
}
