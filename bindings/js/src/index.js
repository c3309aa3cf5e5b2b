// ash-memory for Node: long-term memory for AI agents, run by the same sandboxed policy
// component as the Rust host, with this package supplying every import.

export { openMemory, Memory, sequentialIds } from "./memory.js";
export { componentSha256, componentPath } from "./component.js";
export { StaticEmbedder } from "./embedder.js";
export { TransformerEmbedder } from "./transformer.js";
export { OpenAiEmbedder, OpenAiLlm, NoLlm } from "./openai.js";
export { HttpClient } from "./http.js";
export * from "./errors.js";
