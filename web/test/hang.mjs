// A run of the web tests that hangs: the browser started as the tests start it (harness.mjs,
// with its watchdog of a minute and its signal handlers), its page in a script that never
// ends. hostile.mjs kills this process and checks that the browser goes with it. Prints
// "browser PID" once the page hangs.

import { browserPids, launch } from "./harness.mjs";

const { browser } = await launch(60);
const page = await browser.newPage();
await page.goto("data:text/html,<title>hang</title>");
page.evaluate(() => {
  for (;;);
}).catch(() => {});
await new Promise((r) => setTimeout(r, 200));
console.log("browser " + browserPids().join(" "));
// Kept alive by the browser's pipe, until killed or the watchdog ends it.
