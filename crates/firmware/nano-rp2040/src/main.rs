//! The 2048 application on the Arduino Nano RP2040 Connect. Runs on the target (RP2040).
//!
//! Wiring (docs/firmware.md): four push buttons from D4-D7 to GND (internal pull-ups), the
//! LCD12864 (ST7920) in serial mode on SPI0: SCK D13, data D11, chip select (RS) D10,
//! reset D12. The defmt log goes out over USB CDC serial from a RAM ring buffer, so no
//! debug probe is needed: `twenty48 pull --port /dev/ttyACM0` reads it. Requests from the
//! host arrive on the same USB serial port. Every game is stored in the flash from 1 MB to
//! 16 MB ([`flash`]); the device id is the flash chip's unique id.
//!
//! Interrupts do the time-critical work: USB is serviced from its own interrupt ([`usb`]),
//! the buttons are sampled once a millisecond from a timer alarm into a queue ([`buttons`]);
//! the main loop plays, redraws ([`lcd`]) and stores at its own pace. The start screen's
//! left and right buttons pick the rules. A panic logs a `t48 panic` frame (message and
//! location) and sends it for up to a second before the board resets; a part that fails at
//! start-up is named on the screen and in a `t48 fault` frame, and the board stays there
//! (no reset loop).
#![no_std]
#![no_main]

mod buttons;
mod flash;
mod lcd;
mod usb;

use core::fmt::Write;
use core::sync::atomic::{AtomicBool, Ordering};

use embedded_hal::delay::DelayNs;
use hal::fugit::RateExtU32;
use hal::pac;
use hal::Clock;
use rp2040_hal as hal;
use twenty48_firmware_app::deviceproto::MAX_REQUEST;
use twenty48_firmware_app::devicestore::Store;
use twenty48_firmware_app::{log_ring, Board, Framer, Input, Screen};
use usb_device::class_prelude::UsbBusAllocator;

use crate::lcd::Lcd;

/// The second-stage bootloader. The generic one (03h reads) works with every flash chip
/// these boards have shipped with (not all have the AT25SF128A).
#[link_section = ".boot2"]
#[used]
pub static BOOT2: [u8; 256] = rp2040_boot2::BOOT_LOADER_GENERIC_03H;

/// The board's crystal.
const XTAL_FREQ_HZ: u32 = 12_000_000;

/// The game loop runs: from now on a panic resets the board (before, it halts, so that a
/// failure at start-up is reported once instead of looping through resets).
static RUNNING: AtomicBool = AtomicBool::new(false);

/// The real board: buttons (from their interrupt), LCD, USB serial (from its interrupt),
/// timer, ring oscillator.
struct NanoBoard {
    lcd: Lcd,
    timer: hal::Timer,
    rosc: hal::rosc::RingOscillator<hal::rosc::Enabled>,
    /// Bytes read from the host, and how far the framer got in them.
    rx: [u8; 64],
    rx_len: usize,
    rx_pos: usize,
    framer: Framer<MAX_REQUEST>,
}

impl NanoBoard {
    /// The next request in the bytes from the host, if one is complete.
    fn host_input(&mut self) -> Option<Input> {
        loop {
            if self.rx_pos == self.rx_len {
                self.rx_pos = 0;
                self.rx_len = usb::read(&mut self.rx);
                if self.rx_len == 0 {
                    return None;
                }
            }
            let byte = self.rx[self.rx_pos];
            self.rx_pos += 1;
            if let Some(input) = self.framer.request(byte) {
                return Some(input);
            }
        }
    }
}

impl Board for NanoBoard {
    const PICKS_RULES: bool = true;

    fn next_input(&mut self) -> Input {
        loop {
            if let Some(input) = self.host_input() {
                return input;
            }
            if let Some(dir) = buttons::next() {
                return Input::Press(dir);
            }
            log_ring::drain(self);
            // The next button sample (every millisecond) or USB event wakes us.
            cortex_m::asm::wfi();
        }
    }

    fn show(&mut self, screen: &Screen) {
        self.lcd.show(screen);
    }

