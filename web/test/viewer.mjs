// Watching recorded games: every fixture (every rule preset and board size) shown at every
// move as `twenty48 replay --json` gives it, jumps and steps by keys, and the verdicts of
// `twenty48 verify` for the broken fixtures and for damage made here.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import {
  BROKEN, GAMES, PAGE_URL, WAIT, cli, done, expected, ready, replayJson, shown, t48Files, verdict,
} from "./harness.mjs";
import { open, run } from "./session.mjs";

// `twenty48 verify`'s line for each file it is given: {word, message} by path.
function verifyLines(files) {
  const out = cli(["verify", ...files]);
  const lines = {};
  for (const line of out.stdout.split("\n")) {
    const ok = /^ok\s+(.*?)\s+\((.*)\)$/.exec(line);
    const bad = /^(FAILED|ERROR)\s+(.*?): (.*)$/.exec(line);
    if (ok) lines[ok[1]] = { word: "ok", message: ok[2] };
    else if (bad) lines[bad[2]] = { word: bad[1], message: bad[3] };
  }
  return lines;
}

test("every fixture opened by its `twenty48 share` link ends as `replay --json` ends", { timeout: 90000 }, async () => {
  const page = await open();
  const files = t48Files(GAMES);
  const lines = verifyLines(files);
  for (const [i, file] of files.entries()) {
    const share = cli(["share", file]);
    assert.equal(share.code, 0, share.stderr);
    const link = share.stdout.trim();
    assert.ok(link.startsWith(PAGE_URL + "#g="), link);
    // The first link loads the page; the others change its address as a link followed in
    // the same tab does (the page opens each on hashchange).
    if (i > 0) await page.evaluate(() => document.querySelector("#watch-verdict").removeAttribute("data-word"));
    await page.goto(link);
    await ready(page);
    const v = await verdict(page);
    assert.deepEqual({ word: v.word, message: v.message }, lines[file], file);
    await page.keyboard.press("End");
    const { states } = replayJson(file, ["--final"]);
    assert.deepEqual(await shown(page, "#watch-board"), expected(states.at(-1)), file);
  }
  await done(page);
});

test("every move of every fixture, reached in any order, is the state `replay --json` gives", { timeout: 90000 }, async () => {
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  for (const file of t48Files(GAMES)) {
    const { states } = replayJson(file);
    // Every move once, in a scattered order (forwards, backwards, across kept games).
    // One string back (playwright passes 20,000 objects slowly).
    const frames = JSON.parse(await page.evaluate((bytes) => {
      const game = T48.engine.open(new Uint8Array(bytes));
      const n = game.moves + 1;
      const step = [7919, 104729, 1].find((p) => n % p !== 0);
      const out = new Array(n);
      for (let i = 0; i < n; i++) {
        const m = (i * step) % n;
        out[m] = T48.engine.show(game.id, m, false).frame;
      }
      T48.engine.close(game.id);
      return JSON.stringify(out);
    }, [...fs.readFileSync(file)]));
    assert.equal(frames.length, states.length, file);
    for (let m = 0; m < states.length; m++) {
      const s = states[m];
      const f = frames[m];
      const got = { move: f.move, board: f.board.join(","), score: f.score, status: f.status, hash: f.hash, gained: f.gained, direction: f.direction, max_tile: f.max_tile };
      const want = { ...expected(s), move: s.move, score: s.score, gained: s.gained, direction: s.direction, max_tile: s.max_tile };
      if (JSON.stringify(got) !== JSON.stringify(want)) assert.deepEqual(got, want, `${path.basename(file)} move ${m}`);
    }
  }
  await done(page);
});

test("a 20,449-move game jumps to any move and steps with its events, by keys as in `replay --watch`", { timeout: 60000 }, async () => {
  const file = path.join(GAMES, "classic-expectimax-32768.t48");
  const { states } = replayJson(file);
  assert.equal(states.length, 20450);
  const page = await open();
  await page.goto(cli(["share", file]).stdout.trim());
  await ready(page);
  // Keyboard only: g, the move number, Enter.
  for (const target of [10000, 20449, 1, 12345, 0, 19999]) {
    await page.keyboard.press("g");
    await page.keyboard.press("Control+A");
    await page.keyboard.type(String(target));
    await page.keyboard.press("Enter");
    assert.deepEqual(await shown(page, "#watch-board"), expected(states[target]), "move " + target);
    // A step forward (animated from the engine's events), then back.
    const next = Math.min(target + 1, 20449);
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((n) => document.querySelector("#watch-board").dataset.move === String(n), next, { timeout: WAIT });
    assert.deepEqual(await shown(page, "#watch-board"), expected(states[next]), "after move " + target);
    await page.keyboard.press("ArrowLeft");
  }
  // The address names the move shown (&m=19999): a reload, or the address opened in a new
  // tab, comes back to it; the link without m= opens at the start.
  await page.waitForFunction(() => document.querySelector("#watch-board").dataset.move === "19999", null, { timeout: WAIT });
  assert.match(page.url(), /&m=19999$/);
  await page.reload();
  await ready(page);
  assert.deepEqual(await shown(page, "#watch-board"), expected(states[19999]), "after a reload");
  const other = await open();
  await other.goto(page.url());
  await ready(other);
  assert.deepEqual(await shown(other, "#watch-board"), expected(states[19999]), "in a new tab, by the address");
  await other.goto(page.url().replace(/&m=19999$/, ""));
  await ready(other);
  await other.waitForFunction(() => document.querySelector("#watch-board").dataset.move === "0", null, { timeout: WAIT });
  await done(other);
  await done(page);
});

