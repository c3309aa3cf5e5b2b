//! The context's past messages: found by words as well as by meaning, a question's reply
//! with it, and never from the current session or another caller's.

use super::{alice_alone, bob_alone, service};
use crate::api::*;
use crate::scope::Caller;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

fn turn(s: &mut MemoryService<FakePorts>, caller: &Caller, at: &str, session: &str, said: &[&str]) {
    *s.ports.now.borrow_mut() = at.into();
    s.persist_turn(
        caller,
        Turn {
            session: session.into(),
            provider: None,
            user_message: said[0].into(),
            assistant_message: said.get(1).map(|a| (*a).into()),
        },
    )
    .unwrap();
}

/// What the context for `message`, asked in session "now", shows of the past.
fn past(s: &mut MemoryService<FakePorts>, caller: &Caller, message: &str) -> Vec<String> {
    *s.ports.now.borrow_mut() = "2026-03-02T09:00:00+00:00".into();
    s.context(caller, message, None, Some("now"))
        .unwrap()
        .past_messages
        .into_iter()
        .map(|m| m.content)
        .collect()
}

#[test]
fn a_question_brings_its_reply_from_the_next_turn_or_the_agent() {
    let mut s = service();
    let alice = alice_alone();
    turn(
        &mut s,
        &alice,
        "2026-03-01T10:00:00+00:00",
        "trip",
        &["Have you ever been to Japan?"],
    );
    // Bob's turn and Alice's other session come between: neither is the reply.
    turn(
        &mut s,
        &bob_alone(),
        "2026-03-01T10:00:05+00:00",
        "trip",
        &["Bob has never left Europe"],
    );
    turn(
        &mut s,
        &alice,
        "2026-03-01T10:00:10+00:00",
        "errands",
        &["Buy oat milk"],
    );
    turn(
        &mut s,
        &alice,
        "2026-03-01T10:00:20+00:00",
        "trip",
        &["Yes, twice, and I would go back tomorrow"],
    );
    // Twenty minutes on: a new conversation, not the answer.
    turn(
        &mut s,
        &alice,
        "2026-03-01T11:00:00+00:00",
        "music",
        &["Is the cello hard to learn?"],
    );
    turn(
        &mut s,
        &alice,
        "2026-03-01T11:20:00+00:00",
        "music",
        &["The library opens at nine"],
    );
    // The agent's answer in the same turn.
    turn(
        &mut s,
        &alice,
        "2026-03-01T12:00:00+00:00",
        "dinner",
        &["Which wine goes with grilled fish?", "A dry Riesling, chilled"],
    );

    let japan = past(&mut s, &alice, "Has Ben visited Japan?");
    assert!(
        japan.contains(&"Yes, twice, and I would go back tomorrow".to_owned()),
        "{japan:?}"
    );
    assert!(
        !japan.iter().any(|m| m.contains("Europe") || m.contains("oat milk")),
        "{japan:?}"
    );
    let cello = past(&mut s, &alice, "Should I learn the cello?");
    assert!(!cello.iter().any(|m| m.contains("library")), "{cello:?}");
    let wine = past(&mut s, &alice, "What wine should I open for the grilled fish?");
    assert!(wine.contains(&"A dry Riesling, chilled".to_owned()), "{wine:?}");
}

#[test]
fn a_message_that_holds_a_rare_word_of_the_query_is_shown_however_far_its_meaning() {
    let mut s = service();
    let alice = alice_alone();
    let said = "We finally adopted the beagle from the shelter after weeks of forms, calls, visits and a long drive home; \
                Biscuit slept the whole way";
    turn(&mut s, &alice, "2026-03-01T10:00:00+00:00", "pets", &[said]);
    let asked = "Any news on Biscuit lately?";
    let vectors = s.embed_query(asked).0;
    let stored = s.messages.iter().next().unwrap().vector().unwrap();
    let similarity = crate::vectors::cosine(vectors.whole.as_deref().unwrap(), &stored);
    assert!(
        similarity < crate::service::past_messages::MIN_PAST_SIMILARITY,
        "the test needs a message far by meaning: {similarity}"
    );
    assert_eq!(past(&mut s, &alice, asked), [said]);
    // Not from the session the question is asked in.
    *s.ports.now.borrow_mut() = "2026-03-02T09:00:00+00:00".into();
    let same = s.context(&alice, asked, None, Some("pets")).unwrap();
    assert!(same.past_messages.is_empty(), "{:?}", same.past_messages);
    // Nor another caller's.
    assert!(past(&mut s, &bob_alone(), asked).is_empty());
    // With the embedder down, the words still find it, and nothing measures a similarity.
    s.ports.embedder_down.set(true);
    let block = s.context(&alice, asked, None, Some("now")).unwrap();
    let found: Vec<(&str, f32)> = block
        .past_messages
        .iter()
        .map(|m| (m.content.as_str(), m.score))
        .collect();
    assert_eq!(found, [(said, 0.0)]);
}

#[test]
fn a_name_most_messages_hold_is_left_out_of_the_query() {
    let mut s = service();
    let alice = alice_alone();
    let mut at = 0;
    let mut say = |s: &mut MemoryService<FakePorts>, text: &str| {
        at += 1;
        let time = format!("2026-03-01T10:{:02}:{:02}+00:00", at / 60, at % 60);
        turn(s, &alice, &time, "chat", &[text]);
    };
    for chatter in ["Hey", "Thanks", "Haha", "See you", "Morning", "Sweet", "Wow", "Fun"] {
        for _ in 0..3 {
            say(&mut s, &format!("Caroline: {chatter}!"));
        }
    }
    let painting = "Caroline: on Saturdays I paint landscapes by the lake";
    say(&mut s, painting);
    // 25 of 25 messages say Caroline: past 20, and more than 5% of them.
    let shown = past(&mut s, &alice, "What does Caroline paint?");
    assert_eq!(shown.first().map(String::as_str), Some(painting), "{shown:?}");
    // The vector list was asked with the query without her name.
    let asked = s.ports.knn_queries.borrow().last().unwrap().clone();
    let vectors = s.embed_query("What does Caroline paint?").0;
    assert_eq!(asked, vectors.without(&["caroline".to_owned()]).unwrap().vector);
}
