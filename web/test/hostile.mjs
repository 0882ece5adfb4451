// What a hostile user (or page script) can throw at the page: damaged and huge links, things
// dropped that are not one .t48 file, the engine's exports called with numbers and lengths
// that name nothing; each gets a message that says what and where, and the page goes on.
// And the runs themselves: a test run killed while its page hangs leaves no browser behind.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { GAMES, PAGE_URL, WAIT, cli, done, dropPaths, ready, verdict } from "./harness.mjs";
import { open, run } from "./session.mjs";

const b64 = (bytes) => Buffer.from(bytes).toString("base64url");

// `twenty48 verify`'s message for `bytes` (written to a file in the scratch folder).
function verifyMessage(name, bytes) {
  const file = path.join(run.scratch, name);
  fs.writeFileSync(file, bytes);
  const line = cli(["verify", file]).stdout.split("\n")[0];
  return /^(?:FAILED|ERROR)\s+.*?: (.*)$/.exec(line)[1];
}

test("damaged, huge, empty and foreign links each say what is wrong and where", { timeout: 60000 }, async () => {
  const game = fs.readFileSync(path.join(GAMES, "classic-moves.t48"));
  const flipped = Buffer.from(game);
  flipped[40] ^= 0x10;
  const many = Buffer.from(game);
  many.writeUInt32LE(0xffffffff, 29 + many[15] + many[28 + many[15]] + 4);
  const cases = [
    // [fragment, what the verdict says]
    ["g=VDQ4Gg*A", "ERROR: the linked game: the link's game is damaged: '*' at character 6 after g= is not base64url"],
    ["g=" + b64(game).slice(0, 41), "cut short: 41 characters after g= cannot be whole bytes"],
    ["g=", verifyMessage("empty.t48", Buffer.alloc(0))],
    ["g=" + b64(flipped), verifyMessage("flipped.t48", flipped)],
    ["g=" + b64(many), verifyMessage("many.t48", many)],
    ["g=" + b64(Buffer.from("2048 is a game")), verifyMessage("text.t48", Buffer.from("2048 is a game"))],
    ["g=" + b64(game).slice(0, 60), verifyMessage("short.t48", game.subarray(0, 45))],
    // 1.5 million characters: a megabyte of zeros, near the longest address a browser takes.
    ["g=" + "A".repeat(1500000), "not a twenty48 move log: the file starts with 00 00 00 00 at byte 0"],
  ];
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  // Each followed in the open tab, as a link is (the page opens it on hashchange); the
  // first and the longest also load the page afresh.
  for (const [i, [fragment, says]] of cases.entries()) {
    await page.evaluate(() => document.querySelector("#watch-verdict").removeAttribute("data-word"));
    if (i === 0 || i === cases.length - 1) await page.goto("about:blank");
    await page.goto(PAGE_URL + "#" + fragment);
    await ready(page);
    const v = await verdict(page);
    assert.equal(v.word, "ERROR", fragment.slice(0, 40));
    assert.ok(v.text.includes(says), `${fragment.slice(0, 40)}: ${v.text.slice(0, 300)}`);
    assert.equal(await page.$eval("#watch-game", (g) => g.hidden), true);
  }
  // Padding, as some tools add it (also percent-encoded): the game opens.
  for (const pad of ["=", "%3D"]) {
    await page.evaluate(() => document.querySelector("#watch-verdict").removeAttribute("data-word"));
    await page.goto(PAGE_URL + "#g=" + b64(game) + pad.repeat(2));
    await ready(page);
    assert.equal((await verdict(page)).word, "ok", pad);
  }
  assert.equal(await page.$eval("#fatal", (p) => p.hidden), true);
  await done(page);
});

test("a folder, a FIFO, an empty file, a gigabyte, three files and an unreadable one, dropped or picked", { timeout: 60000 }, async () => {
  const dir = fs.mkdtempSync(path.join(run.scratch, "drops-"));
  const folder = path.join(dir, "games");
  fs.mkdirSync(folder);
  const fifo = path.join(dir, "pipe.t48");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
  const empty = path.join(dir, "empty.t48");
  fs.writeFileSync(empty, "");
  const big = path.join(dir, "big.t48");
  fs.writeFileSync(big, "");
  fs.truncateSync(big, 1 << 30);
  const game = path.join(GAMES, "classic-moves.t48");
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  const dropped = async (files) => {
    await page.evaluate(() => document.querySelector("#watch-verdict").removeAttribute("data-word"));
    await dropPaths(page, files);
    return (await verdict(page)).text;
  };
  assert.equal(await dropped([folder]), "ERROR: games: a folder, not a file: drop one .t48 file to watch it, or two to compare them");
  assert.match(await dropped([fifo]), /^ERROR: pipe\.t48: the file is truncated: .* at byte 0: 6 bytes needed, only 0 left \(the browser read no bytes from it: it is empty, or not a plain file/);
  assert.match(await dropped([empty]), /^ERROR: empty\.t48: the file is truncated/);
  assert.equal(await dropped([big]), "ERROR: big.t48: 1073741824 bytes, more than the page opens (16777216 bytes, 16 MiB): use twenty48 verify for larger files");
  // A large file is said to be verifying before the engine takes it (the page draws that
  // first), then gets its verdict.
  const zeros = path.join(dir, "zeros.t48");
  fs.writeFileSync(zeros, Buffer.alloc(2 << 20));
  await page.evaluate(() => {
    window.seen = [];
    const p = document.querySelector("#watch-verdict");
    new MutationObserver(() => window.seen.push(p.textContent)).observe(p, { childList: true, characterData: true, subtree: true });
  });
  assert.match(await dropped([zeros]), /^ERROR: zeros\.t48: /);
  const seen = await page.evaluate(() => window.seen);
  assert.match(seen[0], /^verifying zeros\.t48 \(2097152 bytes, about 8388608 moves\)\.\.\.$/, JSON.stringify(seen));
  assert.equal(await dropped([game, game, empty]), "ERROR: 3 files were dropped: drop one .t48 file to watch it, or two to compare them");
  // A folder given to the file picker (the browser cannot read it): said, in Compare too.
  await page.click("#tab-compare");
  const cdp = await page.context().newCDPSession(page);
  const { root } = await cdp.send("DOM.getDocument");
  const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector: "#compare-a" });
  await cdp.send("DOM.setFileInputFiles", { nodeId, files: [folder] });
  await page.waitForFunction(() => /First game, games: ERROR: the browser cannot read it: /.test(document.querySelector("#compare-verdict").textContent), null, { timeout: WAIT });
  // And a gigabyte to Compare: refused before it is read.
  await page.setInputFiles("#compare-b", big);
  await page.waitForFunction(() => /Second game, big\.t48: ERROR: 1073741824 bytes, more than the page opens/.test(document.querySelector("#compare-verdict").textContent), null, { timeout: WAIT });
  await done(page);
});

