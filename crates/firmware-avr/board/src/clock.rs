//! Time from Timer1, free running at clk/64 (4 us a tick at 16 MHz), and entropy from the
//! ADC's noise on the floating pin A0 mixed with the timer.

use twenty48_firmware_app::devicestore::crc32_update;

use crate::regs::Reg;

const TCCR1A: Reg = Reg(0x80);
const TCCR1B: Reg = Reg(0x81);
const TCNT1L: Reg = Reg(0x84);
const TCNT1H: Reg = Reg(0x85);
const ADCSRA: Reg = Reg(0x7A);
const ADMUX: Reg = Reg(0x7C);
const ADCL: Reg = Reg(0x78);
const ADCH: Reg = Reg(0x79);

/// Timer ticks a millisecond.
pub const TICKS_PER_MS: u16 = 250;

/// Starts Timer1 and the ADC (AVcc reference, A0, clk/128).
pub fn init() {
    TCCR1A.write(0);
    TCCR1B.write(0b011); // clk/64
    ADMUX.write(0x40);
    ADCSRA.write(0x87);
}

/// The timer's count.
pub fn now() -> u16 {
    // Reading the low byte latches the high byte.
    let lo = TCNT1L.read();
    let hi = TCNT1H.read();
    u16::from_le_bytes([lo, hi])
}

/// Waits about a millisecond.
pub fn wait_ms() {
    let start = now();
    while now().wrapping_sub(start) < TICKS_PER_MS {}
}

/// Waits at least `us` microseconds: whole milliseconds, then the rest in Timer1 ticks of
/// 4 us, rounded up.
pub fn wait_us(us: u32) {
    let mut left = us;
    while left >= 1000 {
        wait_ms();
        left -= 1000;
    }
    let ticks = (left as u16).div_ceil(4);
    let start = now();
    while now().wrapping_sub(start) < ticks {}
}

/// One ADC conversion of A0 (at most a few hundred polls: an emulator without an ADC
/// answers 0 at once).
fn adc() -> u16 {
    ADCSRA.set(1 << 6);
    let mut polls = 0u16;
    while ADCSRA.read() & (1 << 6) != 0 && polls < 2000 {
        polls += 1;
    }
    let lo = ADCL.read();
    let hi = ADCH.read();
    u16::from_le_bytes([lo, hi])
}

/// A seed: 64 ADC readings of the floating A0 and the timer's count after each, folded with
/// what earlier calls left in `state` into two CRC-32 registers (the store's CRC code, one
/// copy in the program), the second also fed the first; the two registers are the seed and
/// the new `state`. No 64-bit arithmetic: small code on AVR (the SplitMix64 finaliser it
/// replaced multiplied 64-bit numbers).
pub fn entropy(state: &mut u64) -> u64 {
    let mut lo = *state as u32;
    let mut hi = (*state >> 32) as u32;
    for _ in 0..64 {
        let [a, b] = adc().to_le_bytes();
        let [c, d] = now().to_le_bytes();
        let sample = [a, b, c, d];
        lo = crc32_update(lo, &sample);
        hi = crc32_update(hi ^ lo, &sample);
    }
    *state = u64::from(lo) | u64::from(hi) << 32;
    *state
}
