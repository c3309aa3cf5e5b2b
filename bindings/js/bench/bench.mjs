// `npm run bench`: 1,000 memories held (--memories N), then 50 timed adds and searches
// (--samples N); prints one JSON line with the component's instantiate time and the
// add and search medians. The facts and queries are those of scripts/bench_hosts.py.

import { runWorkload } from "./run-workload.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const memories = arg("memories", 1000);
const samples = arg("samples", 50);

const PEOPLE = ["Sarah", "Mike", "my boss", "my sister", "Tom", "the landlord", "Priya", "my dentist"];
const VERBS = ["likes", "recommended", "mentioned", "asked about", "is planning", "prefers", "booked"];
const THINGS = ["Italian food", "the hiking trip", "a new laptop", "the quarterly report",
  "jazz concerts", "the kitchen remodel", "vegan recipes", "the Lisbon conference",
  "chess openings", "a blue bicycle", "the insurance renewal", "sourdough"];
const WHEN = ["on weekends", "every Monday", "this spring", "after work", "in the morning", "last year"];
const QUERIES = ["What does Sarah like to eat?", "travel plans", "paperwork deadlines", "sports",
  "music", "my sister's hobbies"];

/** A varied, deterministic fact, as bench_hosts.py makes them. */
function fact(i) {
  const pick = (words, salt) => words[Number(((BigInt(i) * 2654435761n + BigInt(salt) * 40503n) >> 7n) % BigInt(words.length))];
  return `${pick(PEOPLE, 1)} ${pick(VERBS, 2)} ${pick(THINGS, 3)} ${pick(WHEN, 4)} (note ${i})`;
}

const work = {
  facts: Array.from({ length: memories }, (_, i) => fact(i)),
  adds: Array.from({ length: samples }, (_, i) => fact(memories + i)),
  queries: Array.from({ length: samples }, (_, i) => QUERIES[i % QUERIES.length]),
};
console.log(JSON.stringify({ ...(await runWorkload(work)), host: `js (node ${process.version})` }));
