//! The weekly reflection: due only with 3 new facts and 6 days after the last, fail
//! closed on a bad or missing answer, and shown in the context.

use super::{alice_alone, bob_alone, service};
use crate::api::*;
use crate::memory_type::MemoryType;
use crate::service::{MemoryService, Reflection};
use crate::tests::fake::FakePorts;

fn at(s: &MemoryService<FakePorts>, t: &str) {
    *s.ports().now.borrow_mut() = t.to_owned();
}

fn skipped(r: Reflection) -> String {
    match r {
        Reflection::Skipped(why) => why,
        other => panic!("expected a skip, got {other:?}"),
    }
}

#[test]
fn a_reflection_is_written_weekly_from_the_users_own_facts() {
    let mut s = service();
    at(&s, "2026-03-01T12:00:00+00:00");
    s.add(&alice_alone(), NewMemory::text("I started learning the cello"))
        .unwrap();
    s.add(&alice_alone(), NewMemory::text("I ran 10 kilometers on Sunday"))
        .unwrap();
    s.add(&bob_alone(), NewMemory::text("Bob's fact stays his")).unwrap();
    *s.ports().llm_answer.borrow_mut() = Some("The user took up the cello and kept running.".into());
    assert!(skipped(s.reflect(&alice_alone()).unwrap()).contains("2 new fact(s)"));
    assert_eq!(s.ports().llm_calls.get(), 0, "no call when none is due");

    s.add(&alice_alone(), NewMemory::text("I booked a trip to Porto"))
        .unwrap();
    let calls = s.ports().llm_calls.get();
    let Reflection::Written(m) = s.reflect(&alice_alone()).unwrap() else {
        panic!("not written")
    };
    assert_eq!(s.ports().llm_calls.get(), calls + 1);
    assert_eq!(
        (m.memory_type, m.source.as_str()),
        (MemoryType::Reflection, "reflection")
    );
    assert_eq!(m.content, "The user took up the cello and kept running.");
    assert_eq!(m.owner_user_id.as_deref(), Some("alice"));
    let context = s
        .context(&alice_alone(), "What have I been up to?", None, None)
        .unwrap();
    assert!(
        context.markdown.contains("## Recent Reflection")
            && context
                .markdown
                .contains("written on 2026-03-01:\n\nThe user took up the cello"),
        "{}",
        context.markdown
    );
    assert!(
        !s.context(&bob_alone(), "What have I been up to?", None, None)
            .unwrap()
            .markdown
            .contains("cello")
    );

    // Not again within 6 days, whatever was added.
    at(&s, "2026-03-05T12:00:00+00:00");
    for f in ["I fixed the bike", "I read a novel", "I planted tomatoes"] {
        s.add(&alice_alone(), NewMemory::text(f)).unwrap();
    }
    assert!(skipped(s.reflect(&alice_alone()).unwrap()).contains("the next is due from 2026-03-07"));
    at(&s, "2026-03-08T12:00:00+00:00");
    assert!(matches!(s.reflect(&alice_alone()).unwrap(), Reflection::Written(_)));
}

#[test]
fn a_missing_or_unusable_answer_writes_nothing() {
    let mut s = service();
    for f in ["I like tea", "I like jazz", "I like hiking"] {
        s.add(&alice_alone(), NewMemory::text(f)).unwrap();
    }
    let before = s.list(&alice_alone(), &ListOptions::default()).unwrap().len();
    assert!(skipped(s.reflect(&alice_alone()).unwrap()).contains("no language model answered"));
    for answer in ["   ", "The user's password is hunter2hunter2", &"long ".repeat(400)] {
        *s.ports().llm_answer.borrow_mut() = Some(answer.to_owned());
        let why = skipped(s.reflect(&alice_alone()).unwrap());
        assert!(why.contains("not kept") || why.contains("longer than"), "{why}");
    }
    assert_eq!(s.list(&alice_alone(), &ListOptions::default()).unwrap().len(), before);
    assert!(matches!(
        s.reflect(&crate::scope::Caller::new(None, Some("chat-1"))),
        Err(Error::InvalidInput(_))
    ));
}

#[test]
fn a_reflection_never_replaces_what_the_user_said() {
    let mut s = service();
    for f in ["I adopted a cat named Tom", "I like jazz", "I run every morning"] {
        s.add(&alice_alone(), NewMemory::text(f)).unwrap();
    }
    // Every candidate close enough, and a model that answers yes to everything.
    s.ports().settings.borrow_mut().supersession_threshold = 0.0;
    *s.ports().llm_answer.borrow_mut() = Some("Yes.".into());
    assert!(matches!(s.reflect(&alice_alone()).unwrap(), Reflection::Written(_)));
    let live = s.list(&alice_alone(), &ListOptions::default()).unwrap();
    assert_eq!(live.len(), 4, "{live:?}");
    assert!(live.iter().all(|m| m.superseded_by_id.is_none()));
}
