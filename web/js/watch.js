// Watching a recorded game: the verdict first, then the board at any move, played,
// stepped or jumped to, with the keys of `twenty48 replay --watch`.
"use strict";
window.T48 = window.T48 || {};

T48.watch = (function () {
  const SPEEDS = [0.5, 1, 2, 4, 8, 16, 32, 64];
  const KEYS = {
    " ": "toggle", p: "toggle",
    ArrowRight: "forward", l: "forward", n: "forward",
    ArrowLeft: "back", h: "back", b: "back",
    "+": "faster", "=": "faster", ArrowUp: "faster",
    "-": "slower", ArrowDown: "slower",
    g: "jump", Home: "start", 0: "start", End: "end", $: "end",
    Escape: "pause", q: "pause",
  };
  const el = (name) => document.getElementById("watch-" + name);
  let board = null;
  let game = null; // {id, moves, ...} as the engine opened it
  let at = 0;
  let speed = 3;
  let timer = null;
  let place = null; // the key a linked game's move is kept under, or null
  // A file this large (1 MiB, about four million moves) is said to be verifying first.
  const BIG = 1 << 20;

  function show(answer, animate) {
    const frame = answer.frame;
    at = frame.move;
    const ms = animate ? Math.min(120, 700 / SPEEDS[speed]) : 0;
    if (animate && SPEEDS[speed] < 32) board.animate(frame, answer.events, ms);
    else board.draw(frame);
    el("score").textContent = frame.score;
    el("gained").textContent = frame.gained ? "+" + frame.gained : "";
    el("move").textContent = frame.move;
    el("status").textContent = frame.status;
    el("hash").textContent = frame.hash;
    el("timeline").value = frame.move;
    el("timeline").setAttribute("aria-valuetext", "move " + frame.move + " of " + game.moves);
    if (place) T48.storage.savePlace(place, frame.move);
  }

  function go(n, animate) {
    if (!game) return;
    n = Math.max(0, Math.min(game.moves, n));
    show(T48.engine.show(game.id, n, animate && n === at + 1), animate && n === at + 1);
  }

  function setPlaying(on) {
    if (timer) clearTimeout(timer);
    timer = null;
    const toggle = el("toggle");
    toggle.textContent = on ? "Pause" : "Play";
    if (!on || !game) return;
    const tick = () => {
      if (at >= game.moves) return setPlaying(false);
      go(at + 1, true);
      timer = setTimeout(tick, 1000 / SPEEDS[speed]);
    };
    timer = setTimeout(tick, 0);
  }

  function setSpeed(i) {
    speed = Math.max(0, Math.min(SPEEDS.length - 1, i));
    el("speed").value = String(speed);
  }

  function act(action) {
    if (!game) return;
    switch (action) {
      case "toggle": return setPlaying(!timer);
      case "pause": return setPlaying(false);
      case "forward": setPlaying(false); return go(at + 1, true);
      case "back": setPlaying(false); return go(at - 1, false);
      case "faster": return setSpeed(speed + 1);
      case "slower": return setSpeed(speed - 1);
      case "start": setPlaying(false); return go(0, false);
      case "end": setPlaying(false); return go(game.moves, false);
      case "jump": setPlaying(false); el("jump-to").focus(); el("jump-to").select(); return;
    }
  }

  // The verdict in the words of `twenty48 verify`: "ok", "FAILED" or "ERROR", the file's
  // name, the message.
  function verdict(answer, name, note) {
    const p = el("verdict");
    p.hidden = false;
    const word = answer.error ? "ERROR" : answer.verdict.word;
    const message = answer.error || answer.verdict.message;
    p.className = "verdict " + (word === "ok" ? "good" : "bad");
    p.dataset.word = word;
    p.dataset.message = message;
    p.textContent = (word === "ok" ? "ok, verified" : word) + (name ? ": " + name : "") + ": " + message + (note ? " (" + note + ")" : "");
  }

  return {
    KEYS: KEYS,
    init: function () {
      board = new T48.Board(el("board"));
      SPEEDS.forEach((s, i) => {
        const o = document.createElement("option");
        o.value = String(i);
        o.textContent = s + " moves/s";
        el("speed").append(o);
      });
      setSpeed(speed);
      el("speed").addEventListener("change", () => setSpeed(Number(el("speed").value)));
      el("start").addEventListener("click", () => act("start"));
      el("back").addEventListener("click", () => act("back"));
      el("toggle").addEventListener("click", () => act("toggle"));
      el("forward").addEventListener("click", () => act("forward"));
      el("end").addEventListener("click", () => act("end"));
      el("timeline").addEventListener("input", () => {
        setPlaying(false);
        go(Number(el("timeline").value), false);
      });
      el("jump").addEventListener("submit", (e) => {
        e.preventDefault();
        go(Number(el("jump-to").value) || 0, false);
        el("board").focus();
      });
      el("file").addEventListener("change", () => {
        const file = el("file").files[0];
        if (file) T48.watch.openFile(file);
      });
    },
    act: act,
    // Shows what the engine said of a file or a link: the verdict (with a note on what was
    // read, if any), then the game. A linked game gives `key`: the move it is watched at is
    // kept under it, and a reload of the link comes back to that move.
    opened: function (answer, name, note, key) {
      setPlaying(false);
      if (game) T48.engine.close(game.id);
      game = null;
      place = null;
      verdict(answer, name, note);
      el("game").hidden = !answer.id;
      if (!answer.id) return;
      game = answer;
      el("total").textContent = answer.moves;
      el("timeline").max = answer.moves;
      el("jump-to").max = answer.moves;
      el("rules").textContent = (answer.preset ? answer.preset + " rules: " : "") + answer.rules;
      el("seed").textContent = answer.seed;
      show({ frame: answer.first, events: [] }, false);
      place = key || null;
      if (place) go(T48.storage.loadPlace(place), false);
      document.title = "twenty48: " + (name || "a game") + " (" + answer.moves + " moves)";
    },
    openFile: function (file) {
      T48.files.read(file, (bytes, note) => {
        if (bytes.length < BIG) return T48.watch.opened(T48.engine.open(bytes), file.name, note);
        // A large log takes the engine a second or more: say so, and let the page draw that
        // before the engine starts.
        setPlaying(false);
        const p = el("verdict");
        p.hidden = false;
        p.className = "verdict";
        delete p.dataset.word;
        delete p.dataset.message;
        p.textContent = "verifying " + file.name + " (" + bytes.length + " bytes, about " + 4 * bytes.length + " moves)...";
        requestAnimationFrame(() => setTimeout(() => T48.watch.opened(T48.engine.open(bytes), file.name, note), 0));
      }, (message) => T48.watch.opened({ error: message }, file.name));
    },
  };
})();
