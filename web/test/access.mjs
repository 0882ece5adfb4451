// What docs/web.md claims for people who do not use a mouse or a large screen: every control
// reached by Tab, named and showing its focus; every text and tile colour at a contrast of
// at least 4.5:1, good verdicts and bad; the board as a table for screen readers, for any
// board size; no animation under prefers-reduced-motion; no sideways scrolling at 390
// pixels in any mode. And the screenshots docs/ shows.

import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { BROKEN, GAMES, PAGE_URL, WAIT, cli, done, ready, shown, verdict } from "./harness.mjs";
import { open, run } from "./session.mjs";

// In the page: what is wrong with the contrast of every visible text (each element with text
// of its own), of every tile colour, and with the names of the controls.
function problems() {
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
  const texts = [...document.querySelectorAll("body *")].filter((e) =>
    [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()) &&
    e.getClientRects().length && !e.closest(".sr-only") && !e.closest("[hidden]"));
  for (const e of [...board.children, ...texts]) {
    const r = ratio(getComputedStyle(e).color, background(e));
    if (r < 4.5) out.push(`${e.tagName}.${e.className} "${e.textContent.slice(0, 20)}": contrast ${r.toFixed(2)}`);
  }
  board.remove();
  for (const e of document.querySelectorAll("button, input, select, [tabindex]")) {
    const named = e.getAttribute("aria-label") || e.textContent.trim() || (e.id && document.querySelector(`label[for="${e.id}"]`));
    if (!named) out.push(`${e.tagName}#${e.id} has no name`);
  }
  // A name on an element with no role is read by no screen reader.
  for (const e of document.querySelectorAll("[aria-label]")) {
    if (/^(DIV|SPAN)$/.test(e.tagName) && !e.getAttribute("role")) out.push(`${e.tagName}#${e.id} is named but has no role`);
  }
  return out;
}

// The visible controls of the page, and those Tab reaches (each showing a focus outline).
async function tabbing(page) {
  return page.evaluate(() => {
    const visible = (e) => e.getClientRects().length && !e.closest("[hidden]") && !e.disabled;
    const controls = [...document.querySelectorAll("button, input, select, a[href], [tabindex='0']")].filter(visible);
    return controls.map((e) => e.id || e.textContent.trim().slice(0, 20));
  });
}

test("keyboard only: Tab reaches every control of every mode, each shows its focus and has a name", { timeout: 60000 }, async () => {
  const page = await open();
  await page.goto(cli(["share", path.join(GAMES, "classic-expectimax-depth3-1000.t48")]).stdout.trim());
  await ready(page);
  // The analysis done, so its worst moves' links stand still while Tab goes round.
  await page.waitForSelector("#watch-strip[data-done='1']", { timeout: 60000 });
  await page.keyboard.press("End");
  for (const mode of ["watch", "play", "compare"]) {
    await page.keyboard.press("Escape");
    await page.focus("#tab-" + mode);
    await page.keyboard.press("Enter");
    if (mode === "play") {
      await page.focus("#play-seed");
      await page.keyboard.type("9");
      await page.keyboard.press("Enter");
      await page.waitForSelector("#play-board[data-hash]", { timeout: WAIT });
    }
    const controls = await tabbing(page);
    const reached = new Set();
    const unmarked = [];
    await page.focus("body");
    // Round the page once: until the focus comes back to where it first went.
    let first = null;
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press("Tab");
      const focus = await page.evaluate(() => {
        const e = document.activeElement;
        if (!e || e === document.body) return null;
        return { name: e.id || e.textContent.trim().slice(0, 20), outline: getComputedStyle(e).outlineStyle };
      });
      if (!focus) continue;
      if (focus.name === first) break;
      first ??= focus.name;
      reached.add(focus.name);
      if (focus.outline === "none") unmarked.push(focus.name);
    }
    assert.deepEqual(controls.filter((c) => !reached.has(c)), [], mode + ": Tab never reaches these");
    assert.deepEqual([...new Set(unmarked)], [], mode + ": no focus outline on these");
    assert.deepEqual(await page.evaluate(problems), [], mode);
  }
  await done(page);
});

test("contrast of every text and tile, good and bad verdicts; the board as a table of any size", { timeout: 60000 }, async () => {
  const page = await open();
  await page.goto(PAGE_URL);
  await ready(page);
  // A bad verdict (red), then a good one (green), each checked.
  await page.setInputFiles("#watch-file", path.join(BROKEN, "illegal-move.t48"));
  assert.equal((await verdict(page)).word, "FAILED");
  await page.keyboard.press("End");
  assert.deepEqual(await page.evaluate(problems), []);
  await page.evaluate(() => document.querySelector("#watch-verdict").removeAttribute("data-word"));
  await page.setInputFiles("#watch-file", path.join(GAMES, "custom-5x5.t48"));
  assert.equal((await verdict(page)).word, "ok");
  await page.keyboard.press("End");
  assert.deepEqual(await page.evaluate(problems), []);
  const rows = await page.$$eval("#watch-board table tr", (r) => r.map((x) => x.textContent));
  const caption = await page.$eval("#watch-board table caption", (c) => c.textContent);
  const board = await shown(page, "#watch-board");
  const cells = board.board.split(",").map(Number);
  assert.equal(rows.length, 5);
  rows.forEach((row, r) => assert.equal(row, "Row " + (r + 1) + cells.slice(r * 5, r * 5 + 5).map((e) => (e ? 2 ** e : "empty")).join("")));
  assert.equal(caption, `Board after move ${board.move}, score ${board.score}, ${board.status}`);
  await done(page);
});

test("no animation under prefers-reduced-motion", { timeout: 60000 }, async () => {
  const motion = async (reducedMotion) => {
    const page = await open({ reducedMotion });
    await page.goto(cli(["share", path.join(GAMES, "classic-moves.t48")]).stdout.trim());
    await ready(page);
    const style = await page.evaluate(() => {
      const t = document.querySelector("#watch-board .tile");
      t.classList.add("new");
      const s = getComputedStyle(t);
      return { transition: s.transitionDuration, animation: s.animationName };
    });
    await done(page);
    return style;
  };
  assert.notDeepEqual(await motion("no-preference"), { transition: "0s", animation: "none" });
  assert.deepEqual(await motion("reduce"), { transition: "0s", animation: "none" });
});

test("a phone's width in every mode, and the screenshots of the viewer and of play", { timeout: 60000 }, async () => {
  const link = cli(["share", path.join(GAMES, "classic-greedy-2048-plays-on.t48")]).stdout.trim();
  const wide = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  for (const [name, viewport] of [["desktop", { width: 1100, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
    const page = await open({ viewport, deviceScaleFactor: 1 });
    await page.goto(link);
    await ready(page);
    await page.keyboard.press("g");
    await page.keyboard.type("1100");
    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(run.shots, `web-watch-${name}.png`), fullPage: name === "phone" });
    assert.equal(await wide(page), false, name + ": the page is wider than the screen");
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
      await page.screenshot({ path: path.join(run.shots, "web-play-phone.png"), fullPage: true });
      assert.equal(await wide(page), false, "play on a phone: the page is wider than the screen");
      // Compare: two boards, the differences in words.
      await page.click("#tab-compare");
      await page.setInputFiles("#compare-a", path.join(GAMES, "custom-6x6.t48"));
      await page.setInputFiles("#compare-b", path.join(GAMES, "custom-5x5.t48"));
      await page.waitForFunction(() => document.querySelector("#compare-verdict").dataset.diff, null, { timeout: WAIT });
      assert.equal(await wide(page), false, "compare on a phone: the page is wider than the screen");
    }
    await done(page);
  }
});
