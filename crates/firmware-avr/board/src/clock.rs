//! Time from Timer1, free running at clk/64 (4 us a tick at 16 MHz), and entropy from the
//! ADC's noise on the floating pin A0 mixed with the timer.

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

/// Waits at least `us` microseconds (in Timer1 ticks of 4 us, rounded up).
pub fn wait_us(us: u32) {
    let mut ticks = us.div_ceil(4);
    while ticks > 0 {
        let step = ticks.min(0x4000) as u16;
        let start = now();
        while now().wrapping_sub(start) < step {}
        ticks -= u32::from(step);
    }
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

/// SplitMix64's finaliser: spreads every input bit over the output. Out of line: one copy
/// of its 64-bit multiplies (AVR code size).
#[inline(never)]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seed: 64 ADC readings of the floating A0 and the timer's count after each, folded.
pub fn entropy(state: &mut u64) -> u64 {
    for _ in 0..64 {
        let sample = ((adc() as u64) << 16) | now() as u64;
        *state = mix(*state ^ sample).wrapping_add(0x9e37_79b9_7f4a_7c15);
    }
    mix(*state)
}
