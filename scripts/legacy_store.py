#!/usr/bin/env python3
"""Builds a legacy ash SQLite store (seed 002's `people` and `memories` tables, and a
plain `memory_embeddings` table) of a given size, to measure `ash-memory migrate`:

    python3 scripts/legacy_store.py --rows 10000 /tmp/legacy.db
    time target/release/ash-memory --home /tmp/h migrate --from /tmp/legacy.db

Timestamps are written as SQLAlchemy writes them (naive UTC), lists as JSON text.
"""

import argparse
import json
import random
import sqlite3
import struct
import uuid

SCHEMA = """
CREATE TABLE people (
    id VARCHAR PRIMARY KEY, owner_user_id VARCHAR NOT NULL, name VARCHAR NOT NULL,
    relation VARCHAR, aliases JSON, metadata JSON,
    created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL);
CREATE TABLE memories (
    id VARCHAR PRIMARY KEY, content TEXT NOT NULL, source VARCHAR,
    created_at DATETIME NOT NULL, expires_at DATETIME, metadata JSON,
    owner_user_id VARCHAR, chat_id VARCHAR, subject_person_ids JSON,
    superseded_at DATETIME, superseded_by_id VARCHAR);
CREATE TABLE memory_embeddings (memory_id TEXT PRIMARY KEY, embedding BLOB);
"""

WORDS = ("apple river mountain coffee jazz tulip lisbon porto bicycle garden violin chess "
         "hiking sailing bakery doctor nurse teacher ocean winter summer").split()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--rows", type=int, default=10_000, help="memories")
    ap.add_argument("--users", type=int, default=10)
    ap.add_argument("--dimension", type=int, default=256, help="0 for no vectors")
    args = ap.parse_args()
    rng = random.Random(7)
    new_id = lambda: str(uuid.UUID(int=rng.getrandbits(128)))
    db = sqlite3.connect(args.out)
    db.executescript(SCHEMA)
    people = {}
    for u in range(args.users):
        user = f"user{u}"
        for p in range(5):
            pid = new_id()
            people.setdefault(user, []).append(pid)
            db.execute("INSERT INTO people VALUES (?,?,?,?,?,?,?,?)",
                       (pid, user, f"Person{u}x{p}", None, "[]", None, "2024-01-01 08:00:00", "2024-01-01 08:00:00"))
    for i in range(args.rows):
        user = f"user{i % args.users}"
        mid = new_id()
        content = f"Note {i}: " + " ".join(rng.choice(WORDS) for _ in range(8))
        subjects = people[user][:1] if i % 4 == 0 else []
        db.execute("INSERT INTO memories VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                   (mid, content, "user", f"2024-0{1 + i % 9}-1{i % 9} 10:00:00", None, None, user, None,
                    json.dumps(subjects), None, None))
        if args.dimension:
            vector = [rng.uniform(-1, 1) for _ in range(args.dimension)]
            db.execute("INSERT INTO memory_embeddings VALUES (?,?)",
                       (mid, struct.pack(f"<{args.dimension}f", *vector)))
    db.commit()


if __name__ == "__main__":
    main()
