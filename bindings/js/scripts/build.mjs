// `npm run build`: transpiles the policy component with jco (instantiation mode, so that
// the imports are supplied as objects) into generated/, ships a copy of the component
// itself, copies the embedded models into model/, and records the sha256 of the input and of every output, which the loader
// checks: the JS that runs is the transpilation of the component the package ships.

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
const input = path.resolve(process.env.ASH_COMPONENT || path.join(root, "../../target/ash_memory.wasm"));
const out = path.join(root, "generated");
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

if (!fs.existsSync(input)) {
  console.error(`no component at ${input}: build it (cargo build) or set ASH_COMPONENT`);
  process.exit(1);
}
const bytes = fs.readFileSync(input);
// jco's package.json is not exported; its folder is found from its entry point.
const require = createRequire(import.meta.url);
let jcoDir = path.dirname(require.resolve("@bytecodealliance/jco"));
while (!fs.existsSync(path.join(jcoDir, "package.json"))) jcoDir = path.dirname(jcoDir);
const jcoPackage = JSON.parse(fs.readFileSync(path.join(jcoDir, "package.json"), "utf8"));
const jcoVersion = jcoPackage.version;
const jcoBin = path.join(jcoDir, jcoPackage.bin.jco);

// Everything is built in a fresh folder beside generated/ and swapped in whole at the end, so
// that a build killed halfway, or two builds at once, never leave a half-written generated/.
const staging = fs.mkdtempSync(path.join(root, ".generated-"));
fs.chmodSync(staging, 0o755);
process.on("exit", () => fs.rmSync(staging, { recursive: true, force: true }));
const run = spawnSync(
  process.execPath,
  [jcoBin, "transpile", input, "-o", staging, "--name", "policy", "--instantiation", "sync", "--quiet"],
  { stdio: "inherit" },
);
if (run.status !== 0) {
  console.error("jco transpile failed");
  process.exit(run.status ?? 1);
}
fs.writeFileSync(path.join(staging, "ash_memory.wasm"), bytes);

// jco 1.35's generated `_debugLog` reads `process.env.JCO_DEBUG` at every call, and the glue
// calls it several times for each call between the policy and its imports (a rebuild of
// 10,000 memories spent 80 ms in it); the variable is read once, at load, instead.
const glue = path.join(staging, "policy.js");
const debugLog = `  const _debugLog = (...args) => {
    if (!globalThis?.process?.env?.JCO_DEBUG) { return; }
    console.debug(...args);
  };`;
const glueText = fs.readFileSync(glue, "utf8");
if (glueText.includes(debugLog)) {
  fs.writeFileSync(glue, glueText.replace(debugLog, `  const _jcoDebug = Boolean(globalThis?.process?.env?.JCO_DEBUG);
  const _debugLog = (...args) => {
    if (_jcoDebug) console.debug(...args);
  };`));
}

// jco 1.35 declares an export named after a reserved word (`delete`) as a bare
// `function _delete(...)` in the .d.ts, which TypeScript refuses outside `declare`
// (TS1046) unless the user's project skips library checks; the public types import these.
const interfaces = path.join(staging, "interfaces");
for (const name of fs.readdirSync(interfaces)) {
  const file = path.join(interfaces, name);
  const text = fs.readFileSync(file, "utf8");
  const fixed = text.replace(/^function /gm, "declare function ");
  if (fixed !== text) fs.writeFileSync(file, fixed);
}

// The embedded models: the very files the Rust binary embeds, copied rather than kept in git
// twice, and the transformer's encoder as the Rust build compiled it to WebAssembly
// (`encoder/wasm`; $ASH_ENCODER names another copy, which `ash-memory component --encoder
// --out FILE` writes).
const modelSource = path.join(root, "../../host/model");
const modelDir = path.join(root, "model");
const encoder = path.resolve(process.env.ASH_ENCODER || path.join(path.dirname(input), "ash_memory_encoder.wasm"));
const copies = [
  ...["tokenizer.json", "model.safetensors", "config.json", "NOTICE"].map((name) => [path.join(modelSource, name), name]),
  ...["tokenizer.json", "model.safetensors"].map((name) => [path.join(modelSource, "transformer", name), `transformer/${name}`]),
  [encoder, "transformer/encoder.wasm"],
];
fs.mkdirSync(path.join(modelDir, "transformer"), { recursive: true });
for (const [from, name] of copies) {
  if (fs.existsSync(from)) {
    // Copied under a private name and renamed, so that a reader never sees half a model.
    const partial = path.join(modelDir, `${name}.${process.pid}.partial`);
    fs.copyFileSync(from, partial);
    fs.renameSync(partial, path.join(modelDir, name));
  }
  else if (!fs.existsSync(path.join(modelDir, name))) {
    console.error(`no ${from}: build from the ash-memory repository (cargo build writes the encoder)`);
    process.exit(1);
  }
}

const files = {};
for (const name of fs.readdirSync(staging).sort()) {
  if (name.endsWith(".wasm") || name.endsWith(".js")) files[name] = sha256(fs.readFileSync(path.join(staging, name)));
}
const info = {
  component: "ash_memory.wasm",
  sha256: sha256(bytes),
  source: path.basename(input),
  jco: jcoVersion,
  files,
};
fs.writeFileSync(path.join(staging, "build-info.json"), JSON.stringify(info, null, 2) + "\n");
// A directory cannot be renamed over a full one: the old generated/ steps aside first. When
// another build swaps its own in between the two renames, this one steps that aside in turn.
const retired = `${staging}.old`;
for (let attempt = 1; ; attempt++) {
  try {
    fs.renameSync(out, retired);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  try {
    fs.renameSync(staging, out);
    break;
  } catch (error) {
    if (!["ENOTEMPTY", "EEXIST"].includes(error.code) || attempt === 5) throw error;
    fs.rmSync(retired, { recursive: true, force: true });
  }
}
fs.rmSync(retired, { recursive: true, force: true });
console.log(`built generated/ from ${input} (sha256 ${info.sha256})`);
