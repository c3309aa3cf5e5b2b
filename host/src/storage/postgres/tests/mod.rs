//! The index on a real Postgres (the test harness's, from `tests/support`): what the
//! module promises beyond what the e2e suite can see through the component, namely the
//! word counts kept by every write and the bound on a full-text search's work.

use ash_memory_test_support::postgres::{self, PgServer};

use super::PgStorage;
use super::text_search::RECENT;
use crate::index::{Entry, EntryKind, IndexInfo, Marks, Revision, ScopeFilter};
use crate::storage::Storage;

mod made_after;
mod made_around;
mod marks;
mod newest;
mod recent;
mod records;
mod scopes;
mod text_search;

fn pg() -> Option<&'static PgServer> {
    postgres::server()
}

/// A storage on a fresh namespace with an empty index of 3 dimensions.
fn storage(pg: &PgServer, prefix: &str) -> (PgStorage, String) {
    let namespace = pg.namespace(prefix);
    let mut storage = PgStorage::connect(&pg.url(), &namespace).expect("connect");
    storage.begin(crate::home::Access::Write, None).expect("begin");
    storage
        .clear(&IndexInfo {
            model: "test".into(),
            dimension: 3,
        })
        .expect("clear");
    storage.commit().expect("commit");
    (storage, namespace)
}

fn entry(id: &str, user: &str, content: &str, embedding: Option<[f32; 3]>) -> Entry {
    Entry {
        kind: EntryKind::Memory,
        id: id.into(),
        content: content.into(),
        context: None,
        embedding: embedding.map(|v| v.to_vec()),
        owner_user_id: Some(user.into()),
        chat_id: None,
        record: Some(format!("{{\"id\":\"{id}\"}}")),
        marks: Marks::default(),
    }
}

/// An entry of `user` (or of chat `chat`) made at `made`, lapsing at `lapses`.
fn made_at(id: &str, user: &str, chat: Option<&str>, made: i64, lapses: Option<i64>) -> Entry {
    Entry {
        chat_id: chat.map(str::to_owned),
        marks: Marks {
            keys: Vec::new(),
            lapses,
            observed: 0,
            made,
        },
        ..entry(id, user, id, Some([1.0, 0.0, 0.0]))
    }
}

/// The SQLite index's case of `made-after` and `made-around` (`told_in_order` in its
/// tests): alice's a, b, c (at b's moment), lapsed, d and late, others' between them.
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

fn scope(user: &str) -> ScopeFilter {
    ScopeFilter {
        kind: EntryKind::Memory,
        user_id: Some(user.into()),
        chat_id: None,
    }
}

/// Runs `f` in one call's transaction and commits it.
fn call<T>(storage: &mut PgStorage, f: impl FnOnce(&mut PgStorage) -> T) -> T {
    storage.begin(crate::home::Access::Write, None).expect("begin");
    let out = f(storage);
    storage.commit().expect("commit");
    out
}

/// Lines of `lexeme n` where `lexemes` disagrees with a count made from `entries` now.
fn miscounted_words(pg: &PgServer, namespace: &str) -> String {
    pg.psql(&format!(
        "SET search_path TO ash_{namespace};
         SELECT coalesce(k.lexeme, r.lexeme), k.n, r.n
         FROM (SELECT lexeme, n FROM lexemes WHERE n <> 0) k
         FULL JOIN (SELECT lexeme, count(*) AS n FROM entries, unnest(tsvector_to_array(tsv)) lexeme
                    GROUP BY lexeme) r USING (lexeme)
         WHERE k.n IS DISTINCT FROM r.n"
    ))
}
