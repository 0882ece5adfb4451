// The page's flow: loads the engine, switches modes (each tab keeps its own), opens what
// the address or a dropped file holds, and sends key presses to the mode shown.
"use strict";
window.T48 = window.T48 || {};

T48.app = (function () {
  const MODES = ["watch", "play", "compare"];
  let mode = "watch";

  // `opening`: a link's game is about to be shown, which says what the page shows once it is
  // (so the landing's game is not opened and drawn for nothing meanwhile).
  function setMode(next, opening) {
    mode = next;
    for (const m of MODES) {
      document.getElementById(m).hidden = m !== mode;
      document.getElementById("tab-" + m).setAttribute("aria-pressed", String(m === mode));
    }
    T48.storage.saveMode(mode);
    // (No field takes the focus: a phone would open its keyboard over the page.)
    if (mode === "play" && !T48.play.started()) T48.play.resume();
    if (!opening) {
      shown();
      // The address names the game shown: Watch's (its link and move), Play's once it has
      // its link (saved or analysed), else none (Play's game comes back from the browser's
      // storage, by the tab's mode; Compare's two files have no link).
      if (mode === "watch") T48.watch.keepPlace();
      else address(mode === "play" ? T48.play.link() : null);
    }
  }

  // Writes `fragment` (without #) as the address's fragment, or none when null, without a
  // new history entry (and without a hashchange, so nothing opens again).
  function address(fragment) {
    const want = fragment ? "#" + fragment : "";
    if (location.hash === want || (!want && !location.hash)) return;
    history.replaceState(history.state, "", want || location.pathname + location.search);
  }

  // What the header and the landing show for the mode and its game.
  function shown() {
    const watching = mode === "watch" && T48.watch.shown();
    // The landing's game replays only where nothing was opened (never under an error).
    T48.landing.show(mode === "watch" && !T48.watch.shown() && !T48.watch.said());
    if (mode === "play") T48.play.refresh();
    else if (!watching) T48.scores.clear();
    if (mode !== "watch") T48.scores.accuracy(null);
  }

  // A link's fragment split: the game's part (g=...) and the move (m=N, or 0). The move
  // may be percent-encoded, as some tools write it (m=%35%30 is m=50).
  function parse(fragment) {
    const parts = fragment.split("&");
    const move = parts.find((p) => /^m=/.test(p));
    const game = parts.filter((p) => !/^m=/.test(p)).join("&");
    let value = move === undefined ? "" : move.slice(2);
    try {
      value = decodeURIComponent(value);
    } catch (e) {
      // Not percent-encoding: taken as it is (and refused below).
    }
    const good = /^[0-9]{1,10}$/.test(value);
    return { game: game, move: good ? Number(value) : 0, badMove: move !== undefined && !good };
  }

  // A fragment whose = or & some tool percent-encoded (#g%3D...%26m%3D50: a mail or chat
  // program, a shortener) read as it was written; base64url needs no encoding, so decoding
  // changes nothing else. Anything else, or what is not valid percent-encoding, as it is.
  function decoded(fragment) {
    if (!/%3d|%26/i.test(fragment)) return fragment;
    try {
      return decodeURIComponent(fragment);
    } catch (e) {
      return fragment;
    }
  }

  // Opens the game a link carries (#g=...&m=N), if any, at its move. `reloaded`: the page
  // has just been loaded; if this tab was playing and the link names the very game it plays
  // (saved or analysed, then played on), that game resumes in Play: a reload goes on playing.
  // Any other link, and the same link opened in another tab, is watched.
  function openFragment(reloaded) {
    const fragment = decoded(location.hash.slice(1));
    if (!/(^|&)g(=|&|$)/.test(fragment)) return false;
    if (reloaded === true && T48.storage.loadMode() === "play" && T48.play.resumes(parse(fragment).game)) {
      setMode("play");
      return true;
    }
    setMode("watch", true);
    const link = parse(fragment);
    if (!/(^|&)g=/.test(link.game)) {
      T48.watch.opened({ error: "the link holds no game: its #g has no = and no game after it (a link made by twenty48 share reads #g=...)" }, "the linked game");
      return true;
    }
    const answer = T48.engine.openLink(link.game);
    // (For web/test/bench.mjs: the first call to the engine also builds its row tables.)
    T48.app.timings.linkOpened = performance.now();
    const note = link.badMove ? "its m= is not a move number: shown from move 0" : undefined;
    T48.watch.opened(answer, "the linked game", note, link.game, link.move);
    return true;
  }

  function fatal(text) {
    const p = document.getElementById("fatal");
    p.hidden = false;
    p.textContent = text;
  }

  // Anything that goes wrong unexpectedly is said on the page, not only in the console.
  window.addEventListener("error", (e) => fatal("Something went wrong in this page: " + e.message + ". Reload to start again."));

  async function start() {
    const navigation = performance.getEntriesByType("navigation")[0];
    T48.app.timings = { fetched: navigation ? navigation.responseEnd : 0, start: performance.now() };
    try {
      await T48.engine.load();
      T48.app.timings.loaded = performance.now();
    } catch (e) {
      return fatal("This browser cannot run the game engine (WebAssembly): " + e);
    }
    T48.watch.init();
    T48.landing.init();
    T48.play.init();
    T48.compare.init();
    for (const m of MODES) {
      document.getElementById("tab-" + m).addEventListener("click", () => setMode(m));
    }
    T48.input.keys(T48.watch.KEYS, (action) => T48.watch.act(action), () => mode === "watch");
    T48.input.keys(T48.watch.KEYS, (action) => T48.compare.act(action), () => mode === "compare");
    T48.input.keys(T48.play.KEYS, (action) => T48.play.act(action), () => mode === "play");
    // ? lists the keys of every mode (and Escape closes the list, before any mode sees it).
    const help = document.getElementById("keys-help");
    const helpButton = document.getElementById("keys-open");
    let back = null;
    const keysHelp = (on) => {
      if (on === !help.hidden) return;
      help.hidden = !on;
      helpButton.setAttribute("aria-expanded", String(on));
      if (on) {
        back = document.activeElement;
        document.getElementById("keys-close").focus();
      } else if (back && back.isConnected) back.focus();
    };
    helpButton.addEventListener("click", () => keysHelp(help.hidden));
    document.getElementById("keys-close").addEventListener("click", () => keysHelp(false));
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !help.hidden) {
        e.stopImmediatePropagation();
        keysHelp(false);
      }
    }, true);
    T48.input.keys({ "?": "keys" }, () => keysHelp(help.hidden), () => true);
    const drop = document.getElementById("watch-drop");
    document.addEventListener("dragover", (e) => {
      e.preventDefault();
      drop.classList.add("over");
    });
    document.addEventListener("dragleave", () => drop.classList.remove("over"));
    // One file dropped is watched, two are compared; a folder, or more, is said so.
    document.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("over");
      const things = T48.files.dropped(e.dataTransfer);
      if (!things.length) return;
      const folder = things.find((t) => t.folder);
      const two = things.length === 2 && !folder;
      setMode(two ? "compare" : "watch");
      if (two) return T48.compare.openFiles(things[0].file, things[1].file);
      if (folder) {
        return T48.watch.opened({ error: "a folder, not a file: drop one .t48 file to watch it, or two to compare them" }, folder.file.name);
      }
      if (things.length > 2) {
        return T48.watch.opened({ error: things.length + " files were dropped: drop one .t48 file to watch it, or two to compare them" });
      }
      T48.watch.openFile(things[0].file);
    });
    window.addEventListener("hashchange", openFragment);
    if (!openFragment(true)) {
      const saved = T48.storage.loadMode();
      setMode(MODES.includes(saved) ? saved : "watch");
    }
    // The first board is drawn: the time since the page was opened.
    T48.app.ready = T48.app.timings.ready = performance.now();
    // (For web/test/bench.mjs: the frame that shows it, about when it reaches the screen.)
    requestAnimationFrame(() => setTimeout(() => {
      T48.app.timings.painted = performance.now();
      document.body.dataset.painted = "1";
    }, 0));
    document.body.dataset.ready = "1";
  }

  return { start: start, setMode: setMode, shown: shown, address: address, mode: () => mode };
})();

T48.app.start();
