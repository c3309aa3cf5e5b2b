// The `embedder` import's transformer, the default: all-MiniLM-L6-v2 with int8 weights, as
// the Rust host runs it (`[embedder] provider = "transformer"`). The arithmetic is the Rust
// host's own encoder crate compiled to a WebAssembly core module (`encoder/wasm`, copied into
// model/transformer/ by `npm run build`; its interface is documented in
// encoder/wasm/src/lib.rs); tokenizing is the model's tokenizer.json through
// @huggingface/tokenizers. The vectors are the Rust host's bit for bit (the encoder's kernels
// sum in one order on every target), because they are stored in memories.jsonl and
// compared across hosts.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Tokenizer } from "@huggingface/tokenizers";

const MODEL_DIR = fileURLToPath(new URL("../model/transformer/", import.meta.url));

/** Loaded encoders by folder, shared by every memory a process opens: loading copies 24 MB. */
const loaded = new Map();

/** The embedded transformer: 384 dimensions, no network. */
export class TransformerEmbedder {
  /** The model id recorded in the index (the Rust host's `TransformerEmbedder::MODEL_ID`). */
  static MODEL_ID = "all-minilm-l6-v2-int8";
  /** Its dimension. */
  static DIMENSION = 384;

  /** @param {string} [dir] a folder holding tokenizer.json, model.safetensors and encoder.wasm */
  constructor(dir = MODEL_DIR) {
    this.dir = dir;
  }

  /** Compiling the module and copying the weights in take tens of milliseconds, so they
   * happen on first use, once per process. */
  load() {
    let encoder = loaded.get(this.dir);
    if (!encoder) {
      encoder = unavailableOnFailure(() => loadEncoder(this.dir));
      loaded.set(this.dir, encoder);
    }
    return encoder;
  }

  /**
   * `text`'s token ids as the model was trained on them: [CLS], the text's, [SEP].
   * @param {string} text
   * @returns {number[]}
   */
  tokenIds(text) {
    const { tokenizer, maxTokens } = this.load();
    const ids = tokenizer.encode(text).ids;
    return ids.length <= maxTokens ? ids : [...ids.slice(0, maxTokens - 1), ids[ids.length - 1]];
  }

  /**
   * One unit vector per text; throws the import's `unavailable` error if the module fails.
   * @param {string[]} texts
   * @returns {Float32Array[]}
   */
  embed(texts) {
    if (texts.length === 0) return [];
    const { wasm } = this.load();
    const ids = texts.map((t) => this.tokenIds(t));
    return unavailableOnFailure(() => {
      try {
        return encode(wasm, ids);
      } catch (e) {
        // A trap may leave the module's allocator half-updated: the next call loads afresh.
        if (e instanceof WebAssembly.RuntimeError) loaded.delete(this.dir);
        throw e;
      }
    });
  }

  /** @returns {string} */
  modelId() {
    return TransformerEmbedder.MODEL_ID;
  }

  /** @returns {number} */
  dimension() {
    return TransformerEmbedder.DIMENSION;
  }

  /** The Rust host's 0.5: restatements score 0.5-0.75 with this model, unrelated facts
   * under 0.15. */
  supersessionThreshold() {
    return 0.5;
  }

  /** The Rust host's 0.25: below it the best hit found by meaning alone is noise. */
  weakSimilarity() {
    return 0.25;
  }

  /** Never waits on a network. */
  isRemote() {
    return false;
  }
}

/** The module instantiated with the weights loaded, and the tokenizer. */
function loadEncoder(dir) {
  const json = JSON.parse(readFileSync(dir + "/tokenizer.json", "utf8"));
  const tokenizer = new Tokenizer(json, {});
  const module = new WebAssembly.Module(readFileSync(dir + "/encoder.wasm"));
  const wasm = /** @type {any} */ (new WebAssembly.Instance(module, {}).exports);
  if (wasm.dimension() !== TransformerEmbedder.DIMENSION) {
    throw new Error(`encoder.wasm: ${wasm.dimension()} dimensions, expected ${TransformerEmbedder.DIMENSION}`);
  }
  const weights = readFileSync(dir + "/model.safetensors");
  const at = alloc(wasm, weights.length);
  new Uint8Array(wasm.memory.buffer, at, weights.length).set(weights);
  check(wasm, wasm.load(at, weights.length));
  // The file's truncation (256 tokens, [CLS] and [SEP] included), which the Rust host
  // applies and @huggingface/tokenizers does not.
  const maxTokens = Math.min(json.truncation?.max_length ?? Infinity, wasm.max_tokens());
  return { tokenizer, wasm, maxTokens };
}

/** Runs the module over `ids` (one list per text). */
function encode(wasm, ids) {
  const total = ids.reduce((n, t) => n + t.length, 0);
  const dim = TransformerEmbedder.DIMENSION;
  const sizes = [total * 4, ids.length * 4, ids.length * dim * 4];
  const ats = [];
  try {
    for (const n of sizes) ats.push(alloc(wasm, n));
    const [idsAt, lensAt, outAt] = ats;
    // Views are made after every alloc: growing the memory detaches older ones.
    const flat = new Uint32Array(wasm.memory.buffer, idsAt, total);
    let i = 0;
    for (const t of ids) for (const id of t) flat[i++] = id;
    new Uint32Array(wasm.memory.buffer, lensAt, ids.length).set(ids.map((t) => t.length));
    check(wasm, wasm.encode(idsAt, lensAt, ids.length, outAt));
    const out = new Float32Array(wasm.memory.buffer, outAt, ids.length * dim);
    return ids.map((_, k) => out.slice(k * dim, (k + 1) * dim));
  } finally {
    ats.forEach((at, k) => wasm.free(at, sizes[k]));
  }
}

/** `n` bytes of the module's memory; its address as an unsigned number (wasm's i32 comes
 * back signed past 2 GiB). */
function alloc(wasm, n) {
  if (n > 0xffffffff) throw new Error(`encoder.wasm: ${n} bytes is more than its memory holds`);
  const at = wasm.alloc(n) >>> 0;
  if (at === 0) throw new Error("encoder.wasm: out of memory");
  return at;
}

/** Throws the module's message for a failing status. */
function check(wasm, status) {
  if (status === 0) return;
  const at = wasm.error() >>> 0;
  throw new Error(`encoder.wasm: ${Buffer.from(wasm.memory.buffer, at, status >>> 0).toString("utf8")}`);
}

/** `f()`, with a failure thrown as the `embedder` import's `unavailable` error, so that the
 * guest stores what it was given without a vector rather than failing the call. */
function unavailableOnFailure(f) {
  try {
    return f();
  } catch (e) {
    throw { tag: "unavailable", val: `the embedded transformer failed: ${e instanceof Error ? e.message : e}` };
  }
}
