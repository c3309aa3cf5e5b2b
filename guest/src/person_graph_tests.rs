//! Person resolution through the memory service, over in-memory ports: bare relations,
//! names in the content, handles, relations of other people, references by id, and
//! secrets in names.

use std::collections::HashMap;

use crate::api::*;
use crate::fake::FakePorts;
use crate::people::PersonRecord;
use crate::ports::Collection;
use crate::scope::Caller;
use crate::service::MemoryService;

fn service() -> MemoryService<FakePorts> {
    MemoryService::new(FakePorts::new())
}

fn alice() -> Caller {
    Caller::new(Some("alice"), None)
}

fn bob() -> Caller {
    Caller::new(Some("bob"), None)
}

const STAMP: &str = "2026-03-01T12:00:00+00:00";

fn about(content: &str, subjects: &[&str]) -> NewMemory {
    NewMemory {
        subjects: subjects.iter().map(|s| s.to_string()).collect(),
        ..NewMemory::text(content)
    }
}

/// The subject ids of a memory added with these subjects.
fn subjects_of(s: &mut MemoryService<FakePorts>, caller: &Caller, subjects: &[&str]) -> Vec<String> {
    s.add(caller, about("A fact", subjects))
        .unwrap()
        .memories
        .remove(0)
        .subject_person_ids
}

/// Resolves as `add` will with the content hint, and writes what it created.
fn resolve_in(
    s: &mut MemoryService<FakePorts>,
    caller: &Caller,
    reference: &str,
    content: Option<&str>,
) -> Result<String, Error> {
    s.people_list(caller)?;
    let mut writes: HashMap<String, PersonRecord> = HashMap::new();
    let id = s.resolve_person_in(caller, reference, content, STAMP, &mut writes)?;
    s.write_people(writes)?;
    Ok(id)
}

/// One subject id, as a memory's subject list.
fn one(id: &str) -> Vec<String> {
    vec![id.to_owned()]
}

fn names(s: &mut MemoryService<FakePorts>, caller: &Caller) -> Vec<String> {
    s.people_list(caller).unwrap().into_iter().map(|p| p.name).collect()
}

#[test]
fn a_bare_relation_finds_the_person_with_that_relation() {
    let mut s = service();
    let sarah = s.people_add(&alice(), "Sarah", Some("wife"), &[]).unwrap();
    for reference in ["wife", "my wife", "the wife", "My Wife", "Wife"] {
        assert_eq!(
            subjects_of(&mut s, &alice(), &[reference]),
            one(&sarah.id),
            "{reference}"
        );
        assert_eq!(s.people_show(&alice(), reference).unwrap().id, sarah.id, "{reference}");
    }
    assert_eq!(names(&mut s, &alice()), ["Sarah"], "no person named \"wife\"");
}

#[test]
fn a_name_wins_over_a_relation_and_plain_names_stay_names() {
    let mut s = service();
    let coach = s.people_add(&alice(), "Coach", None, &[]).unwrap();
    let dan = s.people_add(&alice(), "Dan", Some("coach"), &[]).unwrap();
    assert_eq!(subjects_of(&mut s, &alice(), &["coach"]), one(&coach.id));
    assert_eq!(subjects_of(&mut s, &alice(), &["my coach"]), one(&dan.id));
    // Nobody's relation: "Mike" is a new person named Mike.
    let mike = subjects_of(&mut s, &alice(), &["Mike"]);
    assert_eq!(s.people_show(&alice(), &mike[0]).unwrap().name, "Mike");
    // A common relation nobody has yet: a stand-in, not a person named "husband".
    let husband = subjects_of(&mut s, &alice(), &["husband"]);
    let shown = s.people_show(&alice(), &husband[0]).unwrap();
    assert_eq!(
        (shown.name.as_str(), shown.relation.as_deref()),
        ("my husband", Some("husband"))
    );
    assert_eq!(subjects_of(&mut s, &alice(), &["the husband"]), husband);
    assert_eq!(subjects_of(&mut s, &alice(), &["my husband Ben"]), husband);
    assert_eq!(s.people_show(&alice(), "husband").unwrap().name, "Ben");
}

#[test]
fn the_content_names_the_relation_it_is_about() {
    let mut s = service();
    let id = resolve_in(&mut s, &alice(), "my wife", Some("My wife Sarah loves hiking")).unwrap();
    let sarah = s.people_show(&alice(), "Sarah").unwrap();
    assert_eq!(sarah.id, id);
    assert_eq!(sarah.relation.as_deref(), Some("wife"));
    assert!(sarah.aliases.iter().any(|a| a == "my wife"));
    // Later mentions converge on her.
    assert_eq!(resolve_in(&mut s, &alice(), "wife", None).unwrap(), id);
    assert_eq!(
        resolve_in(&mut s, &alice(), "my wife", Some("My wife Sarah runs")).unwrap(),
        id
    );
    assert_eq!(names(&mut s, &alice()), ["Sarah"]);
}

