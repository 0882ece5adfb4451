// Two games side by side, stepped together, with a jump to the first move where they part
// (as `twenty48 diff` finds it).
"use strict";
window.T48 = window.T48 || {};

T48.compare = (function () {
  const el = (name) => document.getElementById("compare-" + name);
  const sides = { a: { board: null, game: null }, b: { board: null, game: null } };
  let at = 0;

  function both() {
    return sides.a.game && sides.b.game;
  }

  function go(n) {
    if (!both()) return;
    const last = Math.max(sides.a.game.moves, sides.b.game.moves);
    at = Math.max(0, Math.min(last, n));
    for (const key of ["a", "b"]) {
      const side = sides[key];
      const frame = T48.engine.show(side.game.id, at, false).frame;
      side.board.draw(frame);
      el(key + "-score").textContent = "move " + frame.move + ", score " + frame.score + (at > side.game.moves ? " (ended)" : "");
    }
    el("timeline").value = at;
  }

  function part() {
    if (!both()) return;
    const d = T48.engine.diff(sides.a.game.id, sides.b.game.id);
    const list = el("differences");
    list.textContent = "";
    if (d.same) {
      el("verdict").textContent = "identical: the games agree on every move";
      return;
    }
    el("verdict").textContent = "the games part at move " + d.move;
    for (const text of d.differences) {
      const li = document.createElement("li");
      li.textContent = text;
      list.append(li);
    }
    go(d.move);
  }

  function load(key, file) {
    const reader = new FileReader();
    reader.onload = () => {
      const side = sides[key];
      if (side.game) T48.engine.close(side.game.id);
      const answer = T48.engine.open(new Uint8Array(reader.result));
      side.game = answer.id ? answer : null;
      const p = el("verdict");
      p.hidden = false;
      p.textContent = file.name + ": " + (answer.error ? "ERROR: " + answer.error : answer.verdict.word + ": " + answer.verdict.message);
      el("game").hidden = !both();
      if (both()) {
        el("timeline").max = Math.max(sides.a.game.moves, sides.b.game.moves);
        part();
      }
    };
    reader.readAsArrayBuffer(file);
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
    act: function (action) {
      if (action === "forward") go(at + 1);
      else if (action === "back") go(at - 1);
      else if (action === "start") go(0);
      else if (action === "end") go(Infinity);
      else if (action === "jump") part();
    },
  };
})();
