// Regenerates test/fixtures/rust-vectors.json: vectors written by the Rust CLI
// (target/debug/ash-memory, or $ASH_CLI) for varied texts, which the embedder test
// compares bit for bit. Each text is added for its own user, in one scratch home. With
// `--transformer`, the transformer's vectors instead, into rust-transformer-vectors.json.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = process.env.ASH_CLI || path.join(root, "../../target/debug/ash-memory");
const texts = JSON.parse(fs.readFileSync(path.join(root, "test/fixtures/texts.json"), "utf8"));
const transformer = process.argv.includes("--transformer");
const home = fs.mkdtempSync(path.join(os.tmpdir(), "ash-vectors-"));
fs.writeFileSync(path.join(home, "config.toml"), `[embedder]\nprovider = "${transformer ? "transformer" : "static"}"\n`);
const out = [];
texts.forEach((text, i) => {
  const r = spawnSync(cli, ["--home", home, "--user", `u${i}`, "--now", "2026-03-01T12:00:00Z", "add", "--", text], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${JSON.stringify(text.slice(0, 40))}: ${r.stderr}`);
});
const lines = fs.readFileSync(path.join(home, "memory/memories.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
const byUser = new Map(lines.map((l) => [l.owner_user_id, l.embedding ?? null]));
texts.forEach((text, i) => out.push({ text, embedding: byUser.get(`u${i}`) }));
const name = transformer ? "rust-transformer-vectors.json" : "rust-vectors.json";
fs.writeFileSync(path.join(root, "test/fixtures", name), JSON.stringify(out, null, 0) + "\n");
fs.rmSync(home, { recursive: true, force: true });
console.log(`${out.length} vectors written`);