#[test]
fn the_content_completes_a_stand_in() {
    let mut s = service();
    let boss = subjects_of(&mut s, &alice(), &["my boss"]);
    assert_eq!(names(&mut s, &alice()), ["my boss"]);
    let id = resolve_in(&mut s, &alice(), "boss", Some("My boss Mike is from Oslo")).unwrap();
    assert_eq!(vec![id], boss);
    let people = s.people_list(&alice()).unwrap();
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
    let anna = s.people_add(&alice(), "Anna", Some("wife"), &[]).unwrap();
    let id = resolve_in(&mut s, &alice(), "my wife", Some("My wife Sarah loves hiking")).unwrap();
    assert_eq!(id, anna.id, "a wife known by name stays who \"my wife\" is");
    assert_eq!(names(&mut s, &alice()), ["Anna"]);
    // Without a hint, or with content that names no one, nothing changes either.
    let id = resolve_in(&mut s, &alice(), "my wife", Some("She loves hiking")).unwrap();
    assert_eq!(id, anna.id);
}

#[test]
fn handles_resolve_to_the_named_person_and_are_kept_as_aliases() {
    let mut s = service();
    let bob_person = s.people_add(&alice(), "Bob", None, &[]).unwrap();
    assert_eq!(subjects_of(&mut s, &alice(), &["@bob"]), one(&bob_person.id));
    assert_eq!(s.people_show(&alice(), "@BOB").unwrap().id, bob_person.id);
    let carol = subjects_of(&mut s, &alice(), &["@carol"]);
    let shown = s.people_show(&alice(), &carol[0]).unwrap();
    assert_eq!(shown.name, "carol");
    assert!(shown.aliases.iter().any(|a| a == "@carol"));
    assert_eq!(subjects_of(&mut s, &alice(), &["@Carol"]), carol);
    assert_eq!(subjects_of(&mut s, &alice(), &["Carol"]), carol);
    assert_eq!(s.people_list(&alice()).unwrap().len(), 2);
}

#[test]
fn a_relation_of_someone_else_resolves_without_a_name() {
    let mut s = service();
    let brother = subjects_of(&mut s, &alice(), &["Sarah's brother"]);
    let sarah = s.people_show(&alice(), "Sarah").unwrap();
    assert_eq!(sarah.relationships, [(brother[0].clone(), "brother".to_owned())]);
    assert_eq!(s.people_show(&alice(), &brother[0]).unwrap().name, "Sarah's brother");
    // The same words find the same person, by edge or alias.
    assert_eq!(subjects_of(&mut s, &alice(), &["Sarah's brother"]), brother);
    assert_eq!(s.people_show(&alice(), "sarah's brother").unwrap().id, brother[0]);

    let wife = subjects_of(&mut s, &alice(), &["Sarah's brother's wife"]);
    assert_ne!(wife, brother);
    let shown = s.people_show(&alice(), &brother[0]).unwrap();
    assert_eq!(shown.relationships, [(wife[0].clone(), "wife".to_owned())]);
    assert_eq!(s.people_list(&alice()).unwrap().len(), 3);
    assert_eq!(subjects_of(&mut s, &alice(), &["Sarah's brother's wife"]), wife);

    // His name, once known, completes the stand-in rather than adding a second brother.
    assert_eq!(subjects_of(&mut s, &alice(), &["Sarah's brother Tom"]), brother);
    assert_eq!(s.people_show(&alice(), "Tom").unwrap().id, brother[0]);
    assert_eq!(s.people_list(&alice()).unwrap().len(), 3);
    assert_eq!(subjects_of(&mut s, &alice(), &["Tom's wife"]), wife);
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
            let add = s.add(&alice(), about("A fact", &[&deep])).map(|_| ());
            let show = s.people_show(&alice(), &deep).map(|_| ());
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
    subjects_of(&mut s, &alice(), &["A's b's c's d's e"]);
    assert!(matches!(
        s.add(&alice(), about("A fact", &["A's b's c's d's e's f"])),
        Err(Error::InvalidInput(_))
    ));
}

