//! Property tests of everything that reads text from outside: the two record parsers, the
//! JSONL collection's fold-or-quarantine, and the tool-call argument handler. On any input
//! they return `Ok` or `Err`, never panic, and the collection never loses a line: each
//! non-blank line ends up either folded into the records or in the quarantine.
//!
//! Case counts are chosen so that the module stays within a few seconds in a debug build;
//! `PROPTEST_CASES` asks for a longer run and `PROPTEST_RNG_SEED` replays a failure.

use std::collections::{HashMap, HashSet};
use std::fmt::Debug;

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use serde::Serialize;
use serde_json::Value;

use crate::api::Error;
use crate::collection::{Memories, People, Record, Records};
use crate::memory_type::MemoryType;
use crate::people::{PERSON_VERSION, PersonRecord};
use crate::ports::Collection;
use crate::record::{MemoryRecord, RECORD_VERSION, encode_embedding};
use crate::scope::Caller;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        // `PROPTEST_CASES` asks for a longer run; the default keeps the module fast.
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(cases),
        // A failure is reported with its minimal input; nothing is written into the tree.
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------
// Building blocks.

/// Text of any chars (proptest weights the generator toward unusual ones).
fn text(max: usize) -> BoxedStrategy<String> {
    vec(any::<char>(), 0..max).prop_map(String::from_iter).boxed()
}

fn nonempty_text(max: usize) -> BoxedStrategy<String> {
    vec(any::<char>(), 1..max).prop_map(String::from_iter).boxed()
}

/// Random bytes decoded the way a reader of a damaged file would.
fn lossy(max: usize) -> BoxedStrategy<String> {
    vec(any::<u8>(), 0..max)
        .prop_map(|b| String::from_utf8_lossy(&b).into_owned())
        .boxed()
}

/// A JSON string literal.
fn quoted(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

/// `n` opening brackets, closed or not.
fn nest(n: usize, closed: bool) -> String {
    let mut s = "[".repeat(n);
    if closed {
        s.push_str(&"]".repeat(n));
    }
    s
}

/// Pieces that JSON-ish junk is made of.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "\"id\"",
    "\"version\"",
    "\"content\"",
    "\"memory_type\"",
    "\"embedding\"",
    "\"created_at\"",
    "\"name\"",
    "\"owner_user_id\"",
    "\"metadata\"",
    "\"extra\"",
    "1",
    "-0",
    "0.5",
    "1e999",
    "-1e999",
    "18446744073709551616",
    "NaN",
    "Infinity",
    "-Infinity",
    "null",
    "true",
    "false",
    "\"knowledge\"",
    "\"a\"",
    "\"2026-01-01T00:00:00Z\"",
    "\\u0000",
    "\\ud800",
    "\\uDFFF",
    "\\u",
    "\"\\ud83d\\ude00\"",
    " ",
    "\t",
    "\r",
    "\u{feff}",
    "\u{0}",
    "é",
    "😀",
    "\u{fffd}",
];

fn fragments() -> BoxedStrategy<String> {
    vec(select(FRAGMENTS), 0..40).prop_map(|v| v.concat()).boxed()
}

/// Raw JSON (or almost JSON) text for a field's value: wrong types, numbers out of every
/// range, NaN-likes, surrogates, undecodable embeddings, and timestamps at and past the
/// edges of what chrono and RFC 3339 allow.
const HOSTILE: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "-1",
    "1.0",
    "1.5",
    "-0",
    "2",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "1e308",
    "1e309",
    "-1e309",
    "1e-400",
    "123456789012345678901234567890",
    "NaN",
    "Infinity",
    "\"NaN\"",
    "\"-Infinity\"",
    "\"\"",
    "\" \"",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "\"\\udfff\\ud800\"",
    "[]",
    "{}",
    "[null]",
    "{\"\":null}",
    "[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]",
    "\"!!!!\"",
    "\"AAA\"",
    "\"AACAPw\"",
    "\"AAAAAAA=\"",
    "\"AACAPw==AACAPw==\"",
    "\"====\"",
    "\"10240-01-01T00:00:00Z\"",
    "\"+10240-01-01T00:00:00+00:00\"",
    "\"+275760-09-13T00:00:00Z\"",
    "\"-271821-04-20T00:00:00Z\"",
    "\"0000-01-01T00:00:00Z\"",
    "\"1969-12-31T23:59:59Z\"",
    "\"1970-01-01T00:00:00+00:01\"",
    "\"-0001-01-01T00:00:00Z\"",
    "\"9999-12-31T23:59:59-23:59\"",
    "\"0000-01-01T00:00:00+23:59\"",
    "\"2026-02-30T00:00:00Z\"",
    "\"2026-12-31T23:59:60Z\"",
    "\"2026-06-30T23:59:60.999999999Z\"",
    "\"2026-01-01T00:00:00.1234567891234Z\"",
    "\"2026-01-01T00:00:00+24:00\"",
    "\"2026-01-01 00:00:00\"",
    "\"2026-01-01T00:00:00\"",
    "\"yesterday\"",
    "\"preference\"",
    "\"PREFERENCE\"",
    "\"nonsense\"",
];

