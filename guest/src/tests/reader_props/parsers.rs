//! Property 1: the parsers. Both record parsers take any line without panicking, and a
//! record they accept writes back to a line they accept again.

use proptest::prelude::*;
use serde_json::Value;

use super::config;
use super::hostile::{HOSTILE, nest, quoted};
use super::lines::{
    FIELD_NAMES, Fields, Mutation, any_line, boundaries, damaged, full_memory_line, full_person_line, memory_fields,
    object, person_fields,
};
use crate::people::PersonRecord;
use crate::record::{MemoryRecord, encode_embedding};

/// Both parsers on one line: no panic, and a record they accept writes back to a line
/// they accept again (or a rewrite of the collection would quarantine it).
fn check_parsers(line: &str) -> Result<(), TestCaseError> {
    if let Ok(record) = MemoryRecord::parse(line) {
        let _ = record.vector();
        let again = MemoryRecord::parse(&record.to_line());
        prop_assert!(again.is_ok(), "accepted {line:?} but not its rewrite: {again:?}");
    }
    if let Ok(person) = PersonRecord::parse(line) {
        let again = PersonRecord::parse(&person.to_line());
        prop_assert!(again.is_ok(), "accepted {line:?} but not its rewrite: {again:?}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn parsers_never_panic(line in any_line()) {
        check_parsers(&line)?;
    }

    #[test]
    fn generated_valid_lines_parse(memory in memory_fields(), person in person_fields()) {
        let m = MemoryRecord::parse(&object(&memory));
        prop_assert!(m.is_ok(), "{m:?}");
        let p = PersonRecord::parse(&object(&person));
        prop_assert!(p.is_ok(), "{p:?}");
    }
}

#[test]
fn every_truncation_of_a_valid_line_is_read_without_panic() {
    for line in [full_memory_line(), full_person_line()] {
        assert!(MemoryRecord::parse(&line).is_ok() || PersonRecord::parse(&line).is_ok());
        for cut in boundaries(&line) {
            check_parsers(&line[..cut]).unwrap();
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = [
        nest(10_000, false),
        nest(10_000, true),
        "{\"a\":".repeat(10_000),
        format!("{}1{}", "{\"a\":".repeat(10_000), "}".repeat(10_000)),
    ];
    for d in &deep {
        assert!(MemoryRecord::parse(d).is_err());
        assert!(PersonRecord::parse(d).is_err());
        for line in [full_memory_line(), full_person_line()] {
            for key in ["metadata", "future", "id", "version"] {
                let mut v: serde_json::Map<String, Value> = serde_json::from_str(&line).unwrap();
                v.insert(key.to_owned(), Value::Null);
                let line = serde_json::to_string(&v).unwrap();
                let line = line.replacen(&format!("{}:null", quoted(key)), &format!("{}:{d}", quoted(key)), 1);
                check_parsers(&line).unwrap();
            }
        }
    }
}

#[test]
fn hostile_values_in_every_field_are_read_without_panic() {
    for base in [full_memory_line(), full_person_line()] {
        let fields: Fields = serde_json::from_str::<serde_json::Map<String, Value>>(&base)
            .unwrap()
            .into_iter()
            .map(|(k, v)| (k, v.to_string()))
            .collect();
        for name in FIELD_NAMES {
            for value in HOSTILE {
                let line = damaged(fields.clone(), &[Mutation::Set(name, (*value).to_owned())]);
                check_parsers(&line).unwrap();
            }
        }
    }
}

#[test]
fn embeddings_that_do_not_decode_give_no_vector() {
    // Not base64, unpadded, and whole base64 of 5 and 6 bytes (not a number of f32s).
    for bad in ["AAA", "!!!!", "AACAPw", "====", "AAAAAAA=", "AAAAAAAA"] {
        let line = full_memory_line().replace(&quoted(&encode_embedding(&[0.25, -1.5])), &quoted(bad));
        if let Ok(record) = MemoryRecord::parse(&line) {
            assert_eq!(record.vector(), None, "{bad}");
        }
    }
}
