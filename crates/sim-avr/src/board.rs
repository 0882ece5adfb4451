//! The AVR boards the firmware ships for, as the harness wires them: chip, pins, memories,
//! and where `just firmware` puts their images.

/// A button (the board's D4 to D7, in [`Board::buttons`] by [`Button::index`]).
pub use twenty48_testkit::Button;

/// An AVR board: its chip as simavr names it, its pins as the firmware wires them, its
/// memories, and its shipped image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// A short name for reports (`mega2560`).
    pub name: &'static str,
    /// simavr's name of the chip.
    pub mcu: &'static str,
    /// The cargo alias of crates/firmware-avr that builds it.
    pub alias: &'static str,
    /// The ELF, from crates/firmware-avr.
    pub elf: &'static str,
    /// The `.hex` `just firmware` writes, from the repository's root.
    pub hex: &'static str,
    /// The buttons' pins, D4 to D7 (port letter and bit).
    pub buttons: [&'static str; 4],
    /// The LCD's chip select (the ST7920's RS) and reset pins.
    pub lcd_cs: &'static str,
    /// The LCD's reset pin.
    pub lcd_reset: &'static str,
    /// Bytes of EEPROM.
    pub eeprom: usize,
    /// The last RAM address (the stack starts there).
    pub ram_end: u16,
    /// Bytes of flash the program may use (the bootloader's part left out).
    pub flash: usize,
    /// Whether the firmware draws on the LCD.
    pub lcd: bool,
    /// The SPI clock it drives the LCD at (Hz).
    pub spi_hz: u32,
    /// Bytes of RAM above the static data the stack must never touch, in every test (the
    /// Uno's budget, issue 25: 128; the Megas': 1, the stack never reaches the static data).
    pub stack_reserve: u16,
}

/// A Mega (the ATmega1280 and the ATmega2560 share pins and memories but flash): buttons
/// D4 PG5, D5 PE3, D6 PH3, D7 PH4; the LCD's CS on D10 (PB4), reset on D12 (PB6); 8 KB of
/// RAM, 4 KB of EEPROM.
const fn mega(
    name: &'static str,
    mcu: &'static str,
    alias: &'static str,
    elf: &'static str,
    hex: &'static str,
    flash: usize,
) -> Board {
    Board {
        name,
        mcu,
        alias,
        elf,
        hex,
        buttons: ["G5", "E3", "H3", "H4"],
        lcd_cs: "B4",
        lcd_reset: "B6",
        eeprom: 4096,
        ram_end: 0x21FF,
        flash,
        lcd: true,
        spi_hz: twenty48_panel::SPI_HZ_5V,
        stack_reserve: 1,
    }
}

/// The Arduino Mega 2560 (ATmega2560: 256 KB flash of which the bootloader keeps 8 KB, 3-byte
/// program counter).
pub const MEGA2560: Board = mega(
    "mega2560",
    "atmega2560",
    "mega",
    "target/avr-atmega2560/release/twenty48-mega2560.elf",
    "target/firmware/twenty48-mega2560.hex",
    256 * 1024 - 8 * 1024,
);

/// The original Arduino Mega (ATmega1280: 128 KB flash of which the bootloader keeps 4 KB).
pub const MEGA1280: Board = mega(
    "mega1280",
    "atmega1280",
    "mega1280",
    "target/avr-atmega1280/release/twenty48-mega1280.elf",
    "target/firmware/twenty48-mega1280.hex",
    128 * 1024 - 4 * 1024,
);

/// The Arduino Uno (ATmega328P: 32 KB flash of which Optiboot keeps 512, 2 KB RAM, 1 KB
/// EEPROM): buttons D4-D7 (PD4-PD7), the LCD's CS on D10 (PB2), reset on D12 (PB4). As
/// shipped: the LCD in page mode (every screen sent whole), the EEPROM store
/// (docs/firmware.md, "The Uno's store"), 128 bytes of RAM the stack never touches.
pub const UNO: Board = Board {
    name: "uno",
    mcu: "atmega328p",
    alias: "uno",
    elf: "target/avr-atmega328p/release/twenty48-uno.elf",
    hex: "target/firmware/twenty48-uno.hex",
    buttons: ["D4", "D5", "D6", "D7"],
    lcd_cs: "B2",
    lcd_reset: "B4",
    eeprom: 1024,
    ram_end: 0x08FF,
    flash: 32 * 1024 - 512,
    lcd: true,
    spi_hz: twenty48_panel::SPI_HZ_5V,
    stack_reserve: 128,
};

/// Every AVR board, in the order the reports list them.
pub const ALL: [Board; 3] = [MEGA2560, MEGA1280, UNO];
