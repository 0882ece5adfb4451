// Storage: the game being played (its .t48 bytes) and the mode, kept in the browser's
// localStorage so that a reload resumes where it was.
"use strict";
window.T48 = window.T48 || {};

T48.storage = (function () {
  const GAME = "twenty48.game";
  const MODE = "twenty48.mode";

  function get(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }

  // False when the browser keeps nothing (storage off, or full).
  function set(key, value) {
    try {
      window.localStorage.setItem(key, value);
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
    saveMode: function (mode) {
      set(MODE, mode);
    },
    loadMode: function () {
      return get(MODE);
    },
  };
})();
