// The header's score boxes: the score of the game shown (with the points of its last move),
// the best score of the games played here under the same rules (kept in the browser), and
// the accuracy of an analysed game.
"use strict";
window.T48 = window.T48 || {};

T48.scores = (function () {
  const el = (id) => document.getElementById(id);
  // The name best scores are kept under: the preset's, else the rules' text.
  const key = (preset, rules) => preset || rules || "custom";

  // The best score, named with its rule set: shown only where a game is played here.
  function showBest(name) {
    const best = T48.storage.loadBest(name);
    el("best-box").hidden = false;
    el("best").textContent = best;
    el("best-label").textContent = "Best, " + name;
    el("best-box").title = "Your best score in this browser under the " + name + " rules";
  }

  return {
    // Shows `frame`'s score; `ownGame`: a game played here, whose score may be a new best.
    show: function (frame, preset, rules, ownGame) {
      el("score-box").hidden = false;
      el("score").textContent = frame.score;
      el("gained").textContent = frame.gained ? "+" + frame.gained : "";
      const name = key(preset, rules);
      if (!ownGame) {
        el("best-box").hidden = true;
        return;
      }
      if (frame.score > T48.storage.loadBest(name)) T48.storage.saveBest(name, frame.score);
      showBest(name);
    },
    // No game shown: no score.
    clear: function () {
      el("score-box").hidden = true;
      el("best-box").hidden = true;
      el("score").textContent = "0";
      el("gained").textContent = "";
      el("accuracy-box").hidden = true;
    },
    // The accuracy of the analysed game (tenths of a percent), or null to hide it.
    accuracy: function (tenths, note) {
      el("accuracy-box").hidden = tenths === null || tenths === undefined;
      el("accuracy").textContent = tenths === null || tenths === undefined ? "-" : T48.analysis.percent(tenths);
      el("accuracy-box").title = note || "";
    },
  };
})();
