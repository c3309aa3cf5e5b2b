"""The index's records, on SQLite alone (no component): what upsert keeps of each entry, what
fetch hands back, set_records, the pending count per kind, marks (tally and holding), and a
file from an older version whose items table has no record columns."""

from __future__ import annotations

import math
import sqlite3
import struct
from pathlib import Path

import pytest

from ash_memory.index import OLDER_VERSION, Entry, IndexUnavailable, SqliteIndex, coarse_code


def ids(hits: list[tuple[str, float]]) -> list[str]:
    return [i for i, _ in hits]


@pytest.fixture
def index(tmp_path: Path):
    """An index for 2-dimensional vectors holding two memories, one of them pending, and a
    message."""
    index = SqliteIndex(tmp_path / "memory.db")
    index.clear("m", 2)
    index.upsert([
        Entry("mem-1", "peanut allergy", [0.5, 0.25], "alice", None, "memory", '{"id":"mem-1"}'),
        Entry("mem-2", "peanut butter jar", None, None, "team", "memory", '{"id":"mem-2"}'),
        Entry("msg-1", "peanut sauce", [1.0, 0.0], "alice", None, "message"),
    ])
    yield index
    index.close()


def test_upsert_keeps_records_and_marks_entries_without_a_vector_pending(index: SqliteIndex, tmp_path: Path):
    with sqlite3.connect(tmp_path / "memory.db") as db:
        rows = db.execute("SELECT id, scope, pending, record FROM items ORDER BY id").fetchall()
        # The Rust host's chunk size, not sqlite-vec's default of 1024: one chunk for each
        # scope that holds a vector.
        chunks = db.execute("SELECT size, count(*) FROM vecs_chunks GROUP BY size").fetchall()
    assert chunks == [(128, 2)]
    assert rows == [
        ("mem-1", "u:alice", 0, '{"id":"mem-1"}'),
        ("mem-2", "c:team", 1, '{"id":"mem-2"}'),
        ("msg-1", "mu:alice", 0, None),
    ]
    assert (index.pending("memory"), index.pending("message")) == (1, 0)

    # A vector without a direction is not stored: the entry stays pending.
    index.upsert([Entry("msg-2", "peanut", [0.0, 0.0], "alice", None, "message")])
    assert (index.pending("memory"), index.pending("message")) == (1, 1)
    # Its vector arrives: no longer pending; a new record replaces the old.
    index.upsert([Entry("mem-2", "peanut butter jar", [0.0, 1.0], None, "team", "memory", '{"id":"mem-2","v":2}')])
    assert (index.pending("memory"), index.pending("message")) == (0, 1)
    assert index.fetch(["mem-2"]) == [("mem-2", '{"id":"mem-2","v":2}', [0.0, 1.0])]
    # And an entry can lose its vector and its record again.
    index.upsert([Entry("mem-1", "peanut allergy", None, "alice", None, "memory")])
    assert index.pending("memory") == 1
    assert index.fetch(["mem-1"]) == []
    assert (index.count("memory"), index.count("message")) == (2, 2)


def test_fetch_gives_records_and_vectors_in_the_order_asked(index: SqliteIndex):
    assert index.fetch(["mem-2", "nobody", "msg-1", "mem-1"]) == [
        ("mem-2", '{"id":"mem-2"}', None),
        ("mem-1", '{"id":"mem-1"}', [0.5, 0.25]),
    ]
    assert index.fetch(["mem-1", "mem-1"]) == [("mem-1", '{"id":"mem-1"}', [0.5, 0.25])] * 2
    assert index.fetch([]) == []


def test_set_records_changes_the_record_and_nothing_searched(index: SqliteIndex, tmp_path: Path):
    knn = index.knn([1.0, 0.5], 10, "alice", "team", "memory")
    found = index.text_search(["peanut"], 10, "alice", "team", "memory")
    assert ids(knn) == ["mem-1"] and sorted(ids(found)) == ["mem-1", "mem-2"]

    index.set_records([
        ("mem-1", '{"id":"mem-1","accessed":1}', [], None, 0, 7),
        ("nobody", "{}", [], None, 0, 0),
        ("msg-1", '{"m":1}', [], None, 0, 0),
    ])
    assert index.fetch(["mem-1", "msg-1", "nobody"]) == [
        ("mem-1", '{"id":"mem-1","accessed":1}', [0.5, 0.25]),
        ("msg-1", '{"m":1}', [1.0, 0.0]),
    ]
    assert index.knn([1.0, 0.5], 10, "alice", "team", "memory") == knn
    assert index.text_search(["peanut"], 10, "alice", "team", "memory") == found
    assert (index.count("memory"), index.pending("memory")) == (2, 1)
    with sqlite3.connect(tmp_path / "memory.db") as db:
        assert db.execute("SELECT count(*) FROM items WHERE id = 'nobody'").fetchone() == (0,)
        assert db.execute("SELECT scope, pending, made FROM items WHERE id = 'mem-1'").fetchone() == ("u:alice", 0, 7)
    index.set_records([])


