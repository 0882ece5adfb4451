// The engine: crates/web compiled to WebAssembly, and the glue to call it. Every decision
// about a game (moves, spawns, verdicts, links, ratings) is made in there; this file only
// moves bytes in and answers out. Served over http(s), the page fetches the module as binary
// (twenty48_web.wasm, compiled as it arrives); from file://, where a page may fetch nothing,
// it loads js/wasm.js, the same module in base64 (both written by `just web`).
"use strict";
window.T48 = window.T48 || {};

T48.engine = (function () {
  let exports = null;
  let module = null;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  // Writes `bytes` as the next call's input. The engine gives no buffer (address 0) for
  // more bytes than it takes; the call then answers with an error saying so.
  function input(bytes) {
    const at = exports.t48_input(bytes.length);
    if (at !== 0) new Uint8Array(exports.memory.buffer, at, bytes.length).set(bytes);
  }

  function output(length) {
    return new Uint8Array(exports.memory.buffer, exports.t48_output(), length).slice();
  }

  function json(length) {
    return JSON.parse(decoder.decode(output(length)));
  }

  // The module fetched as binary and compiled as it arrives (or, from a server that does not
  // say application/wasm, once it has arrived); null when it cannot be fetched.
  async function fetched() {
    try {
      // Started by the page's head, beside the page's own files.
      if (window.T48_COMPILING) {
        try {
          const compiled = await window.T48_COMPILING;
          T48.engine.source = "streamed";
          return { module: compiled, instance: await WebAssembly.instantiate(compiled, {}) };
        } catch (e) {
          // Fetched or compiled below again.
        }
      }
      if (WebAssembly.instantiateStreaming) {
        try {
          const result = await WebAssembly.instantiateStreaming(fetch("twenty48_web.wasm"), {});
          T48.engine.source = "streamed";
          return result;
        } catch (e) {
          // A server that gives another type: compiled from the bytes below.
        }
      }
      const response = await fetch("twenty48_web.wasm");
      if (!response.ok) return null;
      const result = await WebAssembly.instantiate(await response.arrayBuffer(), {});
      T48.engine.source = "fetched";
      return result;
    } catch (e) {
      return null;
    }
  }

  // The module's base64 copy (js/wasm.js), once loaded: the page's head starts loading it
  // from file:// (#wasm-copy); otherwise it is loaded here.
  function script(src) {
    if (window.T48_WASM) return Promise.resolve();
    if (window.T48_WASM_MISSING) return Promise.reject(new Error("cannot load " + src));
    return new Promise((resolve, reject) => {
      let s = document.getElementById("wasm-copy");
      if (!s) {
        s = document.createElement("script");
        s.src = src;
        document.head.append(s);
      }
      s.addEventListener("load", resolve);
      s.addEventListener("error", () => reject(new Error("cannot load " + src)));
    });
  }

  return {
    // Compiles the module; resolves when the engine can be called.
    load: async function () {
      if (exports) return;
      let compiled = null;
      if (location.protocol === "http:" || location.protocol === "https:") compiled = await fetched();
      if (!compiled) {
        await script("js/wasm.js");
        // js/wasm.js starts compiling its copy as soon as it has run (T48_WASM_COMPILING).
        let ready = null;
        try {
          ready = window.T48_WASM_COMPILING ? await window.T48_WASM_COMPILING : null;
        } catch (e) {
          ready = null;
        }
        if (ready) compiled = { module: ready, instance: await WebAssembly.instantiate(ready, {}) };
        else compiled = await WebAssembly.instantiate(T48.base64.decode(window.T48_WASM), {});
        T48.engine.source = "inline";
      }
      module = compiled.module;
      exports = compiled.instance.exports;
    },
    // The compiled module, for a worker to instantiate its own engine from.
    module: function () {
      return module;
    },
    // Opens a .t48 file's bytes: {id, verdict: {word, message}, rules, seed, moves, first, ...}.
    open: function (bytes) {
      input(bytes);
      return json(exports.t48_open());
    },
    // Opens the game in a link's fragment (the text after #).
    openLink: function (fragment) {
      input(encoder.encode(fragment));
      return json(exports.t48_open_link());
    },
    // Game `id` at move `n`: {frame, events}; events only with `animate`.
    show: function (id, n, animate) {
      return json(exports.t48_show(id, n, animate ? 1 : 0));
    },
    close: function (id) {
      exports.t48_close(id);
    },
    // What `twenty48 diff` says of games a and b, named as given: {verdict: "identical" or
    // "invalid", line} or {verdict: "parted", move, line, differences}.
    diff: function (a, b, names) {
      input(encoder.encode(names[0] + "\0" + names[1]));
      return json(exports.t48_diff(a, b));
    },
    // Replays game `id` `times` times: the moves played (for measuring speed).
    replay: function (id, times) {
      return exports.t48_replay(id, times);
    },
    // A new game: {frame, events, rules, preset, seed} or {error}.
    newGame: function (preset, seed) {
      input(encoder.encode(preset + " " + seed));
      return json(exports.t48_new());
    },
    resume: function (bytes) {
      input(bytes);
      return json(exports.t48_resume());
    },
    // Plays a direction: 0 up, 1 right, 2 down, 3 left.
    play: function (code) {
      return json(exports.t48_play(code));
    },
    // The game being played as .t48 bytes.
    saved: function () {
      return output(exports.t48_saved());
    },
    // The largest file the engine opens, in bytes.
    maxFileBytes: function () {
      return exports.t48_max_file_bytes();
    },
    // The ratings of game `id`'s next `count` moves at `depth`, taken up where the last call
    // stopped: {ratings, analysed, total, depth, summary} (the worker's call; the page's own
    // tests call it too).
    analyse: function (id, count, depth) {
      return json(exports.t48_analyse(id, count, depth));
    },
    // The bot's line from viewer `id`'s board after move `n`: up to `plies` of its moves at
    // largest depth `depth`, each followed by the likeliest spawn: {move, depth, line:
    // [{played, tile, chance, spawn: {cell, tile}}...]} (crates/web's Host::line).
    line: function (id, n, plies, depth) {
      return json(exports.t48_line(id, n, plies, depth));
    },
    // The move `twenty48 play --hint` gives for the game being played: {best: "up" or null}.
    hint: function () {
      return json(exports.t48_hint());
    },
    // The fragment (without #) of a link to a file's bytes, "" for a file past 1 MiB.
    link: function (bytes) {
      input(bytes);
      return decoder.decode(output(exports.t48_link()));
    },
    // The fragment (without #) of a link to the game being played.
    fragment: function () {
      return decoder.decode(output(exports.t48_fragment()));
    },
  };
})();
