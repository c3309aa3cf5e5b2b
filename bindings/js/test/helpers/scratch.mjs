// Temporary folders for tests, removed when the test process exits (pass or fail), so a
// run leaves nothing behind in the system's temporary directory.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const made = [];
process.on("exit", () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new empty folder under the system's temporary directory, named `<prefix>XXXXXX`. */
export function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
