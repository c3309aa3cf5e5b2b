// The synchronous HTTP client and the OpenAI-compatible embedder and LLM against a real
// HTTP server on loopback: answers, retries on 5xx and 429 (counted), timeouts, refused connections,
// answers that are not JSON, keys kept out of messages, timer-range timeouts, a stopped
// worker replaced, and a memory whose embedder is the service.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { HttpClient } from "../src/http.js";
import { OpenAiEmbedder, OpenAiLlm } from "../src/openai.js";
import { openMemory } from "../src/index.js";
import { scratchDir } from "./helpers/scratch.mjs";

let server;
let base;

before(async () => {
  server = spawn(process.execPath, [new URL("./helpers/fake-openai.mjs", import.meta.url).pathname], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const [chunk] = await once(server.stdout, "data");
  base = `http://127.0.0.1:${String(chunk).trim()}`;
});

after(() => {
  server.stdin.end();
});

test("embeddings come back in order and unit length", () => {
  const e = new OpenAiEmbedder(new HttpClient({ timeoutSecs: 5 }), `${base}/ok/v1/`, "m", 8);
  const [a, b] = e.embed(["one", "three"]);
  assert.equal(a.length, 8);
  assert.ok(Math.abs(Math.hypot(...a) - 1) < 1e-6);
  assert.notDeepEqual(a, b);
  assert.equal(e.modelId(), "openai:m");
  e.close();
});

/** What the fake service counted for a behaviour: requests received, and those it failed. */
async function served(mode) {
  return (await fetch(`${base}/count/${mode}`)).json();
}

test("a 500 is retried", async () => {
  // The flaky service fails its first request and every other one after: each embedding
  // takes one 500 and one retry that succeeds.
  const e = new OpenAiEmbedder(new HttpClient({ timeoutSecs: 5, backoffMs: 10 }), `${base}/flaky/v1`, "m", 4);
  for (let i = 0; i < 3; i++) assert.equal(e.embed(["x"]).length, 1);
  e.close();
  assert.deepEqual(await served("flaky"), { requests: 6, failed: 3 }, "three 500s, each retried once");
  // Without retries the 500 reaches the caller.
  const once = new HttpClient({ timeoutSecs: 5, retries: 0 });
  assert.throws(() => once.postJson(`${base}/flaky/v1/embeddings`, { input: ["x"], dimensions: 4 }), /HTTP 500/);
  once.close();
  assert.deepEqual(await served("flaky"), { requests: 7, failed: 4 });
});

test("a 429 is retried, then reported with its status", async () => {
  const http = new HttpClient({ timeoutSecs: 5, retries: 2, backoffMs: 10 });
  const started = performance.now();
  assert.throws(() => http.postJson(`${base}/busy/v1/embeddings`, {}), /HTTP 429: \{"error":"slow down"\}/);
  assert.ok(performance.now() - started >= 30, "backed off 10 + 20 ms");
  http.close();
  assert.deepEqual(await served("busy"), { requests: 3, failed: 3 }, "one request and two retries");
});

test("a slow service times out, a closed port is refused, junk is not JSON", () => {
  const http = new HttpClient({ timeoutSecs: 1, retries: 0 });
  assert.throws(() => http.postJson(`${base}/slow/v1/embeddings`, { input: [] }), /no answer within 1 s/);
  assert.throws(() => http.postJson("http://127.0.0.1:9/v1/embeddings", {}), /cannot connect/);
  assert.throws(() => http.postJson(`${base}/junk/v1/embeddings`, {}), /the answer is not JSON/);
  http.close();
});

test("the LLM sends the key from the environment, never in a message", () => {
  process.env.ASH_TEST_KEY = "sekrit";
  const llm = new OpenAiLlm(new HttpClient({ timeoutSecs: 5, apiKeyEnv: "ASH_TEST_KEY" }), `${base}/ok/v1`, "gpt");
  assert.equal(llm.complete({ system: "s", prompt: "p", maxTokens: 5 }), "auth=Bearer sekrit model=gpt");
  const down = new OpenAiLlm(new HttpClient({ timeoutSecs: 1, retries: 0, apiKeyEnv: "ASH_TEST_KEY" }), "http://127.0.0.1:9/v1", "gpt");
  assert.throws(() => down.complete({ system: "s", prompt: "p", maxTokens: 5 }), (e) => e.tag === "unavailable" && !e.val.includes("sekrit"));
  llm.close();
  down.close();
});

test("a key that is not a valid header value never appears in a message", () => {
  // undici quotes an invalid header value in its error, "Bearer <key>" included.
  process.env.ASH_TEST_BAD_KEY = "sk-sekrit\nsecond-line";
  const http = new HttpClient({ timeoutSecs: 2, retries: 0, apiKeyEnv: "ASH_TEST_BAD_KEY" });
  assert.throws(
    () => http.postJson(`${base}/ok/v1/embeddings`, { input: ["x"], dimensions: 2 }),
    (e) => /not a valid HTTP header value/.test(e.message) && !e.message.includes("sk-sekrit"),
  );
  http.close();
  delete process.env.ASH_TEST_BAD_KEY;
});

test("a timeout beyond Node's timer range is capped, not cut to 1 ms", () => {
  // 30 days: more than a Node timer holds (2^31 - 1 ms).
  const e = new OpenAiEmbedder(new HttpClient({ timeoutSecs: 30 * 86400 }), `${base}/ok/v1`, "m", 4);
  assert.equal(e.embed(["x"]).length, 1);
  e.close();
});

test("a worker that stopped is replaced by the next request", async () => {
  // A request posted to the stopped worker would get no answer: it would fail at the wait's
  // limit ("no answer from the HTTP worker"), not come back with the service's answer.
  const http = new HttpClient({ timeoutSecs: 1, retries: 0, backoffMs: 10 });
  const stopped = http.start();
  await stopped.terminate();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(http.postJson(`${base}/ok/v1/chat/completions`, { model: "m" }).choices.length, 1);
  assert.ok(http.worker && http.worker !== stopped, "a new worker answered");
  http.close();
});

test("a memory embeds through the configured service, and falls back when it is down", async () => {
  const home = scratchDir("ash-http-");
  fs.writeFileSync(
    path.join(home, "config.toml"),
    `[embedder]\nprovider = "openai"\nbase_url = "${base}/ok/v1"\nmodel = "m"\ndimensions = 16\n\n[llm]\nbase_url = "${base}/junk/v1"\nmodel = "x"\ntimeout_secs = 2\n`,
  );
  const mem = await openMemory({ home, now: "2026-03-01T12:00:00Z" });
  const added = await mem.add({ user: "alice" }, { content: "I live in Lisbon" });
  assert.equal(added.memories[0].embedded, true);
  assert.equal((await mem.search({ user: "alice" }, { query: "Lisbon" })).hits.length, 1);
  mem.close();
  const line = JSON.parse(fs.readFileSync(path.join(home, "memory/memories.jsonl"), "utf8").trim());
  assert.equal(line.embedding_model, "openai:m");
});
