"""What the API returns: dataclasses built from the component's answers, each with a
`to_dict()` that gives the JSON-RPC server's shape (the Rust host's `wire.rs`: the JSONL
field names, snake_case), so that a result can be compared with another host's directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field
from typing import Any

from .sandbox import field


def _enum(value: str | None) -> str | None:
    """A WIT enum case (`ephemeral-decay`) as the JSONL writes it (`ephemeral_decay`)."""
    return None if value is None else value.replace("-", "_")


@dataclass(frozen=True)
class MemoryItem:
    """A stored memory, as its JSONL line holds it (without the embedding)."""

    id: str
    content: str
    memory_type: str
    created_at: str
    observed_at: str | None
    context: str | None
    owner_user_id: str | None
    chat_id: str | None
    subject_person_ids: list[str]
    source: str
    expires_at: str | None
    superseded_at: str | None
    superseded_by_id: str | None
    embedded: bool
    archived_at: str | None
    archive_reason: str | None

    @classmethod
    def from_wit(cls, r: Any) -> "MemoryItem":
        return cls(
            id=field(r, "id"), content=field(r, "content"), memory_type=_enum(field(r, "memory_type")) or "",
            created_at=field(r, "created_at"), observed_at=field(r, "observed_at"),
            context=field(r, "context"), owner_user_id=field(r, "owner_user_id"), chat_id=field(r, "chat_id"),
            subject_person_ids=list(field(r, "subject_person_ids")), source=field(r, "source"),
            expires_at=field(r, "expires_at"), superseded_at=field(r, "superseded_at"),
            superseded_by_id=field(r, "superseded_by_id"), embedded=field(r, "embedded"),
            archived_at=field(r, "archived_at"), archive_reason=_enum(field(r, "archive_reason")),
        )

    def to_dict(self) -> dict[str, Any]:
        """The memory with the JSONL field names."""
        return {
            "id": self.id, "content": self.content, "memory_type": self.memory_type,
            "created_at": self.created_at, "observed_at": self.observed_at, "context": self.context,
            "owner_user_id": self.owner_user_id, "chat_id": self.chat_id,
            "subject_person_ids": list(self.subject_person_ids), "source": self.source,
            "expires_at": self.expires_at, "superseded_at": self.superseded_at,
            "superseded_by_id": self.superseded_by_id, "embedded": self.embedded,
            "archived_at": self.archived_at, "archive_reason": self.archive_reason,
        }


@dataclass(frozen=True)
class SearchHit:
    """One search result: the memory, its fused score, its cosine similarity (when the
    vector search found it), the names of the people it is about, and how it was found
    ("meaning", "words", "person", "entity", "time", "reply", strongest first)."""

    memory: MemoryItem
    score: float
    similarity: float | None
    subjects: list[str]
    reasons: list[str]

    @classmethod
    def from_wit(cls, r: Any) -> "SearchHit":
        sim = field(r, "similarity")
        reasons = [_enum(x) or "" for x in field(r, "reasons")]
        return cls(MemoryItem.from_wit(field(r, "memory")), field(r, "score"), sim, list(field(r, "subjects")), reasons)

    def to_dict(self) -> dict[str, Any]:
        """The memory's fields plus `score`, `similarity`, `subjects` and `reasons`."""
        d = self.memory.to_dict()
        d["score"] = float(self.score)
        d["similarity"] = None if self.similarity is None else float(self.similarity)
        d["subjects"] = list(self.subjects)
        d["reasons"] = list(self.reasons)
        return d


@dataclass(frozen=True)
class SearchResults:
    """Hits, best first, and notices for the caller."""

    hits: list[SearchHit]
    notices: list[str]

    @classmethod
    def from_wit(cls, r: Any) -> "SearchResults":
        return cls([SearchHit.from_wit(h) for h in field(r, "hits")], list(field(r, "notices")))

    def to_dict(self) -> dict[str, Any]:
        return {"hits": [h.to_dict() for h in self.hits], "notices": list(self.notices)}

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)


@dataclass(frozen=True)
class Superseded:
    """A memory a new one replaced (an older one, or one of the same call), and the id of
    the one that replaced it."""

    memory: MemoryItem
    superseded_by_id: str

    def to_dict(self) -> dict[str, Any]:
        return {"memory": self.memory.to_dict(), "superseded_by_id": self.superseded_by_id}


