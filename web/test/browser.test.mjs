// The web page in a real browser: Debian's Chromium (/usr/bin/chromium) headless, driven by
// playwright-core (no browser downloaded). Everything the page shows is compared with what
// the CLI prints for the same file, by running the CLI here (never hand-copied text).
//
// Run by `just web-test` (in `just test`): T48_CLI names the twenty48 binary, the page is
// target/web/index.html (`just web`). Screenshots go to target/web-screenshots/, or to
// T48_SCREENSHOTS (`just web-screenshots` writes docs/images/). Bounded: every wait has a
// time limit, the whole run has a watchdog, and the browser's process group is killed on
// every way out (playwright kills it on exit and on SIGINT, SIGTERM and SIGHUP).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PAGE = path.join(ROOT, "target/web/index.html");
const PAGE_URL = pathToFileURL(PAGE).href;
const CLI = process.env.T48_CLI || path.join(ROOT, "target/debug/twenty48");
const SHOTS = process.env.T48_SCREENSHOTS || path.join(ROOT, "target/web-screenshots");
const GAMES = path.join(ROOT, "fixtures/games");
const BROKEN = path.join(ROOT, "fixtures/broken");
const CHROMIUM = process.env.T48_CHROMIUM || "/usr/bin/chromium";
const WAIT = 15000;

// The whole run may take this long; then the browser is closed and the run fails.
const WATCHDOG = setTimeout(async () => {
  console.error("web tests: the watchdog ended the run after 240 s");
  try {
    await browser?.close();
  } finally {
    process.exit(1);
  }
}, 240000);
WATCHDOG.unref();

let browser;
// Every address the page asked for, by any test: only the page's own files may appear.
const requested = [];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "t48-web-"));

function cli(args, options = {}) {
  const out = spawnSync(CLI, args, { encoding: "utf8", timeout: 60000, maxBuffer: 64 << 20, ...options });
  if (out.error) throw out.error;
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

function t48Files(dir) {
  return fs.readdirSync(dir).filter((f) => f.endsWith(".t48")).sort().map((f) => path.join(dir, f));
}

// The states in what `replay --json` prints, in order, whether one document or JSON Lines.
function replayStates(text) {
  let docs;
  try {
    docs = [JSON.parse(text)];
  } catch {
    docs = text.split("\n").map((l) => l.trim().replace(/,$/, "")).filter(Boolean).flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
  }
  const states = [];
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      if ("board" in v && "hash" in v && "score" in v) states.push(v);
      else Object.values(v).forEach(walk);
    }
  };
  docs.forEach(walk);
  return states;
}

// A state of `replay --json` as the page's board shows it.
function expected(state) {
  return {
    board: state.board.flat().map((v) => (v === 0 ? 0 : Math.log2(v))).join(","),
    score: String(state.score),
    status: state.status,
    hash: state.hash,
  };
}

async function newPage(options = {}) {
  const context = await browser.newContext({ acceptDownloads: true, ...options });
  const page = await context.newPage();
  page.on("request", (r) => requested.push(r.url()));
  page.on("pageerror", (e) => {
    throw new Error("the page threw: " + e.message);
  });
  return page;
}

async function ready(page) {
  await page.waitForSelector("body[data-ready]", { timeout: WAIT });
}

// What the board `id` shows: {move, board, score, status, hash}.
async function shown(page, id) {
  return page.$eval(id, (b) => ({ ...b.dataset }));
}

async function verdict(page, id = "#watch-verdict") {
  await page.waitForSelector(id + "[data-word]", { timeout: WAIT });
  return page.$eval(id, (p) => ({ word: p.dataset.word, message: p.dataset.message || p.textContent }));
}