test("the engine's exports given numbers and lengths that name nothing answer with errors, never abort", { timeout: 60000 }, async () => {
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  const game = [...fs.readFileSync(path.join(GAMES, "classic-moves.t48"))];
  const result = await page.evaluate(async (game) => {
    // A module of its own, as the page loads it, called as no page of ours calls it.
    const { instance } = await WebAssembly.instantiate(T48.base64.decode(window.T48_WASM), {});
    const x = instance.exports;
    const answer = (len) => JSON.parse(new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.t48_output(), len)));
    const input = (bytes) => {
      const at = x.t48_input(bytes.length);
      new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
    };
    const out = {};
    // Lengths past what the engine takes, or past memory: no buffer, and an error.
    out.huge = [0xffffffff, 0x80000000, 0x10000001].map((len) => [x.t48_input(len), answer(x.t48_open()).error]);
    out.afterHuge = answer(x.t48_open()).verdict.message;
    // Numbers that name no game: before any is open, after one is closed (twice).
    out.none = [0, 1, 7, 0xffffffff].map((id) => answer(x.t48_show(id, 5, 1)).error);
    x.t48_close(0);
    x.t48_close(0xffffffff);
    input(game);
    const opened = answer(x.t48_open());
    out.end = answer(x.t48_show(opened.id, 0xffffffff, 1)).frame.move;
    x.t48_close(opened.id);
    x.t48_close(opened.id);
    out.closed = answer(x.t48_show(opened.id, 1, 0)).error;
    input([]);
    out.diff = answer(x.t48_diff(opened.id, 0xffffffff)).error;
    out.replay = x.t48_replay(opened.id, 0xffffffff);
    out.play = [0, 4, 0xffffffff].map((code) => answer(x.t48_play(code)).error);
    out.saved = [x.t48_saved(), x.t48_fragment()];
    input(new TextEncoder().encode("classic 18446744073709551616"));
    out.seed = answer(x.t48_new()).error;
    // And after all that, the module works.
    input(game);
    out.again = answer(x.t48_open()).verdict.word;
    out.memory = x.memory.buffer.byteLength;
    return out;
  }, game);
  for (const [at, error] of result.huge) {
    assert.equal(at, 0);
    assert.match(error, /^the page passed \d+ bytes to the engine, which takes at most \d+ at a time$/);
  }
  assert.match(result.afterHuge, /truncated/);
  for (const error of result.none) assert.match(error, /^no game \d+ is open$/);
  assert.equal(result.end, 30);
  assert.equal(result.closed, "no game 1 is open");
  assert.equal(result.diff, "two games must be open to compare them");
  assert.equal(result.replay, 0);
  assert.deepEqual(result.play, ["no game is being played", "no direction has code 4", "no direction has code 255"]);
  assert.deepEqual(result.saved, [0, 0]);
  assert.match(result.seed, /is not a whole number/);
  assert.equal(result.again, "ok");
  assert.ok(result.memory < 64 << 20, "memory grew to " + result.memory);
  await done(page);
});

test("a test run killed while its page hangs leaves no browser behind", { timeout: 60000 }, async (t) => {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "hang.mjs");
  const alive = (pid) => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  // Killed without a chance to clean up, or interrupted (Ctrl-C; SIGTERM and SIGHUP take
  // the same way): the browser goes either way.
  // Each killed run's browser profile and playwright's files go in a scratch TMPDIR,
  // removed at the end: a killed browser cannot remove them itself.
  await Promise.all(["SIGKILL", "SIGINT"].map(async (signal) => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "t48-hang-"));
    t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
    const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, TMPDIR: tmp } });
    let text = "";
    const browser = await new Promise((resolve, reject) => {
      const limit = setTimeout(() => reject(new Error("hang.mjs never said its browser")), 30000);
      child.stdout.on("data", (d) => {
        text += d;
        const m = /browser (\d+)/.exec(text);
        if (m) {
          clearTimeout(limit);
          resolve(Number(m[1]));
        }
      });
    });
    assert.ok(alive(browser), "the browser runs");
    const ended = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    for (let i = 0; i < 150 && alive(browser); i++) await new Promise((r) => setTimeout(r, 100));
    const left = alive(browser);
    if (left) process.kill(-browser, "SIGKILL");
    assert.equal(left, false, `after ${signal} the browser was still running 15 s later`);
    // And the run itself has ended.
    const exit = await Promise.race([ended, new Promise((r) => setTimeout(() => r("running"), 5000))]);
    if (exit === "running") child.kill("SIGKILL");
    assert.notEqual(exit, "running", `after ${signal} the run was still going`);
  }));
});
