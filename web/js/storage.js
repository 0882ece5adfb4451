// Storage: the game being played (its .t48 bytes) and the mode, kept in the browser's
// localStorage so that a reload resumes where it was; and the move a linked game is watched
// at, kept in the tab's sessionStorage so that a reload of that link shows the same move.
"use strict";
window.T48 = window.T48 || {};

T48.storage = (function () {
  const GAME = "twenty48.game";
  const MODE = "twenty48.mode";
  const PLACE = "twenty48.place";

  // `area` is "localStorage" (kept across reloads and tabs) or "sessionStorage" (this tab).
  function get(key, area = "localStorage") {
    try {
      return window[area].getItem(key);
    } catch (e) {
      return null;
    }
  }

  // False when the browser keeps nothing (storage off, or full).
  function set(key, value, area = "localStorage") {
    try {
      window[area].setItem(key, value);
      return true;
    } catch (e) {
      return false;
    }
  }

  return {
    saveGame: function (fileBytes) {
      return set(GAME, T48.base64.encode(fileBytes));
    },
    // The kept game: {bytes}, {error} when what is kept cannot be read, or null when none is.
    loadGame: function () {
      const text = get(GAME);
      if (text === null) return null;
      try {
        return { bytes: T48.base64.decode(text) };
      } catch (e) {
        return { error: "what it keeps (" + text.length + " characters) is not base64 text" };
      }
    },
    // Calls `handler()` when another tab of this page keeps its game here: each tab's
    // storage event says what the others wrote.
    onOtherTab: function (handler) {
      window.addEventListener("storage", (e) => {
        if (e.key === GAME && e.newValue !== null) handler();
      });
    },
    // The move `key` (a linked game) is watched at, for this tab only.
    // (When nothing can be kept, a reload starts at move 0.)
    savePlace: function (key, move) {
      set(PLACE, key + " " + move, "sessionStorage");
    },
    // The move kept for `key`, or 0.
    loadPlace: function (key) {
      const [kept, move] = (get(PLACE, "sessionStorage") || "").split(" ");
      return kept === key && /^[0-9]+$/.test(move || "") ? Number(move) : 0;
    },
    saveMode: function (mode) {
      set(MODE, mode);
    },
    loadMode: function () {
      return get(MODE);
    },
  };
})();
