// The analysis board: the page's analysis (in its worker) of every fixture equals
// `twenty48 analyse --json`, move for move; a hand-made game's errors are marked; the
// worst moves' links and the keys ] and [ jump; the arrow shows the bot's best move; the
// evaluation graph's chances, links, clicks and words; the bot's line from the board shown.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { BROKEN, GAMES, WAIT, cli, done, ready, shown, t48Files, verdict, PAGE_URL } from "./harness.mjs";
import { open, run } from "./session.mjs";

// The depth the comparison runs at: shallow, so every fixture is analysed in seconds.
const DEPTH = 2;

function analyseJson(file, depth = DEPTH) {
  const out = cli(["analyse", file, "--json", "--depth", String(depth)], { timeout: 120000 });
  return { code: out.code, doc: out.code === 2 ? null : JSON.parse(out.stdout), stderr: out.stderr };
}

test("the page's analysis of every fixture is `twenty48 analyse --json`'s, move for move", { timeout: 180000 }, async () => {
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  let compared = 0;
  for (const file of [...t48Files(GAMES), ...t48Files(BROKEN)]) {
    const cliSays = analyseJson(file);
    const pageSays = await page.evaluate(async (bytes) => {
      try {
        return await T48.analysis.all({ bytes: bytes }, 2);
      } catch (e) {
        return { error: e.message };
      }
    }, [...fs.readFileSync(file)]);
    const name = path.basename(file);
    if (cliSays.code === 2) {
      // Not a game the analysis takes (another board size, or not a log): the page says so too.
      assert.ok(pageSays.error, name + ": the page analysed what the CLI refused: " + cliSays.stderr);
      continue;
    }
    assert.ok(!pageSays.error, name + ": " + pageSays.error);
    const doc = cliSays.doc;
    assert.equal(pageSays.ratings.length, doc.analysed, name);
    for (let i = 0; i < doc.ratings.length; i++) {
      if (JSON.stringify(pageSays.ratings[i]) !== JSON.stringify(doc.ratings[i])) {
        assert.deepEqual(pageSays.ratings[i], doc.ratings[i], name + " move " + (i + 1));
      }
    }
    assert.deepEqual(pageSays.summary, doc.summary, name);
    assert.equal(pageSays.depth, doc.depth, name);
    compared++;
  }
  assert.ok(compared >= 15, "fixtures compared: " + compared);
  await done(page);
});

// A game with known errors: the expectimax bot's first 200 moves at depth 3 under seed 7
// (its 256 in a corner), then move 201, left, which pulls the 256 out of its corner where
// down keeps it (an inaccuracy since issue 45: the bot would still reach the 512 from there
// 98% of the time, against 99.1%), then move 202, up, another.
const BLUNDER = {
  seed: 7,
  moves:
    "RDUDRRRDRDDDDDDDRDRDRRRRRRRRRRDRRRRRRRRRRDDUDRRDDDDDRRRDRLLRLLLRDDDDDDDDDRDDDDDU" +
    "DRRRDDDRDRDDRRRRUDUDDURDRURDRUUDUDDDRDDRDRRDRRDURDDRRRDDDRUDURUDRURRRRRRRRDDDDRR" +
    "UUDRRUDRRDRDRDDRRURURRRDURRUUUDUURRRDDRRLU",
  at: 201,
};