// Presses Tab until `selector` has the focus (keyboard only); fails after 40 presses.
async function tabTo(page, selector) {
  for (let i = 0; i < 40; i++) {
    if (await page.$eval(selector, (e) => e === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  assert.fail("Tab never reached " + selector);
}

before(async () => {
  assert.ok(fs.existsSync(PAGE), PAGE + " is missing: run `just web`");
  assert.ok(fs.existsSync(CLI), CLI + " is missing: build the CLI (cargo build -p twenty48-cli)");
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 30000,
    chromiumSandbox: false,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
});

after(async () => {
  await browser?.close();
  clearTimeout(WATCHDOG);
  fs.rmSync(scratch, { recursive: true, force: true });
});

test("every fixture opened by its `twenty48 share` link ends as `replay --json` ends", async () => {
  const page = await newPage();
  for (const file of t48Files(GAMES)) {
    const share = cli(["share", file]);
    assert.equal(share.code, 0, share.stderr);
    const link = share.stdout.trim();
    assert.ok(link.startsWith(PAGE_URL + "#g="), link);
    await page.goto("about:blank");
    await page.goto(link);
    await ready(page);
    const v = await verdict(page);
    const verify = cli(["verify", file]);
    assert.ok(verify.stdout.startsWith(v.word + " "), `${file}: ${verify.stdout} / ${v.word}`);
    assert.ok(verify.stdout.includes(v.message), `${file}: ${verify.stdout} / ${v.message}`);
    await page.keyboard.press("End");
    const states = replayStates(cli(["replay", file, "--json", "--final"]).stdout);
    const board = await shown(page, "#watch-board");
    const { move, ...rest } = board;
    assert.deepEqual(rest, expected(states.at(-1)), file);
    assert.equal(move, String(states.at(-1).move ?? move), file);
  }
  await page.context().close();
});

test("a 20,449-move game jumps to any move and steps with its events, as the CLI replays it", async () => {
  const file = path.join(GAMES, "classic-expectimax-32768.t48");
  const states = replayStates(cli(["replay", file, "--json"]).stdout);
  assert.equal(states.length, 20450);
  const page = await newPage();
  await page.goto(cli(["share", file]).stdout.trim());
  await ready(page);
  // Keyboard only: g, the move number, Enter.
  for (const target of [10000, 20449, 1, 12345, 0, 19999]) {
    await page.keyboard.press("g");
    await page.keyboard.press("Control+A");
    await page.keyboard.type(String(target));
    await page.keyboard.press("Enter");
    const board = await shown(page, "#watch-board");
    assert.equal(board.move, String(target));
    const { move, ...rest } = board;
    assert.deepEqual(rest, expected(states[target]), "move " + target);
    // A step forward (animated from the engine's events), then back.
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(
      (n) => document.querySelector("#watch-board").dataset.move === String(n),
      Math.min(target + 1, 20449),
      { timeout: WAIT },
    );
    const after = await shown(page, "#watch-board");
    const { move: m2, ...rest2 } = after;
    assert.deepEqual(rest2, expected(states[Math.min(target + 1, 20449)]), "after move " + target);
    await page.keyboard.press("ArrowLeft");
  }
  // The screen-reader text of the board: its rows as numbers.
  const text = await page.$eval("#watch-board table", (t) => t.textContent);
  assert.match(text, /Row 1/);
  assert.match(text, /Board after move \d+, score \d+/);
  await page.context().close();
});

test("play and pause, speed, the timeline and a dropped file, by keys as in `replay --watch`", async () => {
  const file = path.join(GAMES, "classic-greedy-2048-plays-on.t48");
  const states = replayStates(cli(["replay", file, "--json"]).stdout);
  const page = await newPage();
  await page.goto(PAGE_URL);
  await ready(page);
  // Dropped on the page: a drop event carrying the file.
  await page.evaluate(async (bytes) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], "dropped.t48"));
    document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [...fs.readFileSync(file)]);
  assert.equal((await verdict(page)).word, "ok");
  await page.focus("#watch-board");
  // Faster twice (4 -> 16 moves a second), play, let it run, pause.
  await page.keyboard.press("+");
  await page.keyboard.press("ArrowUp");
  assert.equal(await page.$eval("#watch-speed", (s) => s.options[s.selectedIndex].textContent), "16 moves/s");
  await page.keyboard.press(" ");
  await page.waitForFunction(() => Number(document.querySelector("#watch-board").dataset.move) >= 5, null, { timeout: WAIT });
  await page.keyboard.press(" ");
  const paused = await shown(page, "#watch-board");
  await page.waitForTimeout(500);
  assert.deepEqual(await shown(page, "#watch-board"), paused);
  const { move, ...rest } = paused;
  assert.deepEqual(rest, expected(states[Number(move)]));
  assert.equal(await page.$eval("#watch-toggle", (b) => b.textContent), "Play");
  // The timeline, dragged to move 700.
  await page.$eval("#watch-timeline", (t) => {
    t.value = 700;
    t.dispatchEvent(new Event("input"));
  });
  const at700 = await shown(page, "#watch-board");
  assert.deepEqual({ ...at700, move: undefined }, { ...expected(states[700]), move: undefined });
  assert.equal(at700.move, "700");
  assert.equal(await page.$eval("#watch-gained", (g) => g.textContent), states[700].gained ? "+" + states[700].gained : "");
  await page.context().close();
});

test("every broken fixture shows `twenty48 verify`'s verdict", async () => {
  const page = await newPage();
  await page.goto(PAGE_URL);
  await ready(page);
  for (const file of t48Files(BROKEN)) {
    await page.evaluate(() => document.querySelector("#watch-verdict").removeAttribute("data-word"));
    await page.setInputFiles("#watch-file", file);
    const v = await verdict(page);
    const line = cli(["verify", file]).stdout.split("\n")[0];
    assert.ok(line.startsWith(v.word + " "), `${path.basename(file)}: CLI "${line}", page ${v.word}`);
    assert.ok(line.includes(v.message), `${path.basename(file)}: CLI "${line}", page "${v.message}"`);
  }
  await page.context().close();
});

