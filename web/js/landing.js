// The landing: before any game is opened, a game the bot played replays on its own board
// (js/demo.js, written by `just web` from a fixture), with the ways to open a game, analyse
// this one, or play.
"use strict";
window.T48 = window.T48 || {};

T48.landing = (function () {
  const el = (id) => document.getElementById(id);
  let board = null;
  let game = null;
  let at = 0;
  let timer = null;
  const STEP = 90; // milliseconds a move
  const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function tick() {
    timer = null;
    if (!game || el("landing").hidden) return;
    if (at >= game.moves) {
      // The end, held a moment, then again from the start.
      at = 0;
      board.draw(T48.engine.show(game.id, 0, false).frame);
      timer = setTimeout(tick, 2000);
      return;
    }
    at += 1;
    const answer = T48.engine.show(game.id, at, true);
    if (reduced()) board.draw(answer.frame);
    else board.animate(answer.frame, answer.events, 70);
    timer = setTimeout(tick, at >= game.moves ? 2500 : STEP);
  }

  return {
    init: function () {
      board = new T48.Board(el("landing-board"));
      // One tap to a game under way (a seed drawn, the rules last used).
      el("landing-play").addEventListener("click", () => T48.play.quickStart());
      el("landing-watch").addEventListener("click", () => {
        if (window.T48_DEMO) location.hash = window.T48_DEMO.fragment;
      });
    },
    // Shows or hides the landing; its game starts replaying from where it was when shown.
    show: function (on) {
      el("landing").hidden = !on;
      if (!on || !window.T48_DEMO) {
        if (timer) clearTimeout(timer);
        timer = null;
        return;
      }
      if (!game) {
        const answer = T48.engine.openLink(window.T48_DEMO.fragment);
        if (!answer.id) return;
        game = answer;
        // Somewhere into the game, so the first board already has tiles on it.
        at = Math.min(game.moves, 120);
        board.draw(T48.engine.show(game.id, at, false).frame);
        el("landing-caption").textContent = "This one: the expectimax bot's game of " + game.moves +
          " moves under the " + (game.preset || "custom") + " rules, seed " + game.seed +
          ", replayed here from nothing but its seed and moves. Analyse it, open one of your own, or play.";
      }
      if (!timer) timer = setTimeout(tick, STEP);
    },
  };
})();
