// Issue 46, the page as a player's home, finding by finding: the address always names the
// game shown; every state change said, with the focus where the keys still work; verify's
// words for bytes after a log; nothing hides the game; words that mean something where
// they stand; a hint, marked differences and the keys listed.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { GAMES, PAGE_URL, WAIT, cli, done, dropPaths, ready, replayJson, served, shown, verdict } from "./harness.mjs";
import { open, run } from "./session.mjs";

const KEY = { up: "ArrowUp", right: "ArrowRight", down: "ArrowDown", left: "ArrowLeft" };
const LETTER = { up: "U", right: "R", down: "D", left: "L" };

// `twenty48 share`'s fragment for `file` (after the #).
const fragmentOf = (file) => cli(["share", file]).stdout.trim().split("#")[1];
const hash = (page) => page.evaluate(() => location.hash);
const moveShown = (page, id = "#watch-board") => page.$eval(id, (b) => Number(b.dataset.move));
const forget = (page) => page.evaluate(() => document.querySelector("#watch-verdict").removeAttribute("data-word"));

// A game one move short of its first 2048 under the classic rules (recorded by the CLI),
// and the key of that winning move.
function beforeTheWin() {
  const source = path.join(GAMES, "classic-greedy-2048-plays-on.t48");
  const { head, states } = replayJson(source);
  const win = states.findIndex((s) => s.reached_win);
  const moves = states.slice(1, win).map((s) => LETTER[s.direction]).join("");
  const file = path.join(run.scratch, "home-before-the-win.t48");
  const rec = cli(["record", "--seed", String(head.seed), "--moves", moves, "--force", "-o", file]);
  assert.equal(rec.code, 0, rec.stderr);
  return { file, key: KEY[states[win].direction] };
}

// Keeps `file` as the game in progress and reloads the page in Play.
async function keep(page, file) {
  await page.evaluate((b64) => {
    localStorage.setItem("twenty48.game", b64);
    sessionStorage.setItem("twenty48.mode", "play");
  }, fs.readFileSync(file).toString("base64"));
  await page.goto(PAGE_URL);
  await ready(page);
  await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
}

test("issue 46, 1: the address always names the game shown (a game played here, a file after a link, stepping)", { timeout: 90000 }, async () => {
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  // Landing, "Analyse this game", two steps: the demo's link at move 2.
  await page.click("#landing-watch");
  assert.equal((await verdict(page)).word, "ok");
  await page.focus("#watch-board");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => /&m=2$/.test(location.hash), null, { timeout: WAIT });
  // Play holds no link in the address (a reload comes back to Play by the tab's mode).
  await page.click("#tab-play");
  assert.equal(await hash(page), "");
  await page.fill("#play-seed", "11");
  await page.press("#play-seed", "Enter");
  await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  for (const k of ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight", "ArrowUp"]) {
    await page.keyboard.press(k);
  }
  const played = await page.evaluate(() => T48.engine.fragment());
  const moves = await page.$eval("#play-move", (m) => Number(m.textContent));
  assert.ok(moves >= 6, "moves played: " + moves);
  // "Analyse my game": the game's own link, at the move shown.
  await page.click("#play-analyse");
  await page.waitForFunction(() => document.querySelector("#watch-verdict").dataset.word, null, { timeout: WAIT });
  assert.match(await page.$eval("#watch-verdict", (p) => p.textContent), /^ok, verified: your game: /);
  assert.equal(await hash(page), "#" + played + "&m=" + moves);
  await page.focus("#watch-board");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await hash(page), "#" + played + "&m=" + (moves - 1));
  // A reload opens the game shown, where it was.
  await page.reload();
  await ready(page);
  assert.equal((await verdict(page)).word, "ok");
  assert.equal(await moveShown(page), moves - 1);
  assert.equal(await hash(page), "#" + played + "&m=" + (moves - 1));
  // A file picked after a link: its own link (`twenty48 share`'s), following the steps.
  const file = path.join(GAMES, "classic-moves.t48");
  await forget(page);
  await page.setInputFiles("#watch-file", file);
  assert.equal((await verdict(page)).word, "ok");
  assert.equal(await hash(page), "#" + fragmentOf(file));
  await page.focus("#watch-board");
  await page.keyboard.press("End");
  const { states } = replayJson(file);
  assert.equal(await hash(page), "#" + fragmentOf(file) + "&m=" + (states.length - 1));
  // A file that is not a game, after a link: no link of another game stays.
  const bad = path.join(run.scratch, "home-not-a-game.t48");
  fs.writeFileSync(bad, "not a game");
  await forget(page);
  await page.setInputFiles("#watch-file", bad);
  assert.equal((await verdict(page)).word, "ERROR");
  assert.equal(await hash(page), "");
  // A move percent-encoded (m=%35%30 is m=50) opens there.
  const long = path.join(GAMES, "classic-expectimax-depth3-1000.t48");
  await forget(page);
  await page.goto(PAGE_URL + "#" + fragmentOf(long) + "&m=%35%30");
  assert.equal((await verdict(page)).word, "ok");
  assert.doesNotMatch((await verdict(page)).text, /not a move number/);
  assert.equal(await moveShown(page), 50);
  await done(page);
});

