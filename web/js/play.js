// Playing a new game: arrows, WASD or swipes; every move kept in the browser (a reload
// resumes), the game downloadable as a .t48 file and shareable as a link at any moment; the
// win and the end said over the board, as in the original, with "keep going" and "try
// again"; moves and score said to screen readers; the game analysed on request.
"use strict";
window.T48 = window.T48 || {};

T48.play = (function () {
  const KEYS = {
    ArrowUp: "up", w: "up", ArrowRight: "right", d: "right",
    ArrowDown: "down", s: "down", ArrowLeft: "left", a: "left",
    h: "hint",
  };
  const ARROWS = { up: "\u2191", right: "\u2192", down: "\u2193", left: "\u2190" };
  const CODES = { up: 0, right: 1, down: 2, left: 3 };
  const el = (name) => document.getElementById("play-" + name);
  let board = null;
  let session = null; // {rules, preset, seed}
  let last = null; // the last frame shown
  // Whether the win overlay was dismissed for this game ("keep going").
  let goingOn = false;
  // Whether this tab's game is the one the browser keeps (another tab may keep its own).
  let kept = true;
  // Whether this game has been given its link in the address (saved or analysed): from
  // then on, in Play, the address follows it move by move (a reload in Play still resumes
  // it here, app.js: the link names the game kept).
  let linked = false;
  const NOT_KEPT = "Another tab of this page has saved its game: the browser keeps one game in progress, now that tab's. " +
    "This game is not kept any more: download it to keep it, or start a new game here to keep that one instead.";

  // A message above the board: `kind` "bad" (red), "note" (neutral) or "good" (green).
  function message(text, kind) {
    const p = el("message");
    p.hidden = !text;
    p.className = "verdict " + (kind === true ? "bad" : kind || "note");
    p.textContent = text || "";
  }

  // The overlay over the board: "You win!" (keep going, or try again) the first time the
  // winning tile appears; "Game over!" when no move is left; none otherwise.
  // When it appears, it is said in the live region and takes the focus (its first button;
  // the arrow keys still play from there: past the win, they keep going).
  function overlay(frame) {
    const o = el("overlay");
    const won = frame.status === "won" || (frame.reached_win && !goingOn);
    const over = frame.status === "over";
    const was = o.hidden ? "" : el("overlay-title").textContent;
    o.hidden = !(won || over);
    if (o.hidden) return;
    o.className = "overlay" + (won && !over ? " won" : "");
    el("overlay-title").textContent = over ? "Game over!" : "You win!";
    // Keep going only where the rules play on past the win; the game analysed once it ends.
    el("keep-going").hidden = over || frame.status === "won";
    el("overlay-analyse").hidden = !(over || frame.status === "won");
    if (was === el("overlay-title").textContent) return;
    say(over ? "Game over! No move changes the board: score " + frame.score + ". Try again, or analyse the game."
      : frame.status === "won" ? "You win! You reached " + frame.max_tile + ": score " + frame.score + ". These rules end the game here."
      : "You win! You reached " + frame.max_tile + ": score " + frame.score + ". Keep going (any arrow key), or try again.");
    const first = [el("keep-going"), el("try-again")].find((b) => !b.hidden);
    first.focus();
  }

  // Says `text` in the live region (screen readers say it politely).
  function say(text) {
    el("live").textContent = text;
  }

  // Past the win: the overlay goes, the game goes on, the board takes the focus.
  function keepGoing() {
    goingOn = true;
    el("overlay").hidden = true;
    el("board").focus();
  }

  function show(answer, animate) {
    if (answer.error) return message(answer.error, true);
    const frame = answer.frame;
    if (animate) board.animate(frame, answer.events, 100);
    else board.draw(frame);
    last = frame;
    el("game").hidden = false;
    T48.scores.show(frame, answer.preset, answer.rules, true);
    el("move").textContent = frame.move;
    el("status").textContent = frame.status;
    el("rules").textContent = (answer.preset ? answer.preset + " rules: " : "") + answer.rules;
    el("seed-shown").textContent = answer.seed;
    session = answer;
    el("link").value = location.href.split("#")[0] + "#" + T48.engine.fragment();
    if (linked && T48.app.mode() === "play") T48.app.address(link());
    if (!kept) message(NOT_KEPT, true);
    else if (frame.status === "over") message("Game over: no move changes the board. Analyse it, download it, or try again.", "note");
    else if (frame.status === "won") message("You won! These rules end the game here.", "good");
    else message("");
    overlay(frame);
  }

  // Says a move and the score to screen readers (a polite live region); the win and the
  // end are said by the overlay.
  function announce(dir, frame) {
    if (!el("overlay").hidden) return;
    say("Moved " + dir + (frame.gained ? ", +" + frame.gained : "") + ": score " + frame.score + ".");
  }

  // The hint: `twenty48 play --hint`'s move, said and shown under the board.
  function hint() {
    if (!session) return message("There is no game to give a hint for yet: start one first.", true);
    const answer = T48.engine.hint();
    const text = answer.error ? answer.error : answer.best ? "Hint: " + ARROWS[answer.best] + " " + answer.best +
      " (the expectimax bot, as twenty48 play --hint)" : "No hint: no move is left.";
    el("hint-text").textContent = text;
    el("hint-text").dataset.best = answer.best || "";
    say(text);
  }

  function save() {
    if (kept && !T48.storage.saveGame(T48.engine.saved())) {
      message("This browser keeps nothing for this page (its storage is off or full): download the game to keep it.", true);
    }
  }

  // The address of the game played, once it has its link: its fragment at the move shown
  // (opened elsewhere, it is watched there); null before.
  function link() {
    return linked && session ? T48.engine.fragment() + (last && last.move > 0 ? "&m=" + last.move : "") : null;
  }

  // A seed from the browser's random numbers: 64 bits as decimal text.
  function drawSeed() {
    const words = new Uint32Array(2);
    crypto.getRandomValues(words);
    return ((BigInt(words[0]) << 32n) | BigInt(words[1])).toString();
  }

  return {
    KEYS: KEYS,
    init: function () {
      board = new T48.Board(el("board"));
      const last = T48.storage.loadRules();
      if ([...el("preset").options].some((o) => o.value === last)) el("preset").value = last;
      el("new").addEventListener("submit", (e) => {
        e.preventDefault();
        T48.play.start(el("preset").value, el("seed").value.trim() || drawSeed());
      });
      el("download").addEventListener("click", T48.play.download);
      el("analyse").addEventListener("click", T48.play.analyse);
      el("overlay-analyse").addEventListener("click", T48.play.analyse);
      el("keep-going").addEventListener("click", keepGoing);
      el("hint").addEventListener("click", hint);
      el("try-again").addEventListener("click", () => T48.play.start(session ? session.preset || "classic" : "classic", drawSeed()));
      el("copy").addEventListener("click", () => {
        if (!session) return message("There is no game to link to yet: start one first.", true);
        el("link").select();
        const done = () => message("Link copied.");
        const yourself = () => message("The link is selected: copy it (Ctrl+C, or Command+C on a Mac).");
        if (navigator.clipboard) navigator.clipboard.writeText(el("link").value).then(done, yourself);
        else yourself();
      });
      T48.input.swipes(el("board"), (dir) => T48.play.act(dir));
      T48.storage.onOtherTab(() => {
        if (!session || !kept) return;
        kept = false;
        message(NOT_KEPT, true);
      });
    },
    // Resumes the game kept in the browser, if any.
    resume: function () {
      const saved = T48.storage.loadGame();
      if (!saved) return false;
      const answer = saved.error ? saved : T48.engine.resume(saved.bytes);
      goingOn = !answer.error && answer.frame.reached_win === true;
      if (answer.error) {
        message("The game kept in this browser cannot be resumed: " + answer.error + ". A new game will be kept in its place.", true);
        return false;
      }
      show(answer, false);
      return true;
    },
    start: function (preset, seed) {
      const answer = T48.engine.newGame(preset, seed);
      if (answer.error) return message(answer.error, true);
      kept = true;
      goingOn = false;
      // A new game has no link until it is saved or analysed.
      linked = false;
      if (T48.app.mode() === "play") T48.app.address(null);
      el("hint-text").textContent = "";
      show(answer, false);
      save();
      T48.storage.saveRules(preset);
      el("preset").value = preset;
      say("New game under the " + preset + " rules, seed " + answer.seed + ". Arrows or WASD move.");
      el("board").focus();
    },
    // One tap from the landing: the game kept here while it is under way, else a new one
    // under the rules last used, with a seed drawn.
    quickStart: function () {
      T48.app.setMode("play");
      if (session && last && last.status === "playing") return el("board").focus();
      // (The rules of the game kept here, when it has ended, else of the last one started.)
      const used = (session && session.preset) || T48.storage.loadRules();
      const preset = [...el("preset").options].some((o) => o.value === used) ? used : "classic";
      T48.play.start(preset, drawSeed());
    },
    act: function (dir) {
      if (dir === "hint") return hint();
      if (!session) T48.play.start(el("preset").value, drawSeed());
      // Past the win, an arrow keeps going (where the rules play on).
      if (!el("overlay").hidden && !el("keep-going").hidden) keepGoing();
      if (!el("overlay").hidden) return;
      const answer = T48.engine.play(CODES[dir]);
      if (answer.events && answer.events.length) {
        el("hint-text").textContent = "";
        show(answer, true);
        announce(dir, answer.frame);
        save();
      }
    },
    download: function () {
      if (!session) return message("There is no game to download yet: start one first.", true);
      const blob = new Blob([T48.engine.saved()], { type: "application/octet-stream" });
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = "twenty48-" + (session.preset || "custom") + "-" + session.seed + ".t48";
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
      // Saved: the game has its link, in the address from now on.
      linked = true;
      T48.app.address(link());
    },
    link: link,
    // Whether `game` (a link's g=..., without m=) is the game resumed here: a reload of a
    // tab playing a game that has its link in the address.
    resumes: function (game) {
      if (!session && !T48.play.resume()) return false;
      linked = kept && T48.engine.fragment() === game;
      return linked;
    },
    started: function () {
      return session !== null;
    },
    // The game played so far, opened in Watch with its analysis.
    analyse: function () {
      if (!session) return message("There is no game to analyse yet: start one first.", true);
      const bytes = T48.engine.saved();
      linked = true;
      T48.app.setMode("watch", true);
      T48.watch.opened(T48.engine.open(bytes), "your game", undefined, undefined, Number(last ? last.move : 0), bytes);
    },
    // The header's scores for this mode's game.
    refresh: function () {
      if (last && session) T48.scores.show(last, session.preset, session.rules, true);
      else T48.scores.clear();
    },
  };
})();
