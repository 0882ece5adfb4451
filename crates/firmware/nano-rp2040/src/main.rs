//! The 2048 application on the Arduino Nano RP2040 Connect. Runs on the target (RP2040).
//!
//! Wiring (docs/firmware.md): four push buttons from D4-D7 to GND (internal pull-ups), the
//! LCD12864 (ST7920) in serial mode on SPI0: SCK D13, data D11, chip select (RS) D10,
//! reset D12. The defmt log goes out over USB CDC serial from a RAM ring buffer, so no
//! debug probe is needed: `twenty48 pull --port /dev/ttyACM0` reads it. Requests from the
//! host arrive on the same USB serial port. Every game is stored in the flash from 1 MB to
//! 16 MB ([`flash`]); the device id is the flash chip's unique id.
#![no_std]
#![no_main]

mod buttons;
mod flash;
mod lcd;

use embedded_hal::delay::DelayNs;
use hal::fugit::RateExtU32;
use hal::pac;
use hal::Clock;
use rp2040_hal as hal;
use twenty48_firmware_app::deviceproto::MAX_REQUEST;
use twenty48_firmware_app::devicestore::Store;
use twenty48_firmware_app::engine::{Direction, Rules};
use twenty48_firmware_app::{
    log_ring, request_input, Board, Framed, Framer, Input, Screen, BROKEN_REQUEST,
};
use usb_device::class_prelude::UsbBusAllocator;
use usb_device::prelude::{
    StringDescriptors, UsbDevice, UsbDeviceBuilder, UsbDeviceState, UsbVidPid,
};
use usbd_serial::SerialPort;

use crate::buttons::Buttons;
use crate::lcd::Lcd;

/// The second-stage bootloader. The generic one (03h reads) works with every flash chip
/// these boards have shipped with (not all have the AT25SF128A).
#[link_section = ".boot2"]
#[used]
pub static BOOT2: [u8; 256] = rp2040_boot2::BOOT_LOADER_GENERIC_03H;

/// The rules of every game on this board: the `arduino` preset. Another preset (for
/// example `Rules::CLASSIC`) or a custom rule set here selects other rules; the game-start
/// frame carries them in full, so the host replays whatever the board played.
const RULES: Rules = twenty48_firmware_app::DEFAULT_RULES;

/// The board's crystal.
const XTAL_FREQ_HZ: u32 = 12_000_000;

/// The real board: buttons, LCD, USB serial, timer, ring oscillator.
struct NanoBoard {
    buttons: Buttons,
    lcd: Lcd,
    usb: UsbDevice<'static, hal::usb::UsbBus>,
    serial: SerialPort<'static, hal::usb::UsbBus>,
    timer: hal::Timer,
    rosc: hal::rosc::RingOscillator<hal::rosc::Enabled>,
    /// Bytes read from the host, and how far the framer got in them.
    rx: [u8; 64],
    rx_len: usize,
    rx_pos: usize,
    framer: Framer<MAX_REQUEST>,
}

impl NanoBoard {
    /// Services USB (at least every few milliseconds while waiting).
    fn poll_usb(&mut self) {
        self.usb.poll(&mut [&mut self.serial]);
    }

    /// The next request in the bytes from the host, if one is complete.
    fn host_input(&mut self) -> Option<Input> {
        loop {
            if self.rx_pos == self.rx_len {
                self.rx_pos = 0;
                self.rx_len = self.serial.read(&mut self.rx).unwrap_or(0);
                if self.rx_len == 0 {
                    return None;
                }
            }
            let byte = self.rx[self.rx_pos];
            self.rx_pos += 1;
            match self.framer.feed(byte) {
                Framed::Text(text) => return Some(request_input(text)),
                Framed::Broken => return Some(BROKEN_REQUEST),
                // Bytes outside braces mean nothing here.
                Framed::Outside(_) | Framed::Pending => {}
            }
        }
    }

    /// One millisecond of waiting: USB, log, buttons. Host bytes are not read here: they
    /// wait (in the USB stack) for the next input wait.
    fn tick(&mut self) -> Option<Direction> {
        self.poll_usb();
        log_ring::drain(self);
        self.timer.delay_ms(1);
        self.buttons.sample()
    }
}

impl Board for NanoBoard {
    fn next_input(&mut self) -> Input {
        loop {
            if let Some(input) = self.host_input() {
                return input;
            }
            if let Some(dir) = self.tick() {
                return Input::Press(dir);
            }
        }
    }

    fn show(&mut self, screen: &Screen) {
        let NanoBoard {
            lcd,
            usb,
            serial,
            timer,
            ..
        } = self;
        lcd.show(screen, timer, &mut || {
            usb.poll(&mut [&mut *serial]);
        });
    }

    fn write_log(&mut self, bytes: &[u8]) -> usize {
        self.serial.write(bytes).unwrap_or(0)
    }

