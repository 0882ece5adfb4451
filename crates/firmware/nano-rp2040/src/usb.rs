//! USB CDC serial, serviced from the USBCTRL interrupt: enumeration and the serial port keep
//! working while the main loop initialises or redraws the LCD or waits. EP0's packets are 64
//! bytes (usb-device's default of 8 makes Windows enumeration fail unless the device answers
//! within microseconds), and rp2040-hal's `rp2040-e5` feature works around the chip's USB
//! reset errata (it borrows GPIO15, D3, for a few hundred microseconds at each bus reset).
//!
//! Bytes from the host are taken out of usbd-serial inside the interrupt, into a RAM ring the
//! main loop reads ([`read`]): left in usbd-serial, a full OUT buffer keeps the interrupt
//! raised, so it re-entered forever and the main loop never ran again (issue 24: any byte from
//! the host froze the board). What does not fit in the ring is dropped (the host's requests
//! are at most 48 bytes; only a host flooding the board loses bytes).
//!
//! Not serviced while the flash is erased or programmed: interrupts are off then (the code
//! runs from flash). The controller NAKs the host meanwhile, which the host retries; a 4 KB
//! sector erase takes about 50 ms (up to 400 ms on a slow chip), a page program under 3 ms.

use core::cell::RefCell;

use critical_section::Mutex;
use rp2040_hal::pac::{self, interrupt};
use rp2040_hal::usb::UsbBus;
use usb_device::class_prelude::UsbBusAllocator;
use usb_device::prelude::{
    StringDescriptors, UsbDevice, UsbDeviceBuilder, UsbDeviceState, UsbVidPid,
};
use usbd_serial::SerialPort;

/// Bytes from the host waiting for the main loop.
const RX_RING: usize = 256;

/// The device, its one class, and the bytes received.
struct Usb {
    device: UsbDevice<'static, UsbBus>,
    serial: SerialPort<'static, UsbBus>,
    rx: [u8; RX_RING],
    rx_start: usize,
    rx_len: usize,
}

impl Usb {
    /// Services the device and takes every byte the host sent out of the serial class.
    fn service(&mut self) {
        self.device.poll(&mut [&mut self.serial]);
        let mut chunk = [0u8; 64];
        while let Ok(n @ 1..) = self.serial.read(&mut chunk) {
            for &b in &chunk[..n] {
                if self.rx_len < RX_RING {
                    self.rx[(self.rx_start + self.rx_len) % RX_RING] = b;
                    self.rx_len += 1;
                }
            }
        }
    }

    /// Moves received bytes into `buf`; how many.
    fn take(&mut self, buf: &mut [u8]) -> usize {
        let n = buf.len().min(self.rx_len);
        for slot in &mut buf[..n] {
            *slot = self.rx[self.rx_start];
            self.rx_start = (self.rx_start + 1) % RX_RING;
        }
        self.rx_len -= n;
        n
    }
}

static USB: Mutex<RefCell<Option<Usb>>> = Mutex::new(RefCell::new(None));

/// Why USB did not come up.
#[derive(Clone, Copy, Debug)]
pub struct UsbFailed;

/// Builds the device on `bus` (which turns the pull-up on: the host sees it from here on)
/// and starts servicing it from its interrupt.
pub fn start(bus: &'static UsbBusAllocator<UsbBus>) -> Result<(), UsbFailed> {
    let serial = SerialPort::new(bus);
    let device = UsbDeviceBuilder::new(bus, UsbVidPid(0x16c0, 0x27dd))
        .strings(&[StringDescriptors::default()
            .manufacturer("twenty48")
            .product("twenty48 device log")
            .serial_number("T48")])
        .map_err(|_| UsbFailed)?
        .max_packet_size_0(64)
        .map_err(|_| UsbFailed)?
        .device_class(usbd_serial::USB_CLASS_CDC)
        .build();
    critical_section::with(|cs| {
        USB.borrow_ref_mut(cs).replace(Usb {
            device,
            serial,
            rx: [0; RX_RING],
            rx_start: 0,
            rx_len: 0,
        })
    });
    // SAFETY: the handler only touches USB, inside a critical section.
    unsafe { pac::NVIC::unmask(pac::Interrupt::USBCTRL_IRQ) };
    Ok(())
}

/// Runs `f` on the device and port, if USB is up and not in use (a panic inside `f`'s
/// caller leaves it in use).
fn with<R>(f: impl FnOnce(&mut Usb) -> R) -> Option<R> {
    critical_section::with(|cs| {
        let mut usb = USB.borrow(cs).try_borrow_mut().ok()?;
        usb.as_mut().map(f)
    })
}

/// Bytes the host sent (taken from the ring the interrupt fills), into `buf`; how many.
pub fn read(buf: &mut [u8]) -> usize {
    with(|u| u.take(buf)).unwrap_or(0)
}

/// Offers bytes to the host; returns how many the port took.
pub fn write(bytes: &[u8]) -> usize {
    with(|u| u.serial.write(bytes).unwrap_or(0)).unwrap_or(0)
}

/// Whether the host has configured the device (a serial port exists on its side).
pub fn configured() -> bool {
    with(|u| u.device.state() == UsbDeviceState::Configured).unwrap_or(false)
}

/// Services the device by hand (the panic handler does, with interrupts off).
pub fn poll() {
    with(Usb::service);
}

#[interrupt]
fn USBCTRL_IRQ() {
    poll();
}