def test_an_index_from_an_older_version_is_unavailable_until_cleared(tmp_path: Path):
    path = tmp_path / "memory.db"
    # An older version's file: its items table has no pending or record column.
    made = SqliteIndex(path)
    made.clear("m", 2)
    made.upsert([Entry("mem-1", "peanut allergy", [1.0, 0.0], "alice", None, "memory", "{}")])
    conn = made.conn()
    conn.execute("DROP TABLE items")
    conn.execute("CREATE TABLE items (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, scope TEXT NOT NULL)")
    conn.execute("CREATE INDEX items_scope ON items (scope)")
    conn.execute("INSERT INTO items (rowid, id, scope) VALUES (1, 'mem-1', 'u:alice')")
    made.close()

    index = SqliteIndex(path)
    with pytest.raises(IndexUnavailable, match="older version"):
        index.info()
    with pytest.raises(IndexUnavailable) as e:
        index.upsert([Entry("mem-2", "x", None, "alice", None, "memory", "{}")])
    assert str(e.value) == OLDER_VERSION

    index.clear("m", 2)
    assert index.info() == ("m", 2)
    assert index.count("memory") == 0
    index.upsert([Entry("mem-2", "peanut", None, "alice", None, "memory", '{"id":"mem-2"}')])
    assert index.fetch(["mem-2"]) == [("mem-2", '{"id":"mem-2"}', None)]
    assert index.pending("memory") == 1
    index.close()
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM pragma_table_info('items')")}
        assert {"pending", "record"} <= names
        assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'items_pending'").fetchone() == (1,)


def test_clear_replaces_an_older_table_even_when_the_file_is_otherwise_sound(tmp_path: Path):
    # The same older table, cleared straight away through an open connection.
    path = tmp_path / "memory.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE items (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, scope TEXT NOT NULL)")
        db.execute("INSERT INTO items (id, scope) VALUES ('mem-1', 'u:alice')")
    db.close()
    index = SqliteIndex(path)
    assert index.info() is None
    index.clear("m", 3)
    assert (index.info(), index.count("memory"), index.pending("memory")) == (("m", 3), 0, 0)
    index.close()


def test_marks_count_and_fetch_the_live_holders_of_a_scope_and_follow_every_write(tmp_path: Path):
    # The Rust host's case (host/src/index/tests/marks.rs), on this host's index.
    index = SqliteIndex(tmp_path / "memory.db")
    index.clear("m", 2)

    def entry(id_: str, user: str, chat: str | None, keys: list[str], lapses: int | None) -> Entry:
        return Entry(id_, id_, [1.0, 0.5], user, chat, "memory", f'{{"id":"{id_}"}}', keys, lapses)

    def held(keys: list[str], chat: str | None, now: int) -> list[str]:
        found = index.holding(keys, "alice", chat, now)
        assert all(r == f'{{"id":"{i}"}}' and v == [1.0, 0.5] for i, r, v in found)
        return sorted(i for i, _, _ in found)

    index.upsert([
        entry("a", "alice", None, ["subject:ana", "entity:lisbon"], None),
        entry("b", "alice", None, ["entity:lisbon"], 100),
        entry("c", "bob", None, ["subject:ana", "entity:lisbon"], None),
        entry("d", "alice", "c1", ["entity:lisbon"], None),
        entry("e", "alice", None, [], None),
    ])
    keys = ["entity:lisbon", "subject:ana", "entity:nowhere"]
    assert index.tally(keys, "alice", None, 50) == (3, [2, 1, 0])
    assert index.tally(keys, "alice", None, 100) == (2, [1, 1, 0]), "b lapses at 100"
    assert index.tally(keys, "alice", "c1", 50) == (4, [3, 1, 0])
    assert index.tally(keys, "alice", None, 50, "message") == (0, [0, 0, 0])
    assert held(["entity:lisbon"], None, 50) == ["a", "b"]
    assert held(["entity:lisbon"], None, 100) == ["a"]
    assert held(["subject:ana", "entity:lisbon"], None, 50) == ["a", "b"]
    assert held(["subject:ana"], "c1", 50) == ["a"], "never Bob's"

    # Written again with the same marks (an access, a replay): they stay.
    index.set_records([("a", '{"id":"a"}', ["subject:ana", "entity:lisbon"], None, 0, 0)])
    index.upsert([entry("b", "alice", None, ["entity:lisbon"], 100)])
    assert index.tally(keys, "alice", None, 50) == (3, [2, 1, 0])
    assert held(["entity:lisbon"], None, 50) == ["a", "b"]
    # The same keys with another expiry: the rows follow it.
    index.set_records([("b", '{"id":"b"}', ["entity:lisbon"], 40, 0, 0)])
    assert index.tally(keys, "alice", None, 50) == (2, [1, 1, 0])
    index.set_records([("b", '{"id":"b"}', ["entity:lisbon"], 100, 0, 0)])

    index.set_records([("a", '{"id":"a"}', ["entity:porto"], 60, 0, 0)])
    assert index.tally(["entity:lisbon", "entity:porto", "subject:ana"], "alice", None, 50) == (3, [1, 1, 0])
    assert index.tally(["entity:porto"], "alice", None, 70) == (2, [0])

    index.upsert([
        entry("a", "alice", None, ["entity:madrid"], None),
        entry("a", "alice", "c1", ["entity:lisbon"], None),
    ])
    assert index.tally(["entity:lisbon", "entity:porto", "entity:madrid"], "alice", None, 50) == (2, [1, 0, 0])
    assert held(["entity:lisbon"], "c1", 50) == ["a", "b", "d"]

    index.remove(["a", "b", "c", "d"])
    assert index.conn().execute("SELECT count(*) FROM marks").fetchone() == (0,)
    assert index.tally(keys, "alice", None, 50) == (1, [0, 0, 0])
    index.close()


