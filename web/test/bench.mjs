// The web page's figures (`just web-bench`), measured in headless Chromium here: the
// WebAssembly's size raw and gzipped, the time from opening a link to the first board drawn,
// the time to decode, verify and be ready to seek in the 20,449-move fixture, and the replay
// speed in the browser against the same code natively (play_all). Prints figures; asserts
// nothing about time (the machine is shared).

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { CLI, GAMES, ROOT, launch } from "./harness.mjs";

const NATIVE = path.join(ROOT, "target/release/examples/native_replay");
const LONG = path.join(GAMES, "classic-expectimax-32768.t48");
const SHORT = path.join(GAMES, "classic-expectimax-depth3-1000.t48");
const TIMES = 50;
const RUNS = 7;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => (x < 1 ? x.toFixed(2) : x.toFixed(1)) + " ms";
// One time taken in the page: performance.now() there counts in steps of 0.1 ms.
const once = (x) => (x < 0.1 ? "under 0.1 ms (the page's clock counts in 0.1 ms)" : ms(x));

const wasm = fs.readFileSync(path.join(ROOT, "target/web/twenty48_web.wasm"));
const gzip = zlib.gzipSync(wasm, { level: 9 }).length;
const embedded = fs.statSync(path.join(ROOT, "target/web/js/wasm.js")).size;
const embeddedGzip = zlib.gzipSync(fs.readFileSync(path.join(ROOT, "target/web/js/wasm.js")), { level: 9 }).length;
console.log(`wasm: ${wasm.length} bytes raw, ${gzip} bytes gzip -9 (goal under 150 KB gzip); as base64 in js/wasm.js: ${embedded} bytes, ${embeddedGzip} gzip`);

const { browser, close } = await launch(300);
try {
  for (const [name, file] of [["1000-move game", SHORT], ["20,449-move game", LONG]]) {
    const link = execFileSync(CLI, ["share", file], { encoding: "utf8" }).trim();
    const times = [];
    const parts = [];
    // A fresh browser context each time (a new renderer process), then the same link opened
    // again in a tab already open (as a link clicked in a running browser).
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(link);
      await page.waitForSelector("body[data-ready]", { timeout: 20000 });
      const t = await page.evaluate(() => T48.app.timings);
      times.push(t.ready);
      parts.push(t);
      await context.close();
    }
    const part = (k) => ms(median(parts.map((t) => t[k])));
    console.log(`link to first board drawn, ${name} (${link.length} characters), fresh context: median ${ms(median(times))}, best ${ms(Math.min(...times))} of ${RUNS} (goal under 200 ms)`);
    console.log(`  medians: page file read at ${part("fetched")}, scripts run at ${part("start")}, engine compiled at ${part("loaded")}, board drawn at ${part("ready")}`);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto("about:blank");
    const again = [];
    for (let i = 0; i < RUNS; i++) {
      await page.goto(link);
      await page.waitForSelector("body[data-ready]", { timeout: 20000 });
      again.push(await page.evaluate(() => T48.app.ready));
      await page.goto("about:blank");
    }
    await context.close();
    console.log(`link to first board drawn, ${name}, in an open tab: median ${ms(median(again))}, best ${ms(Math.min(...again))} of ${RUNS}`);
  }

  const context = await browser.newContext();
  const page = await context.newPage();
  const link = execFileSync(CLI, ["share", LONG], { encoding: "utf8" }).trim();
  await page.goto(link);
  await page.waitForSelector("body[data-ready]", { timeout: 20000 });
  const figures = await page.evaluate(({ runs, times }) => {
    const fragment = location.hash.slice(1);
    const open = [];
    const seek = [];
    let id = 0;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const answer = T48.engine.openLink(fragment);
      const t1 = performance.now();
      T48.engine.show(answer.id, 17777, false);
      const t2 = performance.now();
      open.push(t1 - t0);
      seek.push(t2 - t1);
      if (id) T48.engine.close(id);
      id = answer.id;
    }
    // Jumps anywhere once open: the same seek many times over.
    const t3 = performance.now();
    for (let i = 0; i < 200; i++) T48.engine.show(id, (i * 7919) % 20450, false);
    const jump = (performance.now() - t3) / 200;
    const replay = [];
    let moves = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      moves = T48.engine.replay(id, times);
      replay.push(performance.now() - t);
    }
    return { open, seek, jump, replay, moves };
  }, { runs: RUNS, times: TIMES });
  console.log(`20,449-move game: decode and verify ${ms(median(figures.open))} (median of ${RUNS}), then the first jump (to move 17,777) ${once(median(figures.seek))}; a jump anywhere afterwards ${ms(figures.jump)} on average`);
  const best = Math.min(...figures.replay);
  const browserNs = (best * 1e6) / figures.moves;
  console.log(`replay in the browser (play_all from the opening, ${TIMES} times): ${figures.moves} moves in ${ms(best)} (best of ${RUNS}): ${browserNs.toFixed(1)} ns a move`);
  const native = execFileSync(NATIVE, [LONG, String(TIMES)], { encoding: "utf8" }).trim();
  console.log(native);
  const nativeNs = Number(/([\d.]+) ns a move/.exec(native)[1]);
  console.log(`browser speed against native play_all: ${((nativeNs / browserNs) * 100).toFixed(0)}% (goal at least 30%)`);
  await context.close();
} finally {
  await close();
}
