// What a stranger meets first: a landing that is alive, no empty or stale board ever on
// screen, every message true, the mode kept per tab, links to a move, the win and the end
// over the board, moves said to screen readers, and the module fetched as binary over http.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { BROKEN, GAMES, PAGE_URL, WAIT, cli, done, expected, ready, replayJson, served, shown, verdict } from "./harness.mjs";
import { open, run } from "./session.mjs";

// Every element with the hidden attribute (or inside one) that still takes room on screen.
function hiddenShown() {
  return [...document.querySelectorAll("[hidden], [hidden] *")]
    .filter((e) => e.getClientRects().length > 0)
    .map((e) => e.tagName + "#" + e.id + "." + e.className);
}

// The text the page shows (visible elements only).
const visibleText = () => document.body.innerText;

test("the landing is alive: a board with tiles replaying a game, no empty board, no status without a game", { timeout: 60000 }, async () => {
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  assert.equal(await page.$eval("#landing", (l) => l.hidden), false);
  assert.ok((await page.$$eval("#landing-board .tile", (t) => t.length)) >= 2, "the landing's board has tiles");
  const first = (await shown(page, "#landing-board")).move;
  await page.waitForFunction((m) => document.querySelector("#landing-board").dataset.move !== m, first, { timeout: WAIT });
  assert.deepEqual(await page.evaluate(hiddenShown), []);
  assert.doesNotMatch(await page.evaluate(visibleText), /status/i, "no status shown without a game");
  assert.match(await page.$eval("#landing-caption", (c) => c.textContent), /seed \d+/);
  await page.setViewportSize({ width: 1100, height: 760 });
  await page.screenshot({ path: path.join(run.shots, "web-landing-desktop.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  // (Tiles slide to their new places for 100 ms.)
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(run.shots, "web-landing-phone.png"), fullPage: true });
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false, "the landing is wider than a phone");
  await page.setViewportSize({ width: 1280, height: 720 });
  // Play before a game and Compare before files: no board, no status, no controls that do nothing.
  for (const mode of ["play", "compare"]) {
    await page.click("#tab-" + mode);
    assert.equal(await page.$eval("#landing", (l) => l.hidden), true);
    assert.deepEqual(await page.evaluate(hiddenShown), [], mode);
    assert.equal(await page.$$eval(`#${mode} .board`, (b) => b.filter((x) => x.getClientRects().length).length), 0, mode + ": a board without a game");
    assert.doesNotMatch(await page.evaluate(visibleText), /status/i, mode);
  }
  // Analyse this game: the landing's game opens in Watch, by its link.
  await page.click("#tab-watch");
  await page.click("#landing-watch");
  assert.equal((await verdict(page)).word, "ok");
  assert.equal(await page.$eval("#landing", (l) => l.hidden), true);
  assert.match(page.url(), /#g=/);
  await done(page);
});

test("an error after a good game leaves no old board, score, rules or hash on screen", { timeout: 60000 }, async () => {
  const page = await open();
  await page.goto(cli(["share", path.join(GAMES, "classic-moves.t48")]).stdout.trim());
  await ready(page);
  assert.equal((await verdict(page)).word, "ok");
  await page.evaluate(() => document.querySelector("#watch-verdict").removeAttribute("data-word"));
  await page.setInputFiles("#watch-file", path.join(BROKEN, "not-a-log.t48"));
  const v = await verdict(page);
  assert.equal(v.word, "ERROR");
  assert.equal(await page.$eval("#watch-game", (g) => g.getClientRects().length), 0);
  assert.equal(await page.$eval("#score", (s) => s.textContent), "0");
  const text = await page.evaluate(visibleText);
  for (const stale of ["Rules", "Hash", "Seed"]) assert.doesNotMatch(text, new RegExp("^" + stale + "$", "m"), stale);
  assert.deepEqual(await page.evaluate(hiddenShown), []);
  // A link without `=` after #g says so.
  await page.evaluate(() => document.querySelector("#watch-verdict").removeAttribute("data-word"));
  await page.goto(PAGE_URL + "#g");
  const none = await verdict(page);
  assert.equal(none.word, "ERROR");
  assert.match(none.message, /the link holds no game/);
  await done(page);
});

test("each tab keeps its own mode across a reload", { timeout: 60000 }, async () => {
  const a = await open();
  const b = await a.context().newPage();
  b.errors = [];
  b.on("pageerror", (e) => b.errors.push(e.message));
  await a.goto(PAGE_URL);
  await ready(a);
  await a.click("#tab-play");
  await a.fill("#play-seed", "5");
  await a.press("#play-seed", "Enter");
  await a.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  await b.goto(cli(["share", path.join(GAMES, "classic-moves.t48")]).stdout.trim());
  await ready(b);
  await a.reload();
  await ready(a);
  assert.equal(await a.$eval("#play", (s) => s.hidden), false, "the first tab is still in Play");
  assert.equal(await a.$eval("#play-game", (g) => g.hidden), false, "with its game");
  await b.reload();
  await ready(b);
  assert.equal(await b.$eval("#watch-game", (g) => g.hidden), false, "the second tab watches its game");
  assert.deepEqual(b.errors, []);
  await done(a);
});

test("a link to a move opens there, and the address follows the move shown", { timeout: 60000 }, async () => {
  const file = path.join(GAMES, "classic-greedy-2048-plays-on.t48");
  const { states } = replayJson(file);
  const link = cli(["share", file]).stdout.trim();
  const page = await open();
  await page.goto(link + "&m=37");
  await ready(page);
  assert.deepEqual(await shown(page, "#watch-board"), expected(states[37]));
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => /&m=38$/.test(location.hash), null, { timeout: WAIT });
  await page.keyboard.press("End");
  await page.waitForFunction((n) => location.hash.endsWith("&m=" + n), states.length - 1, { timeout: WAIT });
  await page.keyboard.press("Home");
  await page.waitForFunction(() => !/&m=/.test(location.hash), null, { timeout: WAIT });
  // Go to move starts from 0 again when another game opens.
  await page.keyboard.press("g");
  await page.keyboard.type("500");
  await page.keyboard.press("Enter");
  assert.equal((await shown(page, "#watch-board")).move, "500");
  await page.goto(cli(["share", path.join(GAMES, "classic-moves.t48")]).stdout.trim());
  await page.waitForFunction(() => document.querySelector("#watch-board").dataset.move === "0", null, { timeout: WAIT });
  assert.equal(await page.$eval("#watch-jump-to", (i) => i.value), "0");
  // A move past the end shows the end; m= that is not a number is said and shows move 0.
  await page.goto(link + "&m=99999999");
  await page.waitForFunction((n) => document.querySelector("#watch-board").dataset.move === String(n), states.length - 1, { timeout: WAIT });
  await page.evaluate(() => document.querySelector("#watch-verdict").removeAttribute("data-word"));
  await page.goto(link + "&m=x1");
  const v = await verdict(page);
  assert.match(v.text, /m= is not a move number/);
  await done(page);
});