/// Any JSON value, a few levels deep.
fn json_value() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        text(12).prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..5).prop_map(Value::Array),
            vec((text(6), inner), 0..5).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
    .boxed()
}

/// Raw text for a field's value, mostly not what the field wants.
fn hostile_value() -> BoxedStrategy<String> {
    prop_oneof![
        6 => select(HOSTILE).prop_map(str::to_owned),
        3 => json_value().prop_map(|v| v.to_string()),
        1 => (1usize..12_000, any::<bool>()).prop_map(|(n, closed)| nest(n, closed)),
        1 => fragments(),
    ]
    .boxed()
}

/// A well-formed RFC 3339 timestamp with any offset, within the years the service writes
/// (1970 to 9999) even in UTC; the edges and beyond are in `HOSTILE`.
fn timestamp() -> BoxedStrategy<String> {
    let offset = prop_oneof![
        Just("Z".to_owned()),
        Just("+00:00".to_owned()),
        (0u32..24, 0u32..60, any::<bool>())
            .prop_map(|(h, m, neg)| format!("{}{h:02}:{m:02}", if neg { '-' } else { '+' })),
    ];
    let fraction =
        option::of((1usize..10, any::<u32>()).prop_map(|(n, d)| format!(".{:09}", d % 1_000_000_000)[..=n].to_owned()));
    (
        1971u32..=9998,
        1u32..=12,
        1u32..=28,
        0u32..24,
        0u32..60,
        0u32..60,
        fraction,
        offset,
    )
        .prop_map(|(y, mo, d, h, mi, s, frac, off)| {
            format!(
                "{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}{}{off}",
                frac.unwrap_or_default()
            )
        })
        .boxed()
}

/// Ids from a small pool, so that later lines replace earlier ones, or anything.
fn id() -> BoxedStrategy<String> {
    prop_oneof![
        4 => select(&["a", "b", "c", "ü", "m 1", "00000000-0000-4000-8000-000000000001"][..]).prop_map(str::to_owned),
        1 => nonempty_text(8),
    ]
    .boxed()
}

/// A field list (name, raw JSON value) that makes an object.
type Fields = Vec<(String, String)>;

fn object(fields: &Fields) -> String {
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("{}:{v}", quoted(k))).collect();
    format!("{{{}}}", body.join(","))
}

fn push_opt(fields: &mut Fields, name: &str, value: Option<String>) {
    if let Some(v) = value {
        fields.push((name.to_owned(), v));
    }
}

/// Fields no record knows, kept in `extra`.
fn extra_fields() -> BoxedStrategy<Fields> {
    vec(
        (
            text(8).prop_map(|k| format!("x_{k}")),
            json_value().prop_map(|v| v.to_string()),
        ),
        0..3,
    )
    .boxed()
}