test("issue 46, 2: the win, the end, a new game and errors are said in a live region, the focus where the keys still work", { timeout: 90000 }, async () => {
  const win = beforeTheWin();
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  await keep(page, win.file);
  const live = () => page.$eval("#play-live", (p) => p.textContent);
  assert.equal(await page.$eval("#play-live", (p) => p.getAttribute("aria-live")), "polite");
  await page.focus("#play-board");
  await page.keyboard.press(win.key);
  await page.waitForSelector("#play-overlay:not([hidden])", { timeout: WAIT });
  assert.match(await live(), /^You win! You reached 2048: score \d+\. Keep going/);
  assert.equal(await page.evaluate(() => document.activeElement.id), "play-keep-going");
  // An arrow key from there keeps going and plays.
  const before = await moveShown(page, "#play-board");
  for (const k of ["ArrowLeft", "ArrowDown", "ArrowRight", "ArrowUp"]) await page.keyboard.press(k);
  await page.waitForFunction((m) => Number(document.querySelector("#play-board").dataset.move) > m, before, { timeout: WAIT });
  assert.equal(await page.$eval("#play-overlay", (o) => o.hidden), true);
  assert.equal(await page.evaluate(() => document.activeElement.id), "play-board");
  // The end: said, the focus on "Try again"; Enter there starts a new game, said too.
  await keep(page, path.join(GAMES, "classic-random-over.t48"));
  await page.waitForSelector("#play-overlay:not([hidden])", { timeout: WAIT });
  assert.match(await live(), /^Game over! No move changes the board: score \d+\./);
  assert.equal(await page.evaluate(() => document.activeElement.id), "play-try-again");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector("#play-board").dataset.move === "0", null, { timeout: WAIT });
  assert.match(await live(), /^New game under the classic rules, seed \d+\./);
  assert.equal(await page.evaluate(() => document.activeElement.id), "play-board");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowUp");
  await page.waitForFunction(() => document.querySelector("#play-board").dataset.move !== "0", null, { timeout: WAIT });
  // An error (a seed that is not one) in Play's status region; a file's in Watch's.
  await page.fill("#play-seed", "not a seed");
  await page.press("#play-seed", "Enter");
  assert.equal(await page.$eval("#play-message", (p) => p.getAttribute("role") + " " + p.getAttribute("aria-live")), "status polite");
  assert.match(await page.$eval("#play-message", (p) => (p.hidden ? "" : p.textContent)), /seed/);
  assert.equal(await page.$eval("#watch-verdict", (p) => p.getAttribute("role") + " " + p.getAttribute("aria-live")), "status polite");
  await done(page);
});

test("issue 46, 3: 5 MiB of zeros after a log get `twenty48 verify`'s words", { timeout: 60000 }, async () => {
  const file = path.join(run.scratch, "home-zeros-after.t48");
  fs.writeFileSync(file, Buffer.concat([fs.readFileSync(path.join(GAMES, "classic-moves.t48")), Buffer.alloc(5 << 20)]));
  const out = cli(["verify", file]);
  assert.equal(out.code, 2, out.stderr);
  const line = /^ERROR\s+(.*?): (.*)$/.exec(out.stdout.split("\n")[0]);
  assert.ok(line, out.stdout);
  assert.match(line[2], /^cannot read: more than 1048576 unexpected trailing bytes/);
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  await page.setInputFiles("#watch-file", file);
  const v = await verdict(page);
  assert.deepEqual({ word: v.word, message: v.message }, { word: "ERROR", message: line[2] });
  await done(page);
});