test("a damaged link, or one that holds no log, says what is wrong with it", async () => {
  const page = await newPage();
  await page.goto(PAGE_URL + "#g=VDQ4Gg*A");
  await ready(page);
  const v = await verdict(page);
  assert.equal(v.word, "ERROR");
  assert.match(v.message, /'\*' at character 6 after g= is not base64url/);
  assert.equal(await page.$eval("#watch-game", (g) => g.hidden), true);
  // A link holding bytes that are not a log gets the verifier's own error, with its offset.
  await page.goto(PAGE_URL + "#g=" + Buffer.from("2048 is a game").toString("base64url"));
  await ready(page);
  assert.match((await verdict(page)).message, /^not a twenty48 move log: .* at byte 0/);
  await page.context().close();
});

test("a game played by key presses is downloaded and verifies; a reload resumes it", async () => {
  const page = await newPage();
  await page.goto(PAGE_URL);
  await ready(page);
  // Keyboard only: Tab to the Play tab, Enter; the seed field, 42, Enter.
  await tabTo(page, "#tab-play");
  await page.keyboard.press("Enter");
  await tabTo(page, "#play-seed");
  await page.keyboard.type("42");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  const keys = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "a", "w", "d", "s"];
  for (let i = 0; i < 60; i++) await page.keyboard.press(keys[(i * 3) % keys.length]);
  await page.waitForTimeout(300);
  const before = await shown(page, "#play-board");
  assert.ok(Number(before.move) > 20, "moves played: " + before.move);

  assert.equal(await page.$eval("#play-seed-shown", (s) => s.textContent), "42");
  await tabTo(page, "#play-download");
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: WAIT }), page.keyboard.press("Enter")]);
  const saved = path.join(scratch, "played.t48");
  await download.saveAs(saved);
  const verify = cli(["verify", saved]);
  assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  assert.ok(verify.stdout.startsWith("ok "), verify.stdout);
  const final = replayStates(cli(["replay", saved, "--json", "--final"]).stdout).at(-1);
  const { move, ...rest } = before;
  assert.deepEqual(rest, expected(final));
  assert.match(cli(["inspect", saved]).stdout, /seed:\s+42\b/);

  await page.screenshot({ path: path.join(SHOTS, "web-play-desktop.png") });
  // A reload keeps the game in progress, in the Play mode, and it plays on.
  await page.reload();
  await ready(page);
  await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
  assert.deepEqual(await shown(page, "#play-board"), before);
  assert.equal(await page.$eval("#play", (s) => s.hidden), false);
  for (const k of keys) await page.keyboard.press(k);
  await page.waitForTimeout(300);
  assert.ok(Number((await shown(page, "#play-board")).move) > Number(before.move));

  // The game's link opens it in the viewer, ending where the game stands.
  const now = await shown(page, "#play-board");
  const link = await page.$eval("#play-link", (i) => i.value);
  assert.ok(link.startsWith(PAGE_URL + "#g="), link);
  const viewer = await newPage();
  await viewer.goto(link);
  await ready(viewer);
  assert.equal((await verdict(viewer)).word, "ok");
  await viewer.keyboard.press("End");
  const end = await shown(viewer, "#watch-board");
  assert.deepEqual({ ...end, move: 0 }, { ...now, move: 0 });
  await viewer.context().close();
  // A new game with the seed left empty: one is drawn from the browser's random numbers.
  await page.fill("#play-seed", "");
  await page.click("#play-new button");
  await page.waitForFunction(() => document.querySelector("#play-board").dataset.move === "0", null, { timeout: WAIT });
  const drawn = await page.$eval("#play-seed-shown", (s) => s.textContent);
  assert.match(drawn, /^\d+$/);
  assert.notEqual(drawn, "42");
  await page.context().close();
});

test("two games side by side jump to the move where `twenty48 diff` says they part", async () => {
  const a = path.join(scratch, "a.t48");
  const b = path.join(scratch, "b.t48");
  assert.equal(cli(["record", "--seed", "42", "--moves", "LURDLLUR", "--force", "-o", a]).code, 0);
  assert.equal(cli(["record", "--seed", "42", "--moves", "LURDLLUR", "--rules", "arduino", "--force", "-o", b]).code, 0);
  const diff = cli(["diff", a, b]);
  const parts = Number(/part at move (\d+)/.exec(diff.stdout)[1]);
  const page = await newPage();
  await page.goto(PAGE_URL);
  await ready(page);
  await page.click("#tab-compare");
  await page.setInputFiles("#compare-a", a);
  await page.setInputFiles("#compare-b", b);
  await page.waitForFunction(() => /part at move/.test(document.querySelector("#compare-verdict").textContent), null, { timeout: WAIT });
  assert.match(await page.$eval("#compare-verdict", (p) => p.textContent), new RegExp("part at move " + parts + "$"));
  assert.equal((await shown(page, "#compare-a-board")).move, String(parts));
  const differences = await page.$$eval("#compare-differences li", (l) => l.map((x) => x.textContent));
  assert.ok(differences.includes("rules differ"), differences.join("; "));
  await page.context().close();
});

