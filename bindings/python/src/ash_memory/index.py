"""The `index` import: sqlite-vec vectors and FTS5 full text in `data/memory.db`, with the
Rust host's schema, table names and meta rows (index.rs), so that an index written by one
host is accepted by the other without a rebuild.

The index is a cache of `memories.jsonl` and `messages.jsonl`, kept apart by their scope
keys (memories `u:<user>` / `c:<chat>`, messages `mu:<user>` / `mc:<chat>`): whatever is
wrong with the file is reported as `unavailable`, and the guest answers by clearing and
rebuilding it.
"""

from __future__ import annotations

import json
import math
import os
import struct
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

# sqlean.py is the standard library's sqlite3 module built with its own SQLite, with FTS5 and
# extension loading on: many Pythons' own sqlite3 cannot load sqlite-vec (pyenv's and
# python.org's macOS builds among them), and this one behaves the same everywhere.
import sqlean as sqlite3  # type: ignore[import-untyped]

from .embedder import f32
from .files import FileState
from .home import FILE_MODE

# SQLite's primary result codes for a file that is not a database, or is corrupt.
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26

#: The most neighbours one knn returns (sqlite-vec refuses k above 4096).
MAX_K = 4096

#: Vectors per sqlite-vec chunk: the Rust host's ``VECTOR_CHUNK_SLOTS``
#: (host/src/index/mod.rs; docs/performance.md has the figures), so that an index is laid out the same
#: whichever host made it.
VECTOR_CHUNK_SLOTS = 128

#: The items table's indexes: a scope's live entries counted from `items_scope` (scope,
#: lapses) alone, the entries without a vector, which `pending` counts, a key's holders
#: in a scope newest first, which `newest` walks, and a scope's entries by when they were
#: made, which `recent` walks backwards (an index entry ends with its rowid, so equal
#: moments come latest indexed first). They name
#: columns an older file's items table lacks, so they are made only once the table has them.
_ITEM_INDEXES = (
    "CREATE INDEX IF NOT EXISTS items_scope ON items (scope, lapses)",
    "CREATE INDEX IF NOT EXISTS items_pending ON items (scope) WHERE pending = 1",
    "CREATE INDEX IF NOT EXISTS marks_newest ON marks (key, scope, observed DESC, id, lapses)",
    "CREATE INDEX IF NOT EXISTS items_made ON items (scope, made)",
)

#: The most holders of a key `newest` hands out (the WIT's cap).
MAX_NEWEST = 4096

#: The most entries `recent` hands out (the WIT's cap).
MAX_RECENT = 4096

#: The tables, made on every open. `items.keys` (a JSON list), `items.lapses`,
#: `items.observed` and `items.made` with `marks` are the entries' marks (see `tally`,
#: `holding`, `newest` and `recent`); `codes` holds each vector's coarse code
#: (`coarse_code`), which this host writes and the Rust host's one-shot searches read.
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS items (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, scope TEXT NOT NULL,"
    " pending INTEGER NOT NULL DEFAULT 0, record TEXT, lapses INTEGER, keys TEXT, observed INTEGER,"
    " made INTEGER)",
    "CREATE TABLE IF NOT EXISTS marks (key TEXT NOT NULL, scope TEXT NOT NULL, item INTEGER NOT NULL,"
    " lapses INTEGER, observed INTEGER, id TEXT, PRIMARY KEY (key, scope, item)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS codes (scope TEXT NOT NULL, item INTEGER NOT NULL, scale REAL NOT NULL,"
    " code BLOB NOT NULL, PRIMARY KEY (scope, item)) WITHOUT ROWID",
    "CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5 (content, tokenize = 'porter unicode61')",
)

#: Why an index whose items table lacks the record and marks columns is not used.
OLDER_VERSION = "the index was built by an older version, which kept no records, marks or moments: it is rebuilt"


class IndexUnavailable(Exception):
    """The index file cannot be opened or is corrupt; it must be cleared and rebuilt."""