// How opaque the best-move mark is at most: its fill's alpha times its opacities.
function markOpacity() {
  const path = document.querySelector(".arrow path");
  const alpha = (c) => {
    const m = /rgba?\(([^)]*)\)/.exec(c);
    const parts = m ? m[1].split(",").map(Number) : [0, 0, 0, 1];
    return parts.length > 3 ? parts[3] : 1;
  };
  let opacity = 1;
  for (let e = path; e && e !== document.body; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
  const s = getComputedStyle(path);
  return Math.max(alpha(s.fill) * Number(s.fillOpacity), alpha(s.stroke) * Number(s.strokeOpacity) * 0.3) * opacity;
}

test("issue 46, 4: a translucent best-move mark, the whole board in view, the drop zone folded, no demo under an error", { timeout: 120000 }, async () => {
  const link = PAGE_URL + "#" + fragmentOf(path.join(GAMES, "classic-expectimax-depth3-1000.t48"));
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const page = await open({ viewport });
    await page.goto(link + "&m=300");
    await ready(page);
    const name = viewport.width + "x" + viewport.height;
    // The whole board in view, the drop zone folded to a line.
    const box = await page.$eval("#watch-board", (b) => b.getBoundingClientRect().toJSON());
    assert.ok(box.bottom <= viewport.height && box.right <= viewport.width, name + ": the board is out of view: " + JSON.stringify(box));
    assert.equal(await page.$eval("#watch-drop", (d) => d.classList.contains("folded")), true, name);
    assert.ok((await page.$eval("#watch-drop", (d) => d.getBoundingClientRect().height)) < 60, name + ": the drop zone is not folded");
    // The best move's mark: translucent (the tiles under it read).
    await page.waitForFunction(() => document.querySelector(".arrow").dataset.best, null, { timeout: 60000 });
    const opacity = await page.evaluate(markOpacity);
    assert.ok(opacity <= 0.35, name + ": the best-move mark is opaque: " + opacity);
    // Play: the board in view too.
    await page.click("#tab-play");
    await page.fill("#play-seed", "3");
    await page.press("#play-seed", "Enter");
    await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
    const play = await page.$eval("#play-board", (b) => b.getBoundingClientRect().toJSON());
    assert.ok(play.bottom <= viewport.height && play.right <= viewport.width, name + ": Play's board is out of view: " + JSON.stringify(play));
    // An error: the landing's game does not replay under it.
    await page.click("#tab-watch");
    await forget(page);
    await page.setInputFiles("#watch-file", { name: "broken.t48", mimeType: "application/octet-stream", buffer: Buffer.from("T48 broken") });
    assert.equal((await verdict(page)).word, "ERROR");
    assert.equal(await page.$eval("#landing", (l) => l.hidden), true, name + ": the demo replays under an error");
    await done(page);
  }
});

