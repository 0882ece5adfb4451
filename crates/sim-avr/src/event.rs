//! What the harness reports, line by line (the protocol is at the top of
//! crates/sim-avr/harness/).

use crate::eeprom::{Mode, Op};

/// A byte the firmware sent on the SPI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpiByte {
    /// Emulated time the byte started, in ns from power-on.
    pub at_ns: u64,
    /// The byte.
    pub byte: u8,
    /// The LCD's chip select was high (selected) when it started.
    pub selected: bool,
}

/// A watched output pin (the LCD's chip select, its reset) changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PinEdge {
    /// Emulated time, in ns from power-on.
    pub at_ns: u64,
    /// Which pin.
    pub pin: Watched,
    /// Its new level.
    pub high: bool,
}

/// The output pins the harness watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watched {
    /// The LCD's chip select (the ST7920's RS): high selects it.
    LcdSelect,
    /// The LCD's reset: low holds the controller in reset.
    LcdReset,
}

/// A rule of the hardware the firmware broke (an EEPROM register touched during a write,
/// an SPI byte written during a transfer, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Emulated time, in ns from power-on.
    pub at_ns: u64,
    /// The harness's name for it (`eeprom-read-while-busy`).
    pub what: String,
}

/// The stack went below the end of the static data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackBreach {
    /// Emulated time, in ns from power-on.
    pub at_ns: u64,
    /// The program counter (a byte address).
    pub pc: u32,
    /// The stack pointer.
    pub sp: u16,
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It reached the time it was given.
    Time,
    /// The firmware sent the number of frames (0x00 separators) waited for.
    Frames,
    /// The firmware went to sleep waiting for input (its idle loop: the buttons' timer
    /// wakes it once a millisecond) the number of times waited for.
    Idle,
    /// The power was cut (the harness's `--cut`).
    Cut,
    /// simavr stopped the chip: an invalid instruction or memory access.
    Crashed,
    /// The program slept with interrupts off (it ended).
    Done,
}

/// The harness's counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Emulated time, in ns from power-on.
    pub now_ns: u64,
    /// CPU cycles run.
    pub cycles: u64,
    /// The lowest stack pointer seen.
    pub min_sp: u16,
    /// EEPROM operations started.
    pub eeprom_ops: u64,
    /// Hardware rules broken.
    pub violations: u64,
    /// Reads of a released button whose pin had no pull-up (floating).
    pub floating_reads: u64,
    /// Byte times a byte for the USART waited because the chip's receive buffer was full
    /// (a link without flow control would have lost a byte each time).
    pub held_bytes: u64,
    /// The longest stretch of CPU cycles the firmware ran with interrupts off (SREG's I
    /// clear, awake), handlers included: the receive interrupt cannot take a byte then, and
    /// the USART holds two.
    pub interrupts_off_cycles: u64,
    /// Turns of the firmware's idle loop so far: times it went to sleep waiting for input, at
    /// least 0.5 ms apart (the buttons' timer wakes it once a millisecond; a received
    /// byte's wake-up between two ticks is not another turn).
    pub idles: u64,
}

/// One line from the harness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    Hello {
        protocol: u32,
    },
    Uart {
        at_ns: u64,
        byte: u8,
    },
    Spi(SpiByte),
    Pin {
        at_ns: u64,
        name: String,
        high: bool,
    },
    Eeprom(Op),
    Stack(StackBreach),
    Violation(Violation),
    Stop {
        at_ns: u64,
        stop: Stop,
    },
    Stats(Stats),
    Saved,
    Error(String),
}

