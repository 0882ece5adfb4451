// The web page in a real browser: Debian's Chromium (/usr/bin/chromium) headless, driven by
// playwright-core (no browser downloaded). Everything the page shows is compared with what
// the CLI prints for the same file, by running the CLI here (never hand-copied text).
//
// Run by `just web-test` (in `just test`): T48_CLI names the twenty48 binary, the page is
// target/web/index.html (`just web`). Screenshots go to target/web-screenshots/, or to
// T48_SCREENSHOTS (`just web-screenshots` writes docs/images/). One process, one browser
// (session.mjs); every test and every wait has a time limit, the whole run a watchdog, and
// no browser outlives it (harness.mjs says how; hostile.mjs tests it).
//
// The tests, by what they look at:
// - viewer.mjs: watching games: every fixture at every move against `replay --json`, keys,
//   the verdicts of `verify` for broken and freshly damaged logs;
// - play.mjs: playing, downloading, reloading, the browser's storage and two tabs;
// - compare.mjs: two games against `twenty48 diff`, word for word;
// - hostile.mjs: damaged links, odd things dropped, the engine's exports misused, a killed run;
// - firstsight.mjs: the landing, no empty or stale board, per-tab modes, links to a move,
//   the win and the end over the board, the module fetched as binary over http;
// - analysis.mjs: the analysis in the page against `twenty48 analyse --json`, a known
//   blunder, the worst moves' links and the keys between mistakes, the evaluation graph,
//   the bot's line;
// - access.mjs: keyboard, names, contrast, the board as text, reduced motion, phone widths,
//   and the screenshots in docs/;
// - home.mjs: issue 46's findings: the address names the game shown, every state change
//   said, verify's words for bytes after a log, nothing hiding the board, the words, the
//   hint, Compare's marks and the list of keys.

import { test } from "node:test";
import assert from "node:assert/strict";
import "./viewer.mjs";
import "./play.mjs";
import "./compare.mjs";
import "./hostile.mjs";
import "./firstsight.mjs";
import "./analysis.mjs";
import "./access.mjs";
import "./home.mjs";
import { run } from "./session.mjs";

test("the page asked for nothing but its own files", () => {
  assert.ok(run.requested.length > 0);
  // (http://127.0.0.1: the page served by firstsight.mjs's own server.)
  const own = (u) => u.startsWith("file:") || u.startsWith("data:") || u.startsWith("blob:") || u.startsWith("http://127.0.0.1:");
  const outside = run.requested.filter((u) => !own(u) && u !== "about:blank");
  assert.deepEqual(outside, []);
});
