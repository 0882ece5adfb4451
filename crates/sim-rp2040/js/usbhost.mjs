// The host's side of the board's USB CDC serial port: enumerates the device as a host does
// (bus reset, address, configuration descriptor, configuration, DTR/RTS), then carries bytes
// both ways on the CDC data interface's bulk endpoints. Harness only.
//
// Written here instead of using rp2040js's USBCDC helper, for two of its behaviours:
// - it answers an OUT buffer the device arms with whatever it has at that moment, an empty
//   packet when it has nothing, so the device sees a stream of zero-length packets; and it
//   drops an OUT buffer armed before the configuration told it which endpoint is the data
//   OUT endpoint. A real host sends OUT data only when it has some, into the buffer the device
//   armed whenever that was: here an armed buffer is remembered until bytes come.
// - rp2040js holds the bus reset (SIE_STATUS.BUS_RESET, line state SE0) until the firmware
//   clears the bit, while rp2040-hal's USB errata E5 workaround waits for the host to end the
//   reset first. A host ends a reset after 10-20 ms; here the line goes back to idle (J)
//   RESET_END_NS after the reset began, whatever the firmware does.

import {
  DescriptorType,
  createSetupPacket,
  getDescriptorPacket,
  setDeviceAddressPacket,
  setDeviceConfigurationPacket,
} from 'rp2040js';

const SIE_LINE_STATE_SHIFT = 2;
const SIE_BUS_RESET = 1 << 19;
const SIE_CONNECTED = 1 << 16;
const LINE_J = 1;
const RESET_END_NS = 1_000_000;
const CDC_DATA_CLASS = 10;
const SET_CONTROL_LINE_STATE = 0x22;

/** The bulk IN and OUT endpoints of the CDC data interface in a configuration descriptor. */
function dataEndpoints(d) {
  const found = { in: -1, out: -1 };
  let data = false;
  for (let i = 0; i + 1 < d.length && d[i] >= 2; i += d[i]) {
    const len = d[i];
    const type = d[i + 1];
    if (type === DescriptorType.Interface && len === 9) {
      data = d[i + 5] === CDC_DATA_CLASS;
    }
    if (data && type === DescriptorType.Endpoint && len === 7 && (d[i + 3] & 3) === 2) {
      if (d[i + 2] & 0x80) {
        found.in = d[i + 2] & 0xf;
      } else {
        found.out = d[i + 2] & 0xf;
      }
    }
  }
  return found;
}

export class CdcHost {
  constructor(harness, usb) {
    this.h = harness;
    this.usb = usb;
    this.configLength = null;
    this.config = [];
    this.endpoints = { in: -1, out: -1 };
    this.configured = false;
    this.lineStateSent = false;
    /** Bytes from the host not yet taken by the device. */
    this.toDevice = [];
    /** OUT buffers the device armed and no bytes filled yet: endpoint -> size. */
    this.armed = new Map();
    /** A control read in progress: bytes asked for, bytes received. */
    this.controlIn = null;
    /** A control read's data has all come: the host owes the status stage (an empty OUT). */
    this.statusDue = false;
    /** What the host does once the status stage it owes is done. */
    this.next = null;
    /** Bulk IN data the device sent before the host knew its endpoints (a host reads it later). */
    this.early = [];

    usb.onUSBEnabled = () => {
      usb.resetDevice();
      this.h.after(10_000_000 + RESET_END_NS, () => this.endReset());
    };
    usb.onResetReceived = () => {
      usb.sendSetupPacket(setDeviceAddressPacket(1));
    };
    usb.onEndpointWrite = (ep, buffer) => this.fromDevice(ep, buffer);
    usb.onEndpointRead = (ep, size) => {
      this.armed.set(ep, size);
      if (ep === 0) {
        this.status();
        return;
      }
      this.feed();
    };
  }

