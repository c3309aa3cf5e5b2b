// A small OpenAI-compatible server on loopback for the HTTP tests, run as a child process
// (the test's own thread blocks while it waits for an answer). The first path segment
// picks a behaviour: /ok, /flaky (500 on every other request), /busy (always 429),
// /slow (answers after 3 s), /junk (not JSON). It prints its port, and exits when its
// parent closes stdin or after 60 s.

import http from "node:http";

let requests = 0;
const vector = (text, dim) => Array.from({ length: dim }, (_, i) => Math.sin((text.length + 1) * (i + 1)));

const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    requests++;
    const mode = req.url.split("/")[1];
    const send = (status, value) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(typeof value === "string" ? value : JSON.stringify(value));
    };
    if (req.url === "/count") return send(200, { requests });
    if (mode === "busy") return send(429, { error: "slow down" });
    if (mode === "flaky" && requests % 2 === 1) return send(500, { error: "try again" });
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
