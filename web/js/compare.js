// Two games side by side, stepped together, with what `twenty48 diff` says of them (in its
// words) and a jump to the first move where they part.
"use strict";
window.T48 = window.T48 || {};

T48.compare = (function () {
  const el = (name) => document.getElementById("compare-" + name);
  const sides = { a: { board: null, game: null, said: "" }, b: { board: null, game: null, said: "" } };
  let at = 0;
  let diffLine = "";

  function both() {
    return sides.a.game && sides.b.game;
  }

  function go(n) {
    if (!both()) return;
    const last = Math.max(sides.a.game.moves, sides.b.game.moves);
    at = Math.max(0, Math.min(last, n));
    const frames = {};
    for (const key of ["a", "b"]) {
      const side = sides[key];
      const frame = T48.engine.show(side.game.id, at, false).frame;
      frames[key] = frame;
      side.board.draw(frame);
      el(key + "-score").textContent = "move " + frame.move + ", score " + frame.score + (at > side.game.moves ? " (ended)" : "");
    }
    // The cells where the two boards differ, marked on both (boards of one size).
    const differ = [];
    if (frames.a.size === frames.b.size) {
      frames.a.board.forEach((e, cell) => {
        if (e !== frames.b.board[cell]) differ.push(cell);
      });
    }
    sides.a.board.mark(differ);
    sides.b.board.mark(differ);
    el("marked").textContent = frames.a.size !== frames.b.size ? "The boards are of different sizes." :
      differ.length ? differ.length + (differ.length === 1 ? " cell differs" : " cells differ") + " (framed in blue)." : "The boards are the same.";
    el("timeline").value = at;
  }

  // What each file is, then what `twenty48 diff` says of the two: one line each.
  function say() {
    const p = el("verdict");
    p.hidden = false;
    p.dataset.diff = diffLine;
    // Red, as Watch says an error, when a file is not a game or does not verify, or the two
    // cannot be compared.
    const bad = [sides.a, sides.b].some((side) => side.bad) || /^ERROR: /.test(diffLine);
    p.className = "verdict" + (bad ? " bad" : "");
    p.textContent = [sides.a.said, sides.b.said, diffLine].filter(Boolean).join("\n");
  }

  // Asks the engine what `twenty48 diff` says, lists the differences, and goes to the move
  // where the games part.
  function part() {
    if (!both()) return;
    const d = T48.engine.diff(sides.a.game.id, sides.b.game.id, [sides.a.game.name, sides.b.game.name]);
    const list = el("differences");
    list.textContent = "";
    diffLine = d.error ? "ERROR: " + d.error : d.verdict === "parted" ? d.line : d.verdict + ": " + d.line;
    say();
    for (const text of d.differences || []) {
      const li = document.createElement("li");
      li.textContent = text;
      list.append(li);
    }
    if (d.verdict === "parted") go(d.move);
  }

  function opened(key, name, answer, note) {
    const side = sides[key];
    if (side.game) T48.engine.close(side.game.id);
    side.game = answer.id ? Object.assign(answer, { name: name }) : null;
    const word = answer.error ? "ERROR" : answer.verdict.word;
    side.bad = word !== "ok";
    side.said = (key === "a" ? "First" : "Second") + " game, " + name + ": " + word + ": " + (answer.error || answer.verdict.message) +
      (note ? " (" + note + ")" : "");
    diffLine = "";
    el("differences").textContent = "";
    el("game").hidden = !both();
    say();
    if (both()) {
      el("timeline").max = Math.max(sides.a.game.moves, sides.b.game.moves);
      part();
    }
  }

  function load(key, file) {
    T48.files.read(file, (bytes, note) => opened(key, file.name, T48.engine.open(bytes), note),
      (message) => opened(key, file.name, { error: message }));
  }

  return {
    init: function () {
      sides.a.board = new T48.Board(el("a-board"));
      sides.b.board = new T48.Board(el("b-board"));
      for (const key of ["a", "b"]) {
        el(key).addEventListener("change", () => {
          const file = el(key).files[0];
          if (file) load(key, file);
        });
      }
      el("back").addEventListener("click", () => go(at - 1));
      el("forward").addEventListener("click", () => go(at + 1));
      el("part").addEventListener("click", part);
      el("timeline").addEventListener("input", () => go(Number(el("timeline").value)));
    },
    // Compares two files (dropped on the page together).
    openFiles: function (a, b) {
      for (const side of [sides.a, sides.b]) {
        if (side.game) T48.engine.close(side.game.id);
        side.game = null;
        side.said = "";
      }
      load("a", a);
      load("b", b);
    },
    act: function (action) {
      if (action === "forward") go(at + 1);
      else if (action === "back") go(at - 1);
      else if (action === "start") go(0);
      else if (action === "end") go(Infinity);
      else if (action === "jump") part();
    },
  };
})();