    fn write_log(&mut self, bytes: &[u8]) -> usize {
        usb::write(bytes)
    }

    fn wait_link(&mut self) -> bool {
        self.timer.delay_ms(1);
        usb::configured()
    }

    fn pause(&mut self, ms: u32) {
        let end = self.timer.get_counter().ticks() + ms as u64 * 1000;
        while self.timer.get_counter().ticks() < end {
            log_ring::drain(self);
            cortex_m::asm::wfi();
        }
        // Presses during a result screen are not moves: dropped.
        buttons::clear();
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

/// A part failed at start-up: a `t48 fault` frame, its name on the screen if the screen is
/// up, and the board stays here sending the log (USB, if it is up, keeps being serviced).
fn fault(lcd: Option<&mut Lcd>, timer: Option<hal::Timer>, what: &'static str) -> ! {
    defmt::error!("t48 fault part={=str}", what);
    if let Some(lcd) = lcd {
        lcd.show(&Screen::Fault { what });
    }
    loop {
        log_ring::drain(&mut LogOnly);
        match timer {
            Some(mut timer) => timer.delay_ms(1),
            None => cortex_m::asm::delay(12_000),
        }
    }
}

#[hal::entry]
fn main() -> ! {
    let mut pac = pac::Peripherals::take().unwrap();
    let mut watchdog = hal::Watchdog::new(pac.WATCHDOG);
    let Ok(clocks) = hal::clocks::init_clocks_and_plls(
        XTAL_FREQ_HZ,
        pac.XOSC,
        pac.CLOCKS,
        pac.PLL_SYS,
        pac.PLL_USB,
        &mut pac.RESETS,
        &mut watchdog,
    ) else {
        // Without the crystal and PLLs neither USB nor the LCD's SPI clock runs: the frame
        // stays in RAM.
        fault(None, None, "clocks");
    };
    let mut timer = hal::Timer::new(pac.TIMER, &mut pac.RESETS, &clocks);
    let rosc = hal::rosc::RingOscillator::new(pac.ROSC).initialize();

    // The GPIO bank first: rp2040-e5's USB workaround needs it out of reset.
    let sio = hal::Sio::new(pac.SIO);
    let pins = hal::gpio::Pins::new(
        pac.IO_BANK0,
        pac.PADS_BANK0,
        sio.gpio_bank0,
        &mut pac.RESETS,
    );

    // USB now, serviced from its interrupt from here on: the host can enumerate the board
    // while the LCD initialises and the store is read.
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
    let usb_up = usb::start(usb_bus);

    // D4-D7 are GPIO16-GPIO19 on this board: inputs with pull-ups, read by the timer's
    // interrupt (the pin objects only configure them).
    let _ = pins.gpio16.into_pull_up_input();
    let _ = pins.gpio17.into_pull_up_input();
    let _ = pins.gpio18.into_pull_up_input();
    let _ = pins.gpio19.into_pull_up_input();

    // SPI0: D13 = GPIO6 (SCK), D11 = GPIO7 (data to the LCD); D10 = GPIO5 chip select,
    // D12 = GPIO4 reset (its SPI function, data from the LCD, is not used).
    let sck = pins.gpio6.into_function::<hal::gpio::FunctionSpi>();
    let mosi = pins.gpio7.into_function::<hal::gpio::FunctionSpi>();
    let spi = hal::spi::Spi::<_, _, _, 8>::new(pac.SPI0, (mosi, sck)).init(
        &mut pac.RESETS,
        clocks.peripheral_clock.freq(),
        twenty48_panel::SPI_HZ.Hz(),
        embedded_hal::spi::MODE_3,
    );
    let mut lcd = Lcd::new(
        spi,
        pins.gpio4.into_push_pull_output(),
        pins.gpio5.into_push_pull_output(),
        timer,
    );
    if usb_up.is_err() {
        fault(Some(&mut lcd), Some(timer), "USB");
    }
    let Some(alarm) = timer.alarm_0() else {
        fault(Some(&mut lcd), Some(timer), "button timer");
    };
    buttons::start(alarm);

    // The flash chip's id, then the store on its partition (which reads the whole store).
    let dev = flash::unique_id();
    // SAFETY: the only partition; core 1 never runs; nothing else writes the flash.
    let partition = unsafe { flash::Partition::new() };
    let Ok(mut store) = Store::open(partition) else {
        // Only a partition of the wrong geometry fails here (reads cannot fail).
        fault(Some(&mut lcd), Some(timer), "flash store");
    };

    let mut board = NanoBoard {
        lcd,
        timer,
        rosc,
        rx: [0; 64],
        rx_len: 0,
        rx_pos: 0,
        framer: Framer::new(),
    };
    RUNNING.store(true, Ordering::Relaxed);
    twenty48_firmware_app::run(
        &mut board,
        twenty48_firmware_app::DEFAULT_RULES,
        &mut store,
        dev,
    );
    // `run` returns only when the input ends, which buttons never do.
    loop {
        cortex_m::asm::wfi();
    }
}

/// Only the log link: what the panic handler and a start-up fault drain the log into.
struct LogOnly;

impl Board for LogOnly {
    fn next_input(&mut self) -> Input {
        Input::End
    }

    fn show(&mut self, _screen: &Screen) {}

    fn write_log(&mut self, bytes: &[u8]) -> usize {
        usb::write(bytes)
    }

    fn wait_link(&mut self) -> bool {
        false
    }

    fn pause(&mut self, _ms: u32) {}

    fn entropy(&mut self) -> u64 {
        0
    }
}

/// A panic message, cut to fit.
struct Message {
    buf: [u8; 96],
    len: usize,
}

impl Write for Message {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for c in s.chars() {
            let mut utf8 = [0; 4];
            let c = c.encode_utf8(&mut utf8).as_bytes();
            if self.len + c.len() > self.buf.len() {
                break;
            }
            self.buf[self.len..self.len + c.len()].copy_from_slice(c);
            self.len += c.len();
        }
        Ok(())
    }
}

/// Microseconds since boot (low 32 bits), read straight from the timer.
fn micros() -> u32 {
    // SAFETY: a read of the free-running counter, which nothing writes.
    unsafe { (*pac::TIMER::ptr()).timerawl().read().bits() }
}

/// A panic inside the panic handler.
static PANICKING: AtomicBool = AtomicBool::new(false);

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    cortex_m::interrupt::disable();
    // One core, interrupts off: a load and a store are enough.
    if PANICKING.load(Ordering::Relaxed) {
        cortex_m::peripheral::SCB::sys_reset()
    }
    PANICKING.store(true, Ordering::Relaxed);
    let mut msg = Message {
        buf: [0; 96],
        len: 0,
    };
    let _ = write!(msg, "{}", info.message());
    let (file, line) = info.location().map_or(("?", 0), |l| (l.file(), l.line()));
    defmt::error!(
        "t48 panic at={=str}:{=u32} msg={=str}",
        file,
        line,
        core::str::from_utf8(&msg.buf[..msg.len]).unwrap_or("?")
    );
    // Send the log (with the panic frame) for up to a second, servicing USB by hand, as
    // long as a host takes it; then 20 ms more for the last packets.
    let start = micros();
    let mut done: Option<u32> = None;
    while micros().wrapping_sub(start) < 1_000_000 {
        usb::poll();
        if log_ring::drain(&mut LogOnly) == 0 && done.is_none() {
            done = Some(micros());
        }
        if done.is_some_and(|t| micros().wrapping_sub(t) > 20_000) || !usb::configured() {
            break;
        }
    }
    if RUNNING.load(Ordering::Relaxed) {
        // Start over: a game in progress is lost (the host sees it truncated), the device
        // stays usable.
        cortex_m::peripheral::SCB::sys_reset()
    }
    // At start-up: stay, the log still served, rather than fail the same way at every reset.
    loop {
        usb::poll();
        log_ring::drain(&mut LogOnly);
    }
}
