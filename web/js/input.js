// Input: key presses and swipes turned into the names of actions. What an action does is
// decided elsewhere.
"use strict";
window.T48 = window.T48 || {};

T48.input = {
  // Calls `handler(action, event)` for each key press that `map` (key -> action) names while
  // `active()` is true, unless the key belongs to the element it was pressed on: typing in
  // a field, or Space and Enter on a button, link, list or file picker.
  keys: function (map, handler, active) {
    const listener = (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey || !active()) return;
      const target = event.target || {};
      const tag = target.tagName;
      const field = tag === "TEXTAREA" || (tag === "INPUT" && target.type !== "range" && target.type !== "file");
      const control = tag === "BUTTON" || tag === "A" || tag === "SELECT" || tag === "INPUT";
      if (field || (control && (event.key === " " || event.key === "Enter"))) return;
      if (tag === "SELECT" && event.key.startsWith("Arrow")) return;
      const action = map[event.key] || map[event.key.toLowerCase()];
      if (!action) return;
      event.preventDefault();
      handler(action, event);
    };
    document.addEventListener("keydown", listener);
  },

  // Calls `handler(direction)` with "up", "right", "down" or "left" for a swipe on
  // `element` of at least 24 pixels.
  swipes: function (element, handler) {
    let start = null;
    element.addEventListener("pointerdown", (e) => {
      start = { x: e.clientX, y: e.clientY };
    });
    element.addEventListener("pointerup", (e) => {
      if (!start) return;
      const dx = e.clientX - start.x;
      const dy = e.clientY - start.y;
      start = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
      if (Math.abs(dx) > Math.abs(dy)) handler(dx > 0 ? "right" : "left");
      else handler(dy > 0 ? "down" : "up");
    });
    element.addEventListener("pointercancel", () => {
      start = null;
    });
    // The page must not scroll under a swipe on the board.
    element.style.touchAction = "none";
  },
};
