// What the web page's tests and its benchmark share: Debian's Chromium (/usr/bin/chromium)
// headless, driven by playwright-core (no browser downloaded), the CLI run with a time limit,
// and the fixtures. Nothing outlives a run:
//
// - the browser is started by playwright in a process group of its own, over a pipe: when
//   this process ends in any way (even SIGKILL), the pipe closes and the browser quits;
//   on SIGINT, SIGTERM and SIGHUP the browser's group is killed and the run ends;
// - a watchdog kills the browser's process group and ends this process after `limit`
//   seconds, whatever the browser is doing (a page in an endless loop included);
// - every CLI run has a time limit.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const PAGE = path.join(ROOT, "target/web/index.html");
export const PAGE_URL = pathToFileURL(PAGE).href;
export const CLI = process.env.T48_CLI || path.join(ROOT, "target/debug/twenty48");
export const GAMES = path.join(ROOT, "fixtures/games");
export const BROKEN = path.join(ROOT, "fixtures/broken");
const CHROMIUM = process.env.T48_CHROMIUM || "/usr/bin/chromium";
// Every wait for the page has this limit.
export const WAIT = 15000;

// How playwright starts Chromium (also for web/test/hang.mjs, the test of this cleanup).
export const LAUNCH = {
  executablePath: CHROMIUM,
  headless: true,
  timeout: 30000,
  chromiumSandbox: false,
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
};

// The processes whose parent is this one and whose command is Chromium: the browser, whose
// process group holds all of its own (Linux's /proc).
export function browserPids(parent = process.pid) {
  const pids = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid ...: the command may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === parent && /chrom/.test(stat.slice(0, stat.lastIndexOf(")")))) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

// Kills the browser's process group at once.
function killBrowser() {
  for (const pid of browserPids()) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

// Starts the browser, with a watchdog that ends the run after `limit` seconds, and ends
// the run at once (the browser killed) on SIGINT, SIGTERM or SIGHUP. (Playwright's own
// handlers only close the browser: the tests would go on, failing one by one.)
export async function launch(limit) {
  const watchdog = setTimeout(() => {
    console.error(`web tests: the watchdog ended the run after ${limit} s`);
    killBrowser();
    process.exit(1);
  }, limit * 1000);
  watchdog.unref();
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]]) {
    process.once(signal, () => {
      console.error(`web tests: ${signal}: the run ends`);
      killBrowser();
      process.exit(code);
    });
  }
  const browser = await chromium.launch(LAUNCH);
  return {
    browser,
    close: async () => {
      clearTimeout(watchdog);
      // A browser that does not close within 10 s is killed.
      const stuck = setTimeout(killBrowser, 10000);
      await browser.close();
      clearTimeout(stuck);
    },
  };
}

// Runs the CLI: {code, stdout, stderr}; at most a minute.
export function cli(args, options = {}) {
  const out = spawnSync(CLI, args, { encoding: "utf8", timeout: 60000, killSignal: "SIGKILL", maxBuffer: 64 << 20, ...options });
  if (out.error) throw out.error;
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

export function t48Files(dir) {
  return fs.readdirSync(dir).filter((f) => f.endsWith(".t48")).sort().map((f) => path.join(dir, f));
}

// What `replay --json` prints (JSON Lines, docs/json.md): {head, states, verdict}, every
// line parsed and its shape checked (schema_version 2: a head line, a line per state, a
// verdict line); it exits with `code` (1 for a log that does not verify).
export function replayJson(file, args = [], code = 0) {
  const out = cli(["replay", file, "--json", ...args]);
  assert.equal(out.code, code, out.stderr);
  const lines = out.stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  const head = lines[0];
  const verdict = lines.at(-1);
  assert.equal(head.schema_version, 2, file);
  assert.ok("verdict" in verdict, file);
  const states = lines.slice(1, -1);
  for (const s of states) assert.ok(Array.isArray(s.board) && "hash" in s && "score" in s && "move" in s, JSON.stringify(s));
  return { head, states, verdict };
}

// A state of `replay --json` as the page's board says it: {move, board, score, status, hash}
// (the board's data attributes: exponents row by row).
export function expected(state) {
  return {
    move: String(state.move),
    board: state.board.flat().map((v) => (v === 0 ? 0 : Math.log2(v))).join(","),
    score: String(state.score),
    status: state.status,
    hash: state.hash,
  };
}

// A page in a new browser context; errors it throws are kept in `page.errors`.
export async function newPage(browser, requested, options = {}) {
  const context = await browser.newContext({ acceptDownloads: true, ...options });
  const page = await context.newPage();
  page.errors = [];
  page.on("request", (r) => requested.push(r.url()));
  page.on("pageerror", (e) => page.errors.push(e.message));
  return page;
}

// Closes the page's context, failing if the page threw anything meanwhile.
export async function done(page) {
  await page.context().close();
  assert.deepEqual(page.errors, [], "the page threw");
}

export async function ready(page) {
  await page.waitForSelector("body[data-ready]", { timeout: WAIT });
}

// What the board `id` shows: {move, board, score, status, hash}.
export async function shown(page, id) {
  return page.$eval(id, (b) => ({ ...b.dataset }));
}

// The watch verdict: {word, message, text}, once there is one.
export async function verdict(page, id = "#watch-verdict") {
  await page.waitForSelector(id + "[data-word]", { timeout: WAIT });
  return page.$eval(id, (p) => ({ word: p.dataset.word, message: p.dataset.message, text: p.textContent }));
}

// Presses Tab until `selector` has the focus (keyboard only); fails after 60 presses.
export async function tabTo(page, selector) {
  for (let i = 0; i < 60; i++) {
    if (await page.$eval(selector, (e) => e === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  assert.fail("Tab never reached " + selector);
}

// Drops real files (paths: files, folders, FIFOs) on the page as the operating system
// does, through the DevTools protocol.
export async function dropPaths(page, files) {
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files, dragOperationsMask: 1 };
  for (const type of ["dragEnter", "dragOver", "drop"]) {
    await cdp.send("Input.dispatchDragEvent", { type, x: 40, y: 40, data });
  }
  await cdp.detach();
}

// Serves target/web/ on a loopback port for `body`, then stops.
export async function served(body) {
  const dir = path.dirname(PAGE);
  const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };
  const server = http.createServer((req, res) => {
    const file = path.join(dir, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404);
      return res.end();
    }
    // The whole file in one write, with its length, as a static host sends a file (a stream
    // of 64 KB chunks waited each time on this process's event loop, busy driving the
    // browser: under load the module took 100 ms to arrive, issue 46).
    const bytes = fs.readFileSync(file);
    res.writeHead(200, { "content-type": types[path.extname(file)] || "application/octet-stream", "content-length": bytes.length });
    res.end(bytes);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    return await body(`http://127.0.0.1:${server.address().port}/index.html`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