@dataclass(frozen=True)
class Added:
    """What an add (or a correction) stored, replaced and evicted, and what it found
    already stored."""

    memories: list[MemoryItem]
    superseded: list[Superseded]
    evicted: list[MemoryItem]
    #: Ids in `memories` that were already stored: the fact was told again, so no new
    #: memory was written.
    restated: list[str]

    @classmethod
    def from_wit(cls, r: Any) -> "Added":
        return cls(
            [MemoryItem.from_wit(m) for m in field(r, "memories")],
            [Superseded(MemoryItem.from_wit(m), by) for m, by in field(r, "superseded")],
            [MemoryItem.from_wit(m) for m in field(r, "evicted")],
            list(field(r, "restated")),
        )

    @property
    def memory(self) -> MemoryItem:
        """The first memory stored (the only one, for a single add)."""
        return self.memories[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "memories": [m.to_dict() for m in self.memories],
            "superseded": [s.to_dict() for s in self.superseded],
            "evicted": [m.to_dict() for m in self.evicted],
            "restated": list(self.restated),
        }


@dataclass(frozen=True)
class Forgotten:
    """What forgetting a person did."""

    person: "Person"
    #: Memories about them alone: archived, or removed with `purge`.
    archived: list[str]
    #: Memories about them and others, which lost them as a subject.
    unlinked: list[str]
    #: Older archive entries about them alone that `purge` removed.
    purged: int

    @classmethod
    def from_wit(cls, r: Any) -> "Forgotten":
        return cls(Person.from_wit(field(r, "person")), list(field(r, "archived")), list(field(r, "unlinked")),
                   field(r, "purged"))

    def to_dict(self) -> dict[str, Any]:
        return {"person": self.person.to_dict(), "archived": list(self.archived),
                "unlinked": list(self.unlinked), "purged": self.purged}


@dataclass(frozen=True)
class Person:
    """A person in a user's life."""

    id: str
    name: str
    relation: str | None
    aliases: list[str]
    created_at: str
    updated_at: str | None
    #: (person id, what that person is to this one).
    relationships: list[tuple[str, str]] = dc_field(default_factory=list)

    @classmethod
    def from_wit(cls, r: Any) -> "Person":
        return cls(field(r, "id"), field(r, "name"), field(r, "relation"), list(field(r, "aliases")),
                   field(r, "created_at"), field(r, "updated_at"),
                   [(p, rel) for p, rel in field(r, "relationships")])

    def to_dict(self) -> dict[str, Any]:
        """The person with the people.jsonl field names."""
        return {
            "id": self.id, "name": self.name, "relation": self.relation, "aliases": list(self.aliases),
            "created_at": self.created_at, "updated_at": self.updated_at,
            "relationships": [{"person_id": p, "relation": rel} for p, rel in self.relationships],
        }


@dataclass(frozen=True)
class PastMessage:
    """A message of another of the caller's sessions, as the context shows it."""

    id: str
    #: The session's name.
    session: str
    #: "user" or "assistant".
    role: str
    content: str
    created_at: str
    #: Cosine similarity to the query; 0 for a message found by its words with no
    #: vector to measure. Not the order, which weighs words too.
    score: float

    @classmethod
    def from_wit(cls, r: Any) -> "PastMessage":
        return cls(field(r, "id"), field(r, "session"), _enum(field(r, "role")) or "", field(r, "content"),
                   field(r, "created_at"), field(r, "score"))

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "session": self.session, "role": self.role, "content": self.content,
                "created_at": self.created_at, "score": float(self.score)}


@dataclass(frozen=True)
class ContextBlock:
    """The context to inject into a system prompt before a response."""

    people: list[Person]
    memories: list[SearchHit]
    markdown: str
    estimated_tokens: int
    dropped: int
    #: "Relevant past messages": of the caller's other sessions, the most relevant first.
    past_messages: list[PastMessage] = dc_field(default_factory=list)
    #: "About the user": the caller's profile notes, most important first.
    profile: list[str] = dc_field(default_factory=list)

    @classmethod
    def from_wit(cls, r: Any) -> "ContextBlock":
        return cls([Person.from_wit(p) for p in field(r, "people")],
                   [SearchHit.from_wit(h) for h in field(r, "memories")],
                   field(r, "markdown"), field(r, "estimated_tokens"), field(r, "dropped"),
                   [PastMessage.from_wit(m) for m in field(r, "past_messages")], list(field(r, "profile")))

    def to_dict(self) -> dict[str, Any]:
        return {
            "people": [p.to_dict() for p in self.people],
            "memories": [h.to_dict() for h in self.memories],
            "past_messages": [m.to_dict() for m in self.past_messages],
            "profile": list(self.profile),
            "markdown": self.markdown, "estimated_tokens": self.estimated_tokens, "dropped": self.dropped,
        }