  /** The host ends the bus reset: the line goes idle (J), the device stays connected. */
  endReset() {
    const u = this.usb;
    u.sieStatus &= ~(3 << SIE_LINE_STATE_SHIFT);
    u.sieStatus |= (LINE_J << SIE_LINE_STATE_SHIFT) | SIE_CONNECTED;
    u.sieStatusUpdated();
    if (u.sieStatus & SIE_BUS_RESET) {
      this.h.event('note usb bus reset ended by the host before the firmware acknowledged it');
    }
  }

  /** Sends a control read's request, remembering how much it asks for. */
  controlRead(packet) {
    this.controlIn = { want: packet[6] | (packet[7] << 8), got: 0 };
    this.statusDue = false;
    this.usb.sendSetupPacket(packet);
  }

  /** The status stage of a control read: an empty OUT once all its data has come (an empty
   * OUT before that would end the data stage early), into the buffer the device armed. */
  status() {
    if (this.statusDue && this.armed.has(0)) {
      this.statusDue = false;
      this.armed.delete(0);
      this.usb.endpointReadDone(0, new Uint8Array(0));
      const next = this.next;
      this.next = null;
      if (next) {
        // The next request after the status packet has landed.
        this.h.after(2 * this.usb.readDelayMicroseconds * 1000, next);
      }
    }
  }

  /** Runs `f` now, or after the status stage the host owes. */
  then(f) {
    if (this.statusDue) {
      this.next = f;
    } else {
      f();
    }
  }

  fromDevice(ep, buffer) {
    const u = this.usb;
    if (ep === 0 && this.controlIn) {
      this.controlIn.got += buffer.length;
      if (buffer.length < 64 || this.controlIn.got >= this.controlIn.want) {
        this.controlIn = null;
        this.statusDue = true;
      }
    }
    this.respond(ep, buffer);
    // After the response is decided (`then`), so that it waits for the status stage.
    this.status();
  }

  respond(ep, buffer) {
    const u = this.usb;
    if (ep === 0) {
      if (buffer.length === 0) {
        if (this.configLength === null) {
          this.controlRead(getDescriptorPacket(DescriptorType.Configration, 9));
        } else if (this.configured && !this.lineStateSent) {
          this.lineStateSent = true;
          u.sendSetupPacket(
            createSetupPacket({
              dataDirection: 0,
              type: 1,
              recipient: 1,
              bRequest: SET_CONTROL_LINE_STATE,
              wValue: 3,
              wIndex: 0,
              wLength: 0,
            }),
          );
        } else if (this.lineStateSent) {
          this.h.event('conn');
        }
        return;
      }
      if (this.configLength === null && buffer.length === 9 && buffer[1] === DescriptorType.Configration) {
        this.configLength = buffer[2] | (buffer[3] << 8);
        this.then(() => this.controlRead(getDescriptorPacket(DescriptorType.Configration, this.configLength)));
        return;
      }
      if (this.configLength !== null && !this.configured) {
        this.config.push(...buffer);
        if (this.config.length >= this.configLength) {
          this.endpoints = dataEndpoints(this.config);
          if (this.endpoints.in < 0 || this.endpoints.out < 0) {
            this.h.fail('the configuration descriptor has no CDC data interface with bulk IN and OUT');
            return;
          }
          this.configured = true;
          this.then(() => u.sendSetupPacket(setDeviceConfigurationPacket(1)));
          for (const [from, data] of this.early.splice(0)) {
            this.fromDevice(from, data);
          }
        }
      }
      return;
    }
    if (!this.configured) {
      this.early.push([ep, buffer]);
    } else if (ep === this.endpoints.in) {
      this.h.usbData(buffer);
    }
  }

  /** Bytes the host sends to the device. */
  send(bytes) {
    this.toDevice.push(...bytes);
    this.feed();
  }

  /** Fills an armed OUT buffer of the data endpoint, if there are bytes for it. */
  feed() {
    const ep = this.endpoints.out;
    if (ep < 0 || !this.armed.has(ep) || this.toDevice.length === 0) {
      return;
    }
    const size = this.armed.get(ep);
    this.armed.delete(ep);
    const chunk = Uint8Array.from(this.toDevice.splice(0, Math.min(size, 64)));
    this.usb.endpointReadDone(ep, chunk);
  }
}
