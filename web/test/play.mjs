// Playing in the page: a game played by keys downloads and verifies, a reload (even one
// straight after a key press) resumes it, its link opens it; and what the browser's storage
// does to that: off, full, holding something unreadable, or shared with another tab.

import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { PAGE_URL, WAIT, cli, done, expected, ready, replayJson, shown, tabTo, verdict } from "./harness.mjs";
import { open, run } from "./session.mjs";

const KEYS = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "a", "w", "d", "s"];

// Starts a game in the Play mode with `seed`, by the mouse-free path: the tab, the seed
// field, Enter.
async function startGame(page, seed) {
  await page.click("#tab-play");
  await page.fill("#play-seed", String(seed));
  await page.press("#play-seed", "Enter");
  await page.waitForFunction(() => document.querySelector("#play-board").dataset.move === "0", null, { timeout: WAIT });
}

// Presses `n` keys and waits for the drawing to end.
async function playKeys(page, n, from = 0) {
  for (let i = 0; i < n; i++) await page.keyboard.press(KEYS[((from + i) * 3) % KEYS.length]);
  await page.waitForTimeout(250);
}

async function message(page) {
  return page.$eval("#play-message", (p) => (p.hidden ? "" : p.textContent));
}

test("a game played by key presses is downloaded and verifies; a reload resumes it", { timeout: 60000 }, async () => {
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  // Keyboard only: Tab to the Play tab, Enter; the seed field, 42, Enter.
  await tabTo(page, "#tab-play");
  await page.keyboard.press("Enter");
  await tabTo(page, "#play-seed");
  await page.keyboard.type("42");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  await playKeys(page, 60);
  const before = await shown(page, "#play-board");
  assert.ok(Number(before.move) > 20, "moves played: " + before.move);

  assert.equal(await page.$eval("#play-seed-shown", (s) => s.textContent), "42");
  await tabTo(page, "#play-download");
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: WAIT }), page.keyboard.press("Enter")]);
  const saved = path.join(run.scratch, "played.t48");
  await download.saveAs(saved);
  const verify = cli(["verify", saved]);
  assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  assert.ok(verify.stdout.startsWith("ok "), verify.stdout);
  assert.deepEqual(before, expected(replayJson(saved, ["--final"]).states.at(-1)));
  assert.match(cli(["inspect", saved]).stdout, /seed:\s+42\b/);

  await page.screenshot({ path: path.join(run.shots, "web-play-desktop.png") });
  // A reload keeps the game in progress, in the Play mode, and it plays on.
  await page.reload();
  await ready(page);
  await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  assert.deepEqual(await shown(page, "#play-board"), before);
  assert.equal(await page.$eval("#play", (s) => s.hidden), false);
  await playKeys(page, 8);
  const now = await shown(page, "#play-board");
  assert.ok(Number(now.move) > Number(before.move));
  // A reload straight after a key press, while its move is still being drawn, keeps it.
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowUp");
  const pressed = await page.evaluate(() => T48.engine.fragment());
  await page.reload();
  await ready(page);
  assert.equal(await page.evaluate(() => T48.engine.fragment()), pressed);

  // The game's link opens it in the viewer, ending where the game stands.
  const link = await page.$eval("#play-link", (i) => i.value);
  assert.ok(link.startsWith(PAGE_URL + "#g="), link);
  const end = await page.evaluate(() => document.querySelector("#play-board").dataset.hash);
  const viewer = await open();
  await viewer.goto(link);
  await ready(viewer);
  assert.equal((await verdict(viewer)).word, "ok");
  await viewer.keyboard.press("End");
  assert.equal((await shown(viewer, "#watch-board")).hash, end);
  await done(viewer);
  // A new game with the seed left empty: one is drawn from the browser's random numbers.
  await page.fill("#play-seed", "");
  await page.click("#play-new button");
  await page.waitForFunction(() => document.querySelector("#play-board").dataset.move === "0", null, { timeout: WAIT });
  const drawn = await page.$eval("#play-seed-shown", (s) => s.textContent);
  assert.match(drawn, /^\d+$/);
  assert.notEqual(drawn, "42");
  await done(page);
});

test("two tabs playing at once: each is told when the other's game is the one kept", { timeout: 60000 }, async () => {
  // Two tabs of one browser share its storage, as two windows of the page do.
  const a = await open();
  const b = await a.context().newPage();
  b.errors = a.errors;
  for (const p of [a, b]) {
    await p.goto(PAGE_URL);
    await ready(p);
  }
  await startGame(a, 1);
  await playKeys(a, 10);
  // B starts its own game: A's is no longer the one kept, and A says so.
  await startGame(b, 2);
  await playKeys(b, 10);
  await a.waitForFunction(() => /Another tab of this page has saved its game/.test(document.querySelector("#play-message").textContent), null, { timeout: WAIT });
  const bGame = await b.evaluate(() => T48.engine.fragment());
  // A plays on (not kept, and it still says so); B's game stays the one kept.
  await playKeys(a, 10, 3);
  assert.match(await message(a), /not kept any more: download it/);
  await b.reload();
  await ready(b);
  assert.equal(await b.evaluate(() => T48.engine.fragment()), bGame);
  // A new game in A is kept again, and now B is told.
  await startGame(a, 3);
  await playKeys(a, 4);
  await b.waitForFunction(() => /Another tab/.test(document.querySelector("#play-message").textContent), null, { timeout: WAIT });
  assert.equal(await message(a), "");
  await done(a);
});

test("storage off, full, or holding what is not a game: the page says so", { timeout: 60000 }, async () => {
  // Off: the browser refuses the page its storage (as with site data blocked).
  const off = await open();
  await off.addInitScript(() => {
    Object.defineProperty(window, "localStorage", { get() { throw new DOMException("denied", "SecurityError"); } });
  });
  await off.goto(PAGE_URL);
  await ready(off);
  await startGame(off, 5);
  assert.match(await message(off), /keeps nothing for this page \(its storage is off or full\)/);
  await done(off);
  // Full: every byte the browser gives the page taken by something else.
  const full = await open();
  await full.goto(PAGE_URL);
  await ready(full);
  await full.evaluate(() => {
    localStorage.clear();
    let chunk = "x".repeat(1 << 20);
    for (let i = 0; chunk.length > 0; i++) {
      try {
        localStorage.setItem("filler" + i, chunk);
      } catch {
        chunk = chunk.slice(0, chunk.length >> 1);
      }
    }
  });
  await startGame(full, 6);
  assert.match(await message(full), /keeps nothing for this page/);
  await done(full);
  // Holding text that is not base64, then bytes that are not a game (another program's,
  // or an older page's): said, and the first new game is kept in their place.
  for (const [kept, why] of [["%%% not base64 %%%", /is not base64 text/], [btoa("{\"old\": 1}"), /not a twenty48 move log/]]) {
    const page = await open();
    await page.goto(PAGE_URL);
    await ready(page);
    await page.evaluate((text) => localStorage.setItem("twenty48.game", text), kept);
    await page.reload();
    await ready(page);
    await page.click("#tab-play");
    const said = await message(page);
    assert.match(said, /The game kept in this browser cannot be resumed/);
    assert.match(said, why);
    await startGame(page, 7);
    await playKeys(page, 3);
    await page.reload();
    await ready(page);
    await page.click("#tab-play");
    assert.equal(await page.$eval("#play-seed-shown", (s) => s.textContent), "7");
    await done(page);
  }
});