/// The fields of a memory record that parses.
fn memory_fields() -> BoxedStrategy<Fields> {
    let required = (
        id(),
        nonempty_text(40),
        select(MemoryType::ALL.to_vec()),
        option::of(vec(any::<f32>(), 0..8)),
        timestamp(),
    );
    let optional = (
        option::of(timestamp()),
        option::of(text(10)),
        option::of(text(10)),
        option::of(vec(text(8), 0..3)),
        option::of(text(10)),
        option::of(any::<f64>()),
        option::of(timestamp()),
        option::of(timestamp()),
        option::of(text(10)),
        option::of(json_value()),
        option::of(text(10)),
    );
    (required, optional, extra_fields())
        .prop_map(|(r, o, extra)| {
            let (id, content, memory_type, embedding, created_at) = r;
            let (observed, owner, chat, subjects, source, confidence, expires, superseded, by, metadata, model) = o;
            let mut f: Fields = vec![
                ("id".into(), quoted(&id)),
                ("version".into(), "1".into()),
                ("content".into(), quoted(&content)),
                ("memory_type".into(), serde_json::to_string(&memory_type).unwrap()),
                (
                    "embedding".into(),
                    embedding.map_or("null".into(), |v| quoted(&encode_embedding(&v))),
                ),
                ("created_at".into(), quoted(&created_at)),
            ];
            push_opt(&mut f, "observed_at", observed.map(|t| quoted(&t)));
            push_opt(&mut f, "owner_user_id", owner.map(|t| quoted(&t)));
            push_opt(&mut f, "chat_id", chat.map(|t| quoted(&t)));
            push_opt(
                &mut f,
                "subject_person_ids",
                subjects.map(|s| Value::from(s).to_string()),
            );
            push_opt(&mut f, "source", source.map(|t| quoted(&t)));
            push_opt(
                &mut f,
                "extraction_confidence",
                confidence.map(|c| serde_json::Number::from_f64(c).map_or("null".into(), |n| n.to_string())),
            );
            push_opt(&mut f, "expires_at", expires.map(|t| quoted(&t)));
            push_opt(&mut f, "superseded_at", superseded.map(|t| quoted(&t)));
            push_opt(&mut f, "superseded_by_id", by.map(|t| quoted(&t)));
            push_opt(&mut f, "metadata", metadata.map(|v| v.to_string()));
            push_opt(&mut f, "embedding_model", model.map(|t| quoted(&t)));
            f.extend(extra);
            f
        })
        .boxed()
}

/// The fields of a person record that parses.
fn person_fields() -> BoxedStrategy<Fields> {
    (
        (
            id(),
            nonempty_text(8),
            (text(4), text(8)).prop_map(|(a, b)| format!("{a}N{b}")),
        ),
        (
            prop_oneof![timestamp(), text(10)],
            option::of(text(8)),
            option::of(vec(text(8), 0..3)),
            option::of(timestamp()),
            option::of(json_value()),
            option::of(vec((id(), text(8)), 0..3)),
            option::of(id()),
        ),
        extra_fields(),
    )
        .prop_map(|((id, owner, name), o, extra)| {
            let (created, relation, aliases, updated, metadata, relationships, merged) = o;
            let mut f: Fields = vec![
                ("id".into(), quoted(&id)),
                ("version".into(), "1".into()),
                ("owner_user_id".into(), quoted(&owner)),
                ("name".into(), quoted(&name)),
                ("created_at".into(), quoted(&created)),
            ];
            push_opt(&mut f, "relation", relation.map(|t| quoted(&t)));
            push_opt(&mut f, "aliases", aliases.map(|a| Value::from(a).to_string()));
            push_opt(&mut f, "updated_at", updated.map(|t| quoted(&t)));
            push_opt(&mut f, "metadata", metadata.map(|v| v.to_string()));
            let edges = relationships.map(|r| {
                let edges: Vec<Value> = r
                    .into_iter()
                    .map(|(p, rel)| serde_json::json!({ "person_id": p, "relation": rel }))
                    .collect();
                Value::from(edges).to_string()
            });
            push_opt(&mut f, "relationships", edges);
            push_opt(&mut f, "merged_into", merged.map(|t| quoted(&t)));
            f.extend(extra);
            f
        })
        .boxed()
}

const FIELD_NAMES: &[&str] = &[
    "id",
    "version",
    "content",
    "memory_type",
    "embedding",
    "created_at",
    "observed_at",
    "owner_user_id",
    "chat_id",
    "subject_person_ids",
    "source",
    "extraction_confidence",
    "expires_at",
    "superseded_at",
    "superseded_by_id",
    "archived_at",
    "archive_reason",
    "metadata",
    "embedding_model",
    "name",
    "relation",
    "aliases",
    "updated_at",
    "relationships",
    "merged_into",
];

