// The engine: crates/web compiled to WebAssembly, and the glue to call it. Every decision
// about a game (moves, spawns, verdicts, links) is made in there; this file only moves bytes
// in and answers out. The module's bytes come from js/wasm.js (written by `just web`), so
// the page needs no fetch and works from file://.
"use strict";
window.T48 = window.T48 || {};

T48.engine = (function () {
  let exports = null;
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

  return {
    // Compiles the module; resolves when the engine can be called.
    load: async function () {
      if (exports) return;
      const { instance } = await WebAssembly.instantiate(T48.base64.decode(window.T48_WASM), {});
      exports = instance.exports;
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
    // The fragment (without #) of a link to the game being played.
    fragment: function () {
      return decoder.decode(output(exports.t48_fragment()));
    },
  };
})();
