// Storage: the game being played (its .t48 bytes) and the best score under each rule set,
// kept in the browser's localStorage so that a reload resumes where it was; the mode, kept
// in the tab's sessionStorage, so that each tab comes back to its own mode.
"use strict";
window.T48 = window.T48 || {};

T48.storage = (function () {
  const GAME = "twenty48.game";
  const MODE = "twenty48.mode";
  const BEST = "twenty48.best.";
  const RULES = "twenty48.rules";

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
    // The best score kept for the rules named `name`, or 0.
    loadBest: function (name) {
      const text = get(BEST + name);
      return /^[0-9]{1,16}$/.test(text || "") ? Number(text) : 0;
    },
    saveBest: function (name, score) {
      set(BEST + name, String(score));
    },
    // The rule preset of the last game started here (the next one's, from the landing).
    saveRules: function (preset) {
      set(RULES, preset);
    },
    loadRules: function () {
      return get(RULES);
    },
    // This tab's mode.
    saveMode: function (mode) {
      set(MODE, mode, "sessionStorage");
    },
    loadMode: function () {
      return get(MODE, "sessionStorage");
    },
  };
})();
