//! USART0: the defmt log out, test scripts and host requests in. 115,200 baud, 8N1, at the
//! boards' 16 MHz (double speed, UBRR 16: the rate Arduino's own core uses, 2.1 % fast).

use crate::regs::Reg;

const UCSR0A: Reg = Reg(0xC0);
const UCSR0B: Reg = Reg(0xC1);
const UCSR0C: Reg = Reg(0xC2);
const UBRR0L: Reg = Reg(0xC4);
const UBRR0H: Reg = Reg(0xC5);
const UDR0: Reg = Reg(0xC6);

/// The baud rate.
pub const BAUD: u32 = 115_200;

/// Sets the rate and turns the receiver and transmitter on.
pub fn init() {
    UBRR0H.write(0);
    UBRR0L.write(16);
    UCSR0A.write(1 << 1); // U2X0
    UCSR0C.write(0b0000_0110); // 8 data bits, no parity, 1 stop bit
    UCSR0B.write((1 << 4) | (1 << 3)); // RXEN0, TXEN0
}

/// A received byte, if one waits.
pub fn try_read() -> Option<u8> {
    if UCSR0A.read() & (1 << 7) != 0 {
        Some(UDR0.read())
    } else {
        None
    }
}

/// Sends a byte (waits for room).
pub fn write(byte: u8) {
    while UCSR0A.read() & (1 << 5) == 0 {}
    UDR0.write(byte);
}