/// One way of damaging a valid line.
#[derive(Debug, Clone)]
enum Mutation {
    /// Cut the line at a char boundary.
    Truncate(Index),
    /// Give a field (present or not) a hostile value.
    Set(&'static str, String),
    /// Drop a field.
    Remove(Index),
    /// Repeat a field's key with another value.
    Duplicate(Index, String),
    /// Bury the line in brackets.
    Wrap(usize),
    /// Insert junk at a char boundary.
    Insert(Index, String),
}

fn mutation() -> BoxedStrategy<Mutation> {
    prop_oneof![
        2 => any::<Index>().prop_map(Mutation::Truncate),
        5 => (select(FIELD_NAMES), hostile_value()).prop_map(|(k, v)| Mutation::Set(k, v)),
        1 => any::<Index>().prop_map(Mutation::Remove),
        1 => (any::<Index>(), hostile_value()).prop_map(|(i, v)| Mutation::Duplicate(i, v)),
        1 => (1usize..12_000).prop_map(Mutation::Wrap),
        1 => (any::<Index>(), fragments()).prop_map(|(i, s)| Mutation::Insert(i, s)),
    ]
    .boxed()
}

fn boundaries(s: &str) -> Vec<usize> {
    s.char_indices().map(|(i, _)| i).chain([s.len()]).collect()
}

/// The line with its field damage, then its text damage, applied in order.
fn damaged(mut fields: Fields, mutations: &[Mutation]) -> String {
    for m in mutations {
        match m {
            Mutation::Set(name, value) => match fields.iter_mut().find(|(k, _)| k == name) {
                Some(field) => field.1 = value.clone(),
                None => fields.push(((*name).to_owned(), value.clone())),
            },
            Mutation::Remove(i) if !fields.is_empty() => {
                fields.remove(i.index(fields.len()));
            }
            Mutation::Duplicate(i, value) if !fields.is_empty() => {
                let key = i.get(&fields).0.clone();
                fields.push((key, value.clone()));
            }
            _ => {}
        }
    }
    let mut line = object(&fields);
    for m in mutations {
        match m {
            Mutation::Truncate(i) => line.truncate(*i.get(&boundaries(&line))),
            Mutation::Wrap(n) => line = format!("{}{line}{}", "[".repeat(*n), "]".repeat(*n)),
            Mutation::Insert(i, junk) => line.insert_str(*i.get(&boundaries(&line)), junk),
            _ => {}
        }
    }
    line
}

/// Anything a reader might be handed as one line.
fn any_line() -> BoxedStrategy<String> {
    prop_oneof![
        2 => lossy(300),
        2 => fragments(),
        1 => text(80),
        1 => json_value().prop_map(|v| v.to_string()),
        1 => (1usize..12_000, any::<bool>()).prop_map(|(n, closed)| nest(n, closed)),
        1 => memory_fields().prop_map(|f| object(&f)),
        1 => person_fields().prop_map(|f| object(&f)),
        4 => (memory_fields(), vec(mutation(), 1..4)).prop_map(|(f, m)| damaged(f, &m)),
        3 => (person_fields(), vec(mutation(), 1..4)).prop_map(|(f, m)| damaged(f, &m)),
    ]
    .boxed()
}

// ---------------------------------------------------------------------------------------
// Property 1: the parsers.

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

fn full_memory_line() -> String {
    let line = serde_json::json!({
        "id": "m-ü", "version": 1, "content": "Sarah’s brother Tom likes golf 😀", "memory_type": "relationship",
        "embedding": encode_embedding(&[0.25, -1.5]), "created_at": "2026-02-09T10:00:00.123+05:30",
        "observed_at": "2026-02-08T00:00:00Z", "owner_user_id": "alice", "chat_id": null,
        "subject_person_ids": ["p-1", "p-2"], "source": "tool", "source_session_id": "s",
        "source_message_id": "m", "extraction_confidence": 0.75, "expires_at": "2027-01-01T00:00:00Z",
        "superseded_at": null, "superseded_by_id": null, "archived_at": null, "archive_reason": null,
        "metadata": { "k": [1, 2.5, "x"] }, "embedding_model": "fake-words", "future": { "x": [true] }
    });
    line.to_string()
}

fn full_person_line() -> String {
    let line = serde_json::json!({
        "id": "p-1", "version": 1, "owner_user_id": "alice", "name": "Sarah Ö", "relation": "wife",
        "aliases": ["my wife", "S"], "created_at": "2026-01-01T00:00:00+00:00", "updated_at": null,
        "metadata": null, "relationships": [{ "person_id": "p-2", "relation": "brother" }],
        "merged_into": null, "future": 1
    });
    line.to_string()
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

// ---------------------------------------------------------------------------------------
// Property 2: the collection folds or quarantines every line.

/// One line of a generated file, without its `\n`.
#[derive(Debug, Clone)]
struct Segment {
    text: String,
    /// Ends in `\r\n`.
    crlf: bool,
    /// Made by a generator of valid records, so it must not be quarantined.
    valid: bool,
}

impl Segment {
    /// The line exactly as the collection splits it out of the file.
    fn raw(&self) -> String {
        if self.crlf {
            format!("{}\r", self.text)
        } else {
            self.text.clone()
        }
    }
}

const BLANKS: &[&str] = &["", " ", "\t", "  \t ", "\u{a0}", "\u{3000}"];

fn segment(valid: BoxedStrategy<String>) -> impl Strategy<Value = Segment> {
    let line = prop_oneof![
        4 => valid.prop_map(|t| (t, true)),
        4 => any_line().prop_map(|t| (t, false)),
        1 => select(BLANKS).prop_map(|t| (t.to_owned(), false)),
    ];
    (line, any::<bool>()).prop_map(|((text, valid), crlf)| Segment {
        // A generated line holds no line break: that would make it two lines.
        text: text.replace('\n', " "),
        crlf,
        valid,
    })
}

/// A line without the `\r` of a `\r\n` ending, which a reader may or may not strip, and
/// so (to compare lines either way) without any `\r` at its end.
fn unterminated(line: &str) -> &str {
    line.trim_end_matches('\r')
}

fn file_of(segments: &[Segment], trailing_newline: bool) -> String {
    let mut text = segments.iter().map(Segment::raw).collect::<Vec<_>>().join("\n");
    if trailing_newline {
        text.push('\n');
    }
    text
}

/// Writes the segments as a file (in two appends when `split` is given, refreshing after
/// each), refreshes, and checks that no line was lost.
fn check_collection<T: Record + PartialEq + Debug + Serialize>(
    segments: &[Segment],
    trailing_newline: bool,
    split: Option<Index>,
) -> Result<(), TestCaseError> {
    let ports = FakePorts::new();
    let mut records = Records::<T>::default();
    let mut quarantined_by_refresh = 0;
    if let Some(split) = split {
        let k = split.index(segments.len() + 1);
        ports.write_raw(T::COLLECTION, &file_of(&segments[..k], k > 0));
        quarantined_by_refresh += records.refresh(&ports).expect("the fake never fails");
        ports.write_raw(T::COLLECTION, &file_of(&segments[k..], trailing_newline));
    } else {
        ports.write_raw(T::COLLECTION, &file_of(segments, trailing_newline));
    }
    quarantined_by_refresh += records.refresh(&ports).expect("the fake never fails");

    // What the file says: per id, the last line that parses; and the lines that do not.
    let mut last: HashMap<String, T> = HashMap::new();
    let mut first_seen: Vec<String> = Vec::new();
    let mut bad: Vec<String> = Vec::new();
    for s in segments {
        let raw = s.raw();
        if raw.trim().is_empty() {
            continue;
        }
        match T::parse(&raw) {
            Ok(r) => {
                if !last.contains_key(r.id()) {
                    first_seen.push(r.id().to_owned());
                }
                last.insert(r.id().to_owned(), r);
            }
            Err(e) => {
                prop_assert!(!s.valid, "a valid line was refused: {e}: {raw:?}");
                bad.push(unterminated(&raw).to_owned());
            }
        }
    }

    // Every line that does not parse is in the quarantine (in order), or else claims a newer
    // version and is still in the file (kept in place for a newer guest); the quarantine
    // holds nothing else.
    let current = match T::COLLECTION {
        Collection::People => PERSON_VERSION,
        _ => RECORD_VERSION,
    };
    let quarantined: Vec<String> = ports
        .quarantined
        .borrow()
        .iter()
        .map(|q| unterminated(q).to_owned())
        .collect();
    prop_assert_eq!(quarantined_by_refresh, quarantined.len() as u64);
    let file = ports.file(T::COLLECTION);
    let on_disk: HashSet<&str> = file.split('\n').map(unterminated).collect();
    let mut next = quarantined.iter().peekable();
    for line in &bad {
        if next.peek() == Some(&line) {
            next.next();
        } else {
            prop_assert!(
                claims_newer(line, current) && on_disk.contains(line.as_str()),
                "a line was neither folded in nor quarantined: {line:?}"
            );
        }
    }
    prop_assert_eq!(
        next.next(),
        None,
        "quarantined, yet not a bad line of the input (or out of order)"
    );
    // Every good line's id is present, holding the last line for that id.
    for id in &first_seen {
        prop_assert_eq!(records.get(id), last.get(id), "id {:?}", id);
    }
    let ids: Vec<&str> = records.iter().map(|r| r.id()).collect();
    prop_assert_eq!(ids, first_seen.iter().map(String::as_str).collect::<Vec<_>>());

    // Reading again, or afresh from what is now on disk, finds the same and sets nothing
    // more aside.
    let before: Vec<T> = records.iter().cloned().collect();
    prop_assert_eq!(records.refresh(&ports), Ok(0));
    prop_assert_eq!(&records.iter().cloned().collect::<Vec<_>>(), &before);
    let mut fresh = Records::<T>::default();
    prop_assert_eq!(fresh.refresh(&ports), Ok(0));
    let reread: Vec<T> = fresh.iter().cloned().collect();
    prop_assert!(
        reread.len() == before.len() && reread.iter().zip(&before).all(|(a, b)| same_but_float_bits(a, b)),
        "read afresh: {reread:?}\nin the cache: {before:?}"
    );
    prop_assert_eq!(ports.quarantined.borrow().len(), quarantined.len());
    Ok(())
}

/// Whether a line is an object whose `version` is newer than `current`, whatever else it
/// holds.
fn claims_newer(line: &str, current: u32) -> bool {
    #[derive(serde::Deserialize)]
    struct Versioned {
        version: u64,
    }
    line.trim_start().starts_with('{')
        && serde_json::from_str::<Versioned>(line).is_ok_and(|v| v.version > u64::from(current))
}

#[test]
fn lines_of_a_newer_version_are_kept_or_quarantined_never_dropped() {
    let newer = r#"{"id":"n","version":2,"content":"from a newer writer","shape":"unknown"}"#;
    let segments: Vec<Segment> = [full_memory_line().as_str(), newer, "junk", newer]
        .iter()
        .map(|t| Segment {
            text: (*t).to_owned(),
            crlf: false,
            valid: !t.contains("newer") && *t != "junk",
        })
        .collect();
    check_collection::<MemoryRecord>(&segments, true, None).unwrap();
    let person = full_person_line().replace(r#""version":1"#, r#""version":7"#);
    let segments = [Segment {
        text: person,
        crlf: true,
        valid: false,
    }];
    check_collection::<PersonRecord>(&segments, false, None).unwrap();
}

#[test]
fn a_bare_array_is_not_taken_for_a_newer_record() {
    for line in ["[2]", "[99]"] {
        let ports = FakePorts::new();
        ports.write_raw(Collection::Memories, &format!("{line}\n"));
        assert_eq!(Memories::default().refresh(&ports), Ok(1), "{line}");
        assert_eq!(*ports.quarantined.borrow(), [line]);
    }
}

/// Equal but for the last bits of floats, which serde_json (built without its
/// `float_roundtrip` feature) does not always read back as it wrote them: see
/// `floats_survive_a_rewrite_bit_for_bit`.
fn same_but_float_bits<T: Serialize>(a: &T, b: &T) -> bool {
    fn close(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => {
                x == y
                    || match (x.as_f64(), y.as_f64()) {
                        (Some(x), Some(y)) => (x - y).abs() <= x.abs().max(y.abs()) * 1e-15,
                        _ => false,
                    }
            }
            (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y)),
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| close(v, w)))
            }
            _ => a == b,
        }
    }
    match (serde_json::to_value(a), serde_json::to_value(b)) {
        (Ok(a), Ok(b)) => close(&a, &b),
        _ => false,
    }
}

