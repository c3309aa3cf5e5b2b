// The transformer embedder: the Rust host's encoder compiled to WebAssembly, with the model's
// tokenizer. Its vectors are compared bit for bit with the Rust CLI's (fixtures written by
// `scripts/rust-vectors.mjs --transformer`), and a home on it answers a paraphrase.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { TransformerEmbedder } from "../src/transformer.js";
import { openMemory } from "../src/index.js";
import { scratchDir } from "./helpers/scratch.mjs";

const fixtures = JSON.parse(fs.readFileSync(new URL("./fixtures/rust-transformer-vectors.json", import.meta.url), "utf8"));
const embedder = new TransformerEmbedder();
const NOW = "2026-03-01T12:00:00Z";
const alice = { user: "alice" };

test("vectors are bit-identical to the Rust host's", () => {
  const texts = fixtures.map((f) => f.text);
  // One batch, as an import embeds: each text must still get the vector it gets alone.
  const vectors = embedder.embed(texts);
  const different = fixtures.filter(({ embedding }, k) => Buffer.from(vectors[k].buffer, vectors[k].byteOffset, vectors[k].byteLength).toString("base64") !== embedding);
  assert.deepEqual(different.map((f) => f.text.slice(0, 60)), []);
  assert.ok(fixtures.length >= 100, `${fixtures.length} fixtures`);
  assert.ok(texts.some((t) => embedder.tokenIds(t).length === 256), "a text past the 256-token cut");
});

test("texts are cut at the model's 256 tokens, [SEP] kept", () => {
  const ids = embedder.tokenIds("alpha beta ".repeat(400));
  assert.equal(ids.length, 256);
  assert.deepEqual([ids[0], ids[255]], [101, 102]);
});

test("a home on the transformer finds what a paraphrase asks, and records the model with each vector", async () => {
  const home = scratchDir("ash-transformer-");
  fs.writeFileSync(path.join(home, "config.toml"), '[embedder]\nprovider = "transformer"\n');
  const mem = await openMemory({ home, now: NOW });
  for (const content of [
    "I drive a 2015 Subaru Outback",
    "I work as a nurse at the county hospital",
    "My favorite color is blue",
    "The standup is at 9:30 every weekday",
  ]) {
    await mem.add(alice, { content });
  }
  const found = await mem.search(alice, { query: "What vehicle do I own?", limit: 3 });
  assert.equal(found.hits[0].content, "I drive a 2015 Subaru Outback");
  assert.ok(found.hits[0].similarity > 0.4, `similarity ${found.hits[0].similarity}`);
  mem.close();
  const lines = fs.readFileSync(path.join(home, "memory/memories.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.ok(lines.every((l) => l.embedding_model === TransformerEmbedder.MODEL_ID));
});

test("a module that cannot load leaves adds stored without a vector, found by their words", async () => {
  const home = scratchDir("ash-transformer-broken-");
  const broken = scratchDir("ash-no-model-");
  const mem = await openMemory({ home, now: NOW, embedder: new TransformerEmbedder(broken) });
  const added = await mem.add(alice, { content: "I drive a 2015 Subaru Outback" });
  assert.equal(added.memories[0].embedded, false);
  const found = await mem.search(alice, { query: "Subaru" });
  assert.equal(found.hits[0].content, "I drive a 2015 Subaru Outback");
  mem.close();
});