test("play and pause, speed, the timeline and a dropped file, by keys as in `replay --watch`", { timeout: 60000 }, async () => {
  const file = path.join(GAMES, "classic-greedy-2048-plays-on.t48");
  const { states } = replayJson(file);
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  // Dropped on the page: a drop event carrying the file.
  await page.evaluate(async (bytes) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], "dropped.t48"));
    document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [...fs.readFileSync(file)]);
  const v = await verdict(page);
  assert.equal(v.word, "ok");
  assert.match(v.text, /^ok, verified: dropped\.t48: /);
  await page.focus("#watch-board");
  // Faster twice (4 -> 16 moves a second), play, let it run, pause.
  await page.keyboard.press("+");
  await page.keyboard.press("ArrowUp");
  assert.equal(await page.$eval("#watch-speed", (s) => s.options[s.selectedIndex].textContent), "16 moves/s");
  await page.keyboard.press(" ");
  await page.waitForFunction(() => Number(document.querySelector("#watch-board").dataset.move) >= 5, null, { timeout: WAIT });
  await page.keyboard.press(" ");
  // The move under way is drawn to its end.
  await page.waitForFunction(() => document.querySelector("#watch-board").dataset.move === document.querySelector("#watch-move").textContent, null, { timeout: WAIT });
  const paused = await shown(page, "#watch-board");
  await page.waitForTimeout(500);
  assert.deepEqual(await shown(page, "#watch-board"), paused);
  assert.deepEqual(paused, expected(states[Number(paused.move)]));
  assert.equal(await page.$eval("#watch-toggle", (b) => b.textContent), "Replay");
  // The timeline, dragged to move 700.
  await page.$eval("#watch-timeline", (t) => {
    t.value = 700;
    t.dispatchEvent(new Event("input"));
  });
  assert.deepEqual(await shown(page, "#watch-board"), expected(states[700]));
  assert.equal(await page.$eval("#gained", (g) => g.textContent), states[700].gained ? "+" + states[700].gained : "");
  assert.equal(await page.$eval("#score", (g) => g.textContent), String(states[700].score));
  await done(page);
});

test("every broken fixture, and every byte flipped or cut off a log, gets `twenty48 verify`'s verdict", { timeout: 60000 }, async () => {
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  // The broken fixtures through the file picker, as a person opens them.
  const broken = t48Files(BROKEN);
  const lines = verifyLines(broken);
  for (const file of broken) {
    await page.evaluate(() => document.querySelector("#watch-verdict").removeAttribute("data-word"));
    await page.setInputFiles("#watch-file", file);
    const v = await verdict(page);
    assert.deepEqual({ word: v.word, message: v.message }, lines[file], path.basename(file));
    assert.ok(v.text.includes(path.basename(file)), v.text);
  }
  // Damage made here: a bit flipped in every byte, the file cut at every length, and the
  // move count claiming 2^32 - 1 moves; straight to the engine the page runs.
  const source = fs.readFileSync(path.join(GAMES, "classic-moves.t48"));
  const dir = fs.mkdtempSync(path.join(run.scratch, "damage-"));
  const made = [];
  for (let i = 0; i < source.length; i++) {
    const flipped = Buffer.from(source);
    flipped[i] ^= 1 << (i % 8);
    made.push(["flip-" + i, flipped], ["cut-" + i, source.subarray(0, i)]);
  }
  const many = Buffer.from(source);
  const h = 29 + many[15] + many[28 + many[15]];
  many.writeUInt32LE(0xffffffff, h + 4);
  made.push(["many", many]);
  const files = made.map(([name, bytes]) => {
    const file = path.join(dir, name + ".t48");
    fs.writeFileSync(file, bytes);
    return file;
  });
  const want = verifyLines(files);
  const got = await page.evaluate((all) => all.map((b) => {
    const a = T48.engine.open(new Uint8Array(b));
    if (a.id) T48.engine.close(a.id);
    return a.error ? { word: "ERROR", message: a.error } : a.verdict;
  }), made.map(([, b]) => [...b]));
  files.forEach((file, i) => assert.deepEqual(got[i], want[file], path.basename(file)));
  await done(page);
});
