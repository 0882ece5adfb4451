// Playing a new game: arrows, WASD or swipes; every move kept in the browser (a reload
// resumes), the game downloadable as a .t48 file and shareable as a link at any moment.
"use strict";
window.T48 = window.T48 || {};

T48.play = (function () {
  const KEYS = {
    ArrowUp: "up", w: "up", ArrowRight: "right", d: "right",
    ArrowDown: "down", s: "down", ArrowLeft: "left", a: "left",
  };
  const CODES = { up: 0, right: 1, down: 2, left: 3 };
  const el = (name) => document.getElementById("play-" + name);
  let board = null;
  let session = null; // {rules, preset, seed}
  // Whether this tab's game is the one the browser keeps (another tab may keep its own).
  let kept = true;
  const NOT_KEPT = "Another tab of this page has saved its game: the browser keeps one game in progress, now that tab's. " +
    "This game is not kept any more: download it to keep it, or start a new game here to keep that one instead.";

  function message(text, bad) {
    const p = el("message");
    p.hidden = !text;
    p.className = "verdict " + (bad ? "bad" : "good");
    p.textContent = text || "";
  }

  function show(answer, animate) {
    if (answer.error) return message(answer.error, true);
    const frame = answer.frame;
    if (animate) board.animate(frame, answer.events, 100);
    else board.draw(frame);
    el("game").hidden = false;
    el("score").textContent = frame.score;
    el("gained").textContent = frame.gained ? "+" + frame.gained : "";
    el("move").textContent = frame.move;
    el("status").textContent = frame.status;
    el("rules").textContent = (answer.preset ? answer.preset + " rules: " : "") + answer.rules;
    el("seed-shown").textContent = answer.seed;
    session = answer;
    el("link").value = location.href.split("#")[0] + "#" + T48.engine.fragment();
    if (!kept) message(NOT_KEPT, true);
    else if (frame.status === "over") message("Game over: no move changes the board. Download it, or start a new game.");
    else if (frame.status === "won") message("You won! These rules end the game here.");
    else message("");
  }

  function save() {
    if (kept && !T48.storage.saveGame(T48.engine.saved())) {
      message("This browser keeps nothing for this page (its storage is off or full): download the game to keep it.", true);
    }
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
      el("new").addEventListener("submit", (e) => {
        e.preventDefault();
        T48.play.start(el("preset").value, el("seed").value.trim() || drawSeed());
      });
      el("download").addEventListener("click", T48.play.download);
      el("copy").addEventListener("click", () => {
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
      show(answer, false);
      save();
      el("board").focus();
    },
    act: function (dir) {
      if (!session) T48.play.start(el("preset").value, drawSeed());
      const answer = T48.engine.play(CODES[dir]);
      if (answer.events && answer.events.length) {
        show(answer, true);
        save();
      }
    },
    download: function () {
      if (!session) return;
      const blob = new Blob([T48.engine.saved()], { type: "application/octet-stream" });
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = "twenty48-" + (session.preset || "custom") + "-" + session.seed + ".t48";
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    },
    started: function () {
      return session !== null;
    },
  };
})();