test("issue 46, 5: Score and Best only where a game is played, one tap to a game, no two Play buttons, Go to move follows, plurals, a favicon", { timeout: 120000 }, async () => {
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  const boxes = () => page.evaluate(() => ["score-box", "best-box"].filter((id) => document.getElementById(id).getClientRects().length > 0));
  assert.deepEqual(await boxes(), [], "the landing");
  // No two buttons named the same "Play".
  const plays = await page.$$eval("button", (bs) => bs.filter((b) => b.textContent.trim() === "Play").length);
  assert.equal(plays, 1, "buttons saying Play");
  // One tap from the landing to a game under way, under the rules last used, no field focused.
  await page.evaluate(() => localStorage.setItem("twenty48.rules", "console"));
  await page.reload();
  await ready(page);
  await page.click("#landing-play");
  await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  assert.equal(await moveShown(page, "#play-board"), 0);
  assert.match(await page.$eval("#play-rules", (r) => r.textContent), /^console rules/);
  assert.equal(await page.evaluate(() => document.activeElement.id), "play-board");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowDown");
  await page.waitForFunction(() => document.querySelector("#play-board").dataset.move !== "0", null, { timeout: WAIT });
  assert.deepEqual(await boxes(), ["score-box", "best-box"], "Play");
  assert.equal(await page.$eval("#best-label", (l) => l.textContent), "Best, console");
  // A game kept here that has ended: the same tap starts a new one.
  await keep(page, path.join(GAMES, "classic-random-over.t48"));
  await page.click("#tab-watch");
  await page.click("#landing-play");
  await page.waitForFunction(() => document.querySelector("#play-board").dataset.move === "0", null, { timeout: WAIT });
  assert.equal(await page.$eval("#play-overlay", (o) => o.hidden), true);
  assert.match(await page.$eval("#play-rules", (r) => r.textContent), /^classic rules/);
  // Watch: the game's score, no best; Compare: neither.
  const file = path.join(GAMES, "classic-expectimax-depth3-1000.t48");
  await page.goto(PAGE_URL + "#" + fragmentOf(file));
  await ready(page);
  assert.deepEqual(await boxes(), ["score-box"], "Watch");
  // Go to move follows the steps.
  await page.focus("#watch-board");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  assert.equal(await page.$eval("#watch-jump-to", (i) => i.value), "3");
  // One of a kind is said in the singular: this game has 1 mistake.
  await page.waitForSelector("#watch-strip[data-done='1']", { timeout: 90000 });
  const said = await page.$eval("#watch-analysis-state", (s) => s.textContent);
  assert.doesNotMatch(said, /\b1 (inaccuracies|mistakes|blunders)\b/, said);
  const counts = analyseCounts(file);
  for (const [kind, one, many] of [["inaccuracy", "inaccuracy", "inaccuracies"], ["mistake", "mistake", "mistakes"], ["blunder", "blunder", "blunders"]]) {
    assert.match(said, new RegExp("\\b" + counts[kind] + " " + (counts[kind] === 1 ? one : many) + "\\b"), said);
  }
  await page.click("#tab-compare");
  assert.deepEqual(await boxes(), [], "Compare");
  await done(page);
  // A favicon of the page's own: nothing asked for is missing.
  await served(async (url) => {
    const p = await open();
    const missing = [];
    p.on("response", (r) => r.status() >= 400 && missing.push(r.url()));
    await p.goto(url);
    await ready(p);
    await p.waitForTimeout(300);
    assert.deepEqual(missing, []);
    assert.match(await p.$eval("link[rel=icon]", (l) => l.href), /^data:image\/svg\+xml,/);
    await done(p);
  });
});

// The counts of `twenty48 analyse --json` at the page's depth.
function analyseCounts(file) {
  const out = cli(["analyse", file, "--json", "--depth", "6"], { timeout: 120000 });
  assert.equal(out.code, 0, out.stderr);
  return JSON.parse(out.stdout).summary.counts;
}