class IndexSql(Exception):
    """Any other SQLite failure."""


class IndexDimensionMismatch(Exception):
    """A vector's length differs from the index's dimension."""

    def __init__(self, expected: int, got: int) -> None:
        super().__init__(f"expected {expected} dimensions, got {got}")
        self.expected = expected
        self.got = got


#: The entry kinds (the WIT `entry-kind` enum).
MEMORY = "memory"
MESSAGE = "message"


def kind_prefix(kind: str) -> str:
    """What an entry kind's scope keys start with: nothing for memories (so that indexes
    built before messages existed stay valid), `m` for messages."""
    if kind == MEMORY:
        return ""
    if kind == MESSAGE:
        return "m"
    raise IndexSql(f"unknown entry kind {kind!r}")


def _of_kind(kind: str) -> str:
    """The SQL condition on `items` for one entry kind (see kind_prefix)."""
    return "scope NOT LIKE 'm%'" if kind_prefix(kind) == "" else "scope LIKE 'm%'"


def reflects_key(kind: str) -> str:
    """The meta key of the collection state an entry kind reflects."""
    # Not the keys that versions keeping no records, marks, coarse codes, observed or made
    # moments move (`reflects_observed` among them; see the Rust host's index).
    return "reflects_made" if kind_prefix(kind) == "" else "reflects_message_codes"


@dataclass
class Entry:
    """One memory or message as the index holds it."""

    id: str
    content: str
    embedding: Sequence[float] | None
    owner_user_id: str | None
    chat_id: str | None
    kind: str = MEMORY
    #: For a memory, its record as one JSON line without the embedding; None for a message.
    record: str | None = None
    #: The keys it is found by (its subjects and entities); none for a message.
    keys: Sequence[str] = ()
    #: When it stops being live on its own, in microseconds since the epoch; None if never.
    lapses: int | None = None
    #: When what it says was observed (else made), in microseconds since the epoch; what
    #: `newest` orders by. Zero for a message.
    observed: int = 0
    #: When it was made, in microseconds since the epoch; what `recent` orders by. Zero for
    #: a message.
    made: int = 0

    def scope(self) -> str:
        """The scope key, as the guest's visibility rule has it: a chat id makes it a group
        entry; otherwise the owner's personal one. Kinds never share a key."""
        prefix = kind_prefix(self.kind)
        if self.chat_id is not None:
            return f"{prefix}c:{self.chat_id}"
        if self.owner_user_id is not None:
            return f"{prefix}u:{self.owner_user_id}"
        return f"{prefix}none"


def scope_keys(user_id: str | None, chat_id: str | None, kind: str = MEMORY) -> list[str]:
    """The scope keys a filter admits: `u:<user>` for personal, `c:<chat>` for group, after
    the kind's prefix."""
    prefix = kind_prefix(kind)
    keys = []
    if user_id is not None:
        keys.append(f"{prefix}u:{user_id}")
    if chat_id is not None:
        keys.append(f"{prefix}c:{chat_id}")
    return keys


