//! The agent tools: arguments are checked before anything is written.

use super::{alice, service};
use crate::api::*;
use crate::ports::Collection;

#[test]
fn tool_calls_validate_before_writing() {
    let mut s = service();
    let err = s
        .tool_call(
            &alice(),
            "remember",
            r#"{"facts": [{"content": "ok"}, {"content": 3}]}"#,
        )
        .unwrap_err();
    assert!(
        matches!(&err, Error::InvalidInput(m) if m.contains("facts[1].content")),
        "{err:?}"
    );
    assert_eq!(s.ports().file(Collection::Memories), "");
    let ok = s
        .tool_call(
            &alice(),
            "remember",
            r#"{"content": "I like tea", "expires_in_days": 3}"#,
        )
        .unwrap();
    assert_eq!(ok, "Remembered 1 fact.");
    let recalled = s.tool_call(&alice(), "recall", r#"{"query": "tea"}"#).unwrap();
    let id = "00000000-0000-4000-8000-000000000001";
    assert_eq!(recalled, format!("- I like tea (id {id})"));
}

#[test]
fn correct_replaces_what_recall_showed_and_only_for_its_owner() {
    let mut s = service();
    s.tool_call(&alice(), "remember", r#"{"content": "I live in Berlin"}"#)
        .unwrap();
    let id = s.list(&alice(), &Default::default()).unwrap()[0].id.clone();
    let bob = crate::scope::Caller::new(Some("bob"), None);
    let args = format!(r#"{{"id": "{id}", "content": "I live in Hamburg"}}"#);
    assert!(matches!(s.tool_call(&bob, "correct", &args), Err(Error::NotFound(_))));
    let answer = s.tool_call(&alice(), "correct", &args).unwrap();
    assert!(
        answer.starts_with("Corrected: \"I live in Hamburg\" replaces \"I live in Berlin\""),
        "{answer}"
    );
    let history = s.history(&alice(), &id).unwrap();
    let chain: Vec<&str> = history.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(chain, ["I live in Berlin", "I live in Hamburg"]);
    assert!(matches!(
        s.tool_call(&alice(), "correct", &args),
        Err(Error::InvalidInput(m)) if m.contains("already replaced")
    ));
    let missing = s.tool_call(&alice(), "correct", r#"{"id": "x"}"#);
    assert!(matches!(missing, Err(Error::InvalidInput(m)) if m.contains("content")));
}

#[test]
fn a_memory_changed_while_its_correction_was_embedded_is_not_corrected() {
    let mut s = service();
    let id = s.add(&alice(), NewMemory::text("I live in Berlin")).unwrap().memories[0]
        .id
        .clone();
    // Another process rewrites it while the embedder is asked without the home's lock.
    let line = s.ports().file(Collection::Memories).lines().last().unwrap().to_owned();
    let mut changed: serde_json::Value = serde_json::from_str(&line).unwrap();
    changed["content"] = "I live in Paris".into();
    let changed = changed.to_string();
    *s.ports().while_embedding.borrow_mut() = Some(Box::new(move |p: &crate::tests::fake::FakePorts| {
        crate::ports::Ports::append(p, Collection::Memories, std::slice::from_ref(&changed)).unwrap();
    }));
    let fix = Correction {
        content: "I live in Hamburg".into(),
        ..Default::default()
    };
    let err = s.correct(&alice(), &id, fix);
    assert!(
        matches!(&err, Err(Error::InvalidInput(m)) if m.contains("changed while")),
        "{err:?}"
    );
    *s.ports().while_embedding.borrow_mut() = None;
    let live: Vec<String> = s
        .list(&alice(), &Default::default())
        .unwrap()
        .into_iter()
        .map(|m| m.content)
        .collect();
    assert_eq!(
        live,
        ["I live in Paris"],
        "the other writer's version stands, uncorrected"
    );
}

#[test]
fn a_correction_with_the_same_words_changes_the_type_or_lifetime_and_nothing_else_is_restated() {
    let mut s = service();
    let id = s
        .add(&alice(), NewMemory::text("I moved to Porto last month"))
        .unwrap()
        .memories[0]
        .id
        .clone();
    let same = Correction {
        content: "I moved to Porto last month".into(),
        ..Default::default()
    };
    let restated = s.correct(&alice(), &id, same.clone()).unwrap();
    assert_eq!(
        restated.restated,
        std::slice::from_ref(&id),
        "the same words alone change nothing"
    );
    let typed = s
        .correct(
            &alice(),
            &id,
            Correction {
                memory_type: Some(crate::memory_type::MemoryType::Identity),
                ..same.clone()
            },
        )
        .unwrap();
    assert!(typed.restated.is_empty());
    let new = &typed.memories[0];
    assert_ne!(new.id, id);
    assert_eq!(new.memory_type, crate::memory_type::MemoryType::Identity);
    assert_eq!(s.history(&alice(), &new.id).unwrap().len(), 2, "history keeps both");
    let timed = s
        .correct(
            &alice(),
            &new.id,
            Correction {
                expires_in_days: Some(10),
                ..same
            },
        )
        .unwrap();
    assert!(timed.memories[0].expires_at.is_some());
    assert_eq!(
        timed.memories[0].memory_type,
        crate::memory_type::MemoryType::Identity,
        "the type stays"
    );
}