test("issue 46, 6: a hint from `play --hint`'s bot, Compare's differing cells marked side by side on a phone, ? lists the keys", { timeout: 90000 }, async () => {
  // The hint: the default expectimax bot's move, as `record --bot expectimax` plays it.
  const botGame = path.join(run.scratch, "home-bot.t48");
  const rec = cli(["record", "--seed", "21", "--bot", "expectimax", "--max-moves", "5", "--force", "-o", botGame]);
  assert.equal(rec.code, 0, rec.stderr);
  const { states } = replayJson(botGame);
  const page = await open({ viewport: { width: 390, height: 844 } });
  await page.goto(PAGE_URL);
  await ready(page);
  await page.click("#tab-play");
  await page.fill("#play-seed", "21");
  await page.press("#play-seed", "Enter");
  await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  for (let m = 1; m < states.length - 1; m++) {
    await page.keyboard.press(KEY[states[m].direction]);
  }
  await page.waitForFunction((n) => document.querySelector("#play-board").dataset.move === String(n), states.length - 2, { timeout: WAIT });
  await page.click("#play-hint");
  await page.waitForFunction(() => document.querySelector("#play-hint-text").dataset.best, null, { timeout: WAIT });
  assert.equal(await page.$eval("#play-hint-text", (p) => p.dataset.best), states.at(-1).direction);
  assert.match(await page.$eval("#play-live", (p) => p.textContent), /^Hint: /);
  // h asks too.
  await page.focus("#play-board");
  await page.keyboard.press("h");
  assert.equal(await page.$eval("#play-hint-text", (p) => p.dataset.best), states.at(-1).direction);

  // Compare: the cells where the boards differ are marked, the boards side by side.
  const a = path.join(GAMES, "classic-moves.t48");
  const b = path.join(GAMES, "classic-greedy-2048-plays-on.t48");
  await page.click("#tab-compare");
  await page.setInputFiles("#compare-a", a);
  await page.setInputFiles("#compare-b", b);
  await page.waitForFunction(() => document.querySelector("#compare-verdict").dataset.diff, null, { timeout: WAIT });
  const at = await moveShown(page, "#compare-a-board");
  const sa = replayJson(a).states[at].board.flat();
  const sb = replayJson(b).states[at].board.flat();
  const differ = sa.map((v, i) => (v !== sb[i] ? i : -1)).filter((i) => i >= 0);
  assert.ok(differ.length > 0);
  for (const side of ["a", "b"]) {
    assert.equal(await page.$eval(`#compare-${side}-board`, (x) => x.dataset.marked), differ.join(","), side);
    assert.equal(await page.$$eval(`#compare-${side}-board .mark`, (m) => m.length), differ.length, side);
  }
  const [ra, rb] = await page.$$eval(".pair .board", (bs) => bs.map((x) => x.getBoundingClientRect().toJSON()));
  assert.equal(Math.round(ra.top), Math.round(rb.top), "the boards are not side by side");
  assert.ok(ra.right <= rb.left && rb.right <= 390, JSON.stringify([ra, rb]));

  // ?: the keys of every mode; Escape closes the list, the focus goes back.
  await page.focus("#compare-forward");
  await page.keyboard.press("?");
  assert.equal(await page.$eval("#keys-help", (k) => k.hidden), false);
  const text = await page.$eval("#keys-help", (k) => k.innerText);
  for (const word of ["Watch", "Play", "Compare", "hint", "go to a move"]) assert.match(text, new RegExp(word), word);
  await page.keyboard.press("Escape");
  assert.equal(await page.$eval("#keys-help", (k) => k.hidden), true);
  assert.equal(await page.evaluate(() => document.activeElement.id), "compare-forward");
  await done(page);
});

test("issue 46, 1: a game saved here gets its link in the address, which follows it; a reload goes on playing it, the link elsewhere watches it", { timeout: 90000 }, async () => {
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  await page.click("#tab-play");
  await page.fill("#play-seed", "12");
  await page.press("#play-seed", "Enter");
  await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  // (The move played, said at once; the board's data-move waits for the slide.)
  const playMove = () => page.$eval("#play-move", (m) => Number(m.textContent));
  const play = async (keys) => {
    for (const k of keys) await page.keyboard.press(k);
  };
  await play(["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"]);
  // Before it is saved, the game has no link in the address.
  assert.equal(await hash(page), "");
  await Promise.all([page.waitForEvent("download", { timeout: WAIT }), page.click("#play-download")]);
  const moves = await playMove();
  const game = await page.evaluate(() => T48.engine.fragment());
  assert.equal(await hash(page), "#" + game + "&m=" + moves);
  // Played on, the address follows the game.
  await page.focus("#play-board");
  await play(["ArrowLeft", "ArrowDown", "ArrowRight", "ArrowUp"]);
  const later = await playMove();
  assert.ok(later > moves, "moves after the download: " + (later - moves));
  const gameLater = await page.evaluate(() => T48.engine.fragment());
  assert.equal(await hash(page), "#" + gameLater + "&m=" + later);
  // A reload goes on playing it (Play, the same game, its link still in the address).
  await page.reload();
  await ready(page);
  await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  assert.equal(await page.$eval("#play", (p) => p.hidden), false);
  assert.equal(await page.$eval("#watch", (p) => p.hidden), true);
  assert.equal(await playMove(), later);
  assert.equal(await hash(page), "#" + gameLater + "&m=" + later);
  await page.focus("#play-board");
  await play(["ArrowLeft", "ArrowDown", "ArrowRight", "ArrowUp"]);
  assert.ok(await playMove() > later);
  const address = page.url();
  // A new game has no link until it is saved.
  await page.click("#play-new button[type=submit]");
  await page.waitForFunction(() => location.hash === "", null, { timeout: WAIT });
  // The address opened in another tab (its own mode) watches the game at the move it names.
  const other = await page.context().newPage();
  other.on("pageerror", (e) => page.errors.push(e.message));
  await other.goto(address);
  await ready(other);
  assert.equal((await verdict(other)).word, "ok");
  assert.equal(await moveShown(other), Number(address.split("&m=")[1]));
  await done(page);
});