@dataclass(frozen=True)
class StoredTurn:
    """What storing one exchange wrote."""

    #: The session's id (its name maps to it for this caller).
    session_id: str
    #: The messages written: the user's, then the agent's.
    message_ids: list[str]
    #: How many secrets were replaced by `[redacted]`.
    redacted: int

    @classmethod
    def from_wit(cls, r: Any) -> "StoredTurn":
        return cls(field(r, "session_id"), list(field(r, "message_ids")), field(r, "redacted"))

    def to_dict(self) -> dict[str, Any]:
        return {"session_id": self.session_id, "message_ids": list(self.message_ids), "redacted": self.redacted}


@dataclass(frozen=True)
class Extraction:
    """What an extraction read, asked and stored."""

    #: Exchanges read.
    turns: int
    #: Calls made to the language model.
    llm_calls: int
    #: Whether the rule-based extractor was used (no language model answered).
    offline: bool
    #: Memories stored (`source` "extraction").
    stored: list[MemoryItem]
    #: Facts found but not stored, each with the reason.
    skipped: list[str]

    @classmethod
    def from_wit(cls, r: Any) -> "Extraction":
        return cls(field(r, "turns"), field(r, "llm_calls"), field(r, "offline"),
                   [MemoryItem.from_wit(m) for m in field(r, "stored")], list(field(r, "skipped")))

    def to_dict(self) -> dict[str, Any]:
        return {"turns": self.turns, "llm_calls": self.llm_calls, "offline": self.offline,
                "stored": [m.to_dict() for m in self.stored], "skipped": list(self.skipped)}


@dataclass(frozen=True)
class Profile:
    """The user's profile: notes, most important first, and the memories behind them."""

    notes: list[str]
    memory_ids: list[str]

    @classmethod
    def from_wit(cls, r: Any) -> "Profile":
        return cls(list(field(r, "notes")), list(field(r, "memory_ids")))

    def to_dict(self) -> dict[str, Any]:
        return {"notes": list(self.notes), "memory_ids": list(self.memory_ids)}


@dataclass(frozen=True)
class Archived:
    """One memory gc archived (or, on a dry run, would archive)."""

    id: str
    content: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "content": self.content, "archive_reason": self.reason}


@dataclass(frozen=True)
class GcReport:
    """What gc did (or would do, on a dry run)."""

    archived: list[Archived]
    dry_run: bool

    @classmethod
    def from_wit(cls, r: Any) -> "GcReport":
        return cls([Archived(field(a, "id"), field(a, "content"), _enum(field(a, "reason")) or "")
                    for a in field(r, "archived")], field(r, "dry_run"))

    def to_dict(self) -> dict[str, Any]:
        """`dry_run`, `archived`, and a count per reason."""
        counts: dict[str, int] = {}
        for a in self.archived:
            counts[a.reason] = counts.get(a.reason, 0) + 1
        return {"dry_run": self.dry_run, "archived": [a.to_dict() for a in self.archived], "counts": counts}


@dataclass(frozen=True)
class CompactReport:
    """What compact removed from the archive for good (or, without `force`, would remove)."""

    removed: list[str]
    kept: int
    forced: bool

    @classmethod
    def from_wit(cls, r: Any) -> "CompactReport":
        return cls(list(field(r, "removed")), field(r, "kept"), field(r, "forced"))

    def to_dict(self) -> dict[str, Any]:
        return {"removed": self.removed, "kept": self.kept, "forced": self.forced}


@dataclass(frozen=True)
class Finding:
    """One of doctor's checks: whether it passed, what it found, and whether it was mended."""

    check: str
    ok: bool
    detail: str
    fixed: bool

    @classmethod
    def from_wit(cls, f: Any) -> "Finding":
        return cls(field(f, "check"), field(f, "ok"), field(f, "detail"), field(f, "fixed"))

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check, "ok": self.ok, "detail": self.detail, "fixed": self.fixed}
