//! USB CDC serial, serviced from the USBCTRL interrupt: enumeration and the serial port keep
//! working while the main loop initialises or redraws the LCD or waits. EP0's packets are 64
//! bytes (usb-device's default of 8 makes Windows enumeration fail unless the device answers
//! within microseconds), and rp2040-hal's `rp2040-e5` feature works around the chip's USB
//! reset errata (it borrows GPIO15, D3, for a few hundred microseconds at each bus reset).
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

/// The device and its one class.
struct Usb {
    device: UsbDevice<'static, UsbBus>,
    serial: SerialPort<'static, UsbBus>,
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
    critical_section::with(|cs| USB.borrow_ref_mut(cs).replace(Usb { device, serial }));
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

/// Bytes the host sent, into `buf`; how many.
pub fn read(buf: &mut [u8]) -> usize {
    with(|u| u.serial.read(buf).unwrap_or(0)).unwrap_or(0)
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
    with(|u| u.device.poll(&mut [&mut u.serial]));
}

#[interrupt]
fn USBCTRL_IRQ() {
    poll();
}
