// Conversations end to end on the real component, files and SQLite, with the embedded
// embedder and no language model: turns are stored in sessions.jsonl and messages.jsonl,
// the rules extractor reads them once, the profile and the context draw on them, secrets
// never reach the disk, and another user sees none of it.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openMemory, ConfigError, InvalidInputError } from "../src/index.js";
import { callMethod } from "../src/rpc.js";
import { scratchDir } from "./helpers/scratch.mjs";

const NOW = "2026-03-01T12:00:00Z";
const alice = { user: "alice" };
const bob = { user: "bob" };

/** The lines of a JSONL file of the home. */
function lines(home, name) {
  return fs.readFileSync(path.join(home, "memory", name), "utf8").split("\n").filter((l) => l !== "");
}

/** Every file under a folder, with its bytes. */
function everyFile(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push([p, fs.readFileSync(p)]);
    }
  };
  walk(dir);
  return out;
}

/** A home where alice talked in sessions "a" and "b", and the talk was read for facts. */
async function talked() {
  const home = scratchDir("ash-js-conv-");
  const mem = await openMemory({ home, now: NOW, ids: "sequential" });
  const first = await mem.turn(alice, { session: "a", userMessage: "I'm allergic to peanuts", assistantMessage: "Noted." });
  assert.equal(first.message_ids.length, 2);
  assert.equal(first.redacted, 0);
  const second = await mem.turn(alice, { session: "a", userMessage: "My wife's name is Sarah" });
  assert.equal(second.session_id, first.session_id, "the same session, by name");
  assert.equal(second.message_ids.length, 1);
  const other = await mem.turn(alice, {
    session: "b", userMessage: "What should we cook tonight?", assistantMessage: "How about a stir-fry?", provider: "cli",
  });
  assert.notEqual(other.session_id, first.session_id);
  const extraction = await mem.extract(alice);
  return { home, mem, extraction };
}

test("turns are stored, read once for facts, and feed the profile and the context", async () => {
  const { home, mem, extraction } = await talked();
  assert.deepEqual(Object.keys(extraction).sort(), ["llm_calls", "offline", "skipped", "stored", "turns"]);
  assert.equal(extraction.offline, true);
  assert.equal(extraction.llm_calls, 0);
  assert.equal(extraction.turns, 3);
  assert.equal(extraction.stored.length, 2, JSON.stringify(extraction));
  assert.ok(extraction.stored.every((m) => m.source === "extraction"));
  const contents = extraction.stored.map((m) => m.content).join(" | ");
  assert.match(contents, /peanuts/);
  assert.match(contents, /Sarah/);
  assert.equal((await mem.list(alice)).filter((m) => m.source === "extraction").length, 2);

  // One line per message; a session's line is written again as it changes, the last wins.
  assert.equal(lines(home, "messages.jsonl").length, 5);
  const sessions = lines(home, "sessions.jsonl").map((l) => JSON.parse(l));
  const latest = new Map(sessions.map((s) => [s.id, s]));
  assert.deepEqual([...latest.values()].map((s) => [s.name, s.turns]).sort(), [["a", 2], ["b", 1]]);

  // Each exchange is read once.
  const again = await mem.extract(alice);
  assert.equal(again.stored.length, 0);
  assert.equal(again.turns, 0);
  assert.equal((await mem.extract(alice, { session: "a" })).stored.length, 0);

  const profile = await mem.profile(alice);
  assert.deepEqual(Object.keys(profile).sort(), ["memory_ids", "notes"]);
  assert.ok(profile.notes.some((n) => /allergic to peanuts/.test(n)), JSON.stringify(profile));
  assert.equal(profile.notes.length, profile.memory_ids.length);

  const block = await mem.context(alice, { message: "what can I eat with peanuts", session: "b" });
  const past = block.past_messages.find((m) => m.session === "a" && /peanuts/.test(m.content));
  assert.ok(past, JSON.stringify(block.past_messages));
  assert.deepEqual(Object.keys(past).sort(), ["content", "created_at", "id", "role", "score", "session"]);
  assert.equal(past.role, "user");
  assert.equal(past.created_at, "2026-03-01T12:00:00+00:00");
  assert.ok(past.score >= 0.3);
  assert.ok(block.past_messages.every((m) => m.session !== "b"), "never the current session");
  assert.ok(block.profile.some((n) => /allergic to peanuts/.test(n)), JSON.stringify(block.profile));
  assert.match(block.markdown, /peanuts/);
  // Within its own session, a message is not "past".
  const inA = await mem.context(alice, { message: "what can I eat with peanuts", session: "a" });
  assert.ok(inA.past_messages.every((m) => m.session !== "a"));

  // A secret is redacted before anything is written, embedded or indexed.
  const secret = await mem.turn(alice, { session: "c", userMessage: "my password is hunter2", assistantMessage: "I won't repeat it." });
  assert.ok(secret.redacted >= 1);
  assert.equal((await mem.extract(alice)).stored.length, 0);
  await mem.context(alice, { message: "what is my password?", session: "d" });
  mem.close();
  for (const [file, bytes] of everyFile(home)) {
    assert.ok(!bytes.includes("hunter2"), `${file} holds the secret`);
  }
  assert.ok(lines(home, "messages.jsonl").some((l) => l.includes("[redacted]")));
});

