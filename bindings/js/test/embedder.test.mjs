// The static embedder gives the Rust host's vectors bit for bit (fixtures written by the
// Rust CLI: scripts/rust-vectors.mjs), including accents, CJK, emoji, punctuation, texts
// past 512 tokens and past the character cut, and texts of unknown tokens only.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { StaticEmbedder } from "../src/embedder.js";
import { openMemory, ConfigError } from "../src/index.js";
import { scratchDir } from "./helpers/scratch.mjs";

const fixtures = JSON.parse(fs.readFileSync(new URL("./fixtures/rust-vectors.json", import.meta.url), "utf8"));
const embedder = new StaticEmbedder();

test("vectors are bit-identical to the Rust host's", () => {
  let compared = 0;
  for (const { text, embedding } of fixtures) {
    const [v] = embedder.embed([text]);
    if (embedding === null) {
      // The Rust host stores no vector without a direction: only unknown tokens.
      assert.deepEqual(embedder.tokenIds(text), [], JSON.stringify(text.slice(0, 60)));
      continue;
    }
    assert.equal(Buffer.from(v.buffer).toString("base64"), embedding, JSON.stringify(text.slice(0, 60)));
    compared++;
  }
  assert.ok(compared >= 90, `compared ${compared}`);
});

test("the character cut and the 512-token cut apply", () => {
  const long = "alpha beta ".repeat(2000);
  assert.equal(embedder.tokenIds(long).length, 512);
  const [a, b] = embedder.embed(["peanut", "peanut".repeat(1) + " " + "é".repeat(101)]);
  assert.deepEqual(a, b, "an unknown word adds nothing");
});

test("vectors are unit length, 256 dimensions", () => {
  const [v] = embedder.embed(["I'm allergic to peanuts"]);
  assert.equal(v.length, 256);
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  assert.ok(Math.abs(norm - 1) < 1e-5);
});