    fn wait_link(&mut self) -> bool {
        self.poll_usb();
        self.timer.delay_ms(1);
        self.usb.state() == UsbDeviceState::Configured
    }

    fn pause(&mut self, ms: u32) {
        for _ in 0..ms {
            // Presses during a result screen are not moves: dropped.
            let _ = self.tick();
        }
    }

    fn entropy(&mut self) -> u64 {
        // The ring oscillator's random bit, mixed with the time the player took to press
        // a button. Fine for game seeds; not for cryptography.
        let mut seed = self.timer.get_counter().ticks();
        for _ in 0..256 {
            seed = seed.rotate_left(7) ^ self.rosc.get_random_bit() as u64;
        }
        seed
    }
}

#[hal::entry]
fn main() -> ! {
    let mut pac = pac::Peripherals::take().unwrap();
    let mut watchdog = hal::Watchdog::new(pac.WATCHDOG);
    let clocks = hal::clocks::init_clocks_and_plls(
        XTAL_FREQ_HZ,
        pac.XOSC,
        pac.CLOCKS,
        pac.PLL_SYS,
        pac.PLL_USB,
        &mut pac.RESETS,
        &mut watchdog,
    )
    .unwrap();
    let mut timer = hal::Timer::new(pac.TIMER, &mut pac.RESETS, &clocks);
    let rosc = hal::rosc::RingOscillator::new(pac.ROSC).initialize();

    // The flash chip's id, then the store on its partition (which reads the whole store),
    // before USB comes up: the host expects a device on the bus to answer within
    // milliseconds.
    let dev = flash::unique_id();
    // SAFETY: the only partition; core 1 never runs; nothing else writes the flash.
    let partition = unsafe { flash::Partition::new() };
    let Ok(mut store) = Store::open(partition) else {
        // Only a partition of the wrong geometry fails here (reads cannot fail).
        panic!("store");
    };

    let usb_bus: &'static UsbBusAllocator<hal::usb::UsbBus> = cortex_m::singleton!(
        : UsbBusAllocator<hal::usb::UsbBus> = UsbBusAllocator::new(hal::usb::UsbBus::new(
            pac.USBCTRL_REGS,
            pac.USBCTRL_DPRAM,
            clocks.usb_clock,
            true,
            &mut pac.RESETS,
        ))
    )
    .unwrap();
    let serial = SerialPort::new(usb_bus);
    let usb = UsbDeviceBuilder::new(usb_bus, UsbVidPid(0x16c0, 0x27dd))
        .strings(&[StringDescriptors::default()
            .manufacturer("twenty48")
            .product("twenty48 device log")
            .serial_number("T48")])
        .unwrap()
        .device_class(usbd_serial::USB_CLASS_CDC)
        .build();

    let sio = hal::Sio::new(pac.SIO);
    let pins = hal::gpio::Pins::new(
        pac.IO_BANK0,
        pac.PADS_BANK0,
        sio.gpio_bank0,
        &mut pac.RESETS,
    );
    // D4-D7 are GPIO16-GPIO19 on this board.
    let buttons = Buttons::new([
        pins.gpio16.into_pull_up_input().into_dyn_pin(),
        pins.gpio17.into_pull_up_input().into_dyn_pin(),
        pins.gpio18.into_pull_up_input().into_dyn_pin(),
        pins.gpio19.into_pull_up_input().into_dyn_pin(),
    ]);
    // SPI0: D13 = GPIO6 (SCK), D11 = GPIO7 (data to the LCD); D10 = GPIO5 chip select,
    // D12 = GPIO4 reset (its SPI function, data from the LCD, is not used).
    let sck = pins.gpio6.into_function::<hal::gpio::FunctionSpi>();
    let mosi = pins.gpio7.into_function::<hal::gpio::FunctionSpi>();
    let spi = hal::spi::Spi::<_, _, _, 8>::new(pac.SPI0, (mosi, sck)).init(
        &mut pac.RESETS,
        clocks.peripheral_clock.freq(),
        500.kHz(),
        embedded_hal::spi::MODE_3,
    );
    let lcd = Lcd::new(
        spi,
        pins.gpio4.into_push_pull_output(),
        pins.gpio5.into_push_pull_output(),
        &mut timer,
    );

    let mut board = NanoBoard {
        buttons,
        lcd,
        usb,
        serial,
        timer,
        rosc,
        rx: [0; 64],
        rx_len: 0,
        rx_pos: 0,
        framer: Framer::new(),
    };
    twenty48_firmware_app::run(&mut board, RULES, &mut store, dev);
    // `run` returns only when the input ends, which buttons never do.
    loop {
        cortex_m::asm::wfi();
    }
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    // Start over: a game in progress is lost (the host sees it truncated), the device
    // stays usable.
    cortex_m::peripheral::SCB::sys_reset()
}
