// Peripherals rp2040js 1.4.1 leaves unimplemented (every read 0xffffffff) that the boot ROM's
// flash routines and the firmware touch: IO_QSPI (the flash chip's pins; the chip-select
// override drives the flash model), ROSC (the ring oscillator: its random bit seeds games),
// VREG_AND_CHIP_RESET, and the XIP controller's registers (cache flush). Harness only.

import { rng } from './flash.mjs';

/** A register file with the RP2040's atomic aliases (XOR, SET, CLEAR). */
class Registers {
  constructor(resets = {}) {
    this.regs = new Map(Object.entries(resets).map(([k, v]) => [Number(k), v]));
  }

  readUint32(offset) {
    return this.regs.get(offset & 0xfff) ?? 0;
  }

  writeUint32(offset, value) {
    this.regs.set(offset & 0xfff, value >>> 0);
  }

  writeUint32Atomic(offset, value, atomicType) {
    // A plain write reads nothing (a read of a data register would take a byte from its FIFO).
    const old = atomicType === 0 ? 0 : this.readUint32(offset);
    const v = atomicType === 1 ? old ^ value : atomicType === 2 ? old | value : atomicType === 3 ? old & ~value : value;
    this.writeUint32(offset, v >>> 0);
  }
}

/** IO_QSPI: six pins (SCLK, SS, SD0-SD3), each a STATUS and a CTRL register. */
export class IoQspi extends Registers {
  constructor(ssi) {
    super();
    this.ssi = ssi;
  }

  readUint32(offset) {
    offset &= 0xfff;
    // GPIO_QSPI_SS_STATUS: the pad reads high (the BOOTSEL button is not pressed).
    if (offset === 0x08) {
      return 1 << 17;
    }
    return super.readUint32(offset);
  }

  writeUint32(offset, value) {
    super.writeUint32(offset, value);
    if ((offset & 0xfff) === 0x0c) {
      this.ssi.setCsOverride((value >> 8) & 3);
    }
  }
}

/** The ring oscillator: enabled and stable, its random bit from a seeded generator. */
export class Rosc extends Registers {
  constructor(seed) {
    super({ 0x00: 0xaa0, 0x04: 0, 0x08: 0, 0x10: 0xaa0, 0x14: 8 });
    this.random = rng(seed);
  }

  readUint32(offset) {
    switch (offset & 0xfff) {
      case 0x18: // STATUS: stable, enabled
        return (1 << 31) | (1 << 12);
      case 0x1c: // RANDOMBIT
        return this.random() & 1;
      case 0x20: // COUNT
        return 0;
      default:
        return super.readUint32(offset);
    }
  }
}

/** VREG_AND_CHIP_RESET at its power-on values (CHIP_RESET.HAD_POR set). */
export class Vreg extends Registers {
  constructor() {
    super({ 0x00: 0xb1, 0x04: 0x91, 0x08: 1 << 8 });
  }
}

/** XIP_CTRL: CTRL, FLUSH (a flush completes at once), STAT (flush ready, FIFO empty). */
export class XipCtrl extends Registers {
  constructor() {
    super({ 0x00: 0x3 });
  }

  readUint32(offset) {
    switch (offset & 0xfff) {
      case 0x04:
        return 0;
      case 0x08:
        return 0x3;
      default:
        return super.readUint32(offset);
    }
  }
}
