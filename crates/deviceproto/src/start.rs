//! The values of a game-start frame, and the rules and seed they stand for.

use twenty48_engine::{FourChance, Opening, OpeningSpawn, Rules, Scoring, Win, MAX_OPENING};

/// Every value of a game-start frame (`t48 start ...`) but its check.
///
/// Laid out in memory as the frame's canonical bytes on a little-endian machine (packed, in
/// the frame's order; `ends` a byte, 0 or 1), so that a firmware sends and checks the values
/// as one run of bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, packed)]
pub struct StartFields {
    /// `v`: the protocol version ([`crate::PROTOCOL_VERSION`]).
    pub version: u8,
    /// `dev`: the device id.
    pub dev: u64,
    /// `game`: the game's number on its device.
    pub game: u32,
    /// `seed`: the game's seed.
    pub seed: u64,
    /// `size`: the board's side.
    pub size: u8,
    /// `four`, before the slash: the numerator of the chance of a 4.
    pub four_numerator: u32,
    /// `four`, after the slash: its denominator.
    pub four_denominator: u32,
    /// `opening`: the number of opening spawns.
    pub opening: u8,
    /// `twos`: a bit mask of the opening spawns that are always a 2 (bit 0 = the first).
    pub twos: u8,
    /// `win`: the winning exponent, 0 for no win.
    pub win: u8,
    /// `ends`: whether reaching the winning tile ends the game.
    pub ends: bool,
    /// `scoring`: 0 for merged values, 1 for merge count.
    pub scoring: u8,
}

impl StartFields {
    /// The start values of game `game` of device `dev`, played by `rules` from `seed`.
    ///
    /// Always inlined: its arguments (24 bytes with the result's pointer) overflow AVR's 18
    /// bytes of argument registers, and the ATmega2560 firmware's LLVM reads arguments
    /// passed on the stack one byte off (docs/firmware.md, "stack arguments").
    #[inline(always)]
    pub fn new(dev: u64, game: u32, rules: &Rules, seed: u64) -> StartFields {
        let spawns = rules.opening.spawns();
        let mut twos: u8 = 0;
        for (i, s) in spawns.iter().enumerate() {
            if *s == OpeningSpawn::Two {
                twos |= 1 << i;
            }
        }
        let (win, ends) = match rules.win {
            Some(w) => (w.exponent, w.ends_game),
            None => (0, false),
        };
        StartFields {
            version: crate::version::PROTOCOL_VERSION,
            dev,
            game,
            seed,
            size: rules.size,
            four_numerator: rules.four_chance.numerator,
            four_denominator: rules.four_chance.denominator,
            opening: spawns.len() as u8,
            twos,
            win,
            ends,
            scoring: match rules.scoring {
                Scoring::MergedValues => 0,
                Scoring::MergeCount => 1,
            },
        }
    }

    /// The rules these values describe, or why they describe none (an opening of no spawns
    /// or too many, an unknown scoring code, a `twos` bit past the opening). Whether the
    /// rules are playable is the engine's to say (`Game::new`).
    pub fn rules(&self) -> Result<Rules, &'static str> {
        let len = self.opening as usize;
        if len == 0 || len > MAX_OPENING {
            return Err("the opening has no spawns or more than the engine allows");
        }
        if len < 8 && self.twos >> len != 0 {
            return Err("the twos mask names spawns past the opening");
        }
        let mut spawns = [OpeningSpawn::Normal; MAX_OPENING];
        for (i, s) in spawns.iter_mut().enumerate().take(len) {
            if self.twos & (1 << i) != 0 {
                *s = OpeningSpawn::Two;
            }
        }
        let opening =
            Opening::new(&spawns[..len]).ok_or("the opening has no spawns or too many")?;
        let scoring = match self.scoring {
            0 => Scoring::MergedValues,
            1 => Scoring::MergeCount,
            _ => return Err("unknown scoring code"),
        };
        if self.win == 0 && self.ends {
            return Err("a game with no win cannot end by winning");
        }
        Ok(Rules {
            size: self.size,
            four_chance: FourChance::new(self.four_numerator, self.four_denominator),
            opening,
            win: (self.win != 0).then_some(Win {
                exponent: self.win,
                ends_game: self.ends,
            }),
            scoring,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip() {
        for rules in [Rules::CLASSIC, Rules::ARDUINO, Rules::CONSOLE] {
            let s = StartFields::new(7, 3, &rules, 99);
            assert_eq!(s.rules(), Ok(rules));
            assert_eq!(s.version, crate::PROTOCOL_VERSION);
        }
    }

    #[test]
    fn nonsense_is_refused() {
        let s = StartFields::new(7, 3, &Rules::CLASSIC, 99);
        assert!(StartFields { opening: 0, ..s }.rules().is_err());
        assert!(StartFields { opening: 9, ..s }.rules().is_err());
        assert!(StartFields { twos: 4, ..s }.rules().is_err());
        assert!(StartFields { scoring: 2, ..s }.rules().is_err());
        assert!(StartFields {
            win: 0,
            ends: true,
            ..s
        }
        .rules()
        .is_err());
    }
}
