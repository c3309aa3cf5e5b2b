// A small OpenAI-compatible server on loopback for the HTTP tests, run as a child process
// (the test's own thread blocks while it waits for an answer). The first path segment
// picks a behaviour: /ok, /flaky (500 on its first request and every other one after),
// /busy (always 429), /slow (answers after 3 s), /junk (not JSON). GET /count/<mode>
// answers how many requests that behaviour received and how many it failed. It prints its
// port, and exits when its parent closes stdin or after 60 s.

import http from "node:http";

/** Per behaviour: requests received, and those answered with an error status. */
const counts = {};
const vector = (text, dim) => Array.from({ length: dim }, (_, i) => Math.sin((text.length + 1) * (i + 1)));

const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    const [, mode, counted] = req.url.split("/");
    const send = (status, value) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(typeof value === "string" ? value : JSON.stringify(value));
    };
    if (mode === "count") return send(200, counts[counted] ?? { requests: 0, failed: 0 });
    const count = (counts[mode] ??= { requests: 0, failed: 0 });
    count.requests++;
    const fail = (status, value) => {
      count.failed++;
      send(status, value);
    };
    if (mode === "busy") return fail(429, { error: "slow down" });
    if (mode === "flaky" && count.requests % 2 === 1) return fail(500, { error: "try again" });
    if (mode === "junk") return send(200, "<html>");
    const answer = () => {
      const json = JSON.parse(body);
      if (req.url.endsWith("/embeddings")) {
        send(200, { data: json.input.map((t, index) => ({ index, embedding: vector(t, json.dimensions) })).reverse() });
      } else {
        send(200, { choices: [{ message: { content: `auth=${req.headers.authorization ?? "none"} model=${json.model}` } }] });
      }
    };
    if (mode === "slow") setTimeout(answer, 3000);
    else answer();
  });
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
setTimeout(() => process.exit(0), 60_000).unref();
