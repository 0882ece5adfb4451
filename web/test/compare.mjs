// Two games side by side: for pairs of every kind (a state parting, a prefix, rules only,
// boards of other sizes, other presets, identical, and logs that do not verify), the page
// says what `twenty48 diff` prints, word for word, and shows the move where they part.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { BROKEN, GAMES, PAGE_URL, WAIT, cli, done, dropPaths, ready, replayJson, shown } from "./harness.mjs";
import { open, run } from "./session.mjs";

// What `twenty48 diff a b` prints, run where the files are (so it names them as the page
// does): its first line and the lines of differences below it.
function cliDiff(dir, a, b) {
  const out = cli(["diff", a, b], { cwd: dir });
  assert.ok(out.code === 0 || out.code === 1, out.stderr);
  const lines = out.stdout.split("\n");
  const blank = lines.indexOf("");
  return { first: lines[0], differences: lines.slice(1, blank < 0 ? undefined : blank).join("\n") };
}

test("two games compared say what `twenty48 diff` says, and part where it says", { timeout: 90000 }, async () => {
  const dir = fs.mkdtempSync(path.join(run.scratch, "diff-"));
  const record = (name, ...args) => {
    const out = cli(["record", "--seed", "42", "--force", "-o", path.join(dir, name), ...args]);
    assert.equal(out.code, 0, out.stderr);
  };
  record("classic.t48", "--moves", "LURDLLUR");
  record("arduino.t48", "--moves", "LURDLLUR", "--rules", "arduino");
  record("short.t48", "--moves", "LURD");
  record("win4096.t48", "--moves", "LURDLLUR", "--win", "4096");
  record("copy.t48", "--moves", "LURDLLUR");
  for (const f of ["custom-3x3.t48", "custom-5x5.t48", "console-noop-presses.t48", "console-random-over.t48", "arduino-random-over.t48", "classic-moves.t48"]) {
    fs.copyFileSync(path.join(GAMES, f), path.join(dir, f));
  }
  for (const f of ["illegal-move.t48", "false-claim.t48"]) fs.copyFileSync(path.join(BROKEN, f), path.join(dir, f));
  // The game of illegal-move.t48 as far as it plays (its seed, its moves up to the one that
  // cannot be played), recorded again.
  const { head, states } = replayJson(path.join(dir, "illegal-move.t48"), [], 1);
  const moves = states.slice(1).map((s) => s.direction[0].toUpperCase()).join("");
  assert.equal(cli(["record", "--seed", String(head.seed), "--moves", moves, "-o", path.join(dir, "before-illegal.t48")]).code, 0);
  const pairs = [
    ["classic.t48", "arduino.t48"], // a state parting (README's tour: move 6)
    ["classic.t48", "short.t48"], // a prefix
    ["classic.t48", "win4096.t48"], // rules only
    ["classic.t48", "copy.t48"], // identical
    ["custom-3x3.t48", "custom-5x5.t48"], // boards of other sizes
    ["console-noop-presses.t48", "console-random-over.t48"], // one preset, two seeds
    ["arduino-random-over.t48", "classic-moves.t48"], // two presets, from the opening
    ["false-claim.t48", "false-claim.t48"], // invalid: a false claim
    ["before-illegal.t48", "illegal-move.t48"], // invalid: it stops where it cannot move
  ];
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  for (const [a, b] of pairs) {
    const want = cliDiff(dir, a, b);
    // Both dropped on the page at once: they are compared.
    await page.evaluate(() => document.querySelector("#compare-verdict").removeAttribute("data-diff"));
    await dropPaths(page, [path.join(dir, a), path.join(dir, b)]);
    await page.waitForFunction(() => document.querySelector("#compare-verdict").dataset.diff, null, { timeout: WAIT });
    assert.equal(await page.$eval("#compare", (s) => s.hidden), false);
    const first = await page.$eval("#compare-verdict", (p) => p.dataset.diff);
    const differences = await page.$$eval("#compare-differences li", (l) => l.map((x) => "  " + x.textContent).join("\n"));
    assert.deepEqual({ first, differences }, want, `${a} against ${b}`);
    const parts = /part at move (\d+)/.exec(first);
    if (parts) assert.equal((await shown(page, "#compare-a-board")).move, parts[1], `${a} against ${b}`);
  }
  await done(page);
});
