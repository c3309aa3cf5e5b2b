//! People: ids of other users' people are unknown, merges, secrets in names, and the
//! rule context that names a memory's subjects.

use std::collections::HashMap;

use super::{STAMP, alice_alone, bob_alone, one, service, subjects_of, with_subjects};
use crate::api::*;
use crate::ports::Collection;
use crate::scope::Caller;

#[test]
fn ids_of_other_users_people_are_as_unknown_as_ids_that_never_existed() {
    let mut s = service();
    let sarah = subjects_of(&mut s, &alice_alone(), &["my wife Sarah"]).remove(0);
    let never = "00000000-0000-4000-8000-999999999999";
    let before = (s.ports().file(Collection::People), s.ports().file(Collection::Memories));
    let mut messages = Vec::new();
    for id in [sarah.as_str(), never] {
        let errors = [
            s.add(&bob_alone(), with_subjects("x", &[id])).map(|_| ()).unwrap_err(),
            s.people_show(&bob_alone(), id).map(|_| ()).unwrap_err(),
            s.people_alias(&bob_alone(), id, "Sis").map(|_| ()).unwrap_err(),
            s.people_merge(&bob_alone(), id, "Someone").map(|_| ()).unwrap_err(),
        ];
        for e in &errors {
            assert!(matches!(e, Error::UnknownPerson(_)), "{id}: {e:?}");
        }
        messages.push(errors.map(|e| e.to_string().replace(id, "ID")));
    }
    assert_eq!(messages[0], messages[1], "the answers do not tell the ids apart");
    assert_eq!(
        (s.ports().file(Collection::People), s.ports().file(Collection::Memories)),
        before
    );
    // The owner still resolves her own id.
    assert_eq!(subjects_of(&mut s, &alice_alone(), &[&sarah]), one(&sarah));
}

#[test]
fn an_own_merged_person_shows_whom_they_were_merged_into() {
    let mut s = service();
    let sally = subjects_of(&mut s, &alice_alone(), &["Sally"]).remove(0);
    let sarah = subjects_of(&mut s, &alice_alone(), &["Sarah"]).remove(0);
    s.people_merge(&alice_alone(), "Sarah", "Sally").unwrap();
    let shown = s.people_show(&alice_alone(), &sally).unwrap();
    assert_eq!((shown.id.as_str(), shown.name.as_str()), (sarah.as_str(), "Sarah"));
    assert!(shown.aliases.iter().any(|a| a == "Sally"));
    assert_eq!(subjects_of(&mut s, &alice_alone(), &[&sally]), one(&sarah));
    // Still nobody else's.
    assert!(matches!(
        s.people_show(&bob_alone(), &sally),
        Err(Error::UnknownPerson(_))
    ));
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
    refused(s.people_add(&alice_alone(), token, None, &[]));
    refused(s.people_add(&alice_alone(), "Sarah", None, &["password is hunter2".to_owned()]));
    refused(s.people_add(&alice_alone(), "Sarah", Some(token), &[]));
    assert_eq!(s.ports().file(Collection::People), "");
    s.people_add(&alice_alone(), "Sarah", None, &[]).unwrap();
    let before = s.ports().file(Collection::People);
    refused(s.people_alias(&alice_alone(), "Sarah", &format!("token {token}")));
    let err = s
        .add(&alice_alone(), with_subjects("She is lovely", &[token]))
        .unwrap_err();
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
        .add(
            &alice_alone(),
            with_subjects("Her favorite color is purple", &["my wife Sarah"]),
        )
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
        .resolve_person_in(&alice_alone(), "my brother Tom", None, STAMP, &mut pending)
        .unwrap();
    let mut record = record;
    record.subject_person_ids = vec![id];
    assert_eq!(s.rule_context(&record, &pending).subject_names, ["Tom"]);
}
