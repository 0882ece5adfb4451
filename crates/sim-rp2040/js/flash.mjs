// The QSPI flash chip and the SSI that talks to it, replacing rp2040js's SSI (a register stub
// in 1.4.1: flash commands change nothing there). Runs in the harness (Node), never on a board.
//
// The chip obeys NOR rules: a sector erase sets 4 KB to 0xFF, a block erase 64 KB, a page
// program only clears bits and wraps inside its 256-byte page, and nothing is written without
// a write enable first. Commands come in frames (chip select low .. high): 03 read, 02 page
// program, 20 sector erase, D8 block erase, 05 status, 06 write enable, 04 write disable,
// 4B unique id, 9F JEDEC id, FF (continuous-read reset, as the ROM's flash_exit_xip sends).
// Anything else fails the run. Busy times follow the AT25SF128A datasheet's typical figures.
//
// XIP: the memory-mapped flash is readable only while the SSI is set up for XIP reads (enabled,
// EEPROM-read transfer mode, 03h command, chip select not overridden, chip not busy). Out of
// XIP the emulator's view of the flash is swapped for an empty one, so an instruction fetch or
// a data read there lands in rp2040js's "invalid memory address" path, which the harness turns
// into a failure.

const SSI_CTRLR0 = 0x00;
const SSI_CTRLR1 = 0x04;
const SSI_SSIENR = 0x08;
const SSI_SER = 0x10;
const SSI_BAUDR = 0x14;
const SSI_TXFLR = 0x20;
const SSI_RXFLR = 0x24;
const SSI_SR = 0x28;
const SSI_IDR = 0x58;
const SSI_VERSION_ID = 0x5c;
const SSI_DR0 = 0x60;
const SSI_SPI_CTRLR0 = 0xf4;

export const PAGE = 256;
export const SECTOR = 4096;
export const BLOCK = 65536;

/** Typical busy times (ns), AT25SF128A datasheet. */
export const TIMES = { program: 400_000, sector: 45_000_000, block: 250_000_000 };

/** How far a status poll of a busy chip moves the clock: the core is as good as stalled. */
const BUSY_POLL_NS = 20_000;

/** A deterministic xorshift generator (tears, the ring oscillator). */
export function rng(seed) {
  let s = BigInt.asUintN(64, BigInt(seed) ^ 0x9e3779b97f4a7c15n) || 1n;
  return () => {
    s ^= BigInt.asUintN(64, s << 13n);
    s ^= s >> 7n;
    s ^= BigInt.asUintN(64, s << 17n);
    return Number(s & 0xffffffffn);
  };
}

/** The flash chip: 16 MB of NOR cells and the command decoder. */
export class FlashChip {
  constructor(harness, bytes, uniqueId) {
    this.h = harness;
    this.mem = bytes;
    this.uniqueId = uniqueId;
    this.frame = null;
    this.wel = false;
    this.busyUntil = 0;
    /** Program and erase operations since power-on. */
    this.ops = 0;
    /** Cut the power at this operation (1-based, counted since power-on), torn with `seed`. */
    this.cutAt = 0;
    this.cutSeed = 0;
  }

  get busy() {
    return this.h.now() < this.busyUntil;
  }

  select() {
    this.frame = [];
  }

  /** One byte in, one byte out. */
  transfer(b) {
    const f = this.frame;
    if (f === null) {
      return 0xff;
    }
    f.push(b);
    const cmd = f[0];
    const n = f.length - 1;
    switch (cmd) {
      case 0x03:
        if (n >= 4) {
          const addr = ((f[1] << 16) | (f[2] << 8) | f[3]) + (n - 4);
          return this.mem[addr & 0xffffff];
        }
        return 0xff;
      case 0x05:
        if (n >= 1) {
          if (this.busy) {
            this.h.tick(BUSY_POLL_NS);
          }
          return (this.busy ? 1 : 0) | (this.wel ? 2 : 0);
        }
        return 0xff;
      case 0x4b:
        return n >= 5 && n < 13 ? this.uniqueId[n - 5] : 0xff;
      case 0x9f:
        return [0xff, 0x1f, 0x89, 0x01][n] ?? 0xff;
      default:
        return 0xff;
    }
  }

