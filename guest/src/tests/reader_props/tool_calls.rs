//! Property 3: tool-call arguments. Any call answers, a refused call writes nothing, and what
//! a call writes reads back whole.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::Value;

use super::config;
use super::hostile::{HOSTILE, fragments, json_value, lossy, nest, quoted, text};
use super::lines::{Fields, extra_fields, object};
use crate::api::Error;
use crate::collection::{Memories, People};
use crate::ports::Collection;
use crate::scope::Caller;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

/// Things people write as facts, including introductions, names and a secret.
const FACTS: &[&str] = &[
    "I like tea",
    "I prefer dark mode",
    "My wife's name is Sarah",
    "My boss is called Mike.",
    "Sarah is my wife",
    "Sarah’s brother Tom likes golf",
    "Sarah likes Italian food",
    "my password is hunter2",
    "My 's name is X",
    "is my",
    "My",
    " ",
    "Ö is my ß",
];

/// References to people, well-formed and not.
const REFS: &[&str] = &[
    "my wife",
    "Sarah",
    "my wife Sarah",
    "Sarah's brother Tom",
    "Sarah's brother",
    "Sarah's",
    "'s",
    "my",
    "my 's",
    "My Wife",
    "my wife's",
    "’s",
    "Ö's brother ß",
    "",
    " ",
];

fn string_or(pool: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    prop_oneof![select(pool).prop_map(quoted), text(max).prop_map(|t| quoted(&t))]
}

/// A field that is usually well typed, sometimes hostile, sometimes absent.
fn field(
    name: &'static str,
    present: f64,
    good: BoxedStrategy<String>,
) -> impl Strategy<Value = Option<(String, String)>> {
    option::weighted(
        present,
        prop_oneof![5 => good, 1 => wrong_type()].prop_map(move |v| (name.to_owned(), v)),
    )
}

/// A hostile value that is still JSON, so that the call gets as far as the field (text
/// that is not JSON at all is `tool_args`' other arms).
fn wrong_type() -> BoxedStrategy<String> {
    let json: Vec<&'static str> = HOSTILE
        .iter()
        .copied()
        .filter(|h| serde_json::from_str::<Value>(h).is_ok())
        .collect();
    prop_oneof![
        3 => select(json).prop_map(str::to_owned),
        1 => json_value().prop_map(|v| v.to_string()),
    ]
    .boxed()
}

fn subjects() -> BoxedStrategy<String> {
    let reference = prop_oneof![select(REFS).prop_map(str::to_owned), text(10)];
    vec(reference.prop_map(|r| quoted(&r)), 0..4)
        .prop_map(|v| format!("[{}]", v.join(",")))
        .boxed()
}

fn days() -> BoxedStrategy<String> {
    prop_oneof![
        4 => (1u32..=36_500).prop_map(|d| d.to_string()),
        1 => any::<u32>().prop_map(|d| d.to_string()),
    ]
    .boxed()
}

fn fact_fields() -> BoxedStrategy<Fields> {
    (
        field("content", 0.8, string_or(FACTS, 40).boxed()),
        field("subjects", 0.4, subjects()),
        field("expires_in_days", 0.3, days()),
        field("shared", 0.3, any::<bool>().prop_map(|b| b.to_string()).boxed()),
    )
        .prop_map(|(a, b, c, d)| [a, b, c, d].into_iter().flatten().collect())
        .boxed()
}

fn remember_args() -> BoxedStrategy<String> {
    let facts = vec(fact_fields().prop_map(|f| object(&f)), 0..4).prop_map(|v| format!("[{}]", v.join(",")));
    (fact_fields(), field("facts", 0.3, facts.boxed()), extra_fields())
        .prop_map(|(mut f, facts, extra)| {
            f.extend(facts);
            f.extend(extra);
            object(&f)
        })
        .boxed()
}

fn recall_args() -> BoxedStrategy<String> {
    (
        field("query", 0.9, string_or(FACTS, 30).boxed()),
        field("about", 0.4, string_or(REFS, 10).boxed()),
        extra_fields(),
    )
        .prop_map(|(q, a, extra)| {
            let mut f: Fields = [q, a].into_iter().flatten().collect();
            f.extend(extra);
            object(&f)
        })
        .boxed()
}

