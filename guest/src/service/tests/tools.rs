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
    assert_eq!(recalled, "- I like tea");
}
