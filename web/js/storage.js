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
    // The saved game's bytes, or null.
    loadGame: function () {
      const text = get(GAME);
      if (!text) return null;
      try {
        return T48.base64.decode(text);
      } catch (e) {
        return null;
      }
    },
    saveMode: function (mode) {
      set(MODE, mode);
    },
    loadMode: function () {
      return get(MODE);
    },
  };
})();
