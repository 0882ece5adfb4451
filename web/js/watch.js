// Watching a recorded game: the verdict first, then the board at any move, played,
// stepped or jumped to, with the keys of `twenty48 replay --watch`; and its analysis as it
// arrives from the worker (js/analysis.js): the strip along the game, each move's rating,
// the bot's best move as an arrow, the worst moves, the accuracy.
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
    "]": "next-error", "[": "previous-error",
  };
  const ARROWS = { up: 0, right: 90, down: 180, left: 270 };
  const el = (name) => document.getElementById("watch-" + name);
  let board = null;
  let game = null; // {id, moves, ...} as the engine opened it
  let at = 0;
  let speed = 3;
  let timer = null;
  let link = null; // the game's link fragment (without # and m=): its link, or a file's made here
  let fromLink = false; // whether what is shown came from the address (whose link then stays, even broken)
  let ratings = []; // ratings[n]: move n's rating, as they arrive
  let errors = []; // the move numbers of inaccuracies, mistakes and blunders, in order
  let stopAnalysis = () => {};
  let arrow = null;
  // A file this large (1 MiB, about four million moves) is said to be verifying first.
  const BIG = 1 << 20;

  function show(answer, animate) {
    const frame = answer.frame;
    at = frame.move;
    const ms = animate ? Math.min(120, 700 / SPEEDS[speed]) : 0;
    if (animate && SPEEDS[speed] < 32) board.animate(frame, answer.events, ms);
    else board.draw(frame);
    T48.scores.show(frame, game.preset, game.rules, false);
    el("move").textContent = frame.move;
    el("status").textContent = frame.status;
    el("hash").textContent = frame.hash;
    el("timeline").value = frame.move;
    el("timeline").setAttribute("aria-valuetext", "move " + frame.move + " of " + game.moves);
    // "Go to move" follows the move shown, unless it is being typed in.
    if (document.activeElement !== el("jump-to")) el("jump-to").value = frame.move;
    if (!timer) keepPlace();
    describe();
  }

  // The address names the game and the move shown (#g=...&m=N), so a reload or a copied
  // link opens there: a linked game's link, a file's own (made here: `twenty48 share`'s,
  // for files of up to 1 MiB), or no fragment (a file too large for a link, an error from
  // a file, nothing opened). A broken link stays in the address: it is what is shown.
  function keepPlace() {
    if (T48.app.mode() !== "watch") return;
    if (!game) return fromLink ? undefined : T48.app.address(null);
    T48.app.address(link ? link + (at > 0 ? "&m=" + at : "") : null);
  }

  function go(n, animate) {
    if (!game) return;
    n = Math.max(0, Math.min(game.moves, n));
    show(T48.engine.show(game.id, n, animate && n === at + 1), animate && n === at + 1);
  }

  function setPlaying(on) {
    if (timer) clearTimeout(timer);
    timer = null;
    el("toggle").textContent = on ? "Pause" : "Replay";
    if (!on || !game) {
      if (game) keepPlace();
      describe();
      return;
    }
    const tick = () => {
      if (at >= game.moves) return setPlaying(false);
      go(at + 1, true);
      timer = setTimeout(tick, 1000 / SPEEDS[speed]);
    };
    timer = setTimeout(tick, 0);
    describe();
  }

  function setSpeed(i) {
    speed = Math.max(0, Math.min(SPEEDS.length - 1, i));
    el("speed").value = String(speed);
  }

  // The next (or previous) inaccuracy, mistake or blunder from the board shown: the board
  // before it, so the arrow shows what the bot would have played.
  function jumpError(forward) {
    const target = forward ? errors.find((m) => m - 1 > at) : errors.filter((m) => m - 1 < at).at(-1);
    if (target !== undefined) go(target - 1, false);
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
      case "next-error": setPlaying(false); return jumpError(true);
      case "previous-error": setPlaying(false); return jumpError(false);
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

  // What the analysis says of the board shown: the move that led to it, and the bot's best
  // move from it, as words and (stopped) as an arrow on the board.
  function describe() {
    if (!game) return;
    const mark = el("strip").querySelector("rect.at");
    if (mark) mark.setAttribute("x", Math.min(GRAPH.width - 2, (at / Math.max(1, game.moves)) * GRAPH.width).toFixed(1));
    const made = ratings[at];
    const next = ratings[at + 1];
    const p = el("rating");
    p.textContent = "";
    if (made) {
      const span = document.createElement("span");
      span.className = made.class;
      const luck = T48.analysis.spawn(made, next);
      span.textContent = "Move " + at + ", " + T48.analysis.words(made) + (luck ? "; " + luck : "") + ".";
      p.append(span);
    }
    if (next && next.best) p.append((made ? " " : "") + "Best from here: " + next.best + ".");
    showLine();
    const best = !timer && next ? next.best : null;
    arrow.dataset.best = best || "";
    if (!best) {
      arrow.hidden = true;
      return;
    }
    arrow.hidden = false;
    arrow.querySelector("g").setAttribute("transform", "rotate(" + ARROWS[best] + " 50 50)");
    arrow.setAttribute("aria-label", "the bot's best move from here: " + best);
  }

  // The bot's line from the board shown (issue 45): its next moves, each followed by the
  // likeliest spawn, searched by the engine (the analysis crate's Rater::line) at the
  // analysis's depth once the replay stops and the board stays a moment (a search on the
  // page's thread: never while it replays).
  let lineTimer = null;
  function showLine() {
    if (lineTimer) clearTimeout(lineTimer);
    lineTimer = null;
    const p = el("line");
    if (timer || !game || game.size !== 4) {
      p.textContent = "";
      p.dataset.move = "";
      return;
    }
    if (p.dataset.move === String(at)) return;
    p.dataset.move = "";
    lineTimer = setTimeout(() => {
      lineTimer = null;
      if (timer || !game) return;
      const answer = T48.engine.line(game.id, at, T48.analysis.PLIES, T48.analysis.DEPTH);
      if (answer.error || !answer.line.length) {
        p.textContent = "";
        return;
      }
      p.textContent = "The bot's line from here, under the likeliest spawns: " + T48.analysis.line(answer, game.size) + ".";
      p.dataset.move = String(answer.move);
      p.dataset.line = JSON.stringify(answer.line);
    }, 150);
  }

  function makeArrow() {
    const wrap = document.createElement("div");
    wrap.className = "arrow";
    wrap.hidden = true;
    wrap.setAttribute("role", "img");
    wrap.innerHTML = '<svg viewBox="0 0 100 100" aria-hidden="true"><g><path d="M50 30 L65 47 L56 47 L56 70 L44 70 L44 47 L35 47 Z" ' +
      'fill="rgba(26, 86, 219, 0.3)" stroke="rgba(26, 86, 219, 0.6)" stroke-width="1.5" stroke-linejoin="round"/></g></svg>';
    board.element.parentElement.append(wrap);
    return wrap;
  }

  // The evaluation graph (issue 45), as `twenty48 analyse --svg` draws it: the chance of
  // the tile aimed at before each move (the best move's, as the CLI's `before`), a line per
  // tile's stretch, each inaccuracy, mistake and blunder a dot that is a link to the board
  // before it (Tab reaches it, Enter follows it), the board shown as a blue line. A click
  // anywhere goes to that move. At most MOST_POINTS points a line (a longer game drawn every
  // nth move, its errors all marked).
  const COLOURS = { inaccuracy: "#8a6d00", mistake: "#b45309", blunder: "#b91c1c" };
  const GRAPH = { width: 480, height: 96, top: 4, bottom: 4 };
  const MOST_POINTS = 1000;
  const SVG = "http://www.w3.org/2000/svg";
  let drawQueued = false;
  function svg(name, attributes) {
    const e = document.createElementNS(SVG, name);
    for (const k in attributes) e.setAttribute(k, attributes[k]);
    return e;
  }
  function graphX(m) {
    const n = Math.max(1, game ? game.moves : 1);
    return (((m - 1) / n) * GRAPH.width).toFixed(1);
  }
  function graphY(chance) {
    const span = GRAPH.height - GRAPH.top - GRAPH.bottom;
    return (GRAPH.top + span - (span * Math.min(chance, 1000000)) / 1000000).toFixed(1);
  }
  function drawStrip() {
    if (drawQueued) return;
    drawQueued = true;
    requestAnimationFrame(() => {
      drawQueued = false;
      const graph = el("strip");
      GRAPH.width = Math.max(100, Math.round(graph.clientWidth || 480));
      graph.setAttribute("viewBox", "0 0 " + GRAPH.width + " " + GRAPH.height);
      // Not under the focus: a dot that vanished while focused would lose it.
      const focused = graph.contains(document.activeElement) ? document.activeElement.dataset.move : null;
      graph.textContent = "";
      for (const pct of [25, 50, 75]) {
        const y = graphY(pct * 10000);
        graph.append(svg("line", { x1: 0, y1: y, x2: GRAPH.width, y2: y, class: "grid" }));
      }
      const moves = [];
      for (let m = 1; m < ratings.length; m++) if (ratings[m] && ratings[m].best) moves.push(m);
      const step = Math.max(1, Math.ceil(moves.length / MOST_POINTS));
      let line = [];
      let tile = null;
      const flush = () => {
        if (line.length) graph.append(svg("polyline", { points: line.join(" "), class: "value" }));
        line = [];
      };
      moves.forEach((m, i) => {
        const r = ratings[m];
        if (r.tile !== tile) {
          flush();
          tile = r.tile;
          graph.append(svg("line", { x1: graphX(m), y1: 0, x2: graphX(m), y2: GRAPH.height, class: "tile" }));
        }
        if (i % step === 0 || i === moves.length - 1 || ratings[moves[i + 1]].tile !== tile) line.push(graphX(m) + "," + graphY(T48.analysis.before(r)));
      });
      flush();
      const n = Math.max(1, game ? game.moves : 1);
      graph.append(svg("rect", { x: Math.min(GRAPH.width - 2, (at / n) * GRAPH.width).toFixed(1), y: 0, width: 2, height: GRAPH.height, class: "at" }));
      for (const m of errors) {
        const r = ratings[m];
        const a = svg("a", { href: "#" + (link !== null ? link + "&" : "") + "m=" + (m - 1), "aria-label": "move " + m + ", " + T48.analysis.words(r), class: "error " + r.class });
        a.dataset.move = m;
        a.dataset.chance = T48.analysis.before(r);
        a.dataset.class = r.class;
        const dot = svg("circle", { cx: graphX(m), cy: graphY(T48.analysis.before(r)), r: 4, fill: COLOURS[r.class] });
        const title = svg("title", {});
        title.textContent = "move " + m + ": " + r.class;
        dot.append(title);
        a.append(dot);
        graph.append(a);
      }
      if (focused) {
        const again = graph.querySelector('a[data-move="' + focused + '"]');
        if (again) again.focus();
      }
    });
  }

  // The graph in words (its text alternative): where the chance stood at the first and the
  // last move analysed, and the errors.
  function graphWords() {
    const rated = ratings.filter((r) => r && r.best);
    if (!rated.length) return "The evaluation graph: no move rated yet.";
    const first = rated[0];
    const last = rated[rated.length - 1];
    return "The evaluation graph, the chance to reach the next tile before each move: " +
      T48.analysis.chance(T48.analysis.before(first)) + " to reach " + first.tile + " at move " + first.move + ", " +
      T48.analysis.chance(T48.analysis.before(last)) + " to reach " + last.tile + " at move " + last.move + "; " +
      count(errors.length, "error marked", "errors marked") + " (Tab reaches each; a click on the graph goes to that move).";
  }

  // The analysis so far: the strip, the worst moves (each a link to the board before it),
  // the accuracy; said once it is done.
  function analysed(answer) {
    for (const r of answer.ratings) {
      ratings[r.move] = r;
      if (r.class === "inaccuracy" || r.class === "mistake" || r.class === "blunder") errors.push(r.move);
    }
    const s = answer.summary;
    const c = s.counts;
    const done = answer.analysed >= answer.total;
    el("strip-wrap").hidden = false;
    el("analysis-state").textContent = (done ? "Analysed at depth " + answer.depth : "Analysing at depth " + answer.depth + ": " + answer.analysed + " of " + answer.total + " moves") +
      ": " + count(c.inaccuracy, "inaccuracy", "inaccuracies") + ", " + count(c.mistake, "mistake", "mistakes") + ", " + count(c.blunder, "blunder", "blunders") + ".";
    el("strip").setAttribute("aria-label", graphWords() + " " + el("analysis-state").textContent);
    el("strip").dataset.analysed = answer.analysed;
    el("strip").dataset.done = done ? "1" : "";
    T48.scores.accuracy(s.accuracy, "100% less the error rate: the mean share of the chance at stake given away over " + count(s.chosen, "decision", "decisions") + " with a real choice");
    showWorst(s.worst);
    drawStrip();
    describe();
  }

  // "1 mistake", "2 mistakes".
  function count(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }

  // The worst moves as links, rebuilt only when they change and never under the focus (a
  // link that vanished while focused would send the focus back to the page's start).
  let worstShown = "";
  function showWorst(worst) {
    const list = el("worst");
    const key = worst.join(",");
    if (key === worstShown || list.contains(document.activeElement)) return;
    worstShown = key;
    list.textContent = "";
    for (const m of worst) {
      const r = ratings[m];
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "#" + (link !== null ? link + "&" : "") + "m=" + (m - 1);
      a.dataset.move = m;
      a.textContent = "move " + m + ", " + T48.analysis.words(r);
      a.className = r.class;
      a.addEventListener("click", (e) => {
        e.preventDefault();
        setPlaying(false);
        go(m - 1, false);
        el("board").focus();
      });
      li.append(a);
      list.append(li);
    }
    el("worst-box").hidden = worst.length === 0;
  }

  function analyse(source) {
    stopAnalysis();
    if (game.size !== 4) {
      el("strip-wrap").hidden = false;
      el("analysis-state").textContent = "The analysis rates moves on 4x4 boards only (the bot searches those).";
      return;
    }
    if (!game.moves) return;
    stopAnalysis = T48.analysis.start(source, T48.analysis.DEPTH, analysed, (message) => {
      el("strip-wrap").hidden = false;
      el("analysis-state").textContent = "No analysis: " + message;
    });
  }

  function clearAnalysis() {
    stopAnalysis();
    stopAnalysis = () => {};
    ratings = [];
    errors = [];
    el("strip-wrap").hidden = true;
    el("worst-box").hidden = true;
    el("worst").textContent = "";
    worstShown = "";
    el("rating").textContent = "";
    el("line").textContent = "";
    el("line").dataset.move = "";
    el("analysis-state").textContent = "";
    T48.scores.accuracy(null);
  }

  return {
    KEYS: KEYS,
    init: function () {
      board = new T48.Board(el("board"));
      arrow = makeArrow();
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
      el("strip").addEventListener("click", (e) => {
        if (!game) return;
        const dot = e.target.closest("a[data-move]");
        if (dot) {
          e.preventDefault();
          setPlaying(false);
          go(Number(dot.dataset.move) - 1, false);
          return;
        }
        const box = el("strip").getBoundingClientRect();
        setPlaying(false);
        go(Math.round(((e.clientX - box.left) / box.width) * game.moves), false);
      });
      el("jump").addEventListener("submit", (e) => {
        e.preventDefault();
        setPlaying(false);
        go(Number(el("jump-to").value) || 0, false);
        el("board").focus();
      });
      el("file").addEventListener("change", () => {
        const file = el("file").files[0];
        if (file) T48.watch.openFile(file);
      });
      window.addEventListener("resize", () => game && drawStrip());
    },
    act: act,
    // Whether a game is shown.
    shown: function () {
      return game !== null;
    },
    // Whether anything was opened (a game, or a verdict on what is not one).
    said: function () {
      return !el("verdict").hidden;
    },
    keepPlace: keepPlace,
    // Shows what the engine said of a file or a link: the verdict (with a note on what was
    // read, if any), then the game, at move `start` (a link's m=), and its analysis. A
    // linked game gives `fragment` (its link without m=): the address then follows the move
    // shown. `bytes`: the file, for the analysis.
    opened: function (answer, name, note, fragment, start, bytes) {
      setPlaying(false);
      clearAnalysis();
      if (game) T48.engine.close(game.id);
      game = null;
      link = null;
      fromLink = fragment !== undefined;
      verdict(answer, name, note);
      // Once something is open, the drop zone folds to a line (the board comes first).
      el("drop").classList.add("folded");
      el("game").hidden = !answer.id;
      if (!answer.id) {
        T48.scores.clear();
        T48.app.shown();
        keepPlace();
        return;
      }
      game = answer;
      el("total").textContent = answer.moves;
      el("timeline").max = answer.moves;
      el("jump-to").max = answer.moves;
      el("jump-to").value = 0;
      el("rules").textContent = (answer.preset ? answer.preset + " rules: " : "") + answer.rules;
      el("seed").textContent = answer.seed;
      link = fragment !== undefined ? fragment : bytes ? T48.engine.link(bytes) || null : null;
      show({ frame: answer.first, events: [] }, false);
      if (start) go(start, false);
      document.title = "twenty48: " + (name || "a game") + " (" + answer.moves + " moves)";
      T48.app.shown();
      drawStrip();
      // The analysis starts once the board is drawn (and not for a game replaced meanwhile).
      const source = bytes ? { bytes: bytes } : { fragment: link };
      const shownGame = game;
      setTimeout(() => {
        if (game === shownGame) analyse(source);
      }, 0);
    },
    openFile: function (file) {
      T48.files.read(file, (bytes, note) => {
        if (bytes.length < BIG) return T48.watch.opened(T48.engine.open(bytes), file.name, note, undefined, 0, bytes);
        // A large log takes the engine a second or more: say so, and let the page draw that
        // before the engine starts.
        setPlaying(false);
        const p = el("verdict");
        p.hidden = false;
        p.className = "verdict note";
        delete p.dataset.word;
        delete p.dataset.message;
        p.textContent = "verifying " + file.name + " (" + bytes.length + " bytes, about " + 4 * bytes.length + " moves)...";
        requestAnimationFrame(() => setTimeout(() => T48.watch.opened(T48.engine.open(bytes), file.name, note, undefined, 0, bytes), 0));
      }, (message) => T48.watch.opened({ error: message }, file.name));
    },
    // For tests: the ratings so far, by move.
    ratings: function () {
      return ratings;
    },
  };
})();
