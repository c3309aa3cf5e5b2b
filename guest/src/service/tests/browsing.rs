//! The browser's views: each memory's standing, and the conversations with the facts taken
//! from each turn, for the caller only.

use super::{alice_alone, bob_alone, service, with_subjects};
use crate::api::*;
use crate::conversation::Role;

#[test]
fn a_standing_names_the_people_and_the_turn_a_fact_came_from_and_only_for_its_caller() {
    let mut s = service();
    let alice = alice_alone();
    let told = s
        .add(&alice, with_subjects("Dinner with Sarah on Friday", &["Sarah"]))
        .unwrap()
        .memories[0]
        .id
        .clone();
    let said = s
        .persist_turn(
            &alice,
            Turn {
                session: "trip".into(),
                provider: None,
                user_message: "I am allergic to peanuts".into(),
                assistant_message: Some("Noted".into()),
            },
        )
        .unwrap()
        .message_ids;
    let extracted = s.extract(&alice, Some("trip")).unwrap().stored;
    assert_eq!(extracted.len(), 1, "the rules read the plain statement");
    let fact = extracted[0].id.clone();
    let deleted = s
        .add(&alice, NewMemory::text("The gate code changes weekly"))
        .unwrap()
        .memories[0]
        .id
        .clone();
    s.delete(&alice, &deleted).unwrap();

    let ids = vec![told.clone(), fact.clone(), deleted.clone(), "no-such-id".to_owned()];
    let standings = s.standings(&alice, &ids).unwrap();
    let shown: Vec<&str> = standings.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        shown,
        [told.as_str(), fact.as_str(), deleted.as_str()],
        "archived included, unknown left out"
    );
    assert_eq!(standings[0].subjects, ["Sarah"]);
    assert_eq!(standings[0].confidence, 1.0);
    assert_eq!(standings[0].session, None);
    assert!(
        !standings[0].fading,
        "a told fact is kept unless told facts are opted in"
    );
    assert_eq!(standings[1].session.as_deref(), Some("trip"));
    assert_eq!(
        standings[1].message.as_deref(),
        Some(said[0].as_str()),
        "the user's message"
    );
    assert_eq!(standings[1].turn, Some(1));
    assert!(standings[1].extraction_confidence.is_some());
    assert_eq!(
        standings[1].fading,
        crate::decay::decays(extracted[0].memory_type),
        "an extracted fact of a long-lived type fades unless recalled or confirmed"
    );
    s.confirm(&alice, &fact).unwrap();
    let confirmed = s.standings(&alice, std::slice::from_ref(&fact)).unwrap();
    assert!(confirmed[0].confirmed_at.is_some() && !confirmed[0].fading);

    assert!(
        s.standings(&bob_alone(), &ids).unwrap().is_empty(),
        "another user's ids read as unknown"
    );
    let too_many = vec![told; 1001];
    assert!(matches!(s.standings(&alice, &too_many), Err(Error::InvalidInput(_))));
}

#[test]
fn sessions_and_their_messages_are_the_callers_own_with_what_each_turn_gave() {
    let mut s = service();
    let alice = alice_alone();
    let in_chat = crate::scope::Caller::new(Some("alice"), Some("team"));
    for (caller, session, said) in [
        (&alice, "trip", "I am allergic to peanuts"),
        (&alice, "trip", "Thanks"),
        (&in_chat, "standup", "The deploy is on Monday"),
        (&bob_alone(), "trip", "I am vegan"),
    ] {
        s.persist_turn(
            caller,
            Turn {
                session: session.into(),
                provider: None,
                user_message: said.into(),
                assistant_message: Some("Noted".into()),
            },
        )
        .unwrap();
    }
    let stored = s.extract(&alice, Some("trip")).unwrap().stored;

    let mine = s.sessions(&alice).unwrap();
    assert_eq!(mine.len(), 1, "a chat's sessions are not the user's private ones");
    assert_eq!(
        (mine[0].name.as_str(), mine[0].turns, mine[0].extracted_turns),
        ("trip", 2, 2)
    );
    assert_eq!(s.sessions(&in_chat).unwrap()[0].name, "standup");

    let messages = s.session_messages(&alice, "trip").unwrap();
    let said: Vec<(u32, Role, &str)> = messages.iter().map(|m| (m.turn, m.role, m.content.as_str())).collect();
    assert_eq!(
        said,
        [
            (1, Role::User, "I am allergic to peanuts"),
            (1, Role::Assistant, "Noted"),
            (2, Role::User, "Thanks"),
            (2, Role::Assistant, "Noted"),
        ]
    );
    let ids: Vec<String> = stored.iter().map(|m| m.id.clone()).collect();
    assert_eq!(messages[0].extracted, ids);
    assert!(messages[1..].iter().all(|m| m.extracted.is_empty()));
    let bobs = s.session_messages(&bob_alone(), "trip").unwrap();
    assert_eq!(
        bobs[0].content, "I am vegan",
        "Bob's session of the same name is his own"
    );
    assert!(matches!(s.session_messages(&in_chat, "trip"), Err(Error::NotFound(_))));
    assert!(matches!(s.session_messages(&alice, " "), Err(Error::InvalidInput(_))));
}
