// The `embedder` import's transformer: all-MiniLM-L6-v2 with int8 weights, as the Rust host
// runs it (`[embedder] provider = "transformer"`). The arithmetic is the Rust host's own
// encoder crate compiled to a WebAssembly core module (`encoder/wasm`, copied into
// model/transformer/ by `npm run build`); tokenizing is the model's tokenizer.json through
// @huggingface/tokenizers. The vectors are the Rust host's bit for bit (the encoder's kernels
// sum in one order on every target), because they are stored in memories.jsonl and
// compared across hosts.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Tokenizer } from "@huggingface/tokenizers";

const MODEL_DIR = fileURLToPath(new URL("../model/transformer/", import.meta.url));

/** The embedded transformer: 384 dimensions, no network. */
export class TransformerEmbedder {
  /** The model id recorded in the index (the Rust host's `TransformerEmbedder::MODEL_ID`). */
  static MODEL_ID = "all-minilm-l6-v2-int8";
  /** Its dimension. */
  static DIMENSION = 384;

  /** @param {string} [dir] a folder holding tokenizer.json, model.safetensors and encoder.wasm */
  constructor(dir = MODEL_DIR) {
    this.dir = dir;
    this.loaded = null;
  }

  /** Compiling the module and copying the 24 MB of weights in take tens of milliseconds,
   * so they happen on first use. */
  load() {
    if (this.loaded) return this.loaded;
    const json = JSON.parse(readFileSync(this.dir + "/tokenizer.json", "utf8"));
    const tokenizer = new Tokenizer(json, {});
    const module = new WebAssembly.Module(readFileSync(this.dir + "/encoder.wasm"));
    const wasm = /** @type {any} */ (new WebAssembly.Instance(module, {}).exports);
    if (wasm.dimension() !== TransformerEmbedder.DIMENSION) {
      throw new Error(`encoder.wasm: ${wasm.dimension()} dimensions, expected ${TransformerEmbedder.DIMENSION}`);
    }
    const weights = readFileSync(this.dir + "/model.safetensors");
    const at = wasm.alloc(weights.length);
    if (at === 0) throw new Error("encoder.wasm: no memory for the weights");
    new Uint8Array(wasm.memory.buffer, at, weights.length).set(weights);
    check(wasm, wasm.load(at, weights.length));
    // The file's truncation (256 tokens, [CLS] and [SEP] included), which the Rust host
    // applies and @huggingface/tokenizers does not.
    const maxTokens = Math.min(json.truncation?.max_length ?? Infinity, wasm.max_tokens());
    this.loaded = { tokenizer, wasm, maxTokens };
    return this.loaded;
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
   * One unit vector per text.
   * @param {string[]} texts
   * @returns {Float32Array[]}
   */
  embed(texts) {
    if (texts.length === 0) return [];
    const { wasm } = this.load();
    const ids = texts.map((t) => this.tokenIds(t));
    const total = ids.reduce((n, t) => n + t.length, 0);
    const dim = TransformerEmbedder.DIMENSION;
    const sizes = [total * 4, texts.length * 4, texts.length * dim * 4];
    const [idsAt, lensAt, outAt] = sizes.map((n) => wasm.alloc(n));
    try {
      if (!idsAt || !lensAt || !outAt) throw new Error("encoder.wasm: out of memory");
      // Views are made after every alloc: growing the memory detaches older ones.
      const flat = new Uint32Array(wasm.memory.buffer, idsAt, total);
      let i = 0;
      for (const t of ids) for (const id of t) flat[i++] = id;
      new Uint32Array(wasm.memory.buffer, lensAt, texts.length).set(ids.map((t) => t.length));
      check(wasm, wasm.encode(idsAt, lensAt, texts.length, outAt));
      const out = new Float32Array(wasm.memory.buffer, outAt, texts.length * dim);
      return ids.map((_, k) => out.slice(k * dim, (k + 1) * dim));
    } finally {
      [idsAt, lensAt, outAt].forEach((at, k) => at && wasm.free(at, sizes[k]));
    }
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

  /** Never waits on a network. */
  isRemote() {
    return false;
  }
}

/** Throws the module's message for a failing status. */
function check(wasm, status) {
  if (status === 0) return;
  const message = Buffer.from(wasm.memory.buffer, wasm.error(), status).toString("utf8");
  throw new Error(`encoder.wasm: ${message}`);
}