test("Play: no word that is not true before a game, moves said politely, the win and the end over the board", { timeout: 90000 }, async () => {
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  await page.click("#tab-play");
  assert.equal(await page.$eval("#play-game", (g) => g.getClientRects().length), 0);
  // The actions of a game, asked for without one, say there is none.
  await page.evaluate(() => T48.play.download());
  assert.match(await page.$eval("#play-message", (p) => p.textContent), /no game to download yet/);
  await page.evaluate(() => T48.play.analyse());
  assert.match(await page.$eval("#play-message", (p) => p.textContent), /no game to analyse yet/);
  // A move and the score go to a polite live region.
  await page.fill("#play-seed", "42");
  await page.press("#play-seed", "Enter");
  await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => /^Moved left/.test(document.querySelector("#play-live").textContent), null, { timeout: WAIT });
  assert.equal(await page.$eval("#play-live", (p) => p.getAttribute("aria-live")), "polite");
  // (The board's data follow once the move is drawn.)
  await page.waitForFunction(() => document.querySelector("#play-board").dataset.move === "1", null, { timeout: WAIT });
  const header = await page.$eval("#score", (s) => s.textContent);
  assert.equal(header, (await shown(page, "#play-board")).score);

  // The win: a game one move short of 2048 under the classic rules, resumed, and its
  // winning move played: "You win!", keep going, and the game plays on.
  const source = path.join(GAMES, "classic-greedy-2048-plays-on.t48");
  const { head, states } = replayJson(source);
  const win = states.findIndex((s) => s.reached_win);
  assert.ok(win > 0);
  const moves = states.slice(1, win).map((s) => s.direction[0].toUpperCase()).join("");
  const short = path.join(run.scratch, "before-the-win.t48");
  const rec = cli(["record", "--seed", String(head.seed), "--moves", moves, "--force", "-o", short]);
  assert.equal(rec.code, 0, rec.stderr);
  const keep = async (file) => {
    await page.evaluate((b64) => localStorage.setItem("twenty48.game", b64), fs.readFileSync(file).toString("base64"));
    await page.reload();
    await ready(page);
    await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  };
  await keep(short);
  assert.equal(await page.$eval("#play-overlay", (o) => o.hidden), true);
  const key = { up: "ArrowUp", right: "ArrowRight", down: "ArrowDown", left: "ArrowLeft" }[states[win].direction];
  await page.keyboard.press(key);
  await page.waitForSelector("#play-overlay:not([hidden])", { timeout: WAIT });
  assert.equal(await page.$eval("#play-overlay-title", (t) => t.textContent), "You win!");
  await page.waitForTimeout(700);
  await page.screenshot({ path: path.join(run.shots, "web-win-desktop.png") });
  await page.click("#play-keep-going");
  assert.equal(await page.$eval("#play-overlay", (o) => o.hidden), true);
  const moved = (await shown(page, "#play-board")).move;
  for (const k of ["ArrowLeft", "ArrowDown", "ArrowRight", "ArrowDown"]) await page.keyboard.press(k);
  await page.waitForFunction((m) => document.querySelector("#play-board").dataset.move !== m, moved, { timeout: WAIT });

  // The end: a game the random bot played to its end, resumed: "Game over!" over the board,
  // the message not in the green of good news, "try again" starts a new game.
  await keep(path.join(GAMES, "classic-random-over.t48"));
  await page.waitForSelector("#play-overlay:not([hidden])", { timeout: WAIT });
  assert.equal(await page.$eval("#play-overlay-title", (t) => t.textContent), "Game over!");
  assert.equal(await page.$eval("#play-keep-going", (b) => b.hidden), true);
  assert.doesNotMatch(await page.$eval("#play-message", (p) => p.className), /good/);
  assert.deepEqual(await page.evaluate(hiddenShown), []);
  // (The overlay fades in over 600 ms.)
  await page.waitForTimeout(700);
  await page.screenshot({ path: path.join(run.shots, "web-over-desktop.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  // (Tiles slide to their new places for 100 ms.)
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(run.shots, "web-over-phone.png"), fullPage: true });
  await page.click("#play-try-again");
  await page.waitForFunction(() => document.querySelector("#play-board").dataset.move === "0", null, { timeout: WAIT });
  assert.equal(await page.$eval("#play-overlay", (o) => o.hidden), true);
  // The ended game, analysed from its overlay: it opens in Watch with its analysis.
  await keep(path.join(GAMES, "classic-random-over.t48"));
  await page.waitForSelector("#play-overlay:not([hidden])", { timeout: WAIT });
  await page.click("#play-overlay-analyse");
  await page.waitForSelector("#watch-strip[data-done='1']", { timeout: 60000 });
  assert.equal(await page.$eval("#watch", (s) => s.hidden), false);
  assert.match(await page.$eval("#watch-verdict", (p) => p.textContent), /^ok, verified: your game: 90 moves/);
  await done(page);
});

test("over http the WebAssembly is fetched as binary and the base64 copy is never loaded; from file:// the copy is", { timeout: 60000 }, async () => {
  const file = path.join(GAMES, "classic-moves.t48");
  const fragment = cli(["share", file]).stdout.trim().split("#")[1];
  const { states } = replayJson(file);
  await served(async (url) => {
    const page = await open();
    const asked = [];
    page.on("request", (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(url + "#" + fragment);
    await ready(page);
    assert.equal(await page.evaluate(() => T48.engine.source), "streamed");
    assert.ok(asked.includes("/twenty48_web.wasm"), asked.join(" "));
    assert.ok(!asked.includes("/js/wasm.js"), "the base64 copy was loaded: " + asked.join(" "));
    await page.keyboard.press("End");
    assert.deepEqual(await shown(page, "#watch-board"), expected(states.at(-1)));
    // The analysis runs in a worker there too.
    const a = await page.evaluate(() => T48.analysis.all({ fragment: location.hash.slice(1) }, 2).then((r) => r.ratings.length));
    assert.equal(a, states.length - 1);
    await done(page);
  });
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  assert.equal(await page.evaluate(() => T48.engine.source), "inline");
  await done(page);
});