#[test]
fn floats_survive_a_rewrite_bit_for_bit() {
    // Found by `memories_fold_or_quarantine_every_line`: the text reads as a float that
    // prints as ...976e217, which reads back as one that prints as ...977e217.
    let line = r#"{"id":"a","version":1,"content":"0","memory_type":"preference","embedding":null,"created_at":"2026-01-01T00:00:00Z","extraction_confidence":-8.476223393120978e+217,"metadata":[-8.476223393120978e+217],"x_":[-1.795995426942697e+188]}"#;
    let first = MemoryRecord::parse(line).unwrap();
    let second = MemoryRecord::parse(&first.to_line()).unwrap();
    assert_eq!(first, second);
}

fn memory_segments() -> impl Strategy<Value = Vec<Segment>> {
    vec(segment(memory_fields().prop_map(|f| object(&f)).boxed()), 0..24)
}

fn person_segments() -> impl Strategy<Value = Vec<Segment>> {
    vec(segment(person_fields().prop_map(|f| object(&f)).boxed()), 0..24)
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn memories_fold_or_quarantine_every_line(
        segments in memory_segments(),
        trailing_newline in any::<bool>(),
        split in option::of(any::<Index>()),
    ) {
        check_collection::<MemoryRecord>(&segments, trailing_newline, split)?;
    }

    #[test]
    fn people_fold_or_quarantine_every_line(
        segments in person_segments(),
        trailing_newline in any::<bool>(),
        split in option::of(any::<Index>()),
    ) {
        check_collection::<PersonRecord>(&segments, trailing_newline, split)?;
    }
}

