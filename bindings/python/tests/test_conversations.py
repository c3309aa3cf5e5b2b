"""Conversations end to end on the real component, files and SQLite, with the embedded
embedder and no language model: turns are stored in sessions.jsonl and messages.jsonl, the
rules extractor reads them once, the profile and the context draw on them, secrets never
reach the disk, and another user sees none of it. Also the index's two kinds, and the
extraction settings of config.toml."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ash_memory
from ash_memory import InvalidInput, InvalidParams, Memory, rpc

NOW = "2026-03-01T12:00:00Z"


def lines(home: Path, name: str) -> list[str]:
    return [line for line in (home / "memory" / name).read_text(encoding="utf-8").split("\n") if line]


@pytest.fixture
def talked(home: Path):
    """A memory where alice talked in sessions "a" and "b", and the talk was read for facts."""
    with Memory(home, now=NOW, ids="sequential", user="alice") as m:
        first = m.turn("a", "I'm allergic to peanuts", "Noted.")
        assert len(first.message_ids) == 2 and first.redacted == 0
        second = m.turn("a", "My wife's name is Sarah")
        assert second.session_id == first.session_id and len(second.message_ids) == 1
        other = m.turn("b", "What should we cook tonight?", "How about a stir-fry?", provider="cli")
        assert other.session_id != first.session_id
        yield m, m.extract()


def test_turns_are_stored_read_once_and_feed_the_profile_and_the_context(talked, home: Path):
    m, extraction = talked
    assert set(extraction.to_dict()) == {"turns", "llm_calls", "offline", "stored", "skipped"}
    assert extraction.offline is True and extraction.llm_calls == 0 and extraction.turns == 3
    assert len(extraction.stored) == 2, extraction
    assert all(x.source == "extraction" for x in extraction.stored)
    contents = " | ".join(x.content for x in extraction.stored)
    assert "peanuts" in contents and "Sarah" in contents
    assert len([x for x in m.list() if x.source == "extraction"]) == 2

    # One line per message; a session's line is written again as it changes, the last wins.
    assert len(lines(home, "messages.jsonl")) == 5
    latest = {s["id"]: s for s in map(json.loads, lines(home, "sessions.jsonl"))}
    assert sorted((s["name"], s["turns"]) for s in latest.values()) == [("a", 2), ("b", 1)]

    # Each exchange is read once.
    again = m.extract()
    assert again.stored == [] and again.turns == 0
    assert m.extract("a").stored == []

    profile = m.profile()
    assert set(profile.to_dict()) == {"notes", "memory_ids"}
    assert any("allergic to peanuts" in n for n in profile.notes), profile
    assert len(profile.notes) == len(profile.memory_ids)

    block = m.context("what can I eat with peanuts", session="b")
    past = [p for p in block.past_messages if p.session == "a" and "peanuts" in p.content]
    assert past, block.past_messages
    assert set(past[0].to_dict()) == {"id", "session", "role", "content", "created_at", "score"}
    assert past[0].role == "user" and past[0].created_at == "2026-03-01T12:00:00+00:00"
    assert past[0].score >= 0.3
    assert all(p.session != "b" for p in block.past_messages), "never the current session"
    assert any("allergic to peanuts" in n for n in block.profile), block.profile
    d = block.to_dict()
    assert d["past_messages"][0]["session"] == "a" and d["profile"] == block.profile
    assert "peanuts" in block.markdown
    # Within its own session, a message is not "past".
    assert all(p.session != "a" for p in m.context("what can I eat with peanuts", session="a").past_messages)

    # A secret is redacted before anything is written, embedded or indexed.
    secret = m.turn("c", "my password is hunter2", "I won't repeat it.")
    assert secret.redacted >= 1
    assert m.extract().stored == []
    m.context("what is my password?", session="d")
    m.close()
    for p in home.rglob("*"):
        if p.is_file():
            assert b"hunter2" not in p.read_bytes(), f"{p} holds the secret"
    assert any("[redacted]" in line for line in lines(home, "messages.jsonl"))


def test_another_user_sees_none_of_the_callers_past_messages_or_profile(talked):
    m, _ = talked
    block = m.context("what can I eat with peanuts", session="b", user="bob")
    assert block.past_messages == [] and block.profile == [] and block.memories == []
    assert m.profile(user="bob").notes == []
    extraction = m.extract(user="bob")
    assert extraction.turns == 0 and extraction.stored == []
    # Nor does alice in a chat: past talk quoted into a group must have been said there.
    assert m.context("what can I eat with peanuts", chat="team").past_messages == []


def test_conversation_calls_refuse_bad_input_and_rpc_answers_the_same_shapes(home: Path):
    with Memory(home, now=NOW, ids="sequential", user="alice") as m:
        for bad in (lambda: m.turn("a", ""), lambda: m.turn("", "hi"), lambda: m.turn("a", 42),  # type: ignore[arg-type]
                    lambda: m.turn("a", "hi", 3),  # type: ignore[arg-type]
                    lambda: m.extract("nope"), lambda: m.profile(user=None, chat="team")):
            with pytest.raises(InvalidInput):
                bad()
        assert not (home / "memory" / "messages.jsonl").exists()

        turned = rpc.call(m, "conversations.turn", {"user_id": "alice", "session": "a",
                                                    "user_message": "I live in Lisbon", "assistant_message": "Nice."})
        assert set(turned) == {"session_id", "message_ids", "redacted"}
        extracted = rpc.call(m, "conversations.extract", {"user_id": "alice", "session": "a"})
        assert len(extracted["stored"]) == 1 and extracted["stored"][0]["source"] == "extraction"
        profile = rpc.call(m, "conversations.profile", {"user_id": "alice"})
        assert any("Lisbon" in n for n in profile["notes"])
        block = rpc.call(m, "memory.context", {"user_id": "alice", "message": "where do I live?", "session": "b"})
        assert isinstance(block["past_messages"], list) and isinstance(block["profile"], list)
        with pytest.raises(InvalidParams, match="missing field `user_message`"):
            rpc.call(m, "conversations.turn", {"session": "a"})
        with pytest.raises(InvalidParams, match="unknown field `session`"):
            rpc.call(m, "conversations.profile", {"session": "a"})


def test_extraction_settings_come_from_config(home: Path):
    home.mkdir()
    (home / "config.toml").write_text("[memory]\nextraction_enabled = false\n")
    with Memory(home, now=NOW, user="alice") as m:
        m.turn("a", "I'm allergic to peanuts")
        off = m.extract()
        assert off.stored == [] and off.turns == 0 and off.skipped
    for bad in ("extraction_confidence_threshold = 1.5", "extraction_confidence_threshold = -0.1",
                "extraction_confidence_threshold = nan", 'extraction_confidence_threshold = "high"',
                "extraction_enabled = 1"):
        (home / "config.toml").write_text(f"[memory]\n{bad}\n")
        with pytest.raises(ash_memory.ConfigError) as e:
            Memory(home)
        assert "extraction_" in str(e.value) and e.value.kind == "config"
    # The threshold reaches the guest: a model's fact below it is skipped, one above stored.
    (home / "config.toml").write_text("[memory]\nextraction_confidence_threshold = 0.9\n")
    with Memory(home, now=NOW, user="alice", llm=FactsLlm()) as m:
        m.turn("b", "I'm allergic to peanuts and I live in Lisbon")
        extraction = m.extract("b")
        assert extraction.llm_calls == 1 and extraction.offline is False
        assert [x.content for x in extraction.stored] == ["I live in Lisbon"], extraction
        assert any("below" in why for why in extraction.skipped), extraction.skipped


class FactsLlm:
    """A language model that finds two facts in any exchange, one of them unsure."""

    is_remote = False

    def complete(self, system: str, prompt: str, max_tokens: int) -> str:
        return json.dumps({"facts": [
            {"content": "I'm allergic to peanuts", "type": "identity", "confidence": 0.8},
            {"content": "I live in Lisbon", "type": "identity", "confidence": 0.95},
        ]})


