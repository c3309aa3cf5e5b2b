// OpenAI-compatible services (OpenAI, Ollama, vLLM, llama.cpp): `/embeddings` for the
// embedder import and `/chat/completions` for the llm import, as the Rust host's
// embedder.rs and llm.rs, over the synchronous client in http.js.

import { HttpClient, joinUrl } from "./http.js";

/** An `/embeddings` service. */
export class OpenAiEmbedder {
  /**
   * @param {HttpClient} http
   * @param {string} baseUrl the API root, such as `https://api.openai.com/v1`
   * @param {string} model
   * @param {number} dimension the vector length the service returns
   */
  constructor(http, baseUrl, model, dimension) {
    this.http = http;
    this.url = joinUrl(baseUrl, "embeddings");
    this.model = model;
    this.id = `openai:${model}`;
    this.dim = dimension;
  }

  /** One unit vector per text, in order; throws the import's error variant. */
  embed(texts) {
    if (texts.length === 0) return [];
    let answer;
    try {
      answer = this.http.postJson(this.url, { model: this.model, input: texts, dimensions: this.dim });
    } catch (e) {
      throw { tag: "unavailable", val: e.message };
    }
    const bad = (why) => ({ tag: "unavailable", val: `${this.url}: ${why}` });
    const data = answer?.data;
    if (!Array.isArray(data)) throw bad("the answer has no `data` list");
    if (data.length !== texts.length) throw bad(`${data.length} embeddings for ${texts.length} texts`);
    const vectors = data.map((item, i) => {
      const values = item?.embedding;
      if (!Array.isArray(values)) throw bad("an item has no `embedding`");
      if (!values.every((x) => typeof x === "number")) throw bad("an embedding holds a non-number");
      if (values.length !== this.dim) throw { tag: "dimension-mismatch", val: [this.dim, values.length] };
      const v = Float32Array.from(values);
      // Search and supersession compare by cosine; unit vectors make that a dot product.
      let sq = 0;
      for (const x of v) sq = Math.fround(sq + Math.fround(x * x));
      const norm = Math.fround(Math.sqrt(sq));
      if (norm > 0) for (let j = 0; j < v.length; j++) v[j] = Math.fround(v[j] / norm);
      const index = Number.isInteger(item.index) && item.index >= 0 ? item.index : i;
      return { index, v };
    });
    vectors.sort((a, b) => a.index - b.index);
    return vectors.map((x) => x.v);
  }

  modelId() { return this.id; }
  dimension() { return this.dim; }
  /** Seed 000's figure for OpenAI's models. */
  supersessionThreshold() { return 0.75; }
  /** The home's lock is released while it waits. */
  isRemote() { return true; }
  close() { this.http.close(); }
}

/** No model: every request is unavailable, and the policy uses its heuristics. */
export class NoLlm {
  complete() {
    throw { tag: "unavailable", val: "no language model is configured" };
  }
  isRemote() { return false; }
  close() {}
}

/** A `/chat/completions` service. */
export class OpenAiLlm {
  /**
   * @param {HttpClient} http
   * @param {string} baseUrl
   * @param {string} model
   */
  constructor(http, baseUrl, model) {
    this.http = http;
    this.url = joinUrl(baseUrl, "chat/completions");
    this.model = model;
  }

  /** The model's answer text; throws the import's error variant. */
  complete(request) {
    const body = {
      model: this.model,
      messages: [
        { role: "system", content: request.system },
        { role: "user", content: request.prompt },
      ],
      max_tokens: request.maxTokens,
      temperature: 0,
    };
    let answer;
    try {
      answer = this.http.postJson(this.url, body);
    } catch (e) {
      throw { tag: "unavailable", val: e.message };
    }
    const content = answer?.choices?.[0]?.message?.content;
    if (typeof content !== "string") {
      throw { tag: "unavailable", val: `${this.url}: the answer has no choices[0].message.content` };
    }
    return content;
  }

  isRemote() { return true; }
  close() { this.http.close(); }
}

export { HttpClient };