test("another user sees none of the caller's past messages or profile", async () => {
  const { mem } = await talked();
  const block = await mem.context(bob, { message: "what can I eat with peanuts", session: "b" });
  assert.deepEqual(block.past_messages, []);
  assert.deepEqual(block.profile, []);
  assert.deepEqual(block.memories, []);
  assert.deepEqual((await mem.profile(bob)).notes, []);
  const extraction = await mem.extract(bob);
  assert.equal(extraction.turns, 0);
  assert.equal(extraction.stored.length, 0);
  // Nor does alice in a chat: past talk quoted into a group must have been said there.
  const inChat = await mem.context({ user: "alice", chat: "team" }, { message: "what can I eat with peanuts" });
  assert.deepEqual(inChat.past_messages, []);
  mem.close();
});

test("conversation calls refuse bad input, and the RPC methods answer the same shapes", async () => {
  const home = scratchDir("ash-js-conv-");
  const mem = await openMemory({ home, now: NOW, ids: "sequential" });
  await assert.rejects(mem.turn(alice, { session: "a", userMessage: "" }), InvalidInputError);
  await assert.rejects(mem.turn(alice, { session: "", userMessage: "hi" }), InvalidInputError);
  await assert.rejects(mem.turn(alice, { session: "a" }), InvalidInputError);
  await assert.rejects(mem.turn(alice, { session: "a", userMessage: "hi", assistantMessage: 3 }), InvalidInputError);
  await assert.rejects(mem.extract(alice, { session: "nope" }), InvalidInputError);
  await assert.rejects(mem.profile({ chat: "team" }), InvalidInputError);
  assert.equal(fs.existsSync(path.join(home, "memory", "messages.jsonl")), false);

  const turned = await callMethod(mem, "conversations.turn", {
    user_id: "alice", session: "a", user_message: "I live in Lisbon", assistant_message: "Nice.",
  });
  assert.deepEqual(Object.keys(turned).sort(), ["message_ids", "redacted", "session_id"]);
  const extracted = await callMethod(mem, "conversations.extract", { user_id: "alice", session: "a" });
  assert.equal(extracted.stored.length, 1);
  assert.equal(extracted.stored[0].source, "extraction");
  const profile = await callMethod(mem, "conversations.profile", { user_id: "alice" });
  assert.ok(profile.notes.some((n) => /Lisbon/.test(n)));
  const block = await callMethod(mem, "memory.context", { user_id: "alice", message: "where do I live?", session: "b" });
  assert.ok(Array.isArray(block.past_messages) && Array.isArray(block.profile));
  await assert.rejects(callMethod(mem, "conversations.turn", { session: "a" }), /missing field `user_message`/);
  await assert.rejects(callMethod(mem, "conversations.profile", { session: "a" }), /unknown field `session`/);
  mem.close();
});

/** A language model that finds two facts in any exchange, one of them unsure. */
const factsLlm = {
  isRemote: () => false,
  complete: () => JSON.stringify({ facts: [
    { content: "I'm allergic to peanuts", type: "identity", confidence: 0.8 },
    { content: "I live in Lisbon", type: "identity", confidence: 0.95 },
  ] }),
};

test("the extraction settings come from config.toml", async () => {
  const home = scratchDir("ash-js-conv-");
  const config = path.join(home, "config.toml");
  fs.writeFileSync(config, "[memory]\nextraction_enabled = false\n");
  let mem = await openMemory({ home, now: NOW });
  await mem.turn(alice, { session: "a", userMessage: "I'm allergic to peanuts" });
  const off = await mem.extract(alice);
  assert.deepEqual([off.stored.length, off.turns], [0, 0]);
  assert.ok(off.skipped.length > 0);
  mem.close();
  for (const bad of [
    "extraction_confidence_threshold = 1.5", "extraction_confidence_threshold = -0.1",
    "extraction_confidence_threshold = nan", 'extraction_confidence_threshold = "high"', "extraction_enabled = 1",
  ]) {
    fs.writeFileSync(config, `[memory]\n${bad}\n`);
    await assert.rejects(openMemory({ home }), (e) => e instanceof ConfigError && /extraction_/.test(e.message), bad);
  }
  // The threshold reaches the guest: a model's fact below it is skipped, one above stored.
  fs.writeFileSync(config, "[memory]\nextraction_confidence_threshold = 0.9\n");
  mem = await openMemory({ home, now: NOW, llm: factsLlm });
  await mem.turn(alice, { session: "b", userMessage: "I'm allergic to peanuts and I live in Lisbon" });
  const extraction = await mem.extract(alice, { session: "b" });
  assert.equal(extraction.llm_calls, 1);
  assert.equal(extraction.offline, false);
  assert.deepEqual(extraction.stored.map((m) => m.content), ["I live in Lisbon"]);
  assert.ok(extraction.skipped.some((why) => /below/.test(why)), JSON.stringify(extraction.skipped));
  mem.close();
});
