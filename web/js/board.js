// Drawing a board: tiles placed, slid, popped and spawned as a frame and its events say.
// It decides nothing: what to show comes from the engine.
"use strict";
window.T48 = window.T48 || {};

T48.Board = function (element) {
  this.element = element;
  this.size = 0;
  this.tiles = [];
  this.pending = null;
  element.classList.add("board");
  this.grid = document.createElement("div");
  this.grid.className = "grid";
  this.grid.setAttribute("aria-hidden", "true");
  this.layer = document.createElement("div");
  this.layer.className = "tiles";
  this.layer.setAttribute("aria-hidden", "true");
  // The board as text, for screen readers: a table of its rows.
  this.text = document.createElement("table");
  this.text.className = "sr-only";
  element.append(this.grid, this.layer, this.text);
};

T48.Board.value = function (exponent) {
  return exponent === 0 ? 0 : Math.pow(2, exponent);
};

T48.Board.prototype.resize = function (size) {
  if (size === this.size) return;
  this.size = size;
  this.element.style.setProperty("--size", size);
  this.grid.textContent = "";
  for (let i = 0; i < size * size; i++) {
    const cell = document.createElement("div");
    cell.className = "cell";
    this.grid.append(cell);
  }
};

T48.Board.prototype.place = function (tile, cell) {
  tile.style.setProperty("--r", Math.floor(cell / this.size));
  tile.style.setProperty("--c", cell % this.size);
};

T48.Board.prototype.tile = function (cell, exponent, kind) {
  const tile = document.createElement("div");
  const value = T48.Board.value(exponent);
  const digits = String(value).length;
  tile.className = "tile t" + Math.min(exponent, 12) + " d" + Math.min(digits, 6) + (kind ? " " + kind : "");
  tile.textContent = value;
  this.place(tile, cell);
  this.layer.append(tile);
  return tile;
};

// Draws `frame` at once; `marks` names cells just merged ("merged") or spawned ("new").
T48.Board.prototype.draw = function (frame, marks) {
  if (this.pending) {
    clearTimeout(this.pending);
    this.pending = null;
  }
  this.resize(frame.size);
  this.layer.textContent = "";
  this.tiles = [];
  frame.board.forEach((exponent, cell) => {
    if (exponent !== 0) this.tiles[cell] = this.tile(cell, exponent, marks && marks[cell]);
  });
  this.describe(frame);
};

// Slides the tiles as `events` say for `ms` milliseconds, then draws `frame` with the merged
// tiles popping and the spawned one appearing.
T48.Board.prototype.animate = function (frame, events, ms) {
  if (!ms || !events.length || frame.size !== this.size) return this.draw(frame);
  if (this.pending) this.finish();
  const marks = {};
  this.layer.style.setProperty("--slide", ms + "ms");
  const moving = this.tiles.slice();
  for (const [kind, a, b] of events) {
    if (kind === 0 && moving[a]) this.place(moving[a], b);
    else if (kind === 1) marks[a] = "merged";
    else if (kind === 2) marks[a] = "new";
  }
  this.later = () => this.draw(frame, marks);
  this.pending = setTimeout(() => this.finish(), ms);
};

// Ends an animation under way at once.
T48.Board.prototype.finish = function () {
  if (!this.pending) return;
  clearTimeout(this.pending);
  this.pending = null;
  this.later();
};

// Marks `cells` (their numbers) with a frame over the tiles: where two boards differ.
T48.Board.prototype.mark = function (cells) {
  if (!this.marks) {
    this.marks = document.createElement("div");
    this.marks.className = "marks";
    this.marks.setAttribute("aria-hidden", "true");
    this.element.append(this.marks);
  }
  this.marks.textContent = "";
  for (const cell of cells) {
    const m = document.createElement("div");
    m.className = "mark";
    this.place(m, cell);
    this.marks.append(m);
  }
  this.element.dataset.marked = cells.join(",");
};

T48.Board.prototype.describe = function (frame) {
  const e = this.element.dataset;
  e.move = frame.move;
  e.board = frame.board.join(",");
  e.score = frame.score;
  e.status = frame.status;
  e.hash = frame.hash;
  const rows = [];
  const caption = "Board after move " + frame.move + ", score " + frame.score + ", " + frame.status;
  for (let r = 0; r < frame.size; r++) {
    const cells = frame.board.slice(r * frame.size, (r + 1) * frame.size);
    rows.push("<tr><th scope=\"row\">Row " + (r + 1) + "</th>" +
      cells.map((x) => "<td>" + (x ? T48.Board.value(x) : "empty") + "</td>").join("") + "</tr>");
  }
  this.text.innerHTML = "<caption>" + caption + "</caption>" + rows.join("");
};
