// The analysis of a game, off the page's main thread: a worker runs its own copy of the
// engine (the module the page compiled, handed over) and rates the game's moves in chunks,
// handing each chunk to the page as it is made, so a long game is usable at once. The
// ratings are `twenty48 analyse --json`'s, number for number (integer arithmetic in the
// engine). The worker is made from this file's own text (a blob), which works from file://
// pages too, where a worker script cannot be loaded from a file.
"use strict";
window.T48 = window.T48 || {};

T48.analysis = (function () {
  // The depth the CLI analyses at by default (twenty48-analysis's DEFAULT_DEPTH).
  const DEPTH = 6;
  // The plies of the bot's line shown from the board (its moves, each with a spawn).
  const PLIES = 4;

  // The worker's code: opens the game, then rates it a chunk at a time, each chunk sized to
  // take about a tenth of a second, and posts each.
  function work() {
    let engine = null;
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    function input(bytes) {
      const at = engine.t48_input(bytes.length);
      if (at !== 0) new Uint8Array(engine.memory.buffer, at, bytes.length).set(bytes);
    }
    function json(length) {
      return JSON.parse(decoder.decode(new Uint8Array(engine.memory.buffer, engine.t48_output(), length)));
    }
    onmessage = async (event) => {
      const { module, bytes, fragment, depth } = event.data;
      try {
        if (!engine) engine = (await WebAssembly.instantiate(module, {})).exports;
        input(bytes ? new Uint8Array(bytes) : encoder.encode(fragment));
        const opened = json(bytes ? engine.t48_open() : engine.t48_open_link());
        if (!opened.id) return postMessage({ error: opened.error || opened.verdict.message });
        let chunk = 2;
        for (;;) {
          const start = performance.now();
          const answer = json(engine.t48_analyse(opened.id, chunk, depth));
          if (answer.error) return postMessage({ error: answer.error });
          postMessage(answer);
          if (answer.analysed >= answer.total) break;
          const took = Math.max(1, performance.now() - start);
          chunk = Math.max(1, Math.min(2000, Math.round((chunk * 100) / took)));
        }
        engine.t48_close(opened.id);
      } catch (e) {
        postMessage({ error: "the analysis stopped: " + e });
      }
    };
  }

  let source = null;

  // Rates the game in `game` ({bytes}: a .t48 file, or {fragment}: a link's) at `depth`:
  // `chunk(answer)` for each chunk
  // ({ratings, analysed, total, depth, summary}: the summary of every move so far), `failed(
  // message)` if it cannot. Returns a function that stops it.
  function start(game, depth, chunk, failed) {
    source = source || URL.createObjectURL(new Blob(["(" + work.toString() + ")()"], { type: "text/javascript" }));
    let worker;
    try {
      worker = new Worker(source);
    } catch (e) {
      failed("this browser cannot start a worker for the analysis: " + e);
      return () => {};
    }
    worker.onmessage = (e) => {
      if (e.data.error) {
        failed(e.data.error);
        worker.terminate();
      } else {
        chunk(e.data);
        if (e.data.analysed >= e.data.total) worker.terminate();
      }
    };
    worker.onerror = (e) => {
      failed("the analysis stopped: " + (e.message || "the worker failed"));
      worker.terminate();
    };
    worker.postMessage({ module: T48.engine.module(), bytes: game.bytes, fragment: game.fragment, depth: depth });
    return () => worker.terminate();
  }

  // Tenths of a percent as a percentage: "4.1%".
  function percent(tenths) {
    return Math.floor(tenths / 10) + "." + (tenths % 10) + "%";
  }

  // A chance in millionths as a percentage, rounded down as the CLI does: "62.4%".
  function chance(millionths) {
    return percent(Math.floor(millionths / 1000));
  }

  // A change of chance in millionths, in points towards zero as the CLI does: "-3.3".
  function points(delta) {
    const tenths = Math.trunc(delta / 1000);
    const sign = tenths > 0 ? "+" : tenths < 0 ? "-" : "";
    return sign + Math.floor(Math.abs(tenths) / 10) + "." + (Math.abs(tenths) % 10);
  }

  // The highest chance of a move (the board before it) and the chance of the move played.
  function chances(r) {
    const all = Object.values(r.chances).filter((c) => c !== null);
    return { before: Math.max(...all), after: r.chances[r.played] };
  }

  return {
    DEPTH: DEPTH,
    PLIES: PLIES,
    // The chance before a move (the best move's): the evaluation graph's value, the CLI's.
    before: function (r) {
      return chances(r).before;
    },
    start: start,
    percent: percent,
    chance: chance,
    points: points,
    // The whole analysis of `game` ({bytes} or {fragment}) at `depth`: a promise of
    // {ratings, summary, depth} (for tests and for whoever wants it all at once).
    all: function (game, depth) {
      return new Promise((resolve, reject) => {
        const ratings = [];
        start(game, depth, (answer) => {
          ratings.push(...answer.ratings);
          if (answer.analysed >= answer.total) resolve({ ratings: ratings, summary: answer.summary, depth: answer.depth });
        }, (message) => reject(new Error(message)));
      });
    },
    // What the spawn after move `made` did, from the rating of the move after it (`next`): "the
    // spawn: 98.0% -> 97.1% (-0.9 points)", or "the spawn: 98.0% -> reached 512" (its luck, as
    // the CLI's summary counts it).
    spawn: function (made, next) {
      if (!made || !next || !made.best || !next.best) return "";
      const from = made.chances[made.played];
      if (next.tile > made.tile) return "the spawn: " + chance(from) + " -> reached " + made.tile;
      const to = chances(next).before;
      return "the spawn: " + chance(from) + " -> " + chance(to) + " (" + points(to - from) + " points)";
    },
    // The bot's line in words: "up (chance to reach 512: 99.1%), then a 2 in row 1, column
    // 3; left (...), then a 2 in ...".
    line: function (answer, size) {
      return answer.line.map((p) => p.played + " (chance to reach " + p.tile + ": " + chance(p.chance) + "), then a " + p.spawn.tile +
        " in row " + (Math.floor(p.spawn.cell / size) + 1) + ", column " + ((p.spawn.cell % size) + 1)).join("; ");
    },
    // What the page says of a rated move, in the CLI's words: "left: a mistake, chance to
    // reach 512: 99.1% -> 95.7%, -3.3 points (best: up)".
    words: function (r) {
      if (!r.best) return r.played + ": not rated (a tile of 65536 or more)";
      const c = chances(r);
      const reach = "chance to reach " + r.tile + ": " + chance(c.before) + " -> " + chance(c.after);
      if (r.class === "only") return r.played + ": the only move (" + reach + ")";
      if (r.class === "best") return r.played + ": the best move (" + reach + ")";
      const a = r.class === "inaccuracy" ? "an " : "a ";
      return r.played + ": " + (r.class === "good" ? "good" : a + r.class) + ", " + reach + ", " + points(-r.error) + " points (best: " + r.best + ")";
    },
  };
})();
