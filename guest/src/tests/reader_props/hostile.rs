//! Text a damaged file or a hostile caller hands a reader: any chars, lossy bytes, JSON-ish
//! fragments, and JSON values of the wrong type or out of every range.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::Value;

/// Text of any chars (proptest weights the generator toward unusual ones).
pub(super) fn text(max: usize) -> BoxedStrategy<String> {
    vec(any::<char>(), 0..max).prop_map(String::from_iter).boxed()
}

pub(super) fn nonempty_text(max: usize) -> BoxedStrategy<String> {
    vec(any::<char>(), 1..max).prop_map(String::from_iter).boxed()
}

/// Random bytes decoded the way a reader of a damaged file would.
pub(super) fn lossy(max: usize) -> BoxedStrategy<String> {
    vec(any::<u8>(), 0..max)
        .prop_map(|b| String::from_utf8_lossy(&b).into_owned())
        .boxed()
}

/// A JSON string literal.
pub(super) fn quoted(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

/// `n` opening brackets, closed or not.
pub(super) fn nest(n: usize, closed: bool) -> String {
    let mut s = "[".repeat(n);
    if closed {
        s.push_str(&"]".repeat(n));
    }
    s
}

/// Pieces that JSON-ish junk is made of.
pub(super) const FRAGMENTS: &[&str] = &[
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

pub(super) fn fragments() -> BoxedStrategy<String> {
    vec(select(FRAGMENTS), 0..40).prop_map(|v| v.concat()).boxed()
}

/// Raw JSON (or almost JSON) text for a field's value: wrong types, numbers out of every
/// range, NaN-likes, surrogates, undecodable embeddings, and timestamps at and past the
/// edges of what chrono and RFC 3339 allow.
pub(super) const HOSTILE: &[&str] = &[
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
pub(super) fn json_value() -> BoxedStrategy<Value> {
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
pub(super) fn hostile_value() -> BoxedStrategy<String> {
    prop_oneof![
        6 => select(HOSTILE).prop_map(str::to_owned),
        3 => json_value().prop_map(|v| v.to_string()),
        1 => (1usize..12_000, any::<bool>()).prop_map(|(n, closed)| nest(n, closed)),
        1 => fragments(),
    ]
    .boxed()
}
