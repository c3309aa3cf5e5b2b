// Compiled (not run) by `npm test`: the public types in index.d.ts describe the API as it is used.
import { openMemory, Memory, MemoryRecord, StaticEmbedder, OpenAiLlm, HttpClient, MemoryNotFoundError } from "../index.js";
async function main() {
  const m: Memory = await openMemory({ home: "/tmp/x", ids: "sequential" });
  const a = await m.add({ user: "alice" }, { content: "x" });
  const r: MemoryRecord = a.memories[0];
  const hits = (await m.search("alice", { query: "x" })).hits;
  console.log(r.id, hits[0].score, new StaticEmbedder().dimension(), new OpenAiLlm(new HttpClient(), "u", "m").isRemote());
  try { await m.get("alice", "nope"); } catch (e) { if (e instanceof MemoryNotFoundError) console.log(e.kind); }
}
main();