test("accessibility: names, contrast of every tile and text, the board as text", async () => {
  const page = await newPage();
  await page.goto(cli(["share", path.join(GAMES, "classic-expectimax-16384.t48")]).stdout.trim());
  await ready(page);
  await page.keyboard.press("End");
  const problems = await page.evaluate(() => {
    const out = [];
    const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
    const lum = (c) => {
      const [r, g, b] = rgb(c).map((v) => {
        v /= 255;
        return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a, b) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    const background = (e) => {
      for (let n = e; n; n = n.parentElement) {
        const c = getComputedStyle(n).backgroundColor;
        if (c && !/rgba\(.*, 0\)$/.test(c) && c !== "transparent") return c;
      }
      return "rgb(255, 255, 255)";
    };
    // Every tile colour, on a board of its own.
    const board = document.createElement("div");
    board.className = "board";
    for (let e = 1; e <= 12; e++) {
      const t = document.createElement("div");
      t.className = "tile t" + e;
      t.textContent = "8";
      board.append(t);
    }
    document.body.append(board);
    const texts = [...board.children, ...document.querySelectorAll("button, .box, .verdict, label, p, dd, dt, h1, select")];
    for (const e of texts) {
      if (!e.getClientRects().length && !e.classList.contains("tile")) continue;
      const r = ratio(getComputedStyle(e).color, background(e));
      if (r < 4.5) out.push(`${e.tagName}.${e.className} "${e.textContent.slice(0, 20)}": contrast ${r.toFixed(2)}`);
    }
    board.remove();
    for (const e of document.querySelectorAll("button, input, select")) {
      const named = e.getAttribute("aria-label") || e.textContent.trim() || (e.id && document.querySelector(`label[for="${e.id}"]`));
      if (!named) out.push(`${e.tagName}#${e.id} has no name`);
    }
    return out;
  });
  assert.deepEqual(problems, []);
  const rows = await page.$$eval("#watch-board table tr", (r) => r.map((x) => x.textContent));
  const board = (await shown(page, "#watch-board")).board.split(",").map(Number);
  assert.equal(rows.length, 4);
  assert.equal(rows[0], "Row 1" + board.slice(0, 4).map((e) => (e ? 2 ** e : "empty")).join(""));
  await page.context().close();
});

test("screenshots of the viewer and of play at desktop and phone widths", async () => {
  const file = path.join(GAMES, "classic-greedy-2048-plays-on.t48");
  const link = cli(["share", file]).stdout.trim();
  for (const [name, viewport] of [["desktop", { width: 1100, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
    const page = await newPage({ viewport, deviceScaleFactor: 1 });
    await page.goto(link);
    await ready(page);
    await page.keyboard.press("g");
    await page.keyboard.type("1100");
    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(SHOTS, `web-watch-${name}.png`), fullPage: name === "phone" });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, name + ": the page is wider than the screen");
    if (name === "phone") {
      await page.click("#tab-play");
      await page.fill("#play-seed", "2048");
      await page.keyboard.press("Enter");
      for (const k of ["ArrowLeft", "ArrowDown", "ArrowLeft", "ArrowDown", "ArrowRight", "ArrowDown"]) await page.keyboard.press(k);
      // A swipe on the board moves too.
      const before = (await shown(page, "#play-board")).move;
      const box = await page.$eval("#play-board", (b) => b.getBoundingClientRect().toJSON());
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height - 5, { steps: 4 });
      await page.mouse.up();
      await page.mouse.move(box.x + 5, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 5, box.y + box.height / 2, { steps: 4 });
      await page.mouse.up();
      await page.waitForTimeout(400);
      assert.ok(Number((await shown(page, "#play-board")).move) > Number(before), "a swipe moved nothing");
      await page.screenshot({ path: path.join(SHOTS, "web-play-phone.png"), fullPage: true });
      const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      assert.equal(wide, false, "play on a phone: the page is wider than the screen");
    }
    await page.context().close();
  }
});

test("the page asked for nothing but its own files", () => {
  assert.ok(requested.length > 0);
  const outside = requested.filter((u) => !u.startsWith("file:") && !u.startsWith("data:") && !u.startsWith("blob:") && u !== "about:blank");
  assert.deepEqual(outside, []);
});
