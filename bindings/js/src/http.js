// A synchronous JSON-over-HTTP client: the policy's imports are synchronous, so a request
// runs on a worker thread (http-worker.js) while the calling thread blocks in
// Atomics.wait on a SharedArrayBuffer, then takes the answer off a MessagePort with
// receiveMessageOnPort. Timeouts, retries and messages are the Rust host's (http.rs).

import { MessageChannel, Worker, receiveMessageOnPort } from "node:worker_threads";

/** Joins a base URL and a path with exactly one slash. */
export function joinUrl(base, p) {
  return `${base.replace(/\/+$/, "")}/${p.replace(/^\/+/, "")}`;
}

/** The longest delay a Node timer takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A failed request; the message names the URL and the status, never a key. */
export class HttpError extends Error {}

/** A JSON-over-HTTP client for one service. */
export class HttpClient {
  /**
   * @param {{ timeoutSecs?: number, retries?: number, apiKeyEnv?: string, backoffMs?: number }} [options]
   */
  constructor({ timeoutSecs = 30, retries = 2, apiKeyEnv, backoffMs = 250 } = {}) {
    // Node's timers hold at most 2^31 - 1 ms (about 24.8 days); a longer timeout would
    // become 1 ms (AbortSignal.timeout) or throw, so it is capped there.
    this.timeoutMs = Math.min(timeoutSecs * 1000, MAX_TIMER_MS);
    this.retries = retries;
    this.backoffMs = backoffMs;
    // Read once, as the Rust host does; it goes only into the Authorization header.
    const key = apiKeyEnv ? process.env[apiKeyEnv] : undefined;
    this.apiKey = key ? key : undefined;
    this.worker = null;
  }

  /**
   * The worker, started on first use and unref'd so that it never keeps Node alive. One
   * that stopped is forgotten (when this thread next runs its event loop), so the next
   * request starts another. Its 'error' event is listened to: unheard, it would be thrown
   * at the whole process; the request it failed ends at its wait's limit instead.
   */
  start() {
    if (!this.worker) {
      const worker = new Worker(new URL("./http-worker.js", import.meta.url));
      worker.unref();
      worker.on("error", () => {});
      worker.on("exit", () => {
        if (this.worker === worker) this.worker = null;
      });
      this.worker = worker;
    }
    return this.worker;
  }

  /**
   * POSTs `body` as JSON and returns the parsed JSON answer, blocking this thread.
   * @param {string} url
   * @param {unknown} body
   */
  postJson(url, body) {
    const worker = this.start();
    const { port1, port2 } = new MessageChannel();
    const flag = new SharedArrayBuffer(4);
    const job = {
      url,
      body: JSON.stringify(body),
      apiKey: this.apiKey,
      timeoutMs: this.timeoutMs,
      retries: this.retries,
      backoffMs: this.backoffMs,
    };
    worker.postMessage({ job, port: port2, flag }, [port2]);
    // Every attempt is bounded by the timeout; the wait adds the backoffs and a margin,
    // so that a worker that died cannot hang the caller for ever.
    const limit = this.timeoutMs * (this.retries + 1) + this.backoffMs * 2 ** (this.retries + 1) + 5000;
    const state = Atomics.wait(new Int32Array(flag), 0, 0, limit);
    const message = receiveMessageOnPort(port1);
    port1.close();
    if (!message) {
      // A worker that missed its deadline is stuck or dead: the next request gets another.
      this.close();
      throw new HttpError(`${url}: ${state === "timed-out" ? "no answer from the HTTP worker" : "the HTTP worker has stopped"}`);
    }
    const outcome = message.message;
    if (!outcome.ok) throw new HttpError(outcome.error);
    return outcome.value;
  }

  /** Stops the worker thread. */
  close() {
    if (this.worker) {
      this.worker.terminate();
      this.worker = null;
    }
  }
}
