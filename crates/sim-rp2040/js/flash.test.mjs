// The flash chip and SSI models on their own (`node --test js/`; run by the crate's
// `tests/flash_model.rs`): the NOR and XIP rules fail a run when broken, power cuts tear.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FlashChip, Ssi } from './flash.mjs';

/** A stand-in for the harness: a clock, the failures and events it was told. */
function harness() {
  const h = {
    t: 0,
    failures: [],
    events: [],
    cuts: [],
    xip: null,
    pad: 0x50,
    now: () => h.t,
    tick: (ns) => {
      h.t += ns;
    },
    fail: (m) => h.failures.push(m),
    event: (e) => h.events.push(e),
    powerCut: (kind, addr) => h.cuts.push([kind, addr]),
    setXip: (on) => {
      h.xip = on;
    },
  };
  h.mcu = { qspi: [null, { get padValue() { return h.pad; } }] };
  return h;
}

function chip(h) {
  return new FlashChip(h, new Uint8Array(1 << 20).fill(0xff), Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]));
}

/** One chip-select frame. */
function frame(c, bytes) {
  c.select();
  const out = bytes.map((b) => c.transfer(b));
  c.deselect();
  return out;
}

function waitReady(h, c) {
  while (frame(c, [0x05, 0])[1] & 1) {
    h.tick(1000);
  }
}

test('a page program clears bits only after a write enable, within its page', () => {
  const h = harness();
  const c = chip(h);
  frame(c, [0x02, 0, 0x01, 0x00, 0x12]);
  assert.match(h.failures[0], /without write enable/);
  frame(c, [0x06]);
  frame(c, [0x02, 0, 0x01, 0xff, 0xf0, 0x0f]);
  assert.equal(c.mem[0x1ff], 0xf0);
  assert.equal(c.mem[0x100], 0x0f, 'wrapped inside its page');
  waitReady(h, c);
  frame(c, [0x06]);
  frame(c, [0x02, 0, 0x01, 0xff, 0x0f]);
  assert.match(h.failures[1], /would set bits/);
});

test('an erase sets its sector to 0xff and keeps the chip busy', () => {
  const h = harness();
  const c = chip(h);
  c.mem.fill(0, 0, 8192);
  frame(c, [0x06]);
  frame(c, [0x20, 0, 0x10, 0x00]);
  assert.ok(c.busy);
  frame(c, [0x03, 0, 0, 0]);
  assert.match(h.failures[0], /busy/);
  waitReady(h, c);
  assert.ok(c.mem.subarray(4096, 8192).every((b) => b === 0xff));
  assert.ok(c.mem.subarray(0, 4096).every((b) => b === 0));
  assert.deepEqual(h.events.map((e) => e.split(' ')[2]), ['erase']);
});

test('reads, the unique id and unknown commands', () => {
  const h = harness();
  const c = chip(h);
  c.mem[0x345] = 0x42;
  assert.equal(frame(c, [0x03, 0, 0x03, 0x45, 0])[4], 0x42);
  assert.deepEqual(frame(c, [0x4b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).slice(5), [1, 2, 3, 4, 5, 6, 7, 8]);
  frame(c, [0xc7]);
  assert.match(h.failures[0], /unknown flash command 0xc7/);
});

test('a power cut tears the operation it falls on and counts operations', () => {
  const h = harness();
  const c = chip(h);
  c.cutAt = 2;
  c.cutSeed = 7;
  frame(c, [0x06]);
  frame(c, [0x02, 0, 0, 0, 0x00]);
  waitReady(h, c);
  assert.equal(c.mem[0], 0x00);
  frame(c, [0x06]);
  frame(c, [0x02, 0, 0, 1, ...new Array(255).fill(0)]);
  assert.deepEqual(h.cuts, [['program', 1]]);
  const cleared = c.mem.subarray(1, 256).filter((b) => b === 0).length;
  assert.ok(cleared > 0 && cleared < 255, `a torn page: ${cleared} of 255 bytes fully programmed`);
});

test('the XIP window opens only with the SSI set up for 03h reads and chip select free', () => {
  const h = harness();
  const c = chip(h);
  const s = new Ssi(h, c);
  s.writeUint32(0xf4, (0x03 << 24) | (2 << 8) | (6 << 2));
  s.writeUint32(0x00, (3 << 8) | (31 << 16));
  s.writeUint32(0x08, 1);
  assert.equal(h.xip, true);
  s.setCsOverride(2);
  assert.equal(h.xip, false, 'chip select forced: out of XIP');
  s.setCsOverride(0);
  s.writeUint32(0x08, 0);
  assert.equal(h.xip, false);
  s.writeUint32(0xf4, (0xeb << 24) | (2 << 8) | (6 << 2));
  s.writeUint32(0x08, 1);
  assert.match(h.failures[0], /XIP set up with command 0xeb/);
});

test('with the data pad disabled the chip sees its pull (the ROM wakes the chip so)', () => {
  const h = harness();
  const c = chip(h);
  const s = new Ssi(h, c);
  s.writeUint32(0x00, 7 << 16);
  s.writeUint32(0x08, 1);
  h.pad = 0x80 | 0x04;
  s.setCsOverride(2);
  s.writeUint32(0x60, 0x06);
  s.setCsOverride(3);
  assert.equal(c.wel, false, '0x06 never reached the chip: it saw 0x00');
  h.pad = 0x50;
  s.setCsOverride(2);
  s.writeUint32(0x60, 0x06);
  s.setCsOverride(3);
  assert.equal(c.wel, true);
});
