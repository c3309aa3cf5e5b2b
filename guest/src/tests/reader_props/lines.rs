//! Record lines for the readers: memory and person records that parse, the ways of
//! damaging one, and anything a reader might be handed as one line.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use serde_json::Value;

use super::hostile::{fragments, hostile_value, json_value, lossy, nest, nonempty_text, quoted, text};
use crate::memory_type::MemoryType;
use crate::record::encode_embedding;

/// A well-formed RFC 3339 timestamp with any offset, within the years the service writes
/// (1970 to 9999) even in UTC; the edges and beyond are in `HOSTILE`.
pub(super) fn timestamp() -> BoxedStrategy<String> {
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
pub(super) fn id() -> BoxedStrategy<String> {
    prop_oneof![
        4 => select(&["a", "b", "c", "ü", "m 1", "00000000-0000-4000-8000-000000000001"][..]).prop_map(str::to_owned),
        1 => nonempty_text(8),
    ]
    .boxed()
}

/// A field list (name, raw JSON value) that makes an object.
pub(super) type Fields = Vec<(String, String)>;

pub(super) fn object(fields: &Fields) -> String {
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("{}:{v}", quoted(k))).collect();
    format!("{{{}}}", body.join(","))
}

pub(super) fn push_opt(fields: &mut Fields, name: &str, value: Option<String>) {
    if let Some(v) = value {
        fields.push((name.to_owned(), v));
    }
}

/// Fields no record knows, kept in `extra`.
pub(super) fn extra_fields() -> BoxedStrategy<Fields> {
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
pub(super) fn memory_fields() -> BoxedStrategy<Fields> {
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
pub(super) fn person_fields() -> BoxedStrategy<Fields> {
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

pub(super) const FIELD_NAMES: &[&str] = &[
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
pub(super) enum Mutation {
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

pub(super) fn mutation() -> BoxedStrategy<Mutation> {
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

pub(super) fn boundaries(s: &str) -> Vec<usize> {
    s.char_indices().map(|(i, _)| i).chain([s.len()]).collect()
}

/// The line with its field damage, then its text damage, applied in order.
pub(super) fn damaged(mut fields: Fields, mutations: &[Mutation]) -> String {
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
pub(super) fn any_line() -> BoxedStrategy<String> {
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

pub(super) fn full_memory_line() -> String {
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

pub(super) fn full_person_line() -> String {
    let line = serde_json::json!({
        "id": "p-1", "version": 1, "owner_user_id": "alice", "name": "Sarah Ö", "relation": "wife",
        "aliases": ["my wife", "S"], "created_at": "2026-01-01T00:00:00+00:00", "updated_at": null,
        "metadata": null, "relationships": [{ "person_id": "p-2", "relation": "brother" }],
        "merged_into": null, "future": 1
    });
    line.to_string()
}