/// Big arrays of what fails validation early, so the case stays fast.
fn huge_args() -> impl Strategy<Value = String> {
    (0usize..4, 1000usize..20_000).prop_map(|(kind, n)| match kind {
        0 => format!("{{\"facts\":[{}]}}", vec!["1"; n].join(",")),
        1 => format!("{{\"facts\":[{}]}}", vec!["{\"content\":3}"; n].join(",")),
        2 => format!(
            "{{\"content\":\"I like tea\",\"subjects\":[{}]}}",
            vec!["null"; n].join(",")
        ),
        _ => format!("{{\"query\":[{}]}}", vec!["\"x\""; n].join(",")),
    })
}

/// A tool name and its arguments: mostly a well-shaped call with some fields wrong, else
/// anything at all.
fn tool_call() -> BoxedStrategy<(String, String)> {
    let other_name = prop_oneof![
        2 => select(&["remember", "recall"][..]).prop_map(str::to_owned),
        1 => select(&["", "REMEMBER", "remember\0", " recall", "forget"][..]).prop_map(str::to_owned),
        1 => text(12),
    ];
    let any_args = prop_oneof![
        2 => remember_args(),
        2 => recall_args(),
        2 => lossy(200),
        2 => fragments(),
        2 => json_value().prop_map(|v| v.to_string()),
        1 => (1usize..12_000, any::<bool>()).prop_map(|(n, closed)| nest(n, closed)),
        1 => (1usize..12_000).prop_map(|n| format!("{}1{}", "{\"content\":".repeat(n), "}".repeat(n))),
        1 => huge_args(),
    ];
    prop_oneof![
        4 => remember_args().prop_map(|a| ("remember".to_owned(), a)),
        3 => recall_args().prop_map(|a| ("recall".to_owned(), a)),
        3 => (other_name, any_args),
    ]
    .boxed()
}

fn callers() -> Vec<Caller> {
    vec![
        Caller::new(Some("alice"), Some("chat-1")),
        Caller::new(Some("alice"), None),
        Caller::new(None, Some("chat-1")),
        Caller::new(None, None),
    ]
}