#[test]
fn ids_of_other_users_people_are_as_unknown_as_ids_that_never_existed() {
    let mut s = service();
    let sarah = subjects_of(&mut s, &alice(), &["my wife Sarah"]).remove(0);
    let never = "00000000-0000-4000-8000-999999999999";
    let before = (s.ports().file(Collection::People), s.ports().file(Collection::Memories));
    let mut messages = Vec::new();
    for id in [sarah.as_str(), never] {
        let errors = [
            s.add(&bob(), about("x", &[id])).map(|_| ()).unwrap_err(),
            s.people_show(&bob(), id).map(|_| ()).unwrap_err(),
            s.people_alias(&bob(), id, "Sis").map(|_| ()).unwrap_err(),
            s.people_merge(&bob(), id, "Someone").map(|_| ()).unwrap_err(),
        ];
        for e in &errors {
            assert!(matches!(e, Error::NotFound(_)), "{id}: {e:?}");
        }
        messages.push(errors.map(|e| e.to_string().replace(id, "ID")));
    }
    assert_eq!(messages[0], messages[1], "the answers do not tell the ids apart");
    assert_eq!(
        (s.ports().file(Collection::People), s.ports().file(Collection::Memories)),
        before
    );
    // The owner still resolves her own id.
    assert_eq!(subjects_of(&mut s, &alice(), &[&sarah]), one(&sarah));
}

#[test]
fn an_own_merged_person_shows_whom_they_were_merged_into() {
    let mut s = service();
    let sally = subjects_of(&mut s, &alice(), &["Sally"]).remove(0);
    let sarah = subjects_of(&mut s, &alice(), &["Sarah"]).remove(0);
    s.people_merge(&alice(), "Sarah", "Sally").unwrap();
    let shown = s.people_show(&alice(), &sally).unwrap();
    assert_eq!((shown.id.as_str(), shown.name.as_str()), (sarah.as_str(), "Sarah"));
    assert!(shown.aliases.iter().any(|a| a == "Sally"));
    assert_eq!(subjects_of(&mut s, &alice(), &[&sally]), one(&sarah));
    // Still nobody else's.
    assert!(matches!(s.people_show(&bob(), &sally), Err(Error::NotFound(_))));
}

#[test]
fn secrets_in_names_aliases_and_references_are_refused() {
    let mut s = service();
    let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let refused = |r: Result<Person, Error>| match r {
        Err(Error::SecretRefused(m)) => {
            assert!(
                m.starts_with("this looks like ") && m.ends_with("; secrets are never stored in memory"),
                "{m}"
            );
            assert!(!m.contains("ghp_") && !m.contains("hunter2"), "{m}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    };
    refused(s.people_add(&alice(), token, None, &[]));
    refused(s.people_add(&alice(), "Sarah", None, &["password is hunter2".to_owned()]));
    refused(s.people_add(&alice(), "Sarah", Some(token), &[]));
    assert_eq!(s.ports().file(Collection::People), "");
    s.people_add(&alice(), "Sarah", None, &[]).unwrap();
    let before = s.ports().file(Collection::People);
    refused(s.people_alias(&alice(), "Sarah", &format!("token {token}")));
    let err = s.add(&alice(), about("She is lovely", &[token])).unwrap_err();
    assert!(
        matches!(&err, Error::SecretRefused(m) if !m.contains("ghp_")),
        "{err:?}"
    );
    assert_eq!(s.ports().file(Collection::People), before);
    assert_eq!(s.ports().file(Collection::Memories), "");
}

#[test]
fn the_rule_context_names_a_memorys_subjects_and_scope() {
    let mut s = service();
    let m = s
        .add(&alice(), about("Her favorite color is purple", &["my wife Sarah"]))
        .unwrap()
        .memories
        .remove(0);
    let record = crate::record::MemoryRecord::parse(s.ports().file(Collection::Memories).trim()).unwrap();
    assert_eq!(record.id, m.id);
    let ctx = s.rule_context(&record, &HashMap::new());
    assert_eq!(
        (ctx.group, ctx.subject_names.as_slice()),
        (false, &["Sarah".to_owned()][..])
    );
    assert!(crate::supersession::rule_replaces(
        "Her favorite color is purple",
        "Her favorite color is yellow",
        &ctx
    ));
    let group = NewMemory {
        shared: true,
        ..NewMemory::text("Our standup time is 9am")
    };
    let m = s
        .add(&Caller::new(Some("alice"), Some("chat-1")), group)
        .unwrap()
        .memories
        .remove(0);
    let record = crate::record::MemoryRecord::parse(
        s.ports()
            .file(Collection::Memories)
            .lines()
            .find(|l| l.contains(&m.id))
            .unwrap(),
    )
    .unwrap();
    assert!(s.rule_context(&record, &HashMap::new()).group);
    // People resolved in the same add, not yet written, are named too.
    let mut pending = HashMap::new();
    let id = s
        .resolve_person_in(&alice(), "my brother Tom", None, STAMP, &mut pending)
        .unwrap();
    let mut record = record;
    record.subject_person_ids = vec![id];
    assert_eq!(s.rule_context(&record, &pending).subject_names, ["Tom"]);
}