  deselect() {
    const f = this.frame;
    this.frame = null;
    if (!f || f.length === 0) {
      return;
    }
    const cmd = f[0];
    if (cmd !== 0x05 && cmd !== 0xff && this.busy) {
      this.h.fail(`flash command ${hex(cmd)} sent while the chip is busy with a program or erase`);
      return;
    }
    switch (cmd) {
      case 0x03:
      case 0x05:
      case 0x4b:
      case 0x9f:
      case 0xff:
        return;
      case 0x06:
        this.wel = true;
        return;
      case 0x04:
        this.wel = false;
        return;
      case 0x02:
        return this.program(f);
      case 0x20:
        return this.erase(f, SECTOR, TIMES.sector);
      case 0xd8:
        return this.erase(f, BLOCK, TIMES.block);
      default:
        this.h.fail(`unknown flash command ${hex(cmd)} (${f.length} bytes in its frame)`);
    }
  }

  /** Counts an operation; true when the power is cut at it. */
  operation(kind, addr) {
    this.ops += 1;
    this.h.event(`op ${this.ops} ${kind} ${addr} ${Math.round(this.h.now())}`);
    return this.cutAt !== 0 && this.ops === this.cutAt;
  }

  program(f) {
    if (f.length < 4) {
      return this.h.fail(`page program with a ${f.length}-byte frame`);
    }
    if (!this.wel) {
      return this.h.fail('page program without write enable');
    }
    this.wel = false;
    const addr = (f[1] << 16) | (f[2] << 8) | f[3];
    const data = f.slice(4);
    if (data.length > PAGE) {
      return this.h.fail(`page program of ${data.length} bytes (a page is ${PAGE})`);
    }
    const page = addr & ~(PAGE - 1);
    const cut = this.operation('program', addr);
    const tear = cut ? rng(this.cutSeed) : null;
    for (let i = 0; i < data.length; i++) {
      const at = page | ((addr + i) & (PAGE - 1));
      const old = this.mem[at];
      const want = data[i];
      if (want !== 0xff && (old & want) !== want) {
        this.h.fail(
          `flash program at ${hex(at)} would set bits: ${hex(old)} holds, ${hex(want)} written (NOR programming only clears bits)`,
        );
      }
      if (tear) {
        // Torn: only some of the bits this program clears are cleared.
        const clears = old & ~want & 0xff;
        this.mem[at] = old & ~(clears & tear());
      } else {
        this.mem[at] = old & want;
      }
    }
    if (cut) {
      this.h.powerCut('program', addr);
      return;
    }
    this.busyUntil = this.h.now() + TIMES.program;
  }

  erase(f, size, time) {
    if (f.length !== 4) {
      return this.h.fail(`erase with a ${f.length}-byte frame`);
    }
    if (!this.wel) {
      return this.h.fail('erase without write enable');
    }
    this.wel = false;
    const addr = ((f[1] << 16) | (f[2] << 8) | f[3]) & ~(size - 1);
    const cut = this.operation(size === SECTOR ? 'erase' : 'erase64k', addr);
    if (cut) {
      // Torn: a prefix of the sector erased, then some bits of the next bytes set.
      const r = rng(this.cutSeed);
      const done = r() % size;
      this.mem.fill(0xff, addr, addr + done);
      for (let i = done; i < Math.min(size, done + 16); i++) {
        this.mem[addr + i] |= r() & 0xff;
      }
      this.h.powerCut('erase', addr);
      return;
    }
    this.mem.fill(0xff, addr, addr + size);
    this.busyUntil = this.h.now() + time;
  }
}

/** The SSI (the RP2040's QSPI master) in front of the chip, and the XIP window. */
export class Ssi {
  constructor(harness, chip) {
    this.h = harness;
    this.chip = chip;
    this.ctrlr0 = 0;
    this.ctrlr1 = 0;
    this.ssienr = 0;
    this.ser = 0;
    this.baudr = 0;
    this.spiCtrlr0 = 0;
    this.rx = [];
    /** IO_QSPI's chip-select override (GPIO_QSPI_SS_CTRL.OUTOVER): 0 normal, 2 low, 3 high. */
    this.csOver = 0;
    this.csLow = false;
    this.xip = false;
  }

  get tmod() {
    return (this.ctrlr0 >> 8) & 3;
  }

