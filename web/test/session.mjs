// The browser every test file of browser.test.mjs shares: started before the first test,
// closed after the last (harness.mjs says how nothing outlives the run), with a scratch
// folder and the list of every address a page asked for.

import { before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CLI, PAGE, ROOT, launch, newPage } from "./harness.mjs";

// The whole run may take this long; then the browser is killed and the run fails.
const LIMIT = 420;

export const run = {
  browser: null,
  close: null,
  // Every address a page asked for, in any test: only the page's own files may appear.
  requested: [],
  scratch: fs.mkdtempSync(path.join(os.tmpdir(), "t48-web-")),
  shots: process.env.T48_SCREENSHOTS || path.join(ROOT, "target/web-screenshots"),
};

// A new page in a context of its own (its own storage), errors it throws kept.
export function open(options = {}) {
  return newPage(run.browser, run.requested, options);
}

before(async () => {
  assert.ok(fs.existsSync(PAGE), PAGE + " is missing: run `just web`");
  assert.ok(fs.existsSync(CLI), CLI + " is missing: build the CLI (cargo build -p twenty48-cli)");
  fs.mkdirSync(run.shots, { recursive: true });
  Object.assign(run, await launch(LIMIT));
});

after(async () => {
  await run.close?.();
  fs.rmSync(run.scratch, { recursive: true, force: true });
});