/// Runs one tool call on a fresh service (optionally holding a few memories and a person
/// already), and checks that it answered, and that what it wrote reads back whole.
fn check_tool_call(caller: &Caller, name: &str, arguments: &str, seeded: bool) -> Result<(), TestCaseError> {
    let mut service = MemoryService::new(FakePorts::new());
    if seeded {
        let seed = r#"{"facts": [
            {"content": "My wife's name is Sarah"},
            {"content": "I like tea", "shared": true},
            {"content": "He plays golf on Sundays", "subjects": ["Sarah's brother Tom"], "expires_in_days": 30}
        ]}"#;
        service
            .tool_call(&Caller::new(Some("alice"), Some("chat-1")), "remember", seed)
            .expect("the seed is valid");
    }
    let files = |s: &MemoryService<FakePorts>| {
        [Collection::Memories, Collection::People, Collection::Archive].map(|c| s.ports().file(c))
    };
    let before = files(&service);
    let result = service.tool_call(caller, name, arguments);
    // A refused call writes nothing.
    if matches!(result, Err(Error::InvalidInput(_) | Error::SecretRefused(_))) {
        prop_assert_eq!(files(&service), before, "{:?} {:?} gave {:?}", name, arguments, result);
    }
    let is_object = serde_json::from_str::<Value>(arguments).is_ok_and(|v| v.is_object());
    if !matches!(name, "remember" | "recall") {
        prop_assert!(
            matches!(&result, Err(Error::UnknownTool(n)) if n == name),
            "{name:?} {arguments:?} gave {result:?}"
        );
    } else if !is_object {
        prop_assert!(
            matches!(result, Err(Error::InvalidInput(_))),
            "{name:?} {arguments:?} gave {result:?}"
        );
    }
    // Whatever was written reads back without a line set aside.
    prop_assert_eq!(Memories::default().refresh(service.ports()), Ok(0));
    prop_assert_eq!(People::default().refresh(service.ports()), Ok(0));
    let quarantined = service.ports().quarantined.borrow().clone();
    prop_assert!(
        quarantined.is_empty(),
        "{name:?} {arguments:?} wrote lines that do not read back: {quarantined:?}"
    );
    // And the service still answers.
    let after = service.tool_call(caller, "recall", r#"{"query": "tea Sarah"}"#);
    prop_assert!(
        after.is_ok() || caller.user_id.is_none() && caller.chat_id.is_none(),
        "{after:?}"
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn tool_calls_never_panic(
        caller in select(callers()),
        (name, arguments) in tool_call(),
        seeded in any::<bool>(),
    ) {
        check_tool_call(&caller, &name, &arguments, seeded)?;
    }
}

#[test]
fn a_subject_of_only_apostrophe_s_makes_a_person_that_reads_back() {
    let alice = Caller::new(Some("alice"), Some("chat-1"));
    for subject in ["’s", "'s", " 's "] {
        let mut service = MemoryService::new(FakePorts::new());
        let arguments = format!(r#"{{"content": "I like tea", "subjects": [{}]}}"#, quoted(subject));
        // Refusing the reference would do as well as naming the person.
        if service.tool_call(&alice, "remember", &arguments).is_ok() {
            assert_eq!(People::default().refresh(service.ports()), Ok(0), "{subject:?}");
            assert!(service.ports().quarantined.borrow().is_empty(), "{subject:?}");
        }
    }
}

#[test]
fn a_relation_without_a_name_resolves_without_endless_recursion() {
    // "Sarah's brother" (an owner and a relation, no name) must not make resolve_person
    // call itself on the same text without end. A stack overflow aborts the process and
    // cannot be caught, so the call runs in a child run of this test binary, and this test
    // fails when that child dies.
    const CHILD: &str = "ASH_READER_PROPS_CHILD";
    let subjects = ["Sarah's brother", "Ö's brother ß"];
    if let Some(i) = std::env::var_os(CHILD) {
        let subject = subjects[i.to_str().and_then(|i| i.parse::<usize>().ok()).unwrap_or(0)];
        let mut service = MemoryService::new(FakePorts::new());
        let arguments = format!(r#"{{"content": "I like tea", "subjects": [{}]}}"#, quoted(subject));
        let _ = service.tool_call(&Caller::new(Some("alice"), None), "remember", &arguments);
        return;
    }
    // This test's own name, as the test harness spells it: its path without the crate.
    let (_, module) = module_path!().split_once("::").unwrap();
    let name = format!("{module}::a_relation_without_a_name_resolves_without_endless_recursion");
    for (i, subject) in subjects.iter().enumerate() {
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", name.as_str(), "--test-threads=1"])
            .env(CHILD, i.to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(
            status.success(),
            "remembering a fact about {subject:?} killed the process: {status}"
        );
    }
}

#[test]
fn deep_and_huge_tool_arguments_are_refused_not_fatal() {
    let alice = Caller::new(Some("alice"), Some("chat-1"));
    let cases = [
        nest(10_000, false),
        nest(10_000, true),
        format!("{{\"content\":{}}}", nest(10_000, true)),
        format!("{{\"facts\":{}}}", nest(10_000, true)),
        format!("{{\"facts\":[{}]}}", vec!["1"; 100_000].join(",")),
        format!("{{\"facts\":[{}]}}", vec!["{}"; 100_000].join(",")),
        format!(
            "{{\"content\":\"I like tea\",\"subjects\":[{}]}}",
            vec!["7"; 100_000].join(",")
        ),
        format!("{{\"query\":\"tea\",\"about\":[{}]}}", vec!["\"x\""; 100_000].join(",")),
    ];
    for args in &cases {
        for name in ["remember", "recall"] {
            check_tool_call(&alice, name, args, false).unwrap();
        }
    }
}