#[test]
fn a_file_of_every_truncation_loses_no_line() {
    for (line, memory) in [(full_memory_line(), true), (full_person_line(), false)] {
        let segments: Vec<Segment> = boundaries(&line)
            .into_iter()
            .enumerate()
            .map(|(i, cut)| Segment {
                text: line[..cut].to_owned(),
                crlf: i % 3 == 0,
                valid: cut == line.len(),
            })
            .collect();
        for trailing_newline in [false, true] {
            if memory {
                check_collection::<MemoryRecord>(&segments, trailing_newline, None).unwrap();
            } else {
                check_collection::<PersonRecord>(&segments, trailing_newline, None).unwrap();
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Property 3: tool-call arguments.

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
    // Whatever was written reads back without a line set aside, but for the known finding
    // of `a_subject_of_only_apostrophe_s_makes_a_person_that_reads_back` (remove this
    // exception once it passes).
    prop_assert_eq!(Memories::default().refresh(service.ports()), Ok(0));
    let people_set_aside = People::default().refresh(service.ports());
    let quarantined = service.ports().quarantined.borrow().clone();
    prop_assert_eq!(people_set_aside, Ok(quarantined.len() as u64));
    for line in &quarantined {
        let nameless =
            serde_json::from_str::<Value>(line).is_ok_and(|p| p["name"].as_str().is_some_and(|n| n.trim().is_empty()));
        prop_assert!(
            nameless,
            "{name:?} {arguments:?} wrote a line that does not read back: {line}"
        );
    }
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
    // Found by `tool_calls_never_panic`.
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
    // Found by `tool_calls_never_panic`: "Sarah's brother" (an owner and a relation, no
    // name) made resolve_person call itself on the same text without end, a stack overflow
    // that aborted the process. A stack overflow cannot be caught, so the call runs in a
    // child run of this test binary, and this test fails when that child dies.
    const CHILD: &str = "ASH_READER_PROPS_CHILD";
    let subjects = ["Sarah's brother", "Ö's brother ß"];
    if let Some(i) = std::env::var_os(CHILD) {
        let subject = subjects[i.to_str().and_then(|i| i.parse::<usize>().ok()).unwrap_or(0)];
        let mut service = MemoryService::new(FakePorts::new());
        let arguments = format!(r#"{{"content": "I like tea", "subjects": [{}]}}"#, quoted(subject));
        let _ = service.tool_call(&Caller::new(Some("alice"), None), "remember", &arguments);
        return;
    }
    for (i, subject) in subjects.iter().enumerate() {
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "tests::reader_props::a_relation_without_a_name_resolves_without_endless_recursion",
                "--test-threads=1",
            ])
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
