// The worker half of the synchronous HTTP client (see http.js): it runs `fetch` with the
// Rust host's timeouts, retries and size limit, posts the outcome on the request's port,
// then wakes the main thread, which is blocked in Atomics.wait.

import { parentPort } from "node:worker_threads";

/** The largest answer read from a service, as the Rust host's MAX_BODY_BYTES. */
const MAX_BODY_BYTES = 32 << 20;

/** One POST, no retries: resolves to `{ ok, value }` or `{ ok: false, error }`. */
async function once(job) {
  let headers;
  try {
    headers = new Headers({ "content-type": "application/json", accept: "application/json" });
    if (job.apiKey) headers.set("authorization", `Bearer ${job.apiKey}`);
  } catch {
    // undici's message quotes the header value, key included: say why without it.
    return { ok: false, error: `${job.url}: the API key is not a valid HTTP header value` };
  }
  let response;
  try {
    response = await fetch(job.url, {
      method: "POST",
      headers,
      body: job.body,
      signal: AbortSignal.timeout(job.timeoutMs),
    });
  } catch (e) {
    return failure(job, e);
  }
  const tooBig = { ok: false, error: `${job.url}: the answer is larger than ${MAX_BODY_BYTES >> 20} MiB` };
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    response.body?.cancel().catch(() => {});
    return tooBig;
  }
  const chunks = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return tooBig;
      chunks.push(chunk);
    }
  } catch (e) {
    return failure(job, e);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (!response.ok) {
    return { ok: false, status: response.status, error: `${job.url}: HTTP ${response.status}: ${[...text].slice(0, 200).join("")}` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: `${job.url}: the answer is not JSON: ${e.message}` };
  }
}

/** A timeout or a connection failure, worded as the Rust host's HttpError. */
function failure(job, e) {
  if (e && (e.name === "TimeoutError" || e.name === "AbortError")) {
    return { ok: false, error: `${job.url}: no answer within ${Math.max(1, Math.floor(job.timeoutMs / 1000))} s` };
  }
  const reason = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(e);
  return { ok: false, error: `${job.url}: cannot connect (${reason})` };
}

/** Retries 429 and 5xx answers with exponential backoff: 250 ms, 500 ms, 1 s, ... */
async function post(job) {
  for (let attempt = 0; ; attempt++) {
    const outcome = await once(job);
    const retryable = outcome.status === 429 || outcome.status >= 500;
    if (outcome.ok || !retryable || attempt >= job.retries) return outcome;
    await new Promise((r) => setTimeout(r, job.backoffMs * 2 ** attempt));
  }
}

/**
 * Keeps the key out of every message, whatever a library put in one: a message may be
 * logged, shown to the guest or returned to the caller.
 */
function redact(outcome, key) {
  if (outcome.ok || !key || !outcome.error.includes(key)) return outcome;
  return { ...outcome, error: outcome.error.replaceAll(key, "[API key]") };
}

parentPort.on("message", async ({ job, port, flag }) => {
  let outcome;
  try {
    outcome = redact(await post(job), job.apiKey);
  } catch {
    // Whatever failed, the caller must be woken now rather than at its wait's limit.
    outcome = { ok: false, error: `${job.url}: the request failed in the HTTP worker` };
  }
  port.postMessage(outcome);
  port.close();
  const cell = new Int32Array(flag);
  Atomics.store(cell, 0, 1);
  Atomics.notify(cell, 0);
});