def test_the_newest_holders_of_a_key_come_by_moment_then_id_within_the_scope_and_follow_every_write(tmp_path: Path):
    # The Rust host's case (host/src/index/tests/newest.rs), on this host's index.
    index = SqliteIndex(tmp_path / "memory.db")
    index.clear("m", 2)
    key = "profile:preference"

    def entry(id_: str, user: str, chat: str | None, keys: list[str], observed: int, lapses: int | None = None,
              vector: list[float] | None = None) -> Entry:
        return Entry(id_, id_, vector, user, chat, "memory", f'{{"id":"{id_}"}}', keys, lapses, observed)

    def newest(keys: list[str], user: str, chat: str | None, now: int, limit: int) -> list[list[str]]:
        lists = index.newest(keys, user, chat, now, limit)
        assert all(r == f'{{"id":"{i}"}}' for found in lists for i, r, _ in found)
        return [[i for i, _, _ in found] for found in lists]

    index.upsert([
        entry("c", "alice", None, [key], 200, vector=[1.0, 0.0]),
        entry("a", "alice", None, [key, "entity:x"], 300, vector=[1.0, 0.0]),
        entry("b", "alice", None, [key], 200, vector=[0.0, 1.0]),
        # Before "b" by byte, after it by most collations.
        entry("B", "alice", None, [key], 200, vector=[1.0, 0.0]),
        entry("C", "alice", "c1", [key], 200, vector=[1.0, 0.0]),
        entry("d", "alice", "c1", [key], 250, vector=[1.0, 1.0]),
        entry("e", "bob", None, [key], 400, vector=[1.0, 0.0]),
        entry("f", "alice", None, [key], 500, 100, vector=[1.0, 0.0]),
        entry("g", "alice", None, ["reflection"], 350, vector=[1.0, 0.0]),
        entry("h", "alice", None, [key], 100),
    ])
    keys = [key, "reflection", "entity:nowhere"]
    assert newest(keys, "alice", None, 150, 10) == [["a", "B", "b", "c", "h"], ["g"], []]
    assert newest(keys, "alice", "c1", 150, 10) == [["a", "d", "B", "C", "b", "c", "h"], ["g"], []]
    assert newest(keys, "alice", "c1", 150, 2) == [["a", "d"], ["g"], []]
    assert newest(keys, "alice", None, 50, 2) == [["f", "a"], ["g"], []], "live before it lapses"
    assert newest(keys, "alice", None, 150, 0) == [[], [], []]
    held = index.newest([key], "alice", None, 150, 10)[0]
    assert held[0][2] == [1.0, 0.0] and held[4][2] is None, "h waits for its vector"

    # A new moment, through set_records and through upsert, with the same keys.
    index.set_records([("c", '{"id":"c"}', [key], None, 600, 0)])
    assert newest([key], "alice", None, 150, 2) == [["c", "a"]]
    index.upsert([entry("b", "alice", None, [key], 700, vector=[0.0, 1.0])])
    assert newest([key], "alice", None, 150, 2) == [["b", "c"]]
    index.upsert([entry("b", "bob", None, [key], 700, vector=[0.0, 1.0])])
    index.remove(["a"])
    assert newest([key], "alice", None, 150, 10) == [["c", "B", "h"]]
    assert newest([key], "bob", None, 150, 10) == [["b", "e"]]
    index.close()