test("a hand-made game's blunder is marked; the worst moves' links, ] and [ jump; the arrow shows the best move", { timeout: 90000 }, async () => {
  const file = path.join(run.scratch, "blunder.t48");
  const rec = cli(["record", "--seed", String(BLUNDER.seed), "--moves", BLUNDER.moves, "--force", "-o", file]);
  assert.equal(rec.code, 0, rec.stderr);
  const cliSays = analyseJson(file, 3).doc;
  const rated = cliSays.ratings[BLUNDER.at - 1];
  assert.ok(["inaccuracy", "mistake", "blunder"].includes(rated.class), JSON.stringify(rated));
  assert.notEqual(rated.best, rated.played);

  const page = await open({ viewport: { width: 1100, height: 900 } });
  await page.goto(cli(["share", file]).stdout.trim());
  await ready(page);
  assert.equal((await verdict(page)).word, "ok");
  await page.waitForSelector("#watch-strip[data-done='1']", { timeout: 60000 });
  // The worst moves: the blunder among them, each a link to the board before it.
  const links = await page.$$eval("#watch-worst a", (as) => as.map((a) => ({ move: Number(a.dataset.move), text: a.textContent, href: a.getAttribute("href") })));
  assert.ok(links.length >= 1);
  const link = links.find((l) => l.move === BLUNDER.at);
  assert.ok(link, "the blunder is among the worst moves: " + JSON.stringify(links));
  assert.match(link.text, /an? (inaccuracy|mistake|blunder), chance to reach 512: [0-9.]+% -> [0-9.]+%, -[0-9.]+ points/);
  assert.match(link.href, new RegExp("&m=" + (BLUNDER.at - 1) + "$"));
  await page.click(`#watch-worst a[data-move="${BLUNDER.at}"]`);
  assert.equal((await shown(page, "#watch-board")).move, String(BLUNDER.at - 1));
  // The arrow: the bot's best move from this board (the page's analysis is at depth 6; its
  // best here is the CLI's at that depth).
  const deep = analyseJson(file, 6).doc.ratings[BLUNDER.at - 1];
  assert.equal(await page.$eval(".arrow", (a) => a.dataset.best), deep.best);
  assert.equal(await page.$eval(".arrow", (a) => a.hidden), false);
  assert.match(await page.$eval("#watch-rating", (p) => p.textContent), new RegExp("Best from here: " + deep.best));
  // The move that led here in chances, then what its spawn did (issue 45).
  assert.match(await page.$eval("#watch-rating", (p) => p.textContent), /chance to reach [0-9]+: [0-9.]+% -> [0-9.]+%.*; the spawn: [0-9.]+% -> /);
  await page.screenshot({ path: path.join(run.shots, "web-analysis-desktop.png") });
  // ] and [: the next and the previous inaccuracy, mistake or blunder (the board before it).
  const errors = analyseJson(file, 6).doc.ratings.filter((r) => ["inaccuracy", "mistake", "blunder"].includes(r.class)).map((r) => r.move);
  await page.keyboard.press("Home");
  await page.keyboard.press("]");
  assert.equal((await shown(page, "#watch-board")).move, String(errors[0] - 1));
  if (errors.length > 1) {
    await page.keyboard.press("]");
    assert.equal((await shown(page, "#watch-board")).move, String(errors[1] - 1));
    await page.keyboard.press("[");
    assert.equal((await shown(page, "#watch-board")).move, String(errors[0] - 1));
  }
  // The accuracy beside the score, as the CLI gives it.
  const accuracy = analyseJson(file, 6).doc.summary.accuracy;
  assert.equal(await page.$eval("#accuracy", (a) => a.textContent), Math.floor(accuracy / 10) + "." + (accuracy % 10) + "%");
  await page.setViewportSize({ width: 390, height: 844 });
  // (Tiles slide to their new places for 100 ms.)
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(run.shots, "web-analysis-phone.png"), fullPage: true });
  await done(page);
});

