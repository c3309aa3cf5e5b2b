// The `embedder` import's static model (the default is transformer.js): the model2vec model
// shipped in model/, giving vectors bit-identical to the Rust host's (model2vec-rs 0.4.0),
// because they are stored in memories.jsonl and compared across hosts.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Tokenizer } from "@huggingface/tokenizers";

const MODEL_DIR = fileURLToPath(new URL("../model/", import.meta.url));

/** Tokens pooled per text, as model2vec's `encode` does (max_length 512). */
const MAX_TOKENS = 512;

/**
 * Reads the one int8 tensor of a safetensors file: an 8-byte little-endian header length,
 * a JSON header, then the raw data.
 * @param {Buffer} bytes
 * @returns {{ rows: number, dim: number, data: Int8Array }}
 */
export function readSafetensorsInt8(bytes) {
  const headerLen = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + headerLen).toString("utf8"));
  const tensor = header.embeddings;
  if (!tensor || tensor.dtype !== "I8" || tensor.shape.length !== 2) {
    throw new Error("model.safetensors: expected an int8 [rows, dim] tensor named embeddings");
  }
  const [rows, dim] = tensor.shape;
  const [start, end] = tensor.data_offsets;
  if (end - start !== rows * dim) throw new Error("model.safetensors: tensor size does not match its shape");
  const base = 8 + headerLen + start;
  const data = new Int8Array(bytes.buffer, bytes.byteOffset + base, rows * dim);
  return { rows, dim, data };
}

/**
 * The median UTF-8 byte length of the vocabulary's tokens (element len/2 of the sorted
 * list), as model2vec computes it: text is cut to 512 times that many characters.
 * @param {Record<string, number>} vocab
 */
export function medianTokenLength(vocab) {
  const lens = Object.keys(vocab).map((t) => Buffer.byteLength(t, "utf8"));
  lens.sort((a, b) => a - b);
  return lens.length ? lens[lens.length >> 1] : 1;
}

/** The embedded static model: 256 dimensions, no network. */
export class StaticEmbedder {
  /** The model id recorded in the index (the Rust host's `StaticEmbedder::MODEL_ID`). */
  static MODEL_ID = "minilm-l6-v2-m2v-256-int8";
  /** Its dimension. */
  static DIMENSION = 256;

  /** @param {string} [dir] a folder holding tokenizer.json and model.safetensors */
  constructor(dir = MODEL_DIR) {
    this.dir = dir;
    this.loaded = null;
  }

  /** Parsing takes tens of milliseconds, so it happens on first use. */
  load() {
    if (this.loaded) return this.loaded;
    const json = JSON.parse(readFileSync(this.dir + "/tokenizer.json", "utf8"));
    // model2vec-rs turns truncation and padding off; the tokenizer must not cut at 512
    // before our own cut, nor pad.
    json.truncation = null;
    json.padding = null;
    const tokenizer = new Tokenizer(json, {});
    const vocab = json.model.vocab;
    const unkId = vocab[json.model.unk_token];
    const table = readSafetensorsInt8(readFileSync(this.dir + "/model.safetensors"));
    if (table.dim !== StaticEmbedder.DIMENSION) throw new Error(`model dimension ${table.dim}, expected 256`);
    const maxChars = MAX_TOKENS * medianTokenLength(vocab);
    this.loaded = { tokenizer, unkId, table, maxChars };
    return this.loaded;
  }

  /**
   * Token ids as model2vec-rs pools them: text cut to its first `maxChars` Unicode
   * scalar values, WordPiece without special tokens, the first 512 ids, [UNK] dropped.
   * @param {string} text
   * @returns {number[]}
   */
  tokenIds(text) {
    const { tokenizer, unkId, maxChars } = this.load();
    const cut = cutChars(text, maxChars);
    const ids = cut ? tokenizer.encode(cut, { add_special_tokens: false }).ids : [];
    return ids.slice(0, MAX_TOKENS).filter((id) => id !== unkId);
  }

  /**
   * One unit vector per text. Every step rounds to f32 as the Rust code does: integer
   * row sums (exact), division by the count, a sequential sum of squares, the norm.
   * @param {string[]} texts
   * @returns {Float32Array[]}
   */
  embed(texts) {
    const { table } = this.load();
    const dim = table.dim;
    return texts.map((text) => {
      const ids = this.tokenIds(text);
      const sum = new Float64Array(dim);
      for (const id of ids) {
        const row = id * dim;
        for (let j = 0; j < dim; j++) sum[j] += table.data[row + j];
      }
      const denom = Math.max(ids.length, 1);
      const out = new Float32Array(dim);
      let sq = 0;
      for (let j = 0; j < dim; j++) {
        const x = Math.fround(sum[j] / denom);
        out[j] = x;
        sq = Math.fround(sq + Math.fround(x * x));
      }
      const norm = Math.max(Math.fround(Math.sqrt(sq)), Math.fround(1e-12));
      for (let j = 0; j < dim; j++) out[j] = Math.fround(out[j] / norm);
      return out;
    });
  }

  /** @returns {string} */
  modelId() {
    return StaticEmbedder.MODEL_ID;
  }

  /** @returns {number} */
  dimension() {
    return StaticEmbedder.DIMENSION;
  }

  /** Static embeddings score restatements lower: the Rust host's 0.6. */
  supersessionThreshold() {
    return 0.6;
  }

  /** The Rust host's 0.3: below it the best hit found by meaning alone is noise. */
  weakSimilarity() {
    return 0.3;
  }

  /** Never waits on a network. */
  isRemote() {
    return false;
  }
}

/** The first `n` Unicode scalar values of `s`. */
function cutChars(s, n) {
  if (s.length <= n) return s; // n UTF-16 units hold at most n scalar values
  let count = 0;
  for (let i = 0; i < s.length; ) {
    if (count === n) return s.slice(0, i);
    const cp = s.codePointAt(i);
    i += cp > 0xffff ? 2 : 1;
    count++;
  }
  return s;
}