def _sql(e: sqlite3.Error) -> Exception:
    code = getattr(e, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in (_SQLITE_NOTADB, _SQLITE_CORRUPT):
        return IndexUnavailable(str(e))
    return IndexSql(str(e))


def usable(v: Sequence[float]) -> bool:
    """Whether a vector has a direction: finite components and a norm that is not zero."""
    if not all(math.isfinite(x) for x in v):
        return False
    norm = math.fsum(x * x for x in v)
    return math.isfinite(norm) and norm > 1e-12


def f32_bytes(v: Sequence[float]) -> bytes:
    """Little-endian float32, as sqlite-vec stores a vector."""
    return struct.pack(f"<{len(v)}f", *v)


def coarse_code(v: Sequence[float]) -> tuple[float, bytes]:
    """A vector's coarse code, as the Rust host's `index::coarse` makes it: each component
    over the largest, times 127, rounded half away from zero, and the scale that turns the
    code's dot product with a unit query back into a cosine. The vector has a direction
    (`usable`). Summed one by one, as the other hosts do (`sum` may compensate)."""
    largest = 0.0
    squares = 0.0
    for x in v:
        largest = max(largest, abs(x))
        squares += x * x
    levels = []
    for x in v:
        t = x / largest * 127.0
        a = abs(t)
        r = math.floor(a)
        if a - r >= 0.5:
            r += 1
        levels.append(-r if t < 0 else r)
    return largest / (127.0 * math.sqrt(squares)), struct.pack(f"{len(levels)}b", *levels)


def f32_list(blob: bytes) -> list[float] | None:
    """A vector from sqlite-vec's little-endian float32 bytes; None if they are not that."""
    if len(blob) % 4 != 0:
        return None
    return list(struct.unpack(f"<{len(blob) // 4}f", blob))


def _has_record_columns(conn: sqlite3.Connection) -> bool:
    """Whether the tables have the record, marks and moment columns (an older version's
    lack some)."""
    (n,) = conn.execute(
        "SELECT (SELECT count(*) FROM pragma_table_info('items')"
        " WHERE name IN ('record', 'pending', 'lapses', 'keys', 'observed', 'made'))"
        " + (SELECT count(*) FROM pragma_table_info('marks') WHERE name IN ('observed', 'id'))"
    ).fetchone()
    return int(n) == 8


#: An item's rowid, scope and marks columns by id (see `_remark`).
_FIND = "SELECT rowid, scope, keys, lapses, observed FROM items WHERE id = ?1"


def _keys_json(keys: Sequence[str]) -> str:
    """`items.keys`: the keys as one JSON list, spelled as the Rust and JS hosts spell it."""
    return json.dumps(list(keys), separators=(",", ":"), ensure_ascii=False)


def _remark(conn: sqlite3.Connection, rowid: int, old: tuple | None, scope: str, keys: Sequence[str],
            lapses: int | None, observed: int) -> None:
    """Replaces an entry's marks rows, leaving them alone when they are the ones it had
    (`old`, the row `_FIND` gave): an access or a replay writes a record again with the same
    marks (see the Rust host's `marks::remark`)."""
    if old is not None:
        if old[1] == scope and old[2] == _keys_json(keys) and old[3] == lapses and old[4] == observed:
            return
        _unmark(conn, rowid, old[1], old[2])
    _mark(conn, rowid, scope, keys, lapses, observed)


def _unmark(conn: sqlite3.Connection, rowid: int, scope: str, keys: str | None) -> None:
    """Drops an entry's marks rows, as its `items.keys` lists them."""
    if keys is not None:
        conn.execute(
            "DELETE FROM marks WHERE item = ?1 AND scope = ?2 AND key IN (SELECT value FROM json_each(?3))",
            (rowid, scope, keys),
        )


def _mark(conn: sqlite3.Connection, rowid: int, scope: str, keys: Sequence[str], lapses: int | None,
          observed: int) -> None:
    """Writes an entry's marks rows."""
    for key in keys:
        conn.execute(
            "INSERT OR IGNORE INTO marks (key, scope, item, lapses, observed, id)"
            " VALUES (?1, ?2, ?3, ?4, ?5, (SELECT id FROM items WHERE rowid = ?3))",
            (key, scope, rowid, lapses, observed),
        )


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One explicit transaction: committed when the block ends, rolled back if it raises
    (anything, Ctrl-C included), with SQLite's errors as the import's."""
    try:
        conn.execute("BEGIN")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    except sqlite3.Error as e:
        raise _sql(e) from e


def _load_vec(conn: sqlite3.Connection) -> None:
    import sqlite_vec  # type: ignore[import-untyped]  # the package ships no type information

    conn.enable_load_extension(True)
    try:
        sqlite_vec.load(conn)
    finally:
        conn.enable_load_extension(False)


class SqliteIndex:
    """The SQLite index file, opened on first use."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None

    def conn(self) -> sqlite3.Connection:
        """The connection, opened (and the schema made) on first use."""
        if self._conn is None:
            # Created owner-only; SQLite gives its -wal and -shm files the same mode.
            if not self.path.exists():
                try:
                    os.close(os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE))
                except OSError:
                    pass
            try:
                conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            except sqlite3.Error as e:
                raise IndexUnavailable(str(e)) from e
            try:
                _load_vec(conn)
                # A junk file opens fine; the first real statement is what fails.
                for statement in SCHEMA:
                    conn.execute(statement)
                # An older file's items table is kept as it is: `info` reports it.
                if _has_record_columns(conn):
                    for statement in _ITEM_INDEXES:
                        conn.execute(statement)
            except sqlite3.Error as e:
                conn.close()
                raise IndexUnavailable(str(e)) from e
            try:
                # WAL writes each changed page once: half the bytes per add.
                conn.execute("PRAGMA journal_mode = WAL").fetchall()
                conn.execute("PRAGMA synchronous = NORMAL")
                # Freed pages are zeroed: a forgotten memory's text does not stay in them.
                conn.execute("PRAGMA secure_delete = ON")
            except sqlite3.Error as e:
                conn.close()
                raise _sql(e) from e
            self._conn = conn
        return self._conn

    def close(self) -> None:
        """Closes the connection (it is opened again on next use)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def info(self) -> tuple[str, int] | None:
        """The (model, dimension) recorded by the last clear, if any."""
        conn = self.conn()
        try:
            model = conn.execute("SELECT value FROM meta WHERE key = 'model'").fetchone()
            dim = conn.execute("SELECT value FROM meta WHERE key = 'dimension'").fetchone()
            if model is None or dim is None:
                return None
            try:
                dimension = int(dim[0])
                if not 0 <= dimension <= 0xFFFFFFFF:
                    raise ValueError
            except ValueError:
                raise IndexUnavailable(f'bad dimension "{dim[0]}"') from None
            # The vector table must exist too, or the file is from a half-done clear.
            (n,) = conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'vecs'").fetchone()
            if n == 0:
                raise IndexUnavailable("the vector table is missing")
            # An older version's items table keeps no records: the guest rebuilds the index.
            if not _has_record_columns(conn):
                raise IndexUnavailable(OLDER_VERSION)
        except sqlite3.Error as e:
            raise _sql(e) from e
        return (model[0], dimension)

    def _dimension(self) -> int:
        info = self.info()
        if info is None:
            raise IndexUnavailable("the index is not initialized")
        return info[1]

    def clear(self, model: str, dimension: int) -> None:
        """Empties the index (both kinds, and what both reflect) for this model; a file
        SQLite cannot use is made anew."""
        try:
            self.conn()
            self.info()
            broken = False
        except (IndexUnavailable, IndexSql):
            broken = True
        if broken:
            self.close()
            for suffix in ("", "-journal", "-wal", "-shm"):
                try:
                    os.unlink(f"{self.path}{suffix}")
                except OSError:
                    pass
        conn = self.conn()
        with _transaction(conn):
            # Dropped, not emptied: an older version's table lacks the record columns.
            conn.execute("DROP TABLE IF EXISTS items")
            conn.execute("DELETE FROM meta")
            conn.execute("DROP TABLE IF EXISTS fts")
            conn.execute("DROP TABLE IF EXISTS marks")
            conn.execute("DROP TABLE IF EXISTS codes")
            for statement in SCHEMA + _ITEM_INDEXES:
                conn.execute(statement)
            conn.execute("DROP TABLE IF EXISTS vecs")
            conn.execute(
                "CREATE VIRTUAL TABLE vecs USING vec0 (\n"
                "                 scope TEXT PARTITION KEY,\n"
                f"                 embedding FLOAT[{int(dimension)}] distance_metric=cosine,\n"
                f"                 chunk_size = {VECTOR_CHUNK_SLOTS}\n"
                "             )"
            )
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('model', ?1), ('dimension', ?2)",
                (model, str(int(dimension))),
            )

    def reflects(self, kind: str = MEMORY) -> FileState | None:
        """Which state of the collection behind `kind` (memories.jsonl, messages.jsonl) the
        index reflects; none after clear."""
        key = reflects_key(kind)
        try:
            row = self.conn().execute("SELECT value FROM meta WHERE key = ?1", (key,)).fetchone()
        except sqlite3.Error as e:
            raise _sql(e) from e
        if row is None:
            return None
        parts = str(row[0]).split(" ", 1)
        try:
            generation, end = int(parts[0]), int(parts[1])
        except (ValueError, IndexError):
            return None
        if not (0 <= generation < 1 << 64 and 0 <= end < 1 << 64):
            return None
        return FileState(generation, end)

    def set_reflects(self, kind: str, state: FileState) -> None:
        """Records the state of the collection behind `kind` the index now reflects."""
        key = reflects_key(kind)
        try:
            self.conn().execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                (key, f"{state.generation} {state.end}"),
            )
        except sqlite3.Error as e:
            raise _sql(e) from e

    def upsert(self, entries: Sequence[Entry]) -> None:
        """Inserts or replaces entries, with their records, in one transaction. A vector
        without a direction is left out (full text only): sqlite-vec would store it and
        answer NULL distances. An entry without a stored vector is marked pending."""
        if not entries:
            return
        dim = self._dimension()
        for e in entries:
            if e.embedding is not None and len(e.embedding) != dim:
                raise IndexDimensionMismatch(dim, len(e.embedding))
        conn = self.conn()
        with _transaction(conn):
            for e in entries:
                scope = e.scope()
                vector = e.embedding if e.embedding is not None and usable(e.embedding) else None
                pending = 1 if vector is None else 0
                keys = _keys_json(e.keys)
                row = conn.execute(_FIND, (e.id,)).fetchone()
                if row is not None:
                    rowid = row[0]
                    conn.execute(
                        "UPDATE items SET scope = ?2, pending = ?3, record = ?4, lapses = ?5, keys = ?6,"
                        " observed = ?7, made = ?8 WHERE rowid = ?1",
                        (rowid, scope, pending, e.record, e.lapses, keys, e.observed, e.made),
                    )
                    conn.execute("DELETE FROM fts WHERE rowid = ?1", (rowid,))
                    conn.execute("DELETE FROM vecs WHERE rowid = ?1", (rowid,))
                    conn.execute("DELETE FROM codes WHERE scope = ?1 AND item = ?2", (row[1], rowid))
                else:
                    cur = conn.execute(
                        "INSERT INTO items (id, scope, pending, record, lapses, keys, observed, made)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                        (e.id, scope, pending, e.record, e.lapses, keys, e.observed, e.made),
                    )
                    rowid = cur.lastrowid
                _remark(conn, rowid, row, scope, e.keys, e.lapses, e.observed)
                conn.execute("INSERT INTO fts (rowid, content) VALUES (?1, ?2)", (rowid, e.content))
                if vector is not None:
                    stored = f32_bytes(vector)
                    conn.execute(
                        "INSERT INTO vecs (rowid, scope, embedding) VALUES (?1, ?2, ?3)",
                        (rowid, scope, stored),
                    )
                    # The code is of the vector as stored, in f32, as the Rust host codes it.
                    conn.execute(
                        "INSERT OR REPLACE INTO codes (scope, item, scale, code) VALUES (?1, ?2, ?3, ?4)",
                        (scope, rowid, *coarse_code(struct.unpack(f"<{len(vector)}f", stored))),
                    )

    def remove(self, ids: Sequence[str]) -> None:
        """Removes entries by id; unknown ids are ignored."""
        if not ids:
            return
        conn = self.conn()
        try:
            (has_vecs,) = conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'vecs'").fetchone()
        except sqlite3.Error as e:
            raise _sql(e) from e
        with _transaction(conn):
            for id_ in ids:
                row = conn.execute("SELECT rowid, scope, keys FROM items WHERE id = ?1", (id_,)).fetchone()
                if row is not None:
                    _unmark(conn, row[0], row[1], row[2])
                    conn.execute("DELETE FROM codes WHERE scope = ?1 AND item = ?2", (row[1], row[0]))
                    conn.execute("DELETE FROM fts WHERE rowid = ?1", (row[0],))
                    if has_vecs:
                        conn.execute("DELETE FROM vecs WHERE rowid = ?1", (row[0],))
                    conn.execute("DELETE FROM items WHERE rowid = ?1", (row[0],))

    def knn(self, query: Sequence[float], k: int, user_id: str | None, chat_id: str | None,
            kind: str = MEMORY) -> list[tuple[str, float]]:
        """The k nearest vectors of one kind within the scopes by cosine similarity, best first."""
        keys = scope_keys(user_id, chat_id, kind)
        dim = self._dimension()
        if len(query) != dim:
            raise IndexDimensionMismatch(dim, len(query))
        k = min(k, MAX_K)
        if k == 0 or not usable(query):
            return []
        conn = self.conn()
        q = f32_bytes(query)
        hits: list[tuple[str, float]] = []
        try:
            # One KNN per scope key: the partition key makes each a scan of that scope only.
            for key in keys:
                rows = conn.execute(
                    "SELECT items.id, v.distance FROM\n"
                    "                   (SELECT rowid, distance FROM vecs WHERE embedding MATCH ?1 AND k = ?2 AND scope = ?3) v\n"
                    "                 JOIN items ON items.rowid = v.rowid",
                    (q, k, key),
                ).fetchall()
                for id_, distance in rows:
                    if distance is not None and math.isfinite(distance):
                        # 1.0 - (d as f32), in float32 as the Rust host computes it.
                        hits.append((id_, f32(1.0 - f32(distance))))
        except sqlite3.Error as e:
            raise _sql(e) from e
        hits.sort(key=lambda h: -h[1])
        return hits[:k]

    def text_search(self, terms: Sequence[str], k: int, user_id: str | None, chat_id: str | None,
                    kind: str = MEMORY) -> list[tuple[str, float]]:
        """BM25 full-text search for any of the terms within the scopes, of one kind, best first."""
        keys = scope_keys(user_id, chat_id, kind)
        quoted = ['"' + t.strip().replace('"', '""') + '"' for t in terms if t.strip()]
        if not quoted or not keys:
            return []
        second = keys[1] if len(keys) > 1 else keys[0]
        try:
            rows = self.conn().execute(
                "SELECT items.id, bm25(fts) FROM fts JOIN items ON items.rowid = fts.rowid\n"
                "                 WHERE fts MATCH ?1 AND items.scope IN (?2, ?3)\n"
                "                 ORDER BY bm25(fts), fts.rowid LIMIT ?4",
                (" OR ".join(quoted), keys[0], second, k),
            ).fetchall()
        except sqlite3.Error as e:
            raise _sql(e) from e
        # bm25() is lower-is-better; negate so that higher is better.
        return [(id_, -f32(score)) for id_, score in rows]

    def count(self, kind: str = MEMORY) -> int:
        """How many entries of this kind the index holds. Message scope keys start with `m`;
        memory keys with `u`, `c` or `n`."""
        sql = f"SELECT count(*) FROM items WHERE {_of_kind(kind)}"
        try:
            (n,) = self.conn().execute(sql).fetchone()
        except sqlite3.Error as e:
            raise _sql(e) from e
        return int(n)

    def fetch(self, ids: Sequence[str]) -> list[tuple[str, str, list[float] | None]]:
        """The (id, record, vector) of these entries, in the order asked; an id not held, or
        held without a record, is left out. The vector is None while it is pending."""
        if not ids:
            return []
        conn = self.conn()
        found: list[tuple[int, str, str]] = []
        try:
            for id_ in ids:
                row = conn.execute("SELECT rowid, record FROM items WHERE id = ?1", (id_,)).fetchone()
                if row is not None and row[1] is not None:
                    found.append((row[0], id_, str(row[1])))
        except sqlite3.Error as e:
            raise _sql(e) from e
        return self._with_vectors(found)

    def _with_vectors(self, found: Sequence[tuple[int, str, str]]) -> list[tuple[str, str, list[float] | None]]:
        """(rowid, id, record) as held: (id, record, vector), the vector None while pending."""
        conn = self.conn()
        held: list[tuple[str, str, list[float] | None]] = []
        try:
            (has_vecs,) = conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'vecs'").fetchone()
            for rowid, id_, rec in found:
                vector = None
                if has_vecs:
                    v = conn.execute("SELECT embedding FROM vecs WHERE rowid = ?1", (rowid,)).fetchone()
                    if v is not None and isinstance(v[0], bytes):
                        vector = f32_list(v[0])
                held.append((id_, rec, vector))
        except sqlite3.Error as e:
            raise _sql(e) from e
        return held

    def set_records(self, revisions: Sequence[tuple[str, str, Sequence[str], int | None, int, int]]) -> None:
        """Replaces the record and marks, as (id, record, keys, lapses, observed, made), of
        entries already held, in one transaction, leaving their text, vector and scope as
        they are; unknown ids are ignored."""
        if not revisions:
            return
        conn = self.conn()
        with _transaction(conn):
            for id_, rec, keys, lapses, observed, made in revisions:
                row = conn.execute(_FIND, (id_,)).fetchone()
                if row is None:
                    continue
                conn.execute(
                    "UPDATE items SET record = ?2, lapses = ?3, keys = ?4, observed = ?5, made = ?6"
                    " WHERE rowid = ?1",
                    (row[0], rec, lapses, _keys_json(keys), observed, made),
                )
                _remark(conn, row[0], row, row[1], keys, lapses, observed)

    def tally(self, keys: Sequence[str], user_id: str | None, chat_id: str | None, now: int,
              kind: str = MEMORY) -> tuple[int, list[int]]:
        """Of the entries within the scopes live at `now`, how many there are and how many
        hold each key (a message has no marks)."""
        scopes = scope_keys(user_id, chat_id, kind) if kind == MEMORY else []
        conn = self.conn()
        live = 0
        holding = [0] * len(keys)
        try:
            for s in scopes:
                (n,) = conn.execute(
                    "SELECT count(*) FROM items WHERE scope = ?1 AND (lapses IS NULL OR lapses > ?2)", (s, now)
                ).fetchone()
                live += int(n)
                for i, key in enumerate(keys):
                    (n,) = conn.execute(
                        "SELECT count(*) FROM marks WHERE key = ?1 AND scope = ?2 AND (lapses IS NULL OR lapses > ?3)",
                        (key, s, now),
                    ).fetchone()
                    holding[i] += int(n)
        except sqlite3.Error as e:
            raise _sql(e) from e
        return live, holding

    def holding(self, keys: Sequence[str], user_id: str | None, chat_id: str | None, now: int,
                kind: str = MEMORY) -> list[tuple[str, str, list[float] | None]]:
        """The (id, record, vector) of the entries within the scopes, live at `now`, that hold
        any of the keys, each once, in the order they were indexed."""
        scopes = scope_keys(user_id, chat_id, kind) if kind == MEMORY else []
        if not keys or not scopes:
            return []
        conn = self.conn()
        items: set[int] = set()
        found: list[tuple[int, str, str]] = []
        try:
            for s in scopes:
                for key in keys:
                    rows = conn.execute(
                        "SELECT item FROM marks WHERE key = ?1 AND scope = ?2 AND (lapses IS NULL OR lapses > ?3)",
                        (key, s, now),
                    ).fetchall()
                    items.update(int(r[0]) for r in rows)
            for rowid in sorted(items):
                row = conn.execute("SELECT id, record FROM items WHERE rowid = ?1", (rowid,)).fetchone()
                if row is not None and row[1] is not None:
                    found.append((rowid, str(row[0]), str(row[1])))
        except sqlite3.Error as e:
            raise _sql(e) from e
        return self._with_vectors(found)

    def newest(self, keys: Sequence[str], user_id: str | None, chat_id: str | None, now: int, limit: int,
               kind: str = MEMORY) -> list[list[tuple[str, str, list[float] | None]]]:
        """For each key, the (id, record, vector) of its newest `limit` live holders within the
        scopes (at most `MAX_NEWEST`), newest first by their observed moment, equal moments by
        id in byte order. Each scope is walked newest first by `marks_newest` and stops at
        `limit`; the scopes' lists are then merged (see the Rust host's
        `SqliteIndex::newest`)."""
        scopes = scope_keys(user_id, chat_id, kind) if kind == MEMORY else []
        most = min(int(limit), MAX_NEWEST)
        conn = self.conn()
        if not _has_record_columns(conn):
            raise IndexUnavailable(OLDER_VERSION)
        lists = []
        try:
            for key in keys:
                found: list[tuple[int, str, int, str]] = []
                for s in scopes if most > 0 else []:
                    found.extend(
                        (int(r[0] or 0), str(r[1]), int(r[2]), str(r[3]))
                        for r in conn.execute(
                            "SELECT m.observed, m.id, m.item, i.record FROM marks m JOIN items i ON i.rowid = m.item"
                            " WHERE m.key = ?1 AND m.scope = ?2 AND (m.lapses IS NULL OR m.lapses > ?3)"
                            " AND i.record IS NOT NULL ORDER BY m.observed DESC, m.id LIMIT ?4",
                            (key, s, now, most),
                        )
                    )
                found.sort(key=lambda f: (-f[0], f[1].encode()))
                lists.append([(rowid, id_, rec) for _, id_, rowid, rec in found[:most]])
        except sqlite3.Error as e:
            raise _sql(e) from e
        return [self._with_vectors(found) for found in lists]

    def recent(self, user_id: str | None, chat_id: str | None, now: int | None, limit: int,
               kind: str = MEMORY) -> list[tuple[str, str, list[float] | None]]:
        """The (id, record, vector) of the `limit` (at most `MAX_RECENT`) most recently made
        entries within the scopes, by their made moment, equal moments latest indexed
        (largest rowid) first; with `now`, only those live at `now`. Each scope is walked
        backwards by `items_made` and stops at `limit`; the scopes' lists are then merged
        (see the Rust host's `SqliteIndex::recent`)."""
        scopes = scope_keys(user_id, chat_id, kind) if kind == MEMORY else []
        most = min(int(limit), MAX_RECENT)
        conn = self.conn()
        if not _has_record_columns(conn):
            raise IndexUnavailable(OLDER_VERSION)
        found: list[tuple[int, int, str, str]] = []
        try:
            for s in scopes if most > 0 else []:
                found.extend(
                    (int(r[0] or 0), int(r[1]), str(r[2]), str(r[3]))
                    for r in conn.execute(
                        "SELECT made, rowid, id, record FROM items"
                        " WHERE scope = ?1 AND record IS NOT NULL AND (?2 IS NULL OR lapses IS NULL OR lapses > ?2)"
                        " ORDER BY made DESC, rowid DESC LIMIT ?3",
                        (s, now, most),
                    )
                )
        except sqlite3.Error as e:
            raise _sql(e) from e
        found.sort(key=lambda f: (-f[0], -f[1]))
        return self._with_vectors([(rowid, id_, rec) for _, rowid, id_, rec in found[:most]])

    def pending(self, kind: str = MEMORY) -> int:
        """How many entries of this kind are held without a vector (embeddings pending)."""
        sql = f"SELECT count(*) FROM items WHERE pending = 1 AND {_of_kind(kind)}"
        try:
            (n,) = self.conn().execute(sql).fetchone()
        except sqlite3.Error as e:
            raise _sql(e) from e
        return int(n)