def test_recent_lists_the_most_recently_made_equal_moments_latest_indexed_first(tmp_path: Path):
    # The Rust host's `recent` case, on this host's index.
    index = SqliteIndex(tmp_path / "memory.db")
    index.clear("m", 2)

    def entry(id_: str, user: str, chat: str | None, made: int, lapses: int | None = None,
              kept: bool = True) -> Entry:
        # Observed in the reverse order of made: `recent` goes by made alone.
        return Entry(id_, id_, [1.0, 0.5], user, chat, "memory", f'{{"id":"{id_}"}}' if kept else None,
                     [], lapses, 1000 - made, made)

    def recent(user: str, chat: str | None, now: int | None, limit: int) -> list[str]:
        found = index.recent(user, chat, now, limit)
        assert all(r == f'{{"id":"{i}"}}' for i, r, _ in found)
        return [i for i, _, _ in found]

    index.upsert([
        entry("b", "alice", None, 200),
        entry("a", "alice", None, 100),
        entry("c", "alice", None, 200),
        entry("e", "alice", None, 200),
        entry("d", "alice", None, 300, lapses=150),
        entry("f", "alice", "c1", 250),
        entry("g", "alice", "c1", 200),
        entry("h", "alice", None, 400, kept=False),
        entry("i", "bob", None, 500),
    ])
    # Upserted again, b keeps its place; removed and upserted again, c comes first of its equals.
    index.upsert([entry("b", "alice", None, 200)])
    index.remove(["c"])
    index.upsert([entry("c", "alice", None, 200)])

    assert recent("alice", None, None, 10) == ["d", "c", "e", "b", "a"], "h has no record"
    assert recent("alice", None, 200, 10) == ["c", "e", "b", "a"], "d lapsed at 150"
    assert recent("alice", "c1", None, 10) == ["d", "f", "c", "g", "e", "b", "a"]
    assert recent("alice", "c1", None, 2) == ["d", "f"]
    assert recent("alice", "c1", None, 0) == []
    assert recent("bob", None, None, 10) == ["i"]
    held = index.recent("alice", None, None, 10)
    assert held[0] == ("d", '{"id":"d"}', [1.0, 0.5])
    index.close()


def test_coarse_codes_round_halves_away_from_zero_and_follow_every_write(tmp_path: Path):
    # The Rust host's case (host/src/index/coarse.rs): over 128 and times 127 every step is
    # exact, and 64 is 63.5, a half either way.
    scale, code = coarse_code([128.0, -64.0, 64.0, 32.0, 0.5, 0.0])
    assert list(struct.unpack("6b", code)) == [127, -64, 64, 32, 0, 0]
    assert scale == 128.0 / (127.0 * math.sqrt(128.0 * 128.0 + 2 * 64.0 * 64.0 + 32.0 * 32.0 + 0.25))

    index = SqliteIndex(tmp_path / "memory.db")
    index.clear("m", 2)

    def entry(id_: str, user: str, embedding: list[float] | None) -> Entry:
        return Entry(id_, id_, embedding, user, None, "memory", f'{{"id":"{id_}"}}')

    index.upsert([entry("a", "alice", [1.0, 0.5]), entry("b", "alice", [0.0, 2.0]), entry("c", "bob", [3.0, 1.0]),
                  entry("d", "alice", [0.0, 0.0])])
    index.upsert([entry("a", "bob", [0.5, 1.0]), entry("b", "alice", None)])
    index.remove(["c"])
    index.close()
    db = sqlite3.connect(tmp_path / "memory.db")
    codes = db.execute(
        "SELECT items.id, codes.scope, codes.scale, codes.code FROM codes JOIN items ON items.rowid = codes.item"
        " ORDER BY 1"
    ).fetchall()
    db.close()
    # d has no direction and b no vector any more: neither has a code; a moved to bob.
    assert codes == [("a", "u:bob", *coarse_code([0.5, 1.0]))]
    assert list(struct.unpack("2b", codes[0][3])) == [64, 127]