// The evaluation graph (issue 45): the chance before each move over the game, as `twenty48
// analyse --json` gives it, its errors marked as links to the board before each (Tab reaches
// them, Enter and a click follow them, the address's m= follows), a click anywhere on it
// going to that move, and its text alternative.
test("the evaluation graph: the CLI's chances, errors marked and linked, clickable, keyboard reachable, said in words", { timeout: 90000 }, async () => {
  const file = path.join(run.scratch, "graph.t48");
  const rec = cli(["record", "--seed", String(BLUNDER.seed), "--moves", BLUNDER.moves, "--force", "-o", file]);
  assert.equal(rec.code, 0, rec.stderr);
  const doc = analyseJson(file, 6).doc;
  const before = (r) => Math.max(...Object.values(r.chances).filter((c) => c !== null));
  const errors = doc.ratings.filter((r) => ["inaccuracy", "mistake", "blunder"].includes(r.class));
  assert.ok(errors.length >= 1);

  const page = await open({ viewport: { width: 1100, height: 900 } });
  await page.goto(cli(["share", file]).stdout.trim());
  await ready(page);
  await page.waitForSelector("#watch-strip[data-done='1']", { timeout: 60000 });
  await page.waitForFunction((n) => document.querySelectorAll("#watch-strip a[data-move]").length === n, errors.length, { timeout: WAIT });
  // Every error a dot at the CLI's chance, in the CLI's class.
  const dots = await page.$$eval("#watch-strip a[data-move]", (as) => as.map((a) => ({ move: Number(a.dataset.move), chance: Number(a.dataset.chance), class: a.dataset.class, label: a.getAttribute("aria-label"), href: a.getAttribute("href") })));
  assert.deepEqual(dots.map((d) => [d.move, d.chance, d.class]), errors.map((r) => [r.move, before(r), r.class]));
  for (const d of dots) {
    assert.match(d.label, new RegExp("^move " + d.move + ", [a-z]+: an? (inaccuracy|mistake|blunder), chance to reach"));
    assert.match(d.href, new RegExp("&m=" + (d.move - 1) + "$"));
  }
  // The line: a point per move (this game is short), each at the CLI's chance.
  const line = await page.$$eval("#watch-strip polyline", (ps) => ps.map((p) => p.getAttribute("points")).join(" ").trim().split(/\s+/).map((xy) => Number(xy.split(",")[1])));
  assert.equal(line.length, doc.ratings.filter((r) => r.best).length);
  const height = 96 - 8;
  doc.ratings.forEach((r, i) => {
    assert.ok(Math.abs(line[i] - (4 + height - (height * before(r)) / 1000000)) < 0.06, "move " + r.move + ": " + line[i]);
  });
  // Its words: the text alternative names the chances at both ends and the errors.
  const label = await page.$eval("#watch-strip", (g) => g.getAttribute("aria-label"));
  assert.match(label, /^The evaluation graph, the chance to reach the next tile before each move: [0-9.]+% to reach [0-9]+ at move 1, [0-9.]+% to reach [0-9]+ at move [0-9]+; [0-9]+ errors? marked/);
  assert.ok(label.includes(errors.length + (errors.length === 1 ? " error marked" : " errors marked")), label);
  // A click on a dot: the board before that move, the address's m= with it.
  const last = dots[dots.length - 1];
  await page.click(`#watch-strip a[data-move="${last.move}"]`);
  assert.equal((await shown(page, "#watch-board")).move, String(last.move - 1));
  await page.waitForFunction((m) => location.hash.endsWith("&m=" + m), last.move - 1, { timeout: WAIT });
  // The keyboard: the graph, then its first dot, reached by Tab; Enter follows the dot.
  await page.focus("#watch-strip");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.move), String(dots[0].move));
  await page.keyboard.press("Enter");
  assert.equal((await shown(page, "#watch-board")).move, String(dots[0].move - 1));
  await page.waitForFunction((m) => location.hash.endsWith("&m=" + m), dots[0].move - 1, { timeout: WAIT });
  // A click anywhere: that move (the middle of the graph, the middle of the game).
  const box = await page.$eval("#watch-strip", (g) => { const b = g.getBoundingClientRect(); return { x: b.left, y: b.top, w: b.width, h: b.height }; });
  await page.mouse.click(box.x + box.w / 2, box.y + box.h - 2);
  const total = doc.ratings.length;
  assert.equal((await shown(page, "#watch-board")).move, String(Math.round(total / 2)));
  await done(page);
});

// The bot's line from the board shown (issue 45): its next moves under the likeliest spawns,
// its first move and chance the CLI's best move and chance at the page's depth, the spawns a
// 2 in the first empty cell; gone while the replay runs.
test("the bot's line from the board shown: the CLI's best move and chance first, then the likeliest spawns", { timeout: 90000 }, async () => {
  const file = path.join(run.scratch, "line.t48");
  const rec = cli(["record", "--seed", String(BLUNDER.seed), "--moves", BLUNDER.moves, "--force", "-o", file]);
  assert.equal(rec.code, 0, rec.stderr);
  const doc = analyseJson(file, 6).doc;
  const page = await open({ viewport: { width: 1100, height: 900 } });
  await page.goto(cli(["share", file]).stdout.trim().replace(/&m=[0-9]+$/, "") + "&m=" + (BLUNDER.at - 1));
  await ready(page);
  assert.equal((await shown(page, "#watch-board")).move, String(BLUNDER.at - 1));
  await page.waitForSelector(`#watch-line[data-move="${BLUNDER.at - 1}"]`, { timeout: WAIT });
  const line = JSON.parse(await page.$eval("#watch-line", (p) => p.dataset.line));
  assert.equal(line.length, 4);
  const rated = doc.ratings[BLUNDER.at - 1];
  assert.equal(line[0].played, rated.best);
  assert.equal(line[0].chance, rated.chances[rated.best]);
  assert.equal(line[0].tile, rated.tile);
  for (const p of line) {
    assert.equal(p.spawn.tile, 2);
    assert.ok(p.spawn.cell >= 0 && p.spawn.cell < 16);
  }
  const words = await page.$eval("#watch-line", (p) => p.textContent);
  assert.match(words, new RegExp("^The bot's line from here, under the likeliest spawns: " + rated.best + " \\(chance to reach " + rated.tile + ": [0-9.]+%\\), then a 2 in row [1-4], column [1-4]; [a-z]+ \\("));
  assert.equal(words.split("; ").length, 4);
  // Another move: the line follows it.
  await page.keyboard.press("ArrowRight");
  await page.waitForSelector(`#watch-line[data-move="${BLUNDER.at}"]`, { timeout: WAIT });
  const next = JSON.parse(await page.$eval("#watch-line", (p) => p.dataset.line));
  assert.equal(next[0].played, doc.ratings[BLUNDER.at].best);
  await done(page);
});
