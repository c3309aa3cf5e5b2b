// Loads the transpiled policy component from generated/ (see scripts/build.mjs), after
// checking that it is the transpilation of the component file the package ships: the
// sha256 recorded at build time must match the shipped .wasm and every output file.

import { createHash } from "node:crypto";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { SandboxError } from "./errors.js";

const GENERATED = fileURLToPath(new URL("../generated/", import.meta.url));

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

let loaded = null;

/** The build record, read once; throws a SandboxError when the build is missing. */
function buildInfo() {
  try {
    return JSON.parse(fs.readFileSync(GENERATED + "build-info.json", "utf8"));
  } catch {
    throw new SandboxError(
      `cannot load the policy component: ${GENERATED} has no build; run \`npm run build\` in the package folder`,
    );
  }
}

/** The path of the original component file the package ships. */
export function componentPath() {
  return GENERATED + buildInfo().component;
}

/** The sha256 (hex) of the component the package ships, as recorded when it was built. */
export function componentSha256() {
  return buildInfo().sha256;
}

/**
 * The transpiled component: its `instantiate` function and compiled core modules,
 * verified and compiled once per process.
 * @returns {Promise<{ instantiate: Function, getCoreModule: (p: string) => WebAssembly.Module, sha256: string }>}
 */
export async function loadComponent() {
  if (loaded) return loaded;
  const info = buildInfo();
  const actual = sha256(fs.readFileSync(GENERATED + info.component));
  if (actual !== info.sha256) {
    throw new SandboxError(
      `cannot load the policy component: ${info.component} has sha256 ${actual}, but generated/ was built from ${info.sha256}; run \`npm run build\``,
    );
  }
  const modules = new Map();
  for (const [name, digest] of Object.entries(info.files)) {
    const bytes = fs.readFileSync(GENERATED + name);
    if (sha256(bytes) !== digest) {
      throw new SandboxError(`cannot load the policy component: generated/${name} changed since the build; run \`npm run build\``);
    }
    if (name.endsWith(".core.wasm") || /\.core\d+\.wasm$/.test(name)) modules.set(name, new WebAssembly.Module(bytes));
  }
  const { instantiate } = await import(new URL("../generated/policy.js", import.meta.url).href);
  const getCoreModule = (p) => {
    const m = modules.get(p);
    if (!m) throw new SandboxError(`cannot load the policy component: no core module ${p}`);
    return m;
  };
  loaded = { instantiate, getCoreModule, sha256: info.sha256 };
  return loaded;
}