  readUint32(offset) {
    switch (offset) {
      case SSI_CTRLR0:
        return this.ctrlr0;
      case SSI_CTRLR1:
        return this.ctrlr1;
      case SSI_SSIENR:
        return this.ssienr;
      case SSI_SER:
        return this.ser;
      case SSI_BAUDR:
        return this.baudr;
      case SSI_TXFLR:
        return 0;
      case SSI_RXFLR:
        return this.rx.length;
      case SSI_SR:
        // Transfers finish at once: TX FIFO empty and not full, RX not empty when it holds bytes.
        return 0x2 | 0x4 | (this.rx.length ? 0x8 : 0);
      case SSI_IDR:
        return 0x51535049;
      case SSI_VERSION_ID:
        return 0x3430312a;
      case SSI_DR0:
        return this.rx.length ? this.rx.shift() : 0;
      case SSI_SPI_CTRLR0:
        return this.spiCtrlr0;
      default:
        return 0;
    }
  }

  writeUint32(offset, value) {
    switch (offset) {
      case SSI_CTRLR0:
        this.ctrlr0 = value;
        break;
      case SSI_CTRLR1:
        this.ctrlr1 = value;
        break;
      case SSI_SSIENR:
        this.ssienr = value & 1;
        if (!this.ssienr) {
          this.rx = [];
        }
        break;
      case SSI_SER:
        this.ser = value;
        break;
      case SSI_BAUDR:
        this.baudr = value;
        break;
      case SSI_SPI_CTRLR0:
        this.spiCtrlr0 = value;
        break;
      case SSI_DR0:
        this.dataWrite(value & 0xff);
        break;
      default:
        break;
    }
    this.update();
  }

  writeUint32Atomic(offset, value, atomicType) {
    // A plain write reads nothing (a read of a data register would take a byte from its FIFO).
    const old = atomicType === 0 ? 0 : this.readUint32(offset);
    const v = atomicType === 1 ? old ^ value : atomicType === 2 ? old | value : atomicType === 3 ? old & ~value : value;
    this.writeUint32(offset, v);
  }

  dataWrite(b) {
    if (!this.ssienr) {
      return this.h.fail('SSI data written while the SSI is disabled');
    }
    if (this.xip) {
      return this.h.fail('SSI data written while it is set up for XIP');
    }
    // With SD0's output disabled at its pad (the ROM's flash_exit_xip does that), the chip
    // sees the pad's pull instead of the SSI's data.
    const pad = this.h.mcu.qspi[1].padValue;
    if (pad & 0x80) {
      b = pad & 0x04 && !(pad & 0x08) ? 0x00 : 0xff;
    }
    // Chip select driven by the SSI itself: one byte, one frame (its FIFO runs dry at once).
    const own = this.csOver === 0;
    if (own) {
      this.chip.select();
    }
    const out = this.chip.transfer(b);
    if (own) {
      this.chip.deselect();
    }
    if (this.tmod === 0 && this.rx.length < 16) {
      this.rx.push(out);
    }
  }

  /** IO_QSPI wrote the chip select's override. */
  setCsOverride(over) {
    this.csOver = over;
    this.update();
  }

  update() {
    const low = this.csOver === 2;
    if (low !== this.csLow) {
      this.csLow = low;
      if (low) {
        this.chip.select();
      } else {
        this.chip.deselect();
      }
    }
    const xip = this.ssienr === 1 && this.tmod === 3 && this.csOver === 0;
    if (xip !== this.xip) {
      this.xip = xip;
      if (xip) {
        const cmd = (this.spiCtrlr0 >>> 24) & 0xff;
        const addrL = (this.spiCtrlr0 >> 2) & 0xf;
        const instL = (this.spiCtrlr0 >> 8) & 3;
        const frf = (this.ctrlr0 >> 21) & 3;
        if (cmd !== 0x03 || addrL !== 6 || instL !== 2 || frf !== 0) {
          this.h.fail(
            `XIP set up with command ${hex(cmd)}, address length ${addrL}, instruction length ${instL}, frame format ${frf}: the flash model reads with 03h only`,
          );
        }
        if (this.chip.busy) {
          this.h.fail('XIP entered while the flash chip is still busy with a program or erase');
        }
      }
      this.h.setXip(xip);
    }
  }
}

function hex(n) {
  return '0x' + n.toString(16);
}