/// Parses a line, `None` when it is not one the protocol has.
pub(crate) fn parse(line: &str) -> Option<Line> {
    let mut w = line.split_whitespace();
    let kind = w.next()?;
    if kind == "error" {
        return Some(Line::Error(line[5..].trim().to_string()));
    }
    if kind == "hello" {
        let _name = w.next()?;
        return Some(Line::Hello {
            protocol: w.next()?.parse().ok()?,
        });
    }
    if kind == "saved" {
        return Some(Line::Saved);
    }
    let mut num = || -> Option<u64> { w.next()?.parse().ok() };
    let at_ns = num()?;
    let line = match kind {
        "u" => Line::Uart {
            at_ns,
            byte: u8::try_from(num()?).ok()?,
        },
        "s" => Line::Spi(SpiByte {
            at_ns,
            byte: u8::try_from(num()?).ok()?,
            selected: num()? != 0,
        }),
        "e" => Line::Eeprom(Op {
            at_ns,
            k: num()?,
            mode: Mode::from_bits(u8::try_from(num()?).ok()?)?,
            addr: u16::try_from(num()?).ok()?,
            old: u8::try_from(num()?).ok()?,
            result: u8::try_from(num()?).ok()?,
        }),
        "x" => Line::Stack(StackBreach {
            at_ns,
            pc: u32::try_from(num()?).ok()?,
            sp: u16::try_from(num()?).ok()?,
        }),
        "stats" => Line::Stats(Stats {
            now_ns: at_ns,
            cycles: num()?,
            min_sp: u16::try_from(num()?).ok()?,
            eeprom_ops: num()?,
            violations: num()?,
            floating_reads: num()?,
            held_bytes: num()?,
            interrupts_off_cycles: num()?,
            idles: num()?,
        }),
        "p" | "v" | "stop" => {
            let rest: Vec<&str> = line.split_whitespace().skip(2).collect();
            match (kind, rest.as_slice()) {
                ("p", [name, level]) => Line::Pin {
                    at_ns,
                    name: name.to_string(),
                    high: *level == "1",
                },
                ("v", [what]) => Line::Violation(Violation {
                    at_ns,
                    what: what.to_string(),
                }),
                ("stop", [why]) => Line::Stop {
                    at_ns,
                    stop: match *why {
                        "time" => Stop::Time,
                        "frames" => Stop::Frames,
                        "idle" => Stop::Idle,
                        "cut" => Stop::Cut,
                        "crashed" => Stop::Crashed,
                        "done" => Stop::Done,
                        _ => return None,
                    },
                },
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_protocol_parses() {
        assert_eq!(
            parse("hello twenty48-avr-sim 2 atmega2560"),
            Some(Line::Hello { protocol: 2 })
        );
        assert_eq!(
            parse("u 10 255"),
            Some(Line::Uart {
                at_ns: 10,
                byte: 255
            })
        );
        assert_eq!(
            parse("s 10 248 1"),
            Some(Line::Spi(SpiByte {
                at_ns: 10,
                byte: 248,
                selected: true
            }))
        );
        assert!(matches!(
            parse("p 5 cs 0"),
            Some(Line::Pin { high: false, .. })
        ));
        assert!(matches!(
            parse("e 5 3 2 4095 255 18"),
            Some(Line::Eeprom(Op {
                k: 3,
                mode: Mode::Write,
                addr: 4095,
                ..
            }))
        ));
        assert!(matches!(parse("x 5 100 1000"), Some(Line::Stack(_))));
        assert!(matches!(
            parse("v 5 spi-write-collision"),
            Some(Line::Violation(_))
        ));
        assert_eq!(
            parse("stop 7 idle"),
            Some(Line::Stop {
                at_ns: 7,
                stop: Stop::Idle
            })
        );
        assert!(matches!(
            parse("stats 1 16 5000 3 0 0 0 40 9"),
            Some(Line::Stats(Stats { idles: 9, .. }))
        ));
        assert_eq!(parse("saved"), Some(Line::Saved));
        assert_eq!(parse("error bad pin"), Some(Line::Error("bad pin".into())));
    }

    #[test]
    fn anything_else_is_refused() {
        for line in [
            "",
            "u",
            "u x 1",
            "u 1 256",
            "e 1 1 3 0 0 0",
            "stop 1 sideways",
            "stats 1 16 5000 3 0 0 0 40",
            "zz 1",
        ] {
            assert_eq!(parse(line), None, "{line:?}");
        }
    }
}
