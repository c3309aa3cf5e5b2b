// `node bench/workload.mjs --workload FILE`: runs a cross-host bench workload (see
// scripts/bench_hosts.py) and prints one JSON line of figures.

import fs from "node:fs";
import { runWorkload } from "./run-workload.mjs";

const i = process.argv.indexOf("--workload");
if (i < 0 || !process.argv[i + 1]) {
  console.error("usage: node bench/workload.mjs --workload FILE");
  process.exit(2);
}
const work = JSON.parse(fs.readFileSync(process.argv[i + 1], "utf8"));
console.log(JSON.stringify(await runWorkload(work)));