test("issue 46, hostile links: a link whose = and & a tool percent-encoded opens its game at its move (the address then holds it unencoded)", { timeout: 60000 }, async () => {
  const file = path.join(GAMES, "classic-expectimax-depth3-1000.t48");
  const fragment = fragmentOf(file);
  const page = await open();
  for (const [encoded, move] of [[fragment.replace("g=", "g%3D"), 0], [fragment.replace("g=", "g%3d") + "%26m%3D50", 50], [fragment + "%26m%3D%35%30", 50]]) {
    await page.goto(PAGE_URL + "#" + encoded);
    await ready(page);
    assert.equal((await verdict(page)).word, "ok", encoded.slice(0, 8));
    assert.doesNotMatch((await verdict(page)).text, /not a move number/);
    assert.equal(await moveShown(page), move);
    assert.equal(await hash(page), "#" + fragment + (move ? "&m=" + move : ""));
    await forget(page);
  }
  await done(page);
});

test("issue 46, hostile drops: Compare says a file that is not a game (5 MiB of junk, a device) in red, as Watch does; two good games not", { timeout: 60000 }, async () => {
  const junk = path.join(run.scratch, "home-junk.bin");
  // 5 MiB of bytes that are not a game (a fixed pattern: the same every run).
  fs.writeFileSync(junk, Buffer.alloc(5 << 20, "\x12\x2b\x4a\x61junk"));
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  const said = async () => {
    await page.waitForSelector("#compare-verdict:not([hidden])", { timeout: WAIT });
    return page.$eval("#compare-verdict", (p) => ({ text: p.textContent, bad: p.classList.contains("bad") }));
  };
  await dropPaths(page, [junk, "/dev/zero"]);
  await page.waitForFunction(() => /Second game/.test(document.querySelector("#compare-verdict").textContent), null, { timeout: WAIT });
  const bad = await said();
  assert.match(bad.text, /^First game, home-junk\.bin: ERROR: not a twenty48 move log/);
  assert.match(bad.text, /Second game, zero: ERROR: /);
  assert.equal(bad.bad, true);
  await dropPaths(page, [path.join(GAMES, "classic-moves.t48"), path.join(GAMES, "classic-expectimax-depth3-1000.t48")]);
  await page.waitForFunction(() => /Second game, classic-expectimax-depth3-1000\.t48: ok/.test(document.querySelector("#compare-verdict").textContent), null, { timeout: WAIT });
  assert.equal((await said()).bad, false);
  await done(page);
});

test("issue 46, 1, two tabs: a saved game whose place in the browser another tab took is watched from its link after a reload, not lost", { timeout: 60000 }, async () => {
  const a = await open();
  await a.goto(PAGE_URL);
  await ready(a);
  await a.click("#tab-play");
  await a.fill("#play-seed", "13");
  await a.press("#play-seed", "Enter");
  await a.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  for (const k of ["ArrowLeft", "ArrowUp", "ArrowRight"]) await a.keyboard.press(k);
  await Promise.all([a.waitForEvent("download", { timeout: WAIT }), a.click("#play-download")]);
  const address = await hash(a);
  assert.match(address, /^#g=.*&m=\d+$/);
  // Another tab of the same browser starts a game of its own: the browser keeps that one.
  const b = await a.context().newPage();
  b.on("pageerror", (e) => a.errors.push(e.message));
  await b.goto(PAGE_URL);
  await ready(b);
  await b.click("#tab-play");
  await b.fill("#play-seed", "14");
  await b.press("#play-seed", "Enter");
  await a.waitForFunction(() => /not kept any more/.test(document.querySelector("#play-message").textContent), null, { timeout: WAIT });
  // The first tab's reload cannot resume its game (the browser keeps the other): its link
  // opens it in Watch, at the move it had reached.
  await a.reload();
  await ready(a);
  assert.equal((await verdict(a)).word, "ok");
  assert.equal(await moveShown(a), Number(address.split("&m=")[1]));
  assert.equal(await hash(a), address);
  await done(a);
});
