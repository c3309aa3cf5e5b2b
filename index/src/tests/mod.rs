//! The index against a real SQLite file with sqlite-vec.

use rusqlite::params;

use super::*;

/// The index over a real SQLite file.
type NativeIndex = SqliteIndex<NativeSqlite>;

impl NativeIndex {
    /// The connection itself, opened and with its tables made, to look at or tamper with.
    fn raw(&mut self) -> &mut rusqlite::Connection {
        self.conn().unwrap();
        self.db.connection()
    }
}

mod common_terms;
mod file;
mod made_after;
mod made_around;
mod marks;
mod newest;
mod one_shot;
mod prepared;
mod recent;
mod records;
mod scan;
mod search;
mod snapshot;
mod write;

fn entry(id: &str, content: &str, v: Vec<f32>, user: &str) -> Entry {
    Entry {
        kind: EntryKind::Memory,
        id: id.into(),
        content: content.into(),
        context: None,
        embedding: Some(v),
        owner_user_id: Some(user.into()),
        chat_id: None,
        record: Some(format!("{{\"id\":\"{id}\"}}")),
        marks: Marks::default(),
    }
}

fn marks_of(keys: &[&str], lapses: Option<i64>) -> Marks {
    Marks {
        keys: keys.iter().map(|k| k.to_string()).collect(),
        lapses,
        observed: 0,
        made: 0,
    }
}

fn revision(id: &str, record: &str, marks: Marks) -> Revision {
    Revision {
        id: id.into(),
        record: record.into(),
        marks,
    }
}

/// An entry of `user` (or of chat `chat`) made at `made`, lapsing at `lapses`.
fn made_at(id: &str, user: &str, chat: Option<&str>, made: i64, lapses: Option<i64>) -> Entry {
    Entry {
        chat_id: chat.map(str::to_owned),
        marks: Marks {
            made,
            ..marks_of(&[], lapses)
        },
        ..entry(id, id, vec![1.0, 0.0], user)
    }
}

/// Alice's memories a, b, c (made at b's moment, indexed after it), lapsed (lapsing at
/// 260), d and late (at 5,000), with other scopes' memories and a message made between
/// them: the case of `made-after` and `made-around` (Postgres's tests store the same).
fn told_in_order() -> Vec<Entry> {
    let mut message = made_at("m1", "alice", None, 250, None);
    message.kind = EntryKind::Message;
    message.record = None;
    vec![
        made_at("a", "alice", None, 100, None),
        made_at("b", "alice", None, 200, None),
        made_at("c", "alice", None, 200, None),
        made_at("lapsed", "alice", None, 250, Some(260)),
        made_at("d", "alice", None, 300, None),
        made_at("group", "alice", Some("chat"), 120, None),
        made_at("group2", "alice", Some("chat"), 130, None),
        made_at("b2", "bob", None, 210, None),
        message,
        made_at("late", "alice", None, 5_000, None),
    ]
}

/// An empty index for model "m" at this dimension, in a folder kept while it lives.
fn fresh_index(dimension: u32) -> (tempfile::TempDir, NativeIndex) {
    let dir = tempfile::tempdir().unwrap();
    let mut index = SqliteIndex::new(dir.path().join("i.db"));
    index
        .clear(&IndexInfo {
            model: "m".into(),
            dimension,
        })
        .unwrap();
    (dir, index)
}

fn alice() -> ScopeFilter {
    ScopeFilter {
        kind: EntryKind::Memory,
        user_id: Some("alice".into()),
        chat_id: None,
    }
}

/// The ids whose text matches `term` for alice, sorted.
fn texts(index: &mut NativeIndex, term: &str) -> Vec<String> {
    let mut ids: Vec<String> = index
        .text_search(&[term.into()], 50, &alice())
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect();
    ids.sort();
    ids
}

/// A deterministic pseudo-random vector (xorshift), so that the test needs no crate.
fn noise(seed: u64, dimension: usize) -> Vec<f32> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..dimension)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 2001) as f32 / 1000.0 - 1.0
        })
        .collect()
}

/// The ids `knn` finds for alice, best first.
fn knn_ids(index: &mut NativeIndex, query: &[f32], k: u32) -> Vec<String> {
    index
        .knn(query, k, &alice())
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect()
}

/// sqlite-vec's own exact knn over the stored vectors, the reference the scan must match.
fn sqlite_vec_knn(index: &mut NativeIndex, query: &[f32], k: u32, key: &str) -> Vec<String> {
    let conn = index.raw();
    let mut stmt = conn
        .prepare(
            "SELECT items.id FROM
               (SELECT rowid, distance FROM vecs WHERE embedding MATCH ?1 AND k = ?2 AND scope = ?3) v
             JOIN items ON items.rowid = v.rowid ORDER BY v.distance",
        )
        .unwrap();
    stmt.query_map(params![f32_bytes(query), k, key], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// sqlite-vec's knn as (id, score), scored as `SqliteIndex::sqlite_vec_knn` scores it.
fn sqlite_vec_scores(index: &mut NativeIndex, query: &[f32], k: u32, key: &str) -> Vec<(String, f32)> {
    let conn = index.raw();
    let mut stmt = conn
        .prepare(
            "SELECT items.id, v.distance FROM
               (SELECT rowid, distance FROM vecs WHERE embedding MATCH ?1 AND k = ?2 AND scope = ?3) v
             JOIN items ON items.rowid = v.rowid ORDER BY v.distance",
        )
        .unwrap();
    stmt.query_map(params![f32_bytes(query), k, key], |r| {
        Ok((r.get(0)?, 1.0 - r.get::<_, f64>(1)? as f32))
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

/// Alice alone, or Alice in chat `c1`.
fn alice_in(chat: Option<&str>) -> ScopeFilter {
    ScopeFilter {
        chat_id: chat.map(String::from),
        ..alice()
    }
}
